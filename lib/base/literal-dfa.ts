/**
 * One pass over a string that says which of several literal regexes occur in it: the answer
 * `re.test(s)` gives for each, at a table lookup a character.
 *
 * A regex here is an alternation of literals: chars, escaped chars and classes of listed chars,
 * in sequence, `|` and `(?:…)` groups (the tries lib/pipeline/prefilter.ts writes, redact's
 * pre-check); with `i`, ASCII letters only. Anything else (a quantifier, an anchor, a range, a
 * look-around, `u` or `m`) is not read and `of` gives null: the caller keeps its regexes.
 *
 * V8 tries such an alternation's first branches at every position of a line (~90 machine
 * instructions a character for classify's ~45 first letters); this walks a deterministic
 * automaton of the same literals, one state a character. Characters are first folded into
 * classes (all those no literal tells apart are one class), so the table is a few states by a
 * few dozen classes instead of by 65,536, and a case variant (`[Ee]rror`) costs no state.
 * Code units are read as the regexes read them without `u`: a surrogate is a character.
 */

type CharSet = number[];
/** A literal: one set of code units a position. */
type Atom = CharSet[];

/** More would cost more memory than the pass saves: the caller keeps its regexes. */
const MAX_STATES = 4096;
const MAX_ATOMS = 4096;

class Unread extends Error {}

/** Reads one literal alternation's source into its atoms (null when it is not one). */
function atomsOf(source: string, ci: boolean): Atom[] {
  let i = 0;
  const fold = (c: number): CharSet => {
    if (!ci) return [c];
    if (c >= 65 && c <= 90) return [c, c + 32];
    if (c >= 97 && c <= 122) return [c - 32, c];
    // `i` without `u` lets a non-ASCII char match relatives (é, É) no ASCII fold lists.
    if (c > 127) throw new Unread();
    return [c];
  };
  const SPECIAL = '^$.*+?{}';
  const escaped = (): number => {
    const c = source[i++];
    if (c === undefined || /[0-9A-Za-z]/.test(c)) throw new Unread(); // \d, \b, \x41, \1 …: not a plain char
    return c.charCodeAt(0);
  };
  const klass = (): CharSet => {
    // at '[' already consumed
    if (source[i] === '^') throw new Unread();
    const set = new Set<number>();
    while (i < source.length && source[i] !== ']') {
      if (source[i] === '-' && source[i + 1] !== ']' && set.size) throw new Unread(); // a range
      const c = source[i] === '\\' ? (i++, escaped()) : source.charCodeAt(i++);
      for (const x of fold(c)) set.add(x);
    }
    if (source[i++] !== ']' || !set.size) throw new Unread();
    return [...set].sort((a, b) => a - b);
  };
  const cross = (a: Atom[], b: Atom[]): Atom[] => {
    if (a.length * b.length > MAX_ATOMS) throw new Unread();
    const out: Atom[] = [];
    for (const x of a) for (const y of b) out.push([...x, ...y]);
    return out;
  };
  const sequence = (): Atom[] => {
    let run: Atom[] = [[]];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const c = source[i];
      if (c === '(') {
        if (source.slice(i, i + 3) !== '(?:') throw new Unread();
        i += 3;
        const inner = alternation();
        if (source[i++] !== ')') throw new Unread();
        run = cross(run, inner);
      } else if (c === '[') { i++; run = cross(run, [[klass()]]); }
      else if (c === '\\') { i++; run = cross(run, [[fold(escaped())]]); }
      else if (SPECIAL.includes(c) || c === ']') throw new Unread();
      else { i++; run = cross(run, [[fold(c.charCodeAt(0))]]); }
    }
    return run;
  };
  const alternation = (): Atom[] => {
    const out = sequence();
    while (source[i] === '|') { i++; out.push(...sequence()); if (out.length > MAX_ATOMS) throw new Unread(); }
    return out;
  };
  const atoms = alternation();
  if (i !== source.length) throw new Unread();
  // An empty alternative matches every string: not a gate worth a table.
  if (atoms.some((a) => a.length === 0)) throw new Unread();
  return atoms;
}

export class LiteralDfa {
  /** Code unit -> class. */
  private readonly cls: Uint8Array;
  /** A state's row is `1 << shift` entries (the classes, rounded up to a power of two). */
  private readonly shift: number;
  /**
   * The transitions, worked out as a string first needs each one: at a state's offset
   * (state << shift) plus a class, the next state's offset; -1 when not worked out yet;
   * -2 - offset for a state where some regex has matched, so the pass asks one comparison a
   * character for both.
   */
  private next: Int32Array;
  /** Each state: the trie nodes it stands for, and the bits of the regexes found there. */
  private nodesOf: number[][] = [];
  private outOf: number[] = [];
  private stateOf = new Map<string, number>();
  /** Each trie node's moves as [class, child, class, child, …]; the root's by class. */
  private readonly moves: number[][];
  private readonly fromRoot: number[][];
  /** The bits of the regexes an atom ending at each trie node belongs to. */
  private readonly ends: number[];
  /** Every regex's bit: nothing more to find. */
  private readonly all: number;

  private constructor(cls: Uint8Array, shift: number, moves: number[][], fromRoot: number[][], ends: number[], all: number) {
    this.cls = cls;
    this.shift = shift;
    this.moves = moves;
    this.fromRoot = fromRoot;
    this.ends = ends;
    this.all = all;
    this.next = new Int32Array(64 << shift).fill(-1);
    this.stateFor([]);
  }

