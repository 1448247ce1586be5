/**
 * Session memory as the user reaches it (`omni remember`, `omni goal`, `omni_remember`,
 * `omni_recall`, `omni_goal`): a project's facts and pinned goal. A project is an absolute
 * directory. The hook door's and Pi's side of memory is lib/doors/session-events.ts.
 */
import path from 'node:path';
import type { Store } from '../store/open.js';
import { remember, listFacts, forgetFact, getGoal, setGoal, clearGoal, type Fact } from '../store/memory.js';

export { listFacts, forgetFact, getGoal, clearGoal, type Fact };

/** The project key: `cwd` (relative to `base`), else `base`. */
export function projectDir(base: string, cwd?: string): string {
  return path.resolve(base, cwd ?? '.');
}

/** Stores a fact; returns its id. */
export function rememberFact(store: Store, cwd: string, text: string): number {
  return remember(store, { cwd, text });
}

/** Pins the goal and returns it as stored (the store may shorten it). */
export function pinGoal(store: Store, cwd: string, text: string): string | null {
  setGoal(store, { cwd, text });
  return getGoal(store, cwd);
}

/** What a session would be reminded of: the pinned goal and the facts, oldest first. */
export function recall(store: Store, cwd: string): { goal: string | null; facts: Fact[] } {
  return { goal: getGoal(store, cwd), facts: listFacts(store, cwd) };
}
