/**
 * `omni discover [--since 7d] [--project DIR] [--json]`: replays the shell and Read results the
 * hosts kept in their own session logs through the one pipeline, and says what omni would have
 * delivered, per command family, and which commands no distiller owns (what to write a rule for).
 *
 * - Sources: every host's own session logs, each read by the `HostLog` its folder exports
 *   (lib/hosts/logs.ts lists them: Claude Code's projects/, Codex's rollouts, Gemini CLI's chats).
 * - The replay is the hook door's own: the host adapter reads a PostToolUse payload rebuilt from
 *   the record, and the post-tool decision the hook calls (`handlePostTool`,
 *   lib/doors/post-tool.ts) takes it with the throwaway store: pipeline, archive, ledger, re-reads,
 *   run record, and the adapter's reply writer saying whether the host would have applied it. A
 *   failure (Claude Code's `is_error`, Codex's non-zero exit) is never distilled: it counts as
 *   verbatim.
 * - Nothing of the user's is written: the store is a throwaway in a temporary directory (and
 *   OMNI_HOME points there for the run, so diagnostics go there too); the host's files are only
 *   read. Files are streamed line by line (split2), so memory is bounded by the longest line.
 */
import { closeSync, createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import split2 from 'split2';
import through2 from 'through2';
import type { Io } from './io.js';
import { formatBytes, parseSince } from './stats.js';
import { describeProducer, routeCommand, type Route } from '../distillers/registry.js';
import { commandHead } from '../doors/run-record.js';
import { handlePostTool } from '../doors/post-tool.js';
import { LazyStore } from '../doors/store-access.js';
import { LockBudget, openStore, type Store } from '../store/open.js';
import { isObject, type HostId } from '../hosts/adapter.js';
import { HOST_LOGS } from '../hosts/logs.js';
import { openRegularFile, readRegularFile } from '../hosts/read-text.js';
import type { Call, HostLog, LogReader } from '../hosts/session-log.js';

export const DEFAULT_SINCE = '7d';
/** A longer line (one record) is skipped: it bounds the memory a replay needs. */
export const MAX_LINE_BYTES = 64 << 20;
/** How many unowned commands the report lists. */
export const TOP_UNOWNED = 10;
const PROGRESS_MS = 250;

export interface Row {
  calls: number;
  failed: number;
  /** Bytes of the failures, all delivered verbatim. */
  failedBytes: number;
  applied: number;
  bytesIn: number;
  bytesDelivered: number;
  bytesSaved: number;
}

export interface DiscoverReport {
  since: string;
  period: string;
  project: string | null;
  /** Per host, in lib/hosts/logs.ts's order: where its logs lie, how many and how large. */
  hosts: Record<string, { dir: string; files: number; bytes: number }>;
  lines: number;
  malformed: number;
  /** Results with no tool call in the same log (their command is unknown; not replayed). */
  unpaired: number;
  total: Row;
  byFamily: Array<Row & { family: string }>;
  /** Shell commands no specific distiller owns (route generic or none), most bytes first. */
  unowned: Array<Row & { command: string; route: string }>;
  seconds: number;
}

const emptyRow = (): Row => ({ calls: 0, failed: 0, failedBytes: 0, applied: 0, bytesIn: 0, bytesDelivered: 0, bytesSaved: 0 });

function add(r: Row, o: { failed: boolean; applied: boolean; bytesIn: number; bytesDelivered: number }): void {
  r.calls++;
  if (o.failed) {
    r.failed++;
    r.failedBytes += o.bytesIn;
  }
  if (o.applied) r.applied++;
  r.bytesIn += o.bytesIn;
  r.bytesDelivered += o.bytesDelivered;
  r.bytesSaved += o.bytesIn - o.bytesDelivered;
}

// ---------------------------------------------------------------------------------------------
// The logs: each host's own files, through its HostLog.

interface LogFile {
  log: HostLog;
  path: string;
  size: number;
  mtimeMs: number;
}

export function findLogs(env: NodeJS.ProcessEnv, opts: { from: number; project: string | null }): LogFile[] {
  const files: LogFile[] = [];
  for (const log of HOST_LOGS) {
    for (const path of log.files(env, opts.project)) {
      try {
        const s = statSync(path);
        // A log last written before the window holds nothing inside it.
        if (s.mtimeMs >= opts.from) files.push({ log, path, size: s.size, mtimeMs: s.mtimeMs });
      } catch {
        /* gone meanwhile */
      }
    }
  }
  // Oldest first: the ledger then sees the sessions in the order they happened.
  return files.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : 1));
}

