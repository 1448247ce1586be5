/**
 * A gate in front of a regex anchored at the start of its subject (`^…`): the chars a match
 * can begin with are read off the pattern's source once, and a subject whose first char is
 * not one of them is answered `false` without running the regex. V8 compiles a regex on its
 * first attempt (and again, to machine code, on its second), whatever the subject: sniffing a
 * run's first 200 lines tries some sixty `^…` patterns of every distiller on each, and most of
 * them can never match a line that begins with another char. Gated, those are never compiled
 * (a post-hook on a 20 KB progress log spent ~25M instructions compiling them).
 *
 * The reading is conservative: what it does not follow at the start of a match (`.`, a negated
 * class, a back-reference) counts as any char, an assertion (`$`, `\b`, a look-around) as no
 * char; a pattern not anchored in every alternative, with a flag other than `i`, or whose start
 * can match nothing gets no gate and runs as before. So a subject the gate refuses has a first
 * char no match can begin with, and the answer is always the regex's own.
 */

/** Inclusive ranges of UTF-16 code units. */
type Ranges = Array<[number, number]>;

/** The lead of a piece of pattern: the chars it can begin with, and whether it can match empty. */
interface Lead {
  set: Ranges;
  empty: boolean;
}

const WHITESPACE: Ranges = [[9, 13], [32, 32], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
const DIGIT: Ranges = [[48, 57]];
const WORD: Ranges = [[48, 57], [65, 90], [95, 95], [97, 122]];

/** Every code unit not in `r` (r sorted, not overlapping). */
function complement(r: Ranges): Ranges {
  const out: Ranges = [];
  let from = 0;
  for (const [lo, hi] of r) {
    if (lo > from) out.push([from, lo - 1]);
    from = hi + 1;
  }
  if (from <= 0xffff) out.push([from, 0xffff]);
  return out;
}

const NOT_DIGIT = complement(DIGIT);
const NOT_WHITESPACE = complement(WHITESPACE);
const NOT_WORD = complement(WORD);

/** Thrown where the reading stops: the pattern gets no gate. */
class Unknown extends Error {}
const unknown = (): never => {
  throw new Unknown();
};

const SPECIAL = '^$\\.|?*+()[]{}';
const ANY: Ranges = [[0, 0xffff]];
/** An assertion: it consumes no char. */
const NOTHING: Lead = { set: [], empty: true };

class Reader {
  i = 0;
  constructor(private readonly src: string) {}

  get done(): boolean {
    return this.i >= this.src.length;
  }

  peek(): string {
    return this.src[this.i] ?? '';
  }

  /** An escape after its backslash, as a class of chars (an assertion or reference is unknown). */
  escape(inClass: boolean): Ranges {
    const c = this.src[this.i++];
    if (c === undefined) return unknown();
    switch (c) {
      case 'd': return DIGIT;
      case 'D': return NOT_DIGIT;
      case 's': return WHITESPACE;
      case 'S': return NOT_WHITESPACE;
      case 'w': return WORD;
      case 'W': return NOT_WORD;
      case 't': return [[9, 9]];
      case 'n': return [[10, 10]];
      case 'r': return [[13, 13]];
      case 'f': return [[12, 12]];
      case 'v': return [[11, 11]];
      case 'b': return inClass ? [[8, 8]] : unknown();
      case 'x': return this.hex(2);
      case 'u': return this.hex(4);
      default:
        // An escaped punctuation char stands for itself; another letter or digit (\0, \cX,
        // \p{…}, a back-reference) is read as any char.
        if (isAlnum(c.charCodeAt(0))) return ANY;
        return [[c.charCodeAt(0), c.charCodeAt(0)]];
    }
  }

  hex(n: number): Ranges {
    const h = this.src.slice(this.i, this.i + n);
    if (h.length !== n || !/^[0-9A-Fa-f]+$/.test(h)) return ANY;
    this.i += n;
    const code = parseInt(h, 16);
    return [[code, code]];
  }

  /** A `[…]` class, after its `[`. */
  charClass(): Ranges {
    const negated = this.peek() === '^';
    if (negated) this.i++;
    const out: Ranges = [];
    for (;;) {
      const c = this.src[this.i++];
      if (c === undefined) return unknown();
      if (c === ']') return negated ? ANY : out;
      const from = c === '\\' ? this.escape(true) : [[c.charCodeAt(0), c.charCodeAt(0)] as [number, number]];
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined) {
        this.i++;
        const d = this.src[this.i++];
        const to = d === '\\' ? this.escape(true) : [[d.charCodeAt(0), d.charCodeAt(0)] as [number, number]];
        if (from.length !== 1 || to.length !== 1 || from[0][0] !== from[0][1] || to[0][0] !== to[0][1]) out.push(...ANY);
        else out.push([from[0][0], to[0][0]]);
      } else {
        out.push(...from);
      }
    }
  }

  /** One atom's lead, and whether a quantifier after it lets it match nothing. */
  atom(): Lead {
    const c = this.src[this.i++];
    let lead: Lead;
    if (c === '(') {
      // A look-around consumes nothing: it only narrows what follows, so it adds no char.
      const at = this.src[this.i + 1] === '<' ? this.i + 2 : this.i + 1;
      const around = this.peek() === '?' && (this.src[at] === '=' || this.src[at] === '!');
      if (around) this.i += this.src[this.i + 1] === '<' ? 3 : 2;
      else if (this.src.startsWith('?:', this.i)) this.i += 2;
      else if (this.src.startsWith('?<', this.i)) this.i = this.src.indexOf('>', this.i) + 1 || unknown();
      else if (this.peek() === '?') return unknown();
      lead = this.alternatives();
      if (this.src[this.i++] !== ')') return unknown();
      if (around) lead = NOTHING;
    } else if (c === '[') {
      lead = { set: this.charClass(), empty: false };
    } else if (c === '\\' && (this.peek() === 'b' || this.peek() === 'B')) {
      this.i++;
      lead = NOTHING;
    } else if (c === '\\' && this.peek() === 'k' && this.src[this.i + 1] === '<') {
      this.i = this.src.indexOf('>', this.i) + 1 || unknown();
      lead = { set: ANY, empty: true };
    } else if (c === '\\') {
      // A back-reference (\1) may match nothing; any other escape is one char.
      const backref = this.peek() >= '1' && this.peek() <= '9';
      lead = { set: this.escape(false), empty: backref };
    } else if (c === '$') {
      lead = NOTHING;
    } else if (c === '.') {
      lead = { set: ANY, empty: false };
    } else if (c === undefined || SPECIAL.includes(c)) {
      // A stray `^`, a quantifier with nothing before it, an unbalanced bracket: not followed.
      return unknown();
    } else {
      lead = { set: [[c.charCodeAt(0), c.charCodeAt(0)]], empty: false };
    }
    return this.quantified(lead);
  }

  /** The lead after an optional quantifier (`*`, `?` and `{0,…}` let it match nothing). */
  quantified(lead: Lead): Lead {
    const q = this.peek();
    let min = 1;
    if (q === '*' || q === '?') {
      min = 0;
      this.i++;
    } else if (q === '+') {
      this.i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(this.src.slice(this.i));
      if (!m) return unknown();
      min = Number(m[1]);
      this.i += m[0].length;
    }
    if (q === '*' || q === '+' || q === '?' || q === '{') {
      if (this.peek() === '?') this.i++;
    }
    return { set: lead.set, empty: lead.empty || min === 0 };
  }

  /** A sequence of atoms up to `|`, `)` or the end. */
  sequence(): Lead {
    const set: Ranges = [];
    let empty = true;
    while (!this.done && this.peek() !== '|' && this.peek() !== ')') {
      if (!empty) return this.skip(set);
      const a = this.atom();
      set.push(...a.set);
      empty = a.empty;
    }
    return { set, empty };
  }

  /**
   * The rest of a sequence whose lead is known: only its end matters (the next `|` or `)` of
   * this level), so it is scanned, not read.
   */
  skip(set: Ranges): Lead {
    let depth = 0;
    while (!this.done) {
      const c = this.src[this.i];
      if (depth === 0 && (c === '|' || c === ')')) break;
      this.i++;
      if (c === '\\') this.i++;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === '[') this.skipClass();
    }
    return { set, empty: false };
  }

  /** Past a `[…]` class, after its `[`. */
  skipClass(): void {
    while (!this.done) {
      const c = this.src[this.i++];
      if (c === '\\') this.i++;
      else if (c === ']') return;
    }
  }

  alternatives(): Lead {
    const set: Ranges = [];
    let empty = false;
    for (;;) {
      const s = this.sequence();
      set.push(...s.set);
      empty = empty || s.empty;
      if (this.peek() !== '|') return { set, empty };
      this.i++;
    }
  }

  /** The whole pattern: every top-level alternative anchored with `^`. */
  top(): Lead {
    const set: Ranges = [];
    for (;;) {
      if (this.src[this.i++] !== '^') return unknown();
      const s = this.sequence();
      if (s.empty) return unknown();
      set.push(...s.set);
      if (this.done) return { set, empty: false };
      if (this.src[this.i++] !== '|') return unknown();
    }
  }
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Adds the other case of every ASCII letter (the `i` flag); unknown where a non-ASCII char could fold. */
function foldCase(set: Ranges): Ranges {
  const out: Ranges = [...set];
  for (const [lo, hi] of set) {
    if (hi > 127) return unknown();
    const a = Math.max(lo, 65);
    const b = Math.min(hi, 90);
    if (a <= b) out.push([a + 32, b + 32]);
    const c = Math.max(lo, 97);
    const d = Math.min(hi, 122);
    if (c <= d) out.push([c - 32, d - 32]);
  }
  return out;
}

