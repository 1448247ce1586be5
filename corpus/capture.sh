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
  # ignore this machine's own npm/pip settings (no fund/audit, local mirrors)
  npm_config_userconfig="$T/npmrc" PIP_CONFIG_FILE=/dev/null
)
: > "$T/npmrc"
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
# keep_git_log -- the short hash and the subject (first message line) of every commit of
#   a `git log` output; body lines may be hidden behind a marker, subjects may not.
keep_git_log() { [[ -n "$CUR" ]] || return 0; awk '/^commit [0-9a-f]+$/ { print substr($2, 1, 7); want = 1; next } want && /^    [^ ]/ { sub(/^    /, ""); print; want = 0 }' "$CUR/output.txt" >> "$CUR/must_keep.txt"; }

cat > "$T/mk.py" <<'EOF'
import re, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
ANSI = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>]')
pats = [re.compile(p) for p in sys.argv[2:]]
seen = set()
out = []
def emit(s):
    s = s.rstrip()
    if any(c.isalnum() for c in s) and s not in seen and not any(0xdc80 <= ord(c) <= 0xdcff for c in s):
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
  keep_re '(?P<k>src/strbuf\.c:\d+:\d+)'
  keep 'error:' 'warning:' 'undeclared (first use in this function)' 'implicit declaration of function'
  run "$P/cmake-calc" 'rm -rf build'
  capture cmake-configure-build build cmake "$P/cmake-calc" 'cmake -S . -B build && cmake --build build'
  keep_re '^-- Build files have been written' '^-- Configuring done' '^-- Generating done' '\[100%\] Built target' 'Built target'
  capture ctest-fail test ctest "$P/cmake-calc" 'ctest --test-dir build'
  keep_re '\*\*\*Failed' 'tests passed, \d+ tests failed' '^\s+\d+ - \S+ \(Failed\)' 'Errors while running CTest'
  capture ctest-output-on-failure test ctest "$P/cmake-calc/build" 'ctest --output-on-failure -R "div|mod"'
  keep_re '\*\*\*Failed' 'tests passed' '^\s+\d+ - \S+ \(Failed\)' 'Errors while running CTest' '^FAIL '
}

# ---------------------------------------------------------------- installs
cases_install() {
  local P=$T/proj
  mkdir -p "$P/npm-app"
  cat > "$P/npm-app/package.json" <<'EOF'
{
  "name": "legacy-api",
  "version": "2.3.0",
  "description": "An older service with a few dated dependencies",
  "main": "index.js",
  "scripts": {
    "start": "node index.js"
  },
  "dependencies": {
    "express": "4.21.2",
    "glob": "7.2.3",
    "request": "2.88.2",
    "uuid": "3.4.0"
  },
  "devDependencies": {
    "rimraf": "3.0.2"
  },
  "license": "MIT"
}
EOF
  run "$P/npm-app" 'rm -rf node_modules package-lock.json'
  capture npm-install-fresh install npm-install "$P/npm-app" 'npm install'
  keep_re '^npm warn deprecated' '^added \d+ packages' 'looking for funding' 'vulnerabilit' '^npm (warn|error) ' 
  run "$P/npm-app" 'rm -rf node_modules'
  capture npm-ci install npm-install "$P/npm-app" 'npm ci'
  keep_re '^npm warn deprecated' '^added \d+ packages' 'looking for funding' 'vulnerabilit'
  capture npm-install-etarget install npm-install "$P/npm-app" 'npm install left-pad@99.0.0'
  keep_re '^npm error' 
  NPM_DEBUG_LOG=""
  [[ -n "$CUR" ]] && NPM_DEBUG_LOG=$(grep -o '/[^ ]*_logs/[^ ]*-debug-0\.log' "$CUR/output.txt" | tail -1 || true)
  # read it at once: npm keeps only the newest 10 logs, other npm runs rotate it away
  if [[ -n "$NPM_DEBUG_LOG" && -f "$NPM_DEBUG_LOG" ]]; then
    capture npm-debug-log log npm-debug-log "$T" "cat ${NPM_DEBUG_LOG/#$HOME/\~}"
    keep_re 'verbose stack' 'error code' 'error notarget' 'verbose exit'
  fi
  capture npm-install-e404 install npm-install "$P/npm-app" 'npm install @omni-corpus/definitely-not-a-package'
  keep_re '^npm error'

  # pip: PyPI is not reachable from this machine; these are the real failures,
  # plus a real successful install from a locally built wheel.
  mkdir -p "$P/py-app/greetlib/greetlib"
  printf 'def greet(name):\n    return f"hello {name}"\n' > "$P/py-app/greetlib/greetlib/__init__.py"
  printf '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "greetlib"\nversion = "0.3.1"\ndescription = "Says hello"\n' > "$P/py-app/greetlib/pyproject.toml"
  printf 'greetlib==0.3.1\nrequests==2.31.0\n' > "$P/py-app/requirements.txt"
  if [[ ! -d "$P/py-app/dist" ]]; then
    # build the wheel with whichever python has setuptools+wheel (not captured)
    local py; for py in /root/.pyenv/shims/python3 /usr/bin/python3; do
      "$py" -m pip wheel -q --no-deps --no-build-isolation -w "$P/py-app/dist" "$P/py-app/greetlib" >/dev/null 2>&1 && break
    done
  fi
  run "$P/py-app" 'rm -rf .venv && /usr/bin/python3 -m venv .venv'
  capture pip-externally-managed install pip "$P/py-app" 'pip install requests'
  keep_re '^error: ' 'externally-managed' '^note: ' '^hint: '
  capture pip-install-offline install pip "$P/py-app" '.venv/bin/pip install requests'
  keep_re '^ERROR: ' '^WARNING: Retrying \(Retry\(total=4,'  # pip's repeats of a retry fold; the first says why
  capture pip-install-local-wheel install pip "$P/py-app" '.venv/bin/pip install --no-index --find-links dist greetlib'
  keep_re '^Successfully installed' '^Processing '
  capture pip-install-requirements-fail install pip "$P/py-app" '.venv/bin/pip install --no-index --find-links dist -r requirements.txt'
  keep_re '^ERROR: ' '^Processing '

  # apt: a real install of a small package (purged first so it really installs)
  if want apt; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -q cowsay >/dev/null 2>&1 || true
  fi
  capture apt-get-install install apt "$T" 'apt-get install -y cowsay'
  keep_re '^Setting up ' 'newly installed' '^(E|W): '
  capture apt-get-install-missing install apt "$T" 'apt-get install -y libomni-nonexistent-dev'
  keep_re '^E: '
}

