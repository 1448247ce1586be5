#!/usr/bin/env bash
# Extra real-output cases (5NN) for the test-runner and build families: passing runs big
# enough to show what a distiller folds (verbose jest/vitest, a many-object cmake build, a
# recursive make, a cargo workspace).
#
#   bash corpus/capture-extra.sh            # every case
#   bash corpus/capture-extra.sh 'cmake'    # only cases whose id matches the regex
#
# Every output.txt is the real merged stdout+stderr of really running cmd.txt against
# fixtures this script generates under a fresh temp dir. Nothing in an output is
# hand-written; must_keep lines are selected from the output by regex.
# Needs: node 20 + npm (registry reachable, or CORPUS_TOOLS=dir with jest and vitest
# installed), gcc, make, cmake, cargo.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=$HERE/cases
ONLY=${1:-.}
T=$(mktemp -d /tmp/omni-corpus5.XXXXXX)
TOOLS=${CORPUS_TOOLS:-$T/tools}
log() { printf '[capture5] %s\n' "$*" >&2; }

SYS_PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN_ENV=(
  PATH="$TOOLS/node_modules/.bin:$SYS_PATH" HOME="${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=120
  CARGO_TERM_PROGRESS_WHEN=never CARGO_TERM_COLOR=never npm_config_update_notifier=false
)
run() { (cd "$1" && env -i "${RUN_ENV[@]}" bash -c "$2"); }

CUR=""
# capture ID KIND FAMILY CWD CMD -- run CMD in CWD, stdout+stderr merged into output.txt
capture() {
  local id=$1 kind=$2 family=$3 cwd=$4 cmd=$5
  CUR=""
  [[ "$id" =~ $ONLY ]] || return 0
  local d=$CASES/$id
  rm -rf "$d"; mkdir -p "$d"
  printf '%s' "$cmd" > "$d/cmd.txt"
  printf '%s' "$kind" > "$d/kind.txt"
  printf '%s' "$family" > "$d/family.txt"
  local rc=0
  (cd "$cwd" && env -i "${RUN_ENV[@]}" bash -c "$cmd") > "$d/output.txt" 2>&1 < /dev/null || rc=$?
  printf '%s' "$rc" > "$d/exit_code.txt"
  : > "$d/must_keep.txt"
  CUR=$d
  log "$id  rc=$rc  $(wc -c < "$d/output.txt") bytes"
}
# keep_re 'ERE' ... -- every output line (ANSI stripped, trimmed) matching one of the regexes
keep_re() {
  [[ -n "$CUR" ]] || return 0
  local re
  for re in "$@"; do
    sed -e 's/\x1b\[[0-9;]*m//g' "$CUR/output.txt" | grep -E -- "$re" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' >> "$CUR/must_keep.txt" || true
  done
}

# ---------------------------------------------------------------- fixtures
node_tools() {
  [[ -x "$TOOLS/node_modules/.bin/jest" && -x "$TOOLS/node_modules/.bin/vitest" ]] && return 0
  mkdir -p "$TOOLS"
  run "$TOOLS" 'npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error jest@30 vitest@3 >/dev/null'
}

# js_suite DIR FLAVOUR FILES TESTS -- FILES test files of TESTS passing tests each
js_suite() {
  local dir=$1 flavour=$2 files=$3 tests=$4
  mkdir -p "$dir/src" "$dir/test"
  cat > "$dir/src/lib.js" <<'EOF'
function add(a, b) { return a + b; }
function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }
function slugify(s) { return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); }
module.exports = { add, clamp, slugify };
EOF
  local names=(accounts billing catalog invoices ledger orders profiles reports shipping stock)
  local f i
  for ((f = 0; f < files; f++)); do
    local n=${names[$f]}
    {
      [[ $flavour == vitest ]] && echo "import { describe, test, expect } from 'vitest';"
      [[ $flavour == vitest ]] && echo "import { add, clamp, slugify } from '../src/lib.js';" || echo "const { add, clamp, slugify } = require('../src/lib');"
      echo "describe('$n', () => {"
      for ((i = 1; i <= tests; i++)); do
        case $((i % 3)) in
          0) echo "  test('adds $i and $f', () => { expect(add($i, $f)).toBe($((i + f))); });" ;;
          1) echo "  test('clamps $((i * 7)) into 0..100', () => { expect(clamp($((i * 7)), 0, 100)).toBe($(( i * 7 > 100 ? 100 : i * 7 ))); });" ;;
          2) echo "  test('slugifies title #$i', () => { expect(slugify('Title $i!')).toBe('title-$i'); });" ;;
        esac
      done
      echo "});"
    } > "$dir/test/$n.test.js"
  done
  if [[ $flavour == vitest ]]; then
    echo '{ "name": "vitest-verbose", "version": "1.0.0", "type": "module", "private": true }' > "$dir/package.json"
    printf 'export function add(a, b) { return a + b; }\nexport function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }\nexport function slugify(s) { return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""); }\n' > "$dir/src/lib.js"
  else
    echo '{ "name": "jest-verbose", "version": "1.0.0", "private": true }' > "$dir/package.json"
  fi
}

