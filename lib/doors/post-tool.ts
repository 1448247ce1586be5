/**
 * One post-tool call, decided in one place and in one direction: the host's parsed payload and
 * its neutral reading in, the reply out. The command hook (./hook.ts), the MCP hook tool
 * (lib/mcp/hook-tool.ts) and `omni discover`'s replay (lib/cli/discover.ts) all call
 * `handlePostTool`, each with its own store.
 *
 *   decide (leave it, mask only, or distil) -> read the whole text -> describe the run ->
 *   distil -> the host's reply -> the host's view of what the model saw -> record -> session memory
 *
 * Nothing here calls back into the caller: what is recorded is decided first, and recorded
 * after. What the model saw is the host adapter's to say (`viewOf`); this file knows no host.
 */
import type { HostAdapter, JsonObject, PostMcpInput, PostShellInput, PostToolInput } from '../hosts/adapter.js';
import type { Store } from '../store/open.js';
import { WHOLE } from '../hosts/model-view.js';
import { isOmniOwnCommand, omniExecOriginal } from '../hosts/omni-command.js';
import { passthroughRequested } from '../command/passthrough.js';
import { likeOriginal } from './distil-text.js';
import { hookRun, type PostToolDeps, type PostToolResult } from './tool-call.js';

export type { PostToolDeps, PostToolResult } from './tool-call.js';

