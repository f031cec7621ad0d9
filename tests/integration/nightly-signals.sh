#!/usr/bin/env bash
# nightly-signals.sh: scripts/nightly stops within seconds on Ctrl-C (SIGINT
# to its process group: the running part sits in timeout(1)'s group and
# sees none of it), SIGTERM and SIGHUP. The running part and its children
# are stopped, the partial run is kept as DATE.interrupted, and it never
# becomes latest or a baseline. Under nohup, SIGHUP is ignored and the run
# completes.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd flock
zcb_need_cmd jq
zcb_need_cmd setsid
d=$ZCB_TEST_TMP
mkdir -p "$d/parts"
cat >"$d/parts/10-slow.sh" <<'EOS'
# 10-slow: a stand-in part that takes a while and has a child
mkdir -p "$ZCB_OUT/slow"
echo '{"partial": true}' >"$ZCB_OUT/slow/partial.json"
sleep "$FAKE_SLEEP" &
echo "$$ $!" >"$FAKE_PIDS.tmp" && mv "$FAKE_PIDS.tmp" "$FAKE_PIDS"
wait
EOS
export FAKE_PIDS="$d/pids"
# job control: each background job gets its own process group, as a
# command typed at a terminal does, and SIGINT is not ignored in it
set -m

# start_nightly LABEL [nohup]: nightly in the background; sets npid
start_nightly() {
	rm -f "$FAKE_PIDS"
	if [ "${2:-}" = nohup ]; then
		nohup "$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
			--results "$d/res" --repeat 1 --label "$1" >"$d/out-$1" 2>&1 &
	else
		"$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
			--results "$d/res" --repeat 1 --label "$1" >"$d/out-$1" 2>&1 &
	fi
	npid=$!
	zcb_track "$npid"
	for _ in $(seq 1 100); do
		[ -s "$FAKE_PIDS" ] && break
		kill -0 "$npid" 2>/dev/null || zcb_fail "nightly ended early: $(cat "$d/out-$1")"
		sleep 0.1
	done
	[ -s "$FAKE_PIDS" ] || zcb_fail "the part did not start: $(cat "$d/out-$1")"
	read -r part child <"$FAKE_PIDS"
	zcb_track "$part"
	zcb_track "$child"
}

# wait_exit PID SECONDS: until it exits; its status in rc
wait_exit() {
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -lt "$deadline" ] || zcb_fail "still running $2 s after the signal"
		sleep 0.1
	done
	wait "$1"
	rc=$?
}

# interrupted LABEL RC: the run is kept apart, nothing is left running
interrupted() {
	[ "$rc" = "$2" ] || zcb_fail "$1: exit $rc, want $2: $(cat "$d/out-$1")"
	for p in "$part" "$child"; do
		zcb_wait_gone "$p" 5 || zcb_fail "$1: PID $p of the part still runs"
	done
	[ -e "$d/res/$1/latest" ] && zcb_fail "$1: latest points at an interrupted run"
	local kept=("$d/res/$1/"*.interrupted)
	[ -d "${kept[0]}" ] || zcb_fail "$1: no DATE.interrupted kept"
	[ -f "${kept[0]}/r1/slow/partial.json" ] || zcb_fail "$1: the partial results were not kept"
	if find "$d/res/$1" -mindepth 1 -maxdepth 1 -regextype posix-extended \
		-regex '.*/[0-9]{8}T[0-9]{6}Z' | grep -q .; then
		zcb_fail "$1: an interrupted run looks complete (a baseline candidate)"
	fi
	! ls -d "$d/res/$1/".*.tmp.* >/dev/null 2>&1 || zcb_fail "$1: a temporary directory was left"
	grep -q "interrupted" "$d/out-$1" || zcb_fail "$1: does not say it was interrupted"
}

export FAKE_SLEEP=60
start_nightly int
kill -INT -- "-$npid" # Ctrl-C: the terminal signals the foreground group
wait_exit "$npid" 15
interrupted int 130
zcb_ok "Ctrl-C: part stopped, run kept as .interrupted, latest not moved (exit 130)"

start_nightly term
kill -TERM "$npid"
wait_exit "$npid" 15
interrupted term 143
zcb_ok "SIGTERM: the same (exit 143)"

start_nightly hup
kill -HUP "$npid"
wait_exit "$npid" 15
interrupted hup 129
zcb_ok "SIGHUP: the same (exit 129)"

# SIGTERM while the night idles between rounds (--spread-over): the
# pause's sleep stopped, the first round kept as .interrupted
export FAKE_SLEEP=0
rm -f "$FAKE_PIDS"
"$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" --results "$d/res" \
	--repeat 2 --spread-over 600s --label pause >"$d/out-pause" 2>&1 &
npid=$!
zcb_track "$npid"
end=$((SECONDS + 60))
until grep -q '^nightly: round 2 of 2 in [0-9]* s (--spread-over 600s)$' "$d/out-pause"; do
	{ [ $SECONDS -lt $end ] && kill -0 "$npid" 2>/dev/null; } || zcb_fail "no pause before round 2: $(cat "$d/out-pause")"
	sleep 0.1
done
sl=""
until [ -n "$sl" ]; do
	for t in $(pgrep -P "$npid" -x timeout); do sl=$(pgrep -P "$t" -x sleep); done
	[ $SECONDS -lt $end ] || zcb_fail "the pause runs no sleep: $(cat "$d/out-pause")"
	sleep 0.1
done
zcb_track "$sl"
read -r part child <"$FAKE_PIDS"
kill -TERM "$npid"
wait_exit "$npid" 15
interrupted pause 143
zcb_wait_gone "$sl" 5 || zcb_fail "pause: the pause's sleep $sl still runs"
grep -q 'SIGTERM during spreading' "$d/out-pause" || zcb_fail "pause: not said where: $(cat "$d/out-pause")"
zcb_ok "SIGTERM during --spread-over's pause: stopped at once, round 1 kept as .interrupted (exit 143)"

# under nohup: SIGHUP changes nothing, the run completes and is latest
export FAKE_SLEEP=2
start_nightly nohup nohup
kill -HUP "$npid"
sleep 0.5
kill -0 "$npid" 2>/dev/null || zcb_fail "nohup: nightly died of SIGHUP: $(cat "$d/out-nohup")"
wait_exit "$npid" 30
[ "$rc" = 0 ] || zcb_fail "nohup: exit $rc: $(cat "$d/out-nohup")"
[ -L "$d/res/nohup/latest" ] || zcb_fail "nohup: the completed run is not latest"
[ -f "$d/res/nohup/$(readlink "$d/res/nohup/latest")/summary.txt" ] || zcb_fail "nohup: no summary"
zcb_ok "under nohup SIGHUP is ignored and the run completes"
