#!/usr/bin/env bash
# main-job-signals.sh: scripts/main-job on Ctrl-C (SIGINT to its process
# group; each part runs in a session of its own), SIGTERM and SIGHUP:
# the running part and its children stop within seconds, no later part
# starts, the run is kept apart and results/latest is not moved to it.
# A run that ends moves results/latest; under nohup SIGHUP is ignored.
# main-job runs from a copy in a scratch tree whose scripts/main.d holds
# stand-in parts, so the real results/ is never touched.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd setsid
d=$ZCB_TEST_TMP
top="$d/top"
mkdir -p "$top/scripts/main.d"
cp "$ZCB_SRCDIR/scripts/main-job" "$ZCB_SRCDIR/scripts/zcb-paths.sh" "$top/scripts/"
MJ="$top/scripts/main-job"
cat >"$top/scripts/main.d/10-slow.sh" <<'EOS'
# 10-slow: a stand-in part that takes a while and has a child
mkdir -p "$ZCB_OUT/slow"
echo partial >"$ZCB_OUT/slow/partial.txt"
sleep "$FAKE_SLEEP" &
echo "$$ $!" >"$FAKE_PIDS.tmp" && mv "$FAKE_PIDS.tmp" "$FAKE_PIDS"
wait
EOS
cat >"$top/scripts/main.d/20-after.sh" <<'EOS'
echo ran >"$ZCB_OUT/after.txt"
EOS
export FAKE_PIDS="$d/pids"
set -m # each background job in a group of its own, SIGINT not ignored

start_job() { # start_job NAME [nohup] [--out DIR]: sets jpid part child
	local n=$1 pre=()
	shift
	[ "${1:-}" = nohup ] && { pre=(nohup); shift; }
	rm -f "$FAKE_PIDS"
	"${pre[@]}" "$MJ" --build "$ZCB_BUILDDIR" "$@" >"$d/out-$n" 2>&1 &
	jpid=$!
	zcb_track "$jpid"
	for _ in $(seq 1 100); do
		[ -s "$FAKE_PIDS" ] && break
		kill -0 "$jpid" 2>/dev/null || zcb_fail "$n: main-job ended early: $(cat "$d/out-$n")"
		sleep 0.1
	done
	[ -s "$FAKE_PIDS" ] || zcb_fail "$n: the part did not start: $(cat "$d/out-$n")"
	read -r part child <"$FAKE_PIDS"
	zcb_track "$part"
	zcb_track "$child"
}

wait_exit() { # wait_exit PID SECONDS: its status in rc
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -lt "$deadline" ] || zcb_fail "still running $2 s after the signal"
		sleep 0.1
	done
	wait "$1"
	rc=$?
}

stopped() { # stopped NAME RC OUTDIR: nothing left, the run kept apart
	[ "$rc" = "$2" ] || zcb_fail "$1: exit $rc, want $2: $(cat "$d/out-$1")"
	for p in "$part" "$child"; do
		zcb_wait_gone "$p" 5 || zcb_fail "$1: PID $p of the part still runs"
	done
	[ -f "$3/slow/partial.txt" ] || zcb_fail "$1: what the part wrote was not kept in $3"
	[ -e "$3/after.txt" ] && zcb_fail "$1: the next part ran after the signal"
	[ -e "$top/results/latest" ] && zcb_fail "$1: results/latest moved to an interrupted run"
	grep -q "interrupted" "$d/out-$1" || zcb_fail "$1: does not say it was interrupted"
}

export FAKE_SLEEP=60
start_job int --out "$d/run-int"
kill -INT -- "-$jpid"
wait_exit "$jpid" 15
stopped int 130 "$d/run-int"
[ -f "$d/run-int/INTERRUPTED" ] || zcb_fail "int: no INTERRUPTED mark in --out"
zcb_ok "Ctrl-C: part and its child stopped, next part not run, marked INTERRUPTED (exit 130)"

start_job term --out "$d/run-term"
kill -TERM "$jpid"
wait_exit "$jpid" 15
stopped term 143 "$d/run-term"
zcb_ok "SIGTERM: the same (exit 143)"

# the default place: kept as DATE.interrupted, results/latest untouched
start_job hup
kill -HUP "$jpid"
wait_exit "$jpid" 15
kept=("$top/results/runs/"*/*.interrupted)
[ -d "${kept[0]}" ] || zcb_fail "hup: no DATE.interrupted under results/runs"
stopped hup 129 "${kept[0]}"
zcb_ok "SIGHUP: the same (exit 129); kept as $(basename "${kept[0]}")"

# a run that ends (SIGHUP under nohup changes nothing) becomes latest
export FAKE_SLEEP=2
start_job nohup nohup
kill -HUP "$jpid"
sleep 0.5
kill -0 "$jpid" 2>/dev/null || zcb_fail "nohup: main-job died of SIGHUP: $(cat "$d/out-nohup")"
wait_exit "$jpid" 30
[ "$rc" = 0 ] || zcb_fail "nohup: exit $rc: $(cat "$d/out-nohup")"
[ -f "$top/results/latest/after.txt" ] || zcb_fail "nohup: results/latest is not the completed run"
zcb_ok "under nohup SIGHUP is ignored; the completed run becomes results/latest"
