#!/usr/bin/env bash
# Extra real-output cases (7NN) for the package-manager, git, search/read, logs, infra,
# enumeration and secrets families.
#
#   bash corpus/capture-extra-2.sh            # every case
#   bash corpus/capture-extra-2.sh 'git'      # only cases whose id matches the regex
#
# Every output.txt is the real merged stdout+stderr of really running cmd.txt against
# fixtures this script creates under a fresh temp dir. Nothing is hand-written; must_keep
# lines are selected from the output by regex. Needs root (apt-get, nginx, postgres).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=${CASES_DIR:-$HERE/cases}
ONLY=${1:-.}
T=${CORPUS_TMP:-$(mktemp -d /tmp/omni-corpus2.XXXXXX)}
mkdir -p "$T" "$CASES"; T=$(cd "$T" && pwd); chmod 755 "$T"
log() { printf '[capture2] %s\n' "$*" >&2; }

SYS_PATH=/root/.pyenv/shims:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
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
  npm_config_update_notifier=false DEBIAN_FRONTEND=noninteractive
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
keep() { [[ -n "$CUR" ]] || return 0; local s; for s in "$@"; do printf '%s\n' "$s" >> "$CUR/must_keep.txt"; done; }
# keep_re REGEX... -- every output line (ANSI stripped) matching one regex, trimmed; when the
#   regex has a group named k, only that group (e.g. the short hash of a commit line)
keep_re() {
  [[ -n "$CUR" ]] || return 0
  python3 "$(dirname "${BASH_SOURCE[0]}")/keep-re.py" "$CUR/output.txt" "$@" >> "$CUR/must_keep.txt"
}

# ---------------------------------------------------------------- git fixture
git_fixture() {
  local r=$T/repo
  [[ -d $r/.git ]] && return 0
  mkdir -p "$r" && cd "$r" || return 1
  run "$r" 'git init -q .'
  local i
  for i in $(seq 1 36); do
    mkdir -p src/mod0 src/mod1 src/mod2 src/mod3 src/mod4 src/mod5 docs
    # real edits: each commit appends code to a few files
    printf 'export function step%d(x) {\n  // step %d of the pipeline\n  return x + %d;\n}\n' "$i" "$i" "$i" >> "src/mod$((i % 6))/index.js"
    printf 'export const LIMIT_%d = %d;\n' "$i" "$((i * 7))" >> "src/mod$(((i + 3) % 6))/limits.js"
    printf -- '- step %d documented\n' "$i" >> docs/CHANGES.md
    run "$r" "git add -A && GIT_AUTHOR_DATE='2026-11-$(printf %02d $((i % 28 + 1)))T10:$(printf %02d $((i % 60))):00Z' GIT_COMMITTER_DATE='2026-11-$(printf %02d $((i % 28 + 1)))T10:$(printf %02d $((i % 60))):00Z' git commit -q -m 'mod$((i % 6)): add step $i to the pipeline' -m 'The step adds $i to its input so the pipeline stays monotonic.
Limits for module $(((i + 3) % 6)) grow by $((i * 7)).

Refs: #$((100 + i))'"
  done
  cd - >/dev/null
}
git_worktree_changes() {
  local r=$T/repo
  run "$r" 'git stash -u -q 2>/dev/null; true'
  local i
  for i in 0 1 2 3 4 5; do printf 'export const EXTRA = %d;\n' "$i" >> "$r/src/mod$i/index.js"; done
  sed -i 's/return x + 3;/return x + 3 * 2;/; s/return x + 9;/return (x + 9) | 0;/' "$r/src/mod3/index.js"
  for i in 1 2 3 4; do mkdir -p "$r/src/new$i"; printf 'export default %d;\n' "$i" > "$r/src/new$i/index.js"; done
  printf 'notes\n' > "$r/NOTES.md"
  run "$r" 'git add src/new1 src/new2 && git rm -q docs/CHANGES.md'
}

