/**
 * Proof with the real host (rule 10): the pinned Claude Code CLI (2.1.332), omni installed by the
 * real `omni init`, against the loopback stand-in. The model runs a Bash command that prints
 * noisy lines with secrets among them; what the CLI sends the model holds none of their values.
 * Then the model itself runs `omni retrieve` on the run's raw output through Bash: masked too. And
 * `omni retrieve --reveal` through Bash is refused (Claude Code sets CLAUDECODE=1 for its Bash
 * tool). A baseline run without omni shows the values really were printed.
 *
 * Run: npx tap --disable-coverage test/real-host/claude-secrets.test.ts   (needs `node scripts/build.mjs`)
 */
import t from 'tap';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeBin, omniBin, runClaude } from './harness.js';
import { needs } from '../helpers/needs.js';
import { pemBlock, secretShapes } from '../helpers/secrets.js';

const SHAPES = secretShapes(21);
const PEM = pemBlock(21);
const SECRETS = [...SHAPES.map((s) => s.secret), PEM.secret];

/** 400 noisy lines with a secret every ~18 lines and a key block in the middle. */
const LINES: string[] = [];
for (let i = 1; i <= 400; i++) {
  LINES.push(`Downloading https://registry.example.org/dep-${i % 3}.tgz 50%`);
  if (i % 18 === 0 && i / 18 <= SHAPES.length) LINES.push(SHAPES[i / 18 - 1].line);
  if (i === 200) LINES.push(...PEM.lines);
}
LINES.push('added 400 packages in 3s');
const PRINT_JS = `process.stdout.write(${JSON.stringify(LINES.join('\n') + '\n')});\n`;

/** The raw output's handle, as the last run's record names it (`omni diff`'s header). */
const RAW_HANDLE = `"$(omni diff | sed -n 's/^--- raw *omni retrieve //p')"`;

const SCRIPT = [
  { tool: 'Bash', input: { command: 'node print.js', description: 'install' } },
  { tool: 'Bash', input: { command: `omni retrieve ${RAW_HANDLE}`, description: 'the whole output' } },
  { tool: 'Bash', input: { command: `omni retrieve --reveal ${RAW_HANDLE}`, description: 'the whole output, unmasked' } },
  { text: 'done' },
];

const canRun = existsSync(claudeBin()) && existsSync(omniBin());

t.test('secrets printed by a Bash command reach the model masked, and omni retrieve through Bash masks them too', async (t) => {
  if (!needs(t, canRun, `needs ${claudeBin()} and ${omniBin()} (node scripts/build.mjs)`)) return;
  // `omni` on the Bash tool's PATH, as a user who installed it has it.
  const bin = mkdtempSync(join(tmpdir(), 'omni-secrets-bin-'));
  t.teardown(() => rmSync(bin, { recursive: true, force: true }));
  writeFileSync(join(bin, 'omni'), `#!/bin/sh\nexec '${process.execPath}' '${omniBin()}' "$@"\n`);
  chmodSync(join(bin, 'omni'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}` };
  const [base, omni] = await Promise.all([
    runClaude({ script: SCRIPT.slice(0, 1).concat({ text: 'done' }), withOmni: false, files: { 'print.js': PRINT_JS }, env, tag: 'secbase' }),
    runClaude({ script: SCRIPT, withOmni: true, files: { 'print.js': PRINT_JS }, env, tag: 'secomni' }),
  ]);
  t.teardown(() => { base.cleanup(); omni.cleanup(); });
  t.equal(omni.version, '2.1.332', 'the pinned CLI ran');
  t.equal(omni.exitCode, 0, `the omni run ended normally (${omni.stderr.slice(0, 300)})`);

  const b = base.results[0]!.text;
  for (const s of SECRETS) t.ok(b.includes(s), `without omni the model sees ${s.slice(0, 10)}…`);

  const seen = omni.results[0]!;
  t.equal(seen.isError, false);
  for (const [i, s] of SECRETS.entries()) t.notOk(seen.text.includes(s), `with omni: ${i < SHAPES.length ? SHAPES[i].name : 'PEM block'} is masked in what the model saw`);
  t.ok(seen.text.length < b.length / 2, `distilled: ${b.length} -> ${seen.text.length} chars`);
  t.match(seen.text, /GITHUB_TOKEN=\*\*\*/);
  t.match(seen.text, /added 400 packages in 3s/);
  t.notMatch(seen.text, /\[omni: [^\]]*(secret|redact)/, 'no marker speaks of the secrets');

  const back = omni.results[1]!;
  t.ok(back, 'the model got the retrieve result');
  t.match(back.text, /Downloading https:\/\/registry\.example\.org\/dep-1\.tgz 50%\n/, 'omni retrieve printed the whole raw output');
  t.ok(back.text.split('\n').length >= LINES.length - 5, `all of it (${back.text.split('\n').length} lines)`);
  for (const s of SECRETS) t.notOk(back.text.includes(s), `omni retrieve through Bash: ${s.slice(0, 10)}… masked`);
  t.match(back.text, /-----BEGIN RSA PRIVATE KEY-----\n\*\*\*\n/);

  const reveal = omni.results[2]!;
  for (const s of SECRETS) t.notOk(reveal.text.includes(s), `--reveal through Bash: ${s.slice(0, 10)}… not revealed`);
  t.match(reveal.text, /refused|denied/i, `--reveal is refused: ${reveal.text.slice(0, 200)}`);
});
