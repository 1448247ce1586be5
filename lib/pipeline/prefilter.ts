/**
 * A prefilter derived from the pattern lists it guards, so nothing keeps it in step by hand.
 *
 * From each pattern's own source it computes literal *atoms*: strings of which every match of
 * the pattern contains one (as RE2's FilteredRE2 does). A pattern anchored at the line's start
 * (`^` or `^\s*`) gives the literal prefixes its matches start with instead, which are far more
 * selective (`ok`, `at `, `Downloading`). The Prefilter below turns the atoms of many patterns
 * into a bit per pattern: "this one may match". A pattern whose source yields no atom gets its
 * bit on every line. A clear bit is a proof the pattern cannot match, so skipping it changes
 * no answer; a set bit only says "try it".
 *
 * The regex reader knows the subset of JavaScript syntax a pattern list uses (groups,
 * alternation, classes, quantifiers, escapes, anchors, look-arounds); anything it does not
 * know reads as "any character", which can only weaken an atom, never make one wrong.
 */
import { compileNative } from '../base/native-regex.js';
import { LiteralDfa } from '../base/literal-dfa.js';

/** A set of single characters, or null for "too many to list" (any character, as far as atoms go). */
type Chars = string[] | null;

type Node =
  | { t: 'chars'; c: Chars }
  | { t: 'seq'; xs: Node[] }
  | { t: 'alt'; xs: Node[] }
  | { t: 'rep'; x: Node; min: number; max: number }
  | { t: 'empty' }
  | { t: 'bol' };

/** Sets larger than this are not listed (a class like `\w`, a cross product that grows). */
const MAX_SET = 64;
const WS = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const DIGITS = '0123456789';

/** The case variants `/i` lets a character match, or null when they cannot be listed soundly. */
function foldCase(c: string): string[] | null {
  const code = c.charCodeAt(0);
  if (code < 128) {
    const lo = c.toLowerCase();
    const up = c.toUpperCase();
    return lo === up ? [c] : [lo, up];
  }
  // A caseless symbol (✗, ●, ℹ) matches only itself; a cased letter beyond ASCII may have
  // relatives no simple mapping lists (µ, μ, Μ): not listed.
  return c.toLowerCase() === c && c.toUpperCase() === c ? [c] : null;
}

function charsOf(list: string, ci: boolean): Chars {
  const out = new Set<string>();
  for (const c of list) {
    if (!ci) { out.add(c); continue; }
    const v = foldCase(c);
    if (!v) return null;
    for (const x of v) out.add(x);
  }
  return out.size > MAX_SET ? null : [...out];
}

const ANY_CHAR: Node = { t: 'chars', c: null };

/** A recursive-descent reading of a pattern's source, as far as a gate needs it (see parse). */
class PatternReader {
  private i = 0;
  constructor(private readonly src: string, private readonly ci: boolean) {}

  read(): Node {
    return this.alternation();
  }

  private peek(): string {
    return this.src[this.i];
  }

  private escape(inClass: boolean): Chars | 'empty' | 'bol' {
    const c = this.src[this.i++];
    switch (c) {
      case 'd': return charsOf(DIGITS, false);
      case 's': return charsOf(WS, false);
      case 'D': case 'S': case 'w': case 'W': return null;
      case 'b': return inClass ? ['\b'] : 'empty';
      case 'B': return 'empty';
      case 't': return ['\t'];
      case 'n': return ['\n'];
      case 'r': return ['\r'];
      case 'v': return ['\v'];
      case 'f': return ['\f'];
      case '0': return ['\0'];
      case 'x': { const h = this.src.slice(this.i, this.i + 2); this.i += 2; return charsOf(String.fromCharCode(parseInt(h, 16)), this.ci); }
      case 'u': {
        if (this.src[this.i] === '{') { const e = this.src.indexOf('}', this.i); this.i = e + 1; return null; }
        const h = this.src.slice(this.i, this.i + 4); this.i += 4; return charsOf(String.fromCharCode(parseInt(h, 16)), this.ci);
      }
      case 'c': this.i++; return null;
      case 'k': { const e = this.src.indexOf('>', this.i); this.i = e + 1; return null; }
      default:
        if (c >= '1' && c <= '9') { while (this.src[this.i] >= '0' && this.src[this.i] <= '9') this.i++; return null; } // back-reference
        return charsOf(c, this.ci);
    }
  }

