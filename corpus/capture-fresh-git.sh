#!/usr/bin/env bash
# Fresh real git output (cases 830-849), from a repository shaped unlike the 7NN fixture:
# subjects that say "error" / "failure" / "fix failing test", multi-paragraph bodies with
# `error: …` lines, renames inside a directory (`src/hooks/{pipe.rs => post_tool.rs}`) and
# across directories (`src/{a => b}/x.ts`), paths long enough for git to abbreviate with
# `...`, a path with a space, a binary file, a merge, and a working tree diff of many hunks.
#
#   bash corpus/capture-fresh-git.sh            # every case
#   bash corpus/capture-fresh-git.sh '83[45]'   # only case ids matching the regex
#
# Every output.txt is what git really printed for cmd.txt in the repository this script
# builds under a fresh temp dir (fixed authors and dates, so the hashes are stable).
# Nothing in an output.txt is hand-written; must_keep lines are selected by regex.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES=${CASES_DIR:-$HERE/cases}
ONLY=${1:-.}
T=$(mktemp -d /tmp/omni-fresh-git.XXXXXX)
log() { printf '[fresh-git] %s\n' "$*" >&2; }

cat > "$T/gitconfig" <<'EOF'
[user]
	name = Robin Reviewer
	email = robin@example.org
[init]
	defaultBranch = main
[advice]
	detachedHead = false
[merge]
	ff = false
EOF
RUN_ENV=(
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$T" USER=root
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=120
  GIT_CONFIG_GLOBAL="$T/gitconfig" GIT_CONFIG_NOSYSTEM=1 GIT_PAGER=cat PAGER=cat
)
R=$T/relay
run() { (cd "$R" && env -i "${RUN_ENV[@]}" "$@"); }
want() { [[ "$1" =~ $ONLY ]]; }

N=0
# commit AUTHOR SUBJECT [BODY]: stage everything and commit at the next fixed date
commit() {
  N=$((N + 1))
  local d; d=$(printf '2026-10-%02dT%02d:%02d:00Z' $((N % 28 + 1)) $((8 + N % 10)) $((N * 7 % 60)))
  local who=${1}; shift
  local name=Robin\ Reviewer mail=robin@example.org
  [[ $who == sam ]] && { name='Sam Second'; mail=sam@example.org; }
  local m=() p
  for p in "$@"; do m+=(-m "$p"); done
  run git add -A
  run env GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$mail" GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" \
    git commit -q "${m[@]}"
}
# numbered source lines, so later edits make real multi-hunk diffs
body_lines() { local f=$1 n=$2 i; for i in $(seq 1 "$n"); do printf '%s\n' "$(printf "$f" "$i" "$i")"; done; }

LONG=src/server/handlers/authentication/middleware/session_token_validator.ts
LONGT=tests/integration/authentication/middleware/session_token_validator.test.ts
DEEP=src/server/handlers/authentication/middleware/providers/oauth2/refresh/token_rotation_policy_enforcer.ts

