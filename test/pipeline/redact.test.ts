import t from 'tap';
import { maskSecretBytes, maskSecrets, maskStep, redactLine } from '../../lib/pipeline/redact.js';
import { corpusCase } from '../helpers/cases.js';
import { LOOK_ALIKES, pemBlock, SECRET_SHAPES, secretShapes } from '../helpers/secrets.js';
import type { Line } from '../../lib/kit/types.js';

t.test('redacts a token but leaves passed=3 alone', async (t) => {
  const rows = corpusCase('734-env-secrets').output.toString('utf8').trimEnd().split('\n');
  const out = new Map(rows.map((r) => [r.split('=')[0], redactLine(r)]));
  for (const name of ['DB_PASSWORD', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'API_KEY']) {
    t.equal(out.get(name)!.text, `${name}=***`, name);
    t.equal(out.get(name)!.count, 1);
  }
  for (const name of ['PASS', 'passed', 'PWD', 'NODE_ENV', 'PATH', 'HOME', 'GIT_PAGER']) {
    const row = rows.find((r) => r.startsWith(`${name}=`))!;
    t.same(out.get(name), { text: row, count: 0 }, `${name} untouched`);
  }
});

t.test('ordinary words that contain pass, key or token are not secrets', async (t) => {
  for (const line of [
    'PASS=$((PASS+1))',
    'pass=10 fail=0',
    'Tests: 12 passed, 12 total',
    'TOKENIZER_PATH=/opt/tok',
    'export KEYBOARD=us',
    'const tokenCount = tokens.length;',
    'PASSWORD_MIN_LENGTH=8',
    'DB_PASSWORD=$DB_PASSWORD_FROM_VAULT',
    'password: ${{ secrets.DB_PASSWORD }}',
    'const API_KEY = process.env.API_KEY;',
    '  token = getenv("GITHUB_TOKEN")',
    '  password: string;',
    'SyntaxError: Unexpected token 1234567890ab in JSON',
  ]) t.same(redactLine(line), { text: line, count: 0 }, line);
});

t.test('redacts assignments, bearer tokens and well-known token shapes', async (t) => {
  t.same(redactLine('export STRIPE_SECRET_KEY="sk_live_abcdef123456"'), { text: 'export STRIPE_SECRET_KEY="***"', count: 1 });
  t.same(redactLine('  "api_key": "abc123def456",'), { text: '  "api_key": "***",', count: 1 });
  t.same(redactLine('db_password: s3cr3t-value'), { text: 'db_password: ***', count: 1 });
  t.same(redactLine('+  api_token: 9f8e7d6c5b4a'), { text: '+  api_token: ***', count: 1 });
  t.same(redactLine('> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc'), { text: '> Authorization: Bearer ***', count: 1 });
  t.same(redactLine('Authorization: token 0123456789abcdef0123'), { text: 'Authorization: token ***', count: 1 });
  t.same(redactLine('cloning with ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 now'), { text: 'cloning with *** now', count: 1 });
  t.same(redactLine('A=1 GITHUB_TOKEN=ghp_x1y2z3 DB_PASSWORD=hunter22'), { text: 'A=1 GITHUB_TOKEN=*** DB_PASSWORD=***', count: 2 });
});

t.test('masks every line of a private key block and counts the block once', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const { RunState } = await import('../../lib/kit/stage.js');
  const { redact } = await import('../../lib/pipeline/redact.js');
  // A real key, generated now (never stored in the repository).
  const pem = spawnSync('openssl', ['genpkey', '-algorithm', 'ed25519'], { encoding: 'utf8' }).stdout;
  t.match(pem, /^-----BEGIN PRIVATE KEY-----\n/);
  const texts = ['key follows', ...pem.trimEnd().split('\n'), 'done'];
  const lines = texts.map((text, index) => ({ kind: 'line' as const, text, eol: '\n', tier: 'text' as const, index, end: 0 }));
  const run = new RunState();
  const stage = redact(run);
  const got: string[] = [];
  stage.on('data', (b: { items: Array<{ out?: string; text: string }> }) => { for (const l of b.items) got.push(l.out ?? l.text); });
  stage.end({ items: lines, end: 0 });
  await new Promise((r) => stage.on('end', r));
  t.same(got, ['key follows', '-----BEGIN PRIVATE KEY-----', ...texts.slice(2, -2).map(() => '***'), '-----END PRIVATE KEY-----', 'done']);
  t.equal(run.redactions, 1);
  for (const l of lines) t.equal(l.text, texts[l.index], 'text is never changed');
});