cases_git() {
  git_fixture
  local r=$T/repo
  run "$r" 'git stash -u -q 2>/dev/null; git reset -q --hard; git clean -fdq'
  capture 701-git-log git git "$r" 'git log -30'
  keep_re '^commit (?P<k>[0-9a-f]{7})' '^    mod[0-9]: add step'
  capture 702-git-log-stat git git "$r" 'git log --stat -12'
  keep_re '^commit (?P<k>[0-9a-f]{7})' '^    mod[0-9]: add step' '^ (?P<k>[a-zA-Z]\S*) +\|' 'files? changed'
  capture 703-git-log-oneline git git "$r" 'git log --oneline -20'
  keep_re '^[0-9a-f]{7,} '
  capture 704-git-show git git "$r" 'git show HEAD~3'
  keep_re '^commit (?P<k>[0-9a-f]{7})' '^@@ [^@]+ @@ (?P<k>\S.*)' '^[-+]'
  capture 705-git-blame git git "$r" 'git blame src/mod1/index.js'
  keep_re '\) (?P<k>.*(return x \+|export function).*)$'
  capture 706-git-log-bad-revision git git "$r" 'git log no-such-branch'
  keep_re 'fatal'
  git_worktree_changes
  capture 707-git-status git git "$r" 'git status'
  keep_re 'modified:' 'new file:' 'deleted:' '^\s+src/new[34]/$' '^\s+NOTES.md$' '^On branch'
  capture 708-git-diff git git "$r" 'git diff'
  keep_re '^diff --git' '^@@ [^@]+ @@ (?P<k>\S.*)' '^[-+][^-+]'
  capture 709-git-status-short git git "$r" 'git status --short'
  keep_re '.'
  run "$r" 'git reset -q --hard; git clean -fdq'
}

# ---------------------------------------------------------------- installs
cases_install() {
  local p=$T/npmproj
  if want 71; then
    rm -rf "$p"; mkdir -p "$p"
    run "$p" 'npm init -y >/dev/null && npm pkg set dependencies.express=4.19.2 dependencies.lodash=4.17.21 dependencies.chalk=4.1.2 dependencies.request=2.88.2 dependencies.glob=7.2.3 devDependencies.typescript=5.4.5'
  fi
  capture 711-npm-install install npm "$p" 'npm install'
  keep_re '^added [0-9]+ packages' 'npm warn' 'vulnerabilit'
  capture 712-npm-ci-loglevel-http install npm "$p" 'npm ci --loglevel=http'
  keep_re '^added [0-9]+ packages' 'npm warn deprecated' 'vulnerabilit'
  capture 713-npm-install-missing install npm "$p" 'npm install no-such-package-omni-corpus-xyz'
  keep_re 'npm error'
  local v=$T/venv
  if want 71 && [[ ! -d $v ]]; then run "$T" "python3 -m venv $v"; fi
  local IDX='--index-url file:///opt/pypi/simple'
  capture 714-pip-install install pip "$T" "$v/bin/pip install --no-cache-dir $IDX requests flask rich httpx pydantic"
  keep_re '^Successfully installed' 'WARNING' 'ERROR'
  capture 715-pip-install-again install pip "$T" "$v/bin/pip install --no-cache-dir $IDX requests flask rich httpx pydantic"
  keep_re 'WARNING' 'ERROR'
  capture 716-pip-install-missing install pip "$T" "$v/bin/pip install --no-cache-dir $IDX no-such-package-omni-corpus-xyz"
  keep_re 'ERROR'
  if want 717; then run "$T" 'apt-get remove -y -q cowsay fortune-mod fortunes-min figlet sl >/dev/null 2>&1; apt-get autoremove -y -q >/dev/null 2>&1; true'; fi
  capture 717-apt-get-install install apt "$T" 'apt-get install -y cowsay fortune-mod figlet sl'
  keep_re '^  [a-z0-9]' '^Setting up ' 'newly installed' '^E:' '^W:'
  capture 718-apt-get-install-missing install apt "$T" 'apt-get install -y no-such-package-omni-corpus'
  keep_re '^E:'
  if want 719; then run "$p" 'rm -rf node_modules package-lock.json yarn.lock'; fi
  capture 719-yarn-install install yarn "$p" 'npx -y yarn@1.22.22 install --non-interactive'
  keep_re '^warning' '^success' '^Done in' 'error'
  if want 720; then run "$p" 'rm -rf node_modules package-lock.json yarn.lock pnpm-lock.yaml'; fi
  capture 720-pnpm-install install pnpm "$p" 'npx -y pnpm@9.15.0 install'
  keep_re '^Packages: ' '^dependencies:' '^devDependencies:' '^\+ ' 'WARN' 'ERR' '^Done in' 'deprecated'
}

