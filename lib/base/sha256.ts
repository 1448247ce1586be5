/**
 * SHA-256 as a hex string, the digest behind every archive handle (./archive.ts).
 *
 * `node:crypto` is the reference, but loading it costs more than a hook call hashes: it pulls
 * in keys, ciphers, x509 and streams, ~10-16M instructions (~2-3 ms on a 2-core machine) for a
 * call that hashes ~40 KB. So a process hashes its first `WASM_BUDGET_BYTES` with the few hundred
 * bytes of WebAssembly below (~0.5M to compile, ~120 instructions a byte in V8's baseline
 * compiler), and loads `node:crypto` only for a digest that would go past that, and for every
 * digest after it: a hook with a small output never loads it, a long-lived process (the MCP
 * server, a pipe over a large log) pays the module's warm-up once and then hashes natively. A
 * runtime without WebAssembly uses `node:crypto` throughout. Both give the same digest for the
 * same bytes (FIPS 180-4); test/base/sha256.test.ts checks them against each other.
 */
import { lazyRequire } from './lazy-require.js';

/** What a process hashes in WebAssembly before it turns to node:crypto for good (~8M instructions). */
export const WASM_BUDGET_BYTES = 64 * 1024;

/** Bytes hashed in WebAssembly so far; past the budget, node:crypto answers. */
let wasmBytes = 0;

const nodeCrypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

// Memory layout of the module: the state h0..h7, the round constants, the message schedule,
// then the padded message from DATA on.
const STATE = 0;
const KS = 32;
const WS = 288;
const DATA = 1024;
const PAGE = 65536;

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

// ---------------------------------------------------------------------------------------------
// The module, assembled from its instructions: one function `c(p, n)` that runs the compression
// function over the n 64-byte blocks at p, updating the state in memory.

const enum Op {
  Block = 0x02, Loop = 0x03, End = 0x0b, Br = 0x0c, BrIf = 0x0d,
  Get = 0x20, Set = 0x21, Tee = 0x22,
  Load = 0x28, Store = 0x36, Const = 0x41,
  Eqz = 0x45, LtU = 0x49,
  Add = 0x6a, Sub = 0x6b, And = 0x71, Or = 0x72, Xor = 0x73, Shl = 0x74, ShrU = 0x76,
}

/** Signed LEB128, as i32.const takes it. */
function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) { out.push(byte); return out; }
    out.push(byte | 0x80);
  }
}

/** Unsigned LEB128, for sizes and counts. */
function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

function compressBody(): number[] {
  // Locals: 0 p, 1 n (the parameters), 2..9 a..h, 10 i, 11 t1, 12 t2, 13 x, 14 y.
  const P = 0, N = 1, I = 10, T1 = 11, T2 = 12, X = 13, Y = 14;
  const reg = (k: number) => 2 + k; // a..h
  const b: number[] = [];
  const get = (l: number) => b.push(Op.Get, l);
  const set = (l: number) => b.push(Op.Set, l);
  const tee = (l: number) => b.push(Op.Tee, l);
  const c = (v: number) => b.push(Op.Const, ...sleb(v | 0));
  const op = (...o: number[]) => b.push(...o);
  const load = (offset: number) => b.push(Op.Load, 2, ...uleb(offset));
  const store = (offset: number) => b.push(Op.Store, 2, ...uleb(offset));
  /**
   * x rotr r1 ^ x rotr r2 ^ (x rotr|shr r3), with x in local `l`. A rotation is written as two
   * shifts: V8's baseline compiler calls out to C for i32.rotr, ~20 instructions a call.
   */
  const rotr = (l: number, r: number) => { get(l); c(r); op(Op.ShrU); get(l); c(32 - r); op(Op.Shl, Op.Or); };
  const sigma = (l: number, r1: number, r2: number, r3: number, shift: boolean) => {
    rotr(l, r1);
    rotr(l, r2); op(Op.Xor);
    if (shift) { get(l); c(r3); op(Op.ShrU); } else rotr(l, r3);
    op(Op.Xor);
  };
  /** The byte-swapped word on the stack (the message is big-endian). */
  const bswap = () => {
    set(X);
    get(X); c(24); op(Op.Shl);
    get(X); c(8); op(Op.Shl); c(0x00ff0000); op(Op.And, Op.Or);
    get(X); c(8); op(Op.ShrU); c(0x0000ff00); op(Op.And, Op.Or);
    get(X); c(24); op(Op.ShrU, Op.Or);
  };

  op(Op.Block, 0x40, Op.Loop, 0x40);
  // while (n) { … }
  get(N); op(Op.Eqz, Op.BrIf, 1);
  // W[0..15] = the block's words.
  c(0); set(I);
  op(Op.Loop, 0x40);
  get(I); get(P); get(I); op(Op.Add); load(0); bswap(); store(WS);
  get(I); c(4); op(Op.Add); tee(I); c(64); op(Op.LtU, Op.BrIf, 0);
  op(Op.End);
  // W[16..63] = W[i-16] + σ0(W[i-15]) + W[i-7] + σ1(W[i-2]).
  op(Op.Loop, 0x40);
  get(I); load(WS - 60); set(X);
  get(I); load(WS - 8); set(Y);
  get(I);
  get(I); load(WS - 64);
  sigma(X, 7, 18, 3, true); op(Op.Add);
  get(I); load(WS - 28); op(Op.Add);
  sigma(Y, 17, 19, 10, true); op(Op.Add);
  store(WS);
  get(I); c(4); op(Op.Add); tee(I); c(256); op(Op.LtU, Op.BrIf, 0);
  op(Op.End);
  // a..h = state.
  for (let k = 0; k < 8; k++) { c(0); load(STATE + 4 * k); set(reg(k)); }
  // 64 rounds, eight to a loop pass. No register moves: round j keeps role k (a = 0 … h = 7)
  // in register (k - j) mod 8, so each round writes only its new e (into d's register) and its
  // new a (into h's, free once t1 is known).
  c(0); set(I);
  op(Op.Loop, 0x40);
  for (let j = 0; j < 8; j++) {
    const [A, B, C, D, E, F, G, H] = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => reg((k - j + 8) % 8));
    // t1 = h + Σ1(e) + ch(e, f, g) + K[i] + W[i]
    get(H);
    sigma(E, 6, 11, 25, false); op(Op.Add);
    get(E); get(F); op(Op.And); get(E); c(-1); op(Op.Xor); get(G); op(Op.And); op(Op.Xor); op(Op.Add);
    get(I); load(KS + 4 * j); op(Op.Add);
    get(I); load(WS + 4 * j); op(Op.Add);
    set(T1);
    // t2 = Σ0(a) + maj(a, b, c)
    sigma(A, 2, 13, 22, false);
    get(A); get(B); op(Op.And); get(A); get(C); op(Op.And); op(Op.Xor); get(B); get(C); op(Op.And); op(Op.Xor); op(Op.Add);
    set(T2);
    get(D); get(T1); op(Op.Add); set(D);
    get(T1); get(T2); op(Op.Add); set(H);
  }
  get(I); c(32); op(Op.Add); tee(I); c(256); op(Op.LtU, Op.BrIf, 0);
  op(Op.End);
  // state += a..h
  for (let k = 0; k < 8; k++) { c(0); c(0); load(STATE + 4 * k); get(reg(k)); op(Op.Add); store(STATE + 4 * k); }
  // p += 64; n -= 1
  get(P); c(64); op(Op.Add); set(P);
  get(N); c(1); op(Op.Sub); set(N);
  op(Op.Br, 0, Op.End, Op.End, Op.End);
  return b;
}

