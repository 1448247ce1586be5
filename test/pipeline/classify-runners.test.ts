import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyLine } from '../../lib/pipeline/classify.js';
import { corpusCase } from '../distillers/cases.js';

/** The tier classify gives a line that really occurs in a corpus case's output. */
function tierIn(caseName: string, line: string): string {
  const c = corpusCase(caseName);
  const lines = readFileSync(join(c.dir, 'output.txt'), 'utf8').split('\n');
  const i = lines.indexOf(line);
  if (i < 0) throw new Error(`${JSON.stringify(line)} is not a line of ${caseName}`);
  return classifyLine(line, i > 0 ? lines[i - 1] : null);
}

t.test('a test runner counter with failures is a failure line', async (t) => {
  t.equal(tierIn('node-test-tap-fail', '# fail 3'), 'failure');
  t.equal(tierIn('node-test-spec-fail', 'ℹ fail 3'), 'failure');
  t.equal(tierIn('bun-test-fail', ' 2 fail'), 'failure');
});

t.test('a green counter ("fail 0") is a verdict, not a failure', async (t) => {
  t.equal(tierIn('node-test-default-pass', '# fail 0'), 'signal');
  t.equal(tierIn('node-test-spec-pass', 'ℹ fail 0'), 'signal');
  t.equal(tierIn('bun-test-pass', ' 0 fail'), 'signal');
});

t.test('the other counters of a test run are verdict lines', async (t) => {
  t.equal(tierIn('node-test-default-pass', '# tests 400'), 'signal');
  t.equal(tierIn('node-test-default-pass', '# pass 400'), 'signal');
  t.equal(tierIn('node-test-spec-pass', 'ℹ suites 8'), 'signal');
  t.equal(tierIn('bun-test-pass', ' 500 pass'), 'signal');
});
