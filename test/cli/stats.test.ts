/**
 * `omni stats` through the built bundle: a saving that went the wrong way counts as negative;
 * off a terminal the plain tables stay as scripts read them; --bars draws the charts anyway
 * (Unicode or ASCII by locale, never colour); on a real terminal (a pty from script(1)) the
 * charts come with colour unless NO_COLOR is set; --html writes the page.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { omni, tempHome, OMNI } from '../helpers/omni.js';
import { needs } from '../helpers/needs.js';
import { openStore } from '../../lib/store/open.js';
import { recordRun } from '../../lib/store/stats.js';
import { run as stats } from '../../lib/cli/stats.js';
import { Writable } from 'node:stream';

const DAY = 86400e3;

function home(): string {
  const h = tempHome();
  const s = openStore({ home: h });
  const now = Date.now();
  recordRun(s, { at: now - 2 * DAY, door: 'pipe', family: 'jest', bytesIn: 40000, bytesOut: 2000, applied: true });
  recordRun(s, { at: now, door: 'hook', host: 'claude', family: 'jest', bytesIn: 20000, bytesOut: 1000, applied: true });
  recordRun(s, { at: now, door: 'hook', family: 'git', bytesIn: 5000, bytesOut: 5000, applied: false });
  // A delivery that grew: a negative saving, not a zero.
  recordRun(s, { at: now - DAY, door: 'exec', family: 'grew', bytesIn: 1000, bytesOut: 3000, applied: true });
  s.close();
  return h;
}

const BLOCKS = /[█▏▎▍▌▋▊▉▐│]/;

t.test('a delivery larger than its input is a negative saving, in the JSON and the text', async (t) => {
  const h = home();
  const j = omni(['stats', '--json'], { env: { OMNI_HOME: h } });
  t.equal(j.status, 0, j.stderr.toString());
  const s = JSON.parse(j.stdout.toString());
  t.equal(s.total.bytesSaved, 38000 + 19000 - 2000, 'saved = in - delivered');
  t.equal(s.total.bytesSaved, s.total.bytesIn - s.total.bytesDelivered);
  t.match(s.byFamily.find((f: { family: string }) => f.family === 'grew'), { bytesSaved: -2000 });
  t.match(s.byFamily.find((f: { family: string }) => f.family === 'git'), { bytesSaved: 0 }, 'a pass-through counts as zero');
  const text = omni(['stats'], { env: { OMNI_HOME: h } }).stdout.toString();
  t.match(text, /\ngrew +1 +1 +1000 B +2\.9 KiB +-2\.0 KiB +-200\.0%\n/);
});

t.test('off a terminal: the plain tables, no bars, no colour', async (t) => {
  const r = omni(['stats'], { env: { OMNI_HOME: home(), LANG: 'C.UTF-8' } });
  t.equal(r.status, 0);
  const out = r.stdout.toString();
  t.match(out, /^omni stats since .* \(7d\)\n4 runs, 3 applied: /);
  t.match(out, /\nfamily +runs +applied +in +delivered +saved +saved %\n/);
  t.match(out, /\ndoor +runs +applied +in +delivered +saved +saved %\n/);
  t.notMatch(out, BLOCKS);
  t.notMatch(out, /\x1b/);
  t.notMatch(out, /saved per day/);
});

t.test('--bars off a terminal: the charts, Unicode on a UTF-8 locale, ASCII otherwise, never colour', async (t) => {
  const h = home();
  const uni = omni(['stats', '--bars'], { env: { OMNI_HOME: h, LC_ALL: '', LC_CTYPE: '', LANG: 'en_US.UTF-8', TZ: 'UTC' } }).stdout.toString();
  t.match(uni, /\nsaved per day\n(  \w{3} \d{4}-\d\d-\d\d .*\n){8}\nsaved per family\n/, '8 calendar days in a 7-day window');
  t.match(uni, /\n  jest +│█+[▏▎▍▌▋▊▉]? +55\.7 KiB  2 runs, 95\.0% of 58\.6 KiB\n/);
  t.match(uni, /\n  grew +█+│ +-2\.0 KiB  1 run, -200\.0% of 1000 B\n/, 'the negative family grows left of the axis');
  t.match(uni, /\ndoor +runs +applied/, 'the door table follows');
  t.notMatch(uni, /\x1b/, 'no colour off a terminal, even with --bars');
  const ascii = omni(['stats', '--bars'], { env: { OMNI_HOME: h, LC_ALL: 'C', LANG: 'en_US.UTF-8', TZ: 'UTC' } }).stdout.toString();
  t.match(ascii, /\n  jest +\|#+ +55.7 KiB/);
  t.match(ascii, /\n  grew +-+\| +-2\.0 KiB/);
  t.notMatch(ascii, /[^\x20-\x7e\n]/, 'LC_ALL=C: ASCII only');
});

t.test('on a terminal: bars with colour, none with NO_COLOR', async (t) => {
  if (!needs(t, existsSync('/usr/bin/script'), 'script(1) from util-linux, for a pty')) return;
  const h = home();
  // tap sets NO_COLOR for its children; the first run is a terminal without it.
  const { NO_COLOR: _, FORCE_COLOR: __, ...base } = process.env;
  const tty = (env: NodeJS.ProcessEnv) =>
    spawnSync('/usr/bin/script', ['-qec', `'${process.execPath}' '${OMNI}' stats`, '/dev/null'], {
      env: { ...base, OMNI_HOME: h, LANG: 'C.UTF-8', LC_ALL: '', TERM: 'xterm', ...env },
      timeout: 60_000,
    });
  const r = tty({});
  t.equal(r.status, 0, r.stderr.toString());
  const out = r.stdout.toString().replace(/\r\n/g, '\n');
  t.match(out, /\x1b\[1msaved per day\x1b\[0m\n/, 'a terminal gets the charts without --bars');
  t.match(out, /\x1b\[32m█/, 'green bars');
  t.match(out, /\x1b\[31m/, 'red for the negative saving');
  const plain = tty({ NO_COLOR: '1' }).stdout.toString().replace(/\r\n/g, '\n');
  t.match(plain, /saved per family\n/);
  t.match(plain, BLOCKS);
  t.notMatch(plain, /\x1b\[3\dm/, 'NO_COLOR: no colour');
});

t.test('--html writes one page; a missing file name is a usage error', async (t) => {
  const h = home();
  const file = join(h, 'r.html');
  const r = omni(['stats', '--since', 'all', `--html=${file}`], { env: { OMNI_HOME: h } });
  t.equal(r.status, 0, r.stderr.toString());
  t.match(r.stdout.toString(), /^omni stats: wrote .*r\.html \([\d.]+ KiB, 4 runs\)\n$/);
  const page = readFileSync(file, 'utf8');
  t.match(page, /^<!DOCTYPE html>/);
  t.match(page, 'the beginning (all)');
  t.equal([...page.matchAll(/<svg class="chart"/g)].length, 2, 'two charts');
  t.equal([...page.matchAll(/<rect class="bar neg"/g)].length, 2, 'the negative saving in both charts');
  const dash = omni(['stats', '--html', '-'], { env: { OMNI_HOME: h } });
  t.equal(dash.stdout.toString().slice(0, 15), '<!DOCTYPE html>', "'-' writes the page to stdout");
  const bad = omni(['stats', '--html'], { env: { OMNI_HOME: h } });
  t.equal(bad.status, 2);
  t.match(bad.stderr.toString(), /--html takes a file name/);
  t.equal(omni(['stats', '--bogus'], { env: { OMNI_HOME: h } }).status, 2);
  const unwritable = omni(['stats', '--html', join(h, 'no-such-dir', 'r.html')], { env: { OMNI_HOME: h } });
  t.equal(unwritable.status, 1);
  t.match(unwritable.stderr.toString(), /^omni stats: cannot write .*no-such-dir.*ENOENT/);
});

t.test('in process: a terminal of 70 columns gets coloured bars that fit; --html - is the page', async (t) => {
  const h = home();
  const prev = process.env.OMNI_HOME;
  process.env.OMNI_HOME = h;
  t.teardown(() => { if (prev === undefined) delete process.env.OMNI_HOME; else process.env.OMNI_HOME = prev; });
  const call = async (argv: string[], env: NodeJS.ProcessEnv, tty: boolean) => {
    const chunks: Buffer[] = [];
    const out = Object.assign(new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } }), { isTTY: tty, columns: 70 });
    const code = await stats(argv, { stdout: out, stderr: out }, env);
    return { code, text: Buffer.concat(chunks).toString() };
  };
  const tty = await call([], { LANG: 'C.UTF-8' }, true);
  t.equal(tty.code, 0);
  t.match(tty.text, /\x1b\[32m█/);
  for (const line of tty.text.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) if (/^  \S/.test(line)) t.ok(line.length <= 70, `fits 70 columns: ${line}`);
  t.notMatch((await call([], { LANG: 'C.UTF-8', NO_COLOR: '1' }, true)).text, /\x1b/);
  t.match((await call([], { LANG: 'C.UTF-8' }, false)).text, /\nfamily +runs/, 'not a terminal: the table');
  const page = await call(['--html', '-', '--since', '2w'], {}, false);
  t.match(page.text, /^<!DOCTYPE html>[^]*<svg class="chart"[^]*<\/html>\n$/);
});

t.test('omni\'s own cost (its MCP tool definitions on model requests) is netted against the saving: text, JSON, HTML; none without it', async (t) => {
  const { recordCost } = await import('../../lib/store/costs.js');
  const none = omni(['stats', '--json'], { env: { OMNI_HOME: home() } });
  const n = JSON.parse(none.stdout.toString());
  t.same(n.cost, { requests: 0, bytes: 0 }, 'the default install offers nothing: no cost');
  t.equal(n.netSaved, n.total.bytesSaved);
  t.notMatch(omni(['stats'], { env: { OMNI_HOME: home() } }).stdout.toString(), /own cost/, 'no cost line when it cost nothing');
  const h = home();
  const s = openStore({ home: h });
  for (let i = 0; i < 40; i++) recordCost(s, { what: 'mcp-tools', session: 'sess', requests: 1, bytes: 575 });
  recordCost(s, { at: Date.now() - 40 * DAY, what: 'mcp-tools', requests: 1, bytes: 575 });
  s.close();
  const j = JSON.parse(omni(['stats', '--json'], { env: { OMNI_HOME: h } }).stdout.toString());
  t.same(j.cost, { requests: 40, bytes: 23000 }, 'the window\'s requests only');
  t.equal(j.netSaved, j.total.bytesSaved - 23000);
  const text = omni(['stats'], { env: { OMNI_HOME: h } }).stdout.toString();
  t.match(text, /\nomni's own cost: 22\.5 KiB \(its MCP tool definitions, ~575 B on each of 40 model requests seen\); net saved 31\.3 KiB\n/);
  const page = omni(['stats', '--html', '-'], { env: { OMNI_HOME: h } }).stdout.toString();
  t.match(page, /<p class="summary" id="cost">omni's own cost: <b>22\.5 KiB<\/b> \(its MCP tool definitions, ~575 B on each of <b>40<\/b> model requests seen\); net saved <b class="">31\.3 KiB<\/b><\/p>/);
});
