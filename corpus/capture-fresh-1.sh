#!/usr/bin/env bash
# Fresh real-output cases (800-829), captured from projects shaped differently from the
# cases the distillers were built on (issue 10, "inputs nobody chose"):
#   - node:test's default reporter off a terminal (TAP) on top-level `test()` calls, with
#     and without failures, and with mixed nesting;
#   - `npm install --loglevel=http` in a scratch project whose packages are in npm's cache
#     (`npm http cache … (cache hit)` lines);
#   - `pip install` of a package that must come from PyPI (unreachable here: pip's retry
#     warnings, then its failure) and of a local package directory (succeeds offline);
#   - `apt-get install --dry-run` of several packages, and `apt-get update`.
#
#   bash corpus/capture-fresh-1.sh            # every case
#   bash corpus/capture-fresh-1.sh 'apt'      # only cases whose id matches the regex
#
# Every output.txt is the real merged stdout+stderr of really running cmd.txt. Nothing is
# hand-written; must_keep lines are selected from the output by regex. Needs root
# (apt-get) and the npm registry.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=${CASES_DIR:-$HERE/cases}
ONLY=${1:-.}
T=${CORPUS_TMP:-$(mktemp -d /tmp/omni-fresh1.XXXXXX)}
mkdir -p "$T" "$CASES"; T=$(cd "$T" && pwd); chmod 755 "$T"
log() { printf '[fresh1] %s\n' "$*" >&2; }

SYS_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
NODE_DIR=$(dirname "$(command -v node)")
RUN_ENV=(
  PATH="$NODE_DIR:$SYS_PATH" HOME="${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=120
  npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
  npm_config_userconfig=/dev/null PIP_CONFIG_FILE=/dev/null DEBIAN_FRONTEND=noninteractive
)
run() { (cd "$1" && env -i "${RUN_ENV[@]}" bash -c "$2"); }
want() { [[ "$1" =~ $ONLY ]]; }

CUR=""
# capture ID-NAME KIND FAMILY CWD CMD [EXTRA_ENV...]
capture() {
  local id=$1 kind=$2 family=$3 cwd=$4 cmd=$5; shift 5
  CUR=""
  want "$id" || return 0
  local d=$CASES/$id
  rm -rf "$d"; mkdir -p "$d"
  printf '%s' "$cmd" > "$d/cmd.txt"
  printf '%s' "$kind" > "$d/kind.txt"
  printf '%s' "$family" > "$d/family.txt"
  local rc=0
  (cd "$cwd" && env -i "${RUN_ENV[@]}" "$@" bash -c "$cmd") > "$d/output.txt" 2>&1 < /dev/null || rc=$?
  printf '%s' "$rc" > "$d/exit_code.txt"
  : > "$d/must_keep.txt"
  CUR=$d
  log "$id  rc=$rc  $(wc -c < "$d/output.txt") bytes"
}
# about TEXT -- what the case exercises (written to about.txt)
about() { [[ -n "$CUR" ]] && printf '%s\n' "$1" > "$CUR/about.txt"; return 0; }
# keep_re REGEX... -- every output line (ANSI stripped) matching one regex, trimmed
keep_re() {
  [[ -n "$CUR" ]] || return 0
  python3 "$(dirname "${BASH_SOURCE[0]}")/keep-re.py" "$CUR/output.txt" "$@" >> "$CUR/must_keep.txt"
}

