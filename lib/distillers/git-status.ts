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

/** The example's output, every row is the answer, and its hint lines are too few to pay for a marker: it comes back as it was. */
const UNCHANGED = `On branch main
Changes to be committed:
  (use "git restore --staged <file>..." to unstage)
	new file:   CHANGELOG.md
	renamed:    docs/notes_2.md -> docs/architecture.md
	modified:   src/services/service_1.ts
	deleted:    tests/suite_2.test.ts

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
	modified:   docs/notes_1.md
	modified:   src/cart.ts

Untracked files:
  (use "git add <file>..." to include in what will be committed)
	notes.tmp
	src/handlers/ok_status.ts

`;

export default {
  name: 'git-status',
  family: 'git',
  matches: (argv) => programOf(argv) === 'git' && subcommand(argv) === 'status',
  answer: true,
  lines: () => onlyWhere((l) => STATUS_HINT.test(textOf(l)), (h) => `${plural(h.length, 'git hint line')} hidden`),
  examples: [
    // corpus/cases/060-git-status, lines 1-19
    {
      command: 'git status',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
