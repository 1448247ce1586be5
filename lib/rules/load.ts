/**
 * Where rules live and which of them apply: the user's `$OMNI_HOME/rules.json` and the
 * project's `.omni/rules.json` (the working directory or its nearest ancestor that has one).
 *
 * A project file applies only once the user trusted its exact contents (`omni rules trust`:
 * its sha256, recorded in `$OMNI_HOME/trusted-rules.json`); a changed file needs trusting
 * again, so a cloned repository cannot bring rules of its own.
 *
 * Trust is checked before anything is parsed. A rules file is stat'ed first: only a regular
 * file of at most MAX_RULES_BYTES is ever opened (a FIFO, a directory or /dev/zero is refused
 * without a read). A project file the trust file does not name costs that stat and nothing
 * more; one it names is read and hashed, and only bytes whose hash is the trusted one are
 * JSON-parsed and validated. `omni rules test FILE` and `omni rules trust` parse an untrusted
 * file the user names on the command line (`evenUntrusted`): that is a person asking.
 *
 * Read once per process and re-read when a file's mtime, size or inode changes, so a
 * long-lived MCP server sees edits. With no rules file this costs a few stats: zod is loaded
 * only for a file that applies.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync, writeFileSync, renameSync, type Stats } from 'node:fs';
import { ensureDir } from '../base/ensure-dir.js';
import { dirname, join, resolve } from 'node:path';
import { omniHome } from '../store/open.js';
import { sha256Hex } from '../base/sha256.js';
import { logDiagnostic } from '../store/diagnostics.js';
import { validateRules, type Rule } from './schema.js';

export type RuleSource = 'project' | 'user';

/** One rules file as read: its rules, or why it is not used. */
export interface RulesFile {
  file: string;
  source: RuleSource;
  sha256: string;
  rules: Rule[];
  /** Errors naming the file, the rule and the field; non-empty means the file is not used. */
  errors: string[];
  /** Project files: the user trusted these exact contents. User files are always trusted. */
  trusted: boolean;
}

/** What applies in one directory, in precedence order (project before user). */
export interface RuleSet {
  files: RulesFile[];
  /** The rules that route, in precedence order, each with the file it came from. */
  active: Array<{ rule: Rule; file: RulesFile }>;
  /** One line each: a file ignored and why (untrusted, invalid). */
  notices: string[];
}

export const RULES_FILE = 'rules.json';
export const TRUST_FILE = 'trusted-rules.json';

/**
 * The largest rules file omni reads: 1 MiB. A rules file is written by hand (the README's
 * example is under 1 KB; a file of many rules, each with a captured example, stays in the tens
 * of KB), so a bigger one is not a rules file someone wrote. Reading, hashing, parsing and
 * validating 1 MiB costs tens of milliseconds, once per process and file version; the 17 MB
 * file a cloned repository can hold would cost seconds and hundreds of MiB on every hook.
 */
export const MAX_RULES_BYTES = 1 << 20;

export const userRulesPath = (home: string): string => join(home, RULES_FILE);
export const trustPath = (home: string): string => join(home, TRUST_FILE);

const keyOf = (s: Stats): string => `${s.mtimeMs}:${s.size}:${s.ino}`;

const statKey = (file: string): string | null => {
  try {
    const s = statSync(file);
    return s.isFile() ? keyOf(s) : null;
  } catch {
    return null;
  }
};

/** Is there anything at `file` (a regular file or not)? A dangling link is nothing. */
function present(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

const kindOf = (s: Stats): string => (s.isDirectory() ? 'a directory' : s.isFIFO() ? 'a FIFO' : s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : s.isSocket() ? 'a socket' : 'not a file');
const tooLarge = (file: string, size: number): string => `${file}: ${size} bytes, over the ${MAX_RULES_BYTES} bytes (1 MiB) a rules file may have; not read`;

/** What a stat says about a rules file before anything reads it: absent, refused (why), or its cache key. */
type Probe = { absent: true } | { absent: false; error: string } | { absent: false; error: null; key: string };

function probe(file: string): Probe {
  let s: Stats;
  try {
    s = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true };
    return { absent: false, error: `${file}: cannot read: ${(e as Error).message}` };
  }
  if (!s.isFile()) return { absent: false, error: `${file}: not a regular file (${kindOf(s)}), never opened` };
  if (s.size > MAX_RULES_BYTES) return { absent: false, error: tooLarge(file, s.size) };
  return { absent: false, error: null, key: keyOf(s) };
}

