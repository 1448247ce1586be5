import type { Line } from '../kit/types.js';
import { batchStage, type RunState } from '../kit/stage.js';
import { compileNative } from '../base/native-regex.js';

/*
 * redact: secret values print as `***` wherever omni delivers text it distilled. The one
 * masking (`maskStep`, and `maskSecrets` over a whole text) is shared by every door and by
 * everything that shows archived bytes (`omni retrieve`, `omni diff`, `omni_retrieve`, the
 * stats report), so the same bytes are masked the same way everywhere.
 *
 * A mask is never longer than what it replaces (`***` stands only for three or more
 * characters), and it costs no marker: masking never grows an output, so it is never dropped
 * to save bytes, and no receipt names a handle that would hand the value back.
 *
 * The stage sets `line.out` (never `text`/`raw`) on the shown form, and `line.masked` on the
 * raw form of every line it masked, visible or hidden in a marker: what render sends wherever it
 * sends a line as it came (a fold that did not pay, a batch past the streaming budget, the final
 * gate's fallback). The exact bytes stay in the archive.
 *
 * Not applied to passthrough runs (structured data, binary, errors: those stay byte for
 * byte) nor to reads (`cat`, `head`, `sed -n`: a read is delivered unchanged), unless the user
 * sets OMNI_MASK=all (render and the stage read `ctx.maskAll`). Words that merely contain "pass"
 * (`passed=3`, `PASS=$((PASS+1))`, `pass=10`) are not secret names: a name must END in a secret
 * word (`DB_PASSWORD`, `GITHUB_TOKEN`, `API_KEY`).
 */

/**
 * Cheap pre-check: a line without any of these is never looked at again. Written as a trie
 * (one alternative per first letter), which V8 rejects at a position sooner than the flat list
 * it stands for (FLAT in test/pipeline/redact-gate.test.ts); the two agree, and every line a
 * rule below masks passes it (the same test fuzzes each shape). A URL's user info
 * (`://user:password@`) is its own regex, tried only on a line holding `://`: in the trie it
 * cost as much as all the words together (~0.9 ns a char over the mixed log).
 */
const MAYBE = /p(?:ass|wd|ypi-)|t(?:oken)|s(?:ecret|k[-_]|g\.|hp(?:at|ss|ca|pa)_|ig=)|k(?:ey)|b(?:earer|egin)|a(?:uth|iza|kia|sia)|c(?:redential|url)|g(?:h[pousr]_|ithub_pat_|l(?:pat|dt|rt|ptt|soat)-)|x(?:ox[abeoprs]-|app-)|e(?:yj)|n(?:pm_)|h(?:v[sbr]\.|f_|ooks\.slack)|r(?:k_)|w(?:hsec_)|d(?:ckr_pat_|o[por]_v1_)/i;
const MAYBE_USER_INFO = /:\/\/[^\s/@:]*:[^\s/@]+@/;

let native = false;

/** The pre-check over `text`: tried on every line, so compiled to machine code at once (lib/base/native-regex.ts). */
function maybe(text: string): boolean {
  if (!native) {
    compileNative(MAYBE);
    native = true;
  }
  return MAYBE.test(text) || (text.indexOf('://') >= 0 && MAYBE_USER_INFO.test(text));
}

/** True when a line may hold a secret (or a private key's first line); false means it holds none. */
export function maySecret(text: string): boolean {
  return maybe(text);
}

/** What stands for a value: `***`. A value shorter than that is no secret and stays (a mask is never longer). */
function maskOf(value: string): string {
  return value.length >= 3 ? '***' : value;
}

/** A password in a URL's user info: `postgres://app:hunter2@db:5432/shop`, `redis://:pw@host`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s\/@:]*:)([^\s\/@]+)@/gi;

/**
 * Secret names: the last `_`-separated part(s) of the name say what it is. A password word
 * may be glued to its prefix (`PGPASSWORD`, `DBPASSWD`); the short words `PWD` and `AUTH`
 * count only after a separator (`MYSQL_PWD`, `REDISCLI_AUTH`), so the shell's own `PWD` and
 * `OLDPWD` (the working directory) are not secrets. `AccountKey`/`SharedAccessKey` are Azure's
 * connection-string keys.
 */
