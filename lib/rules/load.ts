/**
 * Where rules live and which of them apply: the user's `$OMNI_HOME/rules.json` and the
 * project's `.omni/rules.json` (the working directory or its nearest ancestor that has one).
 *
 * A project file applies only once the user trusted its exact contents (`omni rules trust`:
 * its sha256, recorded in `$OMNI_HOME/trusted-rules.json`); a changed file needs trusting
 * again, so a cloned repository cannot bring rules of its own.
 *
 * Read once per process and re-read when a file's mtime, size or inode changes, so a
 * long-lived MCP server sees edits. With no rules file this costs a few stats: the file
 * is parsed (and zod loaded) only when it exists.
 */
import { readFileSync, realpathSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { ensureDir } from '../store/ensure-dir.js';
import { dirname, join, resolve } from 'node:path';
import { omniHome } from '../store/open.js';
import { sha256Hex } from '../store/sha256.js';
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

export const userRulesPath = (home: string): string => join(home, RULES_FILE);
export const trustPath = (home: string): string => join(home, TRUST_FILE);

const statKey = (file: string): string | null => {
  try {
    const s = statSync(file);
    return s.isFile() ? `${s.mtimeMs}:${s.size}:${s.ino}` : null;
  } catch {
    return null;
  }
};

/** The project rules file for `cwd`: `<dir>/.omni/rules.json` for the nearest such dir. */
export function findProjectRules(cwd: string, home: string): string | null {
  const userFile = resolve(userRulesPath(home));
  let dir = resolve(cwd);
  for (let i = 0; i < 64; i++) {
    const f = join(dir, '.omni', RULES_FILE);
    if (statKey(f) !== null) return f === userFile ? null : f;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

interface Parsed { key: string; sha256: string; rules: Rule[]; errors: string[] }
const parsedCache = new Map<string, Parsed>();

/** Reads and validates one file, from the cache while its stat is unchanged. Errors are logged once per version. */
function parseFile(file: string, key: string, home: string): Parsed {
  const hit = parsedCache.get(file);
  if (hit && hit.key === key) return hit;
  const parsed = readAndValidate(file, key);
  parsedCache.set(file, parsed);
  for (const err of parsed.errors) logDiagnostic('rules', `${err} (omni carries on without this file)`, { OMNI_HOME: home });
  return parsed;
}

function readAndValidate(file: string, key: string): Parsed {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    return { key, sha256: '', rules: [], errors: [`${file}: cannot read: ${(e as Error).message}`] };
  }
  const sha256 = sha256Hex(bytes);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    return { key, sha256, rules: [], errors: [`${file}: not valid JSON: ${(e as Error).message}`] };
  }
  return { key, sha256, ...validateRules(json, file) };
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

/** Records `file`'s current contents as trusted. Returns the sha256 trusted. */
export function trustFile(home: string, file: string): string {
  const abs = trustKey(file);
  const sha = sha256Hex(readFileSync(abs));
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

/** Reads one rules file as `source` (null when it does not exist). */
export function readRulesFile(file: string, source: RuleSource, home: string): RulesFile | null {
  const key = statKey(file);
  if (key === null) return null;
  const p = parseFile(file, key, home);
  const trusted = source === 'user' || (p.sha256 !== '' && readTrust(home)[trustKey(file)] === p.sha256);
  return { file, source, sha256: p.sha256, rules: p.rules, errors: p.errors, trusted };
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

/** The rules that apply in `cwd` for the omni home `home` (default `$OMNI_HOME` or ~/.omni). */
export function loadRuleSet(cwd: string | undefined, home: string = omniHome()): RuleSet {
  const files: RulesFile[] = [];
  const projectFile = cwd ? findProjectRules(cwd, home) : null;
  const project = projectFile ? readRulesFile(projectFile, 'project', home) : null;
  if (project) files.push(project);
  const user = readRulesFile(userRulesPath(home), 'user', home);
  if (user) files.push(user);
  return ruleSetOf(files);
}