  private klass(): Node {
    // at '[' already consumed
    let negated = false;
    if (this.src[this.i] === '^') { negated = true; this.i++; }
    const set = new Set<string>();
    let unknown = false;
    while (this.i < this.src.length && this.src[this.i] !== "]") {
      let lo: string | null = null;
      if (this.src[this.i] === '\\') {
        this.i++;
        const e = this.escape(true);
        if (e === null || e === 'empty' || e === 'bol') { unknown = true; continue; }
        if (e.length !== 1 || this.ci) { for (const x of e) set.add(x); continue; }
        lo = e[0];
      } else lo = this.src[this.i++];
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let hi: string;
        if (this.src[this.i] === '\\') { this.i++; const e = this.escape(true); if (!e || e === 'empty' || e === 'bol' || e.length !== 1) { unknown = true; continue; } hi = e[0]; }
        else hi = this.src[this.i++];
        const a = lo.charCodeAt(0), b = hi.charCodeAt(0);
        if (b - a > MAX_SET) { unknown = true; continue; }
        for (let k = a; k <= b; k++) {
          const v = this.ci ? foldCase(String.fromCharCode(k)) : [String.fromCharCode(k)];
          if (!v) unknown = true; else for (const x of v) set.add(x);
        }
        continue;
      }
      const v = this.ci ? foldCase(lo) : [lo];
      if (!v) unknown = true; else for (const x of v) set.add(x);
    }
    this.i++; // ']'
    if (negated || unknown || set.size > MAX_SET) return ANY_CHAR;
    return { t: 'chars', c: [...set] };
  }

  private atom(): Node | null {
    const c = this.peek();
    if (c === '(') {
      this.i++;
      let look = false;
      if (this.src[this.i] === '?') {
        if (this.src[this.i + 1] === ':') this.i += 2;
        else if (this.src[this.i + 1] === '=' || this.src[this.i + 1] === '!') { this.i += 2; look = true; }
        else if (this.src[this.i + 1] === '<' && (this.src[this.i + 2] === '=' || this.src[this.i + 2] === '!')) { this.i += 3; look = true; }
        else if (this.src[this.i + 1] === '<') { this.i = this.src.indexOf('>', this.i) + 1; }
      }
      const inner = this.alternation();
      this.i++; // ')'
      return look ? { t: 'empty' } : inner;
    }
    if (c === '[') { this.i++; return this.klass(); }
    if (c === '\\') {
      this.i++;
      const e = this.escape(false);
      if (e === 'empty') return { t: 'empty' };
      if (e === 'bol') return { t: 'bol' };
      return { t: 'chars', c: e };
    }
    if (c === '^') { this.i++; return { t: 'bol' }; }
    if (c === '$') { this.i++; return { t: 'empty' }; }
    if (c === '.') { this.i++; return ANY_CHAR; }
    this.i++;
    return { t: 'chars', c: charsOf(c, this.ci) };
  }

  private quantified(): Node | null {
    const a = this.atom();
    if (!a) return null;
    let min = -1, max = -1;
    const q = this.peek();
    if (q === '*') { min = 0; max = Infinity; this.i++; }
    else if (q === '+') { min = 1; max = Infinity; this.i++; }
    else if (q === '?') { min = 0; max = 1; this.i++; }
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (m) { min = Number(m[1]); max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]); this.i += m[0].length; }
    }
    if (min < 0) return a;
    if (this.peek() === '?') this.i++; // lazy
    return { t: 'rep', x: a, min, max };
  }

  private sequence(): Node {
    const xs: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const q = this.quantified();
      if (q) xs.push(q);
    }
    return xs.length === 1 ? xs[0] : { t: 'seq', xs };
  }

  private alternation(): Node {
    const xs = [this.sequence()];
    while (this.peek() === '|') { this.i++; xs.push(this.sequence()); }
    return xs.length === 1 ? xs[0] : { t: 'alt', xs };
  }
}

