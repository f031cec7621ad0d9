#!/usr/bin/env bash
# cyclesoak-signals: SIGINT and SIGTERM stop cleanly (no soaker, no soak
# host, no cgroup left; the document still written), and no soaker
# outlives its parent even when the parent or the soak host is SIGKILLed.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
cs_lock
T=$ZCB_TEST_TMP
cs_fixture_calibration

start_monitor() { # start a monitor; HOST and SOAKERS get its soak set
	"$CS" -v -p 0.2 -o "$T/mon.json" >"$T/mon.out" 2>"$T/mon.err" &
	MON=$!
	zcb_track $MON
	HOST=$(cs_host_pid "$T/mon.err") || zcb_fail "no soak host named: $(cat "$T/mon.err")"
	SOAKERS=$(pgrep -P "$HOST" | tr '\n' ' ')
	[ "$(echo "$SOAKERS" | wc -w)" -eq "$NCPU" ] ||
		zcb_fail "want $NCPU soakers under host $HOST, have: $SOAKERS"
	for p in $SOAKERS; do
		grep -q zcb-soak "/proc/$p/comm" || zcb_fail "soaker $p is $(cat "/proc/$p/comm")"
		[ "$(awk '{print $19}' "/proc/$p/stat")" = 19 ] || zcb_fail "soaker $p not nice 19"
	done
}

# SIGINT: clean stop, document flushed, nothing left
start_monitor
sleep 0.5
kill -INT $MON
zcb_wait_gone $MON 10 || zcb_fail "monitor ignored SIGINT"
# shellcheck disable=SC2086
cs_no_leftovers "$HOST" $SOAKERS
jq -e '.status == "ok" and (.cases[0].samples | length) >= 1' "$T/mon.json" >/dev/null ||
	zcb_fail "no document after SIGINT: $(cat "$T/mon.json" 2>&1)"
grep -q "interrupted" "$T/mon.err" || zcb_fail "no summary line after SIGINT"
zcb_ok "SIGINT: soakers, host and cgroup gone, document written"

# SIGTERM to cyclesoak -- CMD: passed on to CMD, document says failed
"$CS" -v -o "$T/run.json" -- sleep 30 >"$T/run.out" 2>"$T/run.err" &
RUN=$!
zcb_track $RUN
HOST=$(cs_find_host) || zcb_fail "no soak host for cyclesoak -- sleep"
# CMD runs once the meters are open (a signal before that ends the run
# without starting CMD): wait for it, however slowly the soakers start
for _ in $(seq 1 200); do
	pgrep -x sleep -P $RUN >/dev/null && break
	sleep 0.05
done
pgrep -x sleep -P $RUN >/dev/null || zcb_fail "cyclesoak did not start sleep within 10 s"
SOAKERS=$(pgrep -P "$HOST" | tr '\n' ' ')
kill -TERM $RUN
zcb_wait_gone $RUN 10 || zcb_fail "cyclesoak -- sleep ignored SIGTERM"
# shellcheck disable=SC2086
cs_no_leftovers "$HOST" $SOAKERS
jq -e '.status == "failed" and (.error | test("signal 15")) and
	(.cases[0].samples[0].cpu.box[0].meter == "soak")' "$T/run.json" >/dev/null ||
	zcb_fail "document after SIGTERM: $(cat "$T/run.json" 2>&1)"
zcb_ok "SIGTERM: CMD stopped, document written, nothing left"

# SIGKILL of the only client: the host sees the hang-up and cleans up
start_monitor
kill -KILL $MON
# shellcheck disable=SC2086
cs_no_leftovers "$HOST" $SOAKERS
zcb_ok "client SIGKILLed: soak host and soakers gone"

# SIGKILL of the soak host: the soakers die with it (PR_SET_PDEATHSIG);
# the client notices; the next host removes the stale cgroup
start_monitor
kill -KILL "$HOST"
for p in $SOAKERS; do
	# an idle-class task dies when it next runs: on a box kept busy by
	# normal work that can take long, so a SIGKILL pending is enough
	zcb_wait_gone "$p" 5 || cs_dying "$p" || zcb_fail "soaker $p outlived its soak host"
done
zcb_wait_gone $MON 10 || zcb_fail "monitor did not notice the soak host died"
grep -q "went away" "$T/mon.err" || zcb_fail "monitor did not say why: $(cat "$T/mon.err")"
OLD=$HOST held=""
start_monitor
kill -INT $MON
# shellcheck disable=SC2086
cs_no_leftovers "$HOST" $SOAKERS
# the next host removes it once it is empty: a soaker of the killed host
# that is dying (SIGKILL pending) but has not run yet still holds it on a
# box whose CPUs normal work keeps busy
stale_held() { # DIR: every task still in it is dying
	local p n=0
	while read -r p; do
		cs_dying "$p" || return 1
		n=$((n + 1))
	done <"$1/cgroup.procs"
	[ $n -gt 0 ]
}
for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/unified; do
	[ -e "$d/zcbench-soak-$OLD" ] || continue
	stale_held "$d/zcbench-soak-$OLD" ||
		zcb_fail "stale cgroup $d/zcbench-soak-$OLD not removed: $(tr '\n' ' ' <"$d/zcbench-soak-$OLD/cgroup.procs" 2>&1)"
	held="$d/zcbench-soak-$OLD still holds dying soakers: $(tr '\n' ' ' <"$d/zcbench-soak-$OLD/cgroup.procs")"
done
zcb_ok "soak host SIGKILLed: soakers gone; stale cgroup ${held:-removed by the next host}"
