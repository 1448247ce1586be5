#!/usr/bin/env bash
# Extra real-output cases (756+) for the build and log families: real upstream projects
# built from their Debian source packages (Lua 5.4 with its own Makefile, cJSON with CMake
# and Ninja, GNU hello with autoconf/automake), a real node-gyp build of an npm package's
# native addon, a create-vite app's `npm run build`, and this machine's own system logs
# plus a PostgreSQL cluster under a real pgbench load.
#
#   bash corpus/capture-extra-3.sh            # every case
#   bash corpus/capture-extra-3.sh 'pg|apt'   # only cases whose id matches the regex
#
# Every output.txt is the real merged stdout+stderr of really running cmd.txt. Nothing is
# hand-written; must_keep lines are selected from the output by regex (every diagnostic,
# warning, error and verdict line). Needs root (apt-get source, postgres) and the npm
# registry; the Debian sources are fetched with apt's own client into a private list dir,
# so the machine's apt configuration is not changed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=${CASES_DIR:-$HERE/cases}
ONLY=${1:-.}
T=${CORPUS_TMP:-$(mktemp -d /tmp/omni-corpus3.XXXXXX)}
mkdir -p "$T" "$CASES"; T=$(cd "$T" && pwd); chmod 755 "$T"
log() { printf '[capture3] %s\n' "$*" >&2; }