/** Reads a regex source into a Node tree (the subset above; the rest reads as "any"). */
function parse(src: string, ci: boolean): Node {
  return new PatternReader(src, ci).read();
}

/**
 * A literal, position by position: each position is the set of chars it may be (as a string
 * of those chars), so `[1-9]`, `\s` or a case-insensitive letter stay one position.
 */
type Lit = string[];
type Lits = Map<string, Lit>;

const keyOf = (l: Lit) => l.join('\u0000');
const lits = (...xs: Lit[]): Lits => new Map(xs.map((x) => [keyOf(x), x]));

interface Info {
  /** Every literal the node can match, when few enough to list. */
  exact: Lits | null;
  /** Every match contains one of these (never empty), or null for no such guarantee. */
  atoms: Lits | null;
}

const EMPTY: Lits = lits([]);

function product(a: Lits, b: Lits): Lits | null {
  if (a.size * b.size > MAX_SET) return null;
  const out: Lits = new Map();
  for (const x of a.values()) for (const y of b.values()) { const l = [...x, ...y]; out.set(keyOf(l), l); }
  return out;
}

/** True when every string `big` matches contains (or, for `atStart`, starts with) a match of `small`. */
function covers(small: Lit, big: Lit, atStart: boolean): boolean {
  for (let off = 0; off + small.length <= big.length && (off === 0 || !atStart); off++) {
    let ok = true;
    for (let j = 0; j < small.length && ok; j++) for (const c of big[off + j]) if (!small[j].includes(c)) { ok = false; break; }
    if (ok) return true;
  }
  return false;
}

/**
 * Atoms from an exact set: drop any that contains another (a line with "FAILED" has "FAIL").
 * Prefixes (`atStart`) only drop one that starts with another: "BUILD SUCCESSFUL" stays
 * beside "SUCCESS".
 */
function asAtoms(s: Lits | null, atStart = false): Lits | null {
  if (!s || s.size === 0) return null;
  const xs = [...s.values()];
  if (xs.some((x) => x.length === 0)) return null;
  xs.sort((a, b) => a.length - b.length);
  const keep: Lit[] = [];
  for (const x of xs) if (!keep.some((k) => covers(k, x, atStart))) keep.push(x);
  return lits(...keep);
}

/** How selective a set of atoms is: its weakest atom's positions, a narrow one counting more. */
function score(s: Lits): number {
  let min = Infinity;
  for (const l of s.values()) {
    let v = 0;
    for (const p of l) v += p.length <= 2 ? 1 : p.length <= 10 ? 0.5 : 0.1;
    min = Math.min(min, v);
  }
  return min;
}

/** The more selective of two atom sets: higher score, then fewer atoms. */
function better(a: Lits | null, b: Lits | null): Lits | null {
  if (!a) return b;
  if (!b) return a;
  const sa = score(a), sb = score(b);
  if (sa !== sb) return sa > sb ? a : b;
  return a.size <= b.size ? a : b;
}

function info(n: Node): Info {
  switch (n.t) {
    case 'empty': case 'bol': return { exact: EMPTY, atoms: null };
    case 'chars': {
      if (!n.c) return { exact: null, atoms: null };
      const e = lits([[...n.c].sort().join('')]);
      return { exact: e, atoms: e };
    }
    case 'alt': {
      const is = n.xs.map(info);
      let exact: Lits | null = new Map();
      for (const x of is) {
        if (!x.exact || !exact) { exact = null; break; }
        for (const [k, v] of x.exact) exact.set(k, v);
        if (exact.size > MAX_SET) { exact = null; break; }
      }
      if (exact) return { exact, atoms: asAtoms(exact) };
      const atoms: Lits = new Map();
      for (const x of is) {
        const a = better(x.atoms, asAtoms(x.exact));
        if (!a) return { exact: null, atoms: null };
        for (const [k, v] of a) atoms.set(k, v);
      }
      return { exact: null, atoms: asAtoms(atoms) };
    }
    case 'rep': {
      const x = info(n.x);
      if (n.min === 0) {
        if (n.max === 1 && x.exact) { const e = new Map(x.exact); e.set(keyOf([]), []); return { exact: e, atoms: null }; }
        return { exact: null, atoms: null };
      }
      if (n.min === 1 && n.max === 1) return x;
      return { exact: null, atoms: better(x.atoms, asAtoms(x.exact)) };
    }
    case 'seq': {
      let best: Lits | null = null;
      let run: Lits = EMPTY;
      let allExact = true;
      for (const c of n.xs) {
        const x = info(c);
        if (x.exact) {
          const p = product(run, x.exact);
          if (p) { run = p; continue; }
          allExact = false;
          best = better(best, asAtoms(run));
          run = x.exact;
          continue;
        }
        allExact = false;
        // `\d+ passed`: the last repetition stands right before what follows (and the first
        // right after what came before), so `\d` joins both runs.
        const once = c.t === 'rep' && c.min >= 1 ? info(c.x).exact : null;
        if (once) {
          best = better(better(best, asAtoms(run)), asAtoms(product(run, once)));
          run = once;
          continue;
        }
        best = better(better(best, asAtoms(run)), x.atoms);
        run = EMPTY;
      }
      if (allExact) return { exact: run, atoms: asAtoms(run) };
      return { exact: null, atoms: better(best, asAtoms(run)) };
    }
  }
}