/** The module's bytes, assembled from the instructions above (the build bundles them: scripts/sha256-wasm.mjs). */
export function wasmModuleBytes(): Uint8Array<ArrayBuffer> {
  const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
  const body = compressBody();
  // 13 i32 locals after the two parameters.
  const fn = [1, 13, 0x7f, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    // type 0: (i32, i32) -> ()
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    // memory 0: one page to start, grown as the input needs
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('c'), 0, 0, ...name('m'), 2, 0]),
    ...section(10, [1, ...uleb(fn.length), ...fn]),
  ]);
}

interface Sha256Module {
  memory: WebAssembly.Memory;
  compress: (p: number, n: number) => void;
}

let wasm: Sha256Module | null | undefined;

/** The bytes the build assembled; absent unbundled. */
declare const __OMNI_SHA256_WASM__: string | undefined;

function instance(): Sha256Module | null {
  if (wasm !== undefined) return wasm;
  try {
    const inst = new WebAssembly.Instance(new WebAssembly.Module(typeof __OMNI_SHA256_WASM__ === 'string' ? Buffer.from(__OMNI_SHA256_WASM__, 'base64') : wasmModuleBytes()), {});
    const memory = inst.exports.m as WebAssembly.Memory;
    new Int32Array(memory.buffer, KS, 64).set(K);
    wasm = { memory, compress: inst.exports.c as (p: number, n: number) => void };
  } catch {
    // No WebAssembly here (--jitless, a policy): node:crypto answers.
    wasm = null;
  }
  return wasm;
}

const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

/** Test seam: hash in WebAssembly again, as a fresh process does. */
export function resetHashBudget(): void {
  wasmBytes = 0;
}

/** The SHA-256 of `data`, 64 lower-case hex characters. */
export function sha256Hex(data: Uint8Array): string {
  const n = data.byteLength;
  const m = wasmBytes + n <= WASM_BUDGET_BYTES ? instance() : null;
  if (!m) {
    wasmBytes = WASM_BUDGET_BYTES;
    return nodeCrypto().createHash('sha256').update(data).digest('hex');
  }
  wasmBytes += n;
  // The message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number.
  const total = (n + 9 + 63) & ~63;
  const need = DATA + total;
  if (m.memory.buffer.byteLength < need) m.memory.grow(Math.ceil((need - m.memory.buffer.byteLength) / PAGE));
  const bytes = new Uint8Array(m.memory.buffer);
  bytes.set(data, DATA);
  bytes.fill(0, DATA + n, DATA + total);
  bytes[DATA + n] = 0x80;
  const view = new DataView(m.memory.buffer);
  view.setUint32(DATA + total - 8, Math.floor(n / 0x20000000));
  view.setUint32(DATA + total - 4, (n * 8) >>> 0);
  const state = new Int32Array(m.memory.buffer, STATE, 8);
  state.set(H0);
  m.compress(DATA, total / 64);
  let out = '';
  for (let k = 0; k < 8; k++) out += hex8(state[k]);
  return out;
}