build_repo() {
  mkdir -p "$R" && run git init -q .
  mkdir -p "$R/src/hooks" "$R/src/a" "$R/src/lib" "$(dirname "$R/$LONG")" "$(dirname "$R/$LONGT")" "$R/docs"
  { echo 'use std::io::Read;'; echo; body_lines 'pub fn stage_%d(input: &str) -> String { input.replace("a%d", "b") }' 60; } > "$R/src/hooks/pipe.rs"
  { body_lines 'export const x%d = %d;' 30; } > "$R/src/a/x.ts"
  { echo '// config loader'; body_lines 'export function option%d(env: Record<string, string>) { return env.OPT_%d ?? "default"; }' 150; } > "$R/src/lib/config_loader.ts"
  { body_lines 'export const rule%d = (token: string) => token.length > %d;' 40; } > "$R/$LONG"
  { body_lines 'test("rule %d", () => expect(rule%d("abc")).toBe(true));' 20; } > "$R/$LONGT"
  printf '# relay\n\nForwards hook payloads.\n' > "$R/README.md"
  commit robin 'Initial import of the relay service' 'Hooks, the config loader and the session token validator.'

  sed -i 's/stage_3(input: &str) -> String { input.replace("a3", "b") }/stage_3(input: \&str) -> String { input.trim().replace("a3", "b") }/' "$R/src/hooks/pipe.rs"
  commit sam 'Handle read error on a closed pipe' 'Reading from a pipe the peer had closed failed with

error: Broken pipe (os error 32)

and the hook aborted. A closed pipe now means end of input.' 'Refs: #12'

  sed -i 's/token.length > 7;/token.length >= 7;/' "$R/$LONG"
  sed -i 's/rule7("abc")).toBe(true)/rule7("abcdefg")).toBe(true)/' "$R/$LONGT"
  commit robin 'fix failing test in session token validator' 'The integration run reported:

FAILED tests/integration/authentication/middleware/session_token_validator.test.ts::rule 7
error: expected true, received false

Rule 7 compared with > where the spec says >=.' 'Second paragraph: the unit test passed because
it used a longer token. Both now use the boundary value.'

  printf 'export function summary(failed: number) { return `${failed} failed`; }\n' > "$R/src/lib/summary.ts"
  commit sam 'Report failure count in the summary'

  sed -i 's/env.OPT_5 ?? "default"/env.RELAY_OPT_5 ?? env.OPT_5 ?? "default"/' "$R/src/lib/config_loader.ts"
  commit robin 'error: config loader ignored RELAY_HOME' 'The loader read OPT_5 only.'

  run git mv src/hooks/pipe.rs src/hooks/post_tool.rs
  sed -i 's/stage_10(/stage_ten(/' "$R/src/hooks/post_tool.rs"
  commit sam 'Rename the pipe hook to post_tool' 'Claude Code calls it PostToolUse; the name follows.'

  mkdir -p "$R/src/b" && run git mv src/a/x.ts src/b/x.ts
  commit robin 'Move x.ts from a to b'

  { echo 'use std::io::Read;'; body_lines 'pub fn pipe_%d(input: &str) -> usize { input.len() + %d }' 11; } > "$R/src/hooks/pipe.rs"
  sed -i '1,4s/^pub fn stage_\([0-9]*\)/pub(crate) fn stage_\1/' "$R/src/hooks/post_tool.rs"
  commit sam 'Split pipe handling out of post_tool again'

  sed -i 's/token.length > 20;/token.length > 21;/' "$R/$LONG"
  printf 'test("rule 41", () => expect(true).toBe(true));\n' >> "$R/$LONGT"
  commit robin 'Tighten rule 20 of the session token validator'

  mkdir -p "$(dirname "$R/$DEEP")"
  { body_lines 'export const rotate%d = (age: number) => age > %d * 60;' 12; } > "$R/$DEEP"
  commit robin 'Token rotation policy for oauth2 refresh tokens'
  sed -i 's/age > 4 \* 60/age >= 4 * 60/' "$R/$DEEP"
  sed -i 's/token.length > 4;/token.length >= 4;/' "$R/$LONG"
  commit sam 'Rotation and validator agree on rule 4'

  printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89' > "$R/docs/logo.png"
  printf 'Release notes\n\n- 0.4.0: first release\n' > "$R/docs/release notes.md"
  commit sam 'docs: logo and release notes'

  run git checkout -q -b feature/failure-summary
  printf 'export function summaryLine(failed: number, passed: number) { return `${passed} passed, ${failed} failed`; }\n' >> "$R/src/lib/summary.ts"
  commit robin 'Summary line counts passes too'
  sed -i 's/`${failed} failed`/failed === 0 ? "no failures" : `${failed} failed`/' "$R/src/lib/summary.ts"
  commit robin 'Say "no failures" when nothing failed'
  run git checkout -q main
  printf '\nSee docs/release notes.md.\n' >> "$R/README.md"
  commit sam 'README: point at the release notes'
  N=$((N + 1))
  run env GIT_AUTHOR_DATE="2026-10-$(printf %02d $((N % 28 + 1)))T12:00:00Z" GIT_COMMITTER_DATE="2026-10-$(printf %02d $((N % 28 + 1)))T12:00:00Z" \
    git merge -q --no-ff -m "Merge branch 'feature/failure-summary'" feature/failure-summary

  sed -i 's/env.OPT_40 ?? "default"/env.OPT_40 ?? "forty"/; s/env.OPT_90 ?? "default"/env.OPT_90 ?? "ninety"/; s/env.OPT_140 ?? "default"/env.OPT_140 ?? "140"/' "$R/src/lib/config_loader.ts"
  sed -i '70a\// options 71-80 are reserved for the proxy' "$R/src/lib/config_loader.ts"
  commit robin 'Config loader: real defaults for options 40, 90 and 140' 'Tests: 3 failed, 0 errors before this change; all pass after.'

  sed -i 's/x5 = 5;/x5 = 55;/' "$R/src/b/x.ts"
  sed -i 's/stage_30(/stage_thirty(/' "$R/src/hooks/post_tool.rs"
  commit sam 'Revert "Move x.ts from a to b" (partially): keep the path, fix x5'

  local i
  for i in 1 2 3 4 5 6 7 8; do
    sed -i "s/token.length > $((i + 30));/token.length > $((i + 130));/" "$R/$LONG"
    commit $([[ $((i % 2)) == 0 ]] && echo robin || echo sam) "validator: rule $((i + 30)) accepts long tokens only" "Step $i of the token length migration."
  done
}

