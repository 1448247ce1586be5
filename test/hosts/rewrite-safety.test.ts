/**
 * The pre-hook rewrite is no wider and no different, as properties over generated command lines:
 * a line is some spelling of a canonical command (extra spaces or tabs, quotes, backslashes,
 * wrappers with options, leading assignments, a path to the program, another case), and the
 * user's deny, ask and allow rules are written for the canonical command. The host reads every
 * such spelling as the canonical command, so:
 *
 * - whenever omni rewrites, the line is plain words (lib/command/plain-words.ts), and no deny or
 *   ask rule matches the canonical command, by the host's own exact/prefix reading;
 * - whenever omni answers `allow`, the line IS the canonical command and an allow rule matches it.
 *
 * Each run goes through the real decision (decideRewrite with Claude Code's adapter and policy,
 * rules read from the user's settings file). The plain-word parser and the permission matcher
 * have their example tests in test/command/plain-words.test.ts and claude-permissions.test.ts.
 */
import t from 'tap';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideRewrite } from '../../lib/doors/prehook-policy.js';
import { claude } from '../../lib/hosts/claude/adapter.js';
import type { PreToolInput } from '../../lib/hosts/adapter.js';
import { plainWords } from '../../lib/command/plain-words.js';
import { holds, runs } from '../helpers/property.js';
import { CLAUDE_SAMPLES } from '../helpers/samples.js';

const dir = mkdtempSync(join(tmpdir(), 'omni-rewrite-prop-'));
const home = join(dir, 'home');
mkdirSync(join(home, '.claude'), { recursive: true });
const proj = join(dir, 'proj');
mkdirSync(proj, { recursive: true });
const env: NodeJS.ProcessEnv = { HOME: home, OMNI_HOME: join(dir, 'omni'), PATH: process.env.PATH, OMNI_BIN: '/opt/omni/dist/omni.cjs', OMNI_IGNORE_HOST_ARGS: '1' };
const SAMPLE = JSON.parse(readFileSync(join(CLAUDE_SAMPLES, 'PreToolUse.Bash.seq-1-300.json'), 'utf8'));

/** Canonical commands on the registry's rewrite allow-list (and their words). */
const CANONICAL = [
  ['npm', 'test'], ['npm', 'test', '-s', '--', 'a'], ['npm', 'run', 'build'], ['npm', 'install'], ['make'], ['make', 'deploy'],
  ['jest', 'src/a.test.js'], ['pytest', 'tests'], ['cargo', 'test'], ['git', 'log'], ['git', 'diff', 'HEAD'], ['go', 'test', './...'],
];

const SEPARATORS = [' ', ' ', ' ', '  ', '\t', ' \t'];
const QUOTES: ((w: string) => string)[] = [(w) => w, (w) => w, (w) => w, (w) => `"${w}"`, (w) => `'${w}'`, (w) => `\\${w}`, (w) => `${w.slice(0, 1)}""${w.slice(1)}`];
const PREFIXES = ['', '', '', 'env FOO=1 ', 'env -u FOO ', 'nice -n 5 ', 'time -p ', 'stdbuf -oL ', 'timeout -s KILL 60 ', 'exec ', 'command ', 'FOO=1 ', 'sudo -n ', 'builtin ', 'nohup '];
const PATHS = ['', '', '', '/usr/bin/', './node_modules/.bin/'];

interface Case {
  words: string[];
  line: string;
  deny: string[];
  ask: string[];
  allow: string[];
  mode: 'bypassPermissions' | 'default';
}

/** A rule written for the canonical command: a prefix of it (`:*` or ` *`), or exactly it. */
const ruleFor = (words: string[]) =>
  fc.tuple(fc.integer({ min: 1, max: words.length }), fc.constantFrom(':*', ' *', '')).map(([k, form]) =>
    form === '' ? `Bash(${words.join(' ')})` : `Bash(${words.slice(0, k).join(' ')}${form})`,
  );

