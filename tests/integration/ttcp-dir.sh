#!/usr/bin/env bash
# ttcp-dir.sh: -R (the receiver sends) and --bidir (both at once), set up
# through ttcp-sf's own frames on the data connection: exact byte counts
# on both ends, the pattern checked where the bytes arrive, each
# direction reported apart; a receiver killed mid-way is an error, and
# the options that cannot go with them are refused up front.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

val() { zcb_json "$T/$1.json" ".cases[0].samples[0].$2"; }

# -R: 500 x 32 KiB from the receiver, checked by the transmitter
tt_two rev -- -R -V -l 32768 -n 500
n=$((500 * 32768))
[ "$(val rev-t bytes)" = $n ] || zcb_fail "-R: transmitter received $(val rev-t bytes), not $n"
[ "$(val rev-r bytes)" = $n ] || zcb_fail "-R: receiver sent $(val rev-r bytes), not $n"
grep -q "^ttcp-t: pattern check: 0 of $n bytes wrong" "$T/rev-t.txt" || zcb_fail "-R: pattern not checked"
grep -q "^ttcp-r: reverse: this side sends" "$T/rev-r.txt" || zcb_fail "-R: receiver does not say it sends"
for s in t r; do
	[ "$(zcb_json "$T/rev-$s.json" '.cases[0].params | [.direction, .method] | join(" ")')" = "reverse write" ] ||
		zcb_fail "-R: $s params $(zcb_json "$T/rev-$s.json" '.cases[0].params')"
done

# -R --hot: the receiver sends a cache-hot buffer, as iperf3 does
tt_two rh -- -R --hot -V -l 32768 -n 300
[ "$(val rh-t bytes)" = $((300 * 32768)) ] || zcb_fail "-R --hot: transmitter received $(val rh-t bytes)"
grep -q "^ttcp-r: reverse: this side sends (write, 32768-byte buffers of a cache-hot buffer)" "$T/rh-r.txt" ||
	{ cat "$T/rh-r.txt"; zcb_fail "-R --hot: the receiver does not send a hot buffer"; }

# --bidir: both directions at once, each counted and checked
tt_two bi -V -- --bidir -V -l 16384 -n 800 --repeat 2
n=$((800 * 16384))
for k in 0 1; do
	for s in t r; do
		b=$(zcb_json "$T/bi-$s.json" ".cases[0].samples[$k] | [.bytes, .rev_bytes] | join(\" \")")
		[ "$b" = "$n $n" ] || zcb_fail "--bidir sample $k: $s counts $b, not $n each way"
		[ "$(zcb_json "$T/bi-$s.json" ".cases[0].samples[$k].metrics.rev_throughput_MBps > 0")" = true ] ||
			zcb_fail "--bidir: $s rev_throughput_MBps"
	done
done
grep -q "^ttcp-t: pattern check: 0 of $n bytes wrong" "$T/bi-t.txt" || zcb_fail "--bidir: transmitter's check"
grep -q "^ttcp-r: pattern check: 0 of $n bytes wrong" "$T/bi-r.txt" || zcb_fail "--bidir: receiver's check"
grep -q "^ttcp-t: other way (received): $n bytes in " "$T/bi-t.txt" || zcb_fail "--bidir: other way line"
[ "$(zcb_json "$T/bi-t.json" '.cases[0].params.direction')" = bidir ] || zcb_fail "--bidir params"

# --bidir for a duration: whatever moved, both ends agree on it
tt_two bid -- --bidir --duration 1s
[ "$(val bid-t bytes)" = "$(val bid-r bytes)" ] || zcb_fail "--bidir --duration: forward counts differ"
[ "$(val bid-t rev_bytes)" = "$(val bid-r rev_bytes)" ] || zcb_fail "--bidir --duration: reverse counts differ"
[ "$(val bid-t rev_bytes)" -gt 0 ] || zcb_fail "--bidir --duration: nothing came back"

# the classic direction is untouched by the receiver's look at the stream
tt_two fwd -V -- -l 8192 -n 300
[ "$(val fwd-r bytes)" = $((300 * 8192)) ] || zcb_fail "forward: receiver bytes"
[ "$(zcb_json "$T/fwd-r.json" '.cases[0].params | has("direction")')" = false ] || zcb_fail "forward: direction set"

