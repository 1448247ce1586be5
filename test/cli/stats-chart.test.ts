/**
 * The stats pictures as pure functions: terminal bars (Unicode eighths, ASCII fallback,
 * colour only when asked, negative values left of the axis), the style a terminal and a
 * locale choose, calendar days across a DST change, and the HTML page's pieces (SVG bars,
 * escaping, traces cut at a line end, binary and pruned traces named as such).
 */
import t from 'tap';
import { renderBars, chartStyle, localeIsUtf8, barLayout, dayRange, dayLabel, formatBytes, type ChartStyle } from '../../lib/cli/stats-chart.js';
import { svgBars, escapeHtml, traceOf, renderHtml, preText, TRACE_SHOW_LINES, LINE_SHOW_CHARS } from '../../lib/cli/stats-html.js';
import { dayBars } from '../../lib/cli/stats.js';

const UNI: ChartStyle = { unicode: true, colour: false, columns: 80 };
const ASCII: ChartStyle = { unicode: false, colour: false, columns: 80 };

t.test('bars: one scale, eighth blocks, the value and note after the bar', async (t) => {
  const out = renderBars('saved per family', [
    { label: 'jest', value: 8192, note: '2 runs' },
    { label: 'git', value: 4096 + 256 },
    { label: 'pytest', value: 1 },
    { label: 'none', value: 0 },
  ], { ...UNI, columns: 48 });
  t.equal(
    out,
    'saved per family\n' +
      '  jest    ████████████████████  8.0 KiB  2 runs\n' +
      '  git     ██████████▋           4.3 KiB\n' +
      '  pytest  ▏                         1 B\n' +
      '  none                              0 B\n',
  );
  for (const line of out.split('\n')) t.ok(line.length <= 48, `fits 48 columns: ${JSON.stringify(line)}`);
});

