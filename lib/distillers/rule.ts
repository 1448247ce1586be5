import type { Line } from '../kit/types.js';
import type { DistillerSpec } from '../kit/spec.js';
import { onlyWhere } from './hide.js';
import type { Rule } from '../rules/schema.js';
import type { RuleSource } from '../rules/load.js';
import { MAY_STATE_FAILURE, plural, programOf, subcommand, textOf } from './shared.js';

/**
 * A user's or a project's rule as one more distiller spec. It only hides: a line one of its
 * `hide` patterns matches, and no `keep` pattern does, goes behind a marker standing where
 * its contiguous run stood (`onlyWhere`: archived first, and only when the marker pays). A
 * failure or signal line is never hidden, whatever the rule says (classify decides that, not
 * the rule), structured output never reaches it (guard passes it through first), and no text
 * is ever rewritten.
 */

/** Does `rule` own the output of this producer argv? Program as `programOf`, subcommand as `subcommand`. */
export function ruleMatches(rule: Rule, argv: string[]): boolean {
  if (!rule.programs.includes(programOf(argv))) return false;
  return rule.subcommands === null || rule.subcommands.includes(subcommand(argv));
}

/** Why it matched, for `omni rules explain`. */
export function ruleWhy(rule: Rule, argv: string[]): string {
  const sub = rule.subcommands === null ? '' : ` and subcommand ${subcommand(argv)}`;
  return `program ${programOf(argv)}${sub}`;
}

export function ruleDistillerName(source: RuleSource, rule: Rule): string {
  return `rule:${source}:${rule.name}`;
}


/**
 * What a rule does with one line: `hide` it, or why not. `miss`: no hide pattern matches;
 * `failure`/`signal`: classify's tier, which no rule overrides; `keep`: a keep pattern
 * matches; `word`: it holds a word that may state a failure (MAY_STATE_FAILURE).
 */
export type RuleVerdict = 'hide' | 'miss' | 'failure' | 'signal' | 'keep' | 'word';

export function ruleVerdict(rule: Rule, l: Line): RuleVerdict {
  const t = textOf(l);
  let hit = false;
  for (const re of rule.hide) if (re.test(t)) { hit = true; break; }
  if (!hit) return 'miss';
  if (l.tier === 'failure' || l.tier === 'signal') return l.tier;
  for (const re of rule.keep) if (re.test(t)) return 'keep';
  return MAY_STATE_FAILURE.test(t) ? 'word' : 'hide';
}

/** The word of MAY_STATE_FAILURE a line holds, for `omni rules test` to name. */
export function failureWordIn(t: string): string | null {
  return MAY_STATE_FAILURE.exec(t)?.[0] ?? null;
}

/** May this rule hide the line? Never a failure or signal line; a keep pattern wins over hide. */
export function ruleHides(rule: Rule, l: Line): boolean {
  if (l.tier === 'failure' || l.tier === 'signal' || l.bytes !== undefined) return false;
  const t = textOf(l);
  let hit = false;
  for (const re of rule.hide) if (re.test(t)) { hit = true; break; }
  if (!hit) return false;
  for (const re of rule.keep) if (re.test(t)) return false;
  return !MAY_STATE_FAILURE.test(t);
}

/** What a marker of `n` lines hidden by this rule says. */
export const ruleNote = (rule: Rule, n: number): string => `${plural(n, rule.unit, rule.units)} hidden by rule ${rule.name}`;

/**
 * The spec of one rule, declared like a built-in one. Never rewritten by the pre-hook; its
 * examples are the rules file's own (`omni rules test` runs them).
 */
export function ruleSpec(source: RuleSource, rule: Rule): DistillerSpec {
  return {
    name: ruleDistillerName(source, rule),
    family: 'rules',
    matches: (argv) => ruleMatches(rule, argv),
    lines: () => onlyWhere((l) => ruleHides(rule, l), (h) => ruleNote(rule, h.length)),
    examples: [],
  };
}
