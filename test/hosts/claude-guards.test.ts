import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as G from '../../lib/hosts/claude/adapter.js';
import * as S from '../../lib/hosts/claude/schemas.js';
import { cursor } from '../../lib/hosts/cursor/adapter.js';
import { CLAUDE_SAMPLES as SAMPLES } from '../helpers/samples.js';



function samples(): { name: string; json: unknown }[] {
  let names: string[] = [];
  try {
    names = readdirSync(SAMPLES).filter((n) => n.endsWith('.json') && !n.includes('.reply.') && !n.includes('.transcript.'));
  } catch {
    return [];
  }
  return names.map((name) => ({ name, json: JSON.parse(readFileSync(join(SAMPLES, name), 'utf8')) }));
}

/** Each hand-written guard and the zod schema it stands for. */
const PAIRS: [string, (v: unknown) => boolean, { safeParse(v: unknown): { success: boolean } }][] = [
  ['isPreToolUse', G.isPreToolUse, S.PreToolUse],
  ['isPostToolUse', G.isPostToolUse, S.PostToolUse],
  ['isPostToolUseFailure', G.isPostToolUseFailure, S.PostToolUseFailure],
  ['isSessionStart', G.isSessionStart, S.SessionStart],
  ['isSessionEnd', G.isSessionEnd, S.SessionEnd],
  ['isPreCompact', G.isPreCompact, S.PreCompact],
  ['isBashInput', G.isBashInput, S.BashInput],
  ['isReadInput', G.isReadInput, S.ReadInput],
  ['isBashResponse', G.isBashResponse, S.BashOutput],
  ['isReadTextResponse', G.isReadTextResponse, S.ReadTextOutput],
  ['isMcpBlocks', G.isMcpBlocks, S.McpBlocks],
];

/** Guard and schema see the same value: the payload itself and the sub-objects they check. */
function subjects(v: unknown): unknown[] {
  const out: unknown[] = [v];
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    out.push(o.tool_input, o.tool_response);
  }
  return out;
}

/** Compares every guard with its schema on `v`'s subjects; counts the comparisons and the accepted. */
function agree(t: { fail(msg: string): unknown }, v: unknown, where: string, seen = { compared: 0, accepted: 0 }) {
  for (const s of subjects(v)) {
    for (const [name, guard, schema] of PAIRS) {
      const g = guard(s);
      const z = schema.safeParse(s).success;
      seen.compared++;
      if (z) seen.accepted++;
      if (g !== z) t.fail(`${name} disagrees with its zod schema on ${where}: guard ${g}, zod ${z}: ${JSON.stringify(s)?.slice(0, 300)}`);
    }
  }
  return seen;
}

const all = samples();

t.test('the captured samples are there to test against', async (t) => {
  t.ok(all.length >= 20, `found ${all.length} captured payloads in ${SAMPLES}`);
});

t.test('every guard agrees with its zod schema on every captured payload', async (t) => {
  const seen = { compared: 0, accepted: 0 };
  for (const { name, json } of all) agree(t, json, name, seen);
  t.ok(seen.compared > 0 && seen.accepted > 0, `${seen.compared} comparisons, ${seen.accepted} accepted by a schema`);
});

t.test('the guards accept every captured payload of the event they guard', async (t) => {
  for (const { name, json } of all) {
    const ev = (json as { hook_event_name: string }).hook_event_name;
    const guard = { PreToolUse: G.isPreToolUse, PostToolUse: G.isPostToolUse, PostToolUseFailure: G.isPostToolUseFailure, SessionStart: G.isSessionStart, SessionEnd: G.isSessionEnd, PreCompact: G.isPreCompact }[ev];
    if (guard) t.ok(guard(json), `${name} passes its guard`);
  }
});

// --- fuzzing ---------------------------------------------------------------------------------

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const WEIRD: unknown[] = [null, undefined, 0, -1, 1.5, NaN, '', 'x', true, false, [], {}, [1], { a: 1 }, '\u0000'];

function paths(v: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const k of Object.keys(v)) {
      out.push([...prefix, k]);
      if (prefix.length < 2) paths((v as Record<string, unknown>)[k], [...prefix, k], out);
    }
  }
  return out;
}