export async function handlePostTool(host: HostAdapter, input: PostToolInput, payload: JsonObject, deps: PostToolDeps): Promise<PostToolResult> {
  switch (input.tool) {
    case 'shell':
      return postShell(host, input, payload, deps);
    case 'read': {
      if (!host.replyRead || input.content === '' || passthroughRequested(null, deps.env)) return { reply: '', text: input.content, delivered: input.content, view: WHOLE };
      // A file this reader already holds is answered from what it holds, when that is smaller.
      const { replyToRead } = await import('./reread.js');
      const r = await replyToRead(host, input, payload, deps);
      // Hot files for the session-start context.
      await remember(deps, (ev, s) => ev.fileRead(() => s, { cwd: input.cwd, path: input.path }));
      return r;
    }
    case 'mcp':
      return postMcp(host, input, payload, deps);
    case 'write': {
      // The model's own change: no reply; the view it now holds is recorded for later reads.
      const { recordWrite } = await import('./file-write.js');
      return recordWrite(input, deps);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A shell result: a success is distilled; a failure (or one whose status the host does not say)
// is never touched.

/** What becomes of a shell result, decided from the payload alone. */
type ShellDecision = 'failed' | 'leave' | 'mask-only' | 'distil';

function decideShell(host: HostAdapter, input: PostShellInput, env: NodeJS.ProcessEnv): ShellDecision {
  // Hosts without a failure event (Gemini, Codex) bring failures here: remembered the way a
  // failure event would be, the output left alone.
  if (input.failed === true) return 'failed';
  if (input.failed !== false) return 'leave';
  if (isOmniOwnCommand(input.command) || passthroughRequested(input.command, env)) return 'leave';
  // A host that shows any replacement as the tool's error (Gemini) gets omni's digest only on
  // request; a secret is masked all the same (an error-framed result beats a leaked credential).
  return host.replacesAsError === true && env.OMNI_REPLACE_AS_ERROR !== '1' ? 'mask-only' : 'distil';
}

async function postShell(host: HostAdapter, input: PostShellInput, payload: JsonObject, deps: PostToolDeps): Promise<PostToolResult> {
  const decision = decideShell(host, input, deps.env);
  const left = (text: string): PostToolResult => ({ reply: '', text, delivered: text, view: host.viewOf(payload, input, { reply: '', sent: text, full: text }) });
  if (decision === 'failed') {
    const error = input.exitCode === undefined ? input.output : `Exit code ${input.exitCode}\n${input.output}`;
    await rememberFailure(deps, { cwd: input.cwd, command: input.command, error, interrupted: false });
    return left(input.output);
  }
  if (decision === 'leave') return left(input.output);
  const text = wholeOutput(input, deps);
  if (text === null) return left(input.output);
  if (text === '') return left(text);
  if (decision === 'mask-only') return maskedShell(host, input, payload, text, deps);
  const [{ RunBook }, { distilText, recordDistilled }] = await Promise.all([import('./run-record.js'), import('./distil-text.js')]);
  const desc = await hookRun(input, input.command, 'Bash', deps.env);
  const book = new RunBook(desc, deps.store);
  const d = await distilText(desc, text, book, deps.env, deps.log);
  const sent = likeOriginal(d.output, text);
  const reply = d.changed ? host.replyOutput(payload, input, sent) : '';
  const view = host.viewOf(payload, input, { reply, sent, full: text });
  recordDistilled(book, d, { applied: reply !== '', view, now: deps.now?.() });
  // A command that succeeds clears its own "last error" in session memory.
  await remember(deps, (ev, s) => ev.commandSucceeded(() => s, { cwd: input.cwd, command: input.command }));
  return { reply, text, delivered: reply !== '' ? sent : text, view };
}

/**
 * The text to distil: the payload's, or, when it holds only a prefix, the whole output from the
 * file it names. null when that cannot be read: the host's own wrapper at least tells the model
 * that the output was cut and where the rest is; a digest of the prefix would not.
 */
function wholeOutput(input: PostShellInput, deps: PostToolDeps): string | null {
  if (input.outputFile === undefined) return input.output;
  let text: string;
  try {
    text = deps.readOutputFile(input.outputFile);
  } catch (err) {
    deps.log(`post-hook: cannot read ${input.outputFile}: ${(err as Error).message}; no reply`);
    return null;
  }
  // Hosts strip the trailing newline from inline output; do the same with the file.
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * The output as it came with its secrets masked, and nothing else changed: the same pipeline
 * with no archive, so nothing can be folded or removed (structured data and the rest that
 * passes byte for byte still does). No run is recorded: omni did not distil it.
 */
async function maskedShell(host: HostAdapter, input: PostShellInput, payload: JsonObject, text: string, deps: PostToolDeps): Promise<PostToolResult> {
  const { distillBuffer } = await import('../pipeline/run.js');
  const res = await distillBuffer(await hookRun(input, input.command, 'Bash', deps.env), Buffer.from(text, 'utf8'), { exitCode: 0 });
  const sent = res.changed ? likeOriginal(res.output.toString('utf8'), text) : text;
  const reply = res.changed ? host.replyOutput(payload, input, sent) : '';
  return { reply, text, delivered: reply !== '' ? sent : text, view: host.viewOf(payload, input, { reply, sent, full: text }) };
}

// ---------------------------------------------------------------------------------------------
// An MCP tool's result: each text part through the one pipeline, routed by content (no command:
// the generic distiller unless a sniff recognises a tool's own lines; JSON and other structured
// text pass byte for byte in the guard). Images and every other part go back as they came.

async function postMcp(host: HostAdapter, input: PostMcpInput, payload: JsonObject, deps: PostToolDeps): Promise<PostToolResult> {
  const whole = input.texts.join('\n');
  if (!host.replyMcp || passthroughRequested(null, deps.env)) return { reply: '', text: whole, delivered: whole, view: WHOLE };
  const [{ RunBook }, { distilText, recordDistilled }] = await Promise.all([import('./run-record.js'), import('./distil-text.js')]);
  const texts = [...input.texts];
  for (let i = 0; i < texts.length; i++) {
    const full = texts[i];
    if (full === '') continue;
    const desc = await hookRun(input, '', input.name, deps.env);
    const book = new RunBook(desc, deps.store);
    const d = await distilText(desc, full, book, deps.env, deps.log);
    // A changed text always goes out (replyMcp answers whenever one part changed), inline: the
    // host's token cap was checked on the original, and a digest is never larger.
    const out = likeOriginal(d.output, full);
    if (d.changed) texts[i] = out;
    recordDistilled(book, d, { applied: d.changed && out !== full, view: WHOLE, now: deps.now?.() });
  }
  const reply = host.replyMcp(payload, input, texts);
  return { reply, text: whole, delivered: reply !== '' ? texts.join('\n') : whole, view: WHOLE };
}

// ---------------------------------------------------------------------------------------------
// Session memory, written after the run is recorded. A store that cannot do it costs the memory,
// never the reply.

type SessionEvents = typeof import('./session-events.js');

async function remember(deps: PostToolDeps, fn: (ev: SessionEvents, store: Store) => void): Promise<void> {
  if (!deps.sessionMemory) return;
  try {
    const s = deps.store.get();
    if (s) fn(await import('./session-events.js'), s);
  } catch (err) {
    deps.log(`session memory: ${(err as Error).message}`);
  }
}

/** A failing command: the project's last active error, for the next session's context. */
export async function rememberFailure(deps: Pick<PostToolDeps, 'store' | 'log' | 'sessionMemory'>, f: { cwd?: string; command: string; error: string; interrupted: boolean }): Promise<void> {
  if (!deps.sessionMemory) return;
  try {
    const ev = await import('./session-events.js');
    ev.commandFailed(
      () => {
        const s = deps.store.get();
        if (!s) throw new Error('the store is not available');
        return s;
      },
      // The user's command, not omni's wrapper around it.
      { cwd: f.cwd, command: omniExecOriginal(f.command) ?? f.command, error: f.error.slice(0, 2000), interrupted: f.interrupted },
    );
  } catch (err) {
    deps.log(`store recordFailure: ${(err as Error).message}`);
  }
}