# ---------------------------------------------------------------- git repo fixture
git_repo() {
  local R=$1
  [[ -d "$R/.git" ]] && return 0
  mkdir -p "$R"
  g() {
    env -i PATH="$SYS_PATH" HOME="$T/home" TZ=UTC GIT_CONFIG_GLOBAL="$T/gitconfig" \
      GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-Dana Developer}" GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-dana@example.com}" \
      GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-Dana Developer}" GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-dana@example.com}" \
      GIT_AUTHOR_DATE="${GIT_AUTHOR_DATE:-2024-03-01 00:00:00 +0000}" GIT_COMMITTER_DATE="${GIT_COMMITTER_DATE:-2024-03-01 00:00:00 +0000}" \
      git -C "$R" "$@"
  }
  g init -q -b main
  local subjects=(
    "Initial project skeleton"
    "Add cart model with line items"
    "Add price formatting helper"
    "Wire up express-style router"
    "Add user model and validation"
    "Fix rounding in cart total"
    "Add checkout handler"
    "Add ok_handler health endpoint"
    "Refactor router to use handler map"
    "Add inventory service"
    "Add tests for cart totals"
    "Fix off-by-one in pagination"
    "Add coupon support to checkout"
    "Document environment variables"
    "Add order history endpoint"
    "Extract currency module"
    "Handle empty cart in checkout"
    "Add rate limiter middleware"
    "Bump version to 0.4.0"
    "Add shipping estimator"
    "Fix timezone bug in order dates"
    "Add CSV export of orders"
    "Log slow requests"
    "Add search handler"
    "Cache product lookups"
    "Fix cache invalidation on update"
    "Add admin guard"
    "Tidy up error responses"
    "Add retry to payment client"
    "Remove dead feature flag code"
    "Add tax calculation per region"
    "Fix double charge on retry"
    "Add metrics endpoint"
    "Upgrade test fixtures"
    "Add refund handler"
    "Validate refund amounts"
    "Add webhook signature check"
    "Speed up product search"
  )
  local authors=("Dana Developer:dana@example.com" "Lee Maintainer:lee@example.com" "Sam Contributor:sam@example.com")
  mkdir -p "$R/src/models" "$R/src/handlers" "$R/src/services" "$R/tests" "$R/docs" "$R/.github/workflows" "$R/data" "$R/assets/icons"
  local i n file a day
  for i in "${!subjects[@]}"; do
    n=$((i + 1))
    case $((n % 5)) in
      0) file=src/models/model_$((n % 7)).ts ;;
      1) file=src/handlers/handler_$((n % 6)).ts ;;
      2) file=src/services/service_$((n % 4)).ts ;;
      3) file=tests/suite_$((n % 4)).test.ts ;;
      4) file=docs/notes_$((n % 3)).md ;;
    esac
    [[ $n == 8 ]] && file=src/handlers/ok_handler.ts
    [[ $n == 2 || $n == 6 || $n == 13 || $n == 17 || $n == 31 || $n == 32 ]] && file=src/cart.ts
    if [[ $file == *.md ]]; then
      printf '## %s\n\nTODO: expand this section (step %d).\n\n' "${subjects[$i]}" "$n" >> "$R/$file"
    else
      printf '// %s\nexport function step%02d(price: number, qty: number): number {\n  // TODO: validate inputs for step %d\n  return price * qty + %d;\n}\n\n' "${subjects[$i]}" "$n" "$n" "$n" >> "$R/$file"
    fi
    a=${authors[$((n % 3))]}
    day=$(printf '%02d' $((1 + n / 2)))
    g add -A
    GIT_AUTHOR_NAME=${a%%:*} GIT_AUTHOR_EMAIL=${a#*:} GIT_COMMITTER_NAME=${a%%:*} GIT_COMMITTER_EMAIL=${a#*:} \
    GIT_AUTHOR_DATE="2024-03-$day 0$((n % 10)):1$((n % 6)):00 +0000" GIT_COMMITTER_DATE="2024-03-$day 0$((n % 10)):1$((n % 6)):00 +0000" \
      g commit -q -m "${subjects[$i]}" -m "$( ((n % 4 == 0)) && printf 'Part of the checkout rework; see docs/notes for details.\n\nRefs: #%d' $((100 + n)) )"
    if [[ $n == 30 ]]; then
      g checkout -q -b feature/refunds
    fi
  done
  # merge the feature branch (subjects 31..38 were committed on it)
  g checkout -q main
  printf '# webshop\n\nA tiny shop backend used as a corpus fixture.\n' > "$R/README.md"
  g add README.md
  GIT_AUTHOR_DATE="2024-03-21 09:00:00 +0000" GIT_COMMITTER_DATE="2024-03-21 09:00:00 +0000" g commit -q -m "Add README"
  GIT_AUTHOR_DATE="2024-03-22 10:00:00 +0000" GIT_COMMITTER_DATE="2024-03-22 10:00:00 +0000" g merge -q --no-ff feature/refunds -m "Merge branch 'feature/refunds'"
  # more files for search/enumeration cases
  for i in $(seq 1 12); do
    printf 'import { step%02d } from "../handlers/handler_%d";\n\nexport const price%02d = (qty: number) => step%02d(%d.5, qty); // TODO: currency\n' "$((i % 6 * 5 + 1))" "$((i % 6))" "$i" "$((i % 6 * 5 + 1))" "$i" > "$R/src/models/product_$i.ts"
  done
  for i in $(seq 1 140); do printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- icon %d --></svg>\n' "$i" > "$R/assets/icons/icon-$(printf %03d "$i").svg"; done
  cat > "$R/.github/workflows/ci.yml" <<'EOF'
name: ci
on:
  push:
    branches: [main]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [18, 20, 22]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
          cache: npm
      - run: npm ci
      - run: npm test -- --ci --reporters=default
      - name: Upload coverage
        if: matrix.node == 20
        run: npx codecov --token="${{ secrets.CODECOV_TOKEN }}"
EOF
  {
    echo "order_id,date,customer,region,sku,qty,unit_price,total"
    for i in $(seq 1 200); do
      printf '%d,2024-03-%02d,customer-%03d,%s,SKU-%04d,%d,%d.%02d,%d.%02d\n' "$((10000 + i))" "$((1 + i % 28))" "$((i * 37 % 150))" \
        "$(case $((i % 4)) in 0) echo EU;; 1) echo US;; 2) echo APAC;; 3) echo "\"LATAM, South\"";; esac)" "$((i * 13 % 500))" "$((1 + i % 5))" "$((5 + i % 40))" "$((i * 7 % 100))" "$(((5 + i % 40) * (1 + i % 5)))" "$((i * 7 % 100))"
    done
  } > "$R/data/orders.csv"
  {
    printf 'timestamp\tservice\tp50_ms\tp99_ms\terrors\n'
    for i in $(seq 0 119); do printf '2024-03-22T%02d:%02d:00Z\t%s\t%d\t%d\t%d\n' "$((i / 60))" "$((i % 60))" "$(case $((i % 3)) in 0) echo api;; 1) echo worker;; 2) echo gateway;; esac)" "$((20 + i * 7 % 30))" "$((200 + i * 53 % 900))" "$((i % 17 == 0 ? 3 : 0))"; done
  } > "$R/data/latency.tsv"
  printf 'node_modules/\ndist/\n*.log\n' > "$R/.gitignore"
  g add -A
  GIT_AUTHOR_DATE="2024-03-23 11:00:00 +0000" GIT_COMMITTER_DATE="2024-03-23 11:00:00 +0000" g commit -q -m "Add product models, icons, CI workflow and sample data"
  # working-tree state for status/diff: staged, modified, deleted, renamed, untracked
  python3 - "$R/src/cart.ts" <<'EOF'
