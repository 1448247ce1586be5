/**
 * OpenAI Codex CLI (measured on codex-cli 0.171.0; docs/codex-findings.md): payloads in the
 * neutral shape, and replies in the shape that CLI applies.
 *
 * - Recognised by `turn_id` (every turn-scoped Codex payload has it, Claude Code's never), else
 *   by the transcript: Codex's is `…/rollout-<time>-<id>.jsonl` or null (`--ephemeral`), Claude
 *   Code's is `~/.claude/projects/…/<uuid>.jsonl`.
 * - The shell tool (`exec_command`) reaches hooks as `Bash` with `tool_input: {command}`. Its
 *   PostToolUse `tool_response` is the bare output string, for failures too: no exit code, no
 *   error flag. The exit code is in Codex's own rollout file (`transcript_path`): an
 *   `item_completed` event for the call, written before PostToolUse runs. No readable record →
 *   `failed: null`, and omni leaves the output alone.
 * - Replacement is crude: Codex has no `updatedToolOutput` (a hookSpecificOutput with it is
 *   ignored). `{"decision":"block","reason":R}` replaces the whole result with exactly R, the
 *   CLI's own framing (`Process exited with code 0`, wall time, token count) included, and
 *   Codex logs it as an error line on stderr. omni puts back the one framing line that
 *   carries meaning, the exit status.
 * - PreToolUse `updatedInput` is applied only with `permissionDecision: "allow"`, and `allow`
 *   approves the call, and Codex then judges its exec-policy rules on the REWRITTEN command.
 *   The payload shows neither the sandbox nor the rules, so omni rewrites only where Codex
 *   itself would run the command unasked and unsandboxed and no rule file can prompt or forbid.
 */
import { closeSync, readdirSync, readSync } from 'node:fs';
import { openRegularFile, readRegularFile, RefusedFile } from '../read-text.js';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { definedIn, shellStartupFiles } from '../shell-startup.js';
import { isObject, type HookInput, type HookKind, type HostAdapter, type JsonObject, type PostShellInput, type PreToolInput, type RewriteDecision } from '../adapter.js';
import { headView, linesView, WHOLE, type ModelView } from '../model-view.js';

const KINDS: Record<string, HookKind> = {
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  SessionStart: 'session-start',
  // Fires at the end of `codex exec` (reason "other"); Codex clamps its timeout to 3 s.
  SessionEnd: 'session-end',
  PreCompact: 'pre-compact',
};

export const SHELL_TOOL = 'Bash';

/** Codex's rollout files: `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`. */
const ROLLOUT_RE = /(?:^|[\\/])rollout-[^\\/]*\.jsonl(?:\.zst)?$/;

export function isCodexPayload(p: JsonObject): boolean {
  if (typeof p.hook_event_name !== 'string' || typeof p.session_id !== 'string') return false;
  // Cursor runs Claude Code's hooks with its own payloads: never Codex's.
  if ('cursor_version' in p) return false;
  if (typeof p.turn_id === 'string') return true;
  const tp = p.transcript_path;
  // Claude Code always sends a transcript path; Codex sends null for an ephemeral session.
  if (tp === null) return true;
  return typeof tp === 'string' && ROLLOUT_RE.test(tp);
}

