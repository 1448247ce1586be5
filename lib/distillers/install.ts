import type { DistillerSpec } from '../kit/spec.js';
import type { Line } from '../kit/types.js';
import { onlyWhere } from './hide.js';
import { plural, programOf, subcommand, textOf } from './shared.js';
import { PYTHON } from '../command/runners.js';
import { leadTestAny } from '../base/lead.js';

/*
 * Package managers: npm, pnpm, yarn, pip, apt-get, Bundler, RubyGems and Composer. Download, fetch, cache, progress,
 * unpack and funding lines are hidden in place, one marker per contiguous run. pip's
 * repeated `WARNING: Retrying (Retry(total=N …` lines keep the first of each run (it says
 * why) and hide the rest. Errors, other warnings, conflicts, the list of packages apt will
 * install, apt's `Setting up <pkg>` outcome lines, apt-get update's closing `Fetched N kB
 * in …` summary and the final `added N packages` / `Successfully installed` / `N newly
 * installed` lines stay verbatim (they match none of the patterns below), and so do Bundler's
 * `Installing x 1.2.3` (what it added; a gem it already had is a `Using` line, hidden like pip's
 * `Requirement already satisfied`), `Bundle complete!`, RubyGems' `Successfully installed` and
 * Composer's `- Locking`/`- Installing x (1.2.0)` lines and its operation counts.
 */
/**
 * dpkg's own progress lines, as apt-get prints them and as /var/log/apt/term.log records
 * them: what is being unpacked and triggered (each package's `Setting up` outcome is not one).
 */
export const DPKG_PROGRESS: RegExp[] = [
  /^Selecting previously unselected package \S+\.$/,
  /^\(Reading database \.\.\.( \d+%| \d+ files and directories currently installed\.\))?$/,
  /^Preparing to unpack \S+ \.\.\.$/,
  /^Unpacking \S+ \(.*\)( over \(.*\))? \.\.\.$/,
  /^Processing triggers for \S+ \(.*\) \.\.\.$/,
];

const PROGRESS: RegExp[] = [
  // npm (--loglevel http/verbose/silly) and the funding notice
  /^npm (http fetch (GET|POST|PUT|HEAD) [23]\d\d |http cache \S+ \d+m?s \(cache (hit|revalidated|stale|updated)\)$|timing |verb |verbose |sill |silly )/,
  /^\d+ packages? (is|are) looking for funding$/,
  /^ {2}run `npm fund` for details$/,
  // pnpm
  /^Progress: resolved \d+, reused \d+, downloaded \d+, added \d+(, done)?$/,
  /^\++$/,
  /^Downloading \S+: [\d.]+ [kMG]?B\/[\d.]+ [kMG]?B(, done)?$/,
  // yarn v1
  /^\[\d\/\d\] (Resolving|Fetching|Linking|Building|Validating)( fresh)? packages\.\.\.$/,
  /^info (No lockfile found|Lockfile is up to date|fsevents|There appears to be trouble)/,
  /^yarn install v\d/,
  // pip
  /^(Collecting|Processing|Requirement already satisfied:|Installing collected packages:|Building wheels for collected packages:|Looking in indexes:|Attempting uninstall:) /,
  /^ {2}(Downloading|Using cached|Obtaining|Preparing metadata|Installing build dependencies|Getting requirements to build|Building wheel for|Created wheel for|Stored in directory:|File was already downloaded|Found existing installation:|Uninstalling|Successfully uninstalled|Installing backend dependencies)(?=[\s:(]|$)/,
  /^ {4}(Found existing installation:|Uninstalling |Successfully uninstalled )/,
  /^\s*[━╸╺─\-]+ [\d.]+\/[\d.]+ [kMG]?B [\d.]+ [kMG]?B\/s( eta [\d:]+)?$/,
  /^\[notice\] (A new release of pip|To update, run:)/,
  // Bundler: the gems it already has, what it fetches, its resolution; RubyGems' documentation steps
  // (a platform gem names its platform: `Using nokogiri 1.15.4 (x86_64-linux)`)
  /^Using \S+ \d[\w.]*( \([\w.-]+\))?( \(was [\w.]+\))?( from .+)?$/,
  /^Fetching \S+ \d[\w.]*( \([\w.-]+\))?$/,
  /^Fetching (gem metadata|source index) from \S+/,
  /^Resolving dependencies\.\.\.+$/,
  /^(Parsing documentation|Installing (ri|rdoc) documentation) for \S+$/,
  /^Done installing documentation for .+ after \d+ seconds?$/,
  // Composer: its downloads (each package's `Installing x (1.2.0): Extracting archive` stays, and so
  // does each `Locking x (1.2.0)`: without an install, `composer update --no-install`, they are the answer)
  /^ {2}- Downloading [\w.-]+\/[\w.-]+ \([^)]+\)$/,
  /^Loading composer repositories with package information$/,
  // its progress bars, as a pipe gets them (`  0/14 [>-----]   0%`, `    0 [>-----]    0 [->----]`)
  /^ *\d+(?:\/\d+)? \[[=>-]+\](?: +\d+%)?(?: +\d+(?:\/\d+)? \[[=>-]+\](?: +\d+%)?)* *$/,
  /^\d+ packages? you are using (is|are) looking for funding\.$/,
  /^Use the `composer fund` command to find out more!$/,
  // apt-get / dpkg
  /^(Reading package lists|Building dependency tree|Reading state information)\.\.\.( Done)?$/,
  /^(Get|Hit|Ign):\d+ \S+/,
  ...DPKG_PROGRESS,
  // needrestart after apt-get: the all-clear lines (anything it does restart stays)
  /^No (services|containers) need to be restarted\.$/,
  /^No user sessions are running outdated binaries\.$/,
  /^No VM guests are running outdated hypervisor \(qemu\) binaries on this host\.$/,
  /^The processor microcode seems to be up-to-date\.$/,
  /^(Scanning processes|Scanning candidates|Scanning linux images)\.\.\.\s*$/,
];

