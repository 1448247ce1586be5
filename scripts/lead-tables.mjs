// The first-char gates of the distillers' anchored patterns (lib/base/lead.ts), read once at
// build and bundled as data (`__OMNI_LEADS__`): read at a hook's start-up, the ~80 patterns a
// sniff gates cost as many instructions (~12M) as the compiles the gates save. A pattern not in
// the table (one this scan missed, a rule's) is read at run time, with the same answer.
// Shared by build.mjs and build-pi.mjs.
import { build } from 'esbuild';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const r = await build({
  entryPoints: ['lib/base/lead.ts'],
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'warning',
});
const mod = { exports: {} };
new Function('module', 'exports', r.outputFiles[0].text)(mod, mod.exports);
const { encodeLead, leadKey, leadOf } = mod.exports;

/** Every `^…` regex literal in the distillers' sources. */
function literals(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) literals(p, out);
    else if (name.endsWith('.ts')) {
      for (const m of readFileSync(p, 'utf8').matchAll(/\/\^(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+\/[a-z]*/g)) {
        try {
          out.push(new Function(`return ${m[0]}`)());
        } catch {
          /* not a regex literal after all */
        }
      }
    }
  }
  return out;
}

const table = {};
for (const re of literals('lib/distillers')) table[leadKey(re)] = encodeLead(leadOf(re));
export const LEADS = JSON.stringify(table);
