import t from 'tap';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { openStore } from '../lib/store/open.js';
import { putBlob, handleOf } from '../lib/store/archive.js';
import { loadShown } from '../lib/store/ledger.js';
import { recordRun } from '../lib/store/stats.js';
import { recordSessionStart, recordSessionEnd } from '../lib/store/memory.js';
import { diffLines, unified } from '../lib/cli/diff.js';
import { parseSince } from '../lib/cli/stats.js';
import { tmpHome } from './store/fixtures/helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const loader = process.execArgv.filter((a) => a.startsWith('--import=') && a.includes('typescript'));
const cliFixture = path.join(here, 'store', 'fixtures', 'cli.ts');

/** Runs a subcommand in-process against a temp OMNI_HOME; returns code, stdout bytes, stderr. */
async function omni(home: string, name: string, args: string[], cwd?: string) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) => new Writable({ write(c, _e, cb) { into.push(Buffer.from(c)); cb(); } });
  const prev = process.env.OMNI_HOME;
  const prevCwd = process.cwd();
  process.env.OMNI_HOME = home;
  if (cwd) process.chdir(cwd);
  try {
    const mod = (await import(`../lib/cli/${name}.js`)) as { run(a: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> };
    const code = await mod.run(args, { stdout: sink(out), stderr: sink(err) });
    return { code, stdout: Buffer.concat(out), out: Buffer.concat(out).toString(), err: Buffer.concat(err).toString() };
  } finally {
    if (prev === undefined) delete process.env.OMNI_HOME;
    else process.env.OMNI_HOME = prev;
    if (cwd) process.chdir(prevCwd);
  }
}

t.test('omni retrieve prints the exact bytes, binary, invalid UTF-8 and CRLF included', async (t) => {
  const home = tmpHome();
  const data = Buffer.concat([Buffer.from('a\r\nb\r\n'), Buffer.from([0, 0xff, 0xc3, 0x28, 0x80, 0x0a])]);
  const s = openStore({ home });
  const h = putBlob(s, data);
  s.close();
  const r = await omni(home, 'retrieve', [h]);
  t.equal(r.code, 0);
  t.ok(r.stdout.equals(data));
  // Through a real process and pipe as well.
  const p = spawnSync(process.execPath, [...loader, cliFixture, 'retrieve', h], { env: { ...process.env, OMNI_HOME: home } });
  t.equal(p.status, 0);
  t.ok(p.stdout.equals(data), 'a real stdout pipe carries the same bytes');
});

t.test('omni retrieve of an unknown handle exits 2 (as the README says) with a clear message', async (t) => {
  const home = tmpHome();
  const r = await omni(home, 'retrieve', ['0123456789abcdef']);
  t.equal(r.code, 2);
  t.equal(r.out, '');
  t.match(r.err, /no archived block has handle 0123456789abcdef/);
  const bad = await omni(home, 'retrieve', ['nothex']);
  t.equal(bad.code, 2);
  t.match(bad.err, /not a handle/);
  t.equal((await omni(home, 'retrieve', [])).code, 2);
});

t.test('omni retrieve records the retrieval so the ledger delivers that run verbatim once', async (t) => {
  const home = tmpHome();
  const s = openStore({ home });
  const h = putBlob(s, Buffer.from('some folded lines\n'));
  s.close();
  await omni(home, 'retrieve', [h + ']']);
  const s2 = openStore({ home });
  t.teardown(() => s2.close());
  t.ok(loadShown(s2, { sessionId: 'x', cwd: '/p' }).retrieved.has(h));
});

t.test('omni stats sums savings per family and door, only where applied, as text and JSON', async (t) => {
  const home = tmpHome();
  const s = openStore({ home });
  recordRun(s, { door: 'hook', family: 'jest', bytesIn: 10000, bytesOut: 1000, applied: true });
  recordRun(s, { door: 'hook', family: 'jest', bytesIn: 4000, bytesOut: 100, applied: false });
  recordRun(s, { door: 'exec', family: 'git', bytesIn: 3000, bytesOut: 1000, applied: true });
  recordRun(s, { at: Date.now() - 10 * 86400e3, door: 'exec', family: 'old', bytesIn: 3000, bytesOut: 1000, applied: true });
  s.close();
  const j = await omni(home, 'stats', ['--json']);
  t.equal(j.code, 0);
  const parsed = JSON.parse(j.out);
  t.match(parsed.total, { runs: 3, applied: 2, bytesIn: 17000, bytesSaved: 11000 });
  t.same(parsed.byFamily.map((f: { family: string }) => f.family), ['jest', 'git']);
  const all = JSON.parse((await omni(home, 'stats', ['--since', 'all', '--json'])).out);
  t.equal(all.total.runs, 4);
  const text = await omni(home, 'stats', ['--since=7d']);
  t.match(text.out, /3 runs, 2 applied/);
  t.match(text.out, /jest\s+2\s+1/);
  t.equal((await omni(home, 'stats', ['--since', 'soon'])).code, 2);
  t.equal(parseSince('24h'), 86400e3);
});