# c_sources DIR PREFIX N -- N small C files with one function each, and a header
c_sources() {
  local dir=$1 prefix=$2 n=$3 i
  mkdir -p "$dir"
  : > "$dir/$prefix.h"
  for ((i = 1; i <= n; i++)); do
    printf 'int %s_%02d(int x) { return x * %d + 1; }\n' "$prefix" "$i" "$i" > "$dir/${prefix}_$(printf %02d "$i").c"
    printf 'int %s_%02d(int x);\n' "$prefix" "$i" >> "$dir/$prefix.h"
  done
}

# ---------------------------------------------------------------- cases
case_jest_vitest() {
  [[ "501-jest-verbose-pass 502-vitest-verbose-pass" =~ $ONLY ]] || return 0
  node_tools
  js_suite "$T/jest-verbose" jest 10 50
  capture 501-jest-verbose-pass test jest "$T/jest-verbose" 'jest --verbose'
  keep_re '^Tests:' '^Test Suites:' '^PASS '
  js_suite "$T/vitest-verbose" vitest 10 50
  capture 502-vitest-verbose-pass test vitest "$T/vitest-verbose" 'vitest run --reporter=verbose'
  keep_re '^ *Test Files' '^ *Tests  '
}

case_jest_error_names() {
  [[ "510-jest-verbose-error-names" =~ $ONLY ]] || return 0
  node_tools
  js_suite "$T/jest-errnames" jest 4 40
  cat > "$T/jest-errnames/test/errors.test.js" <<'EOF'
describe('errors', () => {
  test('throws TypeError on a missing email', () => { expect(() => null.trim()).toThrow(TypeError); });
  test('reports 0 errors for a clean cart', () => { expect([].length).toBe(0); });
  test('wraps the cause in an Error: prefix', () => { expect(String(new Error('x'))).toBe('Error: x'); });
  test('exit code 1 is mapped to failure', () => { expect(1 === 1).toBe(true); });
});
EOF
  capture 510-jest-verbose-error-names test jest "$T/jest-errnames" 'jest --verbose'
  keep_re '^Tests:' '^Test Suites:' 'TypeError' 'Error: prefix' 'exit code 1'
}

case_bun() {
  [[ "506-bun-test-pass 507-bun-test-fail" =~ $ONLY ]] || return 0
  if [[ ! -x "$TOOLS/node_modules/.bin/bun" ]]; then
    mkdir -p "$TOOLS"; run "$TOOLS" 'npm install --no-audit --no-fund --loglevel=error bun@1 >/dev/null'
  fi
  js_suite "$T/bun-pass" jest 10 50
  capture 506-bun-test-pass test bun-test "$T/bun-pass" 'bun test'
  keep_re '^ *[0-9]+ pass' '^ *[0-9]+ fail' '^Ran [0-9]+ tests'
  js_suite "$T/bun-fail" jest 6 50
  cat > "$T/bun-fail/test/pricing.test.js" <<'EOF'
const { add, clamp } = require('../src/lib');
describe('pricing', () => {
  test('adds tax to 100', () => { expect(add(100, 19)).toBe(120); });
  test('clamps a negative total', () => { expect(clamp(-5, 0, 100)).toEqual({ total: 0 }); });
  test('adds 1 and 1', () => { expect(add(1, 1)).toBe(2); });
});
EOF
  capture 507-bun-test-fail test bun-test "$T/bun-fail" 'bun test'
  keep_re '^ *[0-9]+ pass' '^ *[0-9]+ fail' '^Ran [0-9]+ tests' '^\(fail\)' '^ *(Expected|Received)' 'error: expect'
}

