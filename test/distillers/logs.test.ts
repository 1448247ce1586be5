import t from 'tap';
import { distillCase } from '../helpers/cases.js';
import { logTemplate } from '../../lib/distillers/logs.js';

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
  t.ok(markers.some((m) => /more records like the one above \(\d+ lines\)/.test(m)), 'a fold of records with their detail lines says how many lines');
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