  /**
   * The automaton for these regexes (at most 31; regex k gives bit 1 << k), or null when one of
   * them is not a literal alternation this reads. Its states are worked out as strings need
   * them (most of a log's lines visit a few), so building it costs a parse of the sources.
   */
  static of(regexes: readonly RegExp[]): LiteralDfa | null {
    if (regexes.length > 31) return null;
    const atoms: Array<{ atom: Atom; bit: number }> = [];
    try {
      regexes.forEach((re, k) => {
        if (/[^gi]/.test(re.flags)) throw new Unread();
        for (const atom of atomsOf(re.source, re.flags.includes('i'))) atoms.push({ atom, bit: 1 << k });
      });
    } catch (e) {
      if (e instanceof Unread) return null;
      throw e;
    }
    if (atoms.length > MAX_ATOMS) return null;

    // Classes: chars every position of every atom treats alike share one. Class 0: chars no
    // atom holds.
    const sets = new Map<string, number>();
    const setIds: number[][] = atoms.map(({ atom }) => atom.map((p) => {
      const key = p.join(',');
      let id = sets.get(key);
      if (id === undefined) sets.set(key, (id = sets.size));
      return id;
    }));
    const memberOf = new Map<number, number[]>();
    for (const [key, id] of sets) for (const c of key.split(',').map(Number)) {
      const m = memberOf.get(c);
      if (m) m.push(id); else memberOf.set(c, [id]);
    }
    const classOfSig = new Map<string, number>();
    const cls = new Uint8Array(65536);
    /** Per class, the sets that hold it. */
    const classSets: number[][] = [[]];
    for (const [c, ids] of memberOf) {
      const sig = ids.join(',');
      let k = classOfSig.get(sig);
      if (k === undefined) {
        k = classSets.length;
        if (k > 255) return null;
        classOfSig.set(sig, k);
        classSets.push(ids);
      }
      cls[c] = k;
    }
    const nClasses = classSets.length;
    let shift = 0;
    while (1 << shift < nClasses) shift++;

    // A trie over the atoms' positions (a position is one set): node 0 is the root.
    const edges: Array<Map<number, number>> = [new Map()];
    const ends: number[] = [0];
    atoms.forEach(({ bit }, a) => {
      let n = 0;
      for (const id of setIds[a]) {
        let m = edges[n].get(id);
        if (m === undefined) { m = edges.length; edges.push(new Map()); ends.push(0); edges[n].set(id, m); }
        n = m;
      }
      ends[n] |= bit;
    });

    // Each node's moves by class.
    const classesOfSet: number[][] = Array.from({ length: sets.size }, () => []);
    classSets.forEach((ids, k) => { for (const id of ids) classesOfSet[id].push(k); });
    const moves: number[][] = edges.map((e) => {
      const m: number[] = [];
      for (const [id, child] of e) for (const k of classesOfSet[id]) m.push(k, child);
      return m;
    });
    const fromRoot: number[][] = Array.from({ length: nClasses }, () => []);
    for (let j = 0; j < moves[0].length; j += 2) fromRoot[moves[0][j]].push(moves[0][j + 1]);
    return new LiteralDfa(cls, shift, moves, fromRoot, ends, (2 ** regexes.length - 1) | 0);
  }

  /** The state for a set of trie nodes (the root, alive in every state, left out), made when new. */
  private stateFor(nodes: number[]): number {
    const key = nodes.join(',');
    let s = this.stateOf.get(key);
    if (s !== undefined) return s;
    s = this.nodesOf.length;
    const width = 1 << this.shift;
    if ((s + 1) * width > this.next.length) {
      const grown = new Int32Array(this.next.length * 2).fill(-1);
      grown.set(this.next);
      this.next = grown;
    }
    this.stateOf.set(key, s);
    this.nodesOf.push(nodes);
    let o = 0;
    for (const n of nodes) o |= this.ends[n];
    this.outOf.push(o);
    return s;
  }

  /** Works out the move from the state at `offset` on class `k`, records it and returns its entry. */
  private step(offset: number, k: number): number {
    const to = new Set<number>(this.fromRoot[k]);
    for (const n of this.nodesOf[offset >> this.shift]) {
      const m = this.moves[n];
      for (let j = 0; j < m.length; j += 2) if (m[j] === k) to.add(m[j + 1]);
    }
    if (this.nodesOf.length >= MAX_STATES) {
      // Strings that visit this many states are rare: start the table again rather than grow it.
      this.next = new Int32Array(64 << this.shift).fill(-1);
      this.nodesOf = [];
      this.outOf = [];
      this.stateOf = new Map();
      this.stateFor([]);
      offset = -1;
    }
    const s = this.stateFor([...to].sort((a, b) => a - b));
    const entry = this.outOf[s] !== 0 ? -2 - (s << this.shift) : s << this.shift;
    if (offset >= 0) this.next[offset + k] = entry;
    return entry;
  }

  /** Bit k set when regex k matches somewhere in `s`. */
  scan(s: string): number {
    const n = s.length;
    let found = 0;
    let st = 0;
    let i = 0;
    for (;;) {
      // The fast path, a lookup a character, stops only at a move not worked out yet or at a
      // state where something was found.
      const cls = this.cls;
      const next = this.next;
      let e = 0;
      for (; i < n; i++) {
        e = next[st + cls[s.charCodeAt(i)]];
        if (e < 0) break;
        st = e;
      }
      if (i === n) return found;
      if (e === -1) {
        e = this.step(st, cls[s.charCodeAt(i)]);
        if (e >= 0) { st = e; i++; continue; }
      }
      st = -2 - e;
      found |= this.outOf[st >> this.shift];
      if (found === this.all) return found;
      i++;
    }
  }

  /** How many states have been worked out so far. */
  get size(): number {
    return this.nodesOf.length;
  }
}
