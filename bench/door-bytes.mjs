// `node bench/door-bytes.mjs --out DIR [--only REGEX] [--jobs 2] [--omni dist/omni.cjs]`: every corpus case's bytes
// through every door, as real processes of the built bundle (dist/omni.cjs), written to
// DIR/<case>/<step>. Run it before a change and after it, then `diff -r BEFORE AFTER`: a
// refactor of the doors or the pipeline must leave every file byte-identical.
//
// Per case, each group in a fresh OMNI_HOME (the store starts empty, so the bytes depend only
// on the case):
//   claude-bash-1, -2   Claude Code PostToolUse Bash, twice in one session (the second shows
//                       what the ledger folds); over 30,000 characters the payload holds a
//                       prefix and names the persisted file, as the host sends it
//   claude-read-1, -2   PostToolUse Read of the output as a file's text, twice (a re-read is
//                       answered from the view the first left; the clock time it names is
//                       written as HH:MM:SS)
//   codex-bash-1, -2    Codex PostToolUse, twice, exit 0 from a real rollout
//   gemini-bash         Gemini CLI AfterTool, as installed (a secret masked, nothing else)
//   gemini-bash-opt-in  the same with OMNI_REPLACE_AS_ERROR=1
//   pipe                `omni pipe --command CMD`, held to the end
//   exec                `omni exec CMD` around a child that replays the case with its exit code
//   exec-stream         the same, streaming from the first batch (OMNI_HOLD_BYTES=1), the
//                       child printing the output in up to 8 pieces 150 ms apart
// Each file holds the process's stdout; `.code` files hold exit codes other than 0.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const OUT = arg('--out');
if (!OUT) {
  console.error('usage: node bench/door-bytes.mjs --out DIR [--only REGEX] [--jobs 2]');
  process.exit(2);
}
const ONLY = new RegExp(arg('--only', '.'));
const JOBS = Number(arg('--jobs', '2'));
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// --omni: another build of omni (a copy of dist/ taken before the change), to record its bytes again.
const OMNI = path.resolve(arg('--omni', path.join(ROOT, 'dist', 'omni.cjs')));
const FIX = path.join(ROOT, 'test', 'fixtures');
const REPLAY = path.join(FIX, 'replay', 'replay.sh');
const json = (f) => JSON.parse(readFileSync(path.join(FIX, f), 'utf8'));
const CLAUDE_BASH = json('claude-code/PostToolUse.Bash.seq-1-300.json');
const CLAUDE_PERSISTED = json('claude-code/PostToolUse.Bash.seq-1-100000.persisted.json');
const CLAUDE_READ = json('claude-code/PostToolUse.Read.offset50-limit20.json');
const CODEX_BASH = json('hosts/codex/PostToolUse.Bash.seq-1-300.json');
const GEMINI_BASH = json('hosts/gemini/after-tool-seq-300.json');
const ROLLOUT = path.join(FIX, 'hosts', 'codex', 'rollout.bypass.jsonl');

const cases = readdirSync(path.join(ROOT, 'corpus', 'cases'))
  .filter((d) => ONLY.test(d))
  .sort()
  .map((id) => {
    const dir = path.join(ROOT, 'corpus', 'cases', id);
    return {
      id,
      command: readFileSync(path.join(dir, 'cmd.txt'), 'utf8').trim(),
      output: readFileSync(path.join(dir, 'output.txt')),
      exitCode: Number(readFileSync(path.join(dir, 'exit_code.txt'), 'utf8').trim() || '0'),
    };
  });

/** The environment every call gets: no OMNI_* setting of the caller's, HOME in the case's own directory. */
function envFor(work) {
  return (extra) => {
    const env = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OMNI_')) env[k] = v;
    return { ...env, HOME: work, ...extra };
  };
}

function run(args, { input, env, cwd }) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [OMNI, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks = [];
    p.stdout.on('data', (b) => chunks.push(b));
    p.on('close', (code) => resolve({ stdout: Buffer.concat(chunks), code }));
    p.stdin.on('error', () => {});
    p.stdin.end(input ?? '');
  });
}

