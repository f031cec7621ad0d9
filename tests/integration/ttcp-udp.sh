#!/usr/bin/env bash
# ttcp-udp.sh: -u uses ttcp's framing (4-byte start and end datagrams);
# each data datagram carries a sequence number and the end datagrams the
# count sent, so the receiver counts losses: received + lost == sent.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
N=3000
tt_recv "$T/r" -u -l 1400 -o "$T/r.json"
"$TTCP" -t -u -p "$TT_PORT" -l 1400 -n $N -o "$T/t.json" 127.0.0.1 >"$T/t.txt" 2>&1 ||
	{ cat "$T/t.txt"; zcb_fail "UDP transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/r.txt"; zcb_fail "UDP receiver exit $TT_RRC"; }
got=$(zcb_json "$T/r.json" '.cases[0].samples[0].datagrams')
lost=$(zcb_json "$T/r.json" '.cases[0].samples[0].lost')
[ "$lost" != null ] || zcb_fail "receiver did not count losses"
[ $((got + lost)) = $N ] || zcb_fail "received $got + lost $lost != sent $N"
[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].datagrams')" = $N ] || zcb_fail "sent count"
[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].remote | .datagrams + .lost')" = $N ] ||
	zcb_fail "transmitter's copy of the report"
[ "$(zcb_json "$T/t.json" '.cases[0].params.proto')" = udp ] || zcb_fail "proto param"
grep -q "datagrams, $lost lost" "$T/r.txt" || zcb_fail "receiver output lacks the loss line"
[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].bytes')" = $((got * 1400)) ] || zcb_fail "bytes != datagrams x 1400"
zcb_ok "UDP: $got of $N datagrams, $lost lost, counted on both ends"