function pick(r: () => number): unknown {
  const w = WEIRD[Math.floor(r() * WEIRD.length)];
  return w && typeof w === 'object' ? JSON.parse(JSON.stringify(w)) : w;
}

function mutate(v: unknown, r: () => number): unknown {
  const copy = JSON.parse(JSON.stringify(v));
  const ps = paths(copy);
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n && ps.length; i++) {
    const p = ps[Math.floor(r() * ps.length)];
    let o = copy;
    for (const k of p.slice(0, -1)) o = o?.[k];
    if (!o || typeof o !== 'object') continue;
    const key = p[p.length - 1];
    const op = r();
    if (op < 0.35) delete o[key];
    else if (op < 0.9) o[key] = pick(r);
    else o[`unknown_${i}`] = pick(r);
  }
  return copy;
}

t.test('every guard agrees with its zod schema on 3000 fuzzed variants of the samples', async (t) => {
  const r = rng(20261129);
  const small = all.filter((s) => JSON.stringify(s.json).length < 20000);
  const seen = { compared: 0, accepted: 0 };
  for (let i = 0; i < 3000; i++) {
    const base = small[i % small.length];
    agree(t, mutate(base.json, r), `${base.name} (variant ${i})`, seen);
  }
  for (const w of WEIRD) agree(t, w, JSON.stringify(w) ?? 'undefined', seen);
  t.ok(seen.compared > 0 && seen.accepted > 0 && seen.accepted < seen.compared, `${seen.compared} comparisons, ${seen.accepted} accepted by a schema`);
});

// --- replies ---------------------------------------------------------------------------------

t.test('a Bash reply is the incoming tool_response with stdout replaced and stderr blanked, every other key kept', async (t) => {
  const p = JSON.parse(readFileSync(join(SAMPLES, 'PostToolUse.Bash.seq-1-300.json'), 'utf8'));
  const out = JSON.parse(G.bashReply({ ...p.tool_response, stderr: 'notice', extra: 1 }, 'digest', { dropPersisted: true }));
  t.ok(S.PostToolUseBashReply.safeParse(out).success, 'matches the Bash reply schema');
  t.same(out.hookSpecificOutput.updatedToolOutput, { ...p.tool_response, stdout: 'digest', stderr: '', extra: 1 });
});

t.test('a persisted Bash reply drops persistedOutputPath and persistedOutputSize', async (t) => {
  const p = JSON.parse(readFileSync(join(SAMPLES, 'PostToolUse.Bash.seq-1-100000.persisted.json'), 'utf8'));
  const out = JSON.parse(G.bashReply(p.tool_response, 'digest', { dropPersisted: true })).hookSpecificOutput.updatedToolOutput;
  t.notOk('persistedOutputPath' in out);
  t.notOk('persistedOutputSize' in out);
  t.equal(out.interrupted, false);
});

t.test('a Read reply keeps Read\'s shape and sets startLine and numLines', async (t) => {
  const p = JSON.parse(readFileSync(join(SAMPLES, 'PostToolUse.Read.offset50-limit20.json'), 'utf8'));
  const out = JSON.parse(G.readReply(p.tool_response, 'a\nb', 60));
  t.ok(S.PostToolUseReadReply.safeParse(out).success);
  t.same(out.hookSpecificOutput.updatedToolOutput.file, { ...p.tool_response.file, content: 'a\nb', startLine: 60, numLines: 2 });
});

t.test('a pre-hook reply copies every tool_input field and only swaps the command', async (t) => {
  const out = JSON.parse(G.preToolUseReply({ command: 'npm test', description: 'd', timeout: 5000, run_in_background: false }, 'X', 'allow', 'why'));
  t.ok(S.PreToolUseReply.safeParse(out).success);
  t.same(out.hookSpecificOutput, { hookEventName: 'PreToolUse', updatedInput: { command: 'X', description: 'd', timeout: 5000, run_in_background: false }, permissionDecision: 'allow', permissionDecisionReason: 'why' });
  const bare = JSON.parse(G.preToolUseReply({ command: 'a' }, 'b', null));
  t.notOk('permissionDecision' in bare.hookSpecificOutput);
});

// --- command checks --------------------------------------------------------------------------

