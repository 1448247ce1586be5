import type { DistillerSpec } from '../kit/spec.js';
import { EXCERPT_CARETS, EXCERPT_SOURCE, TOOL_RUNNERS, type Hit, type Recogniser } from './runner.js';
import { STATES_WARNING_OR_ERROR, warningExcerpts, type DiagnosticPart } from './shared.js';
import { leadTestAny } from '../base/lead.js';

/*
 * C/C++ builds (make, gcc/clang, cmake, meson, ninja, autoconf's configure, node-gyp). Recognised
 * as progress:
 * - compile commands (`gcc … -c x.c -o x.o`), with the lines a `\` continues them onto and
 *   automake's dependency-tracking wrapper around them (`depbase=\`echo x.o | sed …\`;\`
 *   … `mv -f $depbase.Tpo $depbase.Po`);
 * - make's housekeeping echoes: `rm -f`/`mkdir -p` lines, MakeMaker's `cp lib/X.pm
 *   blib/lib/X.pm` staging, and the multi-line recipes that
 *   write a generated file (`rm -f x.h-t x.h && \` … through the last continued line);
 * - quiet-rule step lines (automake's `  CC       lib/x.o`, gyp's `  CXX(target) Release/…`, a
 *   hand-written Makefile's unindented `CC build/x.o`);
 * - `make[1]: Entering/Leaving directory`, a sub-make's `Nothing to be done for 'all'.` and
 *   `'tests/x' is up to date.`, and automake's echo of the sub-make it starts (`make  check-TESTS`,
 *   `make  tests/a tests/b`: `$(MAKE) $(AM_MAKEFLAGS) …` with no flags, hence the two spaces);
 * - cmake's configure probes (`-- Detecting …`, `-- Check for working …`, `-- Looking for …`,
 *   `-- Performing Test …`), autoconf's `checking for x... yes`, meson's compiler checks (`Has
 *   header "x.h" : YES`, `Checking for function "x" : NO`, `Compiler for C supports arguments
 *   -Wx: YES`, `Checking for size of "long" : 8`), and per-object progress
 *   (`[ 16%] Building C object …`, `Linking …`, `Scanning dependencies …`, ninja's
 *   `[3/9] Building …` status lines with a known step verb);
 * - node-gyp's `gyp info` log lines (except its `gyp info ok` verdict);
 * - the source excerpt under a warning (`    4 | int x;`, `      |     ^~~`, a fix-it's
 *   `  +++ |+#include <stdio.h>`; clang 14's source line and caret line with no gutter), and
 *   under a note that goes on with a warning: the headline says what and where, the excerpt
 *   shows the line again. Between two warnings there is mostly one compile command, so only
 *   with its excerpt does that stretch pay for a marker. A failing build comes back verbatim
 *   whatever is recognised here (a failing exit passes whole); even so an error's excerpt,
 *   and its notes', is never taken, nor any after an error (shared.ts `warningExcerpts`).
 * Diagnostics' headlines with their `file:line:col`, `In function`/`In file included from`
 * context, an error's excerpt, link and archive commands and a linker's warnings, `Built
 * target`, cmake's `Configuring done`/`Build files have been written`, configure's
 * `config.status:` lines and warnings, meson's dependencies, programs and libraries found or
 * not (`Run-time dependency zlib found: NO`), its messages and summary, every `make: *** …
 * Error`, `gyp ERR!`/`gyp WARN` and a top-level `make: Nothing to be done` stay.
 */
const COMPILE: Hit = { noun: 'compile commands', one: 'compile command' };
const RECIPE: Hit = { noun: 'recipe echoes', one: 'recipe echo' };
/** A line a `\` continued an echoed command onto: hidden with it, not counted again. */
const CONTINUATION: Hit = { noun: '' };
const DIRECTORY: Hit = { noun: 'make directory lines', one: 'make directory line' };
const IDLE: Hit = { noun: 'idle sub-make lines', one: 'idle sub-make line' };
const PROBE: Hit = { noun: 'configure checks', one: 'configure check' };
const STEP: Hit = { noun: 'build steps', one: 'build step' };
const GYP: Hit = { noun: 'gyp info lines', one: 'gyp info line' };
/** The first line of a warning's excerpt (each excerpt counts once), and the lines after it. */
const EXCERPT: Hit = { noun: 'excerpts', one: 'excerpt' };
const EXCERPT_LINE: Hit = { noun: '' };