const SECRET_NAME = String.raw`(?:(?:[A-Za-z0-9]+[_.-])+(?:PWD|AUTH)|(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*PASSWORD|[A-Za-z0-9]*PASSWD|PASSPHRASE|TOKEN|SECRET|API_?KEY|SECRET_?KEY|ACCESS_?KEY|ACCOUNT_?KEY|SHARED_?ACCESS_?KEY|PRIVATE_?KEY|SIGNING_?KEY|ENCRYPTION_?KEY|MASTER_?KEY|CLIENT_?SECRET|AUTH_?TOKEN|ACCESS_?TOKEN|REFRESH_?TOKEN|CREDENTIALS?))`;
/** `NAME=value`, `export NAME="value"`, `"name": "value"`, `name: value` (YAML-ish line start). */
const ASSIGN = new RegExp(
  String.raw`(?<![A-Za-z0-9_])(` + SECRET_NAME + String.raw`)(?![A-Za-z0-9_])` +
  String.raw`(\s*=\s*|"\s*:\s*|'\s*:\s*|:\s+)(["']?)([^\s"'\`,;]+)`,
  'gi',
);
/**
 * A credential in a URL's query: `?access_token=…`, `&sig=…` (an Azure SAS), `?key=…`. The
 * value ends at the next `&` or `#`, so the rest of the query stays.
 */
