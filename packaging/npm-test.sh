#!/bin/sh
# Installs dist/npm/'s tarballs offline into an empty prefix, as a user
# would from the registry, and runs hookshim through npx: its version, and
# a deny of `rm -rf /` sent as Claude Code sends it, by the built-in
# destructive-shell policy; the answer on stdout and the exit code must be
# hookshim's own.
set -eu
npmdir=$(cd dist/npm && pwd)
node_os=$(node -p process.platform) node_cpu=$(node -p process.arch)
main=$(ls "$npmdir"/hookshim-0*.tgz "$npmdir"/hookshim-[1-9]*.tgz 2>/dev/null | head -1)
plat=$(ls "$npmdir"/hookshim-"$node_os"-"$node_cpu"-*.tgz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix work=$tmp/work
mkdir -p "$prefix" "$work"
export npm_config_cache="$tmp/cache" HOOKSHIM_LOG=off HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_STATE_HOME="$tmp/home/.state"
mkdir -p "$HOME"
npm install --offline --no-audit --no-fund --prefix "$prefix" "$plat" "$main" >"$tmp/npm.log" 2>&1 || { cat "$tmp/npm.log" >&2; exit 1; }
cd "$work"
npx --offline --prefix "$prefix" hookshim version | grep -q '^hookshim ' || { echo "npm-test: npx hookshim version failed" >&2; exit 1; }
"$prefix/node_modules/.bin/hookshim-remote" version | grep -q '^hookshim-remote ' || { echo "npm-test: hookshim-remote version failed" >&2; exit 1; }
cat >.openhook.json <<'JSON'
{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "matcher": "shell", "use": "hookshim/destructive-shell"}]}
JSON
payload='{"session_id":"s","transcript_path":"/tmp/t","cwd":".","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_01"}'
set +e
answer=$(echo "$payload" | HOOKSHIM_TRUST_ALL=1 npx --offline --prefix "$prefix" hookshim run --provider claude-code)
code=$?
set -e
want=$(echo "$payload" | HOOKSHIM_TRUST_ALL=1 "$prefix/node_modules/hookshim-$node_os-$node_cpu/bin/hookshim" run --provider claude-code; echo "exit $?")
got=$(printf '%s\nexit %s' "$answer" "$code")
[ "$got" = "$want" ] || { echo "npm-test: through npx: $got; the binary itself: $want" >&2; exit 1; }
echo "$answer" | grep -q '"deny"' || { echo "npm-test: no deny: $got" >&2; exit 1; }
# A failure's exit code and message pass through as well (a mistyped
# command exits 1, never 2, which several tools read as "block").
set +e
err=$(npx --offline --prefix "$prefix" hookshim nosuch 2>&1 >/dev/null)
code=$?
set -e
[ "$code" = 1 ] || { echo "npm-test: hookshim nosuch through npx exited $code, want 1" >&2; exit 1; }
case $err in
*'hookshim: error: unknown command "nosuch"'*) ;;
*) echo "npm-test: hookshim nosuch through npx said: $err" >&2; exit 1 ;;
esac
echo "npm-test: installed offline; npx hookshim version and a deny through destructive-shell ($got)"
