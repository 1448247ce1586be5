import t from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { maySecret } from '../../lib/pipeline/redact.js';

/** The flat pre-check maySecret replaced, kept as the record of what it let through. */
const FLAT = /pass|pwd|token|secret|key|bearer|auth|credential|BEGIN|ghp_|gho_|ghs_|github_pat_|sk-|xox[abprs]-|:\/\/[^\s/@:]+:[^\s/@]+@/i;

t.test('redact pre-check: says what the flat list said on every corpus line', async (t) => {
  const root = join(import.meta.dirname, '..', '..', 'corpus', 'cases');
  let n = 0;
  let yes = 0;
  const bad: string[] = [];
  for (const d of readdirSync(root)) {
    const f = join(root, d, 'output.txt');
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      n++;
      const want = FLAT.test(line);
      if (want) yes++;
      if (maySecret(line) !== want) bad.push(line);
    }
  }
  t.ok(n > 10000 && yes > 100, `${n} lines, ${yes} pass the check`);
  t.same(bad.slice(0, 10), []);
});

t.test('redact pre-check: the same on fuzzed words, any case', async (t) => {
  const bits = ['pass', 'PASS', 'Pwd', 'pw', 'token', 'TOKEN', 'secret', 'Secre', 'key', 'KEY', 'ke', 'bearer', 'Bearer', 'BEGIN', 'begin', 'beg', 'auth', 'AUTH', 'credential', 'ghp_', 'gho_', 'ghs_', 'gh_', 'github_pat_', 'GITHUB_PAT_', 'sk-', 'SK-', 'xoxb-', 'xoxz-', 'XOXP-', 'https://', 'u:p@', 'a:b', '@', ':', '/', ' ', 'x', '=', '_', '-', 'é', 'ſ', 'K'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 8 }), (parts) => {
    const line = parts.join('');
    return maySecret(line) === FLAT.test(line);
  }), { numRuns: 20000, seed: 7 });
  t.pass('agree on 20000 lines');
});
