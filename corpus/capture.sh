#!/usr/bin/env bash
# Regenerates the omni real-output corpus (corpus/cases/NNN-name/).
#
#   bash corpus/capture.sh            # every case
#   bash corpus/capture.sh 'jest|git' # only cases whose id matches the regex
#
# Every output.txt is the real merged stdout+stderr of really running cmd.txt
# against fixtures that this script creates under a fresh temp dir.  Nothing
# in an output is hand-written.  Set CORPUS_TMP=/some/dir to reuse a scratch
# dir between runs (faster: npm tools are not reinstalled).
#
# Needs: node 20 + npm (registry reachable), cargo, go, gcc, make, cmake, git,
# python3 + pytest (Debian), ripgrep, tree, jq, nginx, postgresql, curl, wget.
# `install_system_tools` apt-installs what is missing (run as root).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=$HERE/cases
ONLY=${1:-.}
T=${CORPUS_TMP:-$(mktemp -d /tmp/omni-corpus.XXXXXX)}
mkdir -p "$T" "$CASES"
T=$(cd "$T" && pwd)
log() { printf '[capture] %s\n' "$*" >&2; }
log "scratch dir: $T"

# ---------------------------------------------------------------- environment
# Every command runs under `env -i` with this controlled environment, so no
# variable of the machine that runs the capture leaks into an output.
SYS_PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p "$T/home" "$T/gocache" "$T/gopath"
cat > "$T/gitconfig" <<'EOF'
[user]
	name = Dana Developer
	email = dana@example.com
[init]
	defaultBranch = main
[advice]
	detachedHead = false
EOF
RUN_ENV=(
  PATH="$SYS_PATH" HOME="${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=120
  GIT_CONFIG_GLOBAL="$T/gitconfig" GIT_PAGER=cat PAGER=cat
  GOCACHE="$T/gocache" GOPATH="$T/gopath" GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
  CARGO_TERM_PROGRESS_WHEN=never npm_config_update_notifier=false
)
# run CWD CMD -- run a command in the controlled environment (no capture)
run() { (cd "$1" && env -i "${RUN_ENV[@]}" bash -c "$2"); }

# ---------------------------------------------------------------- capture helpers
NEXT_ID=0
CUR=""
want() { [[ "$1" =~ $ONLY ]]; }

# capture NAME KIND FAMILY CWD CMD
#   Runs CMD (exactly the text written to cmd.txt) with bash -c in CWD, stdin
#   from /dev/null, stdout+stderr merged into output.txt.  The case number is
#   assigned in call order so ids stay dense and stable.
capture() {
  local name=$1 kind=$2 family=$3 cwd=$4 cmd=$5
  NEXT_ID=$((NEXT_ID + 1))
  local id; id=$(printf '%03d-%s' "$NEXT_ID" "$name")
  CUR=""
  want "$id" || return 0
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

# keep 'literal' ...   -- append exact substrings to must_keep.txt
keep() { [[ -n "$CUR" ]] || return 0; local s; for s in "$@"; do printf '%s\n' "$s" >> "$CUR/must_keep.txt"; done; }
# keep_re 'python-regex' ...  -- append every output line (ANSI stripped, split
#   on \n and \r, trimmed) matching the regex; if the regex has a group named
#   k, only that group.  Lines whose stripped text is not a substring of the raw
#   bytes (ANSI inside the line) are added as their ANSI-free pieces instead.
keep_re() { [[ -n "$CUR" ]] || return 0; python3 "$T/mk.py" "$CUR/output.txt" "$@" >> "$CUR/must_keep.txt"; }

cat > "$T/mk.py" <<'EOF'
import re, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
ANSI = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>]')
pats = [re.compile(p) for p in sys.argv[2:]]
seen = set()
out = []
def emit(s):
    s = s.rstrip()
    if s.strip() and s not in seen and not any(0xdc80 <= ord(c) <= 0xdcff for c in s):
        seen.add(s); out.append(s)
for rawline in re.split(r'\r\n|\n|\r', raw):
    line = ANSI.sub('', rawline)
    for p in pats:
        m = p.search(line)
        if not m:
            continue
        if 'k' in p.groupindex:
            s = m.group('k').strip()
            if s in raw: emit(s)
            else:
                for piece in ANSI.split(rawline):
                    if s and piece.strip() and piece.strip() in s: emit(piece.strip())
        else:
            s = line.strip()
            if s in raw: emit(s)
            else:
                for piece in ANSI.split(rawline):
                    if len(piece.strip()) >= 2: emit(piece.strip())
        break
sys.stdout.write(''.join(s + '\n' for s in out))
EOF

