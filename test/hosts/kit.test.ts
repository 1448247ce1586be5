/**
 * lib/hosts/kit/: what every installer edits its host's config with (issue 19: one kit, not a
 * copy per host). The config file read and written once (no write when the bytes stay, a backup
 * of what was there, a missing file left missing on an uninstall), omni's `mcpServers` slot
 * (Claude Code's and Cursor's one code), the pre-hook filter, and the one status() template
 * whose shape `omni doctor --json` prints.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editSettings, readSettingsOrNull, type Obj } from '../../lib/hosts/kit/config-file.js';
import { hookSpecs, type OmniHookSpec } from '../../lib/hosts/kit/hook-entries.js';
import { mcpSlot, withMcpServer, withoutMcpServer } from '../../lib/hosts/kit/mcp-entry.js';
import { hostStatus } from '../../lib/hosts/kit/status.js';
import { detectedAt } from '../../lib/hosts/kit/detect.js';

const dir = () => mkdtempSync(join(tmpdir(), 'omni-kit-'));

t.test('editSettings writes only a change, keeps the indentation and a backup, and leaves a missing file missing when asked', async (t) => {
  const file = join(dir(), 'settings.json');
  const add = (j: Obj): Obj => ({ ...j, omni: true });
  t.same(editSettings(file, (j) => j, { onlyIfExists: true }), { file, changed: false, backup: null });
  t.notOk(existsSync(file), 'an uninstall does not create the file');
  writeFileSync(file, '{\n    "keep": 1\n}\n');
  const w = editSettings(file, add);
  t.equal(w.changed, true);
  t.equal(readFileSync(file, 'utf8'), '{\n    "keep": 1,\n    "omni": true\n}\n', 'four-space indentation kept');
  t.equal(readFileSync(w.backup!, 'utf8'), '{\n    "keep": 1\n}\n', 'the previous bytes kept');
  t.same(editSettings(file, add), { file, changed: false, backup: null }, 'the second edit writes nothing');
});

t.test('readSettingsOrNull is fail-open: a broken file is a reason, not a throw', async (t) => {
  const file = join(dir(), 'bad.json');
  writeFileSync(file, '[1,');
  const r = readSettingsOrNull(file);
  t.equal(r.json, null);
  t.match(r.error, /is not valid JSON/);
  writeFileSync(file, '[]');
  t.match(readSettingsOrNull(file).error, /does not hold a JSON object/);
  t.same(readSettingsOrNull(join(dir(), 'none.json')), { json: {} });
});

t.test("omni's mcpServers slot: free, omni's or foreign; a foreign server is never taken, an emptied map goes", async (t) => {
  const isOmni = (e: unknown) => (e as { command?: unknown })?.command === 'omni';
  const entry = { command: 'omni', args: ['mcp'] };
  t.equal(mcpSlot({}, 'omni', isOmni), 'free');
  const once = withMcpServer({ other: 1, mcpServers: { x: { command: 'x' } } }, 'omni', entry);
  t.same(once, { other: 1, mcpServers: { x: { command: 'x' }, omni: entry } }, 'foreign server and key kept, in place');
  t.same(withMcpServer(once, 'omni', entry), once, 'idempotent');
  t.equal(mcpSlot(once, 'omni', isOmni), 'omni');
  t.same(withoutMcpServer(once, 'omni', isOmni), { other: 1, mcpServers: { x: { command: 'x' } } });
  t.same(withoutMcpServer({ mcpServers: { omni: entry } }, 'omni', isOmni), {}, 'an emptied map goes');
  const foreign = { mcpServers: { omni: { command: 'someone-else' } } };
  t.equal(mcpSlot(foreign, 'omni', isOmni), 'foreign');
  t.equal(withoutMcpServer(foreign, 'omni', isOmni), foreign, 'a foreign server stays');
});

t.test('hookSpecs: the pre-tool rewrite only when asked, whatever the host names its event', async (t) => {
  const specs: OmniHookSpec[] = [
    { event: 'BeforeTool', flag: '--pre-hook' },
    { event: 'AfterTool', flag: '--post-hook' },
  ];
  t.same(hookSpecs(specs, true), specs);
  t.same(hookSpecs(specs, false).map((s) => s.event), ['AfterTool']);
});

t.test("the status template: detection, the host's reading, its tier and note, in doctor's field order; a reading that throws is one fail problem", async (t) => {
  const host = { id: 'pi' as const, name: 'Pi', detect: () => ({ detected: true, version: '1.2.3', where: '/bin/pi' }) };
  const ok = await hostStatus(host, {}, {
    read(s) {
      t.equal(s.where, '/bin/pi', 'the reading sees where the program is');
      s.wired = true;
      s.files.push('/f');
    },
    failed: { what: 'Pi check failed', fix: 'again' },
    settle: (s) => ({ tier: s.wired ? 'full' : 'memory', note: 'n' }),
  });
  t.same(Object.keys(ok), ['id', 'name', 'detected', 'version', 'wired', 'tier', 'files', 'problems', 'note']);
  t.same(ok, { id: 'pi', name: 'Pi', detected: true, version: '1.2.3', wired: true, tier: 'full', files: ['/f'], problems: [], note: 'n' });
  const broken = await hostStatus(host, {}, {
    async read() {
      throw new Error('boom');
    },
    failed: { what: 'Pi check failed', fix: 'again' },
    settle: () => ({ tier: 'memory', note: 'n', checks: [{ name: 'c', status: 'fail', detail: 'd' }] }),
  });
  t.same(broken.problems, [{ status: 'fail', what: 'Pi check failed: boom', fix: 'again' }]);
  t.same(broken.checks, [{ name: 'c', status: 'fail', detail: 'd' }], 'checks come last, when the host has them');
});

t.test('detectedAt: a found program with its version, or not detected', async (t) => {
  t.same(detectedAt(null, () => 'x'), { detected: false });
  t.same(detectedAt('/bin/x', () => null), { detected: true, version: undefined, where: '/bin/x' });
  t.same(detectedAt('/bin/x', () => '1.0.0'), { detected: true, version: '1.0.0', where: '/bin/x' });
});
