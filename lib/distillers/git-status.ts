import type { DistillerSpec } from '../kit/spec.js';
import { onlyWhere } from './hide.js';
import { plural, programOf, subcommand, textOf } from './shared.js';

/*
 * git status is an enumeration: every row stays. Each run of `(use "git …")` hint lines gets
 * its own marker where it stood, and only when the run pays for it (one or two hint lines
 * mostly do not, so they stay): a marker never stands for lines from several places, and the
 * rows between them are never moved. Never rewritten by the pre-hook: there is little to fold.
 */
const STATUS_HINT = /^\s+\((use "git [^"]+"|commit or discard the untracked or modified content in submodules)[^)]*\)$/;

export default {
  name: 'git-status',
  family: 'git',
  matches: (argv) => programOf(argv) === 'git' && subcommand(argv) === 'status',
  answer: true,
  lines: () => onlyWhere((l) => STATUS_HINT.test(textOf(l)), (h) => `${plural(h.length, 'git hint line')} hidden`),
  examples: [],
} satisfies DistillerSpec;
