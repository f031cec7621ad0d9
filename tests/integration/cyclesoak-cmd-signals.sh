#!/usr/bin/env bash
# cyclesoak-cmd-signals: `cyclesoak -- CMD` never leaves CMD behind.
# INT, TERM and HUP reach CMD and what CMD started (a shell's children); a CMD
# that ignores them is killed a few seconds later; SIGKILL of cyclesoak
# still ends CMD (PR_SET_PDEATHSIG); under nohup (HUP ignored at start)
# cyclesoak and CMD keep running on SIGHUP. No soaker: procstat only.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP

# start_cmd NAME CMD...: cyclesoak -- CMD in the background; sets RUN and
# KIDS (CMD and, after a moment, its children)
start_cmd() {
	local name=$1 i
	shift
	"$CS" --cpu=procstat -o "$T/$name.json" -- "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	RUN=$!
	zcb_track "$RUN"
	for i in $(seq 1 100); do
		CMDPID=$(pgrep -P "$RUN" | head -1)
		[ -n "$CMDPID" ] && [ -n "$(pgrep -P "$CMDPID")" ] && break
		sleep 0.05
	done
	[ -n "$CMDPID" ] || zcb_fail "$name: no command under cyclesoak $RUN"
	KIDS="$CMDPID $(pgrep -P "$CMDPID" | tr '\n' ' ')"
	for i in $KIDS; do zcb_track "$i"; done
}

# all_gone SECONDS WHAT PID...
all_gone() {
	local s=$1 what=$2 p
	shift 2
	for p in "$@"; do
		zcb_wait_gone "$p" "$s" || zcb_fail "$what: process $p ($(cat "/proc/$p/comm" 2>/dev/null)) still runs"
	done
}

# stop_case NAME SIGNAL STATUS: SIGNAL to cyclesoak -- sh -c '...': the
# shell and its sleep both go, the exit status is STATUS and the document
# says failed, naming the signal
stop_case() {
	local rc=0
	start_cmd "$1" sh -c 'sleep 60; echo done'
	kill -"$2" "$RUN"
	zcb_wait_gone "$RUN" 10 || zcb_fail "cyclesoak ignored SIG$2"
	wait "$RUN" || rc=$?
	[ "$rc" = "$3" ] || zcb_fail "exit $rc after SIG$2, want $3"
	# shellcheck disable=SC2086
	all_gone 5 "SIG$2" $KIDS
	jq -e --arg s "signal $(($3 - 128));" '.status == "failed" and (.error | contains($s))' \
		"$T/$1.json" >/dev/null || zcb_fail "document after SIG$2: $(cat "$T/$1.json")"
	zcb_ok "SIG$2: CMD and its child ($KIDS) stopped, exit $3, document failed"
}
stop_case term TERM 143
stop_case int INT 130
stop_case hup HUP 129 # without nohup: as TERM

# a command that ignores TERM: killed after the grace period
start_cmd stubborn sh -c 'trap "" TERM; sleep 60; echo done'
kill -TERM "$RUN"
zcb_wait_gone "$RUN" 15 || zcb_fail "cyclesoak waits for a command that ignores SIGTERM"
# shellcheck disable=SC2086
all_gone 5 "CMD ignoring SIGTERM" $KIDS
grep -q "killing it" "$T/stubborn.err" || zcb_fail "no word of the SIGKILL: $(cat "$T/stubborn.err")"
zcb_ok "a command that ignores SIGTERM is killed"

# SIGKILL of cyclesoak: CMD gets SIGTERM from the kernel
start_cmd killed sh -c 'sleep 60; echo done'
kill -KILL "$RUN"
zcb_wait_gone "$CMDPID" 5 || zcb_fail "CMD $CMDPID outlived a SIGKILLed cyclesoak"
zcb_ok "cyclesoak SIGKILLed: CMD $CMDPID went with it"

# nohup: HUP ignored at start stays ignored; the run ends on its own
(
	trap '' HUP
	exec "$CS" --cpu=procstat -o "$T/nohup.json" -- sleep 2
) >"$T/nohup.out" 2>"$T/nohup.err" &
RUN=$!
zcb_track "$RUN"
sleep 0.5
kill -HUP "$RUN"
sleep 0.5
kill -0 "$RUN" 2>/dev/null || zcb_fail "nohup: cyclesoak stopped on SIGHUP: $(cat "$T/nohup.err")"
zcb_wait_gone "$RUN" 10 || zcb_fail "nohup: cyclesoak did not finish"
wait "$RUN" || zcb_fail "nohup: exit $?: $(cat "$T/nohup.err")"
jq -e '.status == "ok" and .cases[0].samples[0].exit_status == 0' "$T/nohup.json" >/dev/null ||
	zcb_fail "nohup: document: $(cat "$T/nohup.json")"
zcb_ok "nohup: SIGHUP ignored, the command ran to its end"
