import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/omni.js';
import { loadCorpus } from '../helpers/corpus.js';
import { claimants, COLLISIONS, delegates, detectedBy, DISTILLERS, routeCommand, sniffDistiller, sniffers, winner } from '../../lib/distillers/registry.js';
import { plainOf } from '../../lib/pipeline/classify.js';
import type { Line } from '../../lib/kit/types.js';
import type { DistillerSpec } from '../../lib/kit/spec.js';

// The registry's order decides nothing. Where two specs claim the same line, the registry's
// COLLISIONS say who wins; so every pair that could collide is tested: over every command line
// in the corpus (cmd.txt) and in the routing test's tables, over the first lines of every
// corpus output (`omni pipe` without a command sniffs them) and over every line of every
// corpus output (a script's output is handed to the test or build spec that detects a line).
// A pair two specs claim must be stated with its winner, and the winner must be picked; a new
// overlap fails until someone states who wins. Then the list is shuffled: nothing changes.

function commands(): string[] {
  const out = new Set<string>();
  const cases = join(ROOT, 'corpus', 'cases');
  for (const c of readdirSync(cases)) {
    const p = join(cases, c, 'cmd.txt');
    if (existsSync(p)) out.add(readFileSync(p, 'utf8').trim());
  }
  const table = readFileSync(join(ROOT, 'test', 'distillers', 'routing.test.ts'), 'utf8');
  for (const m of table.matchAll(/'((?:[^'\\\n]|\\.)+)'/g)) out.add(m[1]!.replace(/\\'/g, "'"));
  return [...out].filter((c) => c.trim());
}

const all = commands();
const corpus = loadCorpus();

/** The lines of an output as classify sees them (plain text set), up to `max`. */
function linesOf(output: Buffer, max = Infinity): Line[] {
  const out: Line[] = [];
  for (const text of output.toString('utf8').split('\n')) {
    if (out.length >= max) break;
    const l: Line = { kind: 'line', text: text.replace(/\r$/, ''), eol: '\n', tier: 'text', index: out.length, end: 0 };
    plainOf(l);
    out.push(l);
  }
  return out;
}

const heads = corpus.map((c) => ({ name: c.name, head: linesOf(c.output, 200) }));
const kinds = [...new Set(DISTILLERS.filter((s) => s.delegate).map((s) => s.delegate!))];
/** Every distinct plain line of the corpus. */
const plains = [...new Set(corpus.flatMap((c) => linesOf(c.output).map((l) => l.plain!)))];

const key = (names: readonly string[]) => [...names].sort().join(' | ');
const stated: Record<string, string> = Object.fromEntries(COLLISIONS.map((c) => [key(c.pair), c.winner]));

/** Every pair of claimants in `who`, with the claimant that wins among all of `who`. */
function pairs(who: string[], won: string, into: Record<string, string>): void {
  for (let i = 0; i < who.length; i++) for (let j = i + 1; j < who.length; j++) into[key([who[i], who[j]])] = stated[key([who[i], who[j]])] ?? won;
}

t.test('the tables are read', async (t) => {
  t.ok(all.length > 200, `${all.length} command lines`);
  t.ok(heads.length > 300, `${heads.length} outputs`);
  t.same(claimants('npx jest --verbose'), ['jest']);
  t.same(kinds.sort(), ['build', 'test']);
});

t.test('no line is claimed by two specs unless the winner is stated, and the stated winner wins', async (t) => {
  const found: Record<string, string> = {};
  for (const cmd of all) {
    const who = claimants(cmd);
    if (who.length < 2) continue;
    const won = routeCommand(cmd).distiller!;
    pairs(who, won, found);
    t.ok(who.filter((w) => w !== won).every((w) => stated[key([w, won])] === won), `${cmd}: claimed by ${who.join(', ')}; ${won} wins each stated pair`);
  }
  for (const { name, head } of heads) {
    const who = sniffers(head);
    if (who.length < 2) continue;
    const won = sniffDistiller(head).name;
    pairs(who, won, found);
    t.ok(who.filter((w) => w !== won).every((w) => stated[key([w, won])] === won), `${name}: sniffed by ${who.join(', ')}; ${won} wins each stated pair`);
  }
  for (const kind of kinds) {
    const families = delegates(kind);
    for (const p of plains) {
      const who = families.filter((f) => f.detect!(p)).map((f) => f.name);
      if (who.length >= 2) pairs(who, detectedBy(families, p)!.name, found);
    }
  }
  t.same(found, stated, 'every colliding pair, with the spec that wins it');
});

t.test('every stated collision is between registered specs, once, and names one of them', async (t) => {
  const names = new Set(DISTILLERS.map((s) => s.name));
  const seen = new Set<string>();
  for (const c of COLLISIONS) {
    t.ok(names.has(c.pair[0]) && names.has(c.pair[1]), `${key(c.pair)}: registered`);
    t.ok(c.pair.includes(c.winner), `${key(c.pair)}: the winner is one of the pair`);
    t.notOk(seen.has(key(c.pair)), `${key(c.pair)}: stated once`);
    seen.add(key(c.pair));
    t.ok(c.why.length > 20, `${key(c.pair)}: says why`);
  }
});

t.test('an unstated pair goes to the first by name, whatever the order', async (t) => {
  const a = { name: 'a-tool', family: 'test', examples: [] } as DistillerSpec;
  const b = { name: 'b-tool', family: 'test', examples: [] } as DistillerSpec;
  t.equal(winner([b, a])!.name, 'a-tool');
  t.equal(winner([a, b])!.name, 'a-tool');
  const logs = DISTILLERS.find((s) => s.name === 'logs')!;
  const read = DISTILLERS.find((s) => s.name === 'read')!;
  t.equal(winner([read, logs]), logs, 'a stated winner whatever the order');
  t.equal(winner([logs, read]), logs);
});

/** A deterministic shuffle (seeded), so a failure can be replayed. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

t.test('the order of the registry is irrelevant: shuffled, every route, sniff and delegation is the same', async (t) => {
  const routes = all.map((cmd) => routeCommand(cmd).distiller);
  const sniffed = heads.map(({ head }) => sniffDistiller(head).name);
  const detected = kinds.map((k) => plains.map((p) => detectedBy(delegates(k), p)?.name));
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const specs = shuffled(DISTILLERS, seed);
    t.not(specs.map((s) => s.name).join(), DISTILLERS.map((s) => s.name).join(), `seed ${seed} reorders the list`);
    t.same(all.map((cmd) => routeCommand(cmd, undefined, specs).distiller), routes, `seed ${seed}: every command routes the same`);
    t.same(heads.map(({ head }) => sniffDistiller(head, specs).name), sniffed, `seed ${seed}: every output sniffs the same`);
    t.same(kinds.map((k) => plains.map((p) => detectedBy(delegates(k, specs), p)?.name)), detected, `seed ${seed}: every line is delegated the same`);
  }
});
