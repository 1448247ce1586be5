/**
 * The rules file format, validated with zod. zod costs ~100 ms to load, so it is required
 * here on first use (a rules file that applies: the user's, or a trusted project's), never at
 * import: a hook call in a project with no rules file pays one stat per directory, nothing more.
 *
 * Every pattern is compiled for V8's linear-time engine (./linear.ts): a pattern that could
 * only run by backtracking (back-references, look-arounds, large counted repetition) is an
 * error naming the file, the rule, the field and the pattern, so a rule can never hang a call.
 */
import { lazyRequire } from '../base/lazy-require.js';
import { compileLinear } from './linear.js';
import type * as Zod from 'zod';

/** One example of a rule: this input, through the real pipeline, must give this output. */
export interface RuleExample {
  /** The command line the example stands for (default: the rule's first program and subcommand). */
  command?: string;
  input: string;
  output: string;
  exitCode: number;
}

/** One validated rule. Patterns are compiled; `index` is its place in the file's `rules`. */
export interface Rule {
  name: string;
  index: number;
  programs: string[];
  subcommands: string[] | null;
  hide: RegExp[];
  keep: RegExp[];
  /** The noun a marker counts: "3 directory lines hidden". */
  unit: string;
  units: string;
  examples: RuleExample[];
}

const loadZod = lazyRequire<typeof Zod>('zod');

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The longest pattern a rule may have. The linear engine's time per line grows with the
 * pattern as well as the line (bench/rules.ts: a contrived 65-character pattern, 32 optional
 * `a`s, costs ~0.4 s per MB of output; 256 characters of the same ~5 s), so the length is
 * bounded too; real patterns are tens of characters, and a longer one splits into several.
 */
export const MAX_PATTERN_CHARS = 256;

/** Patterns compiled while validating, reused when the rules are built (one compile each). */
const compiled = new Map<string, RegExp>();

/** The compiled pattern, or why it cannot be a rule's pattern (with the pattern quoted). */
function compilePattern(p: string): RegExp | string {
  const hit = compiled.get(p);
  if (hit) return hit;
  const shown = JSON.stringify(p.length > 80 ? `${p.slice(0, 80)}…` : p);
  if (p.length > MAX_PATTERN_CHARS) return `pattern ${shown} is ${p.length} characters, over the ${MAX_PATTERN_CHARS} a pattern may have (split it into several)`;
  const re = compileLinear(p);
  if (typeof re === 'string') return `${re} (pattern ${shown})`;
  if (compiled.size > 4096) compiled.clear();
  compiled.set(p, re);
  return re;
}

const patternOf = (p: string): RegExp => {
  const re = compilePattern(p);
  if (typeof re === 'string') throw new Error(re); // validated already: cannot happen
  return re;
};

let schema: Zod.ZodType | undefined;
function rulesSchema(): Zod.ZodType {
  if (schema) return schema;
  const { z } = loadZod();
  const pattern = z.string().min(1, 'an empty pattern matches every line').superRefine((p, ctx) => {
    const re = compilePattern(p);
    if (typeof re === 'string') ctx.addIssue({ code: 'custom', message: re });
  });
  const oneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
  const text = z.union([z.string(), z.array(z.string())]);
  const example = z.strictObject({
    command: z.string().min(1).optional(),
    input: text,
    output: text,
    exitCode: z.number().int().min(0).max(255).optional(),
  });
  const rule = z.strictObject({
    name: z.string().regex(NAME, 'letters, digits, ".", "_" and "-" only'),
    match: z.strictObject({ program: oneOrMany, subcommand: oneOrMany.optional() }),
    hide: z.array(pattern).min(1, 'a rule hides something: give at least one pattern'),
    keep: z.array(pattern).optional(),
    unit: z.string().min(1).max(40).optional(),
    units: z.string().min(1).max(40).optional(),
    examples: z.array(example).optional(),
  });
  schema = z.strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).optional(),
    rules: z.array(rule),
  });
  return schema;
}

/** `["a", "b"]` -> "a\nb\n"; a string stays as written. */
const textOf = (t: string | string[]): string => (typeof t === 'string' ? t : t.map((l) => l + '\n').join(''));
const listOf = (v: string | string[]): string[] => (typeof v === 'string' ? [v] : v);

/** `rules[0].hide[2]` -> `hide[2]`. */
function fieldOf(path: readonly PropertyKey[]): string {
  let s = '';
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s ? `.${String(k)}` : String(k);
  return s || '(the rule itself)';
}

/**
 * Validates a parsed rules file. Returns the rules, or the errors, each naming the file, the
 * rule (by name when it has one) and the field. One bad rule rejects the file: a half-read
 * file would be a rule set nobody wrote.
 */
export function validateRules(json: unknown, file: string): { rules: Rule[]; errors: string[] } {
  const res = rulesSchema().safeParse(json);
  const raw = (json && typeof json === 'object' ? (json as { rules?: unknown }).rules : undefined);
  const nameAt = (i: number): string => {
    const r = Array.isArray(raw) ? raw[i] : undefined;
    const n = r && typeof r === 'object' ? (r as { name?: unknown }).name : undefined;
    return typeof n === 'string' && n ? `rule "${n}" (rules[${i}])` : `rule #${i + 1} (rules[${i}])`;
  };
  if (!res.success) {
    const errors = res.error.issues.map((iss) => {
      const p = iss.path;
      if (p[0] === 'rules' && typeof p[1] === 'number') return `${file}: ${nameAt(p[1])}: field ${fieldOf(p.slice(2))}: ${iss.message}`;
      return `${file}: field ${fieldOf(p)}: ${iss.message}`;
    });
    return { rules: [], errors };
  }
  type Parsed = { rules: Array<{ name: string; match: { program: string | string[]; subcommand?: string | string[] }; hide: string[]; keep?: string[]; unit?: string; units?: string; examples?: Array<{ command?: string; input: string | string[]; output: string | string[]; exitCode?: number }> }> };
  const parsed = res.data as Parsed;
  const errors: string[] = [];
  const seen = new Set<string>();
  parsed.rules.forEach((r, i) => {
    if (seen.has(r.name)) errors.push(`${file}: ${nameAt(i)}: field name: another rule in this file has the same name`);
    seen.add(r.name);
  });
  if (errors.length) return { rules: [], errors };
  const rules = parsed.rules.map((r, index): Rule => {
    const unit = r.unit ?? 'line';
    return {
      name: r.name,
      index,
      programs: listOf(r.match.program),
      subcommands: r.match.subcommand === undefined ? null : listOf(r.match.subcommand),
      hide: r.hide.map(patternOf),
      keep: (r.keep ?? []).map(patternOf),
      unit,
      units: r.units ?? `${unit}s`,
      examples: (r.examples ?? []).map((e) => ({ command: e.command, input: textOf(e.input), output: textOf(e.output), exitCode: e.exitCode ?? 0 })),
    };
  });
  return { rules, errors: [] };
}