/**
 * The file's bytes, read through one descriptor that is checked again once open: a file
 * swapped for a FIFO after the stat neither blocks the open (O_NONBLOCK) nor is read, and no
 * more than MAX_RULES_BYTES are read whatever the file grew to.
 */
function readCapped(file: string): { bytes: Buffer } | { error: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { error: `${file}: cannot read: ${(e as Error).message}` };
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return { error: `${file}: not a regular file (${kindOf(s)}), never read` };
    if (s.size > MAX_RULES_BYTES) return { error: tooLarge(file, s.size) };
    const buf = Buffer.alloc(Math.min(MAX_RULES_BYTES, s.size) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) return { error: `${file}: changed while it was read; not used this time` }; // grew past its fstat
      const k = readSync(fd, buf, n, buf.length - n, null);
      if (k === 0) break;
      n += k;
    }
    return { bytes: buf.subarray(0, n) };
  } catch (e) {
    return { error: `${file}: cannot read: ${(e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** The project rules file for `cwd`: `<dir>/.omni/rules.json` for the nearest such dir. */
export function findProjectRules(cwd: string, home: string): string | null {
  const userFile = resolve(userRulesPath(home));
  let dir = resolve(cwd);
  for (let i = 0; i < 64; i++) {
    const f = join(dir, '.omni', RULES_FILE);
    // Whatever is there is the nearest file, a FIFO or a directory too: it is refused, not skipped.
    if (present(f)) return f === userFile ? null : f;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

/** One version of a file as read: its hash, and once it applies, its rules or errors. */
interface Read { key: string; sha256: string; parsed: { rules: Rule[]; errors: string[] } | null }
const readCache = new Map<string, Read>();

/** Test seam: how many times a rules file was JSON-parsed and validated in this process. */
export const parseCount = { n: 0 };

function parse(file: string, bytes: Buffer): { rules: Rule[]; errors: string[] } {
  parseCount.n++;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    return { rules: [], errors: [`${file}: not valid JSON: ${(e as Error).message}`] };
  }
  return validateRules(json, file);
}

interface TrustCache { key: string | null; files: Record<string, string> }
let trustCache: TrustCache | null = null;
let trustCacheHome = '';

/** `{ files: { "/abs/.omni/rules.json": "<sha256>" } }`: hand-checked, no zod. */
export function readTrust(home: string): Record<string, string> {
  const f = trustPath(home);
  const key = statKey(f);
  if (trustCache && trustCacheHome === home && trustCache.key === key) return trustCache.files;
  const files: Record<string, string> = {};
  if (key !== null) {
    try {
      const j = JSON.parse(readFileSync(f, 'utf8')) as { files?: unknown };
      if (j && typeof j.files === 'object' && j.files) {
        for (const [k, v] of Object.entries(j.files as Record<string, unknown>)) {
          const sha = v && typeof v === 'object' ? (v as { sha256?: unknown }).sha256 : v;
          if (typeof sha === 'string' && /^[0-9a-f]{64}$/.test(sha)) files[k] = sha;
        }
      }
    } catch (e) {
      logDiagnostic('rules', `${f}: not valid JSON (${(e as Error).message}); no project rules file is trusted`, { OMNI_HOME: home });
    }
  }
  trustCache = { key, files };
  trustCacheHome = home;
  return files;
}

/** A file's trust key: its real path, so a symlinked cwd (macOS /tmp, a host's own cwd) finds the same entry. */
function trustKey(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * Records `file`'s contents as trusted: the `sha256` of the bytes the caller validated, so
 * what is trusted is exactly what was checked, or else the hash of the file's bytes now.
 * Returns the sha256 trusted.
 */
export function trustFile(home: string, file: string, sha256?: string): string {
  const abs = trustKey(file);
  let sha = sha256;
  if (!sha) {
    const r = readCapped(abs);
    if ('error' in r) throw new Error(r.error);
    sha = sha256Hex(r.bytes);
  }
  const f = trustPath(home);
  let doc: { version: number; files: Record<string, { sha256: string; trustedAt: string }> } = { version: 1, files: {} };
  try {
    const j = JSON.parse(readFileSync(f, 'utf8'));
    if (j && typeof j === 'object' && j.files && typeof j.files === 'object') doc = { version: 1, files: j.files };
  } catch {
    /* no trust file yet */
  }
  doc.files[abs] = { sha256: sha, trustedAt: new Date().toISOString() };
  ensureDir(home);
  const tmp = `${f}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, f);
  trustCache = null;
  return sha;
}