# ---------------------------------------------------------------- node --test (TAP)
cases_nodetest() {
  local p=$T/nodetest
  rm -rf "$p"; mkdir -p "$p"
  # 200 top-level test() calls, no describe: node's default reporter off a TTY is TAP.
  python3 - "$p" <<'EOF'
import sys, os
p = sys.argv[1]
def w(name, body):
    open(os.path.join(p, name), 'w').write(body)
hdr = "const test = require('node:test');\nconst assert = require('node:assert');\n\n"
w('flat.test.js', hdr + ''.join(
    f"test('parses record {i} of the ledger', () => {{\n  assert.strictEqual(String({i}).length > 0, true);\n}});\n\n" for i in range(1, 201)))
fails = {37, 151}
w('flat-fail.test.js', hdr + ''.join(
    (f"test('parses record {i} of the ledger', () => {{\n  assert.strictEqual({i} % 7, {i % 7 + 1}, 'record {i} checksum');\n}});\n\n" if i in fails else
     f"test('parses record {i} of the ledger', () => {{\n  assert.strictEqual(String({i}).length > 0, true);\n}});\n\n") for i in range(1, 201)))
# Mixed nesting: top-level tests, describe blocks, a test with subtests, a skip and a todo.
body = hdr.replace("const test = require('node:test');", "const { test, describe, it } = require('node:test');")
for i in range(1, 61):
    body += f"test('top-level check {i}', () => {{ assert.ok({i}); }});\n"
for s in range(1, 6):
    body += f"\ndescribe('suite {s}', () => {{\n"
    for i in range(1, 21):
        body += f"  it('case {s}.{i} holds', () => {{ assert.ok(true); }});\n"
    body += "  describe('inner', () => {\n"
    for i in range(1, 6):
        body += f"    it('inner case {s}.{i}', () => {{ assert.ok(true); }});\n"
    body += "  });\n});\n"
body += "\ntest('with subtests', async (t) => {\n"
for i in range(1, 11):
    body += f"  await t.test('subtest {i}', () => {{ assert.ok(true); }});\n"
body += "});\n"
body += "test('skipped on this platform', { skip: 'needs a GPU' }, () => {});\n"
body += "test('not written yet', { todo: true }, () => {});\n"
for i in range(61, 81):
    body += f"test('top-level check {i}', () => {{ assert.ok({i}); }});\n"
w('mixed.test.js', body)
EOF
  capture 800-node-test-tap-toplevel-pass test node-test "$p" 'node --test flat.test.js'
  keep_re '^# (tests|pass|fail|suites|cancelled|skipped|todo) ' '^1\.\.\d+$'
  about "node --test on a file of 200 top-level test() calls (no describe), stdout not a terminal, so node 20's default reporter is TAP: every test is a top-level '# Subtest:' + 'ok N - name' + YAML duration_ms block, with no nesting. Earlier node-test TAP cases (010, 011, 107) nest their tests in describe blocks or files. Passing."
  capture 801-node-test-tap-toplevel-fail test node-test "$p" 'node --test flat-fail.test.js'
  keep_re '^not ok ' "^  error: " '^  (failureType|code|name|expected|actual|operator):' '^# (tests|pass|fail|suites|cancelled|skipped|todo) ' 'record \d+ checksum'
  about "The same 200 top-level test() calls in TAP, with two failing assertions (records 37 and 151): top-level 'not ok N' lines with their YAML error blocks (error, expected, actual, operator, stack) among 198 top-level 'ok' lines. Exit code 1."
  capture 802-node-test-tap-mixed test node-test "$p" 'node --test mixed.test.js'
  keep_re '^# (tests|pass|fail|suites|cancelled|skipped|todo) ' '# SKIP' '# TODO'
  about "node --test TAP with mixed nesting in one file: 80 top-level tests, five describe suites with 20 cases and an inner describe each, a test with 10 t.test subtests, one skip and one todo: top-level and nested 'ok' lines interleave. Passing."
}

# ---------------------------------------------------------------- npm --loglevel=http
cases_npm() {
  local p=$T/npmhttp
  if [[ ! -f $p/.done ]]; then
    rm -rf "$p"; mkdir -p "$p"
    run "$p" 'npm init -y >/dev/null && npm pkg set dependencies.commander=12.1.0 dependencies.semver=7.6.3 dependencies.debug=4.3.7 dependencies.yargs=17.7.2 dependencies.minimatch=9.0.5' || return 0
    # Warm npm's cache: the captured install then reads packuments and tarballs from it.
    run "$p" 'npm install >/dev/null 2>&1 && rm -rf node_modules package-lock.json' || return 0
    touch "$p/.done"
  fi
  run "$p" 'rm -rf node_modules package-lock.json'
  capture 803-npm-install-loglevel-http-cache install npm "$p" 'npm install --prefer-offline --loglevel=http'
  keep_re '^added [0-9]+ packages' 'npm warn' 'vulnerabilit' '^up to date'
  about "npm install --prefer-offline --loglevel=http in a scratch project (commander, semver, debug, yargs, minimatch) whose packages are already in npm's cache: 'npm http cache … (cache hit)' lines for packuments and tarballs, which case 712 (a cold npm ci, 'npm http fetch GET 200 … (cache updated)') does not have, then the 'added N packages' line."
}