import sys
p = sys.argv[1]
lines = open(p).read().split('\n')
lines[1] = lines[1].replace('price: number', 'price: number /* cents */')
lines[8] = lines[8].replace('return', 'return Math.round(') + ' // rounded'
lines.insert(20, '  // NOTE: coupons are applied before tax')
lines[-3] = lines[-3] + ' // FIXME: double-check this path'
open(p, 'w').write('\n'.join(lines))
EOF
  printf '\nexport const RETRY_LIMIT = 3;\n' >> "$R/src/services/service_1.ts"
  printf '# Changelog\n\n## 0.5.0\n- refunds\n' > "$R/CHANGELOG.md"
  g add CHANGELOG.md src/services/service_1.ts
  g mv docs/notes_2.md docs/architecture.md
  g rm -q tests/suite_2.test.ts
  printf '\n## Deployment\n\nTODO: describe blue/green rollout.\n' >> "$R/docs/notes_1.md"
  printf 'export const okStatus = () => ({ ok: true });\n' > "$R/src/handlers/ok_status.ts"
  printf 'scratch notes\n' > "$R/notes.tmp"
  printf 'debug output\n' > "$R/server.log"
}

cases_git() {
  local R=$T/proj/webshop
  git_repo "$R"
  # git log keeps every commit as short hash + subject (issue 5), and --stat keeps every
  # changed file in condensed form: the short hash, subject, file name and totals must stay.
  capture git-log git git-log "$R" 'git log -25'
  keep_git_log
  capture git-log-stat git git-log "$R" 'git log --stat -8'
  keep_git_log
  keep_re '^ (?:\S+/)?(?P<k>[^/ |]+)\s+\|' 'files? changed'
  capture git-log-oneline git git-log "$R" 'git log --oneline'
  keep_re '^[0-9a-f]{7,} .*'
  capture git-log-graph-color git git-log "$R" 'git log --oneline --graph --decorate --color=always -15'
  keep_re '(?P<k>[0-9a-f]{7}) ' '[0-9a-f]{7} (?:\([^)]*\) )?(?P<k>.*)$'
  capture git-status git git-status "$R" 'git status'
  keep_re '^\s+(modified|new file|deleted|renamed):' '^\s+[\w./-]+$' '^On branch' 'Changes'
  capture git-status-short git git-status "$R" 'git status --short'
  keep_re '.'
  capture git-diff git git-diff "$R" 'git diff'
  keep_re '^diff --git' '^@@ [^@]+ @@ (?P<k>\S.*)' '^[-+](?![-+]{2}).*\S'
  capture git-diff-staged-stat git git-diff "$R" 'git diff --cached --stat'
  keep_re '.'
  capture git-show git git-show "$R" 'git show HEAD~3'
  keep_re '^commit ' '^    \S.*$' '^diff --git' '^@@ [^@]+ @@ (?P<k>\S.*)' '^[-+](?![-+]{2}).*\S'
  capture git-blame git git-blame "$R" 'git blame src/cart.ts'
  keep_re '^\^?[0-9a-f]{7,}.*\) (?P<k>.*\S)'
  capture git-push-no-remote git git-push "$R" 'git push'
  keep_re '^fatal:' '^\s+git '
}

