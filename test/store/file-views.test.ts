/**
 * The store of what each reader was shown of each file (lib/store/file-views.ts, migration 3):
 * per reader and path, newest first, with the content from the archive; forgotten with the
 * session's ledger; pruned by age.
 */
import t from 'tap';
import { openStore } from '../../lib/store/open.js';
import { putBlob } from '../../lib/store/archive.js';
import { loadFileViews, recordFileView, FILE_VIEWS_CAP } from '../../lib/store/file-views.js';
import { forgetSession } from '../../lib/store/ledger.js';
import { prune, WORKING_RETENTION_MS } from '../../lib/store/prune.js';
import { tmpHome } from './fixtures/helpers.js';

const view = (store: ReturnType<typeof openStore>, content: string, o: { session?: string; agent?: string; path?: string; at?: number; kind?: 'shown' | 'marker' } = {}) =>
  recordFileView(store, {
    sessionId: o.session ?? 's1',
    agentId: o.agent,
    path: o.path ?? '/p/a.py',
    at: o.at ?? 1000,
    startLine: 1,
    lines: content.split('\n').length,
    totalLines: content.split('\n').length,
    handle: putBlob(store, Buffer.from(content)),
    kind: o.kind ?? 'shown',
  });

t.test('views come back per reader and path, newest first, with their content', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  view(store, 'one\n', { at: 1 });
  view(store, 'two\n', { at: 2, kind: 'marker' });
  view(store, 'other agent\n', { agent: 'agent-1' });
  view(store, 'other path\n', { path: '/p/b.py' });
  view(store, 'other session\n', { session: 's2' });
  t.same(loadFileViews(store, { sessionId: 's1', path: '/p/a.py' }).map((v) => [v.content, v.kind, v.at]), [['two\n', 'marker', 2], ['one\n', 'shown', 1]]);
  t.same(loadFileViews(store, { sessionId: 's1', agentId: 'agent-1', path: '/p/a.py' }).map((v) => v.content), ['other agent\n'], 'a subagent has views of its own');
  t.same(loadFileViews(store, { sessionId: 's1', agentId: 'main', path: '/p/a.py' }).length, 2, '"main" is the main agent');
  for (let i = 0; i < FILE_VIEWS_CAP + 3; i++) view(store, `v${i}\n`, { path: '/p/c.py' });
  t.equal(loadFileViews(store, { sessionId: 's1', path: '/p/c.py' }).length, FILE_VIEWS_CAP, 'at most the newest few');
});

t.test('a view whose content left the archive ends the list', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  view(store, 'old\n', { at: 1 });
  view(store, 'gone\n', { at: 2 });
  view(store, 'new\n', { at: 3 });
  store.db.prepare('DELETE FROM blobs WHERE data = ?').run(Buffer.from('gone\n'));
  t.same(loadFileViews(store, { sessionId: 's1', path: '/p/a.py' }).map((v) => v.content), ['new\n'], 'nothing older than a lost view is trusted');
});

t.test('compaction forgets the session\'s views; age prunes them', async (t) => {
  const store = openStore({ home: tmpHome() });
  t.teardown(() => store.close());
  view(store, 'a\n');
  view(store, 'a\n', { session: 's2' });
  forgetSession(store, 's1');
  t.same(loadFileViews(store, { sessionId: 's1', path: '/p/a.py' }), [], 'the session forgot');
  t.equal(loadFileViews(store, { sessionId: 's2', path: '/p/a.py' }).length, 1, 'another session did not');
  const now = 10 * WORKING_RETENTION_MS;
  view(store, 'b\n', { session: 's3', at: now - WORKING_RETENTION_MS - 1 });
  view(store, 'c\n', { session: 's3', at: now - 1000 });
  prune(store, { now, budgetMs: 1000 });
  t.same((store.db.prepare("SELECT at FROM file_views WHERE session = 's3'").all() as { at: number }[]).map((r) => r.at), [now - 1000], 'older than the working retention: gone');
});
