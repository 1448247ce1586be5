import type { Line } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';

/*
 * redact: values of secret-looking assignments, bearer tokens, well-known token shapes
 * and private key blocks print as `***` in every distilled output. It sets `line.out`
 * (never `text`/`raw`), so the exact bytes stay recoverable from the whole-output archive
 * render writes, and counts each redaction on `run.redactions` for render's note.
 *
 * Not applied to passthrough runs (structured data, binary, errors: rule 3 keeps them
 * byte for byte) nor to reads (`cat`, `head`, `sed -n`: a read is delivered unchanged).
 * Words that merely contain "pass" (`passed=3`, `PASS=$((PASS+1))`, `pass=10`) are not
 * secret names: a name must END in a secret word (`DB_PASSWORD`, `GITHUB_TOKEN`, `API_KEY`).
 */

/**
 * Cheap pre-check: a line without any of these is never looked at again. Written as a trie
 * (one alternative per first letter), which V8 rejects at a position sooner than the flat
 * list `pass|pwd|token|secret|key|bearer|auth|credential|BEGIN|ghp_|gho_|ghs_|github_pat_|
 * sk-|xox[abprs]-|://user:pw@` it replaced; the two agree (test/pipeline/redact-gate.test.ts).
 */
const MAYBE = /p(?:ass|wd)|token|s(?:ecret|k-)|key|b(?:earer|egin)|auth|credential|g(?:h[pos]_|ithub_pat_)|xox[abprs]-|:\/\/[^\s/@:]+:[^\s/@]+@/i;

/** True when a line may hold a secret (or a private key's first line); false means it holds none. */
export function maySecret(text: string): boolean {
  return MAYBE.test(text);
}
/** A password in a URL's user info: `postgres://app:hunter2@db:5432/shop`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s\/@:]+:)([^\s\/@]+)@/gi;

/**
 * Secret names: the last `_`-separated part(s) of the name say what it is. A password word
 * may be glued to its prefix (`PGPASSWORD`, `DBPASSWD`); the short words `PWD` and `AUTH`
 * count only after a separator (`MYSQL_PWD`, `REDISCLI_AUTH`), so the shell's own `PWD` and
 * `OLDPWD` (the working directory) are not secrets.
 */
const SECRET_NAME = String.raw`(?:(?:[A-Za-z0-9]+[_.-])+(?:PWD|AUTH)|(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*PASSWORD|[A-Za-z0-9]*PASSWD|PASSPHRASE|TOKEN|SECRET|API_?KEY|SECRET_?KEY|ACCESS_?KEY|PRIVATE_?KEY|SIGNING_?KEY|ENCRYPTION_?KEY|MASTER_?KEY|CLIENT_?SECRET|AUTH_?TOKEN|ACCESS_?TOKEN|REFRESH_?TOKEN|CREDENTIALS?))`;
/** `NAME=value`, `export NAME="value"`, `"name": "value"`, `name: value` (YAML-ish line start). */
const ASSIGN = new RegExp(
  String.raw`(?<![A-Za-z0-9_])(` + SECRET_NAME + String.raw`)(?![A-Za-z0-9_])` +
  String.raw`(\s*=\s*|"\s*:\s*|'\s*:\s*|:\s+)(["']?)([^\s"'\`,;]+)`,
  'gi',
);
/**
 * HTTP headers that carry a credential, by the end of their name: `x-api-key`, `api-key`,
 * `X-Auth-Token`, `x-amz-security-token`, `Authorization`, `Proxy-Authorization`. A header
 * stands at the start of a line (curl -v prefixes `> ` / `< `) or after `-H` / `--header` in
 * a command echo; its value runs to the closing quote or the end of the line.
 */
