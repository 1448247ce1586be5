/**
 * Gemini CLI (measured on 0.61.0; docs/gemini-findings.md): payloads in the neutral shape, and
 * replies in the shape that CLI applies.
 *
 * - Recognised by its event names plus `timestamp`, which every Gemini payload carries and no
 *   Claude Code payload does (both hosts send `SessionStart`/`SessionEnd`).
 * - AfterTool on `run_shell_command`: the output is the text between the CLI's own framing
 *   (`<untrusted_context>\nOutput: …\n[Exit Code: n]\n…Process Group PGID: n\n</untrusted_context>`).
 *   The failure signal is that framing (`Exit Code`, `Signal`, `Error`) or `tool_response.error`.
 * - The only AfterTool reply 0.61.0 applies in place of a result is `decision: "deny"` +
 *   `reason` (it reaches the model as `response.error`); `tool_output` is ignored.
 * - BeforeTool `tool_input` REPLACES the arguments and the CLI's policy engine then judges the
 *   rewritten command, so a rewrite is allowed only where no rule could see the difference.
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ancestorArgs } from '../process-tree.js';
import { readText } from '../read-text.js';
import { definedIn, shellStartupFiles } from '../shell-startup.js';
import { isObject, type HookInput, type HookKind, type HostAdapter, type JsonObject, type PostShellInput, type RewriteDecision } from '../adapter.js';
import { HOST_MIN_INLINE_CHARS, NOTHING, WHOLE } from '../model-view.js';

const KINDS: Record<string, HookKind> = {
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  // Fires before every model turn (before the CLI checks its token threshold), not only when it
  // compresses; resetting "already shown" each time is wasteful but never loses anything.
  PreCompress: 'pre-compact',
};

const EVENTS = new Set([
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'Notification',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
]);

export const SHELL_TOOL = 'run_shell_command';

function isGemini(p: JsonObject): boolean {
  return (
    typeof p.hook_event_name === 'string' &&
    EVENTS.has(p.hook_event_name) &&
    typeof p.timestamp === 'string' &&
    typeof p.session_id === 'string' &&
    // Claude Code's and Cursor's keys: never Gemini's.
    !('prompt_id' in p) &&
    !('permission_mode' in p) &&
    !('cursor_version' in p)
  );
}

// ---------------------------------------------------------------------------------------------
// The shell tool's framing (ShellToolInvocation.execute + wrapUntrusted in packages/core).

const OPEN = '<untrusted_context>\n';
const CLOSE = '\n</untrusted_context>';
const OUTPUT = 'Output: ';
const EMPTY = '(empty)';

/** Trailer lines, in the order the CLI writes them, bottom-up. */
const TRAILERS: { re: RegExp; failure: boolean }[] = [
  { re: /^Process Group PGID: \d+$/, failure: false },
  { re: /^Background PIDs: [\d, ]+$/, failure: false },
  { re: /^Signal: .+$/, failure: true },
  { re: /^Exit Code: .+$/, failure: true },
];

export interface ShellFrame {
  wrapped: boolean;
  /** The command's output (stdout and stderr interleaved); '' for the CLI's `(empty)`. */
  output: string;
  /** The CLI's lines after the output (`Exit Code: 2`, `Process Group PGID: 123`, …). */
  trailer: string[];
  failed: boolean;
}

/**
 * Split the CLI's shell text into output and trailer. null: not the plain shell framing
 * (cancelled, backgrounded, sandbox, blocked…). An output whose own last line looks like a
 * trailer reads as one: that errs towards "failed", which only ever leaves text verbatim.
 */
export function parseShellText(text: string): ShellFrame | null {
  let inner = text;
  let wrapped = false;
  if (inner.startsWith(OPEN) && inner.endsWith(CLOSE)) {
    inner = inner.slice(OPEN.length, inner.length - CLOSE.length);
    wrapped = true;
  }
  if (!inner.startsWith(OUTPUT)) return null;
  const lines = inner.slice(OUTPUT.length).split('\n');
  const trailer: string[] = [];
  let failed = false;
  let t = 0;
  while (lines.length > 1 && t < TRAILERS.length) {
    const last = lines[lines.length - 1];
    const k = TRAILERS.slice(t).findIndex((x) => x.re.test(last));
    if (k < 0) break;
    t += k + 1;
    if (TRAILERS[t - 1].failure) failed = true;
    trailer.unshift(last);
    lines.pop();
  }
  // A spawn error also writes `Error: <message>` lines before the trailer; the payload's
  // `tool_response.error` is the signal for it (read() checks it), not text that a successful
  // command may print too.
  const body = lines.join('\n');
  return { wrapped, output: body === EMPTY ? '' : body, trailer, failed };
}

