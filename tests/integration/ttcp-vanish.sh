#!/usr/bin/env bash
# ttcp-vanish.sh: a receiver whose transmitter vanishes ends within its
# stated timeouts (--wait for the first connection, --timeout for
# progress, --report-timeout for the exchange) plus SLACK, with one line
# naming the phase, and leaves nothing running; a transmitter stopped by
# a signal before it connects never connects. Each phase is reached on a
# condition (a line in a log, a file the transmitter opened), never
# after a sleep.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
SLACK=5 # seconds a loaded box may add to a stated timeout
mkdir -p "$T/tmp"

# gone_within PID SECS WHAT: PID ends within SECS + SLACK seconds
gone_within() {
	zcb_wait_gone "$1" $(($2 + SLACK)) || zcb_fail "$3: still running $(($2 + SLACK)) s later"
}
# has FILE PATTERN WHAT: FILE holds a line matching PATTERN
has() {
	grep -q -- "$2" "$1" || { cat "$1" >&2; zcb_fail "$3: no \"$2\""; }
}
# source_fd PID: the descriptor of PID's temp source (under $T/tmp) once
# it is open, i.e. once PID makes its source
source_fd() {
	local f
	for _ in $(seq 1 600); do
		for f in /proc/"$1"/fd/*; do
			case $(readlink "$f" 2>/dev/null) in "$T/tmp/"*)
				echo "$f"
				return 0
				;;
			esac
		done
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	return 1
}
# held_in_source OUT ARGS...: a transmitter (ttcp-sf -t ARGS, its text in
# OUT) stopped (SIGSTOP) while it makes a 64 GiB source; its PID in TP
held_in_source() {
	local out=$1 fd size
	shift
	TMPDIR="$T/tmp" "$TTCP" -t -p "$TT_PORT" --source-size 64G "$@" 127.0.0.1 >"$out" 2>&1 &
	TP=$!
	zcb_track "$TP"
	fd=$(source_fd "$TP") || { cat "$out" >&2; zcb_fail "the transmitter never made its source"; }
	kill -STOP "$TP"
	zcb_on_exit "kill -CONT $TP"
	size=$(stat -L -c %s "$fd")
	[ "$size" -lt $((64 << 30)) ] || zcb_fail "the source was whole before the transmitter was stopped"
}
# interrupted_in_source OUT: the held transmitter gets SIGINT and goes
# on: it ends at once (130), naming the phase, without a connection
interrupted_in_source() {
	local rc=0
	kill -INT "$TP"
	kill -CONT "$TP"
	zcb_wait_gone "$TP" 10 || zcb_fail "interrupted while making its source: still running 10 s later"
	wait "$TP" || rc=$?
	[ $rc = 130 ] || { cat "$1" >&2; zcb_fail "interrupted while making its source: exit $rc, want 130"; }
	has "$1" "^ttcp-t: interrupted by a signal (phase: making the source): making the temp source in .*: stopped by a signal after [0-9]* of 68719476736 bytes$" \
		"interrupted while making its source"
}

# 1. before the connect: nothing comes; --wait ends the receiver
tt_recv "$T/a-r" --wait 2s
gone_within "$TT_RPID" 2 "no transmitter at all"
tt_wait_recv
[ "$TT_RRC" = 1 ] || zcb_fail "no transmitter: receiver exit $TT_RRC"
has "$T/a-r.txt" "no transmitter connected within 2000 ms (phase: accept)" "no transmitter"
zcb_ok "before the connect: the receiver ends at its --wait, naming the phase"

# 2. while the transmitter makes its source: it has not connected, so
# --wait ends the receiver; a signal then stops the making and the run,
# and the transmitter never connects (the receiver is gone: a connect
# would be refused, exit 1)
tt_recv "$T/b-r" --wait 3s
held_in_source "$T/b-t.txt" -o "$T/b-t.json"
gone_within "$TT_RPID" 3 "transmitter held in making its source"
tt_wait_recv
[ "$TT_RRC" = 1 ] || zcb_fail "transmitter in its source: receiver exit $TT_RRC"
has "$T/b-r.txt" "no transmitter connected within 3000 ms (phase: accept)" "transmitter in its source"
interrupted_in_source "$T/b-t.txt"
[ "$(zcb_json "$T/b-t.json" .status)" = failed ] || zcb_fail "interrupted in its source: document not failed"
zcb_json "$T/b-t.json" .error | grep -q "stopped by signal 2 (phase: making the source)" ||
	zcb_fail "interrupted in its source: document error $(zcb_json "$T/b-t.json" .error)"
# the same with the receiver waiting: no connection reaches it
tt_recv "$T/c-r" --wait 60s
held_in_source "$T/c-t.txt"
interrupted_in_source "$T/c-t.txt"
kill -TERM "$TT_RPID"
tt_wait_recv
if grep -q "accept from\|closed without sending a byte" "$T/c-r.txt"; then
	cat "$T/c-r.txt" >&2
	zcb_fail "a transmitter interrupted in making its source connected"
fi
zcb_ok "while the transmitter makes its source: the receiver ends at its --wait; SIGINT stops the making, no connection"
