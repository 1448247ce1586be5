// dist/omni.cjs loads the hot-path bundle through V8's code cache (lib/boot/code-cache.cjs).
// The cache may only change how fast a call starts, never what it answers: these run the real
// entry on a copy of dist/ (so a broken cache here cannot disturb other tests) and compare
// replies byte for byte with the cache accepted, rejected, missing and unwritable.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, tempHome } from '../helpers/omni.js';

const payload = JSON.stringify({
  session_id: 's-cache', transcript_path: '/nonexistent/t.jsonl', cwd: '/tmp', hook_event_name: 'PostToolUse',
  tool_name: 'Bash', tool_input: { command: './fetch-all.sh' }, tool_use_id: 'toolu_cache',
  tool_response: { stdout: Array.from({ length: 300 }, (_, k) => `Downloading package-${k % 7} ${k}%`).join('\n') + '\ndone', stderr: '', interrupted: false, isImage: false },
});

/** A copy of dist/ beside a link to the repository's node_modules, as an install lays it out. */
function copyDist(): string {
  const root = mkdtempSync(join(tmpdir(), 'omni-cache-'));
  mkdirSync(join(root, 'dist'));
  for (const f of readdirSync(join(ROOT, 'dist'))) copyFileSync(join(ROOT, 'dist', f), join(root, 'dist', f));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return root;
}

function hook(root: string, home: string, extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(root, 'dist', 'omni.cjs'), '--post-hook'], {
    input: payload, env: { PATH: process.env.PATH, HOME: home, OMNI_HOME: home, OMNI_CODE_CACHE: 'report', ...extra }, encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, report: /code cache (\w+)/.exec(r.stderr)?.[1] ?? r.stderr };
}

t.test('the build ships a cache that this Node accepts, and the reply folds', async (t) => {
  const root = copyDist();
  const r = hook(root, tempHome());
  t.equal(r.status, 0);
  t.equal(r.report, 'accepted');
  t.match(r.stdout, /lines like .* folded — omni retrieve [0-9a-f]{16}/);
});

t.test('a rejected, a missing and an unwritable cache give the same reply; a stale one is written again', async (t) => {
  const root = copyDist();
  const cache = join(root, 'dist', 'omni-core.cjs.v8');
  // The same store state for each call: each gets a fresh home.
  const accepted = hook(root, tempHome());
  t.equal(accepted.report, 'accepted');

  writeFileSync(cache, Buffer.alloc(4096, 7));
  const rejected = hook(root, tempHome());
  t.equal(rejected.report, 'rejected');
  t.equal(rejected.stdout, accepted.stdout, 'the reply does not depend on the cache');
  t.equal(hook(root, tempHome()).report, 'accepted', 'the rejected cache was replaced at exit');

  const missingRoot = copyDist();
  const missingCache = join(missingRoot, 'dist', 'omni-core.cjs.v8');
  rmSync(missingCache);
  const missing = hook(missingRoot, tempHome());
  t.equal(missing.report, 'missing');
  t.equal(missing.stdout, accepted.stdout);
  t.ok(existsSync(missingCache), 'a missing cache is written at exit');

  const roRoot = copyDist();
  writeFileSync(join(roRoot, 'dist', 'omni-core.cjs.v8'), Buffer.alloc(64, 1));
  chmodSync(join(roRoot, 'dist'), 0o555);
  t.teardown(() => chmodSync(join(roRoot, 'dist'), 0o755));
  const ro = hook(roRoot, tempHome());
  t.equal(ro.status, 0);
  t.equal(ro.stdout, accepted.stdout, 'a read-only install answers the same');
  if (process.getuid?.() !== 0) t.same(readFileSync(join(roRoot, 'dist', 'omni-core.cjs.v8')), Buffer.alloc(64, 1), 'nothing written where it may not write');
});

t.test('a call that compiles rules switches a V8 flag on: a stale cache is written before it, so the next calls take it', async (t) => {
  // Rules run on V8's linear-time regexp engine, behind a flag the bundle sets when it first
  // compiles a rule (lib/rules/linear.ts). V8 stamps a cache with its flags: written after the
  // flag, it would be refused by every later call, which loads the cache before any flag is set.
  const root = copyDist();
  const cache = join(root, 'dist', 'omni-core.cjs.v8');
  const withRules = () => {
    const home = tempHome();
    writeFileSync(join(home, 'rules.json'), JSON.stringify({ rules: [{ name: 'fetch', match: { program: 'fetch-all.sh' }, hide: ['^Downloading package-\\d \\d+%$'] }] }));
    return home;
  };
  const accepted = hook(root, withRules());
  t.equal(accepted.report, 'accepted', 'the shipped cache is taken by a call with rules (the flag comes after the load)');
  t.match(accepted.stdout, /hidden by rule fetch/, 'the rule ran');
  writeFileSync(cache, Buffer.alloc(4096, 7));
  const stale = hook(root, withRules());
  t.equal(stale.report, 'rejected');
  t.equal(stale.stdout, accepted.stdout, 'the same reply');
  t.equal(hook(root, tempHome()).report, 'accepted', 'the cache written by the call with rules is taken by a call without');
  t.equal(hook(root, withRules()).report, 'accepted', 'and by one with');
});

