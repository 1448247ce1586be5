/**
 * omni_remember, omni_recall, omni_goal: the project's session memory, through the same
 * store functions `omni remember` and `omni goal` use. The project is a directory (the
 * server's, unless the call names one), as `--cwd` is for the typed subcommands.
 */
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliStore } from '../cli/cli-store.js';
import { remember, listFacts, getGoal, setGoal, clearGoal } from '../store/memory.js';
import type { Store } from '../store/open.js';
import { Collector } from './capture.js';
import { errorResult, textResult } from './result.js';

function withStore(name: string, fn: (store: Store) => CallToolResult): CallToolResult {
  const stderr = new Collector();
  const store = cliStore(name, { stdout: stderr, stderr });
  if (!store) return errorResult(stderr.text().trim());
  try {
    return fn(store);
  } catch (err) {
    return errorResult(`omni ${name}: ${(err as Error).message}`);
  } finally {
    store.close();
  }
}

export function project(base: string, cwd: string | undefined): string {
  return path.resolve(base, cwd ?? '.');
}

export function rememberFact(cwd: string, fact: string): CallToolResult {
  if (!fact.trim()) return errorResult('omni_remember: the fact is empty');
  return withStore('remember', (s) => textResult(`remembered fact ${remember(s, { cwd, text: fact })} for ${cwd}`));
}

export function recall(cwd: string): CallToolResult {
  return withStore('remember', (s) => {
    const goal = getGoal(s, cwd);
    const facts = listFacts(s, cwd);
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
      setGoal(s, { cwd, text: a.text });
      return textResult(`goal pinned for ${cwd}: ${getGoal(s, cwd)}`);
    }
    const g = getGoal(s, cwd);
    return textResult(g ? `pinned goal for ${cwd}: ${g}` : `no goal pinned for ${cwd}`);
  });
}
