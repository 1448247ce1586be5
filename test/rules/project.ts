/** A temp project with `.omni/rules.json` and its own omni home, for the rules tests. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'rules');
/** Real `tar -cvf out.tar src` output (test/fixtures/rules/capture.sh). */
export const TAR_VERBOSE = readFileSync(join(FIXTURES, 'tar-verbose.txt'), 'utf8');
/** Real `tar -cvf out.tar src missing.txt` output: the members, then tar's two error lines. */
export const TAR_MISSING = readFileSync(join(FIXTURES, 'tar-missing.txt'), 'utf8');
export const TAR_COMMAND = 'tar -cvf out.tar src';

/** Hides tar -v's member lines (bare paths); keeps config files. */
export const TAR_RULE = {
  name: 'tar-members',
  match: { program: 'tar' },
  hide: ['^[\\w.-]+(/[\\w.-]+)*/?$'],
  keep: ['\\.conf$'],
  unit: 'member',
};

export interface Project { dir: string; home: string; rulesFile: string }

export function project(rules: unknown = { rules: [TAR_RULE] }): Project {
  const root = mkdtempSync(join(tmpdir(), 'omni-rules-'));
  const dir = join(root, 'project');
  const home = join(root, 'omni-home');
  mkdirSync(join(dir, '.omni'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const rulesFile = join(dir, '.omni', 'rules.json');
  writeFileSync(rulesFile, typeof rules === 'string' ? rules : JSON.stringify(rules, null, 2) + '\n');
  return { dir, home, rulesFile };
}

/** The tree capture.sh archives, so `omni exec tar …` runs the real tool on it. */
export function tarTree(dir: string): void {
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  for (let i = 1; i <= 12; i++) {
    writeFileSync(join(dir, 'src', `file${i}.txt`), `${i}\n`);
    writeFileSync(join(dir, 'src', 'lib', `mod${i}.js`), 'x\n');
  }
  writeFileSync(join(dir, 'src', 'app.conf'), 'c\n');
}