/** The CLI's framing around `output`, as `frame` had it. */
export function frameShellText(frame: ShellFrame, output: string): string {
  const inner = [OUTPUT + (output === '' ? EMPTY : output), ...frame.trailer].join('\n');
  if (!frame.wrapped) return inner;
  return OPEN + inner.replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;') + CLOSE;
}

function shellResponse(p: JsonObject): { text: string; error: boolean } | null {
  const r = p.tool_response;
  if (!isObject(r)) return null;
  const error = r.error !== undefined && r.error !== null;
  return { text: typeof r.llmContent === 'string' ? r.llmContent : '', error };
}

// ---------------------------------------------------------------------------------------------
// Reading.

function readGemini(p: JsonObject): HookInput | null {
  if (!isGemini(p)) return null;
  const event = p.hook_event_name as string;
  const common = { host: 'gemini' as const, event, sessionId: p.session_id as string, agentId: 'main', cwd: typeof p.cwd === 'string' ? p.cwd : undefined };
  const toolInput = isObject(p.tool_input) ? p.tool_input : null;
  const command = toolInput && typeof toolInput.command === 'string' ? toolInput.command : null;
  switch (event) {
    case 'BeforeTool':
      if (p.tool_name !== SHELL_TOOL || command === null) return null;
      return { ...common, kind: 'pre-tool', tool: 'shell', command, background: toolInput?.is_background === true };
    case 'AfterTool': {
      if (p.tool_name !== SHELL_TOOL || command === null) return null;
      const r = shellResponse(p);
      if (!r) return null;
      const frame = parseShellText(r.text);
      // Not the plain framing: status unknown, and the text stays as the CLI made it.
      if (!frame) return { ...common, kind: 'post-tool', tool: 'shell', command, output: r.text, failed: null };
      return { ...common, kind: 'post-tool', tool: 'shell', command, output: frame.output, failed: r.error || frame.failed };
    }
    case 'SessionStart':
      return { ...common, kind: 'session-start', source: typeof p.source === 'string' ? p.source : 'startup' };
    case 'SessionEnd':
      return { ...common, kind: 'session-end', reason: typeof p.reason === 'string' ? p.reason : 'other' };
    case 'PreCompress':
      return { ...common, kind: 'pre-compact', trigger: typeof p.trigger === 'string' ? p.trigger : 'auto' };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The rewrite policy. In yolo mode the CLI's built-in policy allows every tool; only user,
// admin and extension rules and the tools.* settings can make a shell command's fate depend on
// its text. The CLI judges the REWRITTEN text, so omni rewrites only when none of those exist
// (a deny rule for `rm` would no longer match `… omni exec 'rm …'`: measured, it ran).

export interface GeminiRuleProbe {
  /** The CLI's own argv (from the process tree), or null when it cannot be found. */
  cliArgv(): string[] | null;
  /** Places a rule or tool setting was found in; null when one could not be read. */
  ruleSources(cwd: string | undefined): string[] | null;
}

/** Does this argv run the CLI in yolo mode, with no policy files passed on it? */
export function argvVerdict(argv: string[]): { yolo: boolean; policyArg: boolean } {
  let yolo = false;
  let mode: string | null = null;
  let policyArg = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--yolo' || a === '-y' || a === '--yolo=true') yolo = true;
    else if (a === '--approval-mode') mode = argv[i + 1] ?? null;
    else if (a.startsWith('--approval-mode=')) mode = a.slice('--approval-mode='.length);
    else if (/^--(admin-)?policy(=|$)/.test(a)) policyArg = true;
  }
  if (mode !== null) yolo = mode === 'yolo';
  return { yolo, policyArg };
}

export function rewritePolicy(input: { cwd?: string }, probe: GeminiRuleProbe): RewriteDecision {
  const argv = probe.cliArgv();
  if (!argv) return { rewrite: false, reason: 'the Gemini CLI process (and so its approval mode) was not found' };
  const v = argvVerdict(argv);
  if (!v.yolo) return { rewrite: false, reason: 'not in yolo mode: the CLI would ask about, or deny, the rewritten command instead of the original' };
  if (v.policyArg) return { rewrite: false, reason: 'policy files passed with --policy/--admin-policy' };
  const sources = probe.ruleSources(input.cwd);
  if (sources === null) return { rewrite: false, reason: 'a settings or policy location could not be read' };
  if (sources.length > 0) return { rewrite: false, reason: `rules that judge shell commands exist (${sources[0]})` };
  return { rewrite: true, decision: null, reason: 'yolo mode, no policy rule or tools setting' };
}

/** The argv of the nearest ancestor that is the Gemini CLI (Linux /proc). */
export function procCliArgv(startPid: number = process.ppid): string[] | null {
  if (process.platform !== 'linux') return null;
  for (const argv of ancestorArgs(startPid, 8)) {
    if (argv.some((a) => /(^|\/)gemini(\.js)?$/.test(a) || a.includes('/@google/gemini-cli/'))) return argv;
  }
  return null;
}

const TOOL_KEYS = ['allowed', 'exclude', 'core', 'confirmationRequired'];
const LEGACY_KEYS = ['allowedTools', 'excludeTools', 'coreTools'];

/** A settings file that holds tool rules: the key's name, '' for none, null if unreadable. */
export function settingsRules(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  const tools = json.tools;
  if (isObject(tools)) for (const k of TOOL_KEYS) if (tools[k] !== undefined) return `tools.${k}`;
  for (const k of LEGACY_KEYS) if (json[k] !== undefined) return k;
  return '';
}

function listDir(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? [] : null;
  }
}

