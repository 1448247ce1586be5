/**
 * classify's failure vocabulary beyond "error" and "failed": a process killed, out of memory,
 * a merge conflict, a rejected push, a refused or timed-out connection, an unhandled
 * rejection, a crash. Each is a failure line (no built-in distiller folds it, no rule hides
 * it); the look-alikes beside them are not (the corpus's savings do not move).
 */
import t from 'tap';
import { classifyLine } from '../../lib/pipeline/classify.js';
import { FAILURE_VOCABULARY, NOT_FAILURES } from '../rules/vocabulary.js';

t.test('each line of the failure vocabulary is a failure', async (t) => {
  for (const line of FAILURE_VOCABULARY) t.equal(classifyLine(line, null), 'failure', line);
});

t.test('the look-alikes are not', async (t) => {
  for (const line of NOT_FAILURES) t.not(classifyLine(line, null), 'failure', line);
});
