#!/bin/sh
# Finds the first Claude Code release that runs omni's mcp_tool hook handlers: for each version
# given, installs it into /tmp/cc-<version> (never into package.json), runs
# claude-mcp-hooks.test.ts against it (omni wired with mcp_tool handlers whatever the version)
# and prints "<version> yes|no <first failing assertion>". Bisect by hand over
#   npm view @anthropic-ai/claude-code versions
# Usage: test/real-host/find-mcp-tool-version.sh 2.1.200 2.1.260 ...
cd "$(dirname "$0")/../.." || exit 1
for v in "$@"; do
  dir=/tmp/cc-$v
  if [ ! -x "$dir/node_modules/.bin/claude" ]; then
    npm install --silent --no-audit --no-fund --prefix "$dir" "@anthropic-ai/claude-code@$v" >"$dir.install.log" 2>&1 || { echo "$v install-failed"; continue; }
  fi
  bin="$dir/node_modules/.bin/claude"
  out=$(OMNI_TEST_CLAUDE="$bin" timeout 300 npx tap --disable-coverage test/real-host/claude-mcp-hooks.test.ts 2>&1)
  got=$("$bin" --version 2>/dev/null | head -1)
  facts=$(echo "$out" | grep -m1 -o 'CLI .*: mcp_tool calls.*')
  if echo "$out" | grep -Eq "^ *ok [0-9]+ - a noisy successful Bash command reaches the model distilled"; then
    echo "$v yes [$facts] $(echo "$out" | grep -c '^ *not ok') failing assertions"
  else
    echo "$v no [$facts] $(echo "$out" | grep -m1 -A3 'not ok' | tr '\n' ' ' | cut -c1-160)"
  fi
  [ -n "$KEEP" ] || rm -rf "$dir"
done