/** The clock time a re-read marker names is the only part of a reply that depends on when it ran. */
const clockless = (b) => Buffer.from(b.toString('utf8').replace(/\b\d\d:\d\d:\d\d\b/g, 'HH:MM:SS'));
/** The case's own temporary directory, as replies name it (a Read's path), written as <work>. */
const placeless = (b, work) => (b.includes(work) ? Buffer.from(b.toString('utf8').replaceAll(work, '<work>')) : b);

const hostText = (raw) => {
  const s = raw.toString('utf8');
  return s.endsWith('\n') ? s.slice(0, -1) : s;
};

/** Programs a command line runs that the replay can stand in for (exec only replays those). */
function programsOf(command) {
  if (/[|;<>`$()]/.test(command)) return null;
  const progs = [];
  for (const part of command.split('&&')) {
    const words = part.trim().split(/\s+/);
    let i = 0;
    while (i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i])) i++;
    const p = words[i];
    if (!p || !/^[a-z][\w.+-]*$/.test(p) || ['cd', 'printf', 'echo', 'exit', 'test', 'export', 'source', '.', 'sh', 'rm'].includes(p)) return null;
    progs.push(p);
  }
  return progs;
}

async function doorsOf(c, work) {
  const out = {};
  const baseEnv = envFor(work);
  const home = (name) => {
    const h = path.join(work, `home-${name}`);
    mkdirSync(h, { recursive: true });
    return h;
  };
  const text = hostText(c.output);
  const proj = path.join(work, 'proj');
  mkdirSync(proj, { recursive: true });

  // Claude Code Bash, twice.
  {
    const h = home('claude-bash');
    for (const n of [1, 2]) {
      const persisted = text.length > 30_000;
      const p = structuredClone(persisted ? CLAUDE_PERSISTED : CLAUDE_BASH);
      Object.assign(p, { session_id: '00000000-0000-4000-8000-000000000001', cwd: proj, tool_use_id: `toolu_bytes_${n}`, tool_input: { command: c.command, description: 'run' } });
      if (persisted) {
        const file = path.join(work, `persisted-${n}.txt`);
        writeFileSync(file, text + '\n');
        p.tool_response = { ...p.tool_response, stdout: text.slice(0, 30_000), stderr: '', persistedOutputPath: file, persistedOutputSize: Buffer.byteLength(text) + 1 };
      } else p.tool_response = { ...p.tool_response, stdout: text, stderr: '' };
      out[`claude-bash-${n}`] = await run(['--post-hook'], { input: JSON.stringify(p), env: baseEnv({ OMNI_HOME: h }), cwd: proj });
    }
  }
  // Claude Code Read, twice.
  {
    const h = home('claude-read');
    const content = text;
    const lines = content === '' ? 0 : content.split('\n').length;
    for (const n of [1, 2]) {
      const p = structuredClone(CLAUDE_READ);
      const file = path.join(proj, `${c.id}.txt`);
      Object.assign(p, { session_id: '00000000-0000-4000-8000-000000000002', cwd: proj, tool_use_id: `toolu_read_${n}`, tool_input: { file_path: file } });
      p.tool_response = { type: 'text', file: { filePath: file, content, numLines: lines, startLine: 1, totalLines: lines } };
      const r = await run(['--post-hook'], { input: JSON.stringify(p), env: baseEnv({ OMNI_HOME: h }), cwd: proj });
      out[`claude-read-${n}`] = { ...r, stdout: clockless(r.stdout) };
    }
  }
  // Codex, twice: the exit code comes from the rollout.
  {
    const h = home('codex');
    const rollout = path.join(work, 'rollout-2026-11-30T00-00-00-bytes.jsonl');
    copyFileSync(ROLLOUT, rollout);
    for (const n of [1, 2]) {
      const p = { ...structuredClone(CODEX_BASH), cwd: proj, transcript_path: rollout, tool_input: { command: c.command }, tool_response: text };
      out[`codex-bash-${n}`] = await run(['--post-hook'], { input: JSON.stringify(p), env: baseEnv({ OMNI_HOME: h }), cwd: proj });
    }
  }
  // Gemini CLI, as installed and opted in.
  for (const [step, extra] of [['gemini-bash', {}], ['gemini-bash-opt-in', { OMNI_REPLACE_AS_ERROR: '1' }]]) {
    const h = home(step);
    const p = structuredClone(GEMINI_BASH);
    Object.assign(p, { cwd: proj, tool_input: { command: c.command, description: 'run' } });
    p.tool_response = { ...p.tool_response, llmContent: `<untrusted_context>\nOutput: ${text === '' ? '(empty)' : text}\nProcess Group PGID: 16688\n</untrusted_context>` };
    out[step] = await run(['--hook'], { input: JSON.stringify(p), env: baseEnv({ OMNI_HOME: h, ...extra }), cwd: proj });
  }
  // pipe, held to the end.
  const held = { OMNI_HOLD_MS: '600000', OMNI_HOLD_IDLE_MS: '600000', OMNI_HOLD_BYTES: String(64 << 20) };
  out.pipe = await run(['pipe', '--command', c.command], { input: c.output, env: baseEnv({ OMNI_HOME: home('pipe'), ...held }), cwd: proj });
  // exec around a replaying child, held and streaming.
  const progs = programsOf(c.command);
  if (progs) {
    const shims = path.join(work, 'shims');
    mkdirSync(shims, { recursive: true });
    for (const p of progs) if (!existsSync(path.join(shims, p))) symlinkSync(REPLAY, path.join(shims, p));
    // At most 8 pieces, each its own read: the batches (and so the streamed bytes) do not depend on load.
    const piece = Math.max(4096, Math.ceil(c.output.length / 8));
    for (const [step, hold, size] of [['exec', held, 0], ['exec-stream', { OMNI_HOLD_MS: '600000', OMNI_HOLD_IDLE_MS: '600000', OMNI_HOLD_BYTES: '1' }, piece]]) {
      const dir = mkdtempSync(path.join(work, 'replay-'));
      const chunks = size ? Array.from({ length: Math.ceil(c.output.length / size) }, (_, i) => c.output.subarray(i * size, (i + 1) * size)) : [c.output];
      chunks.forEach((b, i) => {
        writeFileSync(path.join(dir, String(i)), b);
        if (size && i > 0) writeFileSync(path.join(dir, `${i}.pause`), '0.150');
      });
      writeFileSync(path.join(dir, 'exit'), String(c.exitCode));
      out[step] = await run(['exec', c.command], { env: baseEnv({ OMNI_HOME: home(step), ...hold, PATH: `${shims}:${process.env.PATH}`, OMNI_REPLAY_DIR: dir }), cwd: proj });
    }
  }
  return out;
}

mkdirSync(OUT, { recursive: true });
let next = 0;
let done = 0;
const t0 = Date.now();
async function worker() {
  while (next < cases.length) {
    const c = cases[next++];
    const work = mkdtempSync(path.join(tmpdir(), 'omni-door-bytes-'));
    try {
      const out = await doorsOf(c, work);
      const dir = path.join(OUT, c.id);
      mkdirSync(dir, { recursive: true });
      for (const [step, r] of Object.entries(out)) {
        writeFileSync(path.join(dir, step), placeless(r.stdout, work));
        if (r.code !== 0) writeFileSync(path.join(dir, `${step}.code`), String(r.code));
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    done++;
    if (done % 25 === 0) console.error(`${done}/${cases.length} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
}
await Promise.all(Array.from({ length: JOBS }, worker));
console.error(`${done} cases in ${((Date.now() - t0) / 1000).toFixed(0)} s -> ${OUT}`);