# ---------------------------------------------------------------- system tools
install_system_tools() {
  local need=()
  command -v rg >/dev/null || need+=(ripgrep)
  command -v tree >/dev/null || need+=(tree)
  command -v go >/dev/null || need+=(golang-go)
  command -v nginx >/dev/null || need+=(nginx)
  command -v jq >/dev/null || need+=(jq)
  command -v wget >/dev/null || need+=(wget)
  [[ -x /usr/bin/pytest-3 ]] || need+=(python3-pytest)
  [[ -x /usr/bin/pip ]] || need+=(python3-pip)
  /usr/bin/python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  if ((${#need[@]})); then
    log "apt-get install ${need[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
  fi
}

# npm tools shared by the JS fixtures (each fixture symlinks node_modules here)
setup_tools() {
  [[ -x "$T/tools/node_modules/.bin/jest" ]] && return 0
  mkdir -p "$T/tools"
  echo '{"name":"corpus-tools","version":"1.0.0","private":true}' > "$T/tools/package.json"
  run "$T/tools" 'npm install --no-audit --no-fund --loglevel=error jest@30 vitest@3 mocha@11 typescript@5 eslint@9 @eslint/js@9 globals@16 esbuild@0.25 webpack@5 webpack-cli@6 >/dev/null'
}
link_tools() { ln -sfn "$T/tools/node_modules" "$1/node_modules"; }

# ---------------------------------------------------------------- JS test fixtures
# gen.mjs FLAVOUR DIR NFILES NTESTS BUGGY -- writes src/lib + test files for one
# runner.  With BUGGY=1 the library carries three real bugs, so exactly three
# tests fail (a wrong number, a wrong object shape, a thrown TypeError).
write_js_generator() {
cat > "$T/gen.mjs" <<'EOF'
import fs from 'node:fs';
import path from 'node:path';
const [flavour, dir, nfiles, ntests, buggy] = process.argv.slice(2);
const esm = flavour === 'vitest';
fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
fs.mkdirSync(path.join(dir, flavour === 'tap' ? 'test' : 'test'), { recursive: true });
const bug = buggy === '1';
const lib = `
function add(a, b) { return a + b; }
function mul(a, b) { return a * b; }
function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }
function slugify(s) { return s.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); }
function applyDiscount(total, code) {
  const pct = code === 'SAVE10' ? 10 : code === 'SAVE25' ? 25 : 0;
  return ${bug ? 'total - Math.floor(total * pct / 100) + (pct === 10 ? 1 : 0)' : 'total - Math.floor(total * pct / 100)'};
}
function parseUser(s) {
  const [name, age] = s.split(':');
  return { name, age: ${bug ? 'age' : 'Number(age)'}, admin: false };
}
function normaliseEmail(e) { return ${bug ? 'e.trim().toLowerCase()' : "(e || '').trim().toLowerCase()"}; }
`;
const names = ['add', 'mul', 'clamp', 'slugify', 'applyDiscount', 'parseUser', 'normaliseEmail'];
if (esm) fs.writeFileSync(path.join(dir, 'src/lib.js'), lib + `export { ${names.join(', ')} };\n`);
else fs.writeFileSync(path.join(dir, 'src/lib.js'), lib + `module.exports = { ${names.join(', ')} };\n`);

const topics = ['arithmetic', 'pricing', 'users', 'strings', 'bounds', 'checkout', 'profiles', 'formatting', 'limits', 'ledger'];
function cases(fileIdx, n) {
  const out = [];
  for (let i = 1; i <= n; i++) {
    const k = (i + fileIdx) % 5;
    if (k === 0) out.push([`adds ${i} and ${fileIdx}`, `add(${i}, ${fileIdx})`, `${i + fileIdx}`, 'eq']);
    else if (k === 1) out.push([`multiplies ${i} by ${fileIdx + 2}`, `mul(${i}, ${fileIdx + 2})`, `${i * (fileIdx + 2)}`, 'eq']);
    else if (k === 2) out.push([`clamps ${i * 7} into 0..100`, `clamp(${i * 7}, 0, 100)`, `${Math.min(100, i * 7)}`, 'eq']);
    else if (k === 3) out.push([`slugifies title #${i}`, `slugify('Hello World ${i}!')`, `'hello-world-${i}'`, 'eq']);
    else out.push([`keeps total ${i * 10} without a code`, `applyDiscount(${i * 10}, '')`, `${i * 10}`, 'eq']);
  }
  if (topics[fileIdx] === 'pricing') out.splice(7, 0, ['applies SAVE10 discount to 100', "applyDiscount(100, 'SAVE10')", '90', 'eq']);
  if (topics[fileIdx] === 'users') {
    out.splice(12, 0, ['parses age as a number', "parseUser('ada:36')", "{ name: 'ada', age: 36, admin: false }", 'deep']);
    out.splice(30, 0, ['normalises a missing email to empty string', 'normaliseEmail(undefined)', "''", 'eq']);
  }
  return out.slice(0, n);
}
function assertion(a, e, kind) {
  switch (flavour) {
    case 'jest': case 'vitest': return `expect(${a}).${kind === 'deep' ? 'toEqual' : 'toBe'}(${e});`;
    case 'mocha': case 'node': return `assert.${kind === 'deep' ? 'deepStrictEqual' : 'strictEqual'}(${a}, ${e});`;
    case 'tap': return `t.${kind === 'deep' ? 'same' : 'equal'}(${a}, ${e});`;
  }
}
for (let f = 0; f < Number(nfiles); f++) {
  const topic = topics[f];
  let src = '';
  if (flavour === 'jest') src += `const { ${names.join(', ')} } = require('../src/lib');\n\n`;
  if (flavour === 'vitest') src += `import { describe, test, expect } from 'vitest';\nimport { ${names.join(', ')} } from '../src/lib.js';\n\n`;
  if (flavour === 'mocha') src += `const assert = require('node:assert/strict');\nconst { ${names.join(', ')} } = require('../src/lib');\n\n`;
  if (flavour === 'node') src += `const { describe, it } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { ${names.join(', ')} } = require('../src/lib');\n\n`;
  if (flavour === 'tap') src += `const t = require('tap');\nconst { ${names.join(', ')} } = require('../src/lib');\n\n`;
  const cs = cases(f, Number(ntests));
  if (flavour === 'tap') {
    for (const [name, a, e, kind] of cs) src += `t.test(${JSON.stringify(topic + ': ' + name)}, async t => {\n  ${assertion(a, e, kind)}\n});\n`;
  } else {
    const it = flavour === 'jest' || flavour === 'vitest' ? 'test' : 'it';
    src += `describe('${topic}', () => {\n`;
    for (const [name, a, e, kind] of cs) src += `  ${it}(${JSON.stringify(name)}, () => {\n    ${assertion(a, e, kind)}\n  });\n`;
    src += `});\n`;
  }
  const ext = flavour === 'mocha' ? '.spec.js' : '.test.js';
  fs.writeFileSync(path.join(dir, 'test', topic + ext), src);
}
EOF
}
# js_project DIR FLAVOUR NFILES NTESTS BUGGY TESTSCRIPT
js_project() {
  local dir=$1 flavour=$2 nfiles=$3 ntests=$4 buggy=$5 script=$6
  [[ -f "$dir/package.json" ]] && return 0
  mkdir -p "$dir"
  local type=commonjs; [[ $flavour == vitest ]] && type=module
  cat > "$dir/package.json" <<EOF
{
  "name": "$(basename "$dir")",
  "version": "1.0.0",
  "private": true,
  "type": "$type",
  "scripts": {
    "test": "$script"
  }
}
EOF
  node "$T/gen.mjs" "$flavour" "$dir" "$nfiles" "$ntests" "$buggy"
  [[ $flavour == tap ]] || link_tools "$dir"
}

# ---------------------------------------------------------------- test runner cases
cases_js_tests() {
  setup_tools; write_js_generator
  local P=$T/proj
  js_project "$P/jest-pass" jest 10 50 0 jest
  js_project "$P/jest-fail" jest 6 50 1 jest
  js_project "$P/vitest-pass" vitest 10 50 0 "vitest run"
  js_project "$P/vitest-fail" vitest 6 50 1 "vitest run"
  js_project "$P/node-pass" node 8 50 0 "node --test"
  js_project "$P/node-fail" node 6 50 1 "node --test"
  js_project "$P/mocha-pass" mocha 8 50 0 mocha
  js_project "$P/mocha-fail" mocha 6 50 1 mocha
  echo "module.exports = { spec: 'test/**/*.spec.js' };" > "$P/mocha-pass/.mocharc.js"
  cp "$P/mocha-pass/.mocharc.js" "$P/mocha-fail/.mocharc.js"

  capture jest-pass test jest "$P" 'cd jest-pass && npx jest'
  keep_re '^Tests:' '^Test Suites:' '^PASS '
  capture jest-fail test jest "$P/jest-fail" 'npx jest'
  keep_re '^Tests:' '^Test Suites:' '^FAIL ' '●' '^\s*(Expected|Received)' '^\s*[-+] ' 'TypeError' '^\s*at .*\((?P<k>[^()]*test/[^()]*:\d+:\d+)\)' '^\s*at .*\((?P<k>[^()]*src/lib\.js:\d+:\d+)\)'
  capture jest-fail-color test jest "$P/jest-fail" 'FORCE_COLOR=1 npx jest --verbose'
  keep_re '^Tests:' '^Test Suites:' '^\s*FAIL ' '✕' '●' '^\s*(Expected|Received)' 'TypeError'
  capture npm-test-jest test jest "$P/jest-fail" 'npm test'
  keep_re '^Tests:' '^Test Suites:' '^FAIL ' '●' '^\s*(Expected|Received)' 'TypeError' '^\s*at .*\((?P<k>[^()]*test/[^()]*:\d+:\d+)\)'

  capture vitest-pass test vitest "$P/vitest-pass" 'npx vitest run'
  keep_re '^\s*Test Files' '^\s*Tests\s' '✓ test/'
  capture vitest-fail test vitest "$P/vitest-fail" 'npx vitest run'
  keep_re '^\s*Test Files' '^\s*Tests\s' '^\s*FAIL ' '×' 'AssertionError' 'TypeError' '^\s*[-+] ' '^\s*❯ (?P<k>test/\S+:\d+:\d+)' '(?P<k>src/lib\.js:\d+:\d+)'
  capture vitest-fail-color test vitest "$P/vitest-fail" 'FORCE_COLOR=1 npx vitest run'
  keep_re '^\s*Test Files' '^\s*Tests\s' '^\s*FAIL ' 'AssertionError' 'TypeError'

  capture node-test-spec-pass test node-test "$P/node-pass" 'node --test --test-reporter=spec'
  keep_re '^ℹ (tests|pass|fail)' '^▶ '
  capture node-test-spec-fail test node-test "$P/node-fail" 'node --test --test-reporter=spec'
  keep_re '^ℹ (tests|pass|fail)' '✖' 'AssertionError' 'TypeError' '^\s*at .*\((?P<k>[^()]*(test|src)/[^()]*:\d+:\d+)\)'
  capture node-test-tap-fail test node-test "$P/node-fail" 'node --test --test-reporter=tap'
  keep_re '^# (tests|pass|fail)' '^\s*not ok' "^\s*error: " "^\s*location: "
  capture node-test-default-pass test node-test "$P/node-pass" 'node --test'
  keep_re '^# (tests|pass|fail)'

  capture mocha-pass test mocha "$P/mocha-pass" 'npx mocha'
  keep_re '^\s*\d+ passing'
  capture mocha-fail test mocha "$P/mocha-fail" 'npx mocha'
  keep_re '^\s*\d+ (passing|failing)' '^\s*\d+\) ' 'AssertionError' 'TypeError' '^\s*[-+]' '^\s*at .*\((?P<k>[^()]*(test|src)/[^()]*:\d+:\d+)\)'
}

cases_tap() {
  write_js_generator
  local P=$T/proj d
  if [[ ! -x "$T/tapmods/node_modules/.bin/tap" ]]; then
    mkdir -p "$T/tapmods"
    echo '{"name":"tapmods","version":"1.0.0","private":true}' > "$T/tapmods/package.json"
    run "$T/tapmods" 'npm install --no-audit --no-fund --loglevel=error -D tap@21 >/dev/null'
  fi
  js_project "$P/tap-pass" tap 6 50 0 tap
  js_project "$P/tap-fail" tap 6 50 1 tap
  js_project "$P/tap-cov" tap 6 50 0 tap
  for d in tap-pass tap-fail tap-cov; do ln -sfn "$T/tapmods/node_modules" "$P/$d/node_modules"; done
  # tap-pass/tap-fail opt out of tap's 100%-coverage gate, as most projects do;
  # tap-cov keeps the default gate (all tests pass, yet exit code 1).
  for d in tap-pass tap-fail; do
    grep -q allow-incomplete-coverage "$P/$d/package.json" ||
      sed -i 's/^  "scripts": {/  "tap": {\n    "allow-incomplete-coverage": true\n  },\n  "scripts": {/' "$P/$d/package.json"
  done
  capture tap-pass test tap "$P/tap-pass" 'npx tap'
  keep_re '^# \{'
  capture tap-fail test tap "$P/tap-fail" 'npx tap'
  keep_re '^\s*not ok' '^# \{' '^\s*[-+]\d+$' 'TypeError' '(?P<k>test/\S+\.js:\d+:\d+)' '(?P<k>src/lib\.js:\d+:\d+)'
  capture tap-coverage-gate test tap "$P/tap-cov" 'npx tap'
  keep_re '^# \{' '^All files' '^ lib\.js'
}

# ---------------------------------------------------------------- pytest
py_project() {
  local dir=$1 buggy=$2
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/inventory" "$dir/tests"
  cat > "$dir/inventory/__init__.py" <<EOF
def restock(qty, amount):
    return qty + amount

def reserve(qty, amount):
    if amount > qty:
        raise ValueError(f"cannot reserve {amount} of {qty}")
    return qty - amount

def sku(name, size):
    return f"{name.upper()}-{size}"

def summary(items):
    return {"count": len(items), "total": sum(items)$( [[ $buggy == 1 ]] && echo ' - 1' )}

def price_with_vat(net):
    return round(net * 1.25, 2)$( [[ $buggy == 1 ]] && echo ' + (0.01 if net > 190 else 0)' )
EOF
  : > "$dir/tests/__init__.py"
  local f i
  for f in stock orders catalog shipping reports returns; do
    {
      echo "from inventory import restock, reserve, sku, summary, price_with_vat"
      echo
      for i in $(seq 1 50); do
        case $((i % 4)) in
          0) printf 'def test_restock_%s_%02d():\n    assert restock(%d, 5) == %d\n\n' "$f" "$i" "$i" "$((i + 5))" ;;
          1) printf 'def test_reserve_%s_%02d():\n    assert reserve(%d, 1) == %d\n\n' "$f" "$i" "$((i + 1))" "$i" ;;
          2) printf 'def test_sku_%s_%02d():\n    assert sku("%s", %d) == "%s-%d"\n\n' "$f" "$i" "$f" "$i" "${f^^}" "$i" ;;
          3) printf 'def test_price_%s_%02d():\n    assert price_with_vat(%d) == %s\n\n' "$f" "$i" "$((i * 4))" "$((i * 5)).0" ;;
        esac
      done
      if [[ $f == reports ]]; then
        printf 'def test_summary_counts_and_totals():\n    items = [3, 4, 5]\n    assert summary(items) == {"count": 3, "total": 12}\n\n'
        printf 'def test_price_for_large_order():\n    net = 199\n    gross = price_with_vat(net)\n    assert gross == 248.75, f"unexpected gross for {net}"\n\n'
        printf 'def test_reserve_more_than_stock_raises():\n    import pytest\n    with pytest.raises(ValueError, match="cannot reserve 5 of 3"):\n        reserve(3, 5)\n\n'
      fi
    } > "$dir/tests/test_$f.py"
  done
}

