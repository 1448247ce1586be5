import t from 'tap';
import { storeEventHandlers as H } from '../../lib/store/events.js';
import { openStore } from '../../lib/store/open.js';
import { lastError, lastSession, hotFiles } from '../../lib/store/memory.js';
import { tmpHome } from './fixtures/helpers.js';

t.test('the hook door\'s session events fill session memory and SessionStart returns the block', async (t) => {
  const home = tmpHome();
  const env = { OMNI_HOME: home };
  t.equal(await H.sessionStart(env, { sessionId: 'S', cwd: '/p', source: 'startup' }), undefined, 'nothing to say yet');
  await H.recordFailure(env, { sessionId: 'S', cwd: '/p', command: 'npm test', errorHead: 'Exit code 1\nTypeError: x is not a function' });
  await H.recordFailure(env, { sessionId: 'S', cwd: '/p', command: 'sleep 100', errorHead: 'interrupted', interrupted: true });
  await H.fileTouch(env, { cwd: '/p', path: 'src/a.ts', tool: 'Edit' });
  const block = await H.sessionStart(env, { sessionId: 'S', cwd: '/p', source: 'compact' });
  t.match(block, /Last failing command: npm test/);
  t.match(block, /TypeError: x is not a function/);
  t.match(block, /src\/a\.ts \(1 edits\)/);
  await H.commandSucceeded(env, { cwd: '/p', command: 'npm test' });
  await H.sessionEnd(env, { sessionId: 'S', cwd: '/p', reason: 'other' });
  await H.sessionEnd(env, { sessionId: 'S', agentId: 'sub', reason: 'other' });
  const s = openStore({ home });
  t.teardown(() => s.close());
  t.equal(lastError(s, '/p'), null, 'the same command succeeding cleared the error');
  t.match(lastSession(s), { session: 'S', cwd: '/p', source: 'startup', reason: 'other' });
  t.equal(hotFiles(s, '/p').length, 1);
});

t.test('a handler against a corrupt store throws for the door to log, it does not hang', async (t) => {
  const home = tmpHome();
  const fs = await import('node:fs');
  fs.writeFileSync(`${home}/omni.db`, 'not a database, not at all, nope'.repeat(200));
  let err: unknown;
  try {
    await H.sessionStart({ OMNI_HOME: home }, { sessionId: 'S', cwd: '/p' });
  } catch (e) {
    err = e;
  }
  t.equal((err as { reason?: string })?.reason, 'corrupt');
});