# ---------------------------------------------------------------- pip
cases_pip() {
  local v=$T/venv
  [[ -x $v/bin/pip ]] || python3 -m venv "$v" || return 0
  capture 804-pip-install-pypi-unreachable install pip "$T" "$v/bin/pip install --no-cache-dir requests"
  keep_re '^ERROR: ' 'Could not find a version' 'No matching distribution'
  about "pip install requests in a fresh venv with no pip config (PIP_CONFIG_FILE=/dev/null), so pip goes to PyPI, which is unreachable from this machine: pip prints its 'WARNING: Retrying (Retry(total=4, …' lines for every URL it tries, then the 'Could not find a version' / 'No matching distribution' errors. Exit code 1. Case 716 failed on a local file index with no retries."
  local lp=$T/localpkg
  rm -rf "$lp"; mkdir -p "$lp/src/tallyho"
  cat > "$lp/setup.py" <<'EOF'
from setuptools import setup, find_packages
setup(name="tallyho", version="0.2.0", package_dir={"": "src"}, packages=find_packages("src"),
      entry_points={"console_scripts": ["tallyho=tallyho:main"]})
EOF
  printf 'def main():\n    print("tally ho")\n' > "$lp/src/tallyho/__init__.py"
  "$v/bin/pip" uninstall -y tallyho >/dev/null 2>&1
  # The venv's bundled setuptools needs `wheel` to build: from this machine's disk index
  # (not captured), so the captured install itself needs no index at all.
  run "$T" "$v/bin/pip install -q --index-url file:///opt/pypi/simple wheel >/dev/null 2>&1"
  capture 805-pip-install-local-dir install pip "$T" "$v/bin/pip install --no-index --no-build-isolation $lp"
  keep_re '^Successfully installed' '^ERROR' '^WARNING' '(?i)error'
  about "pip install --no-index --no-build-isolation of a local package directory (a tiny setup.py project with a console script) into a venv: the offline success path — Processing, Preparing metadata, Building wheel, Created wheel, Stored in directory, Successfully installed — where 052 installed a prebuilt wheel. Exit code 0."
}

# ---------------------------------------------------------------- apt-get
cases_apt() {
  capture 806-apt-get-update install apt "$T" 'apt-get update'
  keep_re '^Fetched ' '^(E|W|Err):'
  about "apt-get update with Debian's archive reachable: Get/Hit lines for each index, then the closing 'Fetched N kB in Ns (M kB/s)' summary, which is signal. Case 717 only installs."
  # A first update into an empty list directory (apt's own option; the machine's lists are
  # untouched): every index is downloaded, so Get lines for Packages, Translation files.
  rm -rf "$T/aptlists"; mkdir -p "$T/aptlists/partial"
  capture 809-apt-get-update-fresh-lists install apt "$T" "apt-get -o Dir::State::Lists=$T/aptlists update"
  keep_re '^Fetched ' '^(E|W|Err):'
  about "apt-get update into an empty list directory (-o Dir::State::Lists=…, so the machine's own lists are untouched): every index is downloaded, so Get lines for InRelease, Packages and Translation files with their sizes, then the closing 'Fetched N MB in Ns (M kB/s)' summary, which is signal and must stay visible. 806 had only three InRelease lines."
  capture 807-apt-get-install-dry-run install apt "$T" 'apt-get install --dry-run -y imagemagick ghostscript graphviz'
  keep_re '^  \S' 'newly installed' '^(E|W):' '^The following'
  about "apt-get install --dry-run (simulate) of imagemagick, ghostscript and graphviz: the package lists ('The following additional packages will be installed', 'Suggested packages', 'NEW packages'), the 'N newly installed' summary, then one 'Inst pkg (version …)' and one 'Conf pkg (…)' line per package, which earlier apt cases (a real install: Unpacking/Setting up) do not have."
}

# pip with this machine's own configuration (/etc/xdg/pip: PyPI as the index, local disk
# indexes as extra ones): every project page is asked of PyPI first, which is unreachable,
# so each project costs five retry warnings before the disk index answers.
cases_pip_machine() {
  local v=$T/venv2
  rm -rf "$v"; python3 -m venv "$v" || return 0
  capture 808-pip-install-retries-disk-index install pip "$T" "$v/bin/pip install --no-cache-dir flask requests" PIP_CONFIG_FILE= PIP_DISABLE_PIP_VERSION_CHECK=1
  keep_re '^ERROR: ' '^Successfully installed'
  about "pip install flask requests into a fresh venv with this machine's pip configuration: PyPI is the index (unreachable) and two disk indexes are extra ones, so for flask, requests and each of their dependencies pip prints 'WARNING: Retrying (Retry(total=4..0, …' five times while it asks PyPI for the project page, then takes the package from the disk index: dozens of repeated retry warnings interleaved with Collecting/Downloading lines, ending in Successfully installed. Exit code 0. 804 has one project's retries and then fails."
}

cases_nodetest
cases_npm
cases_pip
cases_pip_machine
cases_apt
log "done: $T"
