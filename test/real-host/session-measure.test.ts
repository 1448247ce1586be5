/**
 * The session checker can fail: fed a doctored delivered text (a must-keep line dropped, a
 * failure changed, a first Read folded, a marker whose bytes are not a contiguous part of the
 * raw output, an output larger than without omni), it names the problem. Pure: no CLI.
 *
 * Run: npx tap --disable-coverage test/real-host/session-measure.test.ts
 */
import t from 'tap';
import { checkCall, kindKey, omniCost, requestPieces, stabiliser, type CallEvidence } from './sessions/measure.js';
import { bash, read, type SessionStep } from './sessions/session.js';
import { SESSIONS, DEV, HELD_OUT } from './sessions/index.js';

const RAW = ['PASS test/a.test.ts', ...Array.from({ length: 30 }, (_, i) => `  ✓ case ${i + 1} (2 ms)`), 'Tests:       30 passed, 30 total', 'Time:        1.234 s'].join('\n');
const HIDDEN = RAW.split('\n').slice(1, 31).join('\n');
const DELIVERED = ['PASS test/a.test.ts', '[omni: 30 passing tests folded — omni retrieve 0123456789abcdef]', 'Tests:       30 passed, 30 total', 'Time:        1.301 s'].join('\n');
const id = (s: string) => s;
const stable = stabiliser('/tmp/omni-real-host-AAAAAA');

const pass: SessionStep = bash('npx jest', 'tests', 'test-pass', { keep: [/Tests: +30 passed, 30 total/, 'PASS test/a.test.ts'] });

function ev(step: SessionStep, base: string, omni: string, retrieved: Record<string, string | null> = {}, isError = false): CallEvidence {
  return { index: 0, step, base: { text: base, isError }, omni: { text: omni, isError }, retrieved };
}

t.test('a faithful distillation has no problem', async (t) => {
  const r = checkCall(ev(pass, RAW, DELIVERED, { '0123456789abcdef': HIDDEN }), stable, stable);
  t.same(r.problems, []);
  t.same(r.scriptErrors, []);
  t.equal(r.markers, 1);
  t.ok(r.delivered < r.raw);
});

t.test('a must-keep line missing from the delivered text is lost', async (t) => {
  const doctored = DELIVERED.replace('Tests:       30 passed, 30 total\n', '');
  const r = checkCall(ev(pass, RAW, doctored, { '0123456789abcdef': HIDDEN }), stable, stable);
  t.same(r.problems.map((p) => p.type), ['keep-lost']);
  t.match(r.problems[0].detail, /Tests: \+30 passed/);
});

t.test('a must-keep behind a "you were already shown it" marker counts only when an earlier call showed it', async (t) => {
  const body = Array.from({ length: 8 }, (_, i) => [`-    total_${i} = price * quantity`, `+    total_${i} = price * quantity * factor`]).flat();
  const patch = ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -1,10 +1,10 @@', ' def f():', ...body, '-    return 1', '+    return 2'].join('\n');
  const step = bash('git show HEAD', 'the commit', 'git', { keep: ['+    return 2'] });
  const shown = ['diff --git a/x.py b/x.py', "[omni: 6 lines of this file's patch, as you were already shown it — omni retrieve 0123456789abcdef]"].join('\n');
  const hidden = patch.split('\n').slice(1).join('\n');
  const call = (earlier: string[]): CallEvidence => ({ ...ev(step, patch, shown, { '0123456789abcdef': hidden }), earlier });
  t.same(checkCall(call([patch]), stable, stable).problems, [], 'shown by an earlier call: held');
  t.same(checkCall(call(['something else']), stable, stable).problems.map((p) => p.type), ['keep-lost'], 'no earlier call showed it: lost');
  const other = shown.replace('as you were already shown it', 'folded');
  t.same(checkCall({ ...ev(step, patch, other, { '0123456789abcdef': hidden }), earlier: [patch] }, stable, stable).problems.map((p) => p.type), ['keep-lost'], 'any other marker: lost');
});

t.test('a must-keep the tool never printed is the script\'s error, not omni\'s', async (t) => {
  const step = { ...pass, keep: ['Tests: 31 passed'] };
  const r = checkCall(ev(step, RAW, DELIVERED, { '0123456789abcdef': HIDDEN }), stable, stable);
  t.same(r.problems, []);
  t.match(r.scriptErrors[0], /not in the raw output/);
});

t.test('a marker whose handle retrieves nothing, or bytes that are not one run of the raw output', async (t) => {
  t.same(checkCall(ev(pass, RAW, DELIVERED, { '0123456789abcdef': null }), stable, stable).problems.map((p) => p.type), ['retrieve-failed']);
  const gathered = RAW.split('\n').filter((_, i) => i % 2 === 1).join('\n');
  t.same(checkCall(ev(pass, RAW, DELIVERED, { '0123456789abcdef': gathered }), stable, stable).problems.map((p) => p.type), ['retrieve-not-contiguous']);
  const invented = '  ✓ case 99 (2 ms)';
  t.same(checkCall(ev(pass, RAW, DELIVERED, { '0123456789abcdef': invented }), stable, stable).problems.map((p) => p.type), ['retrieve-not-contiguous']);
});