cases_pytest() {
  local P=$T/proj
  py_project "$P/py-pass" 0
  py_project "$P/py-fail" 1
  if [[ ! -d "$P/py-collect" ]]; then
    cp -r "$P/py-pass" "$P/py-collect"
    printf 'import yamlish_config\nfrom inventory import restock\n\n\ndef test_loads_config():\n    assert yamlish_config.load("a: 1") == {"a": 1}\n' > "$P/py-collect/tests/test_config.py"
    printf 'from inventory import restock\n\ndef test_broken(:\n    assert restock(1, 1) == 2\n' > "$P/py-collect/tests/test_syntax.py"
  fi
  capture pytest-pass test pytest "$P/py-pass" 'pytest'
  keep_re '^=+ .*(passed|failed).* =+$' '^tests/'
  capture pytest-verbose-pass test pytest "$P/py-pass" 'pytest -v'
  keep_re '^=+ .*(passed|failed).* =+$'
  capture pytest-fail test pytest "$P/py-fail" 'pytest'
  keep_re '^=+ .*(passed|failed).* =+$' '^FAILED ' '^E ' '^_+ test_\w+ _+$' '^(?P<k>tests/\S+\.py:\d+): ' '^(?P<k>inventory/\S+\.py:\d+): '
  capture pytest-collection-error test pytest "$P/py-collect" 'python3 -m pytest -q'
  keep_re '^=+ .*(error|passed|failed).* =+$' '^ERROR ' '^E ' 'Interrupted' '^_+ ERROR collecting .* _+$' '(?P<k>tests/\S+\.py:\d+)'
}

