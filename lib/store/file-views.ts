/**
 * What each reader was shown of each file: one row per Read the model got (its range, the
 * file's line count then, the content archived under a handle), so a re-read can be answered
 * from it. Reader scope as the ledger's (session, agent): a subagent is never told that its
 * parent saw a file. Forgotten with the ledger when the session's context is reset
 * (`forgetSession`), pruned by age with the working data.
 */
import type { Store } from './open.js';
import { ARCHIVE_BLOB_CAP, getBlob, putBlob } from './archive.js';
import { MAIN_AGENT } from './ledger.js';

export interface FileViewRow {
  sessionId: string;
  agentId?: string;
  path: string;
  at: number;
  startLine: number;
  lines: number;
  totalLines: number;
  handle: string;
  /**
   * 'shown': a Read the reader got; 'marker': a re-read answered "unchanged" (the content is what
   * the marker stood for); 'edit', 'write': the file as the reader's own call left it.
   */
  kind: ViewKind;
}

export type ViewKind = 'shown' | 'marker' | 'edit' | 'write';

/** Newest views of one file read, at most this many (the newest that covers a read is among them). */
export const FILE_VIEWS_CAP = 8;

const agentOf = (a?: string) => (a && a.length > 0 ? a : MAIN_AGENT);

/**
 * A view with its content: the content archived under its handle, then the view (within the
 * caller's transaction). Content over the archive's cap is not recorded: no view, no answer.
 */
export function recordHeldView(store: Store, v: Omit<FileViewRow, 'handle'> & { content: Uint8Array }): void {
  const { content, ...view } = v;
  if (content.byteLength > ARCHIVE_BLOB_CAP) return;
  recordFileView(store, { ...view, handle: putBlob(store, content, { kind: 'fold', now: view.at }) });
}

export function recordFileView(store: Store, v: FileViewRow): void {
  store
    .stmt('INSERT INTO file_views(session, agent, path, at, start, lines, total, handle, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(v.sessionId, agentOf(v.agentId), v.path, v.at, v.startLine, v.lines, v.totalLines, v.handle, v.kind);
}

/** A view with its content, as the archive holds it; a view whose content is gone ends the list. */
export interface LoadedView {
  at: number;
  startLine: number;
  totalLines: number;
  content: string;
  kind: 'shown' | 'marker';
  /** How the reader came to hold it: a Read, or its own Edit or Write. */
  via: 'read' | 'edit' | 'write';
}

/**
 * This reader's views of `path`, newest first, with their content read from the archive. A view
 * whose blob was pruned cannot be compared with, and nothing older than it is trusted either.
 */
export function loadFileViews(store: Store, scope: { sessionId: string; agentId?: string; path: string }): LoadedView[] {
  const rows = store
    .stmt('SELECT at, start, total, handle, kind FROM file_views WHERE session = ? AND agent = ? AND path = ? ORDER BY id DESC LIMIT ?')
    .all(scope.sessionId, agentOf(scope.agentId), scope.path, FILE_VIEWS_CAP) as { at: number; start: number; total: number; handle: string; kind: string }[];
  const out: LoadedView[] = [];
  const cache = new Map<string, string | null>();
  for (const r of rows) {
    let content = cache.get(r.handle);
    if (content === undefined) {
      const b = getBlob(store, r.handle);
      content = b ? b.toString('utf8') : null;
      cache.set(r.handle, content);
    }
    if (content === null) break;
    const via = r.kind === 'edit' || r.kind === 'write' ? r.kind : 'read';
    out.push({ at: r.at, startLine: r.start, totalLines: r.total, content, kind: r.kind === 'marker' ? 'marker' : 'shown', via });
  }
  return out;
}
