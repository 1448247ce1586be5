import t, { type Test } from 'tap';
import { distillCase } from '../helpers/cases.js';
import { logTemplate } from '../../lib/distillers/logs.js';
import { distill } from '../helpers/omni.js';
import { MARKER_RE } from '../../lib/kit/marker.js';
import { readFileSync } from 'node:fs';

t.test('folds nginx access lines that share a template into one line with a count and a time range', async (t) => {
  const { r, text, markers, rawText } = await distillCase('741-nginx-access-log');
  t.equal(r.distiller, 'logs');
  const health = rawText.split('\n').filter((l) => l.includes('"GET /api/health HTTP/1.1" 200'));
  t.ok(text.includes(health[0]), 'the first /api/health line stays verbatim');
  // Each marker stands where its run stood: a run of several templates' later records is "like those above".
  t.ok(markers.some((m) => /^\[omni: \d+ more lines like (the one|those) above, \d{2}\/\w{3}\/\d{4}:[\d:]+ \+0000 → /.test(m)), 'a marker with a count and a range');
  const counted = markers.map((m) => Number(/^\[omni: (\d+) more lines/.exec(m)?.[1] ?? 0)).reduce((a, b) => a + b, 0);
  const shown = text.split('\n').filter((l) => l.startsWith('127.0.0.1 ')).length;
  t.equal(counted + shown, rawText.trimEnd().split('\n').length, 'every line is shown or counted');
  t.ok(r.outBytes < r.rawBytes * 0.3, `${r.outBytes} of ${r.rawBytes}`);
});

t.test('keeps every 4xx access line verbatim', async (t) => {
  const { text, rawText } = await distillCase('741-nginx-access-log');
  const bad = rawText.split('\n').filter((l) => /" (403|404) /.test(l));
  t.ok(bad.length > 5);
  for (const l of bad) t.ok(text.includes(l), l);
});

t.test('keeps every error and warn line of an nginx error log', async (t) => {
  const { text, rawText } = await distillCase('742-nginx-error-log');
  { let seen = 0; for (const l of rawText.split('\n')) if (/\[(error|warn|crit|emerg)\]/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
});

t.test('keeps every ERROR and FATAL line of a postgres log and the statement behind it', async (t) => {
  const { text, rawText } = await distillCase('743-postgres-log');
  const severe = rawText.split('\n').filter((l) => /\b(ERROR|FATAL|PANIC|WARNING|STATEMENT|DETAIL|HINT):/.test(l));
  t.ok(severe.some((l) => / STATEMENT: /.test(l)), 'the case has a STATEMENT line');
  t.ok(severe.length > 0);
  for (const l of severe) t.ok(text.includes(l), l);
});

t.test('keeps every dpkg action and final-state line and folds the other status lines', async (t) => {
  const { text, rawText, r } = await distillCase('744-dpkg-log');
  { let seen = 0; for (const l of rawText.split('\n')) if (/^\S+ \S+ (install|upgrade|remove|purge|status installed|status not-installed) /.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  const unpacked = (s: string) => s.split('\n').filter((l) => / status unpacked /.test(l)).length;
  t.ok(unpacked(text) * 3 < unpacked(rawText), `${unpacked(text)} of ${unpacked(rawText)} unpacked lines shown`);
  // Markers stand where their runs stood: one per run between the pinned lines that stay.
  t.ok(r.outBytes < r.rawBytes * 0.7, `${r.rawBytes} -> ${r.outBytes} B`);
});

t.test('keeps the exit line of an npm debug log and folds its cache lines', async (t) => {
  const { text, r } = await distillCase('745-npm-debug-log');
  t.match(text, /^\d+ verbose exit 0$/m);
  t.ok(r.outBytes < r.rawBytes * 0.3);
});

t.test('one template for lines that differ only in numbers, paths and timestamps', async (t) => {
  t.equal(
    logTemplate('2026-11-29 22:34:00 status installed librecode0:amd64 3.6-25'),
    logTemplate('2026-11-29 22:35:11 status installed sl:amd64 5.02-1+b1'),
  );
  t.not(logTemplate('127.0.0.1 - - [29/Nov/2026:22:40:01 +0000] "GET / HTTP/1.1" 200 615'), logTemplate('127.0.0.1 - - [29/Nov/2026:22:40:01 +0000] "GET /api/health HTTP/1.1" 200 12'));
});

t.test('a log with nothing repeated comes back unchanged', async (t) => {
  const { r, c } = await distillCase('703-git-log-oneline', 'tail -n 20 app.log');
  t.equal(r.distiller, 'logs');
  t.ok(r.output.equals(c.output));
});

t.test('omni pipe without a command sniffs a server log and folds it', async (t) => {
  const { distill } = await import('../helpers/omni.js');
  const { corpusCase } = await import('../helpers/cases.js');
  const c = corpusCase('743-postgres-log');
  const r = await distill(c.output, { door: 'pipe' });
  t.equal(r.distiller, 'logs');
  t.ok(r.outBytes < r.rawBytes * 0.3);
});

t.test("a postgres record's indented detail lines go where the record goes", async (t) => {
  const { text, rawText, r, markers } = await distillCase('770-postgres-pgbench-log');
  const severe = rawText.split('\n').filter((l) => /\b(ERROR|FATAL|PANIC|WARNING|STATEMENT|DETAIL|HINT):/.test(l));
  t.ok(severe.length > 0);
  for (const l of severe) t.ok(text.includes(l), l);
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i].startsWith('\t')) continue;
    t.notOk(markers.includes(lines[i - 1]), `detail line ${i} does not hang under a marker`);
  }
  t.ok(markers.some((m) => /more records \(\d+ lines\) like /.test(m)), 'a fold of records with their detail lines says how many lines');
  t.ok(r.outBytes < r.rawBytes * 0.2, `${r.outBytes} of ${r.rawBytes}`);
});

t.test("apt's term.log: dpkg's unpack lines fold, every Setting up line and every error stays", async (t) => {
  const { text, rawText, r } = await distillCase('767-apt-term-log');
  t.equal(r.distiller, 'logs');
  { let seen = 0; for (const l of rawText.split('\n')) if (/^(Setting up |Removing |Log (started|ended))|error|Errors/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  const unpacking = (s: string) => s.split('\n').filter((l) => /^Unpacking /.test(l)).length;
  t.ok(unpacking(text) * 3 < unpacking(rawText), `${unpacking(text)} of ${unpacking(rawText)} Unpacking lines shown`);
  // Folds stay inside one apt run: every run that unpacked something still shows an Unpacking line.
  const runs = (s: string) => s.split(/^Log started: /m).slice(1).map((r) => r.split('\n')[0] + ':' + unpacking(r));
  const before = runs(rawText);
  const after = runs(text);
  t.equal(after.length, before.length, 'every run is there');
  for (let i = 0; i < before.length; i++) t.equal(/:0$/.test(after[i]), /:0$/.test(before[i]), `run ${before[i]}`);
});

t.test("a Flask dev server log: werkzeug's 200 lines fold, every traceback, ERROR, 4xx and 5xx line stays", async (t) => {
  const { text, rawText, r } = await distillCase('774-flask-dev-server-log');
  t.equal(r.distiller, 'logs');
  { let seen = 0; for (const l of rawText.split('\n')) if (/ERROR|Traceback|^ {2}File |^StopIteration|" [45]\d\d -|WARNING/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 0, 'the case has lines of this kind to check'); }
  const health = (s: string) => s.split('\n').filter((l) => l.includes('"GET /health HTTP/1.1" 200')).length;
  t.ok(health(text) < health(rawText), `${health(text)} of ${health(rawText)} health checks shown`);
});

/** A log made up here through the pipe door as `cat app.log`. */
async function distillLog(lines: string[]) {
  const raw = lines.join('\n') + '\n';
  const r = await distill(raw, { command: 'cat app.log', door: 'pipe' });
  const text = r.output.toString('utf8');
  return { r, text, out: text.trimEnd().split('\n'), markers: text.split('\n').filter((l) => MARKER_RE.test(l)) };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

t.test("nginx's error log: every notice stays (start, signals, workers exiting) and the master's closing exit is the last line", async (t) => {
  const { r, text, rawText } = await distillCase('1119-nginx-error-log-two-workers');
  t.equal(r.distiller, 'logs');
  const last = rawText.trimEnd().split('\n').at(-1)!;
  t.match(last, /\[notice\] \d+#\d+: exit$/);
  t.equal(text.trimEnd().split('\n').at(-1), last, "the master's exit ends the output");
  { let seen = 0; for (const l of rawText.split('\n')) if (/\[(notice|error|warn)\]/.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 10); }
  t.ok(r.outBytes < r.rawBytes * 0.8, `${r.rawBytes} -> ${r.outBytes} B`);
});

t.test("a redis log (`pid:M 01 Dec 2026 19:05:23.936 * …`) folds its client lines; every warning and notice stays", async (t) => {
  const { r, text, rawText, markers } = await distillCase('1118-redis-server-log-clients');
  t.equal(r.distiller, 'logs');
  { let seen = 0; for (const l of rawText.split('\n')) if (/^\d+:[XCSM] [\d\w :.]+ [#*] /.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 10); }
  t.ok(markers.some((m) => /, \d{2} Dec 2026 \d{2}:\d{2}:\d{2}\.\d{3} → \d{2} Dec 2026 /.test(m)), 'a marker gives the range of the stamps it hides');
  t.ok(r.outBytes < r.rawBytes * 0.3, `${r.rawBytes} -> ${r.outBytes} B`);
});

t.test('a java.util.logging file folds its heartbeats; SEVERE with its stack trace and every WARNING stays', async (t) => {
  const { r, text, rawText } = await distillCase('1120-java-util-logging-file');
  t.equal(r.distiller, 'logs');
  { let seen = 0; for (const l of rawText.split('\n')) if (/SEVERE|WARNING|Exception|^\tat /.test(l)) { seen++; t.ok(text.includes(l), l); } t.ok(seen > 3); }
  t.ok(r.outBytes < r.rawBytes * 0.5, `${r.rawBytes} -> ${r.outBytes} B`);
});

t.test('server timestamp forms: each folds, and its marker quotes the stamps as they are', async (t) => {
  // Each form with the stamp of its i-th line as the marker's range quotes it.
  const forms: [string, (i: number) => string, (i: number) => string][] = [
    ['syslog', (i) => `Dec  1 16:42:${pad(i)} web1 app[812]: handled request ${i} in ${i + 3}ms`, (i) => `Dec  1 16:42:${pad(i)}`],
    ['journald short-iso', (i) => `2026-12-01T16:42:${pad(i)}+0000 web1 app[812]: handled request ${i} in ${i + 3}ms`, (i) => `2026-12-01T16:42:${pad(i)}+0000`],
    ['Apache error log', (i) => `[Tue Dec 01 16:42:${pad(i)}.123456 2026] [mpm_event:notice] [pid 812:tid ${i}] AH00489: handled request ${i}`, (i) => `Tue Dec 01 16:42:${pad(i)}.123456 2026`],
    ['redis', (i) => `24688:M 01 Dec 2026 16:42:${pad(i)}.521 - Accepted 127.0.0.1:${42000 + i}`, (i) => `01 Dec 2026 16:42:${pad(i)}.521`],
    ['java.util.logging', (i) => `01-Dec-2026 16:42:${pad(i)}.123 INFO [app.Worker] heartbeat ${i}`, (i) => `01-Dec-2026 16:42:${pad(i)}.123`],
    ['logback', (i) => `16:42:${pad(i)}.123 [main] INFO  app.Worker - heartbeat ${i}`, (i) => `16:42:${pad(i)}.123`],
  ];
  for (const [name, line, stamp] of forms) {
    const lines = Array.from({ length: 12 }, (_, i) => line(i + 1));
    const { r, markers } = await distillLog(lines);
    t.equal(r.distiller, 'logs', name);
    t.equal(markers.length, 1, `${name}: one fold`);
    t.match(markers[0] ?? '', `, ${stamp(2)} → ${stamp(11)} — `, name);
  }
});

t.test('a level word after the time (`INFO`) is never read as a time zone in a marker', async (t) => {
  const lines = Array.from({ length: 12 }, (_, i) => `2026-12-01 10:00:${pad(i + 1)},${pad(i * 7, 3)} INFO worker: picked job ${i}`);
  const { markers } = await distillLog(lines);
  t.equal(markers.length, 1);
  t.notMatch(markers[0], /INFO/);
  t.match(markers[0], /, 2026-12-01 10:00:02,007 → 2026-12-01 10:00:11,/);
});

t.test("lines that differ in a word never fold together: Python's `INFO:root:wrote` is not `INFO:root:decoded`", async (t) => {
  t.not(logTemplate('2026-12-01 10:00:01,007 INFO:root:decoded 4097 bytes'), logTemplate('2026-12-01 10:00:13,500 INFO:root:wrote 4097 bytes'));
  t.equal(logTemplate('2026-12-01 10:00:01,007 INFO:root:decoded 4097 bytes'), logTemplate('2026-12-01 10:00:02,014 INFO:root:decoded 4098 bytes'));
  const lines: string[] = [];
  for (let i = 1; i <= 8; i++) lines.push(`2026-12-01 10:00:${pad(i)},${pad(i * 7, 3)} INFO:root:decoded ${4096 + i} bytes`);
  const wrote = '2026-12-01 10:00:09,500 INFO:root:wrote 32804 bytes';
  lines.push(wrote);
  for (let i = 10; i <= 16; i++) lines.push(`2026-12-01 10:00:${pad(i)},${pad(i * 7, 3)} INFO:root:decoded ${4096 + i} bytes`);
  const { text, markers } = await distillLog(lines);
  t.ok(markers.length > 0, 'the decoded lines fold');
  t.ok(text.split('\n').includes(wrote), 'the wrote line stays');
});

t.test("a log fold never hides the output's last line, and a marker that is not under its kind quotes a real hidden line", async (t) => {
  const lines = ['2026-12-01 10:00:00,001 INFO app: started'];
  for (let i = 1; i <= 10; i++) lines.push(`2026-12-01 10:00:${pad(i)},${pad(i, 3)} INFO app: synced shard ${i}`);
  const { out, markers, text } = await distillLog(lines);
  t.equal(out.at(-1), lines.at(-1), 'the last line is there as it was');
  t.ok(markers.length === 1);
  // A kept line of the hidden kind stands right above the marker, so "the one above" is true.
  t.match(markers[0], /more lines like the one above/);
  // Interleaved: the line above the second run is another kind.
  const mixed = ['2026-12-01 10:00:00,001 INFO app: started'];
  for (let i = 1; i <= 6; i++) mixed.push(`2026-12-01 10:00:${pad(i)},${pad(i, 3)} INFO app: synced shard ${i}`);
  mixed.push('2026-12-01 10:00:07,000 INFO app: compacted the index');
  for (let i = 8; i <= 14; i++) mixed.push(`2026-12-01 10:00:${pad(i)},${pad(i, 3)} INFO app: synced shard ${i}`);
  const m = await distillLog(mixed);
  t.ok(m.text.includes('compacted the index'));
  const under = m.out.findIndex((l) => l.includes('compacted the index')) + 1;
  t.ok(MARKER_RE.test(m.out[under]), 'a marker right under the other kind');
  const q = /like "([^"]+)"/.exec(m.out[under])?.[1];
  t.ok(q !== undefined && mixed.includes(q) && !m.out.includes(q), `it quotes a hidden line: ${m.out[under]}`);
  t.equal(m.out.at(-1), mixed.at(-1));
  void text;
});

/**
 * A worker's cycle of records (fetch / parse / post, pull / upsert / checkpoint) whose counts
 * classify reads as a signal (`82 lines, 0 skipped`): the cycle folds between its severe lines,
 * and every line it hides is like a line that stays above it.
 */
function checkCycle(t: Test, rawText: string, text: string, markers: string[]) {
  const raw = rawText.replace(/\n$/, '').split('\n');
  const out = text.replace(/\n$/, '').split('\n');
  const kept = out.filter((l) => !MARKER_RE.test(l));
  for (const l of raw) if (/\b(WARN|WARNING|ERROR)\b|Traceback|Error:/.test(l)) t.ok(kept.includes(l), `severe line kept: ${l}`);
  t.equal(out.at(-1), raw.at(-1), 'the last line stays');
  const counted = markers.map((m) => Number(/^\[omni: (\d+) more lines like those above, /.exec(m)?.[1] ?? NaN)).reduce((a, b) => a + b, 0);
  t.equal(counted + kept.length, raw.length, 'every line is kept or counted by a marker saying "like those above"');
  // Each marker stands where its run stood, after a kept line of its segment, and hides only
  // records whose template a kept line of that segment (no severe line between) shows.
  let i = 0;
  let segment: string[] = [];
  for (const l of out) {
    if (MARKER_RE.test(l)) {
      const n = Number(/^\[omni: (\d+) more/.exec(l)![1]);
      const templates = new Set(segment.map(logTemplate));
      for (const h of raw.slice(i, i + n)) t.ok(templates.has(logTemplate(h)), `hidden like a kept line: ${h}`);
      i += n;
      continue;
    }
    t.equal(l, raw[i], 'kept lines in their order');
    i++;
    if (/\b(WARN|WARNING|ERROR)\b/.test(l)) segment = [];
    else segment.push(l);
  }
}

t.test('a periodic cycle of templates whose counts read as signals folds between the severe lines (a session\'s import log)', async (t) => {
  const out = readFileSync(new URL('../fixtures/sessions-chatter/import-log.txt', import.meta.url));
  const r = await distill(out, { command: 'tail -n 60 logs/import-2026-11-19.log', door: 'pipe' });
  const text = r.output.toString('utf8');
  const markers = text.split('\n').filter((l) => MARKER_RE.test(l));
  t.equal(r.distiller, 'logs');
  t.equal(markers.length, 4, 'one marker per stretch between the WARN and ERROR lines');
  checkCycle(t, out.toString('utf8'), text, markers);
  t.ok(r.outBytes < r.rawBytes * 0.5, `${r.rawBytes} -> ${r.outBytes}`);
});

t.test("Python logging's pull/upsert/checkpoint cycle folds; the traceback and the stop line stay", async (t) => {
  const { r, text, markers, rawText } = await distillCase('1153-python-logging-sync-cycle');
  t.equal(r.distiller, 'logs');
  t.ok(markers.length >= 3);
  checkCycle(t, rawText, text, markers);
  t.match(text, /\nTraceback \(most recent call last\):\n {2}File "[^"]+", line \d+, in <module>\n.*\n.*\nKeyError: 'XDR'\n/);
  t.ok(r.outBytes < r.rawBytes * 0.4, `${r.rawBytes} -> ${r.outBytes}`);
});

t.test('a deprecation record still ends a fold', async (t) => {
  const lines: string[] = [];
  for (let i = 1; i <= 4; i++) lines.push(`2026-12-01 10:00:0${i},000 INFO app: merged batch ${i}: 40 rows, 0 skipped`);
  lines.push('2026-12-01 10:00:05,000 INFO app: config key `retries` is deprecated, use `retry.max`');
  for (let i = 6; i <= 9; i++) lines.push(`2026-12-01 10:00:0${i},000 INFO app: merged batch ${i}: 40 rows, 0 skipped`);
  const { out } = await distillLog(lines);
  t.ok(out.includes(lines[4]), 'the deprecation stays');
  const at = out.indexOf(lines[4]);
  t.equal(out[at + 1], lines[5], 'the first record after it starts a new stretch and stays');
});

t.test("klog, zerolog's console and pino-pretty stamps are log records: requests fold, every W/E/F, WRN/ERR and WARN/ERROR record stays", async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['1175-klog-structured-log', /^[WEF]\d{4} /],
    ['1176-zerolog-console-log', /^\S+ (WRN|ERR|FTL|PNC) /],
    ['1177-pino-pretty-log', /\] (WARN|ERROR|FATAL) /],
  ];
  for (const [id, severe] of cases) {
    const { r, text, markers, rawText } = await distillCase(id);
    t.equal(r.distiller, 'logs', id);
    t.ok(markers.length > 0 && r.outBytes < r.rawBytes * 0.6, `${id}: folded, ${r.outBytes} of ${r.rawBytes}`);
    const lines = rawText.trimEnd().split('\n');
    const bad = lines.filter((l) => severe.test(l));
    t.ok(bad.length > 0, `${id}: the case has severe records`);
    for (const l of bad) t.ok(text.includes(l + '\n'), `${id}: ${l}`);
    t.ok(text.trimEnd().endsWith(lines[lines.length - 1]), `${id}: the last line stays`);
  }
});

t.test("a klog or zerolog record's severity letter is a barrier even where no severity word appears", async (t) => {
  const rec = (i: number, sev = 'I') => `${sev}1207 09:27:13.0${String(10 + i).padStart(5, '0')}   30858 main.go:27] "request" method="GET" status=200 n=${i}`;
  const lines = [...Array.from({ length: 6 }, (_, i) => rec(i)), rec(6, 'E'), ...Array.from({ length: 6 }, (_, i) => rec(7 + i))];
  const r = await distill(lines.join('\n') + '\n', { command: 'cat app.log', door: 'pipe' });
  const text = r.output.toString();
  t.ok(text.includes(lines[6] + '\n'), 'the E record stays');
  const out = text.split('\n');
  const at = out.indexOf(lines[6]);
  t.ok(out.slice(0, at).some((l) => MARKER_RE.test(l)), 'the records before it fold');
  t.equal(out[at + 1], lines[7], 'no fold reaches across it: the record after it stays as the first of its own run');
});

t.test('a logfmt pair keeps its key and templates its value; a source location keeps its file', async (t) => {
  const slog = (path: string, src = 'main.go:94') => `time=2026-12-07T12:35:11.751Z level=INFO source=/srv/linkd/${src} msg="request served" method=GET path=${path} status=302 dur=367µs req=1`;
  t.not(logTemplate(slog('/healthz')), logTemplate(slog('/metrics')), 'path=/healthz is not path=/metrics');
  t.equal(logTemplate(slog('/g8')), logTemplate(slog('/k2')), 'a code with a digit is an id: /g8 is /k2');
  t.not(logTemplate(slog('/g8')), logTemplate(slog('/ga')), '/ga has no digit: a word of its own');
  t.equal(logTemplate(slog('/api/items/41')), logTemplate(slog('/api/items/42')));
  t.not(logTemplate(slog('/g8', 'main.go:94')), logTemplate(slog('/g8', 'store.go:94')), 'the logging file is a word');
  t.equal(logTemplate(slog('/g8', 'main.go:94')), logTemplate(slog('/g8', 'main.go:130')), 'its line number is a number');
  const std = (at: string, msg: string) => `2026/12/07 12:35:09.970722 ${at}: ${msg}`;
  t.not(logTemplate(std('main.go:88', 'cache hit code=k2')), logTemplate(std('cache.go:88', 'cache hit code=k2')), 'Lshortfile: the file is a word');
  t.equal(logTemplate(std('main.go:88', 'cache hit code=k2')), logTemplate(std('main.go:91', 'cache hit code=x7')));
  t.equal(logTemplate('time="2026-12-07T12:35:13Z" level=info msg=stats hits=394 requests=400'), logTemplate('time="2026-12-07T12:35:14Z" level=info msg=stats hits=44 requests=50'));
});

/**
 * Each marker of a distilled log with the input lines it hides (markers hide contiguous runs in
 * place and every shown line is verbatim, so the output aligns with the input), and the shown
 * line just above it.
 */
function markerRuns(raw: string, out: string): Array<{ note: string; hidden: string[]; above: string | undefined; shownAbove: string[] }> {
  const input = raw.replace(/\n$/, '').split('\n');
  const runs: Array<{ note: string; hidden: string[]; above: string | undefined; shownAbove: string[] }> = [];
  const shown: string[] = [];
  let i = 0;
  let open: { note: string; start: number; above: string | undefined; shownAbove: string[] } | null = null;
  const close = (end: number) => {
    if (open) runs.push({ note: open.note, hidden: input.slice(open.start, end), above: open.above, shownAbove: open.shownAbove });
    open = null;
  };
  for (const l of out.replace(/\n$/, '').split('\n')) {
    const m = MARKER_RE.exec(l);
    if (m) { open = { note: m[1], start: i, above: shown[shown.length - 1], shownAbove: [...shown] }; continue; }
    let j = i;
    while (j < input.length && input[j] !== l) j++;
    close(j);
    shown.push(l);
    i = j + 1;
  }
  close(input.length);
  return runs;
}

t.test('a log marker says what it hides truly: "like the one above" only under a line of the same template, else a real line quoted', async (t) => {
  for (const id of ['091-nginx-access-log', '1225-go-log-std-tail', '1226-go-log-micro-shortfile-cat', '1227-go-log-slog-text-source-cat', '1228-go-log-logrus-text-tail', '1176-zerolog-console-log']) {
    const { text, rawText } = await distillCase(id);
    const runs = markerRuns(rawText, text);
    let bad = 0;
    for (const r of runs) {
      if (/like the one above/.test(r.note)) {
        if (!r.hidden.every((h) => r.above !== undefined && logTemplate(h) === logTemplate(r.above))) { bad++; t.fail(`${id}: "${r.note}" under ${r.above} hides ${r.hidden[0]}`); }
      } else if (/like those above/.test(r.note)) {
        const above = new Set(r.shownAbove.map(logTemplate));
        if (!r.hidden.every((h) => above.has(logTemplate(h)))) { bad++; t.fail(`${id}: "${r.note}" hides a line of a template not shown above`); }
      } else {
        const q = /like "(.*)"/.exec(r.note)?.[1];
        if (q === undefined || !r.hidden.includes(q)) { bad++; t.fail(`${id}: "${r.note}" quotes no hidden line`); }
      }
    }
    t.equal(bad, 0, `${id}: ${runs.length} markers, each true`);
  }
});

t.test("a Go service's log: WARN/ERROR records stay, a 4xx/5xx logfmt status stays, the last line stays, the stamp range keeps its microseconds", async (t) => {
  for (const id of ['1225-go-log-std-tail', '1226-go-log-micro-shortfile-cat', '1227-go-log-slog-text-source-cat', '1228-go-log-logrus-text-tail']) {
    const { text, rawText, r } = await distillCase(id);
    t.equal(r.distiller, 'logs', id);
    t.ok(r.outBytes < r.rawBytes * 0.6, `${id}: folded, ${r.outBytes} of ${r.rawBytes}`);
    const lines = rawText.trimEnd().split('\n');
    const severe = lines.filter((l) => /WARN|ERROR|level=(warning|error)/.test(l));
    t.ok(severe.length > 0, `${id}: the case has severe records`);
    for (const l of severe) t.ok(text.includes(l + '\n'), `${id}: ${l}`);
    t.ok(text.trimEnd().endsWith(lines[lines.length - 1]), `${id}: the last line stays`);
  }
  const { markers } = await distillCase('1226-go-log-micro-shortfile-cat');
  t.ok(markers.some((m) => / \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{6} → \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{6} — /.test(m)), 'log.Lmicroseconds stamps: the range keeps the fraction');
  const rec = (i: number, status: number) => `time=2026-12-07T12:35:11.${String(100 + i)}Z level=INFO msg="request served" method=GET path=/l/k${i} status=${status} req=${i}`;
  const lines = Array.from({ length: 14 }, (_, i) => rec(i, i === 7 ? 503 : 302));
  const out = (await distill(lines.join('\n') + '\n', { command: 'cat logs/linkd.log', door: 'pipe' })).output.toString();
  t.ok(out.includes(lines[7] + '\n'), 'status=503 among status=302 records stays');
  t.ok(MARKER_RE.test(out.split('\n')[1]), 'the records around it still fold');
});
