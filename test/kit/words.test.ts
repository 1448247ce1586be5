import t from 'tap';
import fc from 'fast-check';
import { letterTrie, MAY_STATE_FAILURE, saysFailureOrWarning } from '../../lib/kit/words.js';
import { disagreements } from '../helpers/corpus.js';

// saysFailureOrWarning asks one trie-shaped regex (letterTrie) what the flat lists say: it must
// answer as they do on every line.
const WARNING_WORD = /warn|deprecat/i;
const flat = (s: string) => MAY_STATE_FAILURE.test(s) || WARNING_WORD.test(s);

t.test('letterTrie groups alternatives by their first letter, and leaves the rest as they are', async (t) => {
  t.equal(letterTrie('error|exception|fail'), 'e(?:rror|xception)|f(?:ail)');
  t.equal(letterTrie('\\boom|out of memory'), 'o(?:ut of memory)|\\boom');
  t.equal(letterTrie('e?rror|(a|b)c|[xy]z|k'), 'e?rror|(a|b)c|[xy]z|k', 'quantified, grouped, classed or one letter: kept whole');
  t.equal(letterTrie('Error|eXit'), 'e(?:rror|Xit)', 'case-insensitive: E and e share a branch');
  t.equal(letterTrie('a\\|b|ac'), 'a(?:\\|b|c)', 'an escaped bar does not split');
  t.equal(letterTrie('a[|]b|ac'), 'a(?:[|]b|c)', 'nor does one in a class');
});

t.test('saysFailureOrWarning says what the flat lists say, on every corpus line', async (t) => {
  const { lines, yes, bad } = disagreements(saysFailureOrWarning, flat);
  t.ok(lines > 10000 && yes > 500, `${lines} lines, ${yes} hold a word`);
  t.same(bad, []);
});

t.test('saysFailureOrWarning says what the flat lists say, on fuzzed words in any case', async (t) => {
  const bits = ['error', 'ERROR', 'err', 'exception', 'fail', 'FAIL', 'fatal', 'panic', 'traceback', 'denied', 'cannot', "can't", 'unable', 'abort', 'segfault', 'segmentation', 'core dump', 'not found', 'no such', 'killed', 'oom', 'OOM', 'xoom', 'out of memory', 'refused', 'rejected', 'conflict', 'timed out', 'timeout', 'timeouts', 'time out', 'deadline exceeded', 'unhandled', 'unreachable', 'ECONNREFUSED', 'econnreset', 'ETIMEDOUT', 'EACCES', 'ENOENT', 'EPIPE', 'xEPIPE', 'signal 9', 'signal x', 'sigkill', 'SIGTERM', 'sigsegv', 'warn', 'WARNING', 'deprecat', 'Deprecated', 'a', 'e', 'E', 's', 't', 'o', '_', ' ', '-', '9', ':', 'é'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 6 }), (parts) => {
    const line = parts.join('');
    return saysFailureOrWarning(line) === flat(line);
  }), { numRuns: 30000, seed: 5 });
  t.pass('agree on 30000 lines');
});
