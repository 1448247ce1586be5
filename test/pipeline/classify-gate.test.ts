import t from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import { FAILURE, NOISE, mayMatter, noiseCandidates, stripColour } from '../../lib/pipeline/classify.js';

/*
 * classify's gates skip the pattern lists for lines that cannot match them. A gate may let
 * a line through wrongly, never stop one wrongly: a stopped failure line would be folded.
 */

function corpusLines(): string[] {
  const root = join(import.meta.dirname, '..', '..', 'corpus', 'cases');
  const out: string[] = [];
  for (const d of readdirSync(root)) {
    const f = join(root, d, 'output.txt');
    if (!existsSync(f)) continue;
    for (const raw of readFileSync(f, 'utf8').split('\n')) {
      const segs = raw.split('\r').filter(Boolean);
      out.push(stripAnsi(segs[segs.length - 1] ?? ''));
    }
  }
  return out;
}

/**
 * The one-regex gate mayMatter replaced, kept here as the record of what it let through.
 * It was not a superset of SIGNAL's case-insensitive verdict words (`success Saved
 * lockfile.`, `pass`): those lines stay `text`, as before, and are not this gate's to change.
 */
const MAY_MATTER_REGEX = /rr|RR|ail|AIL|atal|ATAL|anic|ANIC|xcept|Trace|not ok|[✗✕×✖●]|bort|egment|dumped|ndefined ref|nnot find|ot found|o such file|denied|xit|\*\*\*|arn|ARN|eprecat|EPRECAT|\d (?:pass|fail|test|suite|pend|skip|todo|total|pack|file|inser|delet)|Test|Suite|Snapshots|Time|Duration|Ran |Summary|Result|result|^\s*(?:#|ℹ)\s*(?:tests|suites|pass|cancelled|skipped|todo) \d|^\s*(?:at |E\s|ok|PASS|[Pp]assed|SUCCESS|BUILD|Done|Finished|Compiled|Built|added|removed|changed|updated|up to date|modified|deleted|new file|renamed|both modified)/;

function misses(line: string): string[] {
  const why: string[] = [];
  if (!mayMatter(line)) {
    // Every failure pattern, always (rule 2); the signal patterns as far as the old gate went.
    for (const re of FAILURE) if (re.test(line)) why.push(`mayMatter stops ${re}`);
    if (MAY_MATTER_REGEX.test(line)) why.push('mayMatter stops a line the regex gate let through');
  }
  if (mayMatter(line) && !MAY_MATTER_REGEX.test(line) ) why.push('mayMatter lets through a line the regex gate stopped (a tier would change)');
  const tries = noiseCandidates(line) ?? [];
  NOISE.forEach((re, k) => { if (re.test(line) && !tries.includes(k)) why.push(`noiseCandidates skips ${re}`); });
  return why;
}

t.test('on every corpus line, a line a pattern matches passes its gate', async (t) => {
  const lines = corpusLines();
  t.ok(lines.length > 10000, `${lines.length} corpus lines`);
  const bad = lines.flatMap((l) => misses(l).map((w) => `${JSON.stringify(l)}: ${w}`));
  t.same(bad.slice(0, 20), []);
  // The gates do skip: most lines of a log need no list at all.
  t.ok(lines.filter((l) => !mayMatter(l)).length > lines.length / 4, 'mayMatter stops many lines');
});

t.test('stems, glyphs and spaces in any arrangement: no pattern match is stopped', async (t) => {
  const bits = ['rr', 'RR', 'ail', 'AIL', 'atal', 'anic', 'ANIC', 'arn', 'ARN', 'xcept', 'xit', 'Trace', 'Test', 'Time', 'not ok', 'ndefined reference', 'cannot find', 'not found', 'No such file', 'denied', 'bort', 'egmentation', 'dumped', 'eprecated', 'DEPRECATED', '***', 'Suite', 'Snapshots', 'Summary', 'Duration', 'Ran ', 'Result', 'result', '3 passed', '1 failed', '3 x', '4 pack', 'success', 'pass', 'SUCCESS', 'BUILD', 'Compiled', '2 tests', '0 errors', 'error', 'Error:', 'FAIL', 'panic', 'Exception', 'warning', 'WARN', '# fail 3', 'ℹ tests 4', '# pass 2', 'at f (a.js:1:2)', 'E   x', 'ok', 'PASS', 'passed', 'Done', 'Built', 'modified:', 'up to date', '✗', '✕', '×', '✖', '●', '⠋', '█', '░', '#', '=', '>', '-', '.', '[', ']', '(', ')', '|', '%', '50%', '12.5 %', 'Downloading', 'Fetched', 'Get:1', 'Hit:2', 'remote: Counting', 'Receiving objects', 'npm ERR!', 'exit code 2', "thread 'main' panicked at", '*** [all] Error 2', 'src/a.ts:3:5: error', 'x', 'Z', '7', ' ', '  ', '\t', '\u00a0', '\u3000', ':', '=', '0'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 8 }), (parts) => {
    const line = parts.join('');
    const why = misses(line);
    if (why.length) throw new Error(`${JSON.stringify(line)}: ${why.join('; ')}`);
  }), { numRuns: 20000, seed: 12 });
  t.pass('no stopped match in 20000 lines');
});

t.test('stripColour gives what strip-ansi gives, colour or any other sequence', async (t) => {
  const bits = ['a', 'bc', ' ', '✓', '\x1b[31m', '\x1b[0m', '\x1b[m', '\x1b[1;32m', '\x1b[2K', '\x1b[?25l', '\x1b]0;title\x07', '\x1b]8;;http://x\x1b\\', '\x9b31m', '\x9d', '\x90', '\x1b', '[', 'm', ';', '3', '\x1bP', '\x1b\\', '\x07', '\x1b(B', '\x1b7'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 10 }), (parts) => {
    const line = parts.join('');
    return stripColour(line) === stripAnsi(line);
  }), { numRuns: 50000, seed: 3 });
  t.equal(stripColour('\x1b[32m✓\x1b[0m handles case 1 (\x1b[2m4 ms\x1b[0m)'), '✓ handles case 1 (4 ms)');
});