SYS_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN_ENV=(
  PATH="$SYS_PATH" HOME="${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=120
  npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
  npm_config_userconfig=/dev/null DEBIAN_FRONTEND=noninteractive
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
# keep_re REGEX... -- every output line (ANSI stripped) matching one regex, trimmed
keep_re() {
  [[ -n "$CUR" ]] || return 0
  python3 "$(dirname "${BASH_SOURCE[0]}")/keep-re.py" "$CUR/output.txt" "$@" >> "$CUR/must_keep.txt"
}
# Compiler diagnostics with their location and excerpt, and make's own errors.
CC_KEEP=('^\S+:\d+:\d+: (warning|error|note):' ': In function' '^ +\d+ \| ' '^make(\[\d+\])?: \*\*\*' '\bError \d+' '(?i)\berror\b')

# ---------------------------------------------------------------- Debian sources
# apt's own client, a private source list and list dir: `apt-get source` of bookworm's
# packages, unpacked from their upstream (orig) tarballs as a user builds a release.
debian_sources() {
  local a=$T/apt
  [[ -f $T/src/.done ]] && return 0
  mkdir -p "$a/lists/partial" "$T/src"
  printf 'deb-src http://deb.debian.org/debian bookworm main\n' > "$a/src.list"
  local opts=(-o "Dir::Etc::SourceList=$a/src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$a/lists")
  apt-get "${opts[@]}" update >/dev/null 2>&1 || { log 'apt-get update (deb-src) failed'; return 1; }
  (cd "$T/src" && apt-get "${opts[@]}" source --download-only lua5.4 cjson hello figlet >/dev/null 2>&1) || { log 'apt-get source failed'; return 1; }
  (cd "$T/src" && for f in lua5.4_*.orig.tar.gz cjson_*.orig.tar.gz hello_*.orig.tar.gz figlet_*.orig.tar.gz; do tar xzf "$f"; done)
  touch "$T/src/.done"
}

cases_c() {
  debian_sources || return 0
  local lua cj hello fig
  lua=$(ls -d "$T"/src/lua-5.4*/ | head -1); cj=$(ls -d "$T"/src/cJSON-*/ | head -1)
  hello=$(ls -d "$T"/src/hello-*/ | head -1); fig=$(ls -d "$T"/src/figlet-*/ | head -1)

  run "$lua" 'make clean >/dev/null 2>&1; true'
  capture 756-lua-make build make "$lua" 'make'
  keep_re "${CC_KEEP[@]}" '^Guessing ' '^ar: '

  run "$cj" 'rm -rf build build-ninja build-clang'
  capture 757-cjson-cmake-configure build cmake "$cj" 'cmake -S . -B build'
  keep_re '^CMake .*(Warning|Error)' '^  \S' '^-- Configuring done' '^-- Generating done' '^-- Build files have been written'
  capture 758-cjson-cmake-build build cmake "$cj" 'cmake --build build'
  keep_re "${CC_KEEP[@]}" 'Built target'
  run "$cj" 'cmake -S . -B build-ninja -G Ninja >/dev/null 2>&1'
  capture 759-cjson-ninja-build build cmake "$cj" 'ninja -C build-ninja'
  keep_re "${CC_KEEP[@]}" '^ninja: '
  # A compiler the machine does not have: cmake's configure fails before any probe passes.
  capture 760-cmake-configure-missing-compiler build cmake "$cj" 'cmake -S . -B build-clang -DCMAKE_C_COMPILER=clang'
  keep_re 'CMake Error' 'CMAKE_C_COMPILER' 'not a full path' '^-- Configuring incomplete'

  run "$hello" 'make distclean >/dev/null 2>&1; true'
  capture 761-hello-configure build make "$hello" './configure'
  keep_re '(?i)warning|error:' '^config.status: creating Makefile$'
  capture 762-hello-make build make "$hello" 'make'
  keep_re "${CC_KEEP[@]}" '^ar: '
  # figlet's own Makefile builds with -Wall: 2005 code under gcc 12 warns a lot, and
  # every warning with its location, excerpt and macro-expansion notes is the answer.
  run "$fig" 'make clean >/dev/null 2>&1; true'
  capture 763-figlet-make-warnings build make "$fig" 'make'
  keep_re "${CC_KEEP[@]}"
  # The same build as a CI job runs it, with -Werror: the first warning stops it.
  run "$fig" 'make clean >/dev/null 2>&1; true'
  capture 764-figlet-make-werror build make "$fig" 'make CFLAGS="-g -O2 -Wall -Werror"'
  keep_re "${CC_KEEP[@]}" 'all warnings being treated as errors'
}

# ---------------------------------------------------------------- node-gyp
# An npm package's native addon built from source (the headers come from this machine's
# node installation: no header download), as `npm install` does when no prebuild fits.
cases_gyp() {
  local a=$T/addon
  if [[ ! -f $a/.done ]]; then
    rm -rf "$a"; mkdir -p "$a"
    run "$a" 'npm pack better-sqlite3@12.11.1 >/dev/null 2>&1 && tar xzf better-sqlite3-12.11.1.tgz' || return 0
    run "$a/package" 'npm install --ignore-scripts --no-audit --no-fund >/dev/null 2>&1 && npm install --no-save --ignore-scripts --no-audit --no-fund node-gyp@11 >/dev/null 2>&1' || return 0
    touch "$a/.done"
  fi
  run "$a/package" 'rm -rf build'
  capture 765-node-gyp-rebuild build node-gyp "$a/package" 'npx node-gyp rebuild --release --nodedir=/usr'
  keep_re "${CC_KEEP[@]}" '^gyp info ok' '^gyp ERR!'
}

# ---------------------------------------------------------------- vite app
# The react-ts template of create-vite, installed and built as its README says.
cases_vite() {
  local v=$T/vite
  if [[ ! -f $v/.done ]]; then
    rm -rf "$v"; mkdir -p "$v"
    run "$v" 'npm create vite@6 app -- --template react-ts >/dev/null 2>&1 && cd app && npm install --no-audit --no-fund >/dev/null 2>&1' || return 0
    touch "$v/.done"
  fi
  run "$v/app" 'rm -rf dist node_modules/.tmp'
  capture 766-vite-react-build build vite "$v/app" 'npm run build'
  keep_re '(?i)warning|error' '^✓ built in' '^dist/'
}

# ---------------------------------------------------------------- webpack, code-split
# A small storefront: an entry that lazy-loads one module per page (each using a few
# lodash-es and date-fns functions and shared helpers), built with webpack 5 and its
# filesystem cache, first from scratch, then again with nothing changed.
cases_webpack() {
  local w=$T/webpack
  if [[ ! -f $w/.done ]]; then
    rm -rf "$w"; mkdir -p "$w/src/pages" "$w/src/lib"
    printf '{ "name": "shop-frontend", "version": "1.0.0", "private": true }\n' > "$w/package.json"
    run "$w" 'npm install --no-audit --no-fund webpack@5 webpack-cli@6 lodash-es date-fns@3 >/dev/null 2>&1' || return 0
    cat > "$w/webpack.config.js" <<'EOF2'
const path = require('path');
module.exports = {
  entry: './src/index.js',
  output: { path: path.resolve(__dirname, 'dist'), filename: '[name].[contenthash:8].js', clean: true },
  cache: { type: 'filesystem' },
};
EOF2
    printf 'export const money = (n) => `$${n.toFixed(2)}`;\nexport const el = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };\n' > "$w/src/lib/dom.js"
    printf 'import { debounce } from "lodash-es";\nexport const track = debounce((name) => console.log("view", name), 200);\n' > "$w/src/lib/track.js"
    local pages=(home catalog product cart checkout account orders wishlist search help about contact) i=0 p
    local fns=("chunk" "groupBy" "sortBy" "uniqBy" "debounce" "throttle" "merge" "pick" "omit" "zip" "flatten" "partition")
    local dfs=("format" "addDays" "differenceInDays" "isWeekend" "startOfWeek" "parseISO" "formatDistance" "subMonths" "endOfMonth" "isBefore" "addHours" "eachDayOfInterval")
    for p in "${pages[@]}"; do
      cat > "$w/src/pages/$p.js" <<EOF2
import { ${fns[$i]}, ${fns[$(((i + 5) % 12))]} } from 'lodash-es';
import { ${dfs[$i]} } from 'date-fns';
import { el, money } from '../lib/dom.js';
import { track } from '../lib/track.js';
export default function render(root) {
  track('$p');
  root.append(el('h1', '$p'), el('p', money($((i * 7 + 3)))));
  return { ${fns[$i]}, ${fns[$(((i + 5) % 12))]}, ${dfs[$i]} };
}
EOF2
      i=$((i + 1))
    done
    { echo 'const routes = {'; for p in "${pages[@]}"; do echo "  $p: () => import('./pages/$p.js'),"; done; echo '};'
      echo 'const name = location.hash.slice(1) || "home";'
      echo 'routes[name]().then((m) => m.default(document.body));'; } > "$w/src/index.js"
    touch "$w/.done"
  fi
  run "$w" 'rm -rf dist node_modules/.cache'
  capture 772-webpack-split-build build webpack "$w" 'npx webpack --mode production'
  keep_re '(?i)warning|error' 'compiled' '^asset main\.'
  capture 773-webpack-split-rebuild build webpack "$w" 'npx webpack --mode production'
  keep_re '(?i)warning|error' 'compiled' '^asset main\.'
}

# ---------------------------------------------------------------- flask dev server log
# Debian's Flask on a loopback port: a browser-like mix of page, API and asset requests,
# a few missing assets and one handler that raises (werkzeug logs the traceback).
cases_flask() {
  local f=$T/flask
  if want 774; then
    command -v flask >/dev/null || apt-get install -y -q python3-flask >/dev/null 2>&1
    rm -rf "$f"; mkdir -p "$f"
    cat > "$f/app.py" <<'EOF2'
from flask import Flask, jsonify, request
app = Flask(__name__)
ORDERS = [{"id": i, "total": i * 3.5} for i in range(1, 40)]
@app.get("/")
def home():
    return "<h1>shop</h1>"
@app.get("/api/orders")
def orders():
    page = int(request.args.get("page", 1))
    return jsonify(ORDERS[(page - 1) * 10: page * 10])
@app.get("/api/orders/<int:oid>")
def order(oid):
    return jsonify(next(o for o in ORDERS if o["id"] == oid))
@app.get("/health")
def health():
    return "ok"
EOF2
    (cd "$f" && { env -i "${RUN_ENV[@]}" /usr/bin/python3 -m flask --app app run --port 15080 > server.log 2>&1 & echo $! > server.pid; })
    local i
    for i in $(seq 1 50); do curl -s -o /dev/null 127.0.0.1:15080/ && break; sleep 0.2; done
    for i in $(seq 1 30); do
      curl -s -o /dev/null "127.0.0.1:15080/health"
      curl -s -o /dev/null "127.0.0.1:15080/api/orders?page=$((i % 4 + 1))"
      curl -s -o /dev/null "127.0.0.1:15080/api/orders/$((i * 7 % 50 + 1))"
      [[ $((i % 6)) -eq 0 ]] && curl -s -o /dev/null "127.0.0.1:15080/static/app.$i.js"
    done
    kill "$(cat "$f/server.pid")" 2>/dev/null; sleep 0.5
  fi
  capture 774-flask-dev-server-log log flask "$f" 'cat server.log'
  keep_re '(?i)error|warning|traceback|exception' '^  File ' '" [45]\d\d ' '^\w+Error: |^StopIteration'
}

# ---------------------------------------------------------------- system logs
cases_syslogs() {
  local d=$T
  capture 767-apt-term-log log apt-log "$d" 'tail -n 300 /var/log/apt/term.log'
  keep_re '^Setting up ' '(?i)\b(error|warning|failed)\b' '^Log (started|ended)'
  capture 768-apt-history-log log apt-log "$d" 'tail -n 30 /var/log/apt/history.log'
  keep_re '^(Start-Date|Commandline|End-Date|Error):' '^(Install|Upgrade|Remove|Purge): (?P<k>\S+)'
  capture 769-alternatives-log log alternatives-log "$d" 'cat /var/log/alternatives.log'
  keep_re '(?i)\b(error|warning)\b' 'link group \S+ updated to point to'
}

# ---------------------------------------------------------------- postgres under pgbench
# A throwaway cluster with the logging an operator turns on (connections, checkpoints,
# autovacuum, slow statements), a pgbench load that opens a connection per transaction
# (an application without a pool), and one client that hits a real error.
cases_pg() {
  local pg=$T/pg
  if want 770 || want 771; then
    su postgres -c "pg_ctl -D $pg/data stop -m fast >/dev/null 2>&1"; rm -rf "$pg"; mkdir -p "$pg"; chown postgres "$pg"
    su postgres -c "initdb -D $pg/data >/dev/null 2>&1 && pg_ctl -D $pg/data -o '-p 15434 -k $pg -c log_connections=on -c log_disconnections=on -c log_checkpoints=on -c log_autovacuum_min_duration=0 -c log_min_duration_statement=50 -c log_lock_waits=on -c autovacuum_naptime=1' -l $pg/server.log start >/dev/null" || return 0
    sleep 1
    su postgres -c "pgbench -h $pg -p 15434 -i -s 2 postgres >/dev/null 2>&1"
    su postgres -c "pgbench -h $pg -p 15434 -C -c 4 -j 2 -t 40 postgres >/dev/null 2>&1"
    su postgres -c "psql -h $pg -p 15434 -qc 'select * from pgbench_branch' postgres >/dev/null 2>&1"
    su postgres -c "pgbench -h $pg -p 15434 -C -c 2 -j 1 -t 20 postgres >/dev/null 2>&1"
    su postgres -c "psql -h $pg -p 15434 -qc 'checkpoint' postgres >/dev/null 2>&1"
    su postgres -c "pg_ctl -D $pg/data stop -m fast >/dev/null"
  fi
  capture 770-postgres-pgbench-log log postgres "$pg" 'cat server.log'
  keep_re '(ERROR|FATAL|PANIC|WARNING|STATEMENT|DETAIL|HINT):' 'database system is ready to accept connections' 'database system is shut down'
  capture 771-postgres-pgbench-log-tail log postgres "$pg" 'tail -n 120 server.log'
  keep_re '(ERROR|FATAL|PANIC|WARNING|STATEMENT|DETAIL|HINT):' 'database system is ready to accept connections' 'database system is shut down'
}

ids_of() { grep -o "capture 7[0-9][0-9]-[a-z0-9-]*" "${BASH_SOURCE[0]}" | cut -d' ' -f2 | grep -E "^($1)"; }
any_wanted() { local id; for id in $(ids_of "$1"); do want "$id" && return 0; done; return 1; }
any_wanted '75[6-9]|76[0-4]' && cases_c
any_wanted 765 && cases_gyp
any_wanted 766 && cases_vite
any_wanted '77[23]' && cases_webpack
any_wanted 774 && cases_flask
any_wanted '76[7-9]' && cases_syslogs
any_wanted '77[01]' && cases_pg

# every must_keep line is a byte substring of its output
bad=0
for d in "$CASES"/7[5-9][0-9]-*/; do
  id=$(basename "$d"); [[ ${id%%-*} -ge 756 ]] || continue; want "$id" || continue
  while IFS= read -r k; do
    [[ -z $k ]] && continue
    grep -qF -- "$k" "$d/output.txt" || { log "$id: must_keep line not in output: $k"; bad=1; }
  done < "$d/must_keep.txt"
done
log "done (scratch: $T)"
exit $bad