/**
 * The chars (UTF-16 code units) a match of `re` can begin with, as inclusive ranges; null when
 * the pattern is not one the reading follows (then no gate is safe).
 */
export function leadOf(re: RegExp): Ranges | null {
  if (re.flags !== '' && re.flags !== 'i') return null;
  try {
    const r = new Reader(re.source);
    const { set } = r.top();
    return re.flags === 'i' ? foldCase(set) : set;
  } catch (e) {
    if (e instanceof Unknown) return null;
    throw e;
  }
}

/** A pattern's key in the table the build reads (scripts/lead-tables.mjs). */
export const leadKey = (re: RegExp): string => `${re.flags}/${re.source}`;

/**
 * A lead as the build's table holds it: each range as two chars (its ends' code units), no gate
 * as ''. Strings, not arrays: the table is a constant a hook loads, not ~900 arrays it builds.
 */
export const encodeLead = (set: Ranges | null): string => (set === null ? '' : set.map(([lo, hi]) => String.fromCharCode(lo, hi)).join(''));

export function decodeLead(code: string): Ranges | null {
  if (code === '') return null;
  const set: Ranges = [];
  for (let i = 0; i < code.length; i += 2) set.push([code.charCodeAt(i), code.charCodeAt(i + 1)]);
  return set;
}