# a receiver killed mid-way: the transmitter says how much came
tt_recv "$T/k-r"
tt_kill_midway "$T/k.txt" -R -l 1024 -n 100000000
[ "$TT_XRC" = 1 ] || { cat "$T/k.txt"; zcb_fail "-R, killed receiver: exit $TT_XRC"; }
grep -q "receiver 127.0.0.1:$TT_PORT sent [0-9]* of 102400000000 bytes (phase: data, receiving)" "$T/k.txt" ||
	{ cat "$T/k.txt"; zcb_fail "-R, killed receiver: message"; }
tt_wait_recv

# setup frames from a transmitter played here (bash's /dev/tcp): the
# receiver reads a frame of any size a frame may have (200000 bytes is
# more than a socket's first receive window: a peek never saw it whole),
# names a field out of range (flows 2^32 + 2 was taken as 2) and a frame
# that stalls, each within --timeout
setup() { # setup DIR NBUF FLOWS [PAD]: a setup frame's JSON
	printf '{"type":"ttcp-sf-setup/1","direction":"%s","buflen":1000,"nbuf":%s,"duration":0,"flows":%s,"flow":0,"pad":"%s"}' \
		"$1" "$2" "$3" "${4:-}"
}
pad=$(head -c 200000 /dev/zero | tr '\0' x)
tt_recv "$T/big-r" --timeout 5s --report-timeout 1s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
tt_frame "$(setup reverse 5 1 "$pad")" >&3
timeout 20 head -c 5000 <&3 >"$T/big.got"
exec 3>&-
[ "$(wc -c <"$T/big.got")" = 5000 ] ||
	{ cat "$T/big-r.txt"; zcb_fail "a 200000-byte setup frame: $(wc -c <"$T/big.got") of 5000 bytes came back"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/big-r.txt"; zcb_fail "a 200000-byte setup frame: receiver exit $TT_RRC"; }
grep -q "^ttcp-r: reverse: this side sends" "$T/big-r.txt" || zcb_fail "a 200000-byte setup frame: not taken for -R"

tt_recv "$T/fl-r" --timeout 5s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
tt_frame "$(setup forward 5 4294967298)" >&3
tt_wait_recv
exec 3>&-
[ "$TT_RRC" = 1 ] || { cat "$T/fl-r.txt"; zcb_fail "flows 4294967298: receiver exit $TT_RRC"; }
grep -q "transmitter 127.0.0.1:[0-9]*: setup frame: field \"flows\" out of range (1 to 1024) (phase: setup)" "$T/fl-r.txt" ||
	{ cat "$T/fl-r.txt"; zcb_fail "flows 4294967298: not refused by name"; }

tt_recv "$T/st-r" --timeout 2s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"
head -c 60 <(tt_frame "$(setup reverse 5 1)") >&3
zcb_wait_gone "$TT_RPID" 10 || zcb_fail "a stalled setup frame: receiver still running 10 s later (--timeout 2s)"
tt_wait_recv
exec 3>&-
[ "$TT_RRC" = 1 ] || { cat "$T/st-r.txt"; zcb_fail "a stalled setup frame: receiver exit $TT_RRC"; }
grep -q "setup frame: stalled mid-frame after 60 of [0-9]* bytes within 2000 ms (phase: setup)" "$T/st-r.txt" ||
	{ cat "$T/st-r.txt"; zcb_fail "a stalled setup frame: not named"; }
zcb_ok "setup frames: 200000 bytes taken whole, flows out of range refused by name, a stall ends at --timeout"

tt_bad "-R on -r" "-R: give it to -t" -r -R
tt_bad "-R -u" "-R: TCP streams only" -t -R -u 127.0.0.1
tt_bad "--bidir --rr" "--bidir: TCP streams only" -t --bidir --rr 127.0.0.1
tt_bad "both" "choose one" -t -R --bidir 127.0.0.1
tt_bad "-R --no-report" "setup frame" -t -R --no-report 127.0.0.1
tt_bad "-R send method" "-m: \"sendfile\"" -t -R -m sendfile 127.0.0.1
zcb_ok "-R and --bidir: exact counts both ends, pattern checked, killed receiver, bad options"