/** Literal prefixes every match of `n` starts with (may hold the empty one), or null when they cannot be listed. */
function prefixes(n: Node): Lits | null {
  const x = info(n);
  if (x.exact) return x.exact;
  if (n.t === 'alt') {
    const out: Lits = new Map();
    for (const c of n.xs) {
      const p = prefixes(c);
      if (!p || p.has('')) return null;
      for (const [k, v] of p) out.set(k, v);
    }
    return out.size > MAX_SET ? null : out;
  }
  if (n.t === 'rep' && n.min >= 1) return prefixes(n.x);
  if (n.t === 'seq') {
    let run: Lits = EMPTY;
    for (const c of n.xs) {
      const xi = info(c);
      if (xi.exact) {
        const p = product(run, xi.exact);
        if (!p) return run;
        run = p;
        continue;
      }
      const p = prefixes(c);
      if (!p) return run;
      return product(run, p) ?? run;
    }
    return run;
  }
  return null;
}

/** Where a pattern's atoms must stand. */
export type Anchor = 'anywhere' | 'start' | 'start-after-space';

export interface PatternAtoms {
  anchor: Anchor;
  /** Each atom position by position (the chars each position may be); null: nothing derived. */
  atoms: string[][] | null;
}

const isSpaceStar = (n: Node) => n.t === 'rep' && n.min === 0 && n.max === Infinity && n.x.t === 'chars' && !!n.x.c && n.x.c.length === WS.length && [...WS].every((c) => (n.x as { c: string[] }).c.includes(c));

/** What must stand in a line for `re` to match it, read from `re`'s own source and flags. */
export function atomsOf(re: RegExp): PatternAtoms {
  const ci = re.flags.includes('i');
  const tree = parse(re.source, ci);
  const free = info(tree).atoms;
  // `^…` and `^\s*…` (without the m flag) fix where the match starts: its literal prefixes,
  // when they can be listed, say more than atoms found anywhere.
  if (!re.flags.includes('m') && tree.t === 'seq' && tree.xs[0]?.t === 'bol') {
    let rest = tree.xs.slice(1);
    let anchor: Anchor = 'start';
    if (rest[0] && isSpaceStar(rest[0])) { anchor = 'start-after-space'; rest = rest.slice(1); }
    const a = asAtoms(prefixes(rest.length === 1 ? rest[0] : { t: 'seq', xs: rest }), true);
    // A prefix that may itself begin with a space would not be where `^\s*` leaves off.
    const spaceFirst = a && anchor === 'start-after-space' && [...a.values()].some((l) => [...l[0]].some((c) => WS.includes(c)));
    // Where it starts is worth a lot, but not more than a word found anywhere (` fail`
    // beats "starts with a digit").
    if (a && !spaceFirst && (!free || score(a) >= 2 || score(a) >= score(free))) return { anchor, atoms: [...a.values()] };
  }
  return { anchor: 'anywhere', atoms: free ? [...free.values()] : null };
}