/** The build's reading of the distillers' patterns, by leadKey; absent when not bundled. */
declare const __OMNI_LEADS__: Record<string, string> | undefined;

/** Named once: the bundler writes the table out wherever the name stands. */
const LEADS = typeof __OMNI_LEADS__ === 'object' ? __OMNI_LEADS__ : null;

/** The lead of `re`: the build's reading when it has one, else read now. */
function leadFor(re: RegExp): Ranges | null {
  const code = LEADS?.[leadKey(re)];
  return code !== undefined ? decodeLead(code) : leadOf(re);
}

/** Is code unit `c` in `set`? */
function within(set: Ranges, c: number): boolean {
  for (const [lo, hi] of set) if (c >= lo && c <= hi) return true;
  return false;
}

/**
 * `re.test`, answered false without running (or compiling) `re` for a subject whose first
 * char no match can begin with. For a pattern with no gate, `re.test` itself.
 */
export function leadTest(re: RegExp): (s: string) => boolean {
  const set = leadFor(re);
  if (set === null) return (s) => re.test(s);
  // Membership by first code unit: one table lookup for ASCII, the ranges beyond it.
  const ascii = new Uint8Array(128);
  for (const [lo, hi] of set) ascii.fill(1, lo, Math.min(hi, 127) + 1);
  // A start that takes any ASCII char refuses no ordinary line: no gate.
  if (ascii.indexOf(0) === -1) return (s) => re.test(s);
  const wide = set.filter(([, hi]) => hi > 127);
  return (s) => {
    if (s.length === 0) return false;
    const c = s.charCodeAt(0);
    if (c < 128 ? ascii[c] === 0 : !within(wide, c)) return false;
    return re.test(s);
  };
}

/** Does any of `res` match? Each behind its own gate, tried in order. */
export function leadTestAny(...res: RegExp[]): (s: string) => boolean {
  const tests = res.map(leadTest);
  return (s) => {
    for (const test of tests) if (test(s)) return true;
    return false;
  };
}