/** The sha256 the trust file records for this project file, if any (its real path is the key). */
function trustedSha(home: string, file: string): string | undefined {
  const files = readTrust(home);
  for (const _ in files) return files[trustKey(file)];
  return undefined; // nothing is trusted at all: not even a realpath
}

/** Problems are logged once per file version and process, and only for a file that would apply. */
const logged = new Set<string>();
function logOnce(file: string, version: string, errors: string[], home: string): void {
  const id = `${file}\0${version}`;
  if (!errors.length || logged.has(id)) return;
  logged.add(id);
  for (const err of errors) logDiagnostic('rules', `${err} (omni carries on without this file)`, { OMNI_HOME: home });
}

export interface ReadOptions {
  /** Parse and validate a project file even when it is not trusted: the user named it (`omni rules test FILE`, `trust`). */
  evenUntrusted?: boolean;
}

/**
 * Reads one rules file as `source` (null when nothing is there). In this order, each step
 * only when the one before allows it: the stat (a regular file within the cap), for a project
 * file the trust file's entry, the bytes and their hash, then parse and validate.
 */
export function readRulesFile(file: string, source: RuleSource, home: string, opts: ReadOptions = {}): RulesFile | null {
  const p = probe(file);
  if (p.absent) return null;
  const bare = (errors: string[], sha256 = ''): RulesFile => ({ file, source, sha256, rules: [], errors, trusted: false });
  // The sha256 this project file must have to apply; undefined when the trust file names it not.
  const want = source === 'project' ? trustedSha(home, file) : undefined;
  const applies = source === 'user' || want !== undefined;
  if (p.error !== null) {
    if (applies) logOnce(file, 'refused', [p.error], home);
    return bare([p.error]);
  }
  // An untrusted project file nobody named costs the stat above and nothing more.
  if (!applies && !opts.evenUntrusted) return bare([]);
  let r = readCache.get(file);
  if (!r || r.key !== p.key) {
    const b = readCapped(file);
    if ('error' in b) {
      if (applies) logOnce(file, p.key, [b.error], home);
      return bare([b.error]);
    }
    r = { key: p.key, sha256: sha256Hex(b.bytes), parsed: null };
    if (source === 'user' || want === r.sha256 || opts.evenUntrusted) r.parsed = parse(file, b.bytes);
    readCache.set(file, r);
  }
  const trusted = source === 'user' || want === r.sha256;
  if (!trusted && !opts.evenUntrusted) return bare([], r.sha256);
  if (!r.parsed) {
    // Read before when it did not apply (hashed, not parsed); it does now: read it again.
    readCache.delete(file);
    return readRulesFile(file, source, home, opts);
  }
  if (trusted) logOnce(file, r.key, r.parsed.errors, home);
  return { file, source, sha256: r.sha256, rules: r.parsed.rules, errors: r.parsed.errors, trusted };
}

/** Builds the set from the files read: invalid and untrusted files route nothing. */
export function ruleSetOf(files: RulesFile[]): RuleSet {
  const active: RuleSet['active'] = [];
  const notices: string[] = [];
  for (const f of files) {
    if (f.errors.length) notices.push(`omni rules: ${f.file} is not used: ${f.errors.length} error${f.errors.length === 1 ? '' : 's'} (see \`omni rules test\`)`);
    else if (!f.trusted) notices.push(`omni rules: ${f.file} is not trusted, its rules are ignored (review it, then \`omni rules trust ${f.file}\`)`);
    else for (const rule of f.rules) active.push({ rule, file: f });
  }
  return { files, active, notices };
}

/**
 * The rules that apply in `cwd` for the omni home `home` (default `$OMNI_HOME` or ~/.omni).
 * `evenUntrusted` (`omni rules test` and `explain`, a person asking): an untrusted project
 * file is parsed too, so its errors can be shown; it still applies only once trusted.
 */
export function loadRuleSet(cwd: string | undefined, home: string = omniHome(), opts: ReadOptions = {}): RuleSet {
  const files: RulesFile[] = [];
  const projectFile = cwd ? findProjectRules(cwd, home) : null;
  const project = projectFile ? readRulesFile(projectFile, 'project', home, opts) : null;
  if (project) files.push(project);
  const user = readRulesFile(userRulesPath(home), 'user', home);
  if (user) files.push(user);
  return ruleSetOf(files);
}