export function fsRuleSources(env: NodeJS.ProcessEnv, cwd: string | undefined): string[] | null {
  const home = join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
  const system = process.platform === 'darwin' ? '/Library/Application Support/GeminiCli' : '/etc/gemini-cli';
  const found: string[] = [];
  const policyDirs = [join(home, 'policies'), join(system, 'policies')];
  const settingsFiles = [
    join(home, 'settings.json'),
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || join(system, 'settings.json'),
    env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(system, 'system-defaults.json'),
  ];
  // The project's settings (and its policies, ignored by 0.61.0 but not by every build), from
  // the working directory up.
  for (let d = cwd; d; d = dirname(d) === d ? undefined : dirname(d)) {
    if (join(d, '.gemini') === home) continue;
    settingsFiles.push(join(d, '.gemini', 'settings.json'));
    policyDirs.push(join(d, '.gemini', 'policies'));
  }
  // Extensions can bring policies (and their own settings): any installed extension counts.
  const ext = listDir(join(home, 'extensions'));
  if (ext === null) return null;
  if (ext.some((e) => !e.startsWith('.') && e !== 'extension-enablement.json')) found.push(join(home, 'extensions'));
  for (const dir of policyDirs) {
    const entries = listDir(dir);
    if (entries === null) return null;
    if (entries.some((e) => e.endsWith('.toml'))) found.push(dir);
  }
  for (const file of settingsFiles) {
    if (!existsSync(file)) continue;
    const text = readText(file);
    if (text === null) return null;
    const rule = settingsRules(text);
    if (rule === null) return null;
    if (rule !== '') found.push(`${rule} in ${file}`);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The adapter.

export const gemini: HostAdapter = {
  id: 'gemini',
  recognise: (p) => isGemini(p),
  kindOf: (event) => KINDS[event] ?? null,
  read: readGemini,
  replacesAsError: true,
  replyOutput(p, input: PostShellInput, output) {
    if (input.failed !== false) return '';
    // Re-read the payload itself: a reply for a failure must be impossible, whatever `input` says.
    const r = shellResponse(p);
    const frame = r && !r.error ? parseShellText(r.text) : null;
    if (!frame || frame.failed || output === frame.output) return '';
    // 0.61.0 applies no success-shaped replacement: the deny reason takes the result's place.
    return JSON.stringify({ decision: 'deny', reason: frameShellText(frame, output) });
  },
  // The CLI cuts long results by a threshold the user may set (tools.truncateToolOutputThreshold),
  // and how it treats a long deny reason was not measured: only a short reply is known whole.
  viewOf: (_p, _input, d) => (d.reply !== '' && d.sent.length < HOST_MIN_INLINE_CHARS ? WHOLE : NOTHING),
  rewrite: {
    policy: (_p, input, env) => {
      const d = rewritePolicy(input, { cliArgv: () => procCliArgv(), ruleSources: (cwd) => fsRuleSources(env, cwd) });
      if (!d.rewrite) return d;
      // A function or alias the shell's start-up files give the program would be lost in the rewrite's own bash.
      const program = input.command.split(' ')[0];
      const defined = definedIn(shellStartupFiles(env), program);
      return defined ? { rewrite: false, reason: `${program} may be a function or alias of the host's shell (${defined})` } : d;
    },
    reply(p, _input, command) {
      // tool_input replaces the arguments wholesale: keep every other key the model sent.
      const original = isObject(p.tool_input) ? p.tool_input : {};
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { ...original, command } } });
    },
    deny: (_p, _input, reason) => JSON.stringify({ decision: 'deny', reason }),
  },
  replyContext(_p, input, text) {
    if (input.kind !== 'session-start' || text === '') return '';
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
  },
};