/** Each behind its first-char gate: sniffing tries them on every first line of every run. */
const isProgress = leadTestAny(...PROGRESS);

/** pip's retry of a connection (PyPI unreachable): the first of a run says why, the rest repeat it. */
const PIP_RETRY = /^WARNING: Retrying \(Retry\(total=\d+, /;

/**
 * pip's `WARNING: Retrying (Retry(total=N, …)) after connection broken by '…Failed to
 * establish a new connection…'` is a warning that it will try again, not a failure: the
 * failure, if it comes, is pip's own `ERROR:` line.
 */
const PIP_RETRY_WARNING = /^WARNING: Retrying \(Retry\(total=/;

function note(h: Line[]): string {
  let retries = 0;
  for (const l of h) if (PIP_RETRY.test(textOf(l))) retries++;
  const parts: string[] = [];
  if (h.length > retries) parts.push(plural(h.length - retries, 'download, progress and notice line'));
  if (retries) parts.push(plural(retries, 'more pip retry warning'));
  return `${parts.join(', ')} hidden`;
}

/** Progress, downloads and notices go; after the first of a run of pip retries, the rest go too. */
function recogniser() {
  let prevRetry = false;
  return onlyWhere((l) => {
    const t = textOf(l);
    const retry = PIP_RETRY.test(t);
    const again = retry && prevRetry;
    prevRetry = retry;
    if (again) return true;
    // pnpm's `Progress: … , done` is its own summary of the progress lines: it stays.
    return !retry && isProgress(t) && !(t.startsWith('Progress: ') && t.endsWith(', done'));
  }, note);
}

const PIP_SUBS = new Set(['install', 'download', 'uninstall', 'wheel']);
const NODE_SUBS = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'remove', 'rm', 'uninstall', 'dedupe', 'rebuild', 'link']);
const BUNDLE_SUBS = new Set(['', 'install', 'update', 'add']);
const GEM_SUBS = new Set(['install', 'update']);
const COMPOSER_SUBS = new Set(['install', 'i', 'update', 'u', 'upgrade', 'require', 'r', 'remove', 'rm', 'reinstall']);
const APT_SUBS = new Set(['install', 'upgrade', 'dist-upgrade', 'full-upgrade', 'update', 'remove', 'purge', 'autoremove', 'reinstall']);

function matches(argv: string[]): boolean {
  const p = programOf(argv);
  if (p === 'npm' || p === 'pnpm') return NODE_SUBS.has(subcommand(argv));
  if (p === 'yarn') return subcommand(argv) === '' || NODE_SUBS.has(subcommand(argv));
  if (/^pip(3(\.\d+)?)?$/.test(p)) return PIP_SUBS.has(subcommand(argv));
  // `python3 -m pip install`: through the runner the spec declares.
  const pip = /^python(3(\.\d+)?)?$/.test(p) ? PYTHON.runs!(argv) : null;
  if (pip && /^pip3?$/.test(pip[0] ?? '')) return PIP_SUBS.has(subcommand(pip));
  if (p === 'apt-get' || p === 'apt') return APT_SUBS.has(subcommand(argv));
  // A bare `bundle` is `bundle install`.
  if (p === 'bundle' || p === 'bundler') return BUNDLE_SUBS.has(subcommand(argv));
  if (p === 'gem') return GEM_SUBS.has(subcommand(argv));
  if (p === 'composer' || p === 'composer.phar') return COMPOSER_SUBS.has(subcommand(argv));
  return false;
}

export default {
  name: 'install',
  family: 'install',
  runners: [PYTHON],
  matches,
  rewrite: true,
  sniff: (head) => {
    let hits = 0;
    for (const l of head) if (isProgress(textOf(l)) && !/^\++$/.test(textOf(l))) hits++;
    return hits >= 5 && hits >= head.length / 2;
  },
  lines: recogniser,
  signals: [PIP_RETRY_WARNING],
  examples: [
    // corpus/cases/712-npm-ci-loglevel-http, lines 254-266
    {
      command: 'npm ci --loglevel=http',
      input: `npm http fetch GET 200 https://registry.npmjs.org/qs/-/qs-6.11.0.tgz 2710ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/qs/-/qs-6.5.5.tgz 2115ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/ajv 6904ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/psl/-/psl-1.15.0.tgz 4473ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/express/-/express-4.19.2.tgz 654ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/iconv-lite/-/iconv-lite-0.4.24.tgz 4163ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/uri-js/-/uri-js-4.4.1.tgz 5155ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/ajv/-/ajv-6.15.0.tgz 776ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/typescript 7955ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz 6494ms (cache updated)
npm http fetch GET 200 https://registry.npmjs.org/typescript/-/typescript-5.4.5.tgz 2158ms (cache updated)

added 132 packages in 11s
`,
      output: `[omni: 11 download, progress and notice lines hidden — omni retrieve <handle>]

added 132 packages in 11s
`,
    },
  ],
} satisfies DistillerSpec;
