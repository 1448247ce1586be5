/**
 * Versioned migrations. `MIGRATIONS[i]` moves a store from `user_version` i to i+1.
 * Append only: never edit a migration that has shipped.
 *
 * Times are milliseconds since the epoch (INTEGER).
 */
export const MIGRATIONS: readonly string[] = [
  // 1: archive, ledger, retrievals, runs, session memory.
  `
  CREATE TABLE blobs (
    handle  TEXT PRIMARY KEY,          -- first 16 hex chars of SHA-256(data)
    data    BLOB NOT NULL,
    size    INTEGER NOT NULL,
    kind    TEXT NOT NULL,             -- 'fold' (a marker's receipt) or 'raw' (a run's trace)
    created INTEGER NOT NULL,
    used    INTEGER NOT NULL           -- last put or retrieve; retention counts from here
  );
  CREATE INDEX blobs_used ON blobs(used);

  -- One row per delivery (O(1) rows per run): a blob of 64-bit line hashes (see linehash.ts).
  CREATE TABLE deliveries (
    id      INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    agent   TEXT NOT NULL,
    cwd     TEXT NOT NULL,
    at      INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    hashes  BLOB NOT NULL
  );
  CREATE INDEX deliveries_reader ON deliveries(session, agent, id);
  CREATE INDEX deliveries_project ON deliveries(cwd, id, session);
  CREATE INDEX deliveries_at ON deliveries(at);

  -- A session forgets what it was shown (compaction, /clear): rows with id <= upto no longer count.
  CREATE TABLE resets (
    session TEXT PRIMARY KEY,
    upto    INTEGER NOT NULL,
    at      INTEGER NOT NULL
  );

  CREATE TABLE retrievals (
    id       INTEGER PRIMARY KEY,
    handle   TEXT NOT NULL,
    at       INTEGER NOT NULL,
    consumed INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX retrievals_at ON retrievals(at);

  CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    at               INTEGER NOT NULL,
    door             TEXT NOT NULL,
    host             TEXT,
    family           TEXT NOT NULL,
    command          TEXT,
    session          TEXT,
    cwd              TEXT,
    bytes_in         INTEGER NOT NULL,
    bytes_out        INTEGER NOT NULL,
    applied          INTEGER NOT NULL,
    raw_handle       TEXT,
    delivered_handle TEXT
  );
  CREATE INDEX runs_at ON runs(at);
  CREATE INDEX runs_session ON runs(session, at);

  CREATE TABLE hot_files (
    cwd    TEXT NOT NULL,
    path   TEXT NOT NULL,
    reads  INTEGER NOT NULL DEFAULT 0,
    edits  INTEGER NOT NULL DEFAULT 0,
    writes INTEGER NOT NULL DEFAULT 0,
    at     INTEGER NOT NULL,
    PRIMARY KEY (cwd, path)
  );
  CREATE INDEX hot_files_at ON hot_files(at);

  CREATE TABLE errors (
    cwd     TEXT PRIMARY KEY,
    command TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    at      INTEGER NOT NULL
  );

  CREATE TABLE facts (
    id   INTEGER PRIMARY KEY,
    cwd  TEXT NOT NULL,
    text TEXT NOT NULL,
    at   INTEGER NOT NULL
  );
  CREATE INDEX facts_cwd ON facts(cwd, id);

  CREATE TABLE goals (
    cwd  TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    at   INTEGER NOT NULL
  );

  CREATE TABLE sessions (
    session TEXT PRIMARY KEY,
    cwd     TEXT,
    source  TEXT,
    started INTEGER,
    ended   INTEGER,
    reason  TEXT,
    runs      INTEGER,
    bytes_in  INTEGER,
    bytes_out INTEGER
  );
  CREATE INDEX sessions_seen ON sessions(coalesce(ended, started));
  `,
  // 2: omni's own cost, netted against the saving by `omni stats` (lib/store/costs.ts).
  `
  CREATE TABLE costs (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    session  TEXT,
    what     TEXT NOT NULL,            -- 'mcp-tools': omni's tool definitions on model requests
    requests INTEGER NOT NULL,
    bytes    INTEGER NOT NULL
  );
  CREATE INDEX costs_at ON costs(at);
  `,
  // 3: what each reader was shown of each file, for re-reads (lib/store/file-views.ts).
  `
  CREATE TABLE file_views (
    id      INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    agent   TEXT NOT NULL,
    path    TEXT NOT NULL,
    at      INTEGER NOT NULL,
    start   INTEGER NOT NULL,          -- the first line number the host showed (its startLine)
    lines   INTEGER NOT NULL,          -- lines shown
    total   INTEGER NOT NULL,          -- the file's lines then (the host's totalLines)
    handle  TEXT NOT NULL,             -- the content shown, archived (blobs.handle)
    kind    TEXT NOT NULL              -- 'shown', or 'marker': a re-read answered "unchanged"
  );
  CREATE INDEX file_views_reader ON file_views(session, agent, path, id);
  CREATE INDEX file_views_at ON file_views(at);
  `,
  // 4: a large blob in pieces (lib/store/archive.ts): blobs.data holds its first piece, these rows
  // the rest in order. A row written whole before (length(data) = size) reads as it always did.
  `
  CREATE TABLE blob_parts (
    handle TEXT NOT NULL,              -- blobs.handle
    seq    INTEGER NOT NULL,           -- 1, 2, ... after the first piece in blobs.data
    data   BLOB NOT NULL,
    PRIMARY KEY (handle, seq)
  );
  CREATE TRIGGER blob_parts_gone AFTER DELETE ON blobs BEGIN
    DELETE FROM blob_parts WHERE handle = old.handle;
  END;
  `,
];
