/**
 * Host-neutral checks on a shell command line that every hook door needs on its hot path
 * (cheap; no full parse): is it omni's own command, omni's own rewrite, or marked pass-through?
 */

/** POSIX single-quote a word for `sh`. */
export function shQuote(s: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const ASSIGN = String.raw`[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"]*)`;

/** `OMNI_PASSTHROUGH=1 cmd …` typed in front of a command: the one rule, lib/command/passthrough.ts. */
export { commandRequestsPassthrough as hasPassthroughPrefix } from '../command/passthrough.js';

const LEAD_RE = new RegExp(String.raw`^\s*(?:${ASSIGN}\s+)*`);

/**
 * The omni subcommand a command line invokes, if it invokes omni first: `omni retrieve h`,
 * `node /x/dist/omni.cjs exec …`, `npx omni diff …`, `'/abs/omni' exec …`. Else null.
 */
export function omniSubcommand(command: string): string | null {
  const rest = command.replace(LEAD_RE, '');
  const words: string[] = [];
  const wordRe = /\s*(?:'([^']*)'|"([^"]*)"|(\S+))/y;
  while (words.length < 4) {
    const m = wordRe.exec(rest);
    if (!m) break;
    words.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  let i = 0;
  const base = (w: string) => w.slice(w.lastIndexOf('/') + 1);
  if (words[i] && (base(words[i]) === 'npx' || base(words[i]) === 'node')) i++;
  const prog = words[i];
  if (!prog) return null;
  const b = base(prog);
  if (b !== 'omni' && b !== 'omni.cjs' && b !== 'omni.js' && b !== 'omni-distill') return null;
  return words[i + 1] ?? '';
}

/**
 * The original command inside omni's own pre-hook rewrite
 * (`OMNI_SESSION_ID=… OMNI_AGENT_ID=… <omni> exec --bash '<original>'`, or without `--bash` as
 * earlier versions wrote it), or null.
 */
export function omniExecOriginal(command: string): string | null {
  if (!/^\s*OMNI_SESSION_ID=/.test(command) || omniSubcommand(command) !== 'exec') return null;
  const i = command.lastIndexOf(' exec ');
  if (i < 0) return null;
  // The rewrite runs the line under bash (`exec --bash '<line>'`); older rewrites under sh.
  const rest = command.slice(i + 6).trim().replace(/^--bash /, '');
  const words: string[] = [];
  const wordRe = /\s*(?:'([^']*)'|"([^"]*)"|\\(.)|([^\s'"\\]+))/y;
  let word = '';
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = wordRe.exec(rest))) {
    if (m[0].length === 0) break;
    if (/^\s/.test(m[0]) && word !== '') {
      words.push(word);
      word = '';
    }
    word += m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    last = wordRe.lastIndex;
  }
  if (word !== '') words.push(word);
  return last === rest.length && words.length === 1 ? words[0] : null;
}

/**
 * Does this command line (maybe) ask omni to print masked secrets raw (`omni retrieve <handle>
 * --reveal`)? The agent must not get them through omni's own hooks, so this reads the line
 * generously, as lib/command/respell.ts reads it for a deny rule: quotes and backslashes
 * removed, any wrapper, any path to omni (`/x/omni`, `node /x/dist/omni.cjs`, `npx omni`), in
 * any sub-command, `--reveal` or `--reveal=…`, spelled in any case. A line that runs omni's
 * `retrieve` with a value the shell computes (`$X`, `$(…)`, backticks) counts too: omni cannot
 * see whether it spells `--reveal`.
 */
export function revealRequested(command: string): boolean {
  const flat = command.replace(/['"\\]/g, '').toLowerCase();
  if (!flat.includes('retrieve') || !flat.includes('omni')) return false;
  const words = flat.split(/[\s;&|()`{}<>]+/).filter(Boolean);
  const omniAt = words.findIndex((w) => w.includes('omni'));
  const retrieveAt = words.findIndex((w, i) => i > omniAt && w === 'retrieve');
  if (omniAt < 0 || retrieveAt < 0) return false;
  return flat.includes('--reveal') || /[$`]/.test(command);
}

/** Commands whose output is omni's own and must never be distilled again. */
export function isOmniOwnCommand(command: string): boolean {
  const sub = omniSubcommand(command);
  return sub === 'retrieve' || sub === 'diff' || sub === 'exec' || sub === 'pipe';
}