function base(p: JsonObject, event: string) {
  return {
    host: 'codex' as const,
    event,
    sessionId: p.session_id as string,
    // Subagents carry the parent's session_id and their own agent_id.
    agentId: typeof p.agent_id === 'string' && p.agent_id !== '' ? p.agent_id : 'main',
    ...(typeof p.cwd === 'string' ? { cwd: p.cwd } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The rollout file: the only place Codex records a command's exit code and a turn's policies.

/**
 * The last `limit` bytes of a file, whole lines only; null if it cannot be read. The path is
 * the payload's: only a regular file is read (a FIFO there would block the open).
 */
export function readTail(path: string, limit: number): { text: string; whole: boolean } | null {
  let fd: number | null = null;
  try {
    let size: number;
    ({ fd, size } = openRegularFile(path));
    const n = Math.min(size, limit);
    const buf = Buffer.alloc(n);
    let got = 0;
    while (got < n) {
      const r = readSync(fd, buf, got, n - got, size - n + got);
      if (r <= 0) break;
      got += r;
    }
    let text = buf.subarray(0, got).toString('utf8');
    const whole = n === size;
    if (!whole) text = text.slice(text.indexOf('\n') + 1);
    return { text, whole };
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Search the rollout's tail, widening it, for the last line `pick` accepts. */
function searchRollout<T>(path: unknown, needle: string, pick: (rec: JsonObject) => T | null): T | null {
  if (typeof path !== 'string' || path === '' || path.endsWith('.zst')) return null;
  for (const limit of [256 * 1024, 4 * 1024 * 1024, 32 * 1024 * 1024]) {
    const tail = readTail(path, limit);
    if (!tail) return null;
    const found = lastInRollout(tail.text, needle, pick);
    if (found !== null || tail.whole) return found;
  }
  return null;
}

/** Pure: the last JSONL record containing `needle` that `pick` maps to a value. */
export function lastInRollout<T>(text: string, needle: string, pick: (rec: JsonObject) => T | null): T | null {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (!line.includes(needle)) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(rec)) continue;
    const v = pick(rec);
    if (v !== null) return v;
  }
  return null;
}

/**
 * A shell call's exit code as Codex recorded it (`event_msg` → `item_completed` →
 * `CommandExecution` with the call's id), or null: no record yet, a record without a numeric
 * exit code, or a status other than completed/failed.
 */
function exitPick(callId: string) {
  return (rec: JsonObject): number | null => {
    const payload = rec.payload;
    if (rec.type !== 'event_msg' || !isObject(payload) || payload.type !== 'item_completed') return null;
    const item = payload.item;
    if (!isObject(item) || item.type !== 'CommandExecution' || item.id !== callId) return null;
    if (typeof item.exit_code !== 'number' || !Number.isInteger(item.exit_code)) return null;
    if (item.status === 'completed' && item.exit_code === 0) return 0;
    if (item.status === 'failed' || item.exit_code !== 0) return item.exit_code;
    return null;
  };
}

export function exitCodeIn(text: string, callId: string): number | null {
  return lastInRollout(text, JSON.stringify(callId), exitPick(callId));
}

export function commandExitCode(transcriptPath: unknown, callId: unknown): number | null {
  if (typeof callId !== 'string' || callId === '') return null;
  return searchRollout(transcriptPath, JSON.stringify(callId), exitPick(callId));
}

export interface TurnPolicy {
  approvalPolicy: string | null;
  sandbox: string | null;
}

/** The approval policy and sandbox of a turn (`turn_context` record), or null. */
function policyPick(turnId: string | null) {
  return (rec: JsonObject): TurnPolicy | null => {
    const p = rec.payload;
    if (rec.type !== 'turn_context' || !isObject(p)) return null;
    if (turnId !== null && p.turn_id !== turnId) return null;
    const sp = p.sandbox_policy;
    const pp = p.permission_profile;
    const sandbox = isObject(sp) && typeof sp.type === 'string' ? sp.type : isObject(pp) && pp.type === 'disabled' ? 'danger-full-access' : null;
    return { approvalPolicy: typeof p.approval_policy === 'string' ? p.approval_policy : null, sandbox };
  };
}

export function turnPolicyIn(text: string, turnId: string | null): TurnPolicy | null {
  return lastInRollout(text, '"turn_context"', policyPick(turnId));
}

// ---------------------------------------------------------------------------------------------
// Reading payloads.

function read(p: JsonObject): HookInput | null {
  const event = p.hook_event_name;
  if (typeof event !== 'string' || typeof p.session_id !== 'string') return null;
  const common = base(p, event);
  switch (event) {
    case 'PreToolUse': {
      if (p.tool_name !== SHELL_TOOL || !isObject(p.tool_input) || typeof p.tool_input.command !== 'string') return null;
      return { ...common, kind: 'pre-tool', tool: 'shell', command: p.tool_input.command };
    }
    case 'PostToolUse': {
      if (p.tool_name !== SHELL_TOOL || !isObject(p.tool_input) || typeof p.tool_input.command !== 'string') return null;
      // 0.171.0 sends the output as one string; any other shape is not one omni has seen.
      if (typeof p.tool_response !== 'string') return null;
      const command = p.tool_input.command;
      const code = commandExitCode(p.transcript_path, p.tool_use_id);
      // A known failure is remembered by the door and never replied to (it stays verbatim).
      if (code !== null && code !== 0) return { ...common, kind: 'post-tool', tool: 'shell', command, output: p.tool_response, failed: true, exitCode: code };
      return { ...common, kind: 'post-tool', tool: 'shell', command, output: p.tool_response, failed: code === 0 ? false : null };
    }
    case 'SessionStart':
      return typeof p.source === 'string' ? { ...common, kind: 'session-start', source: p.source } : null;
    case 'SessionEnd':
      return typeof p.reason === 'string' ? { ...common, kind: 'session-end', reason: p.reason } : null;
    case 'PreCompact':
      return typeof p.trigger === 'string' ? { ...common, kind: 'pre-compact', trigger: p.trigger } : null;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Rewrite policy.

/**
 * `allow` is the only way Codex applies `updatedInput`, and `allow` approves the call. A rewrite
 * is therefore allowed only when Codex would have run the command without asking anyway
 * (`permission_mode: "bypassPermissions"`, i.e. approval policy `never`) AND outside its sandbox
 * (`danger-full-access`, from the turn's own record in the rollout):
 * - under `on-request` (permission_mode `default`) the `allow` would approve escalations the
 *   user was meant to be asked about;
 * - inside the sandbox (`codex exec`'s default read-only, or workspace-write) `allow` does not
 *   lift it (measured), and `omni exec` could not write its store outside the workspace;
 * - Codex's exec-policy rules are judged on the rewritten command, so a rewrite is refused
 *   while any rule file could prompt or forbid (see restrictiveRules).
 * Everywhere else omni distils in PostToolUse only, which changes no permission. The cost: no
 * streaming distillation and no `omni exec` failure tail for sandboxed sessions.
 */
export function codexRewritePolicy(p: JsonObject, env: NodeJS.ProcessEnv = {}, command?: string): RewriteDecision {
  if (p.permission_mode !== 'bypassPermissions') {
    return { rewrite: false, reason: `Codex asks before some commands here (permission_mode ${String(p.permission_mode)}); an allow from omni would answer for the user` };
  }
  const turnId = typeof p.turn_id === 'string' ? p.turn_id : null;
  const policy = searchRollout(p.transcript_path, '"turn_context"', policyPick(turnId));
  if (!policy) return { rewrite: false, reason: "the turn's sandbox is not readable from Codex's rollout" };
  if (policy.approvalPolicy !== 'never') return { rewrite: false, reason: `approval policy ${String(policy.approvalPolicy)}` };
  if (policy.sandbox !== 'danger-full-access') return { rewrite: false, reason: `Codex runs commands in its ${String(policy.sandbox)} sandbox; an allow does not lift it and omni exec could not write its store` };
  // Codex judges its exec-policy rules on the REWRITTEN command (measured: a `forbidden` rule
  // for `ls` let a rewritten `ls` run). A prompt/forbidden rule written for the user's command
  // would not match `omni exec '<command>'`, so any such rule means no rewrite.
  const rules = restrictiveRules(typeof p.cwd === 'string' ? p.cwd : null, env);
  if (rules) return { rewrite: false, reason: `exec-policy rules that prompt or forbid (${rules}) are judged on the rewritten command` };
  // Codex runs `bash -lc`: a function or alias its login files give the program would be lost
  // in the rewrite's own bash.
  const program = command?.split(' ')[0];
  const defined = program ? definedIn(shellStartupFiles(env), program) : null;
  if (defined) return { rewrite: false, reason: `${program} may be a function or alias of the host's shell (${defined})` };
  return { rewrite: true, decision: 'allow', reason: 'Codex runs every command of this session without approval or sandbox' };
}

const RESTRICTIVE_RE = /\bdecision\s*=\s*["'](?:prompt|forbidden)["']/;

/**
 * The first exec-policy source that can prompt or forbid a command, or null: `*.rules` files in
 * `<system>/rules`, `$CODEX_HOME/rules` and `.codex/rules` of the cwd and every parent (Codex's
 * config layers), and `prefix_rules` in `requirements.toml`. Unreadable counts as restrictive.
 */
export function restrictiveRules(cwd: string | null, env: NodeJS.ProcessEnv, system = '/etc/codex'): string | null {
  const home = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
  const dirs = [join(system, 'rules'), join(home, 'rules')];
  for (let d = cwd; d; d = dirname(d) === d ? null : dirname(d)) dirs.push(join(d, '.codex', 'rules'));
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.endsWith('.rules')) continue;
      const file = join(dir, n);
      try {
        if (RESTRICTIVE_RE.test(readRegularFile(file))) return file;
      } catch {
        return file;
      }
    }
  }
  for (const file of [join(system, 'requirements.toml'), join(home, 'requirements.toml')]) {
    try {
      if (/prefix_rules|\[\s*rules\b/.test(readRegularFile(file))) return file;
    } catch (err) {
      // Missing: no requirements. There but not a regular file: unreadable, so restrictive.
      if (err instanceof RefusedFile) return file;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Replies. Codex rejects unknown keys (additionalProperties: false), so nothing extra is sent.

/** The distilled output, behind the one framing line Codex would have shown: the exit status. */
export function outputReply(output: string): string {
  return JSON.stringify({ decision: 'block', reason: `Process exited with code 0\nOutput:\n${output}` });
}

// ---------------------------------------------------------------------------------------------
// What the model saw. Codex CLI 0.171.0 (docs/codex-findings.md): a result over ~10 KB reaches the hook already cut
// to head and tail around `…N chars truncated…`, and the model gets that same view.

const CODEX_CUT = /…\d+ chars truncated…/;

/** omni stayed silent: the model got `tool_response`; the lines at Codex's cut are partial. */
export function codexSilent(toolResponse: string): ModelView {
  if (!CODEX_CUT.test(toolResponse)) return WHOLE;
  const lines = toolResponse.split('\n');
  const keep: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const cutHere = CODEX_CUT.test(lines[i]);
    const nextToCut = (i > 0 && CODEX_CUT.test(lines[i - 1])) || (i + 1 < lines.length && CODEX_CUT.test(lines[i + 1]));
    if (!cutHere && !nextToCut) keep.push(lines[i]);
  }
  return linesView(keep.join('\n'));
}

/** omni's block reason reached the model exactly (measured on short ones); a long one may be cut. */
export function codexReplied(text: string): ModelView {
  return headView(text);
}

export const codex: HostAdapter = {
  id: 'codex',
  recognise: (p) => isCodexPayload(p),
  kindOf: (event) => KINDS[event] ?? null,
  read,
  replyOutput(_p: JsonObject, input: PostShellInput, output: string): string {
    // Only a known exit 0 gets here (the door leaves failed !== false alone); say so anyway.
    if (input.failed !== false) return '';
    return outputReply(output);
  },
  viewOf: (_p, input, d) => (d.reply !== '' ? codexReplied(d.sent) : codexSilent(input.output)),
  rewrite: {
    policy: (p: JsonObject, input: PreToolInput, env: NodeJS.ProcessEnv) => codexRewritePolicy(p, env, input.command),
    // Codex requires a non-empty reason with a deny (0.171.0 rejects one without).
    deny: (_p: JsonObject, _input: PreToolInput, reason: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }),
    reply(p: JsonObject, _input: PreToolInput, command: string, decision: 'allow' | null, reason: string): string {
      // Without allow Codex drops updatedInput silently and runs the original command.
      if (decision !== 'allow') return '';
      const toolInput = isObject(p.tool_input) ? p.tool_input : {};
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: reason, updatedInput: { ...toolInput, command } },
      });
    },
  },
  replyContext(_p: JsonObject, input: HookInput, text: string): string {
    // SessionStart additionalContext reaches the model as a developer message.
    if (input.kind !== 'session-start') return '';
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
  },
};
