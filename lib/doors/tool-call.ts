/**
 * One post-tool call's explicit dependencies and its result (./post-tool.ts decides it; its Read
 * branch is ./reread.ts), and the description of the run a hook payload makes.
 */
import type { PostToolInput } from '../hosts/adapter.js';
import type { LazyStore } from './store-access.js';
import type { RunDescription } from '../pipeline/describe.js';
import type { ModelView } from '../hosts/model-view.js';
import { maskAllRequested } from '../command/passthrough.js';

export interface PostToolDeps {
  /** The call's store: it opens only when something is archived or recorded. The caller closes it. */
  store: LazyStore;
  env: NodeJS.ProcessEnv;
  /** The clock the records are written with (default: Date.now). */
  now?: () => number;
  log: (what: string) => void;
  /**
   * The whole output when the payload holds only a prefix and names the file with the rest.
   * Throws when the file cannot be read (the hook reads only a regular file under the cap).
   */
  readOutputFile: (path: string) => string;
  /** Session memory (a success clears its last error, a Read is a hot file, a failure is remembered). */
  sessionMemory: boolean;
}

export interface PostToolResult {
  /** The host's reply; '' = none, the host keeps what it had. */
  reply: string;
  /** The tool's text as omni read it (the whole output when the payload held a prefix). */
  text: string;
  /** What the model gets: omni's text when it replied, else `text`. */
  delivered: string;
  /** What of it reached the model. */
  view: ModelView;
}

/** The description of a hook run: the rules of one's own are read from the omni home the host's env names. */
export async function hookRun(input: PostToolInput, command: string, tool: string, env: NodeJS.ProcessEnv): Promise<RunDescription> {
  const { describeRun } = await import('../pipeline/describe.js');
  return describeRun({
    door: 'hook', host: input.host, command, tool, sessionId: input.sessionId, agentId: input.agentId, cwd: input.cwd,
    maskAll: maskAllRequested(env), rules: env.OMNI_HOME ? { home: env.OMNI_HOME } : undefined,
  });
}

