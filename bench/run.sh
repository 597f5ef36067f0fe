#!/usr/bin/env bash
# The process benchmark: what one hook call costs, end to end, measured
# with hyperfine against the floor of any Go hook (a program that reads its
# stdin and prints {}), and against the jq and Node hooks people write today.
#
#   bench/run.sh          full run (make bench), about a minute on 2 CPUs:
#                         checks the budget (docs/performance.md; the limits
#                         are in bench/tool/main.go, report), prints
#                         pass or FAIL for each of its five ratios and
#                         exits 1 when one is missed
#   bench/run.sh smoke    short run for CI (make bench-smoke): fails only on
#                         an order-of-magnitude regression, never on noise
#
# Commands are timed in rounds: each round runs every command a few times,
# in an order rotated from the round before, so that a slow spell of a busy
# machine falls on all of them alike. The report gives medians and ratios to
# the floor, which carry from one machine to another; absolute times do not.
#
# Environment: BENCH_OUT (default bench/out) receives the raw hyperfine
# exports and results.md; BENCH_ROUNDS and BENCH_RUNS override the rounds
# and the runs per round.
set -euo pipefail

mode=${1:-full}
case "$mode" in
full) rounds=${BENCH_ROUNDS:-10} runs=${BENCH_RUNS:-10} big_runs=3 ;;
smoke) rounds=${BENCH_ROUNDS:-3} runs=${BENCH_RUNS:-5} big_runs=2 ;;
*)
	echo "usage: bench/run.sh [full|smoke]" >&2
	exit 2
	;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$root/bench/out}
work=$(mktemp -d "${TMPDIR:-/tmp}/hookshim-bench.XXXXXX")
# The runtime directory (XDG_RUNTIME_DIR) is in memory, as a login
# session's /run/user/UID is and as hookshim's own fallback (/dev/shm) is:
# a call that runs a handler creates its claim there.
rundir=$work/run
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	rundir=$(mktemp -d /dev/shm/hookshim-bench.XXXXXX)
fi
trap 'rm -rf "$work" "$rundir"' EXIT
export PATH="$PATH:/usr/local/go/bin"

say() { printf 'bench: %s\n' "$*" >&2; }

# Tools come from Debian's packages, installed when missing.
apt_updated=
need() { # need COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 && return
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		say "error: $1 is missing; install the Debian package $2"
		exit 2
	fi
	say "installing $2"
	if [ -z "$apt_updated" ]; then
		apt-get update -qq >/dev/null
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}
need hyperfine hyperfine
need jq jq
if [ "$mode" = full ] && ! command -v node >/dev/null 2>&1; then
	say "error: node is missing (the Node peer needs it)"
	exit 2
fi

# Build everything the way releases are built. Every timed binary is then
# copied into place: a file the Go linker has just written (through mmap)
# sits in the page cache in 4 KiB pages, a copied or downloaded one in
# large folios, which the kernel maps many pages per fault. On the machine
# of the last run that alone moved a 5 MB binary's start by 0.8 ms, so
# binaries left in different states would not be compared fairly.
say "building"
bin=$work/bin
built=$work/built
mkdir -p "$bin" "$built"
flags=(-trimpath -ldflags '-s -w')
(
	cd "$root"
	export CGO_ENABLED=0
	make -s build >/dev/null
	cp bin/hookshim "$built/hookshim"
	go build "${flags[@]}" -o "$built/floor" ./bench/floor
	go build "${flags[@]}" -o "$built/handler" ./bench/handler
	go build "${flags[@]}" -o "$built/spawner" ./bench/spawner
	go build -o "$bin/benchtool" ./bench/tool
)
for b in hookshim floor handler spawner; do
	cp "$built/$b" "$bin/$b"
done
"$bin/benchtool" gen -dir "$work" -handler "$bin/handler" -peers "$root/bench/peers"

# A clean environment: no user config, no tool variables, our own state.
mkdir -p "$work/home" "$work/config" "$work/state" "$rundir"
clean_env=(env -i "PATH=$PATH" "HOME=$work/home" "XDG_CONFIG_HOME=$work/config"
	"XDG_STATE_HOME=$work/state" "XDG_RUNTIME_DIR=$rundir" "LANG=C.UTF-8")