const HEADER_NAME = String.raw`(?:[A-Za-z0-9]+-)*(?:api-?key|auth-?token|access-?token|session-?token|security-?token|secret|password|authorization)`;
const HEADER = new RegExp(
  String.raw`(^(?:[<>] ?)?|(?:-H|--header)[\s=]*["']?)(` + HEADER_NAME + String.raw`)([ \t]*:[ \t]*)([^"'\r\n]*[^\s"'])`,
  'gi',
);
/** An Authorization value's scheme stays (`Basic ***`): it says what kind of credential it was. */
const AUTH_SCHEME = /^(Bearer|Basic|Digest|token|Negotiate|NTLM|Bot)\s+(\S.*)$/i;
const BEARER = /\b(Bearer|bearer|Basic|(?<=Authorization:\s*)token)\s+([A-Za-z0-9._~+\/=-]{12,})/g;
const SHAPES = /\b(ghp_[A-Za-z0-9]{30,}|gho_[A-Za-z0-9]{30,}|ghs_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,})\b/g;
const KEY_BEGIN = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----/;
const KEY_END = /-----END ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----/;
/** Values that are references or placeholders, not secrets. */
const NOT_A_VALUE = /^(\$|\*{3}|<|%|\{\{|xxx+$|null$|none$|true$|false$|undefined$|required$|optional$|string$|\.\.\.)/i;
/** Code, not a value: `process.env.API_KEY`, `config.token`, `getenv("X")`, `args.password`. */
const CODE_REF = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+(\(.*)?$|^[A-Za-z_$][\w$]*\(/;

export interface Redaction {
  text: string;
  count: number;
}

/** Pure: one line with its secret values replaced by `***`, and how many there were. */
export function redactLine(text: string): Redaction {
  if (!MAYBE.test(text)) return { text, count: 0 };
  return redactMaybe(text);
}

/** redactLine past its pre-check. */
function redactMaybe(text: string): Redaction {
  let count = 0;
  // Headers first: the whole value goes (an API key rarely has a token shape), and what is
  // left for the rules below is `***`, which none of them counts twice.
  let t = text.indexOf(':') < 0 ? text : text.replace(HEADER, (m, head: string, name: string, sep: string, value: string) => {
    const scheme = AUTH_SCHEME.exec(value);
    const secret = scheme ? scheme[2] : value;
    if (NOT_A_VALUE.test(secret) || secret.length < 3) return m;
    count++;
    return `${head}${name}${sep}${scheme ? `${scheme[1]} ` : ''}***`;
  });
  t = t.replace(ASSIGN, (m, name: string, sep: string, q: string, value: string) => {
    // `name: value` only at the start of a line (YAML, headers); prose like "Password: wrong" is rare there.
    if (sep.startsWith(':') && !new RegExp(String.raw`^[+-]?\s*(-\s+)?["']?` + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$').test(text.slice(0, text.indexOf(m) + name.length))) return m;
    if (NOT_A_VALUE.test(value) || CODE_REF.test(value) || value.length < 3) return m;
    count++;
    return `${name}${sep}${q}***`;
  });
  t = t.replace(BEARER, (m, kind: string, value: string) => {
    if (/^\*+$/.test(value)) return m;
    count++;
    return `${kind} ***`;
  });
  t = t.replace(SHAPES, () => { count++; return '***'; });
  t = t.replace(URL_CREDENTIALS, (m, head: string, value: string) => {
    if (NOT_A_VALUE.test(value) || value === '***') return m;
    count++;
    return `${head}***@`;
  });
  return { text: t, count };
}

/** The redaction stage: sets `line.out` on lines that carried a secret value. */
export function redact(run: RunState) {
  let inKey = false;
  const apply = (l: Line) => {
    const shown = l.out ?? l.plain ?? l.text;
    if (inKey) {
      if (KEY_END.test(shown)) { inKey = false; return; }
      run.redactedBytes += Math.max(0, Buffer.byteLength(shown) - 3);
      l.out = '***';
      l.redacted = true;
      return;
    }
    // Every rule below needs one of the pre-check's words (a key block's BEGIN among them).
    if (!MAYBE.test(shown)) return;
    if (KEY_BEGIN.test(shown)) {
      if (!KEY_END.test(shown)) { inKey = true; run.redactions++; }
      return;
    }
    const r = redactMaybe(shown);
    if (r.count) {
      l.out = r.text;
      l.redacted = true;
      run.redactions += r.count;
      run.redactedBytes += Math.max(0, Buffer.byteLength(shown) - Buffer.byteLength(r.text));
    }
  };
  return batchStage(run, (batch, push) => {
    if (run.passthrough || run.distiller === 'read') return push(batch);
    for (const it of batch.items) if (it.kind === 'line') apply(it);
    push(batch);
  });
}