const COMPILER = /^\s*(\S*\/)?(gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(-\d+)?( [^;&|]*)? -c /;
const COMPILE_LINE = new RegExp(`${COMPILER.source}[^;&|]*$`);
/** automake's dependency-tracking recipe opens with this line; the compile and `mv` follow on continued lines. */
const DEPBASE = /^depbase=`echo \S+ \| sed .*`;\s*\\$/;
/** make echoing a housekeeping command (one line), or the first line of a continued recipe. */
const HOUSEKEEPING = /^((\S*\/)?rm -f|(\S*\/)?mkdir -p|mv -f) [^;&|<>`$]+$/;
/** ExtUtils::MakeMaker's staging of a Perl distribution's modules and scripts into `blib/`. */
const BLIB_COPY = /^cp \S+ blib\/(lib|arch|script|bin|man\d)\/\S+$/;
const RECIPE_HEAD = /^((\S*\/)?rm -f|mv -f|\{ echo|sed -[ne]|(\S*\/)?mkdir -p) .*(&&|;|\|)?\s*\\$/;
const MAKE_DIR = /^g?make(\[\d+\])?: (Entering|Leaving) directory /;
const SUB_MAKE_IDLE = /^g?make\[\d+\]: (Nothing to be done for '[^']+'|'[^']+' is up to date)\.$/;
const SUB_MAKE_ECHO = /^g?make {2}[\w./ -]+$/;
const CMAKE_PROBE = /^-- (Detecting \S|Check for working |Looking for \S|Performing Test \S|Check if \S|Checking whether \S|Check size of \S)/;
const AUTOCONF_PROBE = /^checking .+\.\.\.( .*)?$/;
/**
 * meson's compiler checks, one whole line each with the check's answer after ` : ` or `: `; what
 * it found of the system (a dependency, a program, a library) is the configure's answer and stays.
 */
const MESON_PROBE = /^(Has header "[^"]+"( with dependenc(y|ies) [^:]+)? : (YES|NO)|Header "[^"]+" has symbol "[^"]+"( with dependenc(y|ies) [^:]+)? : (YES|NO)|Checking for (function|type) "[^"]+"( with dependenc(y|ies) [^:]+)? : (YES|NO)|Checking for (size|alignment) of "[^"]+"( with dependenc(y|ies) [^:]+)? : \d+|Checking if "[^"]+" (compiles|links|runs): (YES|NO)|Checking whether type "[^"]+" has members? .+ : (YES|NO)|Fetching value of define "[^"]+" : .*|Compiler for \S+ supports (arguments|link arguments|function attribute) \S.*: (YES|NO))(?: \(cached\))? ?$/;
/** Per-object progress; ninja's `[n/m]` status lines with the verbs cmake, meson and gn describe steps with. */
const CMAKE_STEP = /^(\[\s*\d+%\] (Building|Linking) \S|Scanning dependencies of target \S|\[\d+\/\d+\] (Building|Linking|Creating library symlink|Generating|Compiling|Copying|Installing|Running|Re-running|Re-checking|Automatic MOC|Automatic RCC|Stamping|ACTION|CC|CXX|LINK|SOLINK|STAMP|AR|CXX_MODULE) \S)/;
const QUIET_STEP = /^ {2}(CC|CCLD|CXX|CXXLD|AR|RANLIB|GEN|YACC|LEX|LD|AS|CPPAS|SOLINK|SOLINK_MODULE|LINK|COPY|TOUCH|ACTION|RULE|OBJC|OBJCXX)(\(target\)|\(host\))? +\S/;
/**
 * A hand-written Makefile's quiet rule with no indent (`@echo "CC $@"`: `CC build/x.o`, `AR
 * build/libx.a`; or `[CC] x.o`): the step's word and one built file, nothing else on the line.
 */
const BARE_STEP = /^(CC|CXX|AS|CCLD|CXXLD|LD|AR|RANLIB) +\S+\.(o|a|so|lo|la|obj)\s*$|^\[(CC|CXX|AS|LD|AR)\] +\S+\.(c|cc|cpp|cxx|S|o|a|so)\s*$/;
const GYP_INFO = /^gyp info (?!ok\s*$)\S/;
/** A line make echoed that a trailing `\` continues onto the next line. */
const CONTINUED = /\\$/;
/** gcc's and clang's headline: `src/x.c:12:5: warning: …`, `x.c:3:7: note: …`. */
const HEADLINE = /^[^\s:][^:]*:\d+(?::\d+)?: (warning|error|fatal error|note): /;
/** A line of gcc's excerpt: its source (`    4 | int x;`), carets and labels (`      |   ^~~`), a fix-it's insertion (`  +++ |+#include <stdio.h>`). */
const EXCERPT_SHAPE = /^ +(\d+ )?\|( |$)|^ +\+\+\+ \|\+/;

/** The line under a gutterless excerpt's source line: carets and ranges only (`~~~ ^ ~~~`). */
const CARETS_ONLY = /^[ ~^]*\^[ ~^]*$/;
const NON_BLANK = /\S/;
type Shape = 'gutter' | 'source' | 'carets' | null;

/**
 * gcc's and clang's diagnostics, read line by line (a note goes on with the warning or error
 * above it). clang before 17 and gcc before 9 print an excerpt with no gutter: the source line
 * as it is, then its carets. Such a source line is told only by where it stands, right after a
 * headline; `shape` says which kind of excerpt line the last line read was, so the recogniser
 * can hide the source line only once the caret line under it has come (Hit.section).
 */
function gccReader(): { partOf: (p: string) => DiagnosticPart; shape: () => Shape } {
  let prev: 'headline' | 'source' | null = null;
  let shape: Shape = null;
  const partOf = (p: string): DiagnosticPart => {
    const was = prev;
    prev = null;
    shape = null;
    const h = HEADLINE.exec(p);
    if (h) {
      prev = 'headline';
      return h[1] === 'warning' ? 'warning' : h[1] === 'note' ? 'sub' : 'error';
    }
    if (EXCERPT_SHAPE.test(p)) shape = 'gutter';
    else if (was === 'headline' && NON_BLANK.test(p)) prev = shape = 'source';
    else if (was === 'source' && CARETS_ONLY.test(p)) shape = 'carets';
    return shape ? 'excerpt' : null;
  };
  return { partOf, shape: () => shape };
}

function ccRecogniser(): Recogniser {
  // Inside an echoed command that a trailing `\` continues onto the next line.
  let continued = false;
  const open = (h: Hit, p: string): Hit => {
    continued = CONTINUED.test(p);
    return h;
  };
  const reader = gccReader();
  const excerpt = warningExcerpts(reader.partOf);
  return {
    see: (_l, p) => {
      // Every line goes through the excerpt reader: any line that is not a diagnostic's ends it.
      const ex = excerpt(p);
      if (continued) return open(CONTINUATION, p);
      if (ex) {
        const shape = reader.shape();
        return shape === 'source' ? EXCERPT_SOURCE : shape === 'carets' ? EXCERPT_CARETS : ex === 'opens' ? EXCERPT : EXCERPT_LINE;
      }
      if (COMPILE_LINE.test(p) || DEPBASE.test(p)) return open(COMPILE, p);
      if (RECIPE_HEAD.test(p)) return open(RECIPE, p);
      if (HOUSEKEEPING.test(p) || SUB_MAKE_ECHO.test(p) || BLIB_COPY.test(p)) return RECIPE;
      if (MAKE_DIR.test(p)) return DIRECTORY;
      if (SUB_MAKE_IDLE.test(p)) return IDLE;
      if ((CMAKE_PROBE.test(p) || AUTOCONF_PROBE.test(p) || MESON_PROBE.test(p)) && !STATES_WARNING_OR_ERROR.test(p)) return PROBE;
      if (CMAKE_STEP.test(p) || QUIET_STEP.test(p) || BARE_STEP.test(p)) return STEP;
      if (GYP_INFO.test(p)) return GYP;
      return null;
    },
  };
}

export default {
  name: 'cc',
  family: 'build',
  producers: ['make', 'gmake', 'cmake', 'meson', 'ninja', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'configure', 'node-gyp'],
  runners: TOOL_RUNNERS,
  rewrite: true,
  detect: leadTestAny(MAKE_DIR, CMAKE_STEP, /^-- (Configuring done|Build files have been written)/, /^checking for \S.*\.\.\. /, /^gyp info it worked if it ends with ok/, /^The Meson build system$/),
  lines: ccRecogniser,
  examples: [
    // corpus/cases/504-make-recursive-warning, lines 15-35
    {
      command: 'make',
      input: `make -C net
make[1]: Entering directory '/tmp/omni-corpus5.I5HbdM/make-recursive/net'
cc -Wall -Wextra -O2 -c net_01.c -o net_01.o
cc -Wall -Wextra -O2 -c net_02.c -o net_02.o
cc -Wall -Wextra -O2 -c net_03.c -o net_03.o
cc -Wall -Wextra -O2 -c net_04.c -o net_04.o
cc -Wall -Wextra -O2 -c net_05.c -o net_05.o
cc -Wall -Wextra -O2 -c net_06.c -o net_06.o
cc -Wall -Wextra -O2 -c net_07.c -o net_07.o
cc -Wall -Wextra -O2 -c net_08.c -o net_08.o
ar rcs libnet.a net_01.o net_02.o net_03.o net_04.o net_05.o net_06.o net_07.o net_08.o
make[1]: Leaving directory '/tmp/omni-corpus5.I5HbdM/make-recursive/net'
make -C app
make[1]: Entering directory '/tmp/omni-corpus5.I5HbdM/make-recursive/app'
cc -Wall -Wextra -O2 -c main.c -o main.o
main.c: In function ‘main’:
main.c:4:22: warning: unused variable ‘unused’ [-Wunused-variable]
    4 | int main(void) { int unused; printf("%d\\n", util_01(1) + net_01(2)); return 0; }
      |                      ^~~~~~
cc -o app main.o ../util/libutil.a ../net/libnet.a
make[1]: Leaving directory '/tmp/omni-corpus5.I5HbdM/make-recursive/app'
`,
      output: `make -C net
[omni: 1 make directory line, 8 compile commands folded — omni retrieve <handle>]
ar rcs libnet.a net_01.o net_02.o net_03.o net_04.o net_05.o net_06.o net_07.o net_08.o
[omni: 1 make directory line folded — omni retrieve <handle>]
make -C app
[omni: 1 make directory line, 1 compile command folded — omni retrieve <handle>]
main.c: In function ‘main’:
main.c:4:22: warning: unused variable ‘unused’ [-Wunused-variable]
[omni: 1 excerpt folded — omni retrieve <handle>]
cc -o app main.o ../util/libutil.a ../net/libnet.a
[omni: 1 make directory line folded — omni retrieve <handle>]
`,
    },
  ],
} satisfies DistillerSpec;