for p in "$work"/p/*/; do
	"${clean_env[@]}" "$bin/hookshim" allow "$p.openhook.json" >/dev/null
done

# Each command runs as a tool runs a hook, through sh -c with the payload
# on stdin. hyperfine starts it without a shell of its own (-N): its usual
# correction for the shell's start-up is a mean subtracted from every run,
# which turns runs on a busy machine into zeros. The shell's own cost is
# measured instead, as the command "sh" (sh -c true, a builtin), and the
# report subtracts its median.
p=$work/p
names=() cmds=() big=()
add() { names+=("$1") cmds+=("$2"); }
run() { echo "sh -c 'exec $1'"; }
# hookshim runs as install registers it, with --provider (the payloads are
# Claude Code's); no-match-no-hint is the same call registered by hand.
hs="$bin/hookshim run --provider claude-code"
add sh "sh -c true"
add floor "$(run "$bin/floor < $p/one/pre.json")"
add no-match "$(run "$hs < $p/no-match/pre.json")"
add one-handler "$(run "$hs < $p/one/pre.json")"
add handler-alone "$(run "$bin/handler < $work/envelope.json")"
add spawner "$(run "$bin/spawner $bin/handler $work/envelope.json < $p/one/pre.json")"
# The same deny policy as a rule (docs/rules.md), and a typical set of
# eight rules (bench/benchdata), answered without a process.
add rule "$(run "$hs < $p/rule/pre.json")"
add rules "$(run "$hs < $p/rules/pre.json")"
if [ "$mode" = full ]; then
	add no-match-no-hint "$(run "$bin/hookshim run < $p/no-match/pre.json")"
	add eight-handlers "$(run "$hs < $p/eight/pre.json")"
	add one-slow-handler "$(run "$hs < $p/one-slow/pre.json")"
	add eight-slow-handlers "$(run "$hs < $p/eight-slow/pre.json")"
	add jq-handler "$(run "$hs < $p/jq-handler/pre.json")"
	add jq-hook "$(run "$root/bench/peers/jq-hook.sh < $p/one/pre.json")"
	add node-hook "$(run "node $root/bench/peers/node-hook.js < $p/one/pre.json")"
fi
small=${#names[@]}
add floor-10MiB "$(run "$bin/floor < $p/no-match/post-10MiB.json")"
add no-match-10MiB "$(run "$hs < $p/no-match/post-10MiB.json")"
if [ "$mode" = full ]; then
	add one-handler-10MiB "$(run "$hs < $p/post/post-10MiB.json")"
	add handler-alone-10MiB "$(run "$bin/handler -discard < $work/envelope-10MiB.json")"
fi

# Every command must do the job before it is timed: the deniers deny, the
# no-match calls answer nothing, the floor answers {}.
say "checking what each command answers"
for i in "${!names[@]}"; do
	got=$(eval "${clean_env[*]} ${cmds[$i]}")
	case "${names[$i]}" in
	sh) want='' ;;
	floor*) want='{}' ;;
	no-match* | *-10MiB) want='' ;; # PostToolUse: the handler has nothing to say
	*) want=deny ;; # spawner and handler-alone print the handler's own deny
	esac
	case "$want" in
	deny) [[ "$got" == *'"deny"'* ]] || {
		say "error: ${names[$i]} did not deny: $got"
		exit 2
	} ;;
	*) [ "$got" = "$want" ] || {
		say "error: ${names[$i]} answered '$got', want '$want'"
		exit 2
	} ;;
	esac
done

# Duplicate calls of one tool call share an answer (internal/dedupe): clear the
# claims before every run, so that each run is a new call. Only the claims:
# their directory stays, as it does between a user's calls (creating it
# again on every run cost 0.6 ms on ext4, which no real call pays).
claims=$rundir/hookshim/once
prepare="find $claims -mindepth 1 -delete"
mkdir -p "$claims"

rm -rf "$out/raw"
mkdir -p "$out/raw"
n=${#names[@]}
# timed GROUP FIRST LAST RUNS WARMUP: one hyperfine call over commands
# FIRST..LAST, in an order rotated by the round number.
timed() {
	local group=$1 first=$2 last=$3 nruns=$4 warm=$5 count=$(($3 - $2 + 1)) args=() k i
	for k in $(seq 0 $((count - 1))); do
		i=$((first + (k + r) % count))
		args+=(-n "${names[$i]}" "${cmds[$i]}")
	done
	local base
	base=$out/raw/round-$(printf %02d "$r")-$group
	"${clean_env[@]}" hyperfine -N --style basic --warmup "$warm" --runs "$nruns" \
		--prepare "$prepare" --export-json "$base.json" "${args[@]}" >"$base.log" 2>&1 || {
		cat "$base.log" >&2
		exit 2
	}
}
for r in $(seq 1 "$rounds"); do
	say "round $r/$rounds"
	timed small 0 $((small - 1)) "$runs" 2
	timed big "$small" $((n - 1)) "$big_runs" 1
done

cmdline="make bench"
[ "$mode" = smoke ] && cmdline="make bench-smoke"
status=0
"$bin/benchtool" report -raw "$out/raw" -mode "$mode" \
	-cmd "$cmdline  (bench/run.sh $mode: $rounds rounds x $runs runs, hyperfine $(hyperfine --version | cut -d' ' -f2), XDG_RUNTIME_DIR on $(stat -f -c %T "$rundir"))" \
	>"$out/results.md" || status=$?
cat "$out/results.md"
exit "$status"
