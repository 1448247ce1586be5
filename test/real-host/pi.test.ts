/**
 * Proof with the real host: the pinned Pi CLI (@mariozechner/pi-coding-agent 0.73.1) runs
 * headless (`pi -p`) against a loopback stand-in for the OpenAI Chat Completions API, with
 * omni's extension loaded by `-e`, in a temporary HOME. Every assertion is on what Pi sent to
 * the model in its next request, against a baseline run of the same script without omni.
 *
 * The extension is loaded twice over: as TypeScript (lib/pi-extension.ts, Pi's jiti) and, when
 * it has been built (`node scripts/build-pi.mjs`), as the bundle dist/omni-pi.cjs users load.
 *
 * Run: npx tap --disable-coverage test/real-host/pi.test.ts
 */
import t from 'tap';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canRunPi, piBin, ROOT, runPi, type PiRun } from './pi-harness.js';
import { systemPromptOf, toolMessageFor, type PiStep } from './pi-standin.js';
import { openStore, getBlob, lastError, setGoal } from '../../lib/store/index.js';
import { needs } from '../helpers/needs.js';

const NOISE = (n: number, last: string) =>
  `for i in $(seq 1 ${n}); do echo "Downloading https://registry.example.org/package-$((i%3)).tgz 50%"; done; echo "${last}"`;