# ---------------------------------------------------------------- search and reads
cases_search() {
  git_fixture
  local nm=$T/npmproj/node_modules
  [[ -d $nm/express ]] || run "$T/npmproj" 'npm install >/dev/null 2>&1'
  capture 721-grep-rn search grep "$T/npmproj" 'grep -rn "require(" node_modules/express/lib'
  keep_re ':(?P<k>[0-9]+:.*require\(.*)$'
  capture 722-rg search rg "$T/npmproj" 'rg -n "function [a-z]+\(" node_modules/express/lib'
  keep_re ':(?P<k>[0-9]+:.*function [a-z]+\(.*)$'
  capture 723-rg-no-match search rg "$T/npmproj" 'rg -n "no such needle anywhere" node_modules/express/lib'
  capture 724-find-name enumeration find "$T/npmproj" 'find node_modules/express node_modules/body-parser -name "*.js"'
  keep_re '\.js$'
  capture 725-cat-source read cat "$T/npmproj" 'cat node_modules/express/lib/router/route.js'
  keep_re 'Route\.prototype'
  capture 726-head-source read head "$T/npmproj" 'head -60 node_modules/express/lib/response.js'
  keep_re 'require\('
  capture 727-sed-n read sed "$T/npmproj" 'sed -n 1,80p node_modules/express/lib/application.js'
  keep_re 'require\('
  capture 728-grep-count search grep "$T/npmproj" 'grep -rc "exports" node_modules/express/lib'
  keep_re ':[0-9]+$'
}

# ---------------------------------------------------------------- enumerations and secrets
cases_enum() {
  git_fixture
  capture 731-ls-la enumeration ls "$T/npmproj" 'ls -la node_modules'
  keep_re ' express$' ' lodash$' ' chalk$' '^total'
  capture 732-tree enumeration tree "$T/repo" 'tree src'
  keep_re 'index.js' 'limits.js' 'directories'
  capture 733-ps-aux enumeration ps "$T" 'ps -eo pid,ppid,user,comm --sort=pid'
  keep_re '^\s*1 '
  capture 734-env-secrets enumeration env "$T" 'printenv' \
    DB_PASSWORD=hunter2-corpus-fixture GITHUB_TOKEN=ghp_corpusFixture0000000000000000000000 \
    AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY API_KEY=sk-corpus-fixture-123 \
    PASS=3 passed=3 NODE_ENV=production
  keep 'PASS=3' 'passed=3' 'NODE_ENV=production' 'DB_PASSWORD=' 'GITHUB_TOKEN=' 'API_KEY='
  capture 735-kubectl-get-no-cluster infra kubectl "$T" 'kubectl get pods'
  keep_re 'refused|error|Unable'
  capture 736-docker-ps-no-daemon infra docker "$T" 'docker ps'
  keep_re 'Cannot connect|error'
  capture 737-find-type-f enumeration find "$T/repo" 'find src -type f'
  keep_re '\.js$'
}