# ---------------------------------------------------------------- cargo
rust_workspace() {
  local dir=$1 variant=$2   # variant: ok | fail | broken
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/crates/geometry/src" "$dir/crates/geometry/tests" "$dir/crates/textkit/src" "$dir/crates/shapes-cli/src"
  cat > "$dir/Cargo.toml" <<'EOF'
[workspace]
resolver = "2"
members = ["crates/geometry", "crates/textkit", "crates/shapes-cli"]
EOF
  local c
  for c in geometry textkit; do
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' "$c" > "$dir/crates/$c/Cargo.toml"
  done
  printf '[package]\nname = "shapes-cli"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ngeometry = { path = "../geometry" }\ntextkit = { path = "../textkit" }\n' > "$dir/crates/shapes-cli/Cargo.toml"
  local sq='w * h'; [[ $variant == fail ]] && sq='w * h + if w == 100 { 1 } else { 0 }'
  {
    cat <<EOF
//! Tiny geometry helpers.

/// Area of a rectangle.
///
/// \`\`\`
/// assert_eq!(geometry::rect_area(3, 4), 12);
/// \`\`\`
pub fn rect_area(w: u64, h: u64) -> u64 {
    $sq
}

/// Perimeter of a rectangle.
///
/// \`\`\`
/// assert_eq!(geometry::perimeter(3, 4), 14);
/// \`\`\`
pub fn perimeter(w: u64, h: u64) -> u64 {
    2 * (w + h)
}

/// Parses "WxH" into a pair.
///
/// \`\`\`
/// assert_eq!(geometry::parse_dims("3x4"), Some((3, 4)));
/// \`\`\`
pub fn parse_dims(s: &str) -> Option<(u64, u64)> {
    let (a, b) = s.split_once('x')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
EOF
    local i
    for i in $(seq 1 120); do
      printf '    #[test]\n    fn area_%03d() {\n        assert_eq!(rect_area(%d, 7), %d);\n    }\n' "$i" "$i" "$((i * 7))"
    done
    if [[ $variant == fail ]]; then
      printf '    #[test]\n    fn parse_rejects_garbage() {\n        let d = parse_dims("12xabc").expect("dims should parse");\n        assert_eq!(d, (12, 0));\n    }\n'
    fi
    echo "}"
  } > "$dir/crates/geometry/src/lib.rs"
  {
    echo 'use geometry::{perimeter, rect_area, parse_dims};'
    for i in $(seq 1 12); do
      printf '\n#[test]\nfn perimeter_of_%d_by_%d() {\n    assert_eq!(perimeter(%d, %d), %d);\n}\n' "$i" "$((i + 1))" "$i" "$((i + 1))" "$((2 * (2 * i + 1)))"
    done
    printf '\n#[test]\nfn parses_and_measures() {\n    let (w, h) = parse_dims("%s").unwrap();\n    assert_eq!(rect_area(w, h), %s);\n}\n' 100x3 300
  } > "$dir/crates/geometry/tests/integration.rs"
  {
    cat <<'EOF'
//! Text helpers.

/// Title-cases every word.
///
/// ```
/// assert_eq!(textkit::title_case("hello world"), "Hello World");
/// ```
pub fn title_case(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn unused_helper(x: u32) -> u32 {
    x + 1
}

#[cfg(test)]
mod tests {
    use super::*;
EOF
    for i in $(seq 1 40); do
      printf '    #[test]\n    fn title_%02d() {\n        assert_eq!(title_case("word %d"), "Word %d");\n    }\n' "$i" "$i" "$i"
    done
    echo "}"
  } > "$dir/crates/textkit/src/lib.rs"
  if [[ $variant == fail ]]; then
    sed -i 's/assert_eq!(title_case("word 17"), "Word 17");/assert_eq!(title_case("word  17"), "Word 17");/' "$dir/crates/textkit/src/lib.rs"
  fi
  local body='    let label = textkit::title_case(&args.join(" "));
    let count = args.len();
    println!("{label}: area {}", geometry::rect_area(w, h));'
  [[ $variant == broken ]] && body='    let label: u32 = textkit::title_case(&args.join(" "));
    let total = geometry::rect_area(w, h) + shape_count;
    println!("{label}: area {}", geometry::rect_aera(w, h));'
  cat > "$dir/crates/shapes-cli/src/main.rs" <<EOF
use std::env;

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let (w, h) = geometry::parse_dims(args.first().map(|s| s.as_str()).unwrap_or("1x1")).unwrap_or((1, 1));
$body
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_formats() {
        assert_eq!(textkit::title_case("a b"), "A B");
    }
}
EOF
}

cases_cargo() {
  local P=$T/proj
  rust_workspace "$P/rs-ok" ok
  rust_workspace "$P/rs-fail" fail
  rust_workspace "$P/rs-broken" broken
  run "$P/rs-ok" 'cargo clean -q 2>/dev/null || true'
  capture cargo-build-warnings build cargo-build "$P/rs-ok" 'cargo build'
  keep_re '^warning' '^\s*--> (?P<k>\S+:\d+:\d+)' '^\s*Compiling ' '^\s*Finished '
  capture cargo-test-pass test cargo-test "$P/rs-ok" 'cargo test'
  keep_re '^test result:' '^\s*Running ' '^\s*Doc-tests ' '^warning'
  run "$P/rs-fail" 'cargo build -q --tests 2>/dev/null || true'
  capture cargo-test-fail test cargo-test "$P/rs-fail" 'cargo test'
  keep_re '^test result:' '^error' '^test .* FAILED$' '^---- .* stdout ----$' 'panicked at' '^assertion' 'dims should parse' '^\s*(left|right):' '^\s+\S+::\S+$' '^\s*Running '
  capture cargo-test-fail-no-fail-fast test cargo-test "$P/rs-fail" 'cargo test --no-fail-fast'
  keep_re '^test result:' '^error' '^test .* FAILED$' '^---- .* stdout ----$' 'panicked at' '^assertion' 'dims should parse' '^\s*(left|right):' '^\s+\S+::\S+$' '^\s+\S+$' '^\s*Running ' '^\s*Doc-tests '
  capture cargo-build-error build cargo-build "$P/rs-broken" 'cargo build'
  keep_re '^error' '^warning: unused' '^\s*--> (?P<k>\S+:\d+:\d+)'
  capture cargo-build-error-color build cargo-build "$P/rs-broken" 'cargo build --color=always'
  keep_re '^error' '^\s*--> (?P<k>\S+:\d+:\d+)'
}

# ---------------------------------------------------------------- go
go_module() {
  local dir=$1 buggy=$2
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/cart" "$dir/pricing" "$dir/textutil" "$dir/cmd/shop"
  printf 'module example.com/shop\n\ngo 1.19\n' > "$dir/go.mod"
  cat > "$dir/cart/cart.go" <<EOF
package cart

// Item is a line in the cart.
type Item struct {
	SKU   string
	Qty   int
	Cents int
}

// Total returns the cart total in cents.
func Total(items []Item) int {
	t := 0
	for _, it := range items {
		t += it.Qty * it.Cents
	}
	return t$( [[ $buggy == 1 ]] && printf ' - len(items)/3' )
}
EOF
  cat > "$dir/pricing/pricing.go" <<EOF
package pricing

// WithTax adds tax in basis points, rounding half up.
func WithTax(cents, bps int) int {
	return cents + (cents*bps+$( [[ $buggy == 1 ]] && echo 4999 || echo 5000 ))/10000
}
EOF
  cat > "$dir/textutil/textutil.go" <<'EOF'
package textutil

import "strings"

// Slug lower-cases and dashes a title.
func Slug(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "-")
}
EOF
  cat > "$dir/cmd/shop/main.go" <<'EOF'
package main

import (
	"fmt"

	"example.com/shop/cart"
)

func main() {
	fmt.Println(cart.Total([]cart.Item{{SKU: "a", Qty: 2, Cents: 150}}))
}
EOF
  local i
  {
    printf 'package cart\n\nimport "testing"\n'
    for i in $(seq 1 60); do
      printf '\nfunc TestTotal%02d(t *testing.T) {\n\titems := []Item{{SKU: "x", Qty: %d, Cents: 100}, {SKU: "y", Qty: 1, Cents: 5}}\n\tif got, want := Total(items), %d; got != want {\n\t\tt.Errorf("Total() = %%d, want %%d", got, want)\n\t}\n}\n' "$i" "$i" "$((i * 100 + 5))"
    done
    printf '\nfunc TestTotalThreeItems(t *testing.T) {\n\titems := []Item{{"a", 1, 100}, {"b", 2, 50}, {"c", 1, 1}}\n\tif got, want := Total(items), 201; got != want {\n\t\tt.Errorf("Total(%%v) = %%d, want %%d", items, got, want)\n\t}\n}\n'
  } > "$dir/cart/cart_test.go"
  {
    printf 'package pricing\n\nimport "testing"\n\nfunc TestWithTax(t *testing.T) {\n\tcases := []struct {\n\t\tname       string\n\t\tcents, bps int\n\t\twant       int\n\t}{\n'
    for i in $(seq 1 40); do
      printf '\t\t{"price_%02d", %d, 2000, %d},\n' "$i" "$((i * 100))" "$((i * 120))"
    done
    printf '\t\t{"rounds_half_up", 25, 2000, 30},\n\t\t{"half_cent", 5, 1000, 6},\n'
    printf '\t}\n\tfor _, c := range cases {\n\t\tt.Run(c.name, func(t *testing.T) {\n\t\t\tif got := WithTax(c.cents, c.bps); got != c.want {\n\t\t\t\tt.Fatalf("WithTax(%%d, %%d) = %%d, want %%d", c.cents, c.bps, got, c.want)\n\t\t\t}\n\t\t})\n\t}\n}\n'
  } > "$dir/pricing/pricing_test.go"
  {
    printf 'package textutil\n\nimport "testing"\n'
    for i in $(seq 1 30); do
      printf '\nfunc TestSlug%02d(t *testing.T) {\n\tif got := Slug("  Post Number %d "); got != "post-number-%d" {\n\t\tt.Errorf("Slug = %%q", got)\n\t}\n}\n' "$i" "$i" "$i"
    done
  } > "$dir/textutil/textutil_test.go"
}

cases_go() {
  local P=$T/proj
  go_module "$P/go-pass" 0
  go_module "$P/go-fail" 1
  capture go-test-pass test go-test "$P/go-pass" 'go test ./...'
  keep_re '^(ok|\?|FAIL|---)\s'
  capture go-test-verbose-pass test go-test "$P/go-pass" 'go test -v ./...'
  keep_re '^(ok|\?|FAIL|PASS)\s*'
  capture go-test-fail test go-test "$P/go-fail" 'go test ./...'
  keep_re '^(ok|\?|FAIL)\s' '^\s*--- FAIL' '^\s+\S+_test\.go:\d+: '
  capture go-test-verbose-fail test go-test "$P/go-fail" 'go test -v ./pricing/'
  keep_re '^(ok|FAIL)\s' '^\s*--- FAIL' '^\s+\S+_test\.go:\d+: '
}

# ---------------------------------------------------------------- TypeScript / ESLint / bundlers
ts_project() {
  local dir=$1 broken=$2
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/src/handlers"
  cat > "$dir/package.json" <<EOF
{
  "name": "$(basename "$dir")",
  "version": "1.0.0",
  "private": true,
  "scripts": { "build": "tsc" }
}
EOF
  cat > "$dir/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "commonjs",
    "strict": true,
    "outDir": "dist",
    "rootDir": "src"
  },
  "include": ["src"]
}
EOF
  cat > "$dir/src/user.ts" <<'EOF'