t.test('a failing call must be byte-identical, timings aside', async (t) => {
  const fail = bash('npx jest', 'tests', 'test-fail', { fails: true });
  const raw = 'Exit code 1\nFAIL test/a.test.ts (1.2 s)\n  ● a › b\n    Expected: 2\n    Received: 3\nTime:        1.5 s';
  t.same(checkCall(ev(fail, raw, raw.replace('1.5 s', '1.7 s'), {}, true), stable, stable).problems, [], 'a different duration is not a difference');
  const r = checkCall(ev(fail, raw, raw.replace('    Received: 3\n', ''), {}, true), stable, stable);
  t.same(r.problems.map((p) => p.type), ['failure-changed']);
  t.match(r.problems[0].detail, /Received: 3/);
  const meant = checkCall(ev(fail, 'ok', 'ok'), stable, stable);
  t.match(meant.scriptErrors[0], /meant to fail, but without omni it succeeded/);
});

t.test('a failing build, lint or test run is reported apart from successful ones, whose targets it would otherwise dilute', async (t) => {
  const lint = bash('flake8 src', 'lint', 'build-lint');
  const raw = 'Exit code 1\nsrc/a.py:1:1: F401 \'os\' imported but unused';
  t.equal(kindKey(checkCall(ev(lint, raw, raw, {}, true), stable, stable)), 'build-lint (failing)');
  t.equal(kindKey(checkCall(ev(lint, 'ok', 'ok'), stable, stable)), 'build-lint');
  const chain = bash('make lint', 'lint', 'chain-wrapped', { producer: 'build-lint' });
  t.equal(kindKey(checkCall(ev(chain, raw, raw, {}, true), stable, stable)), 'chain-wrapped (build-lint, failing)');
  t.equal(kindKey(checkCall(ev(chain, 'ok', 'ok'), stable, stable)), 'chain-wrapped (build-lint)');
  const tests = bash('npx jest', 'tests', 'test-fail', { fails: true });
  t.equal(kindKey(checkCall(ev(tests, raw, raw, {}, true), stable, stable)), 'test-fail', 'a failing test run has its own kind already');
  const meantToPass = bash('go test ./...', 'tests', 'test-pass');
  t.equal(kindKey(checkCall(ev(meantToPass, raw, raw, {}, true), stable, stable)), 'test-fail', 'a test run that failed is a failing one, whatever the script expected');
  t.equal(kindKey(checkCall(ev(meantToPass, 'ok', 'ok'), stable, stable)), 'test-pass');
  const wrappedTests = bash('make test', 'tests', 'chain-wrapped', { producer: 'test-pass' });
  t.equal(kindKey(checkCall(ev(wrappedTests, raw, raw, {}, true), stable, stable)), 'chain-wrapped (test-pass, failing)');
});

t.test('a first Read must be byte-identical; a re-read may fold but keeps its numbering', async (t) => {
  const file = Array.from({ length: 40 }, (_, i) => `${i + 1}\tline ${i + 1}`).join('\n');
  const folded = `39\t[omni: lines 1-39: 39 lines already shown — omni retrieve aaaaaaaaaaaaaaaa]\n40\tline 40`;
  const hidden = Array.from({ length: 39 }, (_, i) => `line ${i + 1}`).join('\n');
  t.same(checkCall(ev(read('f.txt', 'first-read'), file, folded, { aaaaaaaaaaaaaaaa: hidden }), stable, stable).problems.map((p) => p.type), ['first-read-changed']);
  const rr = checkCall(ev(read('f.txt', 're-read'), file, folded, { aaaaaaaaaaaaaaaa: hidden }), stable, stable);
  t.same(rr.problems, [], 'a re-read fold whose bytes are the file\'s first 39 lines');
  t.equal(rr.altered, 0);
  const wrongNumber = folded.replace('40\tline 40', '40\tline 41');
  t.equal(checkCall(ev(read('f.txt', 're-read'), file, wrongNumber, { aaaaaaaaaaaaaaaa: hidden }), stable, stable).altered, 1, 'a line that is not the file\'s is counted as altered');
});

t.test('delivered larger than the raw output', async (t) => {
  const step = bash('echo hi', 'hi', 'other');
  t.same(checkCall(ev(step, 'hi', 'hi there'), id, id).problems.map((p) => p.type), ['larger']);
});

