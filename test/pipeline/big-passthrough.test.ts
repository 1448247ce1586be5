import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, tempHome } from '../helpers/omni.js';
import { SPOOL_CAP_BYTES } from '../../lib/pipeline/spool.js';

// Past the spool's kept head: the bytes after it used to travel through a rolling window
// that a range crossing the boundary fell out of (64 KiB lost at ~8 MiB, silently).
const SIZE = SPOOL_CAP_BYTES + (3 << 20);
const dir = tempHome();
const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu apple banana cherry damson elder fig grape hazel iris jade kale lemon mango nectar olive peach quince radish sage thyme ugli vanilla walnut yam'.split(' ');
const word = (k: number) => WORDS[k % WORDS.length];
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function build(row: (i: number) => string, head = '', foot = ''): Buffer {
  const parts: string[] = [head];
  let n = head.length;
  for (let i = 0; n < SIZE; i++) { const r = row(i); parts.push(r); n += r.length; }
  parts.push(foot);
  return Buffer.from(parts.join(''));
}

const inputs: Record<string, Buffer> = {
  json: build((i) => `  {"id": ${i}, "name": "item-${i}", "tags": ["a", "b"], "value": ${(i * 7919) % 100003}},\n`, '{"items": [\n', '  {"id": -1}\n]}\n'),
  csv: build((i) => `${i},name-${i},${(i * 7919) % 100003},${i % 2 ? 'true' : 'false'}\n`, 'id,name,value,flag\n'),
  // Not structured: it streams line by line past the hold window, and no two neighbours look
  // alike, so nothing in it is folded: what comes out must be what went in.
  log: build((i) => `${word(i)} ${word(i * 7 + 3)} ${word(i * 13 + 5)} ${word((i * i) % 97)} ${word(i * 31 + 11)}\n`),
};
// A plain log that turns binary past the kept head: the switch to raw bytes happens mid-stream.
inputs['late-nul'] = Buffer.concat([inputs.log, Buffer.from([0, 1, 2, 10]), inputs.log.subarray(0, 1 << 20)]);

for (const [name, input] of Object.entries(inputs)) {
  const file = join(dir, `big.${name}`);
  writeFileSync(file, input);
  t.test(`${name}: ${input.length} bytes through pipe and exec cat, byte for byte`, async (t) => {
    const want = sha(readFileSync(file));
    const piped = omni(['pipe'], { input });
    t.equal(piped.status, 0);
    t.equal(piped.stdout.length, input.length, 'pipe: every byte');
    t.equal(sha(piped.stdout), want, 'pipe: same sha256');
    const cat = omni(['exec', 'cat', file]);
    t.equal(cat.status, 0);
    t.equal(cat.stdout.length, input.length, 'exec cat: every byte');
    t.equal(sha(cat.stdout), want, 'exec cat: same sha256');
  });
}