const arbCase: fc.Arbitrary<Case> = fc.constantFrom(...CANONICAL).chain((words) =>
  fc.record({
    words: fc.constant(words),
    seps: fc.array(fc.constantFrom(...SEPARATORS), { minLength: words.length, maxLength: words.length }),
    quotes: fc.array(fc.integer({ min: 0, max: QUOTES.length - 1 }), { minLength: words.length, maxLength: words.length }),
    prefix: fc.constantFrom(...PREFIXES),
    path: fc.constantFrom(...PATHS),
    shout: fc.integer({ min: 0, max: 9 }),
    pad: fc.constantFrom('', '', '', ' '),
    deny: fc.array(fc.oneof(ruleFor(words), fc.constantFrom('Bash(rm:*)', 'Bash(curl *)')), { maxLength: 2 }),
    ask: fc.array(fc.oneof(ruleFor(words), fc.constant('Bash(git push:*)')), { maxLength: 1 }),
    allow: fc.array(fc.oneof(ruleFor(words), fc.constantFrom('Bash(npm:*)', 'Bash(make:*)', 'Bash(nice:*)', 'Bash(env:*)', 'Bash(git:*)')), { maxLength: 2 }),
    mode: fc.constantFrom('bypassPermissions' as const, 'default' as const),
    // Half the lines are spelled canonically, so rewrites and allows happen and the properties bite.
    respelled: fc.boolean(),
  }).map((r) => {
    if (!r.respelled) return { words: r.words, line: r.words.join(' '), deny: r.deny, ask: r.ask, allow: r.allow, mode: r.mode };
    const spelled = r.words.map((w, i) => {
      const q = QUOTES[r.quotes[i]](i === 0 && r.shout === 0 ? w.toUpperCase() : w);
      return i === 0 ? r.path + q : q;
    });
    const line = r.pad + r.prefix + spelled.map((w, i) => (i === 0 ? w : r.seps[i] + w)).join('') + r.pad;
    return { words: r.words, line, deny: r.deny, ask: r.ask, allow: r.allow, mode: r.mode };
  }),
);

/** The host's reading of a rule against the canonical command: exact, or a prefix ending at a word. */
function hostMatches(rule: string, canonical: string): boolean {
  const m = /^Bash\((.*)\)$/.exec(rule);
  if (!m) return rule === 'Bash';
  const c = m[1];
  const prefix = c.endsWith(':*') ? c.slice(0, -2) : c.endsWith(' *') ? c.slice(0, -2) : null;
  if (prefix === null) return canonical === c;
  return canonical === prefix || canonical.startsWith(prefix + ' ');
}

async function decide(c: Case) {
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: c.deny, ask: c.ask, allow: c.allow } }));
  const p = { ...SAMPLE, cwd: proj, permission_mode: c.mode, tool_input: { command: c.line, description: 'x' } };
  return decideRewrite(claude, p, claude.read(p) as PreToolInput, env);
}

t.test('whenever omni rewrites, the line is plain words and no deny or ask rule matches the command it spells', async (t) => {
  let rewritten = 0;
  await holds(t, 'no wider (deny, ask)', arbCase, async (c) => {
    const d = await decide(c);
    if (!d.rewrite) return null;
    rewritten++;
    if (plainWords(c.line) === null) return `rewrote a line that is not plain words: ${JSON.stringify(c.line)}`;
    const canonical = c.words.join(' ');
    const hit = [...c.deny, ...c.ask].find((r) => hostMatches(r, canonical));
    return hit ? `rewrote ${JSON.stringify(c.line)} although ${hit} matches ${JSON.stringify(canonical)}: the host would deny or ask` : null;
  }, { numRuns: runs(400) });
  t.ok(rewritten > 0, `some generated lines were rewritten (${rewritten}): the property is not vacuous`);
});

t.test('whenever omni answers allow, the line is exactly the command and the user allowed it', async (t) => {
  let allowed = 0;
  await holds(t, 'no wider (allow)', arbCase.map((c) => ({ ...c, mode: 'default' as const })), async (c) => {
    const d = await decide(c);
    if (!d.rewrite) return null;
    if (d.decision !== 'allow') return `rewrote in default mode without allow: the host would ask about ${JSON.stringify(d.command)}`;
    allowed++;
    const canonical = c.words.join(' ');
    if (c.line !== canonical) return `allowed ${JSON.stringify(c.line)}, a respelling of ${JSON.stringify(canonical)}`;
    if (!c.allow.some((r) => hostMatches(r, canonical))) return `allowed ${JSON.stringify(c.line)} with no allow rule for it (${c.allow.join(', ')})`;
    return null;
  }, { numRuns: runs(400) });
  t.ok(allowed > 0, `some generated lines were allowed (${allowed}): the property is not vacuous`);
});