export interface User {
  id: number;
  name: string;
  email: string;
}

export function displayName(u: User): string {
  return `${u.name} <${u.email}>`;
}
EOF
  cat > "$dir/src/cart.ts" <<'EOF'
export interface Line {
  sku: string;
  qty: number;
  price: number;
}

export function total(lines: Line[], discount: number): number {
  return lines.reduce((sum, l) => sum + l.qty * l.price, 0) * (1 - discount);
}
EOF
  if [[ $broken == 1 ]]; then
    cat > "$dir/src/handlers/ok_handler.ts" <<'EOF'
import { User, displayName } from "../user";
import { total } from "../cart";

export function okHandler(u: User): { status: number; body: string } {
  const count: number = "3";
  const label = displayName(u) + u.emial;
  const amount = total([{ sku: "a", qty: 1, price: 10 }]);
  return { status: 200, body: `${label} ${amount} ${count}` };
}

export function parse(raw) {
  return JSON.parse(raw);
}
EOF
    cat > "$dir/src/index.ts" <<'EOF'
import { okHandler } from "./handlers/ok_handler";

const user = fetchUsr(42);
const res = okHandler({ id: "42", name: "Ada", email: "ada@example.com" });
console.log(res.status, res.body.lenght);
EOF
  else
    cat > "$dir/src/handlers/ok_handler.ts" <<'EOF'