// ---------------------------------------------------------------------------------------------
// The replay: what the hook door would have done with each result.

interface Outcome {
  failed: boolean;
  applied: boolean;
  bytesIn: number;
  bytesDelivered: number;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** What the hook would have done with one result: the same decision, over the throwaway store. */
const LOG_OF = new Map<HostId, HostLog>(HOST_LOGS.map((l) => [l.id, l]));

export async function replay(call: Call, store: LazyStore, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const input = call.input;
  if (call.failed || !input) {
    const n = bytes(call.failureText ?? '');
    return { failed: call.failed, applied: false, bytesIn: n, bytesDelivered: n };
  }
  // No session memory: nothing of the replay is kept.
  const log = LOG_OF.get(call.host)!;
  const readOutputFile = (path: string) => (log.outputFile ? log.outputFile(call, path) : readRegularFile(path));
  const r = await handlePostTool(log.adapter, input, call.payload, { store, env, log: () => {}, readOutputFile, sessionMemory: false });
  return { failed: false, applied: r.reply !== '', bytesIn: bytes(r.text), bytesDelivered: bytes(r.delivered) };
}

// ---------------------------------------------------------------------------------------------
// The run.

/**
 * No other process knows the throwaway store, so there is no lock to wait for and nothing to
 * budget. A shared budget would also be spent by slow statements over a long replay, and
 * lowering busy_timeout then runs a pragma while the ledger's iterator is open ("connection is
 * busy"), which cost the ledger and the archive for the rest of the run.
 */
class NoWaitBudget extends LockBudget {
  override charge(): void {}
}

/** The hook door's LazyStore over the throwaway store, with its own budget. */
class ThrowawayStore extends LazyStore {
  private own: Store | null = null;
  constructor(private readonly dir: string) {
    super(dir);
  }
  override get(): Store | null {
    this.own ??= openStore({ home: this.dir, budget: new NoWaitBudget(BUSY_TIMEOUT) });
    return this.own;
  }
  override close(): void {
    try {
      this.own?.close();
    } catch {
      /* best effort: the directory goes next */
    }
    this.own = null;
  }
}
const BUSY_TIMEOUT = 2000;

/** The signals that end a replay early; the throwaway store goes with it. */
const INTERRUPTS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** A shell's status for a death by `sig`: 128+N. */
const signalExit = (sig: NodeJS.Signals): number => 128 + (osConstants.signals[sig] ?? 0);

/** The replay was stopped by a signal; nothing of it was left behind. */
export class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

export interface DiscoverOptions {
  since: string;
  project: string | null;
  env: NodeJS.ProcessEnv;
  /** Called now and then with the bytes read so far (the progress line). */
  progress?: (readBytes: number, totalBytes: number, calls: number) => void;
}

export async function discover(opts: DiscoverOptions): Promise<DiscoverReport> {
  const t0 = Date.now();
  const ms = parseSince(opts.since);
  if (ms === null) throw new Error(`--since takes a duration like 30m, 24h, 7d, 2w or 'all' (got '${opts.since}')`);
  const from = ms === Infinity ? 0 : Date.now() - ms;
  const files = findLogs(opts.env, { from, project: opts.project });
  const hosts: DiscoverReport['hosts'] = Object.fromEntries(HOST_LOGS.map((l) => [l.id, { dir: l.dir(opts.env), files: 0, bytes: 0 }]));
  for (const f of files) {
    hosts[f.log.id].files++;
    hosts[f.log.id].bytes += f.size;
  }
  const run = new Replay(opts, files.reduce((n, f) => n + f.size, 0));
  try {
    const seen = new Set<string>();
    for (const f of files) {
      const reader = f.log.reader(f.path, { from, project: opts.project }, seen);
      if (run.interrupted) break;
      await run.file(f, reader);
      if (run.interrupted) break;
    }
  } finally {
    run.done();
  }
  if (run.interrupted) throw new Interrupted(run.interrupted);
  return {
    since: new Date(from).toISOString(),
    period: opts.since,
    project: opts.project ? resolve(opts.project) : null,
    hosts,
    lines: run.lines,
    malformed: run.malformed,
    unpaired: run.unpaired,
    total: run.accounts.total,
    byFamily: run.accounts.families(),
    unowned: run.accounts.topUnowned(),
    seconds: (Date.now() - t0) / 1000,
  };
}

/** What a replay adds up: every result, per family, and the shell commands no distiller owns. */
class Accounts {
  readonly total = emptyRow();
  private readonly byFamily = new Map<string, Row>();
  private readonly unowned = new Map<string, Row & { command: string; route: string }>();

