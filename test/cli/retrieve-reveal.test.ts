/**
 * No marker the model sees can bring a masked secret back (issue: the receipt
 * `[omni: 1 secret redacted — omni retrieve H]` invited the model to run `omni retrieve H`, which
 * printed the raw secret). `omni retrieve`, `omni diff` and the MCP tool `omni_retrieve` print
 * archived bytes with every secret masked; `--reveal` shows them only to a person: refused with
 * no terminal on stdin/stderr, and under an agent host's environment markers, checked here with a
 * real pseudo-terminal (`script`).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { OMNI, omni, tempHome } from '../helpers/omni.js';
import { openStore } from '../../lib/store/open.js';
import { putBlob } from '../../lib/store/archive.js';
import { AGENT_MARKERS, revealRefusal } from '../../lib/service/reveal.js';
import { omniRetrieve } from '../../lib/mcp/tools.js';
import { pemBlock, SECRET_SHAPES } from '../helpers/secrets.js';

const SECRETS = SECRET_SHAPES.map((s) => s.secret);
const PEM = pemBlock(3);
const TEXT = ['archived block', ...SECRET_SHAPES.map((s) => s.line), ...PEM.lines, 'end', ''].join('\n');

/** This test's own environment without any agent marker (the runner may itself be an agent's child). */
function personEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OMNI_HOME: home };
  for (const k of AGENT_MARKERS) delete env[k];
  return env;
}

function archived(): { home: string; handle: string } {
  const home = tempHome();
  const s = openStore({ home });
  try {
    return { home, handle: putBlob(s, Buffer.from(TEXT)) };
  } finally {
    s.close();
  }
}

/** Runs omni under a real pseudo-terminal (util-linux `script`): stdin, stdout and stderr are a TTY. */
function inTerminal(args: string[], env: NodeJS.ProcessEnv): { status: number | null; out: string } {
  const cmd = [process.execPath, OMNI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { env, encoding: 'utf8', input: '', timeout: 60_000 });
  return { status: r.status, out: r.stdout };
}

t.test('omni retrieve prints archived secrets masked, every other byte as archived', async (t) => {
  const { home, handle } = archived();
  const r = omni(['retrieve', handle], { env: personEnv(home) });
  t.equal(r.status, 0);
  const out = r.stdout.toString();
  for (const s of [...SECRETS, PEM.secret]) t.notOk(out.includes(s), `masked: ${s.slice(0, 12)}…`);
  t.equal(out.split('\n').length, TEXT.split('\n').length, 'the same lines');
  t.match(out, /^archived block\n/);
  t.match(out, /-----BEGIN RSA PRIVATE KEY-----\n\*\*\*\n/);
});

t.test('--reveal is refused without a terminal, and under every agent marker even at a terminal', async (t) => {
  const { home, handle } = archived();
  const piped = omni(['retrieve', '--reveal', handle], { env: personEnv(home) });
  t.equal(piped.status, 2, 'no TTY: refused');
  t.equal(piped.stdout.length, 0, 'nothing printed');
  t.match(piped.stderr.toString(), /refused: stdin and stderr must be a terminal/);

  const person = inTerminal(['retrieve', '--reveal', handle], personEnv(home));
  t.equal(person.status, 0, 'a person at a terminal: revealed');
  for (const s of SECRETS) t.ok(person.out.includes(s), `revealed: ${s.slice(0, 12)}…`);

  for (const [k, v] of [['CLAUDECODE', '1'], ['AI_AGENT', 'claude-code'], ['CODEX_THREAD_ID', '01a2326d'], ['CODEX_CI', '1'], ['GEMINI_CLI', '1'], ['PI_CODING_AGENT', 'true']]) {
    const r = inTerminal(['retrieve', '--reveal', handle], { ...personEnv(home), [k]: v });
    t.equal(r.status, 2, `${k}=${v} at a terminal: refused`);
    t.match(r.out, new RegExp(`refused: ${k} is set`));
    for (const s of SECRETS) t.notOk(r.out.includes(s), `${k}: nothing revealed`);
  }
  t.equal(revealRefusal({ stdinIsTTY: true, stderrIsTTY: false, env: {} }) !== null, true, 'stderr not a terminal: refused');
  t.equal(revealRefusal({ stdinIsTTY: true, stderrIsTTY: true, env: { CLAUDECODE: '' } }), null, 'an empty marker is no marker');
});

t.test('the receipt a distillation writes retrieves masked', async (t) => {
  const home = tempHome();
  const token = SECRET_SHAPES.find((s) => s.name === 'github')!;
  // Coloured lines make render name the whole raw output in a receipt.
  const lines = Array.from({ length: 60 }, (_, i) => `\x1b[32mcompiling module ${i}\x1b[0m`);
  lines.splice(30, 0, token.line);
  const r = omni(['pipe', '--command', 'make'], { input: lines.join('\n') + '\n', env: personEnv(home) });
  const out = r.stdout.toString();
  t.notOk(out.includes(token.secret), 'delivered masked');
  const handle = /omni retrieve ([0-9a-f]{16})\]/.exec(out)?.[1];
  t.ok(handle, `a receipt names the whole output: ${out.split('\n').at(-2)}`);
  const back = omni(['retrieve', handle!], { env: personEnv(home) }).stdout.toString();
  t.notOk(back.includes(token.secret), 'omni retrieve of the receipt: masked');
  t.match(back, /GITHUB_TOKEN=\*\*\*/);
  t.match(back, /\x1b\[32mcompiling module 0\x1b\[0m/, 'everything else as archived');
});

t.test('omni diff masks both sides; --reveal is refused without a terminal', async (t) => {
  const home = tempHome();
  const token = SECRET_SHAPES.find((s) => s.name === 'stripe')!;
  const lines = Array.from({ length: 80 }, (_, i) => `Downloading package-${i % 5} ${i}%`);
  lines.push(token.line, 'done');
  const piped = omni(['pipe', '--command', 'make'], { input: lines.join('\n') + '\n', env: personEnv(home) });
  t.notOk(piped.stdout.toString().includes(token.secret), 'delivered masked');
  const d = omni(['diff'], { env: personEnv(home) });
  t.equal(d.status, 0, d.stderr.toString());
  t.notOk(d.stdout.toString().includes(token.secret), 'no raw secret in the diff');
  t.match(d.stdout.toString(), /omni diff: /);
  const rev = omni(['diff', '--reveal'], { env: personEnv(home) });
  t.equal(rev.status, 2);
  t.notOk(rev.stdout.toString().includes(token.secret));
  const person = inTerminal(['diff', '--reveal'], personEnv(home));
  t.equal(person.status, 0);
  t.ok(person.out.includes(token.secret), 'a person at a terminal sees the raw side');
});

t.test('the MCP tool omni_retrieve always masks', async (t) => {
  const { home, handle } = archived();
  const before = process.env.OMNI_HOME;
  process.env.OMNI_HOME = home;
  try {
    const r = await omniRetrieve({ handle });
    const text = r.content.map((c) => (c.type === 'text' ? c.text : c.type === 'resource' ? JSON.stringify(c.resource) : '')).join('');
    t.notOk(r.isError);
    for (const s of SECRETS) t.notOk(text.includes(s), `masked: ${s.slice(0, 12)}…`);
    t.match(text, /GITHUB_TOKEN=\*\*\*/);
  } finally {
    if (before === undefined) delete process.env.OMNI_HOME;
    else process.env.OMNI_HOME = before;
  }
});