import { User, displayName } from "../user";
import { total } from "../cart";

export function okHandler(u: User): { status: number; body: string } {
  const amount = total([{ sku: "a", qty: 1, price: 10 }], 0.1);
  return { status: 200, body: `${displayName(u)} ${amount}` };
}
EOF
    cat > "$dir/src/index.ts" <<'EOF'
import { okHandler } from "./handlers/ok_handler";

const res = okHandler({ id: 42, name: "Ada", email: "ada@example.com" });
console.log(res.status, res.body.length);
EOF
  fi
  link_tools "$dir"
}

eslint_project() {
  local dir=$1
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/src/lib"
  printf '{\n  "name": "lint-demo",\n  "version": "1.0.0",\n  "private": true,\n  "type": "module"\n}\n' > "$dir/package.json"
  cat > "$dir/eslint.config.js" <<'EOF'
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules: {
      "no-console": "warn",
      eqeqeq: "warn",
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];
EOF
  cat > "$dir/src/server.js" <<'EOF'
import http from "node:http";
import { parseQuery } from "./lib/query.js";

var port = process.env.PORT || 3000;
let started = false;

const server = http.createServer((req, res) => {
  const q = parseQuery(req.url);
  if (q.debug == "1") {
    console.log("debug request", req.url);
  }
  res.end(JSON.stringify(q));
});

server.listen(port, () => {
  console.log(`listening on ${port}`);
});
EOF
  cat > "$dir/src/lib/query.js" <<'EOF'
export function parseQuery(url) {
  let out = {};
  const idx = url.indexOf("?");
  if (idx == -1) return out;
  for (const part of url.slice(idx + 1).split("&")) {
    const [k, v] = part.split("=");
    out[k] = decodeURIComponent(v ?? "");
  }
  return out;
}

export function unusedHelper(a, b) {
  return a + undefinedThing;
}
EOF
  cat > "$dir/src/lib/ok_format.js" <<'EOF'
export function formatBytes(n) {
  const units = ["B", "KB", "MB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(1)} ${units[i]}`;
}
EOF
  link_tools "$dir"
}

bundle_projects() {
  local P=$T/proj
  if [[ ! -d "$P/esb-ok" ]]; then
    mkdir -p "$P/esb-ok/src" "$P/esb-err/src"
    printf 'export const greet = (n: string): string => `hello ${n}`;\nexport const VERSION = "1.4.2";\n' > "$P/esb-ok/src/greet.ts"
    printf 'import { greet, VERSION } from "./greet";\n\nconsole.log(greet("world"), VERSION);\n' > "$P/esb-ok/src/app.ts"
    printf '{ "name": "esb-ok", "version": "1.0.0", "private": true }\n' > "$P/esb-ok/package.json"
    cp "$P/esb-ok/src/greet.ts" "$P/esb-err/src/"
    printf 'import { greet } from "./greet";\nimport { track } from "./analytics";\nimport confetti from "canvas-confetti";\n\nconst msg: string = greet("world")\nconsole.log(msg, track(msg), confetti);\n' > "$P/esb-err/src/app.ts"
    printf '{ "name": "esb-err", "version": "1.0.0", "private": true }\n' > "$P/esb-err/package.json"
    link_tools "$P/esb-ok"; link_tools "$P/esb-err"
    mkdir -p "$P/webpack-app/src"
    printf '{ "name": "webpack-app", "version": "1.0.0", "private": true }\n' > "$P/webpack-app/package.json"
    printf 'import { fmt } from "./fmt.js";\nimport { chart } from "./chart.js";\n\ndocument.body.textContent = fmt(chart(40));\n' > "$P/webpack-app/src/index.js"
    printf 'export const fmt = (s) => `[${s}]`;\n' > "$P/webpack-app/src/fmt.js"
    # a large generated module so webpack emits its real asset-size warnings
    { echo 'export const chart = (n) => DATA.slice(0, n).join(",");'; echo -n 'const DATA = ['; for i in $(seq 1 30000); do printf '"point-%05d-%s",' "$i" "$((i * 7919 % 100003))"; done; echo '];'; } > "$P/webpack-app/src/chart.js"
    link_tools "$P/webpack-app"
    cp -r "$P/webpack-app" "$P/webpack-err"; rm "$P/webpack-err/node_modules"; link_tools "$P/webpack-err"
    printf 'import { fmt } from "./fmt.js";\nimport { chart } from "./charts.js";\nimport lodash from "lodash";\n\ndocument.body.textContent = fmt(chart(40)) + lodash.VERSION;\n' > "$P/webpack-err/src/index.js"
  fi
}

cases_build_js() {
  setup_tools
  local P=$T/proj
  ts_project "$P/ts-broken" 1
  ts_project "$P/ts-clean" 0
  eslint_project "$P/eslint-demo"
  bundle_projects
  capture tsc-errors build tsc "$P/ts-broken" 'npx tsc --noEmit'
  keep_re 'error TS\d+' '^Found \d+ error'
  capture tsc-errors-pretty build tsc "$P/ts-broken" 'npx tsc --noEmit --pretty'
  keep_re 'error TS\d+: ' 'TS\d+: .*' '^Found \d+ error' '^\s+(?P<k>src/\S+\.ts:\d+)'
  capture tsc-clean build tsc "$P/ts-clean" 'npx tsc --noEmit'
  capture eslint-errors lint eslint "$P/eslint-demo" 'npx eslint src'
  keep_re '^/\S+\.js$' '^\s+\d+:\d+\s+(error|warning)' '✖ \d+ problems' 'potentially fixable'
  capture esbuild-ok build esbuild "$P/esb-ok" 'npx esbuild src/app.ts --bundle --platform=node --outfile=dist/app.js'
  keep_re 'dist/app\.js' 'Done in'
  capture esbuild-error build esbuild "$P/esb-err" 'npx esbuild src/app.ts --bundle --outfile=dist/app.js'
  keep_re '\[ERROR\]' '^\s+(?P<k>src/\S+:\d+:\d+):' 'errors?$'
  capture webpack-warnings build webpack "$P/webpack-app" 'npx webpack --mode production'
  keep_re '^WARNING' 'compiled' 'asset '
  capture webpack-error build webpack "$P/webpack-err" 'npx webpack --mode production'
  keep_re '^ERROR' "Module not found" 'compiled' "Can't resolve" '^\s*@ '
}

# ---------------------------------------------------------------- C / make / cmake / ctest
c_project() {
  local dir=$1 broken=$2
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/src" "$dir/include"
  cat > "$dir/Makefile" <<'EOF'
CC = gcc
CFLAGS = -Wall -Wextra -O2 -Iinclude
OBJS = build/main.o build/strbuf.o build/parse.o

all: bin/tool

bin/tool: $(OBJS)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(OBJS)

build/%.o: src/%.c include/strbuf.h
	@mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@

clean:
	rm -rf build bin

.PHONY: all clean
EOF
  cat > "$dir/include/strbuf.h" <<'EOF'
#ifndef STRBUF_H
#define STRBUF_H
#include <stddef.h>
typedef struct { char *data; size_t len, cap; } strbuf;
void sb_init(strbuf *sb);
int sb_append(strbuf *sb, const char *s);
void sb_free(strbuf *sb);
int parse_port(const char *s);
#endif
EOF
  cat > "$dir/src/main.c" <<'EOF'
#include <stdio.h>
#include "strbuf.h"

int main(int argc, char **argv) {
    strbuf sb;
    int unused_count = 0;
    sb_init(&sb);
    for (int i = 1; i < argc; i++) sb_append(&sb, argv[i]);
    printf("%s (port %d)\n", sb.data ? sb.data : "", parse_port("8080"));
    sb_free(&sb);
    return 0;
}
EOF
  cat > "$dir/src/parse.c" <<'EOF'
#include <stdlib.h>
#include "strbuf.h"

int parse_port(const char *s) {
    long v = strtol(s, NULL, 10);
    unsigned int max = 65535;
    if (v < 0 || v > max) return -1;
    return (int)v;
}
EOF
  if [[ $broken == 1 ]]; then
    cat > "$dir/src/strbuf.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

void sb_init(strbuf *sb) { sb->data = NULL; sb->len = sb->cap = 0; }

int sb_append(strbuf *sb, const char *s) {
    size_t n = strlen(s);
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap * 2 : 64;
        char *p = realloc(sb->data, cap)
        if (!p) return -1;
        sb->data = p;
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, s, n + 1);
    sb->len += lenght;
    return sb_capacity(sb);
}

void sb_free(strbuf *sb) { free(sb->data); }
EOF
  else
    cat > "$dir/src/strbuf.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

void sb_init(strbuf *sb) { sb->data = NULL; sb->len = sb->cap = 0; }

int sb_append(strbuf *sb, const char *s) {
    size_t n = strlen(s);
    while (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap * 2 : 64;
        char *p = realloc(sb->data, cap);
        if (!p) return -1;
        sb->data = p;
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, s, n + 1);
    sb->len += n;
    return 0;
}

void sb_free(strbuf *sb) { free(sb->data); }
EOF
  fi
}

