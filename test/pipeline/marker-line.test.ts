/**
 * A marker always stands on a line of its own: after an input whose last line has no newline
 * (a killed process's `Killed`), a marker that follows it must not glue onto it, or the failure
 * line would no longer be a line of the output.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { distillBuffer } from '../../lib/pipeline/run.js';

const archive = () => {
  let n = 0;
  return { put: () => (n++).toString(16).padStart(16, '0') };
};

t.test('a marker after an unterminated last line starts a line of its own', async (t) => {
  const diff = readFileSync('corpus/cases/708-git-diff/output.txt');
  for (const tail of ['Killed', 'Segmentation fault (core dumped)']) {
    const input = Buffer.concat([diff, Buffer.from(tail)]);
    const r = await distillBuffer({ door: 'pipe', command: 'git diff', exitCode: 0, archive: archive() }, input);
    const lines = r.output.toString('utf8').split('\n');
    t.ok(lines.includes(tail), `"${tail}" is a whole line of the output`);
    for (const l of lines) if (l.includes('[omni: ')) t.match(l, /^\[omni: /, 'every marker starts its line');
  }
});
