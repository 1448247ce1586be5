/**
 * `omni doctor [--json]`: which hosts are here, what each one gets from omni (its tier), and
 * what is wrong with how omni is wired into it, with the fix. Plus the store.
 *
 * Exit 0 when omni is wired into at least one host and nothing wired is broken; 1 otherwise.
 * A host that is installed but not wired is a warning, not a failure: the user may not want it.
 */
import { join } from 'node:path';
import type { HostStatus } from '../hosts/adapter.js';
import { INSTALLERS } from '../hosts/installers.js';
import { resolveOmniEntry } from './init.js';
import { subcommandHelp } from './usage.js';

interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** What each store fault means for the hooks, and what the user does about it. */
const STORE_FIX: Record<string, (file: string) => string> = {
  locked: (file) => `is locked: another process holds a write transaction on it. Hooks still answer, but archive nothing, so they remove nothing. fix: end the process holding it (\`fuser -v ${file}\` names it), or point OMNI_HOME at another directory`,
  readonly: (file) => `cannot be written (read-only: permissions, an immutable flag or a read-only mount). Hooks still answer, but archive nothing, so they remove nothing. fix: make ${file} and its directory writable by this user (\`ls -l\`, \`lsattr\`), or point OMNI_HOME at a writable directory`,
  corrupt: (file) => `is corrupt or not an omni store. Hooks still answer, without the ledger or the archive. fix: move it aside (\`mv ${file} ${file}.bad\`, not delete: \`sqlite3 ${file}.bad .recover\` may still get its archived bytes back); omni creates a fresh one`,
  // A newer omni's store is whole: moving it aside would drop every handle in it.
  newer: (file) => `was written by a newer omni than this one. Hooks still answer, without the ledger or the archive, and leave it as it is. fix: upgrade omni to the one that wrote it (in omni's checkout: \`git pull && npm ci && npm install -g .\`); keep ${file} where it is: every \`omni retrieve\` handle lives in it`,
  io: (file) => `could not be opened. Hooks still answer, without the ledger or the archive. fix: check ${file} and its directory`,
};

/**
 * The store row says what is true: it opens AND takes a write (a rolled-back write
 * transaction, waiting at most a typed subcommand's lock budget), or which fault stops it.
 */
async function checkStore(env: NodeJS.ProcessEnv): Promise<Check> {
  const { openStore, omniHome, probeWritable, CLI_BUSY_TIMEOUT_MS } = await import('../store/open.js');
  const file = join(omniHome(env), 'omni.db');
  try {
    const s = openStore({ home: omniHome(env), busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
    try {
      probeWritable(s);
    } finally {
      try { s.close(); } catch { /* closing is best effort */ }
    }
    return { name: 'store', status: 'ok', detail: `${file} opens and takes writes` };
  } catch (err) {
    const reason = (err as { reason?: string }).reason ?? 'io';
    const what = (STORE_FIX[reason] ?? STORE_FIX.io)(file);
    return { name: 'store', status: 'fail', detail: `${file} ${what} (${(err as Error).message})` };
  }
}

async function hostStatus(i: (typeof INSTALLERS)[number], env: NodeJS.ProcessEnv, cwd: string, bin: string | null): Promise<HostStatus> {
  try {
    return await i.status({ scope: 'user', cwd, env, bin });
  } catch (err) {
    return { id: i.id, name: i.name, detected: false, wired: false, tier: 'memory', files: [], problems: [{ status: 'fail', what: `checking ${i.name} failed: ${(err as Error).message}`, fix: 'report this as a bug' }], note: '' };
  }
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** The one table: host, version, wired, tier, and what to do. */
export function renderTable(hosts: HostStatus[]): string {
  const health = (h: HostStatus) => (h.problems.some((p) => p.status === 'fail') ? 'FAIL' : h.problems.length ? 'warn' : 'ok');
  // A wired host with a failing problem gets nothing from omni yet: its tier is what it would get.
  const rows = hosts.map((h) => [h.name, h.detected ? h.version ?? 'found' : 'not found', h.wired ? 'yes' : 'no', h.wired ? h.tier : '-', h.wired ? health(h) : '']);
  const head = ['host', 'installed', 'wired', 'tier', 'status'];
  const w = head.map((_, c) => Math.max(head[c].length, ...rows.map((r) => r[c].length)) + 2);
  const line = (r: string[]) => r.map((x, c) => pad(x, w[c])).join('').trimEnd();
  const out = [line(head), ...rows.map(line)];
  for (const h of hosts) {
    if (!h.detected && !h.wired) continue;
    if (!h.wired) {
      // Its checks would only say "not wired" in many words.
      out.push(`${h.name}: found, not wired (omni init --${h.id})`);
      continue;
    }
    out.push(`${h.name}:${h.note ? ` ${h.note}` : ''}`);
    if (h.checks) for (const c of h.checks) out.push(`  ${c.status === 'ok' ? 'ok  ' : c.status === 'warn' ? 'warn' : 'FAIL'}  ${c.name}: ${c.detail}`);
    else for (const p of h.problems) out.push(`  ${p.status === 'fail' ? 'FAIL' : 'warn'}  ${p.what}\n        fix: ${p.fix}`);
  }
  return out.join('\n') + '\n';
}

/** Healthy: wired somewhere, and nothing wired has a failing problem. */
export function healthy(hosts: HostStatus[], checks: Check[]): boolean {
  const wired = hosts.filter((h) => h.wired);
  return wired.length > 0 && wired.every((h) => h.problems.every((p) => p.status !== 'fail')) && checks.every((c) => c.status !== 'fail');
}

export async function run(argv: string[], io: IO): Promise<number> {
  const json = argv.includes('--json');
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(subcommandHelp('doctor'));
    return 0;
  }
  for (const a of argv) {
    if (a !== '--json') {
      io.stderr.write(`omni doctor: unknown option ${a}\n${subcommandHelp('doctor')}`);
      return 2;
    }
  }
  const env = process.env;
  const cwd = process.cwd();
  const bin = resolveOmniEntry(env);
  const hosts: HostStatus[] = [];
  for (const i of INSTALLERS) hosts.push(await hostStatus(i, env, cwd, bin));
  const store = await checkStore(env);
  // The flat list of checks: every host's detailed checks, then the store.
  // Only wired hosts' checks decide health: a host omni is not wired into (no Claude Code here,
  // a Cursor-only user) must not turn doctor red. Its checks are still in `hosts`.
  const checks: Check[] = [...hosts.filter((h) => h.wired).flatMap((h) => h.checks ?? []), store];
  if (!hosts.some((h) => h.wired)) {
    checks.push({ name: 'hooks-registered', status: 'fail', detail: 'omni is not wired into any host; run `omni init` (or `omni init --all`)' });
  }
  const ok = healthy(hosts, checks);
  if (json) {
    io.stdout.write(JSON.stringify({ ok, hosts, checks }, null, 2) + '\n');
  } else {
    io.stdout.write(renderTable(hosts));
    io.stdout.write(`${store.status === 'ok' ? 'ok  ' : 'FAIL'}  ${store.name}: ${store.detail}\n`);
    if (!hosts.some((h) => h.wired)) io.stdout.write('FAIL  omni is not wired into any host; run `omni init` (or `omni init --all`)\n');
    io.stdout.write(ok ? 'omni doctor: all good\n' : 'omni doctor: problems found (see FAIL lines)\n');
  }
  return ok ? 0 : 1;
}
