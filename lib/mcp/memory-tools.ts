/**
 * omni_remember, omni_recall, omni_goal: the project's session memory, through the service
 * `omni remember` and `omni goal` use (lib/service/memory.ts). The project is a directory (the
 * server's, unless the call names one), as `--cwd` is for the typed subcommands.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Store } from '../store/open.js';
import { openServiceStore } from '../service/store.js';
import { clearGoal, getGoal, pinGoal, projectDir, recall as recallMemory, rememberFact as remember } from '../service/memory.js';
import { errorResult, textResult } from './result.js';

/** One tool call against the store: a store that cannot open, or a throw, is an error result. */
export function withStore(name: string, fn: (store: Store) => CallToolResult): CallToolResult {
  const o = openServiceStore(name);
  if (o.error !== undefined) return errorResult(o.error.trim());
  try {
    return fn(o.store);
  } catch (err) {
    return errorResult(`omni ${name}: ${(err as Error).message}`);
  } finally {
    o.store.close();
  }
}

export const project = (base: string, cwd: string | undefined): string => projectDir(base, cwd);

export function rememberFact(cwd: string, fact: string): CallToolResult {
  if (!fact.trim()) return errorResult('omni_remember: the fact is empty');
  return withStore('remember', (s) => textResult(`remembered fact ${remember(s, cwd, fact)} for ${cwd}`));
}

export function recall(cwd: string): CallToolResult {
  return withStore('remember', (s) => {
    const { goal, facts } = recallMemory(s, cwd);
    if (!goal && facts.length === 0) return textResult(`no facts or goal remembered for ${cwd}`);
    const lines = [`omni session memory for ${cwd}:`];
    if (goal) lines.push(`Pinned goal: ${goal}`);
    if (facts.length) lines.push('Facts:', ...facts.map((f) => `${f.id}. ${f.text}`));
    return textResult(lines.join('\n'));
  });
}

export function goal(cwd: string, a: { text?: string; clear?: boolean }): CallToolResult {
  if (a.clear && a.text !== undefined) return errorResult('omni_goal: give either text (pin a goal) or clear, not both');
  if (a.text !== undefined && !a.text.trim()) return errorResult('omni_goal: the goal is empty');
  return withStore('goal', (s) => {
    if (a.clear) return textResult(clearGoal(s, cwd) ? `goal cleared for ${cwd}` : `no goal was pinned for ${cwd}`);
    if (a.text !== undefined) {
      return textResult(`goal pinned for ${cwd}: ${pinGoal(s, cwd, a.text)}`);
    }
    const g = getGoal(s, cwd);
    return textResult(g ? `pinned goal for ${cwd}: ${g}` : `no goal pinned for ${cwd}`);
  });
}