t.test('OMNI_PASSTHROUGH=1 typed in front of a command is recognised, also after other assignments', async (t) => {
  t.ok(G.hasPassthroughPrefix('OMNI_PASSTHROUGH=1 npm test'));
  t.ok(G.hasPassthroughPrefix('  FOO=bar OMNI_PASSTHROUGH=1 make'));
  t.ok(G.hasPassthroughPrefix("OMNI_PASSTHROUGH='1' make"));
  t.notOk(G.hasPassthroughPrefix('OMNI_PASSTHROUGH=0 make'));
  t.notOk(G.hasPassthroughPrefix('echo OMNI_PASSTHROUGH=1'));
  t.notOk(G.hasPassthroughPrefix('OMNI_PASSTHROUGH=10 make'));
});

t.test('omni\'s own commands are recognised in every spelling the host may run', async (t) => {
  for (const c of ['omni retrieve abc', 'omni diff', 'npx omni retrieve x', "node '/a b/dist/omni.cjs' exec 'npm test'", 'OMNI_SESSION_ID=1 OMNI_AGENT_ID=main /usr/bin/node /x/dist/omni.cjs exec ls', '/usr/local/bin/omni diff --last']) {
    t.ok(G.isOmniOwnCommand(c), c);
  }
  for (const c of ['git diff', 'echo omni retrieve', 'omnibus retrieve', 'omni stats']) t.notOk(G.isOmniOwnCommand(c), c);
});

t.test('the original command is recovered from omni\'s own rewrite, quotes and all', async (t) => {
  const { rewriteCommand } = await import('../../lib/doors/prehook-policy.js');
  for (const orig of ['npm test', "grep -r 'it''s' src", 'echo "a b" \\$HOME', 'make -j4 all']) {
    t.equal(G.omniExecOriginal(rewriteCommand(orig, 'sess-1', 'main', "/usr/bin/node '/a b/omni.cjs'")), orig, orig);
  }
  t.equal(G.omniExecOriginal('npm test'), null);
  t.equal(G.omniExecOriginal('omni exec npm test'), null, 'not a pre-hook rewrite');
});

t.test('Cursor\'s duplicate run is detected from the payload or the environment', async (t) => {
  t.ok(cursor.recognise({ cursor_version: '1.0' }, {}));
  t.ok(cursor.recognise({}, { CURSOR_VERSION: '1.2' }));
  t.notOk(cursor.recognise({}, {}));
});

t.test('subagents are scoped by agent_id, the main agent as "main"', async (t) => {
  t.equal(G.agentIdOf({ session_id: 's', hook_event_name: 'x', agent_id: 'a1' }), 'a1');
  t.equal(G.agentIdOf({ session_id: 's', hook_event_name: 'x' }), 'main');
});

// --- Read folds ------------------------------------------------------------------------------

t.test('a fold at the head of a Read moves startLine so the remaining lines keep their numbers', async (t) => {
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
  const original = lines.join('\n');
  const distilled = ['[omni: 6 similar lines folded — omni retrieve 0123456789abcdef]', ...lines.slice(6)].join('\n');
  const f = G.headFold(original, distilled, 1);
  t.ok(f);
  // content line i is numbered startLine + i; "line 7" must be numbered 7
  const got = f!.content.split('\n');
  t.equal(got.length, 5);
  t.equal(got.indexOf('line 7') + f!.startLine, 7);
  // One marker that names its handle and the file lines it stands for (issue 10, defect 8).
  t.equal(got[0], '[omni: lines 1-6: 6 similar lines folded — omni retrieve 0123456789abcdef]');
  t.equal(f!.startLine, 6, 'the marker stands at the number of the last line it hides');
});

t.test('a fold in the middle of a Read is refused', async (t) => {
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
  const distilled = [...lines.slice(0, 2), '[omni: 6 lines folded — omni retrieve 0123456789abcdef]', ...lines.slice(8)].join('\n');
  t.equal(G.headFold(lines.join('\n'), distilled, 1), null);
  t.equal(G.headFold('a\nb', 'a\nb', 1), null, 'no change: no reply');
  t.equal(G.headFold('a\nb\nc', 'A\nb\nc', 1), null, 'a changed line that is not a marker: refused');
});
