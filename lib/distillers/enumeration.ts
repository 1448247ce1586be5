import type { DistillerSpec } from '../kit/spec.js';
import { NOTHING } from './hide.js';
import { programOf, subcommand } from './shared.js';

/*
 * Enumerations are the answer: every row of `ls`, `find`, `tree`, `ps`, `env`, `kubectl
 * get`, `docker ps` survives. The distiller recognises no noise in them, so nothing is
 * folded (a generic fold would take repeated rows for noise); render still prints the
 * text without ANSI colour, and redaction still masks secret values (`env`).
 * `git status` is the git distiller's.
 */
const LISTERS = new Set(['ls', 'll', 'dir', 'find', 'fd', 'fdfind', 'tree', 'ps', 'env', 'printenv', 'du', 'df', 'lsof', 'ss', 'netstat', 'pip-list', 'lsblk', 'mount', 'set', 'export', 'declare', 'locate']);
const SUBS: Record<string, Set<string>> = {
  kubectl: new Set(['get', 'top', 'api-resources', 'config']),
  docker: new Set(['ps', 'images', 'image', 'container', 'volume', 'network', 'stats']),
  podman: new Set(['ps', 'images']),
  npm: new Set(['ls', 'list', 'outdated']),
  pip: new Set(['list', 'freeze']),
  pip3: new Set(['list', 'freeze']),
  helm: new Set(['list', 'ls']),
};

function matches(argv: string[]): boolean {
  const p = programOf(argv);
  if (LISTERS.has(p)) return true;
  const subs = SUBS[p];
  return !!subs && subs.has(subcommand(argv));
}

/** The example's output, every row is the answer: it comes back as it was. */
const UNCHANGED = `total 572
drwxr-xr-x 133 root root  4096 Nov 29 22:38 .
drwxr-xr-x   3 root root  4096 Nov 29 22:38 ..
drwxr-xr-x   2 root root  4096 Nov 29 22:38 .bin
-rw-r--r--   1 root root 20652 Nov 29 22:38 .yarn-integrity
drwxr-xr-x   2 root root  4096 Nov 29 22:38 accepts
drwxr-xr-x   5 root root  4096 Nov 29 22:38 ajv
drwxr-xr-x   2 root root  4096 Nov 29 22:38 ansi-styles
drwxr-xr-x   2 root root  4096 Nov 29 22:38 array-flatten
drwxr-xr-x   3 root root  4096 Nov 29 22:38 asn1
drwxr-xr-x   2 root root  4096 Nov 29 22:38 assert-plus
drwxr-xr-x   4 root root  4096 Nov 29 22:38 async-function
`;

export default {
  name: 'enumeration',
  family: 'enumeration',
  matches,
  answer: true,
  lines: () => NOTHING,
  examples: [
    // corpus/cases/731-ls-la, lines 1-12
    {
      command: 'ls -la node_modules',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
