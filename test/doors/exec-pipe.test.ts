import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OMNI, omni, tempHome } from '../helpers/omni.js';

const dir = tempHome();
const script = join(dir, 'noisy.sh');
writeFileSync(script, [
  'i=0; while [ $i -lt 400 ]; do echo "Downloading package-$((i%7)) $i%"; i=$((i+1)); done',
  'echo "warning: something odd" >&2',
  'echo "final line"',
  'exit ${1:-0}',
].join('\n'));
const raw = (code: number) => spawnSync('sh', ['-c', `sh ${script} ${code} 2>&1`]).stdout;

t.test('a failing noisy command comes back byte for byte with its exit code', async (t) => {
  for (const code of [1, 3, 42]) {
    const r = omni(['exec', 'sh', script, String(code)]);
    t.equal(r.status, code, `exit ${code} propagated`);
    t.ok(r.stdout.equals(raw(code)), `exit ${code}: same bytes as the command printed`);
  }
});

t.test('the same command exiting 0 comes back distilled with its last line', async (t) => {
  const r = omni(['exec', `sh ${script} 0`]);
  t.equal(r.status, 0);
  const out = r.stdout.toString();
  t.ok(r.stdout.length < raw(0).length / 4, `${r.stdout.length} bytes < a quarter of ${raw(0).length}`);
  t.ok(out.includes('warning: something odd\nfinal line\n'), 'stderr merged in order, last line kept');
  t.match(out, /omni retrieve [0-9a-f]{16}/);
});

t.test('a signal death maps to 128+N', async (t) => {
  const r = omni(['exec', 'sh', '-c', 'kill -TERM $$']);
  t.equal(r.status, 143);
});

t.test('OMNI_PASSTHROUGH=1 skips distillation', async (t) => {
  const r = omni(['exec', `sh ${script} 0`], { env: { OMNI_PASSTHROUGH: '1' } });
  t.ok(r.stdout.equals(raw(0)));
  const r2 = omni(['exec', `OMNI_PASSTHROUGH=1 sh ${script} 0`]);
  t.ok(r2.stdout.equals(raw(0)), 'typed in front of the command too');
});

t.test('stdin reaches the child', async (t) => {
  const r = omni(['exec', 'cat'], { input: 'hello from stdin\n' });
  t.equal(r.stdout.toString(), 'hello from stdin\n');
});

t.test('a long-running command shows its first line before it ends', async (t) => {
  // Asserted on order, not on wall time (a loaded machine may start node slowly): the
  // first line must arrive on its own, while the command is still sleeping.
  const child = spawn(process.execPath, [OMNI, 'exec', 'echo first; sleep 4; echo last'], { env: { ...process.env, OMNI_HOME: tempHome() } });
  const chunks: string[] = [];
  child.stdout.on('data', (b: Buffer) => chunks.push(b.toString()));
  await new Promise((r) => child.on('close', r));
  t.equal(chunks[0], 'first\n', 'the first chunk is the first line alone');
  t.equal(chunks.join(''), 'first\nlast\n');
});

t.test('omni pipe shrinks printf noise and keeps the last line', async (t) => {
  const r = omni(['pipe'], { input: raw(0) });
  t.equal(r.status, 0);
  t.ok(r.stdout.length < raw(0).length / 4);
  t.ok(r.stdout.toString().includes('final line\n'));
});

t.test('omni pipe passes JSON, CSV, binary and CRLF text through unchanged', async (t) => {
  const inputs = [
    Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, s: 'Downloading' }))), 'utf8'),
    Buffer.from('a,b,c\n' + Array.from({ length: 500 }, (_, i) => `${i},Downloading,x`).join('\n') + '\n'),
    Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7) % 256)),
    // CRLF text of names (`row7`): nothing a fold takes, so it must come back exactly.
    Buffer.from(Array.from({ length: 300 }, (_, i) => `row${i}`).join('\r\n') + '\r\n'),
  ];
  for (const input of inputs) {
    const r = omni(['pipe'], { input });
    t.ok(r.stdout.equals(input), `${input.length} bytes identical`);
  }
});