cmake_project() {
  local dir=$1
  [[ -d "$dir" ]] && return 0
  mkdir -p "$dir/src" "$dir/tests"
  cat > "$dir/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(calc C)
enable_testing()
add_library(calc STATIC src/calc.c)
target_include_directories(calc PUBLIC src)
add_executable(calc_cli src/main.c)
target_link_libraries(calc_cli calc)
add_executable(calc_test tests/calc_test.c)
target_link_libraries(calc_test calc)
foreach(op add sub mul div mod pow)
  foreach(n 1 2 3)
    add_test(NAME ${op}_${n} COMMAND calc_test ${op} ${n})
  endforeach()
endforeach()
add_test(NAME div_by_zero COMMAND calc_test div 0)
EOF
  cat > "$dir/src/calc.h" <<'EOF'
int calc(char op, int a, int b, int *err);
EOF
  cat > "$dir/src/calc.c" <<'EOF'
#include "calc.h"
int calc(char op, int a, int b, int *err) {
    *err = 0;
    switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / (b ? b : 1);
    case '%': return b ? a % b : 0;
    case '^': { int r = 1; while (b-- > 0) r *= a; return r; }
    }
    *err = 1;
    return 0;
}
EOF
  cat > "$dir/src/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "calc.h"
int main(int argc, char **argv) {
    int err;
    if (argc < 4) { fprintf(stderr, "usage: calc_cli A OP B\n"); return 2; }
    printf("%d\n", calc(argv[2][0], atoi(argv[1]), atoi(argv[3]), &err));
    return err;
}
EOF
  cat > "$dir/tests/calc_test.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "calc.h"
