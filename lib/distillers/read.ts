import type { DistillerSpec } from '../kit/spec.js';
import { NOTHING } from './hide.js';
import { programOf } from './shared.js';

/*
 * Reads (`cat`, `head`, `tail`, `sed -n`, `bat`): a file's contents are the answer, so they
 * pass unchanged (render still prints them without ANSI colour). A log file's read is logs.ts's
 * (the registry's COLLISIONS say so).
 */
const READERS = new Set(['cat', 'head', 'tail', 'bat', 'batcat', 'less', 'more', 'nl']);

export default {
  name: 'read',
  family: 'read',
  matches: (argv) => READERS.has(programOf(argv)) || (programOf(argv) === 'sed' && argv.includes('-n')),
  answer: true,
  lines: () => NOTHING,
  examples: [],
} satisfies DistillerSpec;