t.test('omni pipe exits quietly when its reader goes away', async (t) => {
  const r = spawnSync('sh', ['-c', `seq 1 2000000 | ${process.execPath} ${OMNI} pipe | head -1`], { env: { ...process.env, OMNI_HOME: tempHome() } });
  t.equal(r.stdout.toString(), '1\n');
  t.equal(r.stderr.toString(), '', 'no EPIPE noise');
  t.equal(r.status, 0);
});

t.test('the child gets the same environment, NODE_EXTRA_CA_CERTS included', async (t) => {
  const r = omni(['exec', 'sh', '-c', 'echo "$NODE_EXTRA_CA_CERTS|$OMNI_TEST_VAR"'], { env: { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', OMNI_TEST_VAR: 'kept' } });
  t.equal(r.stdout.toString(), '/etc/ssl/certs/ca-certificates.crt|kept\n');
});

t.test('under a host rewrite a slow failing run is held to the end and delivered verbatim', async (t) => {
  // Quiet for longer than the 500 ms idle window: a watched stream would start streaming
  // (condensed) there. Under the host's rewrite nobody watches, so it must hold.
  const slow = join(dir, 'slow-fail.sh');
  writeFileSync(slow, `sh ${script} 0\nsleep 1\necho "Error: it broke"\nexit 4\n`);
  const expected = spawnSync('sh', ['-c', `sh ${slow} 2>&1`]).stdout;
  const watched = omni(['exec', 'sh', slow]);
  t.equal(watched.status, 4);
  t.match(watched.stdout.toString(), /exit 4: output was condensed while streaming/, 'a watched stream started early and says so');
  for (const env of [{ OMNI_SESSION_ID: 'sess-hold', OMNI_AGENT_ID: 'main' }, { OMNI_BUFFERED: '1' }]) {
    const r = omni(['exec', 'sh', slow], { env });
    t.equal(r.status, 4, `${Object.keys(env)[0]}: exit code kept`);
    t.ok(r.stdout.equals(expected), `${Object.keys(env)[0]}: byte for byte`);
  }
});

t.test("`omni exec --bash '<line>'` (the rewrite's form) runs the line under bash; without it under sh, as typed", async (t) => {
  const home = tempHome();
  const env = { HOME: home, OMNI_HOME: join(home, 'omni') };
  // Bash's own readings: brace lists, substring expansion, $RANDOM, ~+ (the working directory).
  const line = `printf '%s\\n' {a,b} \${HOME:0:4} "[\${RANDOM:+set}]" ~+`;
  const bash = omni(['exec', '--bash', line], { env, cwd: dir });
  t.equal(bash.status, 0, bash.stderr.toString());
  t.equal(bash.stdout.toString(), ['a', 'b', home.slice(0, 4), '[set]', dir, ''].join('\n'), 'bash: every expansion as bash makes it');
  const sh = spawnSync('/bin/sh', ['-c', 'readlink -f /bin/sh'], { encoding: 'utf8' }).stdout.trim();
  const plain = omni(['exec', `printf '%s\\n' {a,b}`], { env });
  t.equal(plain.stdout.toString(), sh.endsWith('bash') ? 'a\nb\n' : '{a,b}\n', `without --bash: /bin/sh (${sh}) reads it`);
  const rc = omni(['exec', '--bash', 'exit 7'], { env });
  t.equal(rc.status, 7, 'the exit code passes through');
  const noRc = omni(['exec', '--bash', 'shopt -q login_shell && echo login; echo ${BASH_VERSION:+bash}; alias'], { env: { ...env, HOME: dir } });
  t.equal(noRc.stdout.toString(), 'bash\n', 'non-interactive, not a login shell, no aliases from any rc file');
  const two = omni(['exec', '--bash', 'echo', 'x'], { env });
  t.equal(two.status, 2, '--bash takes exactly one command line');
  t.match(two.stderr.toString(), /one command line/);
});
