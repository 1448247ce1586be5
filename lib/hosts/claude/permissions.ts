/**
 * The user's Claude Code permission rules for Bash, matched against the ORIGINAL command.
 *
 * Claude Code checks its rules against the command a PreToolUse hook rewrote (checked with
 * the pinned CLI in test/real-host/claude-permissions.test.ts): a deny or ask rule written for `npm test` stops matching
 * `… omni exec 'npm test'`, and an allow rule stops matching too. The host also reads a command
 * more widely than its text: it folds whitespace, removes quotes and sees through wrappers with
 * options (`npm  test`, `"npm" test`, `nice -n 5 npm test` are all denied by `Bash(npm test:*)`).
 * So before rewriting, omni checks the rules itself, and errs on the side of not rewriting:
 *
 * - deny / ask rules are matched GENEROUSLY: against every form of the command
 *   (lib/command/respell.ts: whitespace folded, quotes and backslashes removed, every
 *   sub-command, assignments, keywords and wrappers with any options peeled, the program's
 *   path dropped, case folded): a doubtful match counts as a match;
 * - allow rules are matched STRICTLY: every sub-command must be plain words
 *   (lib/command/plain-words.ts) and an allow rule must certainly match it (`x`, `x:*`, `x *`
 *   spelled in plain words): a doubtful match counts as no match.
 *
 * For the plain-words lines the pre-hook rewrites, the two agree with the host exactly; for
 * everything else the generous side only ever says "a rule matches" more often.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { plainWords } from '../../command/plain-words.js';
import { commandForms, ruleForm } from '../../command/respell.js';

export type RuleKind = 'allow' | 'deny' | 'ask';

export interface PermissionRules {
  allow: string[];
  deny: string[];
  ask: string[];
  /** Files that were read (for diagnostics). */
  sources: string[];
  /**
   * The first settings file that turns Claude Code's Bash sandbox on (`sandbox` not disabled),
   * if any: the sandbox judges the command a rewrite would hide.
   */
  sandbox?: string;
}

export interface RuleVerdict {
  deny: string | null;
  ask: string | null;
  allow: string | null;
}

function readRules(file: string, into: PermissionRules, allowTrusted: boolean): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // Absent is no rules; present but unreadable (a directory, no permission) might hold a deny.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    into.ask.push('Bash');
    into.sources.push(`${file} (unreadable, ${code}: treated as ask for every command)`);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A settings file omni cannot read might hold a deny rule: be safe, treat as "ask all".
    into.ask.push('Bash');
    into.sources.push(`${file} (unparsable: treated as ask for every command)`);
    return;
  }
  into.sources.push(allowTrusted ? file : `${file} (allow rules ignored: workspace not trusted)`);
  const sandbox = (json as { sandbox?: unknown })?.sandbox;
  if (into.sandbox === undefined && typeof sandbox === 'object' && sandbox !== null && (sandbox as { enabled?: unknown }).enabled !== false) into.sandbox = file;
  const perms = (json as { permissions?: unknown })?.permissions;
  if (typeof perms !== 'object' || perms === null) return;
  for (const kind of ['allow', 'deny', 'ask'] as const) {
    if (kind === 'allow' && !allowTrusted) continue;
    const list = (perms as Record<string, unknown>)[kind];
    if (!Array.isArray(list)) continue;
    for (const r of list) if (typeof r === 'string') into[kind].push(r);
  }
}

function configDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

/**
 * Has the user accepted the workspace-trust dialog for `projectDir`? Claude Code keeps that in
 * `~/.claude.json` (`projects[<path>].hasTrustDialogAccepted`). Verified with 2.1.332 in `-p`:
 * an allow rule in an untrusted project's `.claude/settings.json` is NOT honoured (the call
 * still "requires approval") while its deny rules are. So omni honours project allow rules
 * only for a trusted project, or it would approve what the host would not.
 */
export function projectTrusted(projectDir: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = [join(env.HOME || homedir(), '.claude.json'), join(configDir(env), '.claude.json')];
  for (const f of candidates) {
    try {
      const j = JSON.parse(readFileSync(f, 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: unknown }> };
      if (j.projects?.[projectDir]?.hasTrustDialogAccepted === true) return true;
    } catch {
      /* next */
    }
  }
  return false;
}

/** Settings files whose rules apply to a session in `projectDir`, with whether their allow rules count. */
export function settingsFiles(projectDir: string | undefined, env: NodeJS.ProcessEnv): { file: string; allowTrusted: boolean }[] {
  const files = [
    { file: '/etc/claude-code/managed-settings.json', allowTrusted: true },
    { file: '/Library/Application Support/ClaudeCode/managed-settings.json', allowTrusted: true },
    { file: join(configDir(env), 'settings.json'), allowTrusted: true },
  ];
  if (projectDir) {
    const trusted = projectTrusted(projectDir, env);
    files.push(
      { file: join(projectDir, '.claude', 'settings.json'), allowTrusted: trusted },
      { file: join(projectDir, '.claude', 'settings.local.json'), allowTrusted: trusted },
    );
  }
  return files;
}