t.test('a negative saving grows left of a zero axis and keeps its minus sign', async (t) => {
  const out = renderBars('saved per day', [
    { label: 'Mon', value: 3000 },
    { label: 'Tue', value: -1000 },
  ], { ...UNI, columns: 42 });
  const [, mon, tue] = out.split('\n');
  const axisAt = (s: string) => [...s].indexOf('│');
  t.equal(axisAt(mon), axisAt(tue), 'one axis for every row');
  t.match(mon, /│█+/, 'the positive bar starts at the axis');
  t.match(tue, /█│/, 'the negative bar ends at the axis');
  t.match(tue, /-1000 B$/);
  t.equal(mon, '  Mon        │██████████████████  2.9 KiB');
  t.equal(tue, '  Tue  ██████│                    -1000 B', 'the same scale on both sides: a third of the length');
  const ascii = renderBars('saved per day', [{ label: 'Mon', value: 3000 }, { label: 'Tue', value: -1000 }], { ...ASCII, columns: 44 });
  t.match(ascii, /\|#+ /);
  t.match(ascii, /-+\| /);
});

t.test('ASCII fallback: nothing outside ASCII; colour only when the style asks for it', async (t) => {
  const bars = [{ label: 'a', value: 1500 }, { label: 'b', value: -20 }, { label: 'c', value: 700 }];
  const ascii = renderBars('t', bars, ASCII);
  t.notMatch(ascii, /[^\x20-\x7e\n]/, 'printable ASCII only');
  t.notMatch(renderBars('t', bars, UNI), /\x1b/, 'no escape codes without colour');
  const coloured = renderBars('t', bars, { ...UNI, colour: true });
  t.match(coloured, /\x1b\[32m█/, 'saved bars are green');
  t.match(coloured, /\x1b\[31m▐?█*\x1b\[0m│/, 'negative bars are red');
  t.equal(coloured.replace(/\x1b\[[0-9;]*m/g, ''), renderBars('t', bars, UNI), 'colour adds only escape codes');
  t.equal(renderBars('t', [], UNI), 't\n  (nothing yet)\n');
});

t.test('the style: UTF-8 from LC_ALL, LC_CTYPE, LANG in that order; colour only on a terminal without NO_COLOR', async (t) => {
  t.equal(localeIsUtf8({ LANG: 'en_US.UTF-8' }, 'linux'), true);
  t.equal(localeIsUtf8({ LANG: 'de_DE.utf8' }, 'linux'), true);
  t.equal(localeIsUtf8({ LC_ALL: 'C', LANG: 'en_US.UTF-8' }, 'linux'), false, 'LC_ALL wins');
  t.equal(localeIsUtf8({ LC_CTYPE: 'C.UTF-8', LANG: 'C' }, 'linux'), true, 'LC_CTYPE before LANG');
  t.equal(localeIsUtf8({ LC_ALL: '', LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8' }, 'linux'), false, 'an empty LC_ALL is unset');
  t.equal(localeIsUtf8({}, 'linux'), false, 'no locale: the C locale, ASCII');
  const tty = { isTTY: true, columns: 120 };
  t.same(chartStyle({ LANG: 'C.UTF-8' }, tty, 'linux'), { unicode: true, colour: true, columns: 120 });
  t.equal(chartStyle({ LANG: 'C.UTF-8', NO_COLOR: '1' }, tty, 'linux').colour, false, 'NO_COLOR');
  t.equal(chartStyle({ LANG: 'C.UTF-8', TERM: 'dumb' }, tty, 'linux').colour, false, 'TERM=dumb');
  t.same(chartStyle({ LANG: 'C.UTF-8' }, { isTTY: false, columns: 120 }, 'linux'), { unicode: true, colour: false, columns: 80 }, 'not a terminal: no colour, 80 columns');
});

t.test('layout: the width split by the largest value on each side', async (t) => {
  t.same(barLayout([300, -100], 40), { neg: 10, pos: 30, unit: 10 });
  t.same(barLayout([5, 1], 40), { neg: 0, pos: 40, unit: 5 / 40 });
  t.same(barLayout([0, 0], 40), { neg: 0, pos: 40, unit: 1 });
  t.same(barLayout([-5], 40), { neg: 40, pos: 0, unit: 5 / 40 });
  t.equal(barLayout([1e9, -1], 40).neg, 1, 'a tiny negative still gets a cell');
});

t.test('days: every calendar day in the window, across a DST change, one per date', async (t) => {
  const prev = process.env.TZ;
  t.teardown(() => { if (prev === undefined) delete process.env.TZ; else process.env.TZ = prev; });
  process.env.TZ = 'Europe/Berlin';
  const from = new Date('2026-03-27T23:30:00+01:00').getTime();
  const to = new Date('2026-03-30T00:30:00+02:00').getTime();
  t.same(dayRange(from, to), ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30']);
  t.equal(dayLabel('2026-03-29'), 'Sun 2026-03-29');
  process.env.TZ = 'UTC';
  const now = Date.UTC(2026, 11, 1, 8);
  const bars = dayBars([{ day: '2026-11-29', runs: 2, applied: 1, bytesIn: 1000, bytesDelivered: 200, bytesSaved: 800 }], now - 2 * 86400e3 - 3600e3, now);
  t.same(bars.map((b) => [b.label, b.value]), [['Sun 2026-11-29', 800], ['Mon 2026-11-30', 0], ['Tue 2026-12-01', 0]]);
  t.equal(bars[0].note, '2 runs, 80.0% of 1000 B');
  t.same(dayBars([{ day: '2026-11-30', runs: 1, applied: 1, bytesIn: 10, bytesDelivered: 5, bytesSaved: 5 }], 0, now).map((b) => b.label), ['Mon 2026-11-30', 'Tue 2026-12-01'], "'all' starts at the first day with a run");
});

t.test('formatBytes keeps the sign', async (t) => {
  t.equal(formatBytes(-2048), '-2.0 KiB');
  t.equal(formatBytes(-5), '-5 B');
  t.equal(formatBytes(0), '0 B');
});

t.test('SVG bars: one rect per non-zero value, negative ones left of the axis, labels escaped', async (t) => {
  const svg = svgBars('c', 'chart', [{ label: '<b>&', value: 100 }, { label: 'zero', value: 0 }, { label: 'neg', value: -50 }]);
  t.equal([...svg.matchAll(/<rect class="bar /g)].length, 2);
  t.match(svg, /<line class="axis" x1="([\d.]+)"/);
  const axis = Number(/<line class="axis" x1="([\d.]+)"/.exec(svg)![1]);
  const neg = /<rect class="bar neg" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/.exec(svg)!;
  t.ok(Math.abs(Number(neg[1]) + Number(neg[2]) - axis) < 0.2, 'the negative rect ends at the axis');
  const pos = /<rect class="bar pos" x="([\d.]+)"/.exec(svg)!;
  t.equal(Number(pos[1]), axis);
  t.match(svg, '&lt;b&gt;&amp;');
  t.notMatch(svg, '<b>');
  t.notMatch(svgBars('c', 'chart', [{ label: 'a', value: 3 }]), 'class="axis"', 'no axis without a negative value');
});

t.test('escaping and traces', async (t) => {
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  t.same(traceOf(null, null), { kind: 'none' });
  t.same(traceOf('00112233445566aa', null), { kind: 'pruned', handle: '00112233445566aa' });
  t.same(traceOf('00112233445566aa', Buffer.from('a\0b')), { kind: 'binary', handle: '00112233445566aa', bytes: 3 });
  const colour = traceOf('00112233445566aa', Buffer.from('\x1b[31mFAIL\x1b[0m\r\n\tok\x7f\n'));
  t.same(colour, { kind: 'text', handle: '00112233445566aa', lines: [{ text: '\x1b[31mFAIL\x1b[0m\r', cut: false, bytes: 14 }, { text: '\tok\x7f', cut: false, bytes: 4 }], bytes: 20, more: false });
  t.equal(preText('\x1b[31m<b>\x1b[0m\r\n\tok\x7f\n'), '<span class="ctl">^[</span>[31m&lt;b&gt;<span class="ctl">^[</span>[0m<span class="ctl">^M</span>\n\tok<span class="ctl">^?</span>\n', 'control characters in caret notation, marked');
  const long = Buffer.from('0123456789\n'.repeat(TRACE_SHOW_LINES + 10));
  const cut = traceOf('00112233445566aa', long);
  t.match(cut, { kind: 'text', bytes: long.length, more: true }, 'more lines than the page shows');
  if (cut.kind === 'text') t.same(cut.lines, Array(TRACE_SHOW_LINES).fill({ text: '0123456789', cut: false, bytes: 10 }), 'the first TRACE_SHOW_LINES lines');
  const wide = traceOf('00112233445566aa', Buffer.from('é'.repeat(1 << 20) + '\nend\n'));
  t.same(wide.kind === 'text' && wide.lines, [{ text: 'é'.repeat(LINE_SHOW_CHARS), cut: true, bytes: 2 << 20 }, { text: 'end', cut: false, bytes: 3 }], 'a long line: its head, and its length');
  const secret = traceOf('00112233445566aa', Buffer.from(`${'x'.repeat(LINE_SHOW_CHARS - 10)} GITHUB_TOKEN=ghp_${'a'.repeat(36)}\n`));
  t.notMatch(JSON.stringify(secret), /ghp_|aaaaaaaaaa/, 'a secret across the cut is masked whole, before the cut');
  const page = renderHtml({
    period: '7d', from: 1, now: 2,
    total: { runs: 1, applied: 1, bytesIn: 110, bytesDelivered: 44, bytesSaved: 66 },
    byDay: [], byFamily: [], byDoor: [],
    top: [{
      run: { id: 7, at: 1, door: 'pipe', host: null, family: 'generic', command: 'cat <x>', session: null, cwd: null, bytes_in: 110, bytes_out: 44, applied: 1, raw_handle: '00112233445566aa', delivered_handle: null },
      raw: cut,
      delivered: { kind: 'none' },
    }],
  });
  t.match(page, '<a href="#run-7-raw">raw</a>');
  t.match(page, '<section class="trace" id="run-7-raw">');
  t.match(page, `The first ${TRACE_SHOW_LINES} lines are shown with secrets masked; the whole text: <code>omni retrieve 00112233445566aa</code>`);
  t.match(page, '<span class="gone">delivered: not kept</span>');
  t.match(page, 'cat &lt;x&gt;');
  t.match(page, `default-src 'none'`, 'a CSP forbids every fetch');
});