const CLASS_SPECIAL = /[\\\]\[^-]/g;
const SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;

/** One position as regex source: a char, or a class of them. */
function positionSource(chars: string): string {
  if (chars.length === 1) return chars.replace(SPECIAL, '\\$&');
  return `[${chars.replace(CLASS_SPECIAL, '\\$&')}]`;
}

/**
 * Alternatives as a trie (one branch per first position), which V8 rejects at a position
 * sooner. At the top each branch starts with one char (`[Ee]rror` is under `E` and `e`), so a
 * position is rejected on one lookup.
 */
function trie(atoms: string[][], top = true): string {
  const groups = new Map<string, string[][]>();
  let ends = false;
  for (const a of atoms) {
    if (!a.length) { ends = true; continue; }
    for (const first of top && a[0].length <= 2 ? [...a[0]] : [a[0]]) {
      const g = groups.get(first);
      if (g) g.push(a.slice(1)); else groups.set(first, [a.slice(1)]);
    }
  }
  // An atom ending here is enough: longer ones below it need not be tried.
  if (ends) return '';
  const alts = [...groups].map(([p, rest]) => {
    const tail = trie(rest, false);
    return positionSource(p) + (tail === '' ? '' : `(?:${tail})`);
  });
  return alts.join('|');
}

/**
 * The part of an atom a regex looks for: without spaces at its ends. Any part of an atom is
 * an atom too (a line with " error" has "error"), so this only lets more lines through; an
 * alternative that starts with a space is tried at every space of a line, one that starts
 * with a letter far less often. The rest stays whole: V8 skips ahead on long literals, and
 * cutting them (to `pack`, say, from `\d packages`) was measured slower on the mixed log.
 */
function stem(a: string[]): string[] {
  let from = 0;
  let to = a.length;
  const space = (p: string) => [...p].every((c) => WS.includes(c));
  while (to - from > 2 && space(a[from])) from++;
  while (to - from > 2 && space(a[to - 1])) to--;
  return a.slice(from, to);
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c > 127 && WS.includes(String.fromCharCode(c)));

/**
 * The gate for many patterns at once. Each pattern gives its atoms (atomsOf); then
 *
 * - a pattern anchored at the line's start is kept by its atoms' first chars: the line's first
 *   char (or its first after leading spaces) picks, from a table, the patterns that may start
 *   there, the way a trie's first level does;
 * - the patterns whose atoms may stand anywhere are grouped (a group is a list, such as
 *   FAILURE): one native regex per group, written as a trie of the group's atoms, says whether
 *   any of them occurs, and a yes sets every bit of the group.
 *
 * `bitsOf(s)` is the OR of the bits of every pattern that may match `s` (patterns without
 * atoms are always in). A clear bit proves its pattern cannot match.
 */
/**
 * What a Prefilter is made of, as plain data: derived from the patterns by `derivePrefilter`.
 * The build derives it once from the lists (scripts/build.mjs) and bundles the result, so a
 * hook call does not parse every pattern's source at start-up (~25 ms cold); unbundled (tests,
 * tsc) it is derived when first used. Either way it comes from the lists, never by hand.
 */
export interface PrefilterTables {
  always: number;
  atStart: Array<[number, number]>;
  afterSpace: Array<[number, number]>;
  /** One regex source per group, and that group's bits. */
  res: string[];
  rbits: number[];
}