const DATA = JSON.stringify(Array.from({ length: 120 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'] })), null, 2) + '\n';

const NOTES = Array.from({ length: 60 }, (_, i) => `config line ${i + 1}: key_${i + 1} = value ${(i * 7919) % 1000}`).join('\n') + '\nthe last line\n';

const FILES = { 'data.json': DATA, 'notes.txt': NOTES };

const SCRIPT: PiStep[] = [
  { bash: NOISE(300, 'added 300 packages in 3s') }, // 0: noisy success
  { bash: 'ls /nonexistent' }, // 1: a failure
  { bash: NOISE(300, 'npm error code E404') + '; exit 3' }, // 2: a noisy failure
  { bash: NOISE(3000, 'added 3000 packages in 9s') }, // 3: over Pi's 50 KB cut
  { bash: 'cat data.json' }, // 4: structured output
  { bash: 'cat notes.txt' }, // 5: text omni recognises nothing in
  { bash: 'cat notes.txt' }, // 6: the same again, in the same session
  { parallel: [NOISE(200, 'first download done'), NOISE(200, 'second download done')] }, // 7: two calls in one message
  { text: 'All steps done.' },
];

const GOAL = 'ship the Pi extension with a real-host proof';
const TS_ENTRY = join(ROOT, 'lib/pi-extension.ts');
const BUNDLE = join(ROOT, 'dist/omni-pi.cjs');

const bytes = (s: string | undefined) => Buffer.byteLength(s ?? '', 'utf8');
const HANDLE = /\[omni: [^\]\n]* — omni retrieve [0-9a-f]{16}\]/;

/** The model's text with every marker replaced by the bytes its handle retrieves. */
function expand(text: string, omniHome: string): string {
  const s = openStore({ home: omniHome });
  try {
    return text.replace(/\[omni: [^\]\n]* — omni retrieve ([0-9a-f]{16})\]\n?/g, (_m, h: string) => {
      const b = getBlob(s, h);
      if (!b) throw new Error(`handle ${h} is not in the archive`);
      return b.toString('utf8');
    });
  } finally {
    s.close();
  }
}

function seen(run: PiRun, step: number, k = 0): string {
  const m = toolMessageFor(run.requests, run.callId(step, k));
  if (!m) throw new Error(`no tool message for step ${step} (requests: ${run.requests.length}; stderr: ${run.stderr.slice(0, 400)})`);
  return m.text;
}

const seedGoal = ({ proj, omniHome }: { proj: string; omniHome: string }) => {
  const s = openStore({ home: omniHome });
  try {
    setGoal(s, { cwd: proj, text: GOAL });
  } finally {
    s.close();
  }
};

t.test('the real Pi CLI with omni\'s extension', async (t) => {
  if (!needs(t, Boolean(canRunPi()), `needs ${piBin()} (node scripts/host-clis.mjs installs the pinned Pi)`)) return;
  // The TypeScript entry by `-e`; the bundle the way a user installs it: an `extensions` entry
  // in ~/.pi/agent/settings.json, found by Pi's own discovery.
  // The TypeScript entry makes Pi compile omni's source tree at every start (22 s unloaded, past
  // a minute on a busy 2-core machine): checked when asked (OMNI_TEST_PI_TS=1) or when there is
  // no bundle. `npm test` builds the bundle first, and the bundle is what users install.
  const entries: Array<[string, string, 'flag' | 'settings']> = [];
  if (existsSync(BUNDLE)) entries.push(['bundle dist/omni-pi.cjs (settings.json extensions)', BUNDLE, 'settings']);
  else t.comment(`${BUNDLE} not built (node scripts/build-pi.mjs): only the TypeScript entry is checked`);
  if (!existsSync(BUNDLE) || process.env.OMNI_TEST_PI_TS === '1') entries.unshift(['TypeScript entry (-e)', TS_ENTRY, 'flag']);

  const base = await runPi(SCRIPT, { extensions: [], tag: 'base', files: FILES, beforeSpawn: seedGoal });
  t.teardown(() => rmSync(base.dir, { recursive: true, force: true }));
  t.equal(base.code, 0, `the baseline run ended normally (${base.stderr.slice(0, 300)})`);
  t.equal(base.timedOut, false);

  for (const [label, entry, how] of entries) {
    t.test(label, async (t) => {
      const omni =
        how === 'flag'
          ? await runPi(SCRIPT, { extensions: [entry], tag: 'omni', files: FILES, beforeSpawn: seedGoal })
          : await runPi(SCRIPT, {
              extensions: [],
              noDiscovery: false,
              tag: 'omni',
              files: FILES,
              beforeSpawn: (p) => {
                seedGoal(p);
                writeFileSync(join(p.home, '.pi/agent/settings.json'), JSON.stringify({ extensions: [entry] }));
              },
            });
      t.teardown(() => rmSync(omni.dir, { recursive: true, force: true }));
      t.equal(omni.timedOut, false, 'Pi ended within the timeout');
      t.equal(omni.code, 0, `Pi ended normally with the extension loaded (${omni.stderr.slice(0, 300)})`);
      t.notMatch(omni.stderr, /extension|error/i, 'Pi reported no extension error');
      t.equal(omni.requests.filter((r) => r.answered.kind !== '404').length, SCRIPT.length, 'every step of the script was played');
      const summary: Record<string, string> = {};
      for (const [i, what] of [[0, 'noisy success'], [1, 'ls /nonexistent'], [2, 'noisy exit 3'], [3, 'over the cut'], [4, 'json'], [5, 'notes'], [6, 'notes again']] as const) {
        summary[what] = `${bytes(seen(base, i))} -> ${bytes(seen(omni, i))}`;
      }
      t.comment(`${label}: bytes of the tool result the model saw, without -> with omni: ${JSON.stringify(summary)}`);

      t.test('a noisy successful command: smaller, last line kept, a handle that gives the bytes back', async (t) => {
        const b = seen(base, 0);
        const o = seen(omni, 0);
        t.ok(bytes(o) < bytes(b) / 4, `${bytes(b)} B -> ${bytes(o)} B`);
        t.ok(o.trimEnd().endsWith('added 300 packages in 3s'), 'the last line is there');
        t.match(o, HANDLE, 'the fold names an `omni retrieve` handle');
        t.equal(expand(o, omni.omniHome), b, 'expanding every handle from the store gives exactly what Pi sends without omni');
      });

      t.test('failures reach the model verbatim', async (t) => {
        for (const [i, what] of [[1, 'ls /nonexistent'], [2, 'a noisy exit 3']] as const) {
          const b = seen(base, i);
          const o = seen(omni, i);
          t.equal(o, b, `${what}: byte for byte what Pi sends without omni`);
          t.match(o, /Command exited with code [23]$/, `${what}: Pi's own failure status`);
        }
        t.match(seen(omni, 1), /^ls: cannot access '\/nonexistent'/);
      });

      t.test('output over Pi\'s 50 KB cut is distilled from Pi\'s full-output file', async (t) => {
        const b = seen(base, 3);
        const o = seen(omni, 3);
        t.match(b, /\n\n\[Showing lines \d+-\d+ of \d+ \(50\.0KB limit\)\. Full output: \S+pi-bash-[0-9a-f]+\.log\]$/, 'without omni the model gets Pi\'s tail and a pointer');
        t.ok(bytes(o) < bytes(b) / 4, `${bytes(b)} B -> ${bytes(o)} B`);
        t.ok(o.trimEnd().endsWith('added 3000 packages in 9s'), 'the last line is there');
        t.ok(o.startsWith('Downloading https://registry.example.org/package-1.tgz 50%\n'), 'and the first line, which Pi\'s tail had cut');
        const full = expand(o, omni.omniHome);
        t.equal(full.split('\n').length, 3002, 'the handles give back all 3001 lines');
      });

      t.test('structured output is untouched', async (t) => {
        const b = seen(base, 4);
        const o = seen(omni, 4);
        t.equal(b, DATA, 'the baseline is the file');
        t.equal(o, b, 'byte for byte');
      });

      t.test('the ledger: output this session was already shown folds to a handle', async (t) => {
        t.equal(seen(omni, 5), NOTES, 'first time: untouched (nothing recognised, nothing shown before)');
        t.equal(seen(base, 6), NOTES);
        const again = seen(omni, 6);
        t.match(again, /^\[omni: 61 lines already shown — omni retrieve [0-9a-f]{16}\]\n$/, 'the repeat names what the model already has');
        t.equal(expand(again, omni.omniHome), NOTES, 'and its handle gives the bytes back');
      });

      t.test('parallel bash calls in one message are each distilled', async (t) => {
        for (const [k, last] of [[0, 'first download done'], [1, 'second download done']] as const) {
          const b = seen(base, 7, k);
          const o = seen(omni, 7, k);
          t.ok(bytes(o) < bytes(b) / 4, `call ${k}: ${bytes(b)} B -> ${bytes(o)} B`);
          t.ok(o.trimEnd().endsWith(last), `call ${k}: its own last line`);
          t.equal(expand(o, omni.omniHome), b, `call ${k}: the handles give back the baseline`);
        }
      });

      t.test('session memory reaches the system prompt', async (t) => {
        const sb = systemPromptOf(base.requests) ?? '';
        const so = systemPromptOf(omni.requests) ?? '';
        t.notMatch(sb, GOAL, 'not without omni');
        t.ok(so.includes(`Pinned goal: ${GOAL}`), 'the pinned goal is in the system prompt Pi sent');
        const [own, memory] = so.split(/\n\n(?=omni session memory for )/);
        t.equal(own.replaceAll(omni.dir, '<run>'), sb.replaceAll(base.dir, '<run>'), 'appended to Pi\'s own prompt, which is otherwise unchanged');
        t.ok(memory?.startsWith(`omni session memory for ${join(omni.dir, 'proj')}:`), 'the block names the project');
      });

      t.test('the failing command is remembered for the next session', async (t) => {
        const s = openStore({ home: omni.omniHome });
        try {
          t.equal(lastError(s, join(omni.dir, 'proj'))?.command, SCRIPT[2] && 'bash' in SCRIPT[2] ? SCRIPT[2].bash : '', 'the last failing command is the noisy exit 3');
        } finally {
          s.close();
        }
      });
    });
  }
});
