import t from 'tap';
import { corpusCase, count, folded, keptAll, pipe } from './cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';
import { distill } from '../helpers/omni.js';

const OK = /^ok: \[[^\]]+\]( => \(item=.*\))?\s*$/;
const SKIP = /^skipping: \[[^\]]+\]( => \(item=.*\))?\s*$/;
const STAYS = /^(PLAY|TASK|RUNNING HANDLER) \[|^PLAY RECAP|^\S+\s+: ok=\d+|^changed: |^fatal: |^failed: |^FAILED - RETRYING|^\.\.\.ignoring|"msg": |^ok: \[[^\]]+\] => \{$/;

t.test('ansible-playbook is its own: `ansible-playbook x.yml`, through env and timeout too', async (t) => {
  for (const c of ['ansible-playbook site.yml', 'ansible-playbook -i hosts ops.yml --check', 'env ANSIBLE_NOCOWS=1 timeout 300 ansible-playbook site.yml']) {
    t.equal(routeCommand(c).distiller, 'ansible', c);
  }
  t.not(routeCommand('ansible all -m ping').distiller, 'ansible');
});

for (const name of ['1121-ansible-playbook-loop-rerun', '1161-ansible-playbook-two-hosts-rerun']) {
  t.test(`${name}: every run of ok/skipping lines folds, counted as read; banners, changes, ignored failures, messages and the recap stay`, async (t) => {
    const d = await pipe(corpusCase(name));
    t.equal(d.distiller, 'ansible');
    const shown = (re: RegExp) => count(d.out, re);
    t.equal(folded(d.markers, 'ok') + shown(OK), count(d.input, OK), 'ok lines: folded + shown = read');
    t.equal(folded(d.markers, 'skipping') + shown(SKIP), count(d.input, SKIP), 'skipping lines: folded + shown = read');
    t.ok(d.markers.length > 0, 'something folded');
    t.same(keptAll(d, STAYS), []);
    t.ok(d.out.length < d.input.length, `${d.input.length} -> ${d.out.length}`);
  });
}

t.test('a fatal, a failed item and a retry are failures: they stay in the middle of ok runs, each run folding on its own side', async (t) => {
  const lines = [
    'TASK [Probe] *******************************************************************',
    ...Array.from({ length: 8 }, (_, i) => `ok: [web1] => (item=tenant${String(i).padStart(2, '0')})`),
    'failed: [web1] => (item=tenant08) => {"ansible_loop_var": "item", "changed": false, "item": "tenant08", "msg": "boom"}',
    ...Array.from({ length: 8 }, (_, i) => `ok: [web1] => (item=tenant${i + 9})`),
    'FAILED - RETRYING: [web1]: Probe (3 retries left).',
    'fatal: [web2]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect", "unreachable": true}',
    'ERROR! the role \'x\' was not found',
    '',
  ];
  const r = await distill(Buffer.from(lines.join('\n')), { command: 'ansible-playbook ops.yml', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.equal(r.distiller, 'ansible');
  for (const l of lines.filter((x) => /^(failed|FAILED|fatal|ERROR|TASK)/.test(x))) t.ok(out.split('\n').includes(l), l);
  const notes = out.split('\n').filter((l) => l.startsWith('[omni: '));
  t.equal(notes.length, 2, out);
  t.ok(notes.every((n) => /^\[omni: 8 ok lines folded — omni retrieve [0-9a-f]{16}\]$/.test(n)), notes.join('\n'));
});

t.test('an `ok: [h] => {` that opens a message stays with its message', async (t) => {
  const input = ['TASK [Say it] ***', ...Array.from({ length: 6 }, (_, i) => `ok: [app-server-0${i}.example.internal]`), 'ok: [web9] => {', '    "msg": "6 sites on web9"', '}', ''].join('\n');
  const r = await distill(Buffer.from(input), { command: 'ansible-playbook ops.yml', door: 'pipe' });
  const out = r.output.toString('utf8');
  t.match(out, /\[omni: 6 ok lines folded — omni retrieve [0-9a-f]{16}\]\nok: \[web9\] => \{\n {4}"msg": "6 sites on web9"\n\}\n/);
});