case_pytest() {
  [[ "508-pytest-quiet-pass" =~ $ONLY ]] || return 0
  local p=$T/py-quiet f i
  mkdir -p "$p/tests"
  for f in accounts billing catalog orders stock; do
    {
      echo 'import pytest'
      for ((i = 1; i <= 120; i++)); do
        printf 'def test_%s_%03d():\n    assert %d + %d == %d\n\n' "$f" "$i" "$i" "$i" "$((i * 2))"
      done
    } > "$p/tests/test_$f.py"
  done
  capture 508-pytest-quiet-pass test pytest "$p" 'python3 -m pytest -q -p no:cacheprovider'
  keep_re 'passed'
}

case_cmake() {
  local p=$T/cmake-many
  c_sources "$p/src" geo 24
  cat > "$p/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(geo C)
file(GLOB GEO_SOURCES src/*.c)
add_library(geo STATIC ${GEO_SOURCES})
target_include_directories(geo PUBLIC src)
add_executable(geo_cli main.c)
target_link_libraries(geo_cli geo)
enable_testing()
foreach(i RANGE 1 40)
  add_test(NAME geo_cli_run_${i} COMMAND geo_cli)
endforeach()
EOF
  printf '#include "geo.h"\n#include <stdio.h>\nint main(void) { printf("%%d\\n", geo_01(2)); return 0; }\n' > "$p/main.c"
  run "$p" 'cmake -S . -B build >/dev/null'
  capture 503-cmake-build-many-objects build cmake "$p" 'cmake --build build'
  keep_re 'Built target' 'warning|error'
  capture 509-ctest-pass test ctest "$p" 'ctest --test-dir build'
  keep_re 'tests passed' 'Total Test time'
}

case_make() {
  local p=$T/make-recursive
  c_sources "$p/util" util 10
  c_sources "$p/net" net 8
  mkdir -p "$p/app"
  printf '#include "../util/util.h"\n#include "../net/net.h"\n#include <stdio.h>\nint main(void) { int unused; printf("%%d\\n", util_01(1) + net_01(2)); return 0; }\n' > "$p/app/main.c"
  for sub in util net; do
    printf 'CFLAGS = -Wall -Wextra -O2\nOBJS = $(patsubst %%.c,%%.o,$(wildcard *.c))\nlib%s.a: $(OBJS)\n\tar rcs $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n' "$sub" > "$p/$sub/Makefile"
  done
  printf 'CFLAGS = -Wall -Wextra -O2\napp: main.o ../util/libutil.a ../net/libnet.a\n\t$(CC) -o $@ main.o ../util/libutil.a ../net/libnet.a\nmain.o: main.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n' > "$p/app/Makefile"
  printf 'all:\n\t$(MAKE) -C util\n\t$(MAKE) -C net\n\t$(MAKE) -C app\n' > "$p/Makefile"
  capture 504-make-recursive-warning build make "$p" 'make'
  keep_re 'warning:' '^cc -o app' 'ar rcs'
}

case_cargo() {
  local p=$T/rs-workspace i members=""
  mkdir -p "$p"
  for i in $(seq -w 1 14); do
    members="$members\"crates/part$i\", "
    mkdir -p "$p/crates/part$i/src"
    printf '[package]\nname = "part%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' "$i" > "$p/crates/part$i/Cargo.toml"
    printf 'pub fn value() -> u32 { %d }\n' "$((10#$i))" > "$p/crates/part$i/src/lib.rs"
  done
  mkdir -p "$p/crates/app/src"
  {
    printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
    for i in $(seq -w 1 14); do printf 'part%s = { path = "../part%s" }\n' "$i" "$i"; done
  } > "$p/crates/app/Cargo.toml"
  {
    printf 'fn main() {\n    let total = 0'
    for i in $(seq -w 1 14); do printf ' + part%s::value()' "$i"; done
    printf ';\n    let unused = 3;\n    println!("{total}");\n}\n'
  } > "$p/crates/app/src/main.rs"
  printf '[workspace]\nresolver = "2"\nmembers = [%s"crates/app"]\n' "$members" > "$p/Cargo.toml"
  capture 505-cargo-build-workspace build cargo-build "$p" 'cargo build'
  keep_re '^warning' '^ *--> ' 'Finished'
}

case_jest_vitest
case_jest_error_names
case_bun
case_pytest
case_cmake
case_make
case_cargo
log "done: $T"
