/** The store's public surface (docs/architecture.md: `openStore()` in lib/store/index.ts). */
export { openStore, omniHome, quarantineStore, StoreError, BUSY_TIMEOUT_MS, CLI_BUSY_TIMEOUT_MS, SCHEMA_VERSION, type Store, type StoreFailure } from './open.js';
export { putBlob, getBlob, handleOf, isHandle, recordRetrieval, ARCHIVE_BLOB_CAP, BlobTooLarge, type BlobKind } from './archive.js';
export { recordDelivered, loadShown, forgetSession, type ReaderScope, type Shown } from './ledger.js';
export { lineHash, packHashes, ShownSet, SortedHashSet, SHOWN_SET_CAP, type HashLookup } from './linehash.js';
export * from './memory.js';
export { recordRun, statsSummary, lastRun, type RunRow, type RunRecord, type StatsSummary, type Totals } from './stats.js';
export { prune, PRUNE_HOOK_BUDGET_MS, WORKING_RETENTION_MS, RAW_RETENTION_MS } from './prune.js';
export { recordDistillation, type Distillation } from './record.js';
