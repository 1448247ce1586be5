import t from 'tap';
import { openStore, type Store } from '../../lib/store/open.js';
import {
  sessionStartContext,
  SESSION_CONTEXT_MAX_CHARS,
  recordFileTouch,
  recordFailure,
  recordSuccess,
  lastError,
  remember,
  listFacts,
  forgetFact,
  setGoal,
  clearGoal,
  getGoal,
  recordSessionStart,
  recordSessionEnd,
  lastSession,
  hotFiles,
} from '../../lib/store/memory.js';
import { recordRun } from '../../lib/store/stats.js';
import { tmpHome } from './fixtures/helpers.js';

function fresh(t: { teardown(fn: () => void): void }): Store {
  const s = openStore({ home: tmpHome() });
  t.teardown(() => s.close());
  return s;
}

t.test('a project with nothing remembered gets no context block', async (t) => {
  const store = fresh(t);
  t.equal(sessionStartContext(store, { cwd: '/p', source: 'startup' }), null);
  remember(store, { cwd: '/other', text: 'belongs elsewhere' });
  t.equal(sessionStartContext(store, { cwd: '/p', source: 'startup' }), null);
});

t.test('the context block states goal, facts, last error and hot files', async (t) => {
  const store = fresh(t);
  setGoal(store, { cwd: '/p', text: 'make the parser stream' });
  remember(store, { cwd: '/p', text: 'tests run with npm test -- --grep' });
  recordFailure(store, { cwd: '/p', command: 'npm test', error: 'FAIL src/a.test.ts\nTypeError: x is not a function\n    at a.ts:3:1\n' });
  recordFileTouch(store, { cwd: '/p', path: 'src/a.ts', tool: 'Edit' });
  recordFileTouch(store, { cwd: '/p', path: 'src/a.ts', tool: 'Read' });
  recordFileTouch(store, { cwd: '/p', path: 'README.md', tool: 'Read' });
  const block = sessionStartContext(store, { cwd: '/p', source: 'compact' })!;
  t.match(block, 'Pinned goal: make the parser stream');
  t.match(block, '- tests run with npm test -- --grep');
  t.match(block, 'Last failing command: npm test');
  t.match(block, 'TypeError: x is not a function');
  t.match(block, /Most used files: src\/a\.ts \(1 reads, 1 edits\); README\.md \(1 reads\)/);
});

t.test('the context block is bounded however much is remembered', async (t) => {
  const store = fresh(t);
  setGoal(store, { cwd: '/p', text: 'g'.repeat(5000) });
  for (let i = 0; i < 50; i++) remember(store, { cwd: '/p', text: `fact ${i} ` + 'x'.repeat(400) });
  recordFailure(store, { cwd: '/p', command: 'make', error: 'e'.repeat(10000) });
  for (let i = 0; i < 50; i++) recordFileTouch(store, { cwd: '/p', path: `/very/long/path/${'d'.repeat(100)}/${i}.ts`, tool: 'Read' });
  const block = sessionStartContext(store, { cwd: '/p' })!;
  t.ok(block.length <= SESSION_CONTEXT_MAX_CHARS, `${block.length} chars`);
  t.ok(block.length > 1000, 'it is filled up to the bound');
});

t.test('the last error clears when the same command later succeeds, not when another does', async (t) => {
  const store = fresh(t);
  recordFailure(store, { cwd: '/p', command: 'npm test', error: 'boom' });
  recordSuccess(store, { cwd: '/p', command: 'npm run build' });
  t.equal(lastError(store, '/p')?.command, 'npm test');
  recordSuccess(store, { cwd: '/p', command: 'npm test' });
  t.equal(lastError(store, '/p'), null);
});

t.test('facts can be listed and forgotten by id; a goal set and cleared', async (t) => {
  const store = fresh(t);
  const a = remember(store, { cwd: '/p', text: 'first' });
  const b = remember(store, { cwd: '/p', text: 'second' });
  t.same(listFacts(store, '/p').map((f) => f.text), ['first', 'second']);
  t.equal(forgetFact(store, { cwd: '/p', id: a }), true);
  t.equal(forgetFact(store, { cwd: '/other', id: b }), false, 'another project cannot forget it');
  t.same(listFacts(store, '/p').map((f) => f.id), [b]);
  setGoal(store, { cwd: '/p', text: 'ship it' });
  t.equal(getGoal(store, '/p'), 'ship it');
  t.equal(clearGoal(store, '/p'), true);
  t.equal(getGoal(store, '/p'), null);
});

t.test('hot files rank edits above reads', async (t) => {
  const store = fresh(t);
  for (let i = 0; i < 3; i++) recordFileTouch(store, { cwd: '/p', path: 'read-thrice', tool: 'Read' });
  for (let i = 0; i < 2; i++) recordFileTouch(store, { cwd: '/p', path: 'edited-twice', tool: 'Write' });
  recordFileTouch(store, { cwd: '/p', path: 'ignored', tool: 'Bash' });
  t.same(hotFiles(store, '/p').map((f) => f.path), ['edited-twice', 'read-thrice']);
});

t.test('session end writes a summary row with the session\'s run totals', async (t) => {
  const store = fresh(t);
  recordSessionStart(store, { sessionId: 'S', cwd: '/p', source: 'startup', now: 1000 });
  recordRun(store, { at: 2000, door: 'hook', family: 'git', sessionId: 'S', bytesIn: 1000, bytesOut: 100, applied: true });
  recordRun(store, { at: 3000, door: 'hook', family: 'git', sessionId: 'S', bytesIn: 500, bytesOut: 50, applied: false });
  recordRun(store, { at: 3000, door: 'hook', family: 'git', sessionId: 'other', bytesIn: 7, bytesOut: 1, applied: true });
  // How long it takes is bench/store.mjs's to say, not a pass/fail here.
  recordSessionEnd(store, { sessionId: 'S', reason: 'other', now: 5000 });
  const row = lastSession(store)!;
  t.match(row, { session: 'S', cwd: '/p', source: 'startup', started: 1000, ended: 5000, reason: 'other', runs: 2, bytes_in: 1500, bytes_out: 600 });
});
