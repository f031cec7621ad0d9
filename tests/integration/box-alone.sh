#!/usr/bin/env bash
# box-alone: lib.sh's box registry. A test that calls zcb_alone runs only
# when no other test of the suite does: it waits for the tests already
# running to end, and tests that start while it holds the box wait for it
# at registration. A registration or mark left by a killed test does not
# block; a box kept too long gives a skip naming what kept it; nothing is
# left in the registry. Each "test" here is a child bash sourcing lib.sh
# with a registry of its own (TMPDIR under this test's directory).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
T=$ZCB_TEST_TMP
mkdir -p "$T/tmp"
BOX="$T/tmp/zcbench-tests.box"
LOG="$T/order"
: >"$LOG"

declare -A PID
# child NAME SCRIPT: a test of its own (not part of this one) in the
# private registry, its output in $T/NAME.out
child() {
	# shellcheck disable=SC2016 # the child expands it
	printf 'source "$ZCB_SRCDIR/tests/integration/lib.sh"\n%s\n' "$2" >"$T/$1.sh"
	env -u ZCB_BOX_IN TMPDIR="$T/tmp" T="$T" LOG="$LOG" bash "$T/$1.sh" >"$T/$1.out" 2>&1 &
	zcb_track $!
	PID[$1]=$!
}
wait_for() { # wait_for WHAT CMD...: until CMD succeeds (10 s)
	local what=$1 deadline=$((SECONDS + 10))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || zcb_fail "no $what after 10 s: $(tail -n 3 "$T"/*.out)"
		sleep 0.05
	done
}
in_log() { grep -qx "$1" "$LOG"; }

# shellcheck disable=SC2016 # the children expand these
{
	child n 'touch "$T/n.up"; while [ ! -e "$T/n.go" ]; do sleep 0.05; done; echo n-end >>"$LOG"'
	wait_for "neighbour registered" test -e "$T/n.up"
	child a 'zcb_alone 30; echo a-alone >>"$LOG"; while [ ! -e "$T/a.go" ]; do sleep 0.05; done; echo a-end >>"$LOG"'
	wait_for "mark of the alone test" grep -qsx "${PID[a]}" "$BOX/alone.d/pid"
	child l 'echo l-start >>"$LOG"'
}
# a late test that did not wait would have started by now (a correct one
# waits: these 2 s cost time, never the verdict)
for _ in $(seq 1 40); do
	in_log l-start && break
	sleep 0.05
done
in_log a-alone && zcb_fail "zcb_alone went on while a neighbour ran: $(cat "$LOG")"
in_log l-start && zcb_fail "a test started while the box was taken: $(cat "$LOG")"
touch "$T/n.go"
wait_for "alone after the neighbour ended" in_log a-alone
in_log l-start && zcb_fail "a test started while the box was taken: $(cat "$LOG")"
touch "$T/a.go"
wait_for "the late test after the box was given back" in_log l-start
order=$(tr '\n' ' ' <"$LOG")
[ "$order" = "n-end a-alone a-end l-start " ] || zcb_fail "order: $order"
grep -q "the box to itself" "$T/a.out" || zcb_fail "zcb_alone did not say so: $(cat "$T/a.out")"
wait_for "children ended" bash -c "! kill -0 ${PID[a]} 2>/dev/null && ! kill -0 ${PID[l]} 2>/dev/null"
zcb_ok "alone: waited for the neighbour, the late test waited for it ($order)"

# a killed test's registration and mark do not block
true &
dead=$!
wait "$dead"
: >"$BOX/run.$dead"
mkdir "$BOX/alone.d" && echo "$dead" >"$BOX/alone.d/pid"
# shellcheck disable=SC2016
child s 'zcb_alone 10; echo s-alone >>"$LOG"'
wait_for "alone past a dead test's registration and mark" in_log s-alone
zcb_ok "a dead test's registration and mark are cleared"

# kept too long: a skip that says by whom
# shellcheck disable=SC2016
child k 'while [ ! -e "$T/k.go" ]; do sleep 0.05; done'
wait_for "neighbour registered" bash -c "ls \"$BOX\"/run.* >/dev/null 2>&1"
# shellcheck disable=SC2016
child t 'zcb_alone 1; echo t-alone >>"$LOG"'
rc=0
wait "${PID[t]}" || rc=$?
{ [ $rc = 77 ] && grep -q "tests .* still ran beside it after 1 s" "$T/t.out"; } ||
	zcb_fail "a box kept past the limit: exit $rc: $(cat "$T/t.out")"
in_log t-alone && zcb_fail "zcb_alone went on past its limit"
touch "$T/k.go"
zcb_ok "kept too long: $(grep -o 'SKIP.*' "$T/t.out")"

# nothing left in the registry
wait_for "neighbour ended" bash -c "! kill -0 ${PID[k]} 2>/dev/null"
left=$(find "$BOX" -mindepth 1)
[ -z "$left" ] || zcb_fail "left in the registry: $left"
zcb_ok "nothing left in the registry"
