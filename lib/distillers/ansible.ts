import type { DistillerSpec } from '../kit/spec.js';
import type { Hit, Recogniser } from './hide.js';
import { textOf } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * ansible-playbook's default callback. A task's `ok:` and `skipping:` lines, per host and per
 * loop item (`ok: [web1] => (item=shop)`), say that nothing happened there: they are the
 * passing lines of a run and fold, a run of them behind one marker that counts them. What
 * happened stays: `changed:`, `fatal:`/`failed:` with their JSON, `FAILED - RETRYING`,
 * `...ignoring`, warnings, `ERROR!`, every `ok: [h] => {` that opens a message, the PLAY and
 * TASK banners (which task ran; their asterisks are the corpus's must-keep bytes), RUNNING
 * HANDLER and the PLAY RECAP with its host rows. Nothing else is touched (`others: 'keep'`).
 */
const OK_LINE = /^ok: \[[^\]]+\](?: => \(item=.*\))?\s*$/;
const SKIP_LINE = /^skipping: \[[^\]]+\](?: => \(item=.*\))?\s*$/;

const OK: Hit = { noun: 'ok' };
const SKIPPING: Hit = { noun: 'skipping' };

/** "30 ok, 12 skipping lines folded": the counts as read. */
function countsOf(ok: number, skipping: number): string {
  const parts = [ok ? `${ok} ok` : '', skipping ? `${skipping} skipping` : ''].filter(Boolean).join(', ');
  return `${parts} ${ok + skipping === 1 ? 'line' : 'lines'} folded`;
}

function recogniser(): Recogniser {
  return {
    see: (_l, p) => (OK_LINE.test(p) ? OK : SKIP_LINE.test(p) ? SKIPPING : null),
    note: (hidden) => {
      let ok = 0;
      for (const l of hidden) if (OK_LINE.test(textOf(l))) ok++;
      return countsOf(ok, hidden.length - ok);
    },
    others: 'keep',
  };
}

export default {
  name: 'ansible',
  family: 'infra',
  producers: ['ansible-playbook'],
  rewrite: true,
  detect: leadTest(/^PLAY RECAP \*{3,}\s*$/),
  lines: recogniser,
  failures: [
    /^fatal: \[[^\]]+\]: (FAILED|UNREACHABLE)! /,
    /^failed: \[[^\]]+\]/,
    /^FAILED - RETRYING: /,
    /^ERROR! /,
  ],
  examples: [
    // corpus/cases/1161-ansible-playbook-two-hosts-rerun, lines 1-31
    {
      command: 'ansible-playbook ops.yml',
      input: `
PLAY [Lay out the sites] *******************************************************

TASK [Make a directory per site] ***********************************************
ok: [web1] => (item=shop)
ok: [web2] => (item=shop)
ok: [web1] => (item=blog)
ok: [web2] => (item=blog)
ok: [web1] => (item=docs)
ok: [web2] => (item=docs)
ok: [web1] => (item=admin)
ok: [web1] => (item=api)
ok: [web2] => (item=admin)
ok: [web1] => (item=status)
ok: [web2] => (item=api)
ok: [web2] => (item=status)

TASK [Write the TLS stanza where TLS is on] ************************************
ok: [web2] => (item=shop)
ok: [web1] => (item=shop)
skipping: [web2] => (item=blog) 
skipping: [web1] => (item=blog) 
skipping: [web1] => (item=docs) 
skipping: [web2] => (item=docs) 
ok: [web2] => (item=admin)
ok: [web1] => (item=admin)
ok: [web1] => (item=api)
skipping: [web1] => (item=status) 
ok: [web2] => (item=api)
skipping: [web2] => (item=status) 

`,
      output: `
PLAY [Lay out the sites] *******************************************************

TASK [Make a directory per site] ***********************************************
[omni: 12 ok lines folded — omni retrieve <handle>]

TASK [Write the TLS stanza where TLS is on] ************************************
[omni: 6 ok, 6 skipping lines folded — omni retrieve <handle>]

`,
    },
  ],
} satisfies DistillerSpec;
