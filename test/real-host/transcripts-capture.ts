/**
 * Captures the session transcripts the real Claude Code CLI writes, into
 * test/fixtures/transcripts/claude/ (the `omni discover` tests replay them). Not a test: run it
 * by hand when the pinned CLI changes, then read the diff.
 *
 *   node scripts/build.mjs
 *   TS_NODE_TRANSPILE_ONLY=1 node --loader ./node_modules/@isaacs/ts-node-temp-fork-for-pr-2009/esm.mjs test/real-host/transcripts-capture.ts
 *
 * Two sessions of the pinned CLI (2.1.332) against the loopback stand-in (./harness.ts), with
 * no omni installed (what a user has before installing): real commands of several families,
 * failures, Reads, and one output over the host's 30,000-character cap. The files are copied
 * as the CLI wrote them; only the temporary directory (and its slug) is renamed to a fixed path
 * so reruns compare. Byte counts in the tests are taken from the copies.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO, runClaude, slugOf, type RunResult } from './harness.js';
import { runCodex } from './codex-harness.js';
import type { CodexStep } from './codex-standin.js';
import { runGemini } from './gemini-harness.js';

const ROOT = join(REPO, 'test', 'fixtures', 'transcripts');
const OUT = join(ROOT, 'claude');
const FIXED = '/tmp/omni-transcripts-capture';

const NOISY_JS = `for (let i = 1; i <= 400; i++) console.log('Downloading https://registry.example.org/dep-' + (i % 3) + '.tgz 50%');
console.log('added 400 packages in 3s');
if (process.argv.includes('--fail')) process.stdout.write('', () => { console.error('Error: 1 test failed: expected 2, got 3'); process.exitCode = 2; });
`;
const BIG_JS = `for (let i = 1; i <= 1500; i++) console.log('[worker ' + (i % 4) + '] processed record ' + i + ' of 1500 ok');\n`;
const LOG = Array.from({ length: 300 }, (_, i) => `2026-11-30T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z INFO request ${i} served in ${i % 17} ms`).join('\n') + '\n';

const FILES = {
  'noisy.js': NOISY_JS,
  'big.js': BIG_JS,
  'server.log': LOG,
  'notes.md': Array.from({ length: 60 }, (_, i) => `note ${i + 1}: something worth remembering about step ${i + 1}`).join('\n') + '\n',
  'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node noisy.js', build: 'node noisy.js' } }, null, 2) + '\n',
};

const SESSION_1 = [
  { tool: 'Bash', input: { command: 'git init -q . && git add -A && git -c user.email=a@b -c user.name=a commit -qm init', description: 'a repository' } },
  { tool: 'Bash', input: { command: 'npm test', description: 'run the tests' } },
  { tool: 'Bash', input: { command: 'npm test -- --fail', description: 'a failing test run' } },
  { tool: 'Bash', input: { command: 'git status', description: 'status' } },
  { tool: 'Bash', input: { command: 'git log --stat', description: 'log' } },
  { tool: 'Bash', input: { command: 'node big.js', description: 'a long output over the cap' } },
  { tool: 'Bash', input: { command: 'seq 1 2000', description: 'numbers' } },
  { tool: 'Read', input: { file_path: '{{PROJ}}/server.log' } },
  { tool: 'Read', input: { file_path: '{{PROJ}}/notes.md', offset: 10, limit: 20 } },
  { tool: 'Bash', input: { command: 'ls /nonexistent', description: 'a missing path' } },
  { text: 'All steps done.' },
];

const SESSION_2 = [
  { tool: 'Bash', input: { command: 'ls -la', description: 'list' } },
  { tool: 'Bash', input: { command: 'cat server.log', description: 'the log' } },
  { tool: 'Bash', input: { command: 'npm run build', description: 'build' } },
  { tool: 'Bash', input: { command: 'node -e "console.log(JSON.stringify({a:[1,2,3],b:\'x\'.repeat(3000)}))"', description: 'json' } },
  { tool: 'Bash', input: { command: 'seq 1 2000', description: 'numbers again' } },
  { tool: 'Read', input: { file_path: '{{PROJ}}/server.log' } },
  { text: 'All steps done.' },
];

/** Codex: one `codex exec` session (full access, no hooks); its rollout file is what omni reads. */
const CODEX_SESSION: CodexStep[] = [
  { cmd: 'npm test' },
  { cmd: 'npm test -- --fail' },
  { cmd: 'seq 1 2000' },
  { cmd: 'cat server.log' },
  { cmd: 'ls /nonexistent' },
  { text: 'All steps done.' },
];