int main(int argc, char **argv) {
    const char *name = argv[1];
    int n = atoi(argv[2]), err;
    char op = !strcmp(name, "add") ? '+' : !strcmp(name, "sub") ? '-' : !strcmp(name, "mul") ? '*'
            : !strcmp(name, "div") ? '/' : !strcmp(name, "mod") ? '%' : '^';
    int got = calc(op, 12, n, &err);
    int want = op == '+' ? 12 + n : op == '-' ? 12 - n : op == '*' ? 12 * n
             : op == '/' ? (n ? 12 / n : -1) : op == '%' ? 12 % n : (n == 1 ? 12 : n == 2 ? 144 : 1728);
    printf("calc(%c, 12, %d) = %d\n", op, n, got);
    if (got != want) {
        fprintf(stderr, "FAIL %s: expected %d, got %d\n", name, want, got);
        return 1;
    }
    return 0;
}
EOF
}

cases_c() {
  local P=$T/proj
  c_project "$P/c-ok" 0
  c_project "$P/c-broken" 1
  cmake_project "$P/cmake-calc"
  run "$P/c-ok" 'make clean >/dev/null'
  capture make-gcc-warnings build make "$P/c-ok" 'make'
  keep_re 'warning:' '^gcc .* -o bin/tool'
  run "$P/c-broken" 'make clean >/dev/null'
  capture make-gcc-errors build make "$P/c-broken" 'make'
  keep_re 'error:' 'warning:' '^make: \*\*\*' '^make\[\d+\]: \*\*\*'
  capture gcc-errors-color build gcc "$P/c-broken" 'gcc -Wall -Wextra -Iinclude -fdiagnostics-color=always -c src/strbuf.c -o /dev/null'
  keep_re '(?P<k>src/strbuf\.c:\d+:\d+)' '(?P<k>error: .*)' 
  run "$P/cmake-calc" 'rm -rf build'
  capture cmake-configure-build build cmake "$P/cmake-calc" 'cmake -S . -B build && cmake --build build'
  keep_re '^-- Build files have been written' '^-- Configuring done' '^-- Generating done' '\[100%\] Built target' 'Built target'
  capture ctest-fail test ctest "$P/cmake-calc" 'ctest --test-dir build'
  keep_re '\*\*\*Failed' 'tests passed, \d+ tests failed' '^\s+\d+ - \S+ \(Failed\)' 'Errors while running CTest'
  capture ctest-output-on-failure test ctest "$P/cmake-calc/build" 'ctest --output-on-failure -R "div|mod"'
  keep_re '\*\*\*Failed' 'tests passed' '^\s+\d+ - \S+ \(Failed\)' 'Errors while running CTest' '^FAIL '
}