CUR=""
# capture ID-NAME FAMILY CMD: run CMD in the repo, record it as a corpus case
capture() {
  local id=$1 family=$2 cmd=$3
  CUR=""
  want "$id" || return 0
  local d=$CASES/$id
  rm -rf "$d"; mkdir -p "$d"
  printf '%s' "$cmd" > "$d/cmd.txt"
  printf 'git' > "$d/kind.txt"
  printf '%s' "$family" > "$d/family.txt"
  local rc=0
  (cd "$R" && env -i "${RUN_ENV[@]}" bash -c "$cmd") > "$d/output.txt" 2>&1 < /dev/null || rc=$?
  printf '%s' "$rc" > "$d/exit_code.txt"
  : > "$d/must_keep.txt"
  CUR=$d
  log "$id  rc=$rc  $(wc -c < "$d/output.txt") bytes"
}
about() { [[ -n "$CUR" ]] && printf '%s\n' "$@" > "$CUR/about.txt"; }
keep_re() {
  [[ -n "$CUR" ]] || return 0
  python3 - "$CUR/output.txt" "$@" >> "$CUR/must_keep.txt" <<'EOF'
import re, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
pats = [re.compile(p) for p in sys.argv[2:]]
seen = set()
for line in raw.split('\n'):
    for p in pats:
        m = p.search(line)
        if not m:
            continue
        s = (m.group('k') if 'k' in p.groupindex else line).strip()
        if s and s not in seen and s in raw:
            seen.add(s); print(s)
        break
EOF
}

# keep_git_log: the short hash and the subject (first message line) of every commit; body
#   lines may be hidden behind a marker, subjects may not
keep_git_log() { [[ -n "$CUR" ]] || return 0; awk '/^commit [0-9a-f]+/ { print substr($2, 1, 7); want = 1; next } want && /^    [^ ]/ { sub(/^    /, ""); print; want = 0 }' "$CUR/output.txt" >> "$CUR/must_keep.txt"; }
# a hunk header is renumbered when its context is shortened: git's function context stays
HUNK_CONTEXT='^@@ [^@]+ @@ (?P<k>\S.*)'

build_repo
HOW='Captured by corpus/capture-fresh-git.sh (git 2.39.5, not a TTY, fixed authors and dates) in a
scratch repository it builds: subjects with "error"/"failure"/"fix failing test", bodies with
`error: ...` and `FAILED ...` lines, renames src/hooks/{pipe.rs => post_tool.rs} and
src/{a => b}/x.ts, long paths git abbreviates with `...`, a path with a space, a binary file,
a --no-ff merge.'

capture 830-git-log-50 git-log 'git log -50'
keep_git_log
about "$HOW" '' 'git log -50 over every commit. Unlike 701 (one subject shape, plain bodies), subjects and
body lines here are classified as failures ("Handle read error ...", "error: config loader ...",
"Tests: 3 failed ..."), which made the one-line form print those subjects twice; a Merge: header.'