# ---------------------------------------------------------------- search / read / enumeration / structured
cases_search() {
  local R=$T/proj/webshop
  git_repo "$R"
  capture grep-rn search grep "$R" 'grep -rn "TODO" src docs'
  keep_re '^(?P<k>[\w./-]+:\d+):'
  capture grep-rn-color search grep "$R" 'grep -rn --color=always "ok" src/handlers'
  keep_re '(?P<k>src/handlers/\S+?\.ts)' 
  capture rg-search search rg "$R" 'rg -n "step0[1-5]"'
  keep_re '^(?P<k>[\w./-]+:\d+):' '^[\w./-]+\.ts$'
  capture rg-heading-color search rg "$R" 'rg --color=always --heading -n "Math.round|TODO: currency" src'
  keep_re '^src/\S+$' '^\d+:' 
  capture find-ts enumeration find "$R" "find . -name '*.ts'"
  keep_re '.'
  capture cat-source read cat "$R" 'cat src/cart.ts'
  keep_re 'export function' 'FIXME'
  capture ls-la-big-dir enumeration ls "$R" 'ls -la assets/icons'
  keep_re '(?P<k>icon-\d+\.svg)$' '^total '
  capture ls-src enumeration ls "$R" 'ls -R src'
  keep_re '.'
  capture tree enumeration tree "$R" 'tree src tests'
  keep_re '(?P<k>[\w.-]+\.ts)$' 'directories'

  capture cat-yaml structured yaml "$R" 'cat .github/workflows/ci.yml'
  capture cat-csv structured csv "$R" 'cat data/orders.csv'
  capture cat-tsv structured tsv "$R" 'cat data/latency.tsv'
  capture git-log-ndjson structured json "$R" "git log --format='{\"hash\":\"%h\",\"author\":\"%an\",\"date\":\"%aI\",\"subject\":\"%s\"}'"
  capture head-binary binary binary "$R" 'head -c 2000 /bin/ls'
}