t.test('a read or a passthrough run is never redacted', async (t) => {
  const { RunState } = await import('../../lib/kit/stage.js');
  const { redact } = await import('../../lib/pipeline/redact.js');
  for (const setup of [(r: InstanceType<typeof RunState>) => { r.distiller = 'read'; }, (r: InstanceType<typeof RunState>) => { r.passthrough = 'json'; }]) {
    const run = new RunState();
    setup(run);
    const stage = redact(run);
    const line: Line = { kind: 'line', text: 'DB_PASSWORD=hunter2-value', eol: '\n', tier: 'text', index: 0, end: 26 };
    stage.on('data', () => {});
    stage.end({ items: [line], end: 26 });
    await new Promise((r) => stage.on('end', r));
    t.equal(line.out, undefined);
    t.equal(run.redactions, 0);
  }
});

t.test('the real env output with secrets comes back without their values, and no larger', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  const { loadCorpus } = await import('../helpers/corpus.js');
  for (const c of loadCorpus().filter((x) => /env/.test(x.family) && /secret/.test(x.name))) {
    const r = await distill(c.output, { command: c.cmd, door: 'pipe' });
    const out = r.output.toString();
    t.notMatch(out, /hunter2|ghp_FAKE/, `${c.name}: no secret value left`);
    t.notMatch(out, /\[omni: [^\]]*(secret|redacted)/, `${c.name}: no marker speaks of the secrets (none may name a handle that gives them back)`);
    t.match(out, /=\*\*\*/, `${c.name}: masked in place`);
    t.ok(r.outBytes <= r.rawBytes, `${c.name}: ${r.outBytes} <= ${r.rawBytes} bytes`);
  }
});

t.test('a password in a URL is redacted, the user and host stay', async (t) => {
  const { redactLine } = await import('../../lib/pipeline/redact.js');
  t.same(redactLine('DATABASE_URL=postgres://app:hunter2@127.0.0.1:5432/shop'), { text: 'DATABASE_URL=postgres://app:***@127.0.0.1:5432/shop', count: 1 });
  t.same(redactLine('see https://example.com/a:b@c'), { text: 'see https://example.com/a:b@c', count: 0 }, 'a path is not user info');
  t.same(redactLine('git@github.com:org/repo.git'), { text: 'git@github.com:org/repo.git', count: 0 });
});

// Issue 10, defect 15: header-style secrets and `*PASSWORD=` env values passed through.
t.test('header-style secrets in real curl -v output are masked, the header names stay', async (t) => {
  const { spawn } = await import('node:child_process');
  const http = await import('node:http');
  const { distill } = await import('../helpers/omni.js');
  const srv = http.createServer((_q, r) => r.end('hello from the loopback\n'));
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', () => res()));
  t.teardown(() => srv.close());
  const port = (srv.address() as { port: number }).port;
  // Real lengths (an Anthropic key is 108 characters): a masked value must pay for the
  // receipt the output gains, or the output would grow and goes out raw (no output is larger than its input).
  const key = `sk-ant-api03-${'Q7vX2mKp9LwR4tYz'.repeat(6)}AA`;
  const token = 'f3a9c1e07b5d4286'.repeat(4);
  const apiKey = '5b1f0c2e9d8a7f64'.repeat(2);
  const basic = Buffer.from('deploy:correct-horse-battery-staple').toString('base64');
  const headers = [`x-api-key: ${key}`, `api-key: ${apiKey}`, `X-Auth-Token: ${token}`, `authorization: Basic ${basic}`];
  const argv = ['-sv', ...headers.flatMap((h) => ['-H', h]), `http://127.0.0.1:${port}/`];
  const raw = await new Promise<Buffer>((res, rej) => {
    const c = spawn('curl', argv);
    const chunks: Buffer[] = [];
    c.stdout.on('data', (d: Buffer) => chunks.push(d));
    c.stderr.on('data', (d: Buffer) => chunks.push(d));
    c.on('error', rej);
    c.on('close', () => res(Buffer.concat(chunks)));
  });
  const text = raw.toString();
  t.match(text, `> x-api-key: ${key}`, 'curl printed the header it sent');
  const r = await distill(raw, { command: `curl ${argv.join(' ')}`, door: 'pipe', exitCode: 0 });
  const out = r.output.toString();
  t.equal(r.changed, true, 'the masked output is delivered');
  for (const secret of [key, apiKey, token, basic]) t.notMatch(out, secret, `${secret.slice(0, 8)}… is not in the output`);
  t.match(out, '> x-api-key: ***');
  t.match(out, '> api-key: ***');
  t.match(out, '> X-Auth-Token: ***');
  t.match(out, '> authorization: Basic ***');
  t.match(out, 'hello from the loopback', 'the body survives');
  t.ok(r.outBytes <= r.rawBytes, `${r.outBytes} <= ${r.rawBytes} bytes`);
});