export function loadPermissionRules(projectDirs: (string | undefined)[], env: NodeJS.ProcessEnv): PermissionRules {
  const rules: PermissionRules = { allow: [], deny: [], ask: [], sources: [] };
  const seen = new Set<string>();
  for (const dir of projectDirs) {
    for (const { file, allowTrusted } of settingsFiles(dir, env)) {
      if (seen.has(file)) continue;
      seen.add(file);
      readRules(file, rules, allowTrusted);
    }
  }
  return rules;
}

/**
 * `Bash` → '' (everything), `Bash(x)` → 'x', any other tool → null. `generous` (deny and ask
 * rules) also reads a rule whose tool name differs only in case: a doubt counts against a rewrite.
 */
export function bashRuleContent(rule: string, generous = false): string | null {
  const r = rule.trim();
  const m = (generous ? /^Bash(?:\(([\s\S]*)\))?$/i : /^Bash(?:\(([\s\S]*)\))?$/).exec(r);
  return m ? (m[1] ?? '').trim() : null;
}

function globToRegex(pattern: string): RegExp {
  let body = '';
  let p = pattern;
  let tail = '';
  if (p.endsWith(' *')) {
    p = p.slice(0, -2);
    // `Bash(ls *)`: `ls -la` and bare `ls` yes (checked with the real CLI), `lsof` no.
    tail = '(?: [\\s\\S]*)?';
  }
  for (const ch of p) body += ch === '*' ? '[\\s\\S]*' : ch.replace(/[\\^$.+?()[\]{}|]/g, '\\$&');
  return new RegExp(`^${body}${tail}$`);
}

/** A deny or ask rule's content against one form of the command (both spelled by ruleForm). */
function generousMatch(content: string, form: string): boolean {
  if (content === '' || content === '*') return true;
  if (content.endsWith(':*')) {
    // `npm test:*` also takes `npm testing`: a doubt counts against a rewrite.
    return form.startsWith(ruleForm(content.slice(0, -2)));
  }
  if (content.includes('*')) return globToRegex(ruleForm(content)).test(form);
  return form === ruleForm(content);
}

/**
 * An allow rule's content against a plain-words command (lib/command/plain-words.ts): only the
 * forms whose meaning is certain, spelled in plain words themselves. `x`: exactly x; `x:*` and
 * `x *`: x, or x and more words. Any other wildcard is a doubt, and a doubt is no match.
 */
function strictMatch(content: string, command: string): boolean {
  if (content === '' || content === '*') return true;
  let prefix: string | null = null;
  if (content.endsWith(':*')) prefix = content.slice(0, -2);
  else if (content.endsWith(' *')) prefix = content.slice(0, -2);
  const text = prefix ?? content;
  if (plainWords(text) === null) return false;
  return prefix === null ? command === text : command === text || command.startsWith(text + ' ');
}

/**
 * One rule's content against one command. Generous (deny, ask): against every form of the
 * command (lib/command/respell.ts). Strict (allow): the command must be plain words and the rule
 * one of the certain forms.
 */
export function contentMatches(content: string, command: string, generous: boolean): boolean {
  if (generous) return commandForms(command).some((f) => generousMatch(content, f));
  return plainWords(command) !== null && strictMatch(content, command);
}

/** Split on unquoted `&&`, `||`, `;`, `|`, `&`, newlines. Quote-aware, not a shell. */
export function splitSubcommands(command: string): { parts: string[]; ops: string[] } {
  const parts: string[] = [];
  const ops: string[] = [];
  let cur = '';
  let q: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (q) {
      cur += c;
      if (c === '\\' && q === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === q) q = null;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    if (c === "'" || c === '"') {
      q = c;
      cur += c;
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      parts.push(cur);
      ops.push(two);
      cur = '';
      i++;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '\n') {
      // `2>&1`, `>&2`, `&>` are redirections, not separators
      if (c === '&' && (command[i - 1] === '>' || command[i + 1] === '>')) {
        cur += c;
        continue;
      }
      parts.push(cur);
      ops.push(c);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return { parts: parts.map((p) => p.trim()).filter((p) => p !== ''), ops };
}

function firstGenerous(rules: string[], forms: string[]): string | null {
  for (const rule of rules) {
    const content = bashRuleContent(rule, true);
    if (content === null) continue;
    if (forms.some((f) => generousMatch(content, f))) return rule;
  }
  return null;
}

function firstStrict(rules: string[], part: string): string | null {
  for (const rule of rules) {
    const content = bashRuleContent(rule);
    if (content !== null && strictMatch(content, part)) return rule;
  }
  return null;
}

/**
 * Which rule of each kind applies to the command. deny and ask: generously, over every form of
 * it (any doubt counts as a match). allow: strictly, only when every sub-command is plain words
 * and an allow rule certainly matches each (any doubt counts as no match).
 */
export function checkBashCommand(command: string, rules: PermissionRules): RuleVerdict {
  const forms = commandForms(command);
  const deny = firstGenerous(rules.deny, forms);
  const ask = firstGenerous(rules.ask, forms);
  let allow: string | null = null;
  const { parts } = splitSubcommands(command);
  if (parts.length > 0 && parts.every((p) => plainWords(p) !== null)) {
    const matched = parts.map((p) => firstStrict(rules.allow, p));
    if (matched.every((m) => m !== null)) allow = matched[0];
  }
  return { deny, ask, allow };
}