export function derivePrefilter(patterns: Array<{ re: RegExp; bit: number; group?: string }>): PrefilterTables {
  let always = 0;
  const atStart = new Map<number, number>();
  const afterSpace = new Map<number, number>();
  // Case stays in the atoms as classes (`[Ee]rror`): one case-sensitive regex per group was
  // measured faster than a case-insensitive one, or two per group.
  const free = new Map<string, { atoms: string[][]; bits: number }>();
  for (const p of patterns) {
    const { anchor, atoms } = atomsOf(p.re);
    if (!atoms) { always |= p.bit; continue; }
    if (anchor === 'anywhere') {
      const key = p.group ?? String(p.bit);
      const g = free.get(key) ?? { atoms: [], bits: 0 };
      g.atoms.push(...atoms.map(stem));
      g.bits |= p.bit;
      free.set(key, g);
      continue;
    }
    const table = anchor === 'start' ? atStart : afterSpace;
    for (const a of atoms) for (const c of a[0]) table.set(c.charCodeAt(0), (table.get(c.charCodeAt(0)) ?? 0) | p.bit);
  }
  const res: string[] = [];
  const rbits: number[] = [];
  for (const g of free.values()) {
    // An atom another of the group covers (`ERRO` beside `[Ee][Rr][Rr][Oo]`) adds nothing.
    const atoms = [...(asAtoms(lits(...g.atoms)) ?? new Map<string, Lit>()).values()];
    res.push(trie(atoms));
    rbits.push(g.bits);
  }
  return { always, atStart: [...atStart], afterSpace: [...afterSpace], res, rbits };
}

/** Characters a gate's regexes read before it builds its automaton (~1 ms of regex time a 100 KB on the mixed log). */
const DFA_AFTER = 512 * 1024;

export class Prefilter {
  /** Bits set on every line: patterns nothing could be derived for. */
  readonly always: number;
  /** First char -> bits, at the line's very start and after leading spaces. */
  private readonly atStart = new Map<number, number>();
  private readonly afterSpace = new Map<number, number>();
  /** Any bits at all are anchored after spaces (else the space walk is skipped). */
  private readonly anyAfterSpace: boolean;
  /** For ASCII first chars a table; and each group's regex with the group's bits. */
  private readonly startAscii = new Int32Array(128);
  private readonly spaceAscii = new Int32Array(128);
  private readonly res: RegExp[] = [];
  private readonly rbits: number[] = [];
  /**
   * The groups' regexes as one automaton (lib/base/literal-dfa.ts): the same answers at a
   * table lookup a character instead of V8 trying every first branch at every position. Built
   * (a few ms) once the regexes have read DFA_AFTER characters, so a hook's short output never
   * pays for it; null when it cannot be built, and the regexes go on.
   */
  private dfa: LiteralDfa | null | undefined = undefined;
  private untilDfa: number;

  /** `dfaAfter`: characters read by the regexes before the automaton is built (tests ask 0). */
  constructor(t: PrefilterTables, dfaAfter = DFA_AFTER) {
    this.untilDfa = dfaAfter;
    this.always = t.always;
    for (const [c, b] of t.atStart) this.atStart.set(c, b);
    for (const [c, b] of t.afterSpace) this.afterSpace.set(c, b);
    // A group's regex is tried on every line, and is literals only: machine code at once.
    for (const src of t.res) this.res.push(compileNative(new RegExp(src)));
    this.rbits.push(...t.rbits);
    this.anyAfterSpace = this.afterSpace.size > 0;
    for (const [c, b] of this.atStart) if (c < 128) this.startAscii[c] = b;
    for (const [c, b] of this.afterSpace) if (c < 128) this.spaceAscii[c] = b;
  }

  /** The bits of the patterns that may match `s`. */
  bitsOf(s: string): number {
    let bits = this.always;
    const n = s.length;
    if (n) {
      let c = s.charCodeAt(0);
      bits |= c < 128 ? this.startAscii[c] : this.atStart.get(c) ?? 0;
      if (this.anyAfterSpace) {
        let i = 0;
        while ((c === 32 || (c >= 9 && c <= 13) || (c > 127 && isSpace(c))) && ++i < n) c = s.charCodeAt(i);
        if (i < n) bits |= c < 128 ? this.spaceAscii[c] : this.afterSpace.get(c) ?? 0;
      }
    }
    const res = this.res;
    const rbits = this.rbits;
    if (this.dfa === undefined && (this.untilDfa -= n) < 0) this.dfa = LiteralDfa.of(res);
    const dfa = this.dfa;
    if (dfa) {
      const found = dfa.scan(s);
      if (found !== 0) for (let k = 0; k < res.length; k++) if (found & (1 << k)) bits |= rbits[k];
      return bits;
    }
    for (let k = 0; k < res.length; k++) {
      const b = rbits[k];
      if ((bits & b) !== b && res[k].test(s)) bits |= b;
    }
    return bits;
  }
}