/** Gemini CLI: one `gemini -p --yolo` session (no hooks); its chat log under ~/.gemini/tmp/. */
const GEMINI_SESSION = [
  { tool: 'run_shell_command', args: { command: 'npm test' } },
  { tool: 'run_shell_command', args: { command: 'npm test -- --fail' } },
  { tool: 'run_shell_command', args: { command: 'seq 1 2000' } },
  { tool: 'run_shell_command', args: { command: 'cat server.log' } },
  { tool: 'run_shell_command', args: { command: 'ls /nonexistent' } },
  { text: 'All steps done.' },
];

async function captureGemini(): Promise<void> {
  const g = await runGemini({ script: GEMINI_SESSION, withOmni: false, files: FILES, keep: true, timeoutMs: 180_000 });
  console.log(`gemini exit ${g.exitCode}`);
  const src = join(g.home, '.gemini', 'tmp');
  const out = join(ROOT, 'gemini', 'tmp');
  rmSync(join(ROOT, 'gemini'), { recursive: true, force: true });
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.includes('/chats/')) {
        const dst = join(out, relative(src, p));
        mkdirSync(join(dst, '..'), { recursive: true });
        // The chat log names its project by the SHA-256 of the project path: rename that too.
        const hash = (d: string) => createHash('sha256').update(d).digest('hex');
        writeFileSync(dst, readFileSync(p, 'utf8').split(g.dir).join(FIXED).split(hash(g.proj)).join(hash(join(FIXED, 'proj'))));
        console.log(relative(REPO, dst));
      }
    }
  };
  walk(src);
  rmSync(g.dir, { recursive: true, force: true });
}

function copyTree(run: RunResult): string[] {
  const src = join(run.home, '.claude', 'projects');
  const copied: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const fixed = (s: string) => s.split(run.dir).join(FIXED).split(slugOf(run.dir)).join(slugOf(FIXED));
        const rel = fixed(relative(src, p));
        const dst = join(OUT, 'projects', rel);
        mkdirSync(join(dst, '..'), { recursive: true });
        writeFileSync(dst, fixed(readFileSync(p, 'utf8')));
        copied.push(relative(REPO, dst));
      }
    }
  };
  walk(src);
  return copied;
}

async function main(): Promise<void> {
  if (process.argv.includes('--gemini-only')) return captureGemini();
  rmSync(OUT, { recursive: true, force: true });
  const first = await runClaude({ script: SESSION_1, withOmni: false, files: FILES, tag: 'cap1', keep: true, timeoutMs: 180_000 });
  const second = await runClaude({ script: SESSION_2, withOmni: false, tag: 'cap2', after: first, keep: true, timeoutMs: 180_000 });
  for (const r of [first, second]) console.log(`claude ${r.version} exit ${r.exitCode} session ${r.sessionId} (${r.durationMs} ms)`);
  const files = copyTree(second);
  console.log(files.join('\n'));
  rmSync(first.dir, { recursive: true, force: true });

  const cx = await runCodex({ script: CODEX_SESSION, hooks: 'none', files: FILES, tag: 'cap', mode: 'bypass', keep: true, timeoutMs: 180_000 });
  console.log(`codex exit ${cx.exitCode} rollout ${cx.rollout}`);
  if (!cx.rollout) throw new Error('codex wrote no rollout');
  const rel = relative(join(cx.codexHome, 'sessions'), cx.rollout);
  const dst = join(ROOT, 'codex', 'sessions', rel);
  rmSync(join(ROOT, 'codex'), { recursive: true, force: true });
  mkdirSync(join(dst, '..'), { recursive: true });
  writeFileSync(dst, readFileSync(cx.rollout, 'utf8').split(cx.dir).join(FIXED));
  console.log(relative(REPO, dst));
  rmSync(cx.dir, { recursive: true, force: true });
  await captureGemini();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
