/**
 * Secret shapes as real tools print them, for the masking tests: one line each, and the value
 * that must never reach the model. The values are made here at load time from a fixed seed
 * (nothing that looks like a live credential is stored in the repository), so every run sees
 * the same bytes.
 */

/** A fixed pseudo-random stream (mulberry32): the same characters on every run. */
function stream(seed: number): (alphabet: string, n: number) => string {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const URLSAFE = ALNUM + '_-';
const B64 = ALNUM + '+/';

export interface SecretShape {
  name: string;
  /** The line as a tool prints it. */
  line: string;
  /** The secret value: must not appear in anything the model is handed. */
  secret: string;
}

/** The shapes, each built from its own seed (a new shape never changes the others' bytes). */
export function secretShapes(seed = 1): SecretShape[] {
  const r = (n: number) => stream(seed * 1000 + n);
  const jwt = () => {
    const g = r(99);
    return `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${g(URLSAFE, 40)}.${g(URLSAFE, 43)}`;
  };
  const shapes: Array<[string, (g: ReturnType<typeof stream>) => { line: string; secret: string }]> = [
    ['stripe', (g) => { const s = 'sk_' + 'live_' + g(ALNUM, 24); return { line: `charging card with ${s} (mode live)`, secret: s }; }],
    ['gitlab', (g) => { const s = 'gl' + 'pat-' + g(URLSAFE, 20); return { line: `configured personal access token ${s}`, secret: s }; }],
    ['npm', (g) => { const s = 'npm' + '_' + g(ALNUM, 36); return { line: `//registry.npmjs.org/:_authToken=${s}`, secret: s }; }],
    ['google', (g) => { const s = 'AI' + 'za' + g(URLSAFE, 35); return { line: `maps client configured with ${s}`, secret: s }; }],
    ['azure', (g) => { const s = g(B64, 86) + '=='; return { line: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`, secret: s }; }],
    ['jwt-assign', () => { const s = jwt(); return { line: `ACCESS_TOKEN=${s}`, secret: s }; }],
    ['jwt-url', () => { const s = jwt(); return { line: `GET /callback?access_token=${s}&state=af0ifjsldkj 302`, secret: s }; }],
    ['netrc', (g) => { const s = g(ALNUM, 18); return { line: `machine api.example.com login deploy password ${s}`, secret: s }; }],
    ['redis-url', (g) => { const s = g(ALNUM, 20); return { line: `connecting to redis://:${s}@cache:6379/0`, secret: s }; }],
    ['curl-user', (g) => { const s = g(ALNUM, 16); return { line: `+ curl -sS -u admin:${s} https://api.example.com/health`, secret: s }; }],
    ['sendgrid', (g) => { const s = 'S' + 'G.' + g(URLSAFE, 22) + '.' + g(URLSAFE, 43); return { line: `mailer: using key ${s}`, secret: s }; }],
    ['vault', (g) => { const s = 'hv' + 's.' + g(URLSAFE, 90); return { line: `vault login succeeded, token ${s}`, secret: s }; }],
    ['pem-json', (g) => {
      const body = 'MII' + g(B64, 61) + '\\n' + g(B64, 64) + '\\n' + g(B64, 40) + '==';
      return { line: `{"level":"info","msg":"loaded signing key","key":"-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n"}`, secret: body.slice(0, 40) };
    }],
    ['github', (g) => { const s = 'gh' + 'p_' + g(ALNUM, 36); return { line: `GITHUB_TOKEN=${s}`, secret: s }; }],
    ['password-assign', (g) => { const s = g(ALNUM, 20); return { line: `export DB_PASSWORD="${s}"`, secret: s }; }],
    ['bearer', (g) => { const s = g(URLSAFE, 40); return { line: `> Authorization: Bearer ${s}`, secret: s }; }],
    ['postgres-url', (g) => { const s = g(ALNUM, 16); return { line: `DATABASE_URL=postgres://app:${s}@db:5432/shop`, secret: s }; }],
    ['slack', (g) => { const s = 'xo' + 'xb-' + g('0123456789', 12) + '-' + g('0123456789', 13) + '-' + g(ALNUM, 24); return { line: `posting to slack with ${s}`, secret: s }; }],
    ['anthropic', (g) => { const s = 'sk-' + 'ant-api03-' + g(URLSAFE, 93) + 'AA'; return { line: `using model key ${s}`, secret: s }; }],
    ['aws-key-id', (g) => { const s = 'AK' + 'IA' + g(UPPER_DIGITS, 16); return { line: `aws_access_key_id = ${s}`, secret: s }; }],
    ['aws-secret', (g) => { const s = g(B64, 40); return { line: `aws_secret_access_key = ${s}`, secret: s }; }],
  ];
  return shapes.map(([name, make], i) => ({ name, ...make(r(i)) }));
}

export const SECRET_SHAPES = secretShapes();

/** A multi-line private key block (PEM) as `cat key.pem` or a config dump prints it. */
export function pemBlock(seed = 1): { lines: string[]; secret: string } {
  const g = stream(seed * 7919);
  const body = Array.from({ length: 6 }, (_, i) => (i === 0 ? 'MII' + g(B64, 61) : g(B64, 64)));
  return { lines: ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'], secret: body[1] };
}

/**
 * Lines that must come back exactly: the words and numbers real output is full of that share
 * a pre-check word with a secret rule (pass, key, token, auth, hashes, ids).
 */
export const LOOK_ALIKES: string[] = [
  'passed=3',
  'PASS=$((PASS+1))',
  'Tests: 12 passed, 12 total',
  'the token is refreshed every hour; see docs/auth.md',
  'SyntaxError: Unexpected token 1234567890ab in JSON at position 10',
  'commit 3f2a9c01b4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9',
  'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'request id 123e4567-e89b-12d3-a456-426614174000 completed',
  'integrity sha512-Q7vX2mKp9LwR4tYzQ7vX2mKp9LwR4tYzQ7vX2mKp9LwR4tYzQ7vX2mKp9LwR4tYz==',
  'docker run -u 1000:1000 app',
  'git push -u origin main',
  'ssh deploy@10.0.0.5 uptime',
  'https://user@example.com/repo.git',
  'PWD=/home/dev/project',
  'const tokenCount = tokens.length;',
  'const API_KEY = process.env.API_KEY;',
  'password: ${{ secrets.DB_PASSWORD }}',
  'PASSWORD_MIN_LENGTH=8',
  'export KEYBOARD=us',
  '  --token TOKEN      the API token to use',
  '  --password <pass>  the password',
  'curl --user-agent "mozilla:5" https://example.com',
  'GET /search?q=monkey&sort=asc 200',
  'asia-east1 region ready',
  'AKIA is the prefix of an AWS access key id',
  'msg.length is 12',
  'eyJ is how a JWT starts',
  'ok 12 - key rotation keeps old keys (3 ms)',
  'npm warn deprecated inflight@1.0.6',
];
