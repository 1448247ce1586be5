/**
 * A scripted agent session: a project made by code, its git history, and the fixed list of
 * tool calls the model stand-in plays, each with the kind of call it is and the lines the tool
 * prints that the model must get. The same session runs twice through the real Claude Code CLI,
 * without omni and with omni as `omni init --claude` installs it; the measure compares them.
 *
 * The kinds are the ones a user meets in a session; a chained or wrapped command (`cd app &&
 * npm install`, `npm run build`, `make test`, `timeout 60 …`) is its own kind and names its
 * producer, so its saving can be held to the producer's target.
 */

export const KINDS = [
  'first-read',
  're-read',
  're-read-after-edit',
  'test-pass',
  'test-fail',
  'build-lint',
  'chain-wrapped',
  'git',
  'log',
  'enumeration',
  'other',
] as const;
export type Kind = (typeof KINDS)[number];

/** The program behind a chain or wrapper. */
export type Producer = 'test-pass' | 'build-lint' | 'install' | 'git' | 'log' | 'other';

/**
 * Saved-% targets per kind, counted on whole sessions (issue: "A session benchmark, and a session
 * test"). First reads, failures, enumerations and edits are answers: no target. Reported, never
 * asserted: the pass/fail test asserts only that nothing was lost.
 */
export const TARGETS: Partial<Record<Kind | Producer, number>> = {
  're-read': 95,
  're-read-after-edit': 70,
  'test-pass': 90,
  'build-lint': 40,
  git: 50,
};
export const SESSION_TARGET = 30;

/** A must-keep: a substring of one line the tool prints, or a pattern for a line with a varying part. */
export type Keep = string | RegExp;

export interface SessionStep {
  tool: 'Bash' | 'Read' | 'Edit' | 'Write';
  input: Record<string, unknown>;
  kind: Kind;
  /** chain-wrapped: the kind of program behind the chain or wrapper. */
  producer?: Producer;
  /** Lines the tool prints that the model must get, written from the tool's own output. */
  keep?: Keep[];
  /** The call is meant to fail (a non-zero exit, an error result): checked on the baseline. */
  fails?: boolean;
}

export interface Commit {
  message: string;
  /** Paths (relative to the project) staged for this commit; `.` for everything left. */
  paths: string[];
}

export interface Session {
  name: string;
  ecosystem: string;
  /**
   * `dev`: distillers may be tuned against it. `held-out`: nobody tunes against it; its figures
   * say what omni does on a session it has never seen.
   */
  set: 'dev' | 'held-out';
  /** Programs the session runs (checked before the run, so a missing one is named). */
  needs: string[];
  /** The project's files, made by code. */
  files: () => Record<string, string>;
  /** The project's history, oldest first (committed before the session starts). */
  history: Commit[];
  /** Environment for the session's commands (both runs alike). */
  env?: Record<string, string>;
  steps: SessionStep[];
}

/** Read a file, whole or a part. `{{PROJ}}` is the project directory of the run. */
export const read = (path: string, kind: Kind, more: Partial<SessionStep> & { offset?: number; limit?: number } = {}): SessionStep => {
  const { offset, limit, ...rest } = more;
  return {
    tool: 'Read',
    input: { file_path: `{{PROJ}}/${path}`, ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) },
    kind,
    ...rest,
  };
};

export const bash = (command: string, description: string, kind: Kind, more: Partial<SessionStep> = {}): SessionStep => ({
  tool: 'Bash',
  input: { command, description },
  kind,
  ...more,
});

export const edit = (path: string, oldString: string, newString: string): SessionStep => ({
  tool: 'Edit',
  input: { file_path: `{{PROJ}}/${path}`, old_string: oldString, new_string: newString },
  kind: 'other',
});