# ---------------------------------------------------------------- logs
cases_logs() {
  if want 74; then
    # nginx: a real server on a local port, real requests, its own access and error logs
    local n=$T/nginx; rm -rf "$n"; mkdir -p "$n/html/api" "$n/logs"
    printf '<h1>ok</h1>\n' > "$n/html/index.html"; printf '{"ok":true}\n' > "$n/html/api/health"
    cat > "$n/nginx.conf" <<EOF
worker_processes 1;
error_log $n/logs/error.log info;
pid $n/nginx.pid;
events { worker_connections 64; }
http {
  access_log $n/logs/access.log;
  server { listen 127.0.0.1:18089; root $n/html; location /secret { deny all; } }
}
EOF
    nginx -c "$n/nginx.conf"; sleep 0.5
    local i
    for i in $(seq 1 120); do
      curl -s -o /dev/null http://127.0.0.1:18089/ ; curl -s -o /dev/null http://127.0.0.1:18089/api/health
      [[ $((i % 20)) == 0 ]] && curl -s -o /dev/null http://127.0.0.1:18089/missing-$i.png
      [[ $((i % 40)) == 0 ]] && curl -s -o /dev/null http://127.0.0.1:18089/secret
    done
    nginx -c "$n/nginx.conf" -s stop; sleep 0.5
  fi
  capture 741-nginx-access-log log nginx "$T/nginx/logs" 'cat access.log'
  keep_re '" 404 ' '" 403 '
  capture 742-nginx-error-log log nginx "$T/nginx/logs" 'tail -n 100 error.log'
  keep_re '\[error\]' '\[warn\]' '\[emerg\]'
  if want 743; then
    # postgres: a throwaway cluster, a real workload with errors, its own log file
    local pg=$T/pg; rm -rf "$pg"; mkdir -p "$pg"; chown postgres "$pg"
    su postgres -c "initdb -D $pg/data >/dev/null && pg_ctl -D $pg/data -o '-p 15433 -k $pg -c log_statement=all -c log_connections=on -c log_disconnections=on' -l $pg/server.log start >/dev/null"
    sleep 1
    for i in $(seq 1 40); do su postgres -c "psql -h $pg -p 15433 -qc 'select $i' postgres >/dev/null 2>&1"; done
    su postgres -c "psql -h $pg -p 15433 -qc 'select * from no_such_table' postgres >/dev/null 2>&1"
    su postgres -c "pg_ctl -D $pg/data stop >/dev/null"
  fi
  capture 743-postgres-log log postgres "$T/pg" 'cat server.log'
  keep_re 'ERROR' 'FATAL' 'WARNING' 'PANIC' 'database system is ready'
  capture 744-dpkg-log log dpkg "$T" 'tail -n 400 /var/log/dpkg.log'
  keep_re ' install (cowsay|figlet)'
  if want 745; then rm -rf "$T/npmlogs"; run "$T/npmproj" "rm -rf node_modules && npm install --logs-dir=$T/npmlogs >/dev/null 2>&1"; fi
  capture 745-npm-debug-log log npm "$T/npmlogs" 'cat *-debug-0.log'
  keep_re '^[0-9]+ (error|warn) ' 'verbose exit'
}

# ---------------------------------------------------------------- infra
cases_infra() {
  local tf=$T/tf
  if want 75; then
    rm -rf "$tf"; mkdir -p "$tf"
    cat > "$tf/main.tf" <<'EOF'
variable "services" { default = ["api", "web", "worker", "cron", "mailer", "search"] }
resource "terraform_data" "svc" {
  for_each = toset(var.services)
  input    = { name = each.key, replicas = 2, tier = "backend" }
}
resource "terraform_data" "config" {
  input = { region = "eu-west-1", env = "staging" }
}
output "names" { value = [for s in terraform_data.svc : s.input.name] }
EOF
    run "$tf" 'terraform init -no-color >/dev/null'
  fi
  capture 751-terraform-plan infra terraform "$tf" 'terraform plan -no-color'
  keep_re '^Plan:' 'will be created' 'resource "terraform_data"'
  capture 752-terraform-apply infra terraform "$tf" 'terraform apply -auto-approve -no-color'
  keep_re '^Apply complete' 'Creation complete' '^names = '
  if want 753; then sed -i 's/replicas = 2/replicas = 3/' "$tf/main.tf"; fi
  capture 753-terraform-plan-change infra terraform "$tf" 'terraform plan -no-color'
  keep_re '^Plan:' 'must be replaced' 'forces replacement' '^ +~ (?!update in-place)'
  capture 754-terraform-plan-error infra terraform "$tf" 'printf "resource \"terraform_data\" \"bad\" {\n  input = var.nope\n}\n" > bad.tf; terraform plan -no-color; rc=$?; rm -f bad.tf; exit $rc'
  keep_re 'Error' 'var.nope'
  capture 755-docker-build-no-daemon infra docker "$tf" 'docker build -t omni-corpus .'
  keep_re 'ERROR|Cannot connect|error'
}

# run a family when any of its case ids matches the filter
ids_of() { grep -o "capture 7[0-9][0-9]-[a-z0-9-]*" "${BASH_SOURCE[0]}" | cut -d' ' -f2 | grep "^$1"; }
any_wanted() { local id; for id in $(ids_of "$1"); do want "$id" && return 0; done; return 1; }
any_wanted 70 && cases_git
any_wanted 71 && cases_install
any_wanted 72 && cases_search
any_wanted 73 && cases_enum
any_wanted 74 && cases_logs
any_wanted 75 && cases_infra
log done
