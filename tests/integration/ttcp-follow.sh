#!/usr/bin/env bash
# ttcp-follow.sh: a plain `ttcp-sf -r` answers whatever the transmitter
# asks for, as netperf's netserver does: --rr (with its sizes and
# burst), --crr, -u --rr, -P --rr, a UDP stream, and -R and -P streams
# as before; the --rr setup frame chooses the mode on TCP, UDP_RR's first
# datagram on the UDP socket. Both ends count the same transactions and
# record the same workload. Several kinds in one receiver's life, a
# stray datagram before a TCP sample, and -i counting transactions once
# the transmitter asked for them. Options given to the receiver only
# limit it: -r --rr takes UDP_RR too, and refuses a stream.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

# both NAME KEY VALUE: both documents' first case has params.KEY VALUE
both() {
	local s
	for s in t r; do
		[ "$(zcb_json "$T/$1-$s.json" ".cases[0].params.$2")" = "$3" ] ||
			zcb_fail "$1: $s params.$2 $(zcb_json "$T/$1-$s.json" ".cases[0].params.$2"), not $3"
	done
}
# trans NAME N: both ends counted N transactions in sample 0
trans() {
	local s
	for s in t r; do
		[ "$(zcb_json "$T/$1-$s.json" '.cases[0].samples[0].transactions')" = "$2" ] ||
			zcb_fail "$1: $s counted $(zcb_json "$T/$1-$s.json" '.cases[0].samples[0].transactions') transactions, not $2"
	done
}

# TCP_RR with sizes and a burst, against -r with no mode options
tt_two rr -- --rr --rr-size 100,3000 --burst 4 -n 2000
trans rr 2000
both rr workload tcp_rr
both rr resp_size 3000
grep -q "^ttcp-r: tcp_rr from 127.0.0.1:[0-9]*: 100-byte requests, 3000-byte responses" "$T/rr-r.txt" ||
	{ cat "$T/rr-r.txt"; zcb_fail "rr: the receiver did not say what it answers"; }
[ "$(zcb_json "$T/rr-r.json" '.metrics.trans_per_s.better')" = higher ] || zcb_fail "rr: trans_per_s not declared on the receiver"
zcb_ok "plain -r answers --rr --rr-size 100,3000 --burst 4"

# TCP_CRR: a connection per transaction
tt_two crr -- --crr -n 300
trans crr 300
both crr workload tcp_crr
zcb_ok "plain -r answers --crr"

# UDP_RR: its setup datagram on the UDP socket chooses it
tt_two urr -- -u --rr -n 2000
trans urr 2000
both urr workload udp_rr
both urr proto udp
zcb_ok "plain -r answers -u --rr"

# -P --rr, and a UDP stream, as well
tt_two prr -- --rr -P 4 -n 200
trans prr 800
tt_two us -- -u -l 1024 -n 200
both us proto udp
[ "$(zcb_json "$T/us-r.json" '.cases[0].samples[0].datagrams > 0')" = true ] || zcb_fail "UDP stream: nothing came"
zcb_ok "plain -r answers -P 4 --rr and a UDP stream"

# a plain receiver takes two UDP_RR samples in a row (the first's end
# datagrams, echoed late, start nothing); another drops a stray
# datagram before its TCP sample, and -i counts transactions once asked
tt_recv "$T/seq-r" -i 0.2 -o "$T/seq-r.json"
timeout 60 "$TTCP" -t -p "$TT_PORT" -u --rr -n 500 --repeat 2 127.0.0.1 >"$T/seq1.txt" 2>&1 ||
	{ cat "$T/seq1.txt" "$T/seq-r.txt"; zcb_fail "seq: UDP_RR"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/seq-r.txt"; zcb_fail "seq: receiver exit $TT_RRC"; }
tt_recv "$T/seq2-r" -i 0.2 -o "$T/seq2-r.json"
printf 'stray' >"/dev/udp/127.0.0.1/$TT_PORT"
timeout 60 "$TTCP" -t -p "$TT_PORT" --rr -n 3000 127.0.0.1 >"$T/seq2.txt" 2>&1 ||
	{ cat "$T/seq2.txt" "$T/seq2-r.txt"; zcb_fail "seq: TCP_RR after a stray datagram"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/seq2-r.txt"; zcb_fail "seq2: receiver exit $TT_RRC"; }
[ "$(zcb_json "$T/seq-r.json" '[.cases[].samples | length] | add')" = 2 ] || zcb_fail "seq: two UDP_RR samples"
grep -q '^ttcp-r: \[.* s\] *[0-9]* trans ' "$T/seq2-r.txt" || { cat "$T/seq2-r.txt"; zcb_fail "-i: the receiver did not count transactions"; }
[ "$(zcb_json "$T/seq2-r.json" '.cases[0].samples[0].intervals | map(.transactions) | add')" = 3000 ] ||
	zcb_fail "-i: the intervals do not add up to the transactions"
zcb_ok "UDP_RR twice, then TCP_RR past a stray datagram, -i in transactions"

# the receiver's options only limit: -r --rr answers UDP_RR too (its
# transmitter asks), and refuses a stream naming it
tt_two lim --rr -- -u --rr -n 500
trans lim 500
tt_recv "$T/st-r" --rr
timeout 30 "$TTCP" -t -p "$TT_PORT" -n 100 127.0.0.1 >"$T/st.txt" 2>&1 || true
tt_wait_recv
[ "$TT_RRC" = 1 ] || { cat "$T/st-r.txt"; zcb_fail "stream at -r --rr: exit $TT_RRC"; }
grep -q "sent no --rr setup frame (phase: setup): this receiver answers request/response only (--rr)" "$T/st-r.txt" ||
	{ cat "$T/st-r.txt"; zcb_fail "stream at -r --rr: not said"; }
zcb_ok "-r --rr takes -u --rr and refuses a stream"
