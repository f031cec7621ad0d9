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

# hello BYTES SAMPLE MORE: a transmitter's hello frame (ctl.c)
hello() {
	tt_frame "$(printf '{"type":"ttcp-sf-hello/1","method":"write","source":"file","proto":"tcp","hostname":"fake","boot_id":"fake","buflen":8192,"bytes":%d,"dgrams":0,"sample":%d,"more":%s}' "$1" "$2" "$3")"
}
# report_for BYTES SAMPLE MORE: the hello sent on a new connection; the
# receiver's answer (read to its close) in $T/rep
report_for() {
	exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
	hello "$1" "$2" "$3" >&3
	timeout 20 cat <&3 >"$T/rep"
	exec 3>&-
	[ "$(head -c 4 "$T/rep")" = ZCBR ] || zcb_fail "no report for the hello of sample $2"
}

# 3. connected, then gone before its first byte (what a transmitter
# interrupted while making its source did before): a connection that
# closes empty is not the sample, and it does not restart --wait: the
# receiver waits its --report-timeout for the data (or the hello of an
# empty sample), then ends naming it
tt_recv "$T/d-r" --wait 60s --report-timeout 2s
(exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT")
gone_within "$TT_RPID" 2 "a connection that closed empty"
tt_wait_recv
[ "$TT_RRC" = 1 ] || zcb_fail "a connection that closed empty: receiver exit $TT_RRC"
has "$T/d-r.txt" "closed without sending a byte, and no transmitter followed within 2000 ms (phase: data accept)" \
	"a connection that closed empty"
# an empty connection and then its hello: a sample of no bytes
tt_recv "$T/e-r" --wait 60s --report-timeout 5s -o "$T/e-r.json"
(exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT")
report_for 0 0 false
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/e-r.txt" >&2; zcb_fail "an empty sample and its hello: receiver exit $TT_RRC"; }
jq -e '.status == "ok" and .cases[0].samples[0].bytes == 0 and .cases[0].params.method == "write"' \
	"$T/e-r.json" >/dev/null || zcb_fail "an empty sample and its hello: $(cat "$T/e-r.json")"
zcb_ok "connected and gone before a byte: the receiver ends at its --report-timeout, not a new --wait"

# 4. after the hello: it said another sample follows, and none came:
# --timeout ends the receiver
tt_recv "$T/f-r" --wait 60s --timeout 2s --report-timeout 5s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
head -c 10000 /dev/zero >&3
exec 3>&-
report_for 10000 0 true
gone_within "$TT_RPID" 2 "no sample after the hello"
tt_wait_recv
[ "$TT_RRC" = 1 ] || zcb_fail "no sample after the hello: receiver exit $TT_RRC"
has "$T/f-r.txt" "no transmitter connected within 2000 ms for sample 2, which its hello announced (phase: accept)" \
	"no sample after the hello"
zcb_ok "after the hello: the receiver ends at its --timeout, naming the sample"

# 5. mid-data, killed: its close ends the data; no hello comes within
# --report-timeout; the sample is kept
tt_recv "$T/g-r" --wait 60s --timeout 60s --report-timeout 2s -i 0.1 -o "$T/g-r.json"
"$TTCP" -t -p "$TT_PORT" --duration 60 127.0.0.1 >"$T/g-t.txt" 2>&1 &
tp=$!
zcb_track "$tp"
tt_wait_for "$T/g-r.txt" "$TT_BYTES_CAME" "the transmitter's data"
kill -KILL "$tp"
wait "$tp" 2>/dev/null
gone_within "$TT_RPID" 2 "transmitter killed mid-data"
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "transmitter killed mid-data: receiver exit $TT_RRC"
has "$T/g-r.txt" "transmitter sent no hello within 2000 ms (plain ttcp, or it died): its figures are unknown (phase: report)" \
	"transmitter killed mid-data"
jq -e '.cases[0].samples[0].bytes > 0' "$T/g-r.json" >/dev/null || zcb_fail "transmitter killed mid-data: sample lost"
# mid-data, stopped (a host that went away): --timeout ends it
tt_recv "$T/h-r" --wait 60s --timeout 2s --report-timeout 30s -i 0.1
"$TTCP" -t -p "$TT_PORT" --duration 60 127.0.0.1 >"$T/h-t.txt" 2>&1 &
tp=$!
zcb_track "$tp"
tt_wait_for "$T/h-r.txt" "$TT_BYTES_CAME" "the transmitter's data"
kill -STOP "$tp"
gone_within "$TT_RPID" 2 "transmitter stopped mid-data"
tt_wait_recv
kill -KILL "$tp"
wait "$tp" 2>/dev/null
zcb_wait_gone "$tp" 10 || zcb_fail "the stopped transmitter outlived SIGKILL"
[ "$TT_RRC" = 1 ] || zcb_fail "transmitter stopped mid-data: receiver exit $TT_RRC"
has "$T/h-r.txt" "transmitter 127.0.0.1:[0-9]* (phase: data, after [0-9]* bytes): .*no progress within the timeout" \
	"transmitter stopped mid-data"
zcb_ok "mid-data: killed, the receiver ends at its --report-timeout (sample kept); stopped, at its --timeout"

# 6. during the report: its hello stalls mid-frame; --report-timeout
# ends the window, naming it
tt_recv "$T/i-r" --wait 60s --timeout 60s --report-timeout 2s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
head -c 5000 /dev/zero >&3
exec 3>&-
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
head -c 30 <(hello 5000 0 false) >&3
gone_within "$TT_RPID" 2 "a hello that stalled"
tt_wait_recv
exec 3>&-
[ "$TT_RRC" = 0 ] || zcb_fail "a hello that stalled: receiver exit $TT_RRC"
has "$T/i-r.txt" "the hello from 127.0.0.1:[0-9]* stalled mid-frame after 30 bytes within 2000 ms (phase: report)" \
	"a hello that stalled"
zcb_ok "during the report: a hello that stalls ends at --report-timeout, named"

# --crr, the transmitter interrupted mid-run: it opens no connection for
# the end frame after the signal, so --timeout ends the receiver's wait
# for the next one (or the transaction under way ends it at once)
tt_recv "$T/j-r" --rr --wait 60s --timeout 2s --report-timeout 30s
"$TTCP" -t --crr -p "$TT_PORT" --duration 60 127.0.0.1 >"$T/j-t.txt" 2>&1 &
tp=$!
zcb_track "$tp"
tt_wait_for "$T/j-r.txt" "^ttcp-r: tcp_crr from " "the --crr transmitter"
kill -INT "$tp"
rc=0
zcb_wait_gone "$tp" 10 || zcb_fail "--crr transmitter interrupted: still running 10 s later"
wait "$tp" || rc=$?
[ $rc = 130 ] || { cat "$T/j-t.txt" >&2; zcb_fail "--crr transmitter interrupted: exit $rc, want 130"; }
gone_within "$TT_RPID" 2 "--crr transmitter interrupted"
tt_wait_recv
[ "$TT_RRC" = 1 ] || zcb_fail "--crr transmitter interrupted: receiver exit $TT_RRC"
has "$T/j-r.txt" "no connection for the next --crr transaction within 2000 ms (phase: accept, sample 1)\|closed the connection mid-transaction (phase: re" \
	"--crr transmitter interrupted"
zcb_ok "--crr interrupted: no end frame after the signal; the receiver ends at its --timeout"
