#!/usr/bin/env bash
# ttcp-bounds.sh: the transmitter's bounds are its own, not whatever the
# receiver allows. Against receivers that misbehave (ttcp-fake, played
# here): one that keeps sending past -R's --duration, one that trickles a
# byte at a time, one that trickles its --rr responses, one that sends
# more than -n asked; each is cut at --duration plus the stated grace (or
# at once), said to have overrun, exit 1. UDP_RR against a receiver that
# answers its setup and then drops everything ends by -n (lost requests
# count) or by --timeout, and a fault names the right transaction. A
# report that stalls mid-frame is said to.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
FAKE=$ZCB_BUILDDIR/tests/integration/ttcp-fake
[ -x "$FAKE" ] || zcb_fail "no $FAKE (make check builds it)"
SLACK=5   # seconds a loaded box may add to a stated bound
GRACE=2   # ttcp_grace for a --duration under 20 s (man/ttcp-sf.1)

# fake MODE [A [D]]: a misbehaving receiver; its port in FPORT
fake() {
	rm -f "$T/port"
	"$FAKE" "$1" "$T/port" "${@:2}" >"$T/fake.txt" 2>&1 &
	FPID=$!
	zcb_track "$FPID"
	for _ in $(seq 1 200); do
		[ -s "$T/port" ] && break
		sleep 0.05
	done
	FPORT=$(cat "$T/port" 2>/dev/null)
	[ -n "$FPORT" ] || zcb_fail "ttcp-fake $1 did not start: $(cat "$T/fake.txt")"
}
# xmit NAME SECS ARGS...: ttcp-sf -t ARGS to the fake; it must end
# within SECS + SLACK; its exit status in XRC, its text in $T/NAME.txt
xmit() {
	local name=$1 secs=$2 t0=$SECONDS
	shift 2
	XRC=0
	timeout $((secs + SLACK + 30)) "$TTCP" -t -p "$FPORT" "$@" 127.0.0.1 >"$T/$name.txt" 2>&1 || XRC=$?
	[ $((SECONDS - t0)) -le $((secs + SLACK)) ] ||
		{ cat "$T/$name.txt" >&2; zcb_fail "$name: ran $((SECONDS - t0)) s, more than $secs + $SLACK"; }
	kill "$FPID" 2>/dev/null
	zcb_wait_gone "$FPID" 10 || zcb_fail "$name: the fake receiver outlived its run"
}
# said NAME PATTERN: the transmitter of NAME exited 1 saying so
said() {
	[ "$XRC" = 1 ] || { cat "$T/$1.txt" >&2; zcb_fail "$1: exit $XRC, expected 1"; }
	grep -q -- "$2" "$T/$1.txt" || { cat "$T/$1.txt" >&2; zcb_fail "$1: no \"$2\""; }
}
over="kept this side past --duration 2.0 s and its grace of 2.0 s"

fake flood
xmit flood $((2 + GRACE)) -R --duration 2s
said flood "receiver 127.0.0.1:$FPORT $over (phase: data, receiving): connection cut"
fake trickle
xmit trickle $((2 + GRACE)) -R --duration 2s --timeout 5s
said trickle "receiver 127.0.0.1:$FPORT $over (phase: data, receiving): connection cut"
fake flood
xmit bidir $((2 + GRACE)) --bidir --duration 2s
said bidir "receiver 127.0.0.1:$FPORT $over (phase: data): connection cut"
fake flood
xmit flows $((2 + GRACE)) -P 2 -R --duration 2s
said flows "receiver 127.0.0.1:$FPORT: flow [12] of 2 (phase: data): still running past --duration and its grace: connection cut"
fake rr-trickle
xmit rr $((2 + GRACE)) --rr --rr-size 1,100 --duration 2s --timeout 5s
said rr "receiver 127.0.0.1:$FPORT $over (phase: response, transaction 1): connection cut"
fake flood
xmit count 2 -R -l 1000 -n 10
said count "receiver 127.0.0.1:$FPORT sent more than the 10000 bytes asked (phase: data, receiving): connection cut"
zcb_ok "-R, --bidir, -P -R and --rr past --duration + $GRACE s, -R past -n: cut, named, exit 1"

# UDP_RR, the receiver answering its setup only: -n counts requests
# sent (5 lost of 200 ms each); --timeout without an answer ends a
# --duration run
fake udp-drop 0 0
xmit udp-n 1 -u --rr -n 5 --timeout 5s
said udp-n "receiver 127.0.0.1:$FPORT answered none of the 5 requests (phase: UDP response, each lost after --rr-timeout 200 ms)"
fake udp-drop 0 0
xmit udp-t 2 -u --rr --duration 30s --timeout 2s
said udp-t "receiver 127.0.0.1:$FPORT (phase: UDP response, transaction [0-9]*; 0 answered, [0-9]* lost before it): no answer within 2000 ms (--timeout)"
# 3 answered, 5 dropped, then the receiver is gone: the fault names the
# transaction after all of them (it said "transaction 4")
fake udp-drop 3 5
xmit udp-f 10 -u --rr --duration 30s --rr-timeout 1s --timeout 30s
said udp-f "Connection refused"
line=$(grep -o 'transaction [0-9]*; 3 answered, [0-9]* lost before it' "$T/udp-f.txt") ||
	{ cat "$T/udp-f.txt" >&2; zcb_fail "udp fault: the transaction not named with its losses"; }
read -r _ n _ _ lost _ <<<"${line//;/}"
if [ "$lost" -lt 5 ] || [ "$n" != $((3 + lost + 1)) ]; then
	zcb_fail "udp fault: \"$line\": want transaction 3 + lost + 1, at least 5 lost"
fi
zcb_ok "UDP_RR: -n counts lost requests, --timeout without answers ends it, the fault names transaction $n"

# a report that stalls mid-frame is said to (it was "did not answer
# (plain ttcp?)"), and --require-peer fails on it
fake report-stall
xmit report 2 -n 10 --report-timeout 2s --require-peer
said report "the receiver's report stalled mid-frame after 10 of 1008 bytes within 2000 ms"
zcb_ok "a report stalled mid-frame is named"