t.test('a long pipe bounds the young generation by a V8 flag: a stale cache is written before it, so the next calls take it', async (t) => {
  // `omni pipe` over a long fast stream sets --semi-space-growth-factor (lib/base/young-generation.ts):
  // the same stamp as the rules' flag, so the same order.
  const root = copyDist();
  const cache = join(root, 'dist', 'omni-core.cjs.v8');
  writeFileSync(cache, Buffer.alloc(4096, 7));
  const lines: string[] = [];
  for (let i = 0, n = 0; n < 48 << 20; i++) {
    const line = `2026-11-29T12:${String(i % 60).padStart(2, '0')}:00Z INFO request id=${i.toString(16)} path=/api/v1/items/${i} status=200`;
    lines.push(line);
    n += line.length + 1;
  }
  const home = tempHome();
  const r = spawnSync(process.execPath, [join(root, 'dist', 'omni.cjs'), 'pipe'], {
    input: lines.join('\n') + '\n', env: { PATH: process.env.PATH, HOME: home, OMNI_HOME: home, OMNI_CODE_CACHE: 'report' }, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  t.equal(r.status, 0);
  t.match(r.stderr, /code cache rejected/);
  t.equal(hook(root, tempHome()).report, 'accepted', 'the cache the long pipe wrote is taken by the next call');
});

/** A number spelt in letters (`305` -> `dah`): a name, never a template's variable. */
const letters = (n: number): string => String(n).replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)));

t.test('a reply larger than a pipe buffer reaches a slow reader whole (stdout by file descriptor)', async (t) => {
  const home = tempHome();
  // Blocks of unique lines (kept: over 64 KB of them; their names are words, so no two share a
  // template) between runs of one progress template
  // (folded), so the reply is both changed and larger than a pipe buffer.
  const big = JSON.stringify({
    session_id: 's-big', transcript_path: '/nonexistent/t.jsonl', cwd: '/tmp', hook_event_name: 'PostToolUse',
    tool_name: 'Bash', tool_input: { command: './fetch-all.sh' }, tool_use_id: 'toolu_big',
    tool_response: { stdout: Array.from({ length: 60 }, (_, b) => [...Array.from({ length: 30 }, (_, k) => `step ${b}.${k}: compiled ${letters((b * 31 + k) * 7919 % 100003)} into out/${letters(b)}-${letters(k)}.js`), ...Array.from({ length: 40 }, (_, k) => `Downloading package-${b} ${k}%`)].join('\n')).join('\n') + '\nerror: step 3 failed', stderr: '', interrupted: false, isImage: false },
  });
  // A real pipe to a reader that sleeps before it reads: the hook's writes fill the pipe and
  // must wait for it, not be lost or cut (a Node parent would drain an unread pipe at exit).
  const dir = mkdtempSync(join(tmpdir(), 'omni-slow-'));
  writeFileSync(join(dir, 'in.json'), big);
  const r = spawnSync('sh', ['-c', `"$0" "$1" --post-hook < "$2/in.json" | (sleep 0.5; cat) > "$2/out.json"`, process.execPath, join(ROOT, 'dist', 'omni.cjs'), dir], {
    env: { PATH: process.env.PATH, HOME: home, OMNI_HOME: home },
  });
  t.equal(r.status, 0);
  const out = readFileSync(join(dir, 'out.json'), 'utf8');
  if (out === '') {
    // Nothing recognised: no reply at all is the right answer, but then this test proves nothing.
    t.fail('expected a reply to the large payload');
    return;
  }
  const reply = JSON.parse(out) as { hookSpecificOutput?: { updatedToolOutput?: { stdout?: string } } };
  const text = reply.hookSpecificOutput?.updatedToolOutput?.stdout ?? '';
  t.ok(out.length > 65536, `the reply (${out.length} B) is larger than a pipe buffer`);
  t.match(text, /error: step 3 failed$/, 'the whole reply arrived, failure line last');
});
