#!/usr/bin/env bash
# ttcp-flows.sh: -P N flows from one epoll thread or --threads T, as a
# stream and with --rr: exact per-flow counts on both ends (bytes or
# transactions), the sum and Jain's fairness stored; -P 1000 works, more
# than the limit (or than the file descriptors allow) is refused up
# front naming the limit; a receiver killed mid-run is an error naming
# the flow.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

flows() { zcb_json "$T/$1.json" "[.cases[0].samples[0].flows[].$2] | map(tostring) | join(\" \")"; }

# a stream of 4 flows, one thread
tt_two st -- -P 4 -l 16384 -n 300
each=$((300 * 16384))
for s in t r; do
	[ "$(flows "st-$s" bytes)" = "$each $each $each $each" ] || zcb_fail "-P 4: $s flows $(flows "st-$s" bytes)"
	[ "$(zcb_json "$T/st-$s.json" '.cases[0].samples[0].bytes')" = $((4 * each)) ] || zcb_fail "-P 4: $s sum"
	[ "$(zcb_json "$T/st-$s.json" '.cases[0].samples[0].metrics.fairness_jain | . > 0 and . <= 1.000001')" = true ] ||
		zcb_fail "-P 4: $s fairness"
	[ "$(zcb_json "$T/st-$s.json" '.cases[0].params.flows')" = 4 ] || zcb_fail "-P 4: $s params"
done
grep -q "^ttcp-t: 4 flows: sum .* MB/s, per flow min .* median .* max .*, Jain's fairness " "$T/st-t.txt" ||
	zcb_fail "-P 4: summary line"
[ "$(grep -c '^ttcp-t: flow [1-4]: ' "$T/st-t.txt")" = 4 ] || zcb_fail "-P 4: per-flow lines"

# sendfile for a duration, two threads on each side: whatever each flow
# moved, both ends agree on it flow by flow
tt_two sf --threads 2 -- -P 3 --threads 2 -m sendfile -l 32768 --source-size 8m --duration 1s
[ "$(flows sf-t bytes)" = "$(flows sf-r bytes)" ] || zcb_fail "-P 3 sendfile: $(flows sf-t bytes) vs $(flows sf-r bytes)"

# write from two threads, the pattern checked on every flow: each
# thread reads the source into a buffer of its own
tt_two wv -V --threads 2 -- -P 4 --threads 2 -m write -l 16384 -n 400 --source-size 1m
grep -q "^ttcp-r: pattern check: 0 of $((4 * 400 * 16384)) bytes wrong" "$T/wv-r.txt" ||
	{ cat "$T/wv-r.txt"; zcb_fail "-P 4 --threads 2 write: pattern"; }

# -P 4 -R: the receiver sends on every flow, checked where it arrives
tt_two rv --threads 2 -- -P 4 -R -V -l 16384 -n 300
for s in t r; do
	[ "$(flows "rv-$s" bytes)" = "$each $each $each $each" ] || zcb_fail "-P 4 -R: $s flows $(flows "rv-$s" bytes)"
	[ "$(zcb_json "$T/rv-$s.json" '.cases[0].params.direction')" = reverse ] || zcb_fail "-P 4 -R: $s direction"
done
grep -q "^ttcp-t: pattern check: 0 of $((4 * each)) bytes wrong" "$T/rv-t.txt" ||
	{ cat "$T/rv-t.txt"; zcb_fail "-P 4 -R: pattern"; }

# request/response flows, neper's tcp_rr
tt_two rr --rr --threads 2 -- --rr -P 4 --threads 2 -n 500
for s in t r; do
	[ "$(flows "rr-$s" transactions)" = "500 500 500 500" ] || zcb_fail "--rr -P 4: $s $(flows "rr-$s" transactions)"
	[ "$(zcb_json "$T/rr-$s.json" '.cases[0].samples[0].transactions')" = 2000 ] || zcb_fail "--rr -P 4: $s sum"
done
[ "$(zcb_json "$T/rr-t.json" '.cases[0].samples[0].latency_hist.count')" = 2000 ] || zcb_fail "--rr -P 4: histogram"

# a thousand flows
tt_two k --rr -- --rr -P 1000 -n 3
[ "$(zcb_json "$T/k-r.json" '.cases[0].samples[0].transactions')" = 3000 ] || zcb_fail "-P 1000: receiver's count"
[ "$(zcb_json "$T/k-t.json" '.cases[0].samples[0].flows | length')" = 1000 ] || zcb_fail "-P 1000: flows"

# a receiver killed mid-run
tt_recv "$T/x-r"
timeout 30 "$TTCP" -t -P 4 -p "$TT_PORT" --source-size 1m --duration 20s 127.0.0.1 >"$T/x.txt" 2>&1 &
xp=$!
zcb_track "$xp"
for _ in $(seq 1 100); do # until the flows run
	grep -q "^ttcp-r: -P 4: 4 flows" "$T/x-r.txt" && break
	sleep 0.1
done
sleep 0.3
kill -KILL "$TT_RPID"
rc=0
wait "$xp" || rc=$?
[ $rc = 1 ] || { cat "$T/x.txt"; zcb_fail "killed receiver: exit $rc"; }
grep -q "receiver 127.0.0.1:$TT_PORT: flow [1-4] of 4 (phase: " "$T/x.txt" || { cat "$T/x.txt"; zcb_fail "killed receiver: message"; }
tt_wait_recv

tt_bad "-P 2000" "-P 2000: at most 1024 flows" -t -P 2000 127.0.0.1
(ulimit -n 256; tt_bad "-P 1000, ulimit 256" "-P 1000: needs 1064 file descriptors, the limit (ulimit -n) is 256" -t -P 1000 127.0.0.1) ||
	exit 1
tt_bad "-P -u" "-P 2: TCP streams (-R too) and --rr only" -t -u -P 2 127.0.0.1
tt_bad "-P -R splice" "-m splice: -P -R receives" -t -P 2 -R -m splice 127.0.0.1
tt_bad "-P splice" "-m splice: -P drives" -t -P 2 -m splice 127.0.0.1
tt_bad "--threads alone" "--threads 2: for -P" -t --threads 2 127.0.0.1
tt_bad "--threads > -P" "more threads" -t -P 2 --threads 3 127.0.0.1
tt_bad "-P on -r" "-P: give it to -t" -r -P 2
zcb_ok "-P: streams and --rr, one and two threads, exact per-flow counts, 1000 flows, limits named, killed receiver"
