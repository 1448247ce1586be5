import type { Item, Line } from '../kit/types.js';
import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { NOTHING, type LineHandler, type Recognition } from './hide.js';
import { programOf, subcommand, textOf } from './shared.js';

/*
 * Search (grep, rg, ag, ack, git grep) keeps every match. `path:N:text` lines of one file
 * group under one `path` line (`  N:text` below it) when the file has several matches, so
 * only the repeated path goes; the exact output is in the whole raw output render archives.
 * Reads (`cat`, `head`, `tail`, `sed -n`, `bat`) are read.ts's.
 */
const MATCH = /^(.+?):(\d+)([:-])(.*)$/;

/** Does this search print `path:` prefixes? Recursive grep, rg/ag/ack/git grep, or several files. */
function printsPaths(argv: string[]): boolean {
  const p = programOf(argv);
  if (p !== 'grep' && p !== 'egrep' && p !== 'fgrep' && p !== 'zgrep') return !argv.includes('--no-filename') && !argv.includes('-I');
  if (argv.includes('-h') || argv.includes('--no-filename')) return false;
  if (argv.some((a) => /^-[a-zA-Z]*[rRH]/.test(a) || a === '--recursive' || a === '--with-filename')) return true;
  const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
  return operands.length >= 3; // pattern + at least two files
}

/** `path:N:text` lines of one file, grouped under one `path` line: a rewritten form (nothing hidden). */
function grouped(): LineHandler {
  let path: string | null = null;
  let group: Array<{ l: Line; rest: string }> = [];
  const flush = (out: Item[]) => {
    if (group.length >= 2 && path!.length >= 4) {
      group.forEach((g, i) => { g.l.out = i === 0 ? `${path}\n  ${g.rest}` : `  ${g.rest}`; });
    }
    for (const g of group) out.push(g.l);
    group = [];
    path = null;
  };
  return {
    line(l, out) {
      // A line that is not UTF-8 goes out as its own bytes, whole: it cannot join a group, whose
      // rows below the path would then read as the path's when it printed none.
      const m = l.bytes === undefined ? MATCH.exec(textOf(l)) : null;
      if (!m) { flush(out); out.push(l); return; }
      if (m[1] !== path) flush(out);
      path = m[1];
      group.push({ l, rest: `${m[2]}${m[3]}${m[4]}` });
    },
    batchEnd: flush,
  };
}

function recogniser(route: ProducerRoute): Recognition {
  return printsPaths(route.argv) ? { unit: 'rewrite', lines: grouped } : NOTHING;
}

const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep']);

export default {
  name: 'search',
  family: 'search',
  matches: (argv) => SEARCHERS.has(programOf(argv)) || (programOf(argv) === 'git' && subcommand(argv) === 'grep'),
  answer: true,
  lines: recogniser,
  examples: [
    // corpus/cases/722-rg, lines 1-10
    {
      command: 'rg -n "function [a-z]+\\(" node_modules/express/lib',
      input: `node_modules/express/lib/application.js:64:app.init = function init() {
node_modules/express/lib/application.js:96:  this.on('mount', function onmount(parent) {
node_modules/express/lib/application.js:144:app.lazyrouter = function lazyrouter() {
node_modules/express/lib/application.js:165:app.handle = function handle(req, res, callback) {
node_modules/express/lib/application.js:194:app.use = function use(fn) {
node_modules/express/lib/application.js:261:app.route = function route(path) {
node_modules/express/lib/application.js:300:app.engine = function engine(ext, fn) {
node_modules/express/lib/application.js:328:app.param = function param(name, fn) {
node_modules/express/lib/application.js:359:app.set = function set(setting, val) {
node_modules/express/lib/application.js:417:app.path = function path() {
`,
      output: `node_modules/express/lib/application.js
  64:app.init = function init() {
  96:  this.on('mount', function onmount(parent) {
  144:app.lazyrouter = function lazyrouter() {
  165:app.handle = function handle(req, res, callback) {
  194:app.use = function use(fn) {
  261:app.route = function route(path) {
  300:app.engine = function engine(ext, fn) {
  328:app.param = function param(name, fn) {
  359:app.set = function set(setting, val) {
  417:app.path = function path() {
[omni: 10 lines condensed; whole output — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
