#!/usr/bin/env bash
# ttcp-rr-faults.sh: request/response when things go wrong: bad options
# (exit 2, one line naming the option), a receiver that dies or hangs
# mid-transaction, a receiver whose options refuse --rr (-u: UDP only),
# a stream transmitter at an --rr receiver, a dead UDP receiver and a dead
# transmitter: each ends with one clear line naming the phase, never a
# hang.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

tt_bad "zero size" "--rr-size" -t --rr --rr-size 0 127.0.0.1
tt_bad "bad sizes" "--rr-size" -t --rr --rr-size 1,x 127.0.0.1
tt_bad "udp size" "--rr-size 70000,1" -t -u --rr --rr-size 70000,1 127.0.0.1
tt_bad "burst udp" "--burst 4: TCP_RR only" -t -u --rr --burst 4 127.0.0.1
tt_bad "burst crr" "--burst 2: TCP_RR only" -t --crr --burst 2 127.0.0.1
tt_bad "crr udp" "--crr and -u" -t -u --crr 127.0.0.1
tt_bad "burst alone" "need --rr" -t --burst 2 127.0.0.1
tt_bad "burst range" "--burst" -t --rr --burst 5000 127.0.0.1
tt_bad "sizes on -r" "give them to -t" -r --rr --rr-size 10
tt_bad "method" "-m sendfile: --rr" -t --rr -m sendfile 127.0.0.1

# expect_fail NAME PATTERN: the transmitter of NAME exited 1 saying so
expect_fail() {
	[ "$2" = 1 ] || { cat "$T/$1.txt"; zcb_fail "$1: exit $2, expected 1"; }
	grep -q -- "$3" "$T/$1.txt" || { cat "$T/$1.txt"; zcb_fail "$1: no \"$3\""; }
}

# a receiver killed mid-run: the transmitter says so at once
tt_recv "$T/k-r" --rr
tt_kill_midway "$T/k.txt" --rr --duration 20s -o "$T/k.json"
expect_fail k "$TT_XRC" "receiver 127.0.0.1:$TT_PORT .*phase: \(request\|response\), transaction [0-9]"
[ "$(zcb_json "$T/k.json" '.status')" = failed ] || zcb_fail "killed receiver: document not failed"
tt_wait_recv

# a receiver that hangs: --timeout bounds the wait for an answer
tt_recv "$T/h-r" --rr
timeout 30 "$TTCP" -t --rr -p "$TT_PORT" --duration 20s --timeout 1s 127.0.0.1 >"$T/h.txt" 2>&1 &
xp=$!
zcb_track "$xp"
sleep 0.3
kill -STOP "$TT_RPID"
rc=0
wait "$xp" || rc=$?
kill -CONT "$TT_RPID"
expect_fail h "$rc" "no answer within 1000 ms"
tt_wait_recv

# a receiver limited to UDP (-u) takes no TCP data: the first answer
# never comes, and the line says what to check
tt_recv "$T/s-r" -u --report-timeout 1s --wait 3s
rc=0
timeout 30 "$TTCP" -t --rr -p "$TT_PORT" --timeout 1s 127.0.0.1 >"$T/s.txt" 2>&1 || rc=$?
expect_fail s "$rc" "transaction 1): no answer within 1000 ms (is it ttcp-sf -r, not limited to -u?)"
tt_wait_recv

# a stream transmitter at an --rr receiver: the receiver names it
tt_recv "$T/st-r" --rr
timeout 30 "$TTCP" -t -p "$TT_PORT" -n 100 127.0.0.1 >"$T/st.txt" 2>&1 || true
tt_wait_recv
[ "$TT_RRC" = 1 ] || { cat "$T/st-r.txt"; zcb_fail "stream at --rr receiver: exit $TT_RRC"; }
grep -q "sent no --rr setup frame (phase: setup)" "$T/st-r.txt" || { cat "$T/st-r.txt"; zcb_fail "no setup not said"; }

# a setup frame with a size out of range (played here): the receiver
# names the size and its limit (it said "sent no --rr setup frame")
tt_recv "$T/sz-r" --rr
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
{ printf 'ZCBRR1\x01\x00'; tt_u32be 100000000; tt_u32be 1; printf '\x00\x01\x00\x00'; } >&3
tt_wait_recv
exec 3>&-
[ "$TT_RRC" = 1 ] || { cat "$T/sz-r.txt"; zcb_fail "setup size out of range: receiver exit $TT_RRC"; }
grep -q "transmitter 127.0.0.1:[0-9]*: --rr setup frame: request size 100000000 out of range (1 to 67108864) (phase: setup)" "$T/sz-r.txt" ||
	{ cat "$T/sz-r.txt"; zcb_fail "setup size out of range: not named"; }

# a UDP receiver killed mid-run: the transmitter's next answer is refused
tt_recv "$T/u-r" -u --rr
tt_kill_midway "$T/u.txt" -u --rr --duration 20s
expect_fail u "$TT_XRC" "phase: UDP \(request\|response\), transaction [0-9]*\(; [0-9]* answered, [0-9]* lost before it\)\?): Connection refused"
tt_wait_recv

# a transmitter killed mid-run: the receiver ends, failing (with
# --require-peer when the close fell between transactions), at once
tt_recv "$T/x-r" --rr --report-timeout 1s --require-peer
"$TTCP" -t --rr -p "$TT_PORT" --duration 20s 127.0.0.1 >"$T/x.txt" 2>&1 &
xp=$!
zcb_track "$xp"
sleep 0.5
kill -KILL "$xp"
wait "$xp" 2>/dev/null
zcb_wait_gone "$TT_RPID" 15 || zcb_fail "receiver still waiting after its transmitter died"
tt_wait_recv
[ "$TT_RRC" = 1 ] || { cat "$T/x-r.txt"; zcb_fail "dead transmitter: receiver exit $TT_RRC"; }
# its close comes between transactions (then no hello came) or resets one
grep -q "transmitter sent no hello\|transmitter 127.0.0.1:[0-9]* (phase: request, transaction [0-9]*): Connection reset" "$T/x-r.txt" ||
	{ cat "$T/x-r.txt"; zcb_fail "dead transmitter not said"; }
zcb_ok "--rr faults: bad options, dead and hung receivers, wrong peers, dead UDP receiver, dead transmitter"