t.test('omni diff shows the last distillation, raw against delivered', async (t) => {
  const home = tmpHome();
  t.equal((await omni(home, 'diff', [])).code, 1, 'nothing recorded yet');
  const raw = Buffer.from(['start', ...Array.from({ length: 20 }, (_, i) => `noise ${i}`), 'FAIL one', 'end', ''].join('\n'));
  const delivered = Buffer.from(['start', '[omni: 20 similar lines folded — omni retrieve 0000000000000000]', 'FAIL one', 'end', ''].join('\n'));
  const s = openStore({ home });
  recordRun(s, { door: 'pipe', family: 'generic', command: 'make', bytesIn: raw.length, bytesOut: delivered.length, applied: true, rawHandle: putBlob(s, raw, { kind: 'raw' }), deliveredHandle: putBlob(s, delivered, { kind: 'raw' }) });
  s.close();
  const r = await omni(home, 'diff', []);
  t.equal(r.code, 0);
  t.match(r.out, `--- raw        omni retrieve ${handleOf(raw)}`);
  t.match(r.out, '@@ -1,23 +1,4 @@\n start\n-noise 0\n');
  t.match(r.out, '-noise 19\n+[omni: 20 similar lines folded — omni retrieve 0000000000000000]\n FAIL one\n');
});

t.test('the line diff is minimal and round-trips both sides', async (t) => {
  const a = 'a b c d e f g'.split(' ');
  const b = 'a x c d f g h'.split(' ');
  const ops = diffLines(a, b)!;
  t.same(ops.filter((o) => o[0] !== '+').map((o) => o[1]), a);
  t.same(ops.filter((o) => o[0] !== '-').map((o) => o[1]), b);
  t.equal(ops.filter((o) => o[0] !== ' ').length, 4, '-b +x -e +h');
  t.equal(unified(diffLines(['same'], ['same'])!), '');
  t.equal(diffLines(a, b, 2), null, 'gives up past its edit budget');
});

t.test('omni remember adds, lists and forgets facts for the current project', async (t) => {
  const home = tmpHome();
  const proj = tmpHome('omni-proj-');
  const add = await omni(home, 'remember', ['tests', 'need', 'docker'], proj);
  t.equal(add.code, 0);
  t.match(add.out, /remembered fact 1/);
  const list = await omni(home, 'remember', ['--list'], proj);
  t.match(list.out, /^1\t\d{4}-\d\d-\d\d\ttests need docker\n$/);
  t.match((await omni(home, 'remember', ['--list'])).out, /no facts remembered/, 'another directory has none');
  t.equal((await omni(home, 'remember', ['--forget', '1'], proj)).code, 0);
  t.equal((await omni(home, 'remember', ['--forget', '1'], proj)).code, 1);
  t.equal((await omni(home, 'remember', [])).code, 2);
});

t.test('omni goal pins, shows and clears the project goal', async (t) => {
  const home = tmpHome();
  const proj = tmpHome('omni-proj-');
  t.match((await omni(home, 'goal', [], proj)).out, /no goal pinned/);
  t.equal((await omni(home, 'goal', ['ship the ledger'], proj)).code, 0);
  t.equal((await omni(home, 'goal', [], proj)).out, 'ship the ledger\n');
  t.match((await omni(home, 'goal', ['--clear'], proj)).out, /goal cleared/);
  t.match((await omni(home, 'goal', ['--cwd', proj])).out, /no goal pinned/);
});

t.test('omni session shows the last session and --csv exports the documented columns', async (t) => {
  const home = tmpHome();
  t.match((await omni(home, 'session', [])).out, /no session recorded/);
  const s = openStore({ home });
  recordSessionStart(s, { sessionId: 'old', cwd: '/p,with "comma"', source: 'startup', now: 1000 });
  recordRun(s, { at: 1500, door: 'hook', family: 'git', sessionId: 'old', bytesIn: 900, bytesOut: 100, applied: true });
  recordSessionEnd(s, { sessionId: 'old', reason: 'other', now: 2000 });
  recordSessionStart(s, { sessionId: 'new', cwd: '/q', source: 'resume', now: 3000 });
  recordRun(s, { at: 3500, door: 'hook', family: 'git', sessionId: 'new', bytesIn: 50, bytesOut: 10, applied: true });
  s.close();
  const cur = await omni(home, 'session', []);
  t.match(cur.out, /session   new \(running\)/);
  t.match(cur.out, /runs      1/);
  const csv = await omni(home, 'session', ['--csv']);
  const rows = csv.out.split('\r\n');
  t.equal(rows[0], 'session_id,cwd,source,started_at,ended_at,end_reason,runs,bytes_in,bytes_delivered,bytes_saved');
  t.equal(rows[1], 'new,/q,resume,1970-01-01T00:00:03.000Z,,,1,50,10,40');
  t.equal(rows[2], 'old,"/p,with ""comma""",startup,1970-01-01T00:00:01.000Z,1970-01-01T00:00:02.000Z,other,1,900,100,800');
});