t.test('stabiliser: run directories, durations, clocks and addresses', async (t) => {
  const s = stabiliser('/tmp/omni-real-host-AbC123');
  t.equal(s('/tmp/omni-real-host-AbC123/proj/a.py:3 in 0.12s'), '<DIR>/proj/a.py:3 in <T>');
  t.equal(s('<Ledger object at 0x7faa0b2c2f90>'), '<Ledger object at <ADDR>>');
  t.equal(s('==== 3 failed, 20 passed in 1.05s ===='), '=== 3 failed, 20 passed in <T> ===');
  t.equal(s('Finished in 0.0012s, 4780.1234 runs/s, 12.5 assertions/s.'), 'Finished in <T>, <RATE> runs/s, <RATE> assertions/s.');
  t.equal(s('-rw-r--r-- 1 root root 1842 Dec  1 16:17 a.txt'), '-rw-r--r-- 1 root root 1842 <DATE> a.txt');
  t.equal(s('Tests:       30 passed, 30 total'), 'Tests:       30 passed, 30 total', 'counts stay');
  t.equal(s('==20719== Memcheck, a memory error detector\n--20719-- run\n'), '==<PID>== Memcheck, a memory error detector\n--<PID>-- run\n', "valgrind's process id");
  t.equal(s('a ==20719== b'), 'a ==20719== b', 'only at the start of a line');
});

t.test('omni\'s own cost: what the omni run\'s requests add, line by line, per request', async (t) => {
  const base = { tools: [{ name: 'Bash' }], system: [{ text: 'You are an agent.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] };
  const omni = {
    tools: [{ name: 'Bash' }, { name: 'mcp__omni__omni_run', description: 'run' }],
    system: [{ text: 'You are an agent.' }],
    messages: [
      { role: 'system', content: 'mcp__omni__omni_retrieve\n# MCP Server Instructions\n## omni\nRun noisy commands with omni_run.' },
      { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'tool_result', tool_use_id: 'x', content: 'raw output is not a cost' }] },
    ],
  };
  const cost = omniCost([base, base], [omni, omni], id, id);
  const tool = Buffer.byteLength(JSON.stringify(omni.tools[1])) + 1;
  t.equal(cost.parts['tool definitions'], 2 * tool);
  t.equal(cost.parts['tool names'], 2 * (Buffer.byteLength('mcp__omni__omni_retrieve') + 1));
  t.equal(cost.parts.instructions, 2 * (Buffer.byteLength('# MCP Server Instructions\n## omni\nRun noisy commands with omni_run.') + 1));
  t.equal(cost.parts.other, 0);
  t.equal(cost.total, cost.parts['tool definitions'] + cost.parts['tool names'] + cost.parts.instructions);
  t.same(omniCost([base], [base], id, id).total, 0, 'the same request costs nothing');
  t.notOk(requestPieces(omni, id).some((p) => p.text.includes('raw output')), 'tool results are the measured part, never a cost');
});

t.test('the sessions: 25-45 calls each, several ecosystems, at least two held out', async (t) => {
  t.ok(HELD_OUT.length >= 2, `held out: ${HELD_OUT.join(', ')}`);
  t.ok(DEV.length >= 1, `dev: ${DEV.join(', ')}`);
  t.ok(new Set(SESSIONS.map((s) => s.ecosystem.split(':')[0])).size >= 4, 'four ecosystems or more');
  for (const s of SESSIONS) {
    t.ok(s.steps.length >= 25 && s.steps.length <= 45, `${s.name}: ${s.steps.length} calls`);
    const kinds = new Set(s.steps.map((x) => x.kind));
    for (const k of ['first-read', 're-read', 're-read-after-edit', 'test-fail', 'test-pass', 'build-lint', 'chain-wrapped', 'git', 'enumeration'] as const) t.ok(kinds.has(k), `${s.name} has a ${k} call`);
    t.ok(s.steps.some((x) => x.tool === 'Edit'), `${s.name} edits with the host's Edit tool`);
    t.ok(s.steps.some((x) => x.tool === 'Read' && x.input.offset !== undefined), `${s.name} reads with offset/limit`);
    t.ok(s.steps.every((x) => x.kind !== 'chain-wrapped' || x.producer), `${s.name}: every chain names its producer`);
    const files = s.files();
    t.ok(Object.keys(files).length >= 6, `${s.name}: its project is made by code (${Object.keys(files).length} files)`);
  }
});

t.test('a test runner\'s random seed is the run\'s, not omni\'s: a passing run that differs only there is not larger', async (t) => {
  const pass = bash('ruby -Ilib -Itest test/test_tax.rb', 'tests', 'test-pass');
  const run = (seed: number) => `Run options: --seed ${seed}\n\n# Running:\n\n....\n\nFinished in 0.000812s, 4926.1084 runs/s, 4926.1084 assertions/s.\n\n4 runs, 4 assertions, 0 failures, 0 errors, 0 skips\n`;
  t.same(checkCall(ev(pass, run(7), run(50123), {}), stable, stable).problems, [], 'seed 7 against seed 50123');
  t.same(checkCall(ev(pass, run(7), run(50123) + 'x\n', {}), stable, stable).problems.map((p) => p.type), ['larger'], 'a real extra line still counts');
});
