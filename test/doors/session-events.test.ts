/**
 * lib/doors/session-events.ts on a real SQLite store: the one way the hook door and Pi write
 * session memory. (Replaces test/store/events.test.ts, whose fileTouch and commandSucceeded
 * handlers no door called.)
 */
import t from 'tap';
import fs from 'node:fs';
import { commandFailed, commandSucceeded, contextReset, fileRead, sessionEnded, sessionStarted } from '../../lib/doors/session-events.js';
import { openStore, type Store } from '../../lib/store/open.js';
import { hotFiles, lastError, lastSession } from '../../lib/store/memory.js';
import { tmpHome } from '../store/fixtures/helpers.js';

/** A getter that counts how often the event asked for the store. */
function getter(s: Store | null): { get: () => Store | null; asked: () => number } {
  let n = 0;
  return { get: () => (n++, s), asked: () => n };
}

t.test('a session fills session memory and SessionStart returns the block', async (t) => {
  const s = openStore({ home: tmpHome() });
  t.teardown(() => s.close());
  const g = () => s;
  t.equal(sessionStarted(g, { sessionId: 'S', main: true, cwd: '/p', source: 'startup' }), null, 'nothing to say yet');
  commandFailed(g, { cwd: '/p', command: 'npm test', error: 'Exit code 1\nTypeError: x is not a function' });
  commandFailed(g, { cwd: '/p', command: 'sleep 100', error: 'interrupted', interrupted: true });
  fileRead(g, { cwd: '/p', path: 'src/a.ts' });
  const block = sessionStarted(g, { sessionId: 'S2', main: false, cwd: '/p', source: 'compact' });
  t.match(block, /Last failing command: npm test/);
  t.match(block, /TypeError: x is not a function/);
  t.notMatch(block, /sleep 100/, 'an interrupt is not an error');
  t.match(block, /src\/a\.ts/);
  t.equal(hotFiles(s, '/p').length, 1);
  t.equal(lastError(s, '/p')?.command, 'npm test');
  commandSucceeded(g, { cwd: '/p', command: 'make' });
  t.equal(lastError(s, '/p')?.command, 'npm test', 'another command succeeding clears nothing');
  commandSucceeded(g, { cwd: '/p', command: 'npm test' });
  t.equal(lastError(s, '/p'), null, 'the same command succeeding cleared the error');
  sessionEnded(g, { sessionId: 'S', main: true, cwd: '/p', reason: 'other' });
  sessionEnded(g, { sessionId: 'S', main: false, reason: 'logout' });
  t.match(lastSession(s), { session: 'S', cwd: '/p', source: 'startup', reason: 'other' }, "a subagent's start and end write no session row");
});

t.test('an event with nothing to record never asks for the store', async (t) => {
  const g = getter(null);
  t.equal(sessionStarted(g.get, { sessionId: 'S', main: true, source: 'startup' }), null);
  sessionEnded(g.get, { main: true, reason: 'other' });
  sessionEnded(g.get, { sessionId: 'S', main: false });
  contextReset(g.get, undefined);
  commandSucceeded(g.get, { cwd: '/p' });
  fileRead(g.get, { path: 'a' });
  commandFailed(g.get, { cwd: '/p', error: 'x' });
  commandFailed(g.get, { cwd: '/p', command: 'make', error: 'x', interrupted: true });
  t.equal(g.asked(), 0);
  commandFailed(g.get, { cwd: '/p', command: 'make', error: 'x' });
  t.equal(g.asked(), 1, 'a real failure asks, and a store that is not there is no error');
});

t.test('a context reset forgets what the session was shown', async (t) => {
  const s = openStore({ home: tmpHome() });
  t.teardown(() => s.close());
  const reset = () => s.stmt('SELECT upto FROM resets WHERE session = ?').get('S');
  t.equal(reset(), undefined, 'no reset point before');
  contextReset(() => s, 'S');
  t.ok(reset(), 'a reset point after: what came before no longer counts as shown');
});

t.test('an event against a corrupt store throws for the door to log, it does not hang', async (t) => {
  const home = tmpHome();
  fs.writeFileSync(`${home}/omni.db`, 'not a database, not at all, nope'.repeat(200));
  let err: unknown;
  try {
    sessionStarted(() => openStore({ home }), { sessionId: 'S', main: true, cwd: '/p' });
  } catch (e) {
    err = e;
  }
  t.equal((err as { reason?: string })?.reason, 'corrupt');
});
