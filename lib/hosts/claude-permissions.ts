/**
 * The user's Claude Code permission rules for Bash, matched against the ORIGINAL command.
 *
 * Claude Code checks its rules against the command a PreToolUse hook rewrote (host-contract
 * 1.7.1, Verified): a deny or ask rule written for `npm test` stops matching
 * `… omni exec 'npm test'`, and an allow rule stops matching too. So before rewriting, omni
 * checks the rules itself, and errs on the side of not rewriting:
 *
 * - deny / ask rules are matched GENEROUSLY (any sub-command, with or without leading
 *   `VAR=…` assignments, `Bash(x *)` also matching bare `x`): a doubtful match means no rewrite;
 * - allow rules are matched STRICTLY (every `&&`/`||` sub-command must match, no `$(…)`):
 *   a doubtful match means no `allow` from omni, hence no rewrite.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type RuleKind = 'allow' | 'deny' | 'ask';

export interface PermissionRules {
  allow: string[];
  deny: string[];
  ask: string[];
  /** Files that were read (for diagnostics). */
  sources: string[];
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

/** `Bash` → '' (everything), `Bash(x)` → 'x', any other tool → null. */
export function bashRuleContent(rule: string): string | null {
  const r = rule.trim();
  if (r === 'Bash') return '';
  const m = /^Bash\(([\s\S]*)\)$/.exec(r);
  return m ? m[1].trim() : null;
}

function globToRegex(pattern: string, generous: boolean): RegExp {
  let body = '';
  let p = pattern;
  let tail = '';
  if (p.endsWith(' *')) {
    p = p.slice(0, -2);
    // `Bash(ls *)`: `ls -la` and bare `ls` yes (checked with the real CLI), `lsof` no.
    tail = '(?:\\s[\\s\\S]*)?';
  }
  for (const ch of p) body += ch === '*' ? '[\\s\\S]*' : ch.replace(/[\\^$.+?()[\]{}|]/g, '\\$&');
  return new RegExp(`^${body}${tail}$`);
}

/** One rule's content against one (sub)command. */
export function contentMatches(content: string, command: string, generous: boolean): boolean {
  const cmd = command.trim();
  if (content === '' || content === '*') return true;
  if (content.endsWith(':*')) {
    const prefix = content.slice(0, -2).trim();
    if (cmd === prefix || cmd.startsWith(prefix + ' ') || cmd.startsWith(prefix + '\t')) return true;
    return generous && cmd.startsWith(prefix);
  }
  if (content.includes('*')) return globToRegex(content, generous).test(cmd);
  return cmd === content || (generous && cmd.replace(/\s+/g, ' ') === content.replace(/\s+/g, ' '));
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

const LEADING_ASSIGN = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"]*)\s+)+/;

function variants(sub: string): string[] {
  const out = [sub];
  const stripped = sub.replace(LEADING_ASSIGN, '');
  if (stripped !== sub) out.push(stripped);
  // `timeout 60 x`, `env x`, `nice x`, `time x`: the host strips some wrappers too.
  const wrapped = stripped.replace(/^(?:(?:timeout\s+\S+|env|nice|time|command|nohup)\s+)+/, '');
  if (wrapped !== stripped) out.push(wrapped);
  return out;
}

function firstMatch(rules: string[], candidates: string[], generous: boolean): string | null {
  for (const rule of rules) {
    const content = bashRuleContent(rule);
    if (content === null) continue;
    for (const c of candidates) if (contentMatches(content, c, generous)) return rule;
  }
  return null;
}

/** Which rule of each kind applies to the original command. */
export function checkBashCommand(command: string, rules: PermissionRules): RuleVerdict {
  const { parts } = splitSubcommands(command);
  // generous: the whole line and every sub-command, with and without leading assignments
  const generousCands = [command.trim(), ...parts.flatMap(variants)];
  const deny = firstMatch(rules.deny, generousCands, true);
  const ask = firstMatch(rules.ask, generousCands, true);
  // strict: every sub-command must match some allow rule; no substitutions
  let allow: string | null = null;
  if (!/\$\(|`|<\(|>\(/.test(command) && parts.length > 0) {
    const matched: string[] = [];
    for (const p of parts) {
      const r = firstMatch(rules.allow, [p], false);
      if (!r) {
        matched.length = 0;
        break;
      }
      matched.push(r);
    }
    if (matched.length === parts.length) allow = matched[0];
  }
  return { deny, ask, allow };
}
