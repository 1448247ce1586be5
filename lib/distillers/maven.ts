import type { DistillerSpec } from '../kit/spec.js';
import { LEAD, type Hit } from './hide.js';
import { STATES_WARNING_OR_ERROR } from './shared.js';
import { leadTest } from '../base/lead.js';

/*
 * Maven (`mvn`, the wrapper `mvnw`, the daemon's `mvnd`), read by its log's `[INFO]` lines,
 * coloured or not. Recognised as noise: each transfer from a repository (`Downloading from
 * central: …`, `Downloaded from central: … (6.4 kB at 914 kB/s)`, a first build prints hundreds),
 * the log's blank and ruled lines, and a plugin step's heading and housekeeping (`--- maven-
 * compiler-plugin:3.10.1:compile (default-compile) @ ledger ---`, `Changes detected - recompiling
 * the module!`, `Nothing to compile - all classes are up to date`). A step's heading lines stay
 * when what follows them stays (javac's warnings under the compiler plugin's heading). What
 * stays: every WARNING and ERROR, each module's `Building x 0.1.0`, each test class surefire ran
 * with its tally (a class's verdict is an answer, as jest's per-file PASS lines are), the totals,
 * the reactor's build order and summary, the jar built, `BUILD SUCCESS` and the time taken.
 */
/** A transfer's two lines count once, by the line that says it was done. */
const DOWNLOADING: Hit = { noun: '' };
const DOWNLOADED: Hit = { noun: 'downloads', one: 'download' };
const QUIET: Hit = { noun: '' };
/** A plugin step's heading and housekeeping: hidden in a run, kept whole before what stays. */
const STEP: Hit = { noun: 'plugin step lines', one: 'plugin step line', heading: true };

const INFO = '[INFO] ';
/** `Downloading from central: https://…` and `Downloaded from central: https://… (531 B at 17 kB/s)`, with or without `[INFO] `. */
const TRANSFER = /^(?:\[INFO\] )?Download(ing|ed) from [\w.-]+: [a-z][\w+.-]*:\/\/\S+(?: \([\d.]+ [kMG]?B(?: at [\d.]+ [kMG]?B\/s)?\))?$/;
/** The log's rules: a bare one, the module banner's (`---< shop:ledger >---`, `---[ jar ]---`); hidden only inside a run, like a blank line. */
const RULE = /^\[INFO\] (?:-{20,}|-+< [\w.:-]+ >-+|-+\[ [\w.-]+ \]-+)$/;
const PLUGIN_STEP = /^\[INFO\] --- [\w.-]+:[\w.-]+:[\w.-]+ \([^)]*\) @ [\w.-]+ ---$/;
const HOUSEKEEPING = /^\[INFO\] (?:skip non existing resourceDirectory \S.*|Using '[\w-]+' encoding to copy filtered (?:resources|properties files)\.|Copying \d+ resources?(?: from \S+ to \S+)?|Changes detected - recompiling the module!(?: :\S.*)?|Recompiling the module because of [\w ]+\.|Nothing to compile - all classes are up to date\.?|No sources to compile|Compiling \d+ source files? (?:to|with javac \[[^\]]*\] to) \S.*)$/;
const QUIET_LINE = /^\[INFO\] (?:Scanning for projects\.\.\.| T E S T S|Results:|Finished at: \S+)$/;

function transfer(plain: string): Hit | null {
  const m = TRANSFER.exec(plain);
  return m === null ? null : m[1] === 'ing' ? DOWNLOADING : DOWNLOADED;
}

function see(plain: string): Hit | null {
  if (!plain.startsWith(INFO)) return transfer(plain);
  if (plain.length === INFO.length || plain.trim() === '[INFO]') return LEAD;
  if (STATES_WARNING_OR_ERROR.test(plain)) return null;
  const c = plain.charCodeAt(INFO.length);
  if (c === 0x2d /* - */) return PLUGIN_STEP.test(plain) ? STEP : RULE.test(plain) ? LEAD : null;
  const t = transfer(plain);
  if (t) return t;
  if (HOUSEKEEPING.test(plain)) return STEP;
  if (QUIET_LINE.test(plain)) return QUIET;
  return null;
}

export default {
  name: 'maven',
  family: 'build',
  producers: ['mvn', 'mvnw', 'mvnd'],
  rewrite: true,
  detect: leadTest(/^(?:\x1b\[[\d;]*m)*\[(?:\x1b\[[\d;]*m)*INFO(?:\x1b\[[\d;]*m)*\] Scanning for projects\.\.\./),
  lines: () => ({ see: (_l, p) => see(p), others: 'keep' }),
  examples: [
    // corpus/cases/1267-mvn-verify-warm-pass, lines 1-33 (colours left out)
    {
      command: 'mvn verify',
      input: `[INFO] Scanning for projects...
[INFO] 
[INFO] ----------------------------< shop:ledger >-----------------------------
[INFO] Building ledger 0.1.0
[INFO] --------------------------------[ jar ]---------------------------------
[INFO] 
[INFO] --- maven-resources-plugin:3.3.0:resources (default-resources) @ ledger ---
[INFO] skip non existing resourceDirectory /tmp/eco/maven/ledger/src/main/resources
[INFO] 
[INFO] --- maven-compiler-plugin:3.10.1:compile (default-compile) @ ledger ---
[INFO] Nothing to compile - all classes are up to date
[INFO] 
[INFO] --- maven-resources-plugin:3.3.0:testResources (default-testResources) @ ledger ---
[INFO] skip non existing resourceDirectory /tmp/eco/maven/ledger/src/test/resources
[INFO] 
[INFO] --- maven-compiler-plugin:3.10.1:testCompile (default-testCompile) @ ledger ---
[INFO] Nothing to compile - all classes are up to date
[INFO] 
[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ ledger ---
[INFO] 
[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running shop.MoneyTest
[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.052 s - in shop.MoneyTest
[INFO] Running shop.LedgerTest
[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.003 s - in shop.LedgerTest
[INFO] 
[INFO] Results:
[INFO] 
[INFO] Tests run: 8, Failures: 0, Errors: 0, Skipped: 0
[INFO] 
[INFO] 
`,
      output: `[INFO] Scanning for projects...
[INFO] 
[INFO] ----------------------------< shop:ledger >-----------------------------
[INFO] Building ledger 0.1.0
[omni: 9 plugin step lines folded — omni retrieve <handle>]
[INFO] -------------------------------------------------------
[INFO] Running shop.MoneyTest
[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.052 s - in shop.MoneyTest
[INFO] Running shop.LedgerTest
[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.003 s - in shop.LedgerTest
[INFO] 
[INFO] Results:
[INFO] 
[INFO] Tests run: 8, Failures: 0, Errors: 0, Skipped: 0
[INFO] 
[INFO] 
`,
    },
  ],
} satisfies DistillerSpec;