t.test('*PASSWORD= and MYSQL_PWD= values in real env output are masked; PWD= is a directory', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const { distill } = await import('../helpers/omni.js');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', PWD: '/work/project', PGPASSWORD: 'hunter2-pg-value-7Hq2Lx9Vw3', MYSQL_PWD: 'my-sql-pw-value-Z4r8Kd1Nb6', REDISCLI_AUTH: 'redis-auth-value-T5m0Yc2Gf8', LANG: 'C.UTF-8' };
  for (const cmd of ['env', 'printenv']) {
    const raw = spawnSync(cmd, { env }).stdout;
    t.match(raw.toString(), 'PGPASSWORD=hunter2-pg-value', `${cmd} printed the value`);
    const r = await distill(raw, { command: cmd, door: 'pipe', exitCode: 0 });
    const out = r.output.toString();
    t.equal(r.changed, true, `${cmd}: the masked output is delivered`);
    t.notMatch(out, /hunter2-pg-value|my-sql-pw-value|redis-auth-value/, `${cmd}: no secret value left`);
    t.match(out, 'PGPASSWORD=***');
    t.match(out, 'MYSQL_PWD=***');
    t.match(out, 'REDISCLI_AUTH=***');
    t.match(out, 'PWD=/work/project', `${cmd}: the working directory is not a secret`);
    t.match(out, 'LANG=C.UTF-8');
    t.ok(r.outBytes <= r.rawBytes, `${cmd}: ${r.outBytes} <= ${r.rawBytes} bytes`);
  }
});

t.test('header and env secret rules leave look-alikes alone', async (t) => {
  for (const line of [
    '> Accept: */*',
    '< Content-Type: text/plain',
    'x-api-key-header-name: required',
    'PWD=/home/dev',
    'OLDPWD=/tmp',
    'PASSWORD_MIN_LENGTH=8',
    'Authorization: ${TOKEN}',
    '  authorization: string;',
  ]) t.same(redactLine(line), { text: line, count: 0 }, line);
  t.same(redactLine('PGPASSWORD=s3cret psql -h db'), { text: 'PGPASSWORD=*** psql -h db', count: 1 });
  t.same(redactLine('Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830'), { text: 'Authorization: ***', count: 1 });
  t.same(redactLine('x-api-key: abcdef123456'), { text: 'x-api-key: ***', count: 1 });
});

