// sameTemplate (lib/distillers/shared.ts) compares two lines position by position, and at
// every word start asks whether a variable token (a uuid, a number with its unit) starts
// there. On a long run of progress lines those questions are most of a hook call's regex
// calls: one is asked only where a char says it may be answered yes (a uuid's '-' eight
// chars on, a unit's first letter after a number). The answers stay the same.
import t from 'tap';
import { sameTemplate } from '../../lib/distillers/shared.js';

/** Runs `fn` and counts the regex calls made through RegExp.prototype.test and exec. */
function regexCalls(fn: () => void): number {
  const test = RegExp.prototype.test;
  const exec = RegExp.prototype.exec;
  let n = 0;
  RegExp.prototype.test = function (this: RegExp, s: string) { n++; return test.call(this, s); };
  RegExp.prototype.exec = function (this: RegExp, s: string) { n++; return exec.call(this, s); };
  try {
    fn();
  } finally {
    RegExp.prototype.test = test;
    RegExp.prototype.exec = exec;
  }
  return n;
}

t.test('progress lines compare without a regex call', async (t) => {
  let same = false;
  const n = regexCalls(() => { same = sameTemplate('Downloading package-1 1%', 'Downloading package-7 42%'); });
  t.equal(same, true);
  t.equal(n, 0, 'no position there can start a uuid or a unit');
});

t.test('uuids and units are still variable tokens', async (t) => {
  t.ok(sameTemplate('run 0b6f1d2e-4c2a-4b7f-9a3e-1f2d3c4b5a69 done', 'run 9f8e7d6c-5b4a-4392-8877-665544332211 done'));
  t.ok(sameTemplate('fetched 250K in 3ms', 'fetched 4.24MiB in 1.2s'));
  t.ok(sameTemplate('took 2min', 'took 15h'));
  t.ok(sameTemplate('size 12µs', 'size 4ns'));
  t.notOk(sameTemplate('took 2min', 'took 2 min'));
  t.notOk(sameTemplate('fetched 250Kx', 'fetched 250'));
  t.notOk(sameTemplate('id 0b6f1d2e-4c2a-4b7f-9a3e-1f2d3c4b5a69x', 'id 9f8e7d6c-5b4a-4392-8877-665544332211'));
});