capture 831-git-log-stat git-log 'git log --stat'
keep_git_log
keep_re '^ (?P<k>\S.*?) +\| +[0-9B]' 'files? changed'
about "$HOW" '' 'git log --stat over every commit. Unlike 702 (flat src/modN/ paths), the stat prints brace
renames (src/hooks/{pipe.rs => post_tool.rs}, src/{a => b}/x.ts), `.../` abbreviated long paths,
two files of one directory changed together (src/hooks/pipe.rs and post_tool.rs), a path with a
space, a Bin line and a merge commit with no stat.'

capture 832-git-log-stat-20 git-log 'git log --stat -20'
keep_git_log
keep_re '^ (?P<k>\S.*?) +\| +[0-9B]' 'files? changed'
about "$HOW" '' 'git log --stat -20: the same history cut to 20 commits (the initial import and the first
fixes fall out), as an agent usually asks for it.'

# a commit by its subject, as the short hash an agent would copy from git log --oneline
rev() { run git log --all --format=%h -1 --fixed-strings --grep="$1"; }
capture 833-git-show-multi-hunk git-show "git show $(rev 'Config loader: real defaults')"
keep_re '^commit (?P<k>[0-9a-f]{7})' "$HUNK_CONTEXT" '^[-+][^-+]'
about "$HOW" '' 'git show of a commit whose diff has four hunks in one file (options 40, 70, 90 and 140 of
src/lib/config_loader.ts) and a body line "Tests: 3 failed, 0 errors ...". Unlike 704 (one small
hunk), it is long enough that context gets shortened, which must leave a valid patch.'

capture 837-git-show-stat-long-paths git-show "git show --stat $(rev 'Rotation and validator agree')"
keep_git_log
keep_re '^ (?P<k>\S.*?) +\| +[0-9B]' 'files? changed'
about "$HOW" '' 'git show --stat of a commit touching a 103-character path, printed whole here (git log --stat in
831 abbreviates the same path to .../ in a wider commit): a very long stat row that must survive
exactly as git printed it.'

capture 834-git-show-stat git-show "git show --stat $(rev 'Split pipe handling')"
keep_git_log
keep_re '^ (?P<k>\S.*?) +\| +[0-9B]' 'files? changed'
about "$HOW" '' 'git show --stat of the commit that split src/hooks/pipe.rs out of src/hooks/post_tool.rs:
two stat rows in one directory, the shape that was condensed to src/hooks/{pipe.rs (N), post_tool.rs (N)}.'

capture 835-git-show-merge git-show "git show $(rev "Merge branch 'feature/failure-summary'")"
keep_git_log
keep_re '^Merge: '
about "$HOW" '' 'git show of the --no-ff merge: a Merge: header and, for a clean merge, no combined diff.'

if want 836; then
  # a working tree with many hunks over several files (not committed)
  sed -i 's/"default"/"unset"/' "$R/src/lib/config_loader.ts"
  sed -i '1,150{/option\(1[0-9]\|3[0-9]\|45\|50\|7[0-9]\|11[0-9]\)(/!s/"unset"/"default"/}' "$R/src/lib/config_loader.ts"
  sed -i 's/input.len() + 3 }/input.len() + 30 }/; s/input.len() + 9 }/input.len() + 90 }/' "$R/src/hooks/pipe.rs"
  sed -i '5d; 20s/$/ \/\/ checked/; 38s/token.length > 38;/token.length > 39;/' "$R/$LONG"
  printf '\nSee also docs/release notes.md for the failure summary.\n' >> "$R/README.md"
fi
capture 836-git-diff-many-hunks git-diff 'git diff'
keep_re '^diff --git' "$HUNK_CONTEXT" '^[-+][^-+]'
about "$HOW" '' 'git diff of an uncommitted working tree: 4 files, many hunks in src/lib/config_loader.ts
(runs of 10 changed options, so hunks carry 3 context lines on each side and gaps inside),
a deleted line, a file with no newline issues. Unlike 708 (one added line per file), context
is long enough to be shortened; the shortened text must stay a patch git apply accepts.'

rm -rf "$T"
log done