const URL_PARAM = /([?&](?:(?:[A-Za-z0-9]+[_.-])*(?:access_?token|refresh_?token|id_?token|auth_?token|token|secret|client_?secret|password|passwd|api_?key|apikey|credentials?)|key|sig|signature|auth|pwd)=)([^&#\s"'<>]+)/gi;
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
/**
 * Token shapes that are credentials wherever they stand: GitHub, OpenAI/Anthropic, Stripe
 * (secret, restricted, webhook), Slack, GitLab, npm, Google API keys, AWS access key ids,
 * SendGrid, Vault, JWTs, PyPI, Hugging Face, Docker Hub, DigitalOcean, Shopify. Each needs its
 * prefix and a length no word or hash has.
 */
const SHAPES = new RegExp(String.raw`(?<![A-Za-z0-9_])(?:` + [
  String.raw`gh[pousr]_[A-Za-z0-9]{30,}`,
  String.raw`github_pat_[A-Za-z0-9_]{30,}`,
  String.raw`sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`,
  String.raw`[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`,
  String.raw`whsec_[A-Za-z0-9]{20,}`,
  String.raw`xox[abeoprs]-[A-Za-z0-9-]{10,}`,
  String.raw`xapp-[A-Za-z0-9-]{10,}`,
  String.raw`gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_-]{20,}`,
  String.raw`npm_[A-Za-z0-9]{30,}`,
  String.raw`AIza[0-9A-Za-z_-]{35}`,
  String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`,
  String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
  String.raw`hv[sbr]\.[A-Za-z0-9_-]{20,}`,
  String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
  String.raw`pypi-AgE[A-Za-z0-9_-]{40,}`,
  String.raw`hf_[A-Za-z0-9]{30,}`,
  String.raw`dckr_pat_[A-Za-z0-9_-]{20,}`,
  String.raw`do[por]_v1_[a-f0-9]{40,}`,
  String.raw`shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`,
].join('|') + String.raw`)(?![A-Za-z0-9_-])`, 'g');
/** A Slack incoming webhook: the last path part is the secret. */
const SLACK_HOOK = /(hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/)([A-Za-z0-9]{16,})/g;
/** `.netrc`: `machine host login user password secret` (one line), and `password secret` alone on a line. */
const NETRC = /(\bmachine\s+\S+\s+(?:login\s+\S+\s+)?(?:account\s+\S+\s+)?password\s+)(["']?)([^\s"']+)/g;
const NETRC_LINE = /^(\s*password\s+)(["']?)([^\s"']+)(["']?\s*)$/;
/** `curl -u user:password`, `--user`, `--proxy-user`, `-U`: the password after the colon. */
const CURL_USER = /(\bcurl\b.*?\s(?:-u|--user|-U|--proxy-user)(?:\s+|=|(?=[^\s-]))["']?[^\s:"']*:)([^\s"']+)/g;
/** `--password secret`, `--token secret` on a command line (the `=` form is ASSIGN's). */
const CLI_FLAG = /((?:^|\s)--(?:password|passwd|token|api-key|secret|client-secret|access-token|auth-token)\s+)(["']?)([^\s"'-][^\s"']*)/g;
/** A `--flag VALUE` value that is a placeholder in help text, not a credential. */
const PLACEHOLDER = /^(?:[A-Z][A-Z0-9_]*|[a-z]+|<.*|\[.*|\{.*)$/;
export const KEY_BEGIN = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----/;
const KEY_END = /-----END ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----/;
/**
 * A private key inside one line (a JSON string with `\n` escapes, a key pasted on one line):
 * the body between the armour lines goes, the escapes around it stay.
 */
const KEY_INLINE = /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)((?:\\r)?(?:\\n)+|\s+)?([^"'`]*?)((?:\\r)?(?:\\n)+|\s+)?(?=-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|["'`]|$)/g;
/** A line inside a multi-line key block: base64, or an armour header (`Proc-Type: …`, `Version: …`). */
const KEY_BODY = /^\s*(?:[A-Za-z0-9+\/=]*|(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset|MessageID|PuTTY-User-Key-File-\d|Encryption|Public-Lines|Private-Lines|Private-MAC): .*)\s*$/;
/** Values that are references or placeholders, not secrets. */
const NOT_A_VALUE = /^(\$|\*{3}|<|%|\{\{|xxx+$|null$|none$|true$|false$|undefined$|required$|optional$|string$|\.\.\.)/i;
/** Code, not a value: `process.env.API_KEY`, `config.token`, `getenv("X")`, `args.password`. */
const CODE_REF = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+(\(.*)?$|^[A-Za-z_$][\w$]*\(/;

export interface Redaction {
  text: string;
  count: number;
}

/** One line's masking, with the key-block state carried from the line before. */
export interface MaskStep extends Redaction {
  /** The next line starts inside a private key block. */
  inKey: boolean;
}

/** Pure: one line with its secret values replaced by `***`, and how many there were. */
export function redactLine(text: string): Redaction {
  if (!maybe(text)) return { text, count: 0 };
  return redactMaybe(text);
}

/** redactLine without its pre-check: what the gate test holds the pre-check against. */
export function redactUngated(text: string): Redaction {
  return redactMaybe(text);
}

/**
 * Pure: one line (no terminator) given whether it stands inside a multi-line private key block.
 * Inside a block every body line is masked (the block counts once, at its BEGIN line); a line
 * that is not base64 or an armour header ends the block (a key cut short does not mask the rest
 * of the output).
 */
export function maskStep(text: string, inKey: boolean): MaskStep {
  if (inKey) {
    if (KEY_END.test(text)) return { text, count: 0, inKey: false };
    if (KEY_BODY.test(text)) return { text: text.replace(/\S(?:.*\S)?/, maskOf), count: 0, inKey: true };
  }
  if (!maybe(text)) return { text, count: 0, inKey: false };
  const r = redactMaybe(text);
  // A BEGIN line with nothing after its armour opens a block of lines to mask.
  const begin = KEY_BEGIN.exec(text);
  if (begin && !KEY_END.test(text) && /^["',\s]*$/.test(text.slice(begin.index + begin[0].length))) return { text: r.text, count: r.count + 1, inKey: true };
  return { ...r, inKey: false };
}

/**
 * Pure: a whole text with every secret value masked, the same way the pipeline masks each line
 * (key blocks over several lines included). Never longer than the input. For everything that
 * shows archived or recorded bytes to someone who may be a model.
 */
export function maskSecrets(text: string): string {
  return textMasker()(text);
}

/**
 * A masker over a text that arrives in pieces, each ending a line (or the last): a key block
 * that spans two pieces is masked as one.
 */
export function textMasker(): (text: string) => string {
  let inKey = false;
  return (text) => {
    if (!inKey && !maybe(text)) return text;
    let out = '';
    let at = 0;
    while (at <= text.length) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      const r = maskStep(text.slice(at, end), inKey);
      inKey = r.inKey;
      out += r.text;
      if (nl < 0) break;
      out += '\n';
      at = nl + 1;
    }
    return out;
  };
}

/**
 * Bytes with every secret value masked: decoded as UTF-8 when they are, else byte for byte
 * (latin1), so bytes outside a mask come back as they were.
 */
export function maskSecretBytes(data: Buffer): Buffer {
  return bytesMasker()(data);
}

/** textMasker over bytes that arrive in pieces of whole lines, each decoded as maskSecretBytes does. */
export function bytesMasker(): (data: Buffer) => Buffer {
  const mask = textMasker();
  return (data) => {
    const utf8 = isUtf8(data);
    const text = data.toString(utf8 ? 'utf8' : 'latin1');
    const masked = mask(text);
    return masked === text ? data : Buffer.from(masked, utf8 ? 'utf8' : 'latin1');
  };
}

function isUtf8(b: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/** redactLine past its pre-check. */
function redactMaybe(text: string): Redaction {
  let count = 0;
  let t = text;
  // A key inside one line first: its base64 body must not be read as anything else.
  if (t.indexOf('-----BEGIN ') >= 0) {
    t = t.replace(KEY_INLINE, (m, begin: string, pre: string | undefined, body: string, post: string | undefined) => {
      if (body.length < 3) return m;
      count++;
      return `${begin}${pre ?? ''}***${post ?? ''}`;
    });
  }
  // Token shapes next: whatever names them (`ACCESS_TOKEN=<jwt>`), the value is a credential.
  t = t.replace(SHAPES, () => { count++; return '***'; });
  // Headers: the whole value goes (an API key rarely has a token shape), and what is left for
  // the rules below is `***`, which none of them counts twice.
  if (t.indexOf(':') >= 0) {
    t = t.replace(HEADER, (m, head: string, name: string, sep: string, value: string) => {
      const scheme = AUTH_SCHEME.exec(value);
      const secret = scheme ? scheme[2] : value;
      if (NOT_A_VALUE.test(secret) || secret.length < 3) return m;
      count++;
      return `${head}${name}${sep}${scheme ? `${scheme[1]} ` : ''}***`;
    });
  }
  if (t.indexOf('=') >= 0) {
    t = t.replace(URL_PARAM, (m, head: string, value: string) => {
      if (NOT_A_VALUE.test(value) || value.length < 3) return m;
      count++;
      return `${head}***`;
    });
  }
  t = t.replace(ASSIGN, (m, name: string, sep: string, q: string, value: string, at: number, whole: string) => {
    // `name: value` only at the start of a line (YAML, headers); prose like "Password: wrong" is rare there.
    if (sep.startsWith(':') && !/^[+-]?\s*(-\s+)?["']?$/.test(whole.slice(0, at))) return m;
    if (NOT_A_VALUE.test(value) || CODE_REF.test(value) || value.length < 3) return m;
    count++;
    return `${name}${sep}${q}***`;
  });
  t = t.replace(BEARER, (m, kind: string, value: string) => {
    if (/^\*+$/.test(value)) return m;
    count++;
    return `${kind} ***`;
  });
  t = t.replace(URL_CREDENTIALS, (m, head: string, value: string) => {
    if (NOT_A_VALUE.test(value) || /^\*+$/.test(value)) return m;
    count++;
    return `${head}${maskOf(value)}@`;
  });
  if (t.indexOf('hooks.slack') >= 0) t = t.replace(SLACK_HOOK, (_m, head: string) => { count++; return `${head}***`; });
  if (/password/i.test(t)) {
    const netrc = (m: string, head: string, q: string, value: string, tail = '') => {
      if (NOT_A_VALUE.test(value) || /^\*+$/.test(value)) return m;
      count++;
      return `${head}${q}${maskOf(value)}${tail}`;
    };
    t = t.replace(NETRC, (m, head: string, q: string, value: string) => netrc(m, head, q, value));
    t = t.replace(NETRC_LINE, (m, head: string, q: string, value: string, tail: string) => netrc(m, head, q, value, tail));
  }
  if (t.indexOf('curl') >= 0) {
    t = t.replace(CURL_USER, (m, head: string, value: string) => {
      if (NOT_A_VALUE.test(value) || /^\*+$/.test(value)) return m;
      count++;
      return `${head}${maskOf(value)}`;
    });
  }
  if (t.indexOf('--') >= 0) {
    t = t.replace(CLI_FLAG, (m, head: string, q: string, value: string) => {
      if (value.length < 3 || NOT_A_VALUE.test(value) || PLACEHOLDER.test(value) || CODE_REF.test(value)) return m;
      count++;
      return `${head}${q}***`;
    });
  }
  return { text: t, count };
}

/**
 * The redaction stage: sets `line.out` on shown lines that carried a secret value, and
 * `line.masked` (the raw form, masked) on every line that did, visible or hidden in a marker;
 * a marker's note (which may quote a hidden line) is masked too.
 * A read (`cat`, `head`, the Read tool: `read`) is left alone: an agent edits a file by the text
 * it read, so a masked read could write `***` over the real value. `maskAll` (OMNI_MASK=all):
 * reads are masked too.
 */
export function redact(run: RunState, opts: { maskAll?: boolean; read?: boolean } = {}) {
  let inKey = false;
  // Most lines hold none of the pre-check's words: one test each, no allocation.
  const visible = (l: Line) => {
    const shown = l.out ?? l.plain ?? l.text;
    const raw = l.raw ?? l.text;
    if (!inKey && !maybe(shown) && (raw === shown || !maybe(raw))) return;
    const before = inKey;
    const r = maskStep(shown, before);
    inKey = r.inKey;
    if (r.text !== shown) {
      l.out = r.text;
      l.redacted = true;
    }
    run.redactions += r.count;
    if (raw === shown) {
      if (r.text !== shown) l.masked = r.text;
    } else {
      const q = maskStep(raw, before);
      if (q.text !== raw) l.masked = q.text;
    }
  };
  const hidden = (l: Line) => {
    const raw = l.raw ?? l.text;
    if (!inKey && !maybe(raw)) return;
    const r = maskStep(raw, inKey);
    inKey = r.inKey;
    if (r.text !== raw) l.masked = r.text;
  };
  return batchStage(run, (batch, push) => {
    if (run.passthrough || ((opts.read || run.distiller === 'read') && !opts.maskAll)) return push(batch);
    for (const it of batch.items) {
      if (it.kind === 'line') visible(it);
      else {
        for (const h of it.hidden) hidden(h);
        // A marker may quote one of the lines it hides: the quote is shown, so it is masked.
        if (maybe(it.note)) it.note = maskStep(it.note, false).text;
      }
    }
    push(batch);
  });
}