cases_structured_npm() {
  local P=$T/proj
  [[ -d "$P/npm-app/node_modules" ]] || return 0
  capture cat-package-json structured json "$P/npm-app" 'cat package.json'
  capture npm-ls-json structured json "$P/npm-app" 'npm ls --json'
  capture npm-view-json structured json "$P/npm-app" 'npm view left-pad@1.3.0 --json'
  capture jq-pipe structured json "$P/npm-app" 'cat package.json | jq .dependencies'
  capture npm-ls-tree enumeration npm-ls "$P/npm-app" 'npm ls'
  keep_re '(?P<k>[\w@/.-]+@\d[\w.-]*)'
  capture npm-outdated generic npm-outdated "$P/npm-app" 'npm outdated'
  keep_re '^\S+\s+\d'
}

# ---------------------------------------------------------------- logs (nginx, postgres, dpkg, npm) + progress bars
NGX_PORT=18089
cases_nginx() {
  local N=$T/nginx
  chmod 755 "$T"
  mkdir -p "$N/logs" "$N/www/static" "$N/www/downloads" "$N/www/private"
  printf '<!doctype html><title>shop</title><h1>shop</h1>\n' > "$N/www/index.html"
  printf 'console.log("app");\n' > "$N/www/static/app.js"
  printf 'body { margin: 0 }\n' > "$N/www/static/style.css"
  printf 'secret\n' > "$N/www/private/keys.txt"; chmod 600 "$N/www/private/keys.txt"
  [[ -f "$N/www/downloads/dataset.bin" ]] || head -c 6000000 /dev/urandom > "$N/www/downloads/dataset.bin"
  chmod -R o+rX "$N/www"; chmod 600 "$N/www/private/keys.txt"
  cat > "$N/nginx.conf" <<EOF
worker_processes 1;
pid $N/nginx.pid;
error_log $N/logs/error.log notice;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  access_log $N/logs/access.log combined;
  client_body_temp_path $N/tmp_body;
  proxy_temp_path $N/tmp_proxy;
  fastcgi_temp_path $N/tmp_fastcgi;
  uwsgi_temp_path $N/tmp_uwsgi;
  scgi_temp_path $N/tmp_scgi;
  server {
    listen 127.0.0.1:$NGX_PORT;
    server_name localhost;
    root $N/www;
    location /admin { deny all; }
    location /api/ { proxy_pass http://127.0.0.1:1; }
  }
}
EOF
  # a deliberately broken config for the `nginx -t` infra case
  sed 's/worker_connections 64;/worker_connections 64/; s/listen 127.0.0.1:[0-9]*;/listen 127.0.0.1:'"$NGX_PORT"' ssl_bogus;/' "$N/nginx.conf" > "$N/nginx-broken.conf"
  rm -f "$N/logs/"*.log
  nginx -c "$N/nginx.conf" -p "$N/" 2>/dev/null
  local i path agent
  local paths=(/ /index.html /static/app.js /static/style.css /favicon.ico /api/orders /admin/users /private/keys.txt /static/missing.js /robots.txt)
  local agents=("Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0" "curl/7.88.1" "Googlebot/2.1 (+http://www.google.com/bot.html)" "kube-probe/1.29")
  for i in $(seq 0 119); do
    path=${paths[$((i * 7 % ${#paths[@]}))]}
    agent=${agents[$((i % 4))]}
    curl -s -o /dev/null -m 5 -A "$agent" "http://127.0.0.1:$NGX_PORT$path?page=$((i % 9))" || true
  done
  curl -s -o /dev/null -m 5 -X POST -d 'user=admin&pass=x' "http://127.0.0.1:$NGX_PORT/login" || true
  curl -s -o /dev/null -m 5 "http://127.0.0.1:$NGX_PORT/../../etc/passwd" --path-as-is || true

  capture wget-progress-bar generic wget "$N" "wget --progress=bar:force --limit-rate=1500k -O /dev/null http://127.0.0.1:$NGX_PORT/downloads/dataset.bin"
  keep_re 'saved' 'HTTP request sent' '^Length:'
  capture curl-progress-bar generic curl "$N" "curl --progress-bar --limit-rate 1500k -o /dev/null http://127.0.0.1:$NGX_PORT/downloads/dataset.bin"
  capture curl-404 generic curl "$N" "curl -sS -f http://127.0.0.1:$NGX_PORT/static/missing.js"
  keep_re 'curl: \(\d+\)'
  capture nginx-t-broken infra nginx "$N" "nginx -t -c $N/nginx-broken.conf"
  keep_re 'emerg' 'failed'
  nginx -c "$N/nginx.conf" -p "$N/" -s quit 2>/dev/null || true
  sleep 1
  capture nginx-access-log log nginx-log "$N" 'cat logs/access.log'
  keep_re '" (?:4\d\d|5\d\d) \d+ ' 
  capture nginx-error-log log nginx-log "$N" 'cat logs/error.log'
  keep_re '\[(error|crit|alert|emerg|warn)\]'
}

cases_postgres() {
  local D=$T/pg bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  chmod 755 "$T"
  rm -rf "$D"; mkdir -p "$D"; chown postgres:postgres "$D"
  pgsu() { (cd "$D" && env -i PATH="$bin:$SYS_PATH" TZ=UTC LANG=C.UTF-8 su postgres -s /bin/bash -c "$1"); }
  pgsu "initdb -D $D/data -A trust -E UTF8 >/dev/null"
  pgsu "pg_ctl -D $D/data -l $D/server.log -o '-p 55432 -k $D -c log_min_duration_statement=200 -c log_connections=on -c log_disconnections=on' -w start >/dev/null"
  cat > "$D/app.sql" <<'EOF'
CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL, created_at timestamptz DEFAULT now());
INSERT INTO users (email) VALUES ('ada@example.com'), ('grace@example.com');
INSERT INTO users (email) VALUES ('ada@example.com');
SELECT * FROM orders WHERE user_id = 1;
SELEC email FROM users;
SELECT 1 / (count(*) - 2) FROM users;
SELECT pg_sleep(0.3);
UPDATE users SET email = NULL WHERE id = 2;
SELECT id, email FROM users ORDER BY id;
EOF
  chown postgres "$D/app.sql"
  capture psql-errors generic psql "$D" "psql -h $D -p 55432 -U postgres -d postgres -f app.sql"
  keep_re '^psql:' 'ERROR' 'DETAIL'
  pgsu "pg_ctl -D $D/data -m fast -w stop >/dev/null"
  chmod 644 "$D/server.log"
  capture postgres-server-log log postgres-log "$D" 'cat server.log'
  keep_re 'ERROR:' 'FATAL:' 'PANIC:' 'STATEMENT:' 'DETAIL:' 'duration:'
}

cases_more_logs() {
  capture dpkg-log log dpkg-log "$T" 'tail -n 40 /var/log/dpkg.log'
  keep_re ' status installed cowsay' ' install cowsay' ' remove cowsay' ' purge cowsay'
}

# ---------------------------------------------------------------- enumerations / infra / adversarial
cases_enum() {
  # ps aux inside a fresh PID namespace so only processes started here appear
  capture_ps() {
    NEXT_ID=$((NEXT_ID + 1)); local id; id=$(printf '%03d-%s' "$NEXT_ID" ps-aux)
    want "$id" || return 0
    local d=$CASES/$id; rm -rf "$d"; mkdir -p "$d"
    printf 'ps aux' > "$d/cmd.txt"; printf 'enumeration' > "$d/kind.txt"; printf 'ps' > "$d/family.txt"
    local rc=0
    (cd "$T" && env -i "${RUN_ENV[@]}" unshare -pf --mount-proc bash -c '
      sleep 300 & sleep 301 &
      python3 -m http.server 18765 --bind 127.0.0.1 >/dev/null 2>&1 &
      node -e "setTimeout(() => {}, 60000)" &
      (while true; do sleep 1; done) &
      sleep 1
      ps aux') > "$d/output.txt" 2>&1 < /dev/null || rc=$?
    printf '%s' "$rc" > "$d/exit_code.txt"; : > "$d/must_keep.txt"; CUR=$d
    keep_re '^\S+\s+\d+\s+.*\d:\d\d (?P<k>.*\S)' '^USER'
    log "$id rc=$rc"
  }
  capture_ps
  # env: a controlled environment with fake secrets (none of this machine's variables)
  local saved=("${RUN_ENV[@]}")
  RUN_ENV+=(DB_PASSWORD=hunter2 GITHUB_TOKEN=ghp_FAKE0123456789abcdefghijklmnopqrstuv AWS_ACCESS_KEY_ID=AKIAFAKEFAKEFAKE1234
            AWS_SECRET_ACCESS_KEY=fake/Secret+Key0123456789abcdefghijklmn DATABASE_URL=postgres://app:hunter2@127.0.0.1:5432/shop
            NODE_ENV=development PORT=3000)
  capture env-with-secrets enumeration env "$T" 'env'
  keep_re '^(?P<k>[A-Z_][A-Z0-9_]*)='
  RUN_ENV=("${saved[@]}")
}

cases_infra() {
  local P=$T/proj
  mkdir -p "$P/dockerapp"
  printf 'FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci --omit=dev\nCOPY . .\nCMD ["node", "index.js"]\n' > "$P/dockerapp/Dockerfile"
  printf '{ "name": "dockerapp", "version": "1.0.0" }\n' > "$P/dockerapp/package.json"
  capture docker-ps-no-daemon infra docker "$P/dockerapp" 'docker ps'
  keep_re '.'
  capture docker-build-no-daemon infra docker "$P/dockerapp" 'docker build -t shop-api:dev .'
  keep_re 'ERROR|error|Cannot connect'
  capture kubectl-get-pods infra kubectl "$P/dockerapp" 'kubectl get pods'
  keep_re 'refused|error|Unable'
  capture systemctl-status infra systemctl "$T" 'systemctl status nginx'
  keep_re '.'
  # terraform is on this machine (/usr/local/bin); in an empty dir plan fails for real
  capture terraform-plan-empty-dir infra terraform "$P/dockerapp" 'terraform plan'
  keep_re 'Error: ' 'No configuration files' 'not found'
}

cases_adversarial() {
  local P=$T/proj
  # 1. two producers chained: a 500-test jest run, then git status
  if [[ ! -d "$P/chain-app/.git" ]]; then
    mkdir -p "$P/chain-app"
    cp -r "$P/jest-pass/src" "$P/jest-pass/test" "$P/jest-pass/package.json" "$P/chain-app/"
    link_tools "$P/chain-app"
    printf 'node_modules\n' > "$P/chain-app/.gitignore"
    run "$P/chain-app" 'git init -q && git add -A && GIT_AUTHOR_DATE="2024-03-01T00:00:00Z" GIT_COMMITTER_DATE="2024-03-01T00:00:00Z" git commit -q -m init'
    printf '\n// retry budget\n' >> "$P/chain-app/src/lib.js"
    printf 'draft\n' > "$P/chain-app/TODO.md"
  fi
  capture chain-npm-test-git-status test jest "$P/chain-app" 'npm test && git status'
  keep_re '^Tests:' '^Test Suites:' '^\s+modified:' '^\s+TODO\.md$' '^On branch'
  # 2. CRLF line endings
  mkdir -p "$P/misc"
  printf 'Release checklist\r\n- bump version\r\n- tag v1.2.0\r\n- ERROR: signing key missing on build agent\r\n- publish\r\n' > "$P/misc/checklist.txt"
  capture cat-crlf read cat "$P/misc" 'cat checklist.txt'
  keep_re '.'
  # 3. invalid UTF-8 (latin-1 bytes) mixed with an error line
  printf 'id;name;city\n1;Jos\xe9;M\xe1laga\n2;Bj\xf6rn;G\xf6teborg\nerror: row 3 has invalid byte \xff\xfe at column 2\n3;Zo\xeb;Li\xe8ge\n' > "$P/misc/customers-latin1.csv"
  capture cat-invalid-utf8 read cat "$P/misc" 'cat customers-latin1.csv'
  keep 'id;name;city' 'error: row 3 has invalid byte '
  # 4. a test command whose output no parser understands
  if [[ ! -f "$P/words/package.json" ]]; then
    mkdir -p "$P/words"
    printf '{\n  "name": "words",\n  "version": "1.0.0",\n  "scripts": {\n    "test": "node words.js"\n  }\n}\n' > "$P/words/package.json"
    cat > "$P/words/words.js" <<'EOF'
// prints pseudo-random words (fixed seed) -- not a test runner at all
const words = ['amber', 'basalt', 'cobalt', 'delta', 'ember', 'fjord', 'gossamer', 'harbor', 'indigo', 'juniper', 'kelp', 'lumen'];
let s = 42;
const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let line = 0; line < 40; line++) {
  const n = 3 + Math.floor(rnd() * 8);
  console.log(Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' '));
}
EOF
  fi
  capture npm-test-unparseable test npm-test "$P/words" 'npm test'
  keep_re '^> '
  # 5. green run whose summary says "0 failed" / "fail 0"
  capture node-test-tap-pass-zero-failed test node-test "$P/node-pass" 'node --test --test-reporter=tap test/arithmetic.test.js test/pricing.test.js'
  keep_re '^# (tests|pass|fail)'
  # 6. grep/find whose paths contain "ok" (must not be mistaken for passing-test lines)
  capture find-ok-paths enumeration find "$T/proj/webshop" "find src -name '*ok*'"
  keep_re '.'
  capture grep-ok-handler search grep "$T/proj/webshop" 'grep -rn "ok" src/handlers'
  keep_re '^(?P<k>[\w./-]+:\d+):'
}

# ---------------------------------------------------------------- later additions (kept last so earlier ids stay stable)
cases_extra() {
  local P=$T/proj
  # go build / go vet failures
  if [[ ! -d "$P/go-broken" ]]; then
    go_module "$P/go-broken" 0
    rm -f "$P/go-broken/"*/*_test.go
    cat > "$P/go-broken/cart/discount.go" <<'EOF'
package cart

import (
	"fmt"
	"strings"
)

// Discount applies a percentage to the cart total.
func Discount(items []Item, pct float64) int {
	total := Total(items)
	return total * (1 - pct/100)
}

func describe(items []Item) string {
	return fmt.Sprintf("%d items", itemCount)
}
EOF
    go_module "$P/go-vet" 0
    rm -f "$P/go-vet/"*/*_test.go
    cat > "$P/go-vet/cart/report.go" <<'EOF'
package cart

import "fmt"

// Report prints a summary line for the cart.
func Report(items []Item) {
	fmt.Printf("%d items, total %s cents\n", len(items), Total(items))
	fmt.Println("done", "%v")
}
EOF
  fi
  capture go-build-error build go-build "$P/go-broken" 'go build ./...'
  keep_re '^#' '^\S+\.go:\d+:\d+: .*'
  capture go-vet lint go-vet "$P/go-vet" 'go vet ./...'
  keep_re '^#' '\.go:\d+:\d+: .*'

  # cargo clippy on the warning-carrying workspace
  capture cargo-clippy lint clippy "$P/rs-ok" 'cargo clippy'
  keep_re '^warning' '^error' '^\s*--> (?P<k>\S+:\d+:\d+)' '^\s*Finished '

  # vite production build
  if [[ ! -d "$P/vite-app" ]]; then
    mkdir -p "$P/vite-app/src"
    printf '{ "name": "vite-app", "version": "0.0.1", "private": true, "type": "module" }\n' > "$P/vite-app/package.json"
    printf '<!doctype html>\n<html><head><title>vite app</title><link rel="stylesheet" href="/src/style.css"></head>\n<body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n' > "$P/vite-app/index.html"
    printf 'import { chart } from "./chart.js";\ndocument.querySelector("#app").textContent = chart(12);\n' > "$P/vite-app/src/main.js"
    cp "$P/webpack-app/src/chart.js" "$P/vite-app/src/chart.js"
    printf 'body { font-family: sans-serif; margin: 2rem; }\n#app { color: #333; }\n' > "$P/vite-app/src/style.css"
    link_tools "$P/vite-app"
  fi
  capture vite-build build vite "$P/vite-app" 'npx vite build'
  keep_re 'built in' 'dist/' '^\(!\)' 'modules transformed'

  # terraform with only the built-in provider (no registry download needed)
  if [[ ! -d "$P/tf" ]]; then
    mkdir -p "$P/tf" "$P/tf-broken"
    cat > "$P/tf/main.tf" <<'EOF'
variable "environment" {
  type    = string
  default = "staging"
}

locals {
  services = ["api", "worker", "scheduler"]
}

resource "terraform_data" "service" {
  for_each = toset(local.services)
  input = {
    name        = each.key
    environment = var.environment
    replicas    = each.key == "api" ? 3 : 1
  }
}

resource "terraform_data" "release" {
  input            = "v1.4.2"
  triggers_replace = [for s in terraform_data.service : s.id]
}

output "service_names" {
  value = [for s in terraform_data.service : s.input.name]
}
EOF
    cat > "$P/tf-broken/main.tf" <<'EOF'
resource "terraform_data" "release" {
  input = var.release_tag
  triggers_replace = [terraform_data.missing.id]
}

output "tag" {
  value = terraform_data.release.outputt
}
EOF
    run "$P/tf" 'terraform init -input=false >/dev/null 2>&1 || true'
    run "$P/tf-broken" 'terraform init -input=false >/dev/null 2>&1 || true'
  fi
  capture terraform-plan infra terraform "$P/tf" 'terraform plan -input=false'
  keep_re '^\s*# terraform_data\.' '^Plan: ' 'Error'
  capture terraform-validate-errors infra terraform "$P/tf-broken" 'terraform validate'
  keep_re 'Error: ' 'on main\.tf line \d+' 'Reference to undeclared' 'Unsupported attribute'
}

# ---------------------------------------------------------------- validation + main
validate() {
  python3 - "$CASES" <<'EOF'
import os, sys
root = sys.argv[1]
bad = 0
for case in sorted(os.listdir(root)):
    d = os.path.join(root, case)
    for f in ('cmd.txt', 'output.txt', 'exit_code.txt', 'kind.txt', 'must_keep.txt', 'family.txt'):
        if not os.path.exists(os.path.join(d, f)):
            print(f'MISSING {case}/{f}'); bad += 1
    out = open(os.path.join(d, 'output.txt'), 'rb').read()
    for line in open(os.path.join(d, 'must_keep.txt'), 'rb').read().split(b'\n'):
        if line and line not in out:
            print(f'NOT A SUBSTRING {case}: {line[:80]!r}'); bad += 1
    if len(out) > 2_000_000:
        print(f'TOO BIG {case}: {len(out)}'); bad += 1
print(f'{len(os.listdir(root))} cases, {bad} problems')
sys.exit(1 if bad else 0)
EOF
}

main() {
  # this script owns case ids 001-499; 5NN/7NN cases come from other capture
  # scripts in this folder (capture-extra*.sh) and are left alone
  [[ "$ONLY" == "." ]] && rm -rf "${CASES:?}"/[0-4][0-9][0-9]-*
  install_system_tools
  cases_js_tests
  cases_tap
  cases_pytest
  cases_cargo
  cases_go
  cases_build_js
  cases_c
  cases_install
  cases_git
  cases_search
  cases_structured_npm
  cases_nginx
  cases_postgres
  cases_more_logs
  cases_enum
  cases_infra
  cases_adversarial
  cases_extra
  validate
  log "done: $(ls "$CASES" | wc -l) cases in $CASES (scratch: $T)"
}

# allow `source capture.sh` for debugging single sections
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main
fi