// Issue: 13 of 20 common shapes reached the model. Each shape, masked on its own line.
t.test('every common secret shape is masked, and only its value', async (t) => {
  for (const seed of [1, 2, 3]) {
    for (const s of secretShapes(seed)) {
      const r = redactLine(s.line);
      t.ok(r.count >= 1, `${s.name} (seed ${seed}): counted`);
      t.notOk(r.text.includes(s.secret), `${s.name} (seed ${seed}): the value is gone: ${r.text.slice(0, 120)}`);
      t.ok(r.text.includes('***'), `${s.name}: masked in place`);
      t.ok(Buffer.byteLength(r.text) <= Buffer.byteLength(s.line), `${s.name}: never longer`);
    }
  }
  const want: Record<string, string> = {
    azure: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=***;EndpointSuffix=core.windows.net',
    'jwt-url': 'GET /callback?access_token=***&state=af0ifjsldkj 302',
    netrc: 'machine api.example.com login deploy password ***',
    'redis-url': 'connecting to redis://:***@cache:6379/0',
    'curl-user': '+ curl -sS -u admin:*** https://api.example.com/health',
    'pem-json': '{"level":"info","msg":"loaded signing key","key":"-----BEGIN PRIVATE KEY-----\\n***\\n-----END PRIVATE KEY-----\\n"}',
    npm: '//registry.npmjs.org/:_authToken=***',
    'aws-secret': 'aws_secret_access_key = ***',
  };
  for (const s of SECRET_SHAPES) if (want[s.name]) t.equal(redactLine(s.line).text, want[s.name], `${s.name}: what stays around the mask`);
});

t.test('look-alikes are not masked: hashes, SHAs, UUIDs, pass/key/token words, placeholders', async (t) => {
  for (const line of LOOK_ALIKES) t.same(redactLine(line), { text: line, count: 0 }, line);
  t.equal(maskSecrets(LOOK_ALIKES.join('\n')), LOOK_ALIKES.join('\n'), 'and as one text');
});

t.test('more shapes: Slack webhooks, SAS signatures, --password on a command line, cloud tokens', async (t) => {
  const cases: Array<[string, string]> = [
    ['POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/' + 'a1B2c3D4e5F6g7H8i9J0k1L2', 'POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/***'],
    ['https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=' + 'AbCdEf0123456789%2BxYz%3D&se=2030', 'https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=***&se=2030'],
    ['$ docker login --password ' + 'Zq8xK2mN4pL7 registry.example.com', '$ docker login --password *** registry.example.com'],
    ['using ' + 'xapp-1-A0123456789-' + '1234567890123-abcdef0123456789', 'using ***'],
    ['HF_HOME set, token ' + 'hf_' + 'AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'HF_HOME set, token ***'],
    ['key id ' + 'ASIA' + 'ABCDEFGHIJKLMNOP' + ' expires soon', 'key id *** expires soon'],
    ['whsec_' + 'AbCdEfGhIjKlMnOpQrStUvWx', '***'],
    ['Server=db;User Id=app;Password=' + 'Tr0ub4dor3x;Encrypt=true', 'Server=db;User Id=app;Password=***;Encrypt=true'],
  ];
  for (const [line, want] of cases) t.equal(redactLine(line).text, want, line.slice(0, 60));
});

t.test('maskSecrets: a whole text, key blocks over several lines included, never longer', async (t) => {
  const pem = pemBlock();
  const text = ['build started', 'GITHUB_TOKEN=' + 'ghp_' + 'x'.repeat(36), ...pem.lines, 'Error: after the key, kept', ''].join('\n');
  const out = maskSecrets(text);
  t.notOk(out.includes(pem.secret), 'the key body is gone');
  t.notOk(out.includes('ghp_'), 'the token is gone');
  t.match(out, /-----BEGIN RSA PRIVATE KEY-----\n\*\*\*\n/);
  t.match(out, /-----END RSA PRIVATE KEY-----\nError: after the key, kept\n$/, 'the block ends at its END line');
  t.ok(out.length <= text.length);
  t.equal(out.split('\n').length, text.split('\n').length, 'the same lines');
  // A key cut short: the block ends at the first line that is not base64.
  const cut = ['-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'npm ERR! code E401', 'next'].join('\n');
  t.equal(maskSecrets(cut), ['-----BEGIN PRIVATE KEY-----', '***', 'npm ERR! code E401', 'next'].join('\n'));
  t.same(maskStep('-----BEGIN OPENSSH PRIVATE KEY-----', false), { text: '-----BEGIN OPENSSH PRIVATE KEY-----', count: 1, inKey: true });
  // Bytes that are not UTF-8 come back as they were outside the mask.
  const bin = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' DB_PASSWORD=hunter2hunter2 '), Buffer.from([0x80])]);
  t.same(maskSecretBytes(bin), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' DB_PASSWORD=*** '), Buffer.from([0x80])]));
});