  add(call: Call, o: Outcome): void {
    add(this.total, o);
    const route = routeCommand(call.command);
    const family = call.tool === 'read' ? 'read (Read tool)' : route.family;
    if (!this.byFamily.has(family)) this.byFamily.set(family, emptyRow());
    add(this.byFamily.get(family)!, o);
    if (call.tool === 'shell') {
      for (const { head, why } of unownedProducers(route, call.command)) {
        if (!this.unowned.has(head)) this.unowned.set(head, { ...emptyRow(), command: head, route: why });
        add(this.unowned.get(head)!, o);
      }
    }
  }

  families(): DiscoverReport['byFamily'] {
    return [...this.byFamily].map(([family, r]) => ({ family, ...r, k: family })).sort(byBytes).map(({ k: _k, ...r }) => r);
  }

  topUnowned(): DiscoverReport['unowned'] {
    return [...this.unowned.values()].map((r) => ({ ...r, k: r.command })).sort(byBytes).slice(0, TOP_UNOWNED).map(({ k: _k, ...r }) => r);
  }
}

const byBytes = <T extends Row>(a: T & { k: string }, b: T & { k: string }) => b.bytesIn - a.bytesIn || (a.k < b.k ? -1 : 1);

/** A replay's throwaway store lives in TMPDIR under a name that says which process made it. */
const THROWAWAY = /^omni-discover-(\d+)-/;

/**
 * A fresh throwaway home, after removing the ones a replay killed outright (SIGKILL, a crash)
 * left behind: only omni's own names, only where the process that made it is gone. A live
 * process of that number (or one of another user's) keeps its directory.
 */
function throwawayHome(): string {
  const dir = tmpdir();
  try {
    for (const name of readdirSync(dir)) {
      const m = THROWAWAY.exec(name);
      if (!m || processAlive(Number(m[1]))) continue;
      try { rmSync(join(dir, name), { recursive: true, force: true }); } catch { /* not ours to remove */ }
    }
  } catch { /* an unreadable TMPDIR: nothing to sweep */ }
  return mkdtempSync(join(dir, `omni-discover-${process.pid}-`));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists and is another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One replay under way: the throwaway store (and OMNI_HOME pointing at it, so nothing of the
 * user's is written), the counts, and the signals that stop it. Interrupted (Ctrl-C, a kill), it
 * stops at the next record and leaves nothing behind in TMPDIR; a second signal while that is
 * under way removes the store at once and ends the process. Killed outright, it leaves its
 * store, which the next replay removes (`throwawayHome`).
 */
class Replay {
  readonly accounts = new Accounts();
  lines = 0;
  malformed = 0;
  unpaired = 0;
  interrupted: NodeJS.Signals | null = null;
  private readBytes = 0;
  private lastProgress = 0;
  private reading: { destroy(): void } | null = null;
  private readonly home = throwawayHome();
  private readonly saved = process.env.OMNI_HOME;
  private readonly env: NodeJS.ProcessEnv;
  private readonly store: ThrowawayStore;
  private readonly onSignal = (sig: NodeJS.Signals) => {
    if (this.interrupted) {
      try { this.cleanUp(); } finally { process.exit(signalExit(sig)); }
    }
    this.interrupted = sig;
    this.reading?.destroy();
  };

  constructor(private readonly opts: DiscoverOptions, private readonly totalBytes: number) {
    process.env.OMNI_HOME = this.home;
    this.env = { ...opts.env, OMNI_HOME: this.home };
    delete this.env.OMNI_PASSTHROUGH;
    this.store = new ThrowawayStore(this.home);
    for (const sig of INTERRUPTS) process.on(sig, this.onSignal);
  }

  /** One log, record by record: each call replayed and accounted. */
  async file(f: LogFile, reader: LogReader): Promise<void> {
    // Only a regular file, read up to the size it had when opened: a log still being written
    // (this very session's) cannot keep the replay going, nor can a FIFO put in its place.
    let opened: { fd: number; size: number };
    try {
      opened = openRegularFile(f.path);
    } catch {
      return;
    }
    if (opened.size === 0) {
      closeSync(opened.fd);
      return;
    }
    const source = createReadStream('', { fd: opened.fd, start: 0, end: opened.size - 1, highWaterMark: 1 << 20 });
    source.on('data', (b) => (this.readBytes += b.length));
    this.reading = { destroy: () => source.destroy(new Error('interrupted')) };
    try {
      for await (const rec of this.records(source)) {
        for (const call of reader.feed(rec)) {
          if (this.interrupted) break;
          await this.account(call);
          // A replay from buffered records runs on promises alone; a turn of the event
          // loop lets a signal's handler run between two calls.
          await new Promise<void>((r) => setImmediate(r));
        }
        if (this.interrupted) break;
        this.progress();
      }
    } catch {
      // An unreadable file (gone, no permission) costs that file only.
    } finally {
      this.reading = null;
      source.destroy();
    }
    if (this.interrupted) return;
    for (const call of reader.end?.() ?? []) await this.account(call);
    this.unpaired += reader.unpaired;
  }

  /**
   * The file's lines as records: one small object transform (through2, the stack's own) turns
   * lines into records and counts what is not one.
   */
  private records(source: ReturnType<typeof createReadStream>): AsyncIterable<Record<string, unknown>> {
    const lineStream = source.pipe(split2({ maxLength: MAX_LINE_BYTES, skipOverflow: true } as split2.Options));
    const self = this;
    const records = lineStream.pipe(
      through2.obj(function toRecord(line: string, _enc, done) {
        if (line !== '') {
          self.lines++;
          let rec: unknown;
          try {
            rec = JSON.parse(line);
          } catch {
            rec = undefined;
          }
          if (isObject(rec)) this.push(rec);
          else self.malformed++;
        }
        done();
      }),
    );
    source.on('error', (err) => lineStream.destroy(err));
    lineStream.on('error', (err) => records.destroy(err));
    return records as AsyncIterable<Record<string, unknown>>;
  }

  private async account(call: Call): Promise<void> {
    let o: Outcome;
    try {
      o = await replay(call, this.store, this.env);
    } catch {
      // Fail open, as the hook does: an internal fault leaves the result untouched.
      const n = bytes(call.failureText ?? (call.input && call.input.tool === 'shell' ? call.input.output : call.input?.content ?? ''));
      o = { failed: call.failed, applied: false, bytesIn: n, bytesDelivered: n };
    }
    this.accounts.add(call, o);
  }

  private progress(): void {
    if (!this.opts.progress || Date.now() - this.lastProgress <= PROGRESS_MS) return;
    this.lastProgress = Date.now();
    this.opts.progress(this.readBytes, this.totalBytes, this.accounts.total.calls);
  }

  private cleanUp(): void {
    this.store.close();
    rmSync(this.home, { recursive: true, force: true });
  }

  /** The signals released, OMNI_HOME as it was, the throwaway store gone. */
  done(): void {
    for (const sig of INTERRUPTS) process.off(sig, this.onSignal);
    if (this.saved === undefined) delete process.env.OMNI_HOME;
    else process.env.OMNI_HOME = this.saved;
    this.cleanUp();
  }
}

// ---------------------------------------------------------------------------------------------
// Printing.

function pct(r: Row): string {
  return r.bytesIn > 0 ? `${((100 * r.bytesSaved) / r.bytesIn).toFixed(1)}%` : '-';
}

/** Numbers right-aligned; names (the first column, and a trailing `route`) left-aligned. */
function table(head: string[], rows: string[][]): string {
  const all = [head, ...rows];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const left = (i: number) => i === 0 || head[i] === 'route';
  return all.map((r) => r.map((c, i) => (left(i) ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

const cells = (r: Row) => [String(r.calls), String(r.failed), formatBytes(r.bytesIn), formatBytes(r.bytesDelivered), formatBytes(r.bytesSaved), pct(r)];

/**
 * The producers of a command line no spec owns, by program and subcommand (never arguments),
 * each with why: a chain's own producers (`cd app && rm -rf x && npm install` is npm's, and
 * install owns it), not its first word. A producer that names no tool (`make test`) is read by
 * the specs its output names, so it is not one.
 */
export function unownedProducers(route: Route, command: string | undefined): Array<{ head: string; why: string }> {
  if (!route.distiller) return route.known ? [] : [{ head: commandHead(command) ?? '(empty)', why: `passed through: ${route.reason}` }];
  if (!route.producers) return route.known ? [] : [{ head: commandHead(command) ?? '(empty)', why: route.reason }];
  const alone = route.producers.filter((p) => p.spec.name === 'generic' && !p.open && !p.reshaped);
  const others = route.producers.filter((p) => !alone.includes(p));
  const beside = others.length ? ` (beside ${others.map(describeProducer).join(', ')})` : '';
  // As commandHead names a run: program and first argument, options dropped, never their values.
  return alone.map((p) => ({ head: p.argv.slice(0, 2).filter((w) => !w.startsWith('-')).join(' ').slice(0, 80) || '(empty)', why: `${p.reason}${beside}` }));
}

export function formatReport(rep: DiscoverReport): string {
  const t = rep.total;
  const where = Object.entries(rep.hosts).map(([h, r]) => `  ${h.padEnd(6)} ${r.files} file${r.files === 1 ? '' : 's'}, ${formatBytes(r.bytes)} in ${r.dir}`).join('\n');
  let out =
    `omni discover since ${rep.period === 'all' ? 'the beginning' : rep.since} (${rep.period})${rep.project ? `, project ${rep.project}` : ''}\n` +
    `${where}\n` +
    `${rep.lines} lines read, ${rep.malformed} malformed (skipped), ${rep.unpaired} results without their call\n` +
    `${t.calls} shell and Read results, ${t.failed} failures (verbatim), ${t.applied} distilled: ${formatBytes(t.bytesIn)} -> ${formatBytes(t.bytesDelivered)}, ${formatBytes(t.bytesSaved)} saved (${pct(t)})\n`;
  if (t.calls === 0) return out;
  const head = ['calls', 'failed', 'bytes', 'delivered', 'saved', 'saved %'];
  out += '\n' + table(['family', ...head], rep.byFamily.map((r) => [r.family, ...cells(r)]));
  if (rep.unowned.length) {
    out += `\nCommands no distiller owns, most bytes first (write a rule for these):\n`;
    out += table(['command', ...head, 'route'], rep.unowned.map((r) => [r.command, ...cells(r), r.route]));
  }
  return out;
}

const USAGE = 'usage: omni discover [--since 7d] [--project DIR] [--json]\n';

export async function run(argv: string[], io: Io): Promise<number> {
  let since = DEFAULT_SINCE;
  let project: string | null = null;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--since') since = argv[++i] ?? '';
    else if (a.startsWith('--since=')) since = a.slice('--since='.length);
    else if (a === '--project') project = argv[++i] ?? '';
    else if (a.startsWith('--project=')) project = a.slice('--project='.length);
    else {
      io.stderr.write(`omni discover: unknown argument '${a}'\n${USAGE}`);
      return 2;
    }
  }
  if (parseSince(since) === null) {
    io.stderr.write(`omni discover: --since takes a duration like 30m, 24h, 7d, 2w or 'all' (got '${since}')\n`);
    return 2;
  }
  if (project === '') {
    io.stderr.write(`omni discover: --project needs a directory\n${USAGE}`);
    return 2;
  }
  const tty = (io.stderr as NodeJS.WriteStream).isTTY === true;
  const progress = tty
    ? (read: number, totalBytes: number, calls: number) => io.stderr.write(`\romni discover: ${formatBytes(read)} of ${formatBytes(totalBytes)} read, ${calls} results replayed\x1b[K`)
    : undefined;
  let rep: DiscoverReport;
  try {
    rep = await discover({ since, project, env: process.env, progress });
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    io.stderr.write(`${tty ? '\r\x1b[K' : ''}omni discover: interrupted (${err.signal}); nothing was left behind\n`);
    return signalExit(err.signal);
  }
  if (tty) io.stderr.write('\r\x1b[K');
  io.stdout.write(json ? JSON.stringify(rep, null, 2) + '\n' : formatReport(rep));
  return 0;
}
