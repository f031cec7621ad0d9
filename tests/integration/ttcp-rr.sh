#!/usr/bin/env bash
# ttcp-rr.sh: request/response (--rr, --burst, --crr, -u --rr). Both ends
# count every transaction and the counts match exactly, the transmitter
# keeps a latency histogram holding every transaction with ordered
# percentiles, CPU per transaction is stored with a meter, and a UDP
# receiver stopped for a while costs counted losses and late answers,
# not a hang.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

# rr NAME N RECV_ARGS -- XMIT_ARGS: a run of N transactions; both
# documents must say N transactions, the histogram N values.
rr() {
	local name=$1 n=$2 rargs=() j
	shift 2
	while [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	tt_recv "$T/$name-r" --rr "${rargs[@]}" -o "$T/$name-r.json"
	timeout 60 "$TTCP" -t -p "$TT_PORT" -n "$n" -o "$T/$name-t.json" "$@" 127.0.0.1 \
		>"$T/$name-t.txt" 2>&1 || { cat "$T/$name-t.txt" "$T/$name-r.txt"; zcb_fail "$name: transmitter failed"; }
	tt_wait_recv
	[ "$TT_RRC" = 0 ] || { cat "$T/$name-r.txt"; zcb_fail "$name: receiver exit $TT_RRC"; }
	for j in "$T/$name-t.json" "$T/$name-r.json"; do
		[ "$(zcb_json "$j" '.cases[0].samples[0].transactions')" = "$n" ] ||
			zcb_fail "$name: $(basename "$j") counts $(zcb_json "$j" '.cases[0].samples[0].transactions') transactions, not $n"
	done
	[ "$(zcb_json "$T/$name-t.json" '.cases[0].samples[0].latency_hist.count')" = "$n" ] ||
		zcb_fail "$name: the histogram does not hold every transaction"
	[ "$(zcb_json "$T/$name-t.json" '[.cases[0].samples[0].latency_hist.buckets[][1]] | add')" = "$n" ] ||
		zcb_fail "$name: the buckets do not add up to the transactions"
	grep -q "^ttcp-t: receiver answered $n of $n requests" "$T/$name-t.txt" ||
		zcb_fail "$name: receiver's count not confirmed"
}

# TCP_RR, netperf's default sizes
rr tcp 3000 -- --rr
j=$T/tcp-t.json
[ "$(zcb_json "$j" '.cases[0].params | [.workload, .size, .resp_size, .burst] | join(" ")')" = "tcp_rr 1 1 1" ] ||
	zcb_fail "params: $(zcb_json "$j" '.cases[0].params')"
m=$(zcb_json "$j" '.cases[0].samples[0].metrics | [.lat_min_us, .lat_p50_us, .lat_p90_us, .lat_p99_us, .lat_p999_us, .lat_max_us] | map(tostring) | join(" ")')
# shellcheck disable=SC2086 # six numbers
set -- $m
[ $# = 6 ] || zcb_fail "latency metrics missing: $m"
awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" -v f="$6" \
	'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d && d <= e && e <= f) }' ||
	zcb_fail "percentiles out of order: $m"
[ "$(zcb_json "$j" '.cases[0].samples[0].metrics.trans_per_s > 0')" = true ] || zcb_fail "trans_per_s"
[ "$(zcb_json "$j" '.cases[0].samples[0].metrics | has("throughput_MBps")')" = false ] || zcb_fail "MB/s of an rr case"
[ "$(zcb_json "$j" '.metrics.lat_p99_us.better')" = lower ] || zcb_fail "lat_p99_us not declared"
[ "$(zcb_json "$T/tcp-r.json" '.cases[0].samples[0].bytes')" = 3000 ] || zcb_fail "receiver request bytes"
grep -q "^ttcp-t: latency us: mean .* p50 .* p99 .* p99.9 .* max " "$T/tcp-t.txt" || zcb_fail "latency line"

# larger sizes, 4 in flight: exact counts (a count-based run, so it
# claims nothing about CPU: on a fast box it is over within a tick)
rr burst 2000 -- --rr --rr-size 100,3000 --burst 4
j=$T/burst-t.json
[ "$(zcb_json "$T/burst-r.json" '.cases[0].samples[0].bytes')" = 200000 ] || zcb_fail "burst: request bytes"
[ "$(zcb_json "$j" '.cases[0].params.burst')" = 4 ] || zcb_fail "burst in params"

# CPU per transaction on both ends, from a run that lasts by time: 1 s
# is 200 of /proc/stat's ticks on 2 CPUs, whatever the box's speed
tt_recv "$T/bcpu-r" --rr -c --cpu=procstat -o "$T/bcpu-r.json"
timeout 60 "$TTCP" -t -p "$TT_PORT" --duration 1s --rr --rr-size 100,3000 --burst 4 -c --cpu=procstat \
	-o "$T/bcpu-t.json" 127.0.0.1 >"$T/bcpu-t.txt" 2>&1 ||
	{ cat "$T/bcpu-t.txt" "$T/bcpu-r.txt"; zcb_fail "burst cpu: transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/bcpu-r.txt"; zcb_fail "burst cpu: receiver exit $TT_RRC"; }
j=$T/bcpu-t.json
for k in sd_local_us_per_tx sd_remote_us_per_tx; do
	[ "$(zcb_json "$j" ".cases[0].samples[0].metrics.$k > 0")" = true ] ||
		{ cat "$T/bcpu-t.txt"; zcb_fail "$k missing: $(jq -c '.cases[0].samples[0].cpu' "$j")"; }
done
[ "$(zcb_json "$T/bcpu-r.json" '.cases[0].samples[0].metrics.sd_local_us_per_tx > 0')" = true ] ||
	{ cat "$T/bcpu-r.txt"; zcb_fail "receiver's CPU per transaction"; }
grep -q "^ttcp-t: cpu per transaction: box [0-9.]* us" "$T/bcpu-t.txt" || zcb_fail "CPU per transaction line"

# a window too short for /proc/stat's ticks is said to be, never "0.00
# us": 100 transactions last a few ms here, so most land no busy tick
for i in 1 2 3; do
	tt_recv "$T/short$i-r" --rr -c --cpu=procstat -o "$T/short$i-r.json"
	timeout 60 "$TTCP" -t -p "$TT_PORT" -n 100 --rr -c --cpu=procstat -o "$T/short$i-t.json" 127.0.0.1 \
		>"$T/short$i-t.txt" 2>&1 || { cat "$T/short$i-t.txt"; zcb_fail "short cpu: transmitter failed"; }
	tt_wait_recv
	for f in "$T/short$i-t.txt" "$T/short$i-r.txt"; do
		! grep -q "cpu per transaction: .*[^0-9.]0\.00 us" "$f" ||
			{ cat "$f"; zcb_fail "a zero CPU figure from a window without ticks"; }
		if grep -q "cpu per transaction: box not measured" "$f"; then
			grep -Eq "procstat unavailable: below its resolution: not one tick in a|note: below its resolution: not one busy tick of" "$f" ||
				{ cat "$f"; zcb_fail "not measured, and not said why"; }
		fi
	done
	# the document names the meter's step in this window
	jq -e '.cases[0].samples[0].cpu.local[0].resolution_pct >= 0' "$T/short$i-t.json" >/dev/null ||
		zcb_fail "resolution_pct missing: $(jq -c '.cases[0].samples[0].cpu' "$T/short$i-t.json")"
done

# TCP_CRR: a connection per transaction
rr crr 300 -- --crr
[ "$(zcb_json "$T/crr-t.json" '.cases[0].params.workload')" = tcp_crr ] || zcb_fail "crr workload"

# UDP_RR, and --repeat: the receiver follows every sample
rr udp 2000 -u -- -u --rr --repeat 2
[ "$(zcb_json "$T/udp-t.json" '.cases[0].samples | length')" = 2 ] || zcb_fail "udp repeat"
[ "$(zcb_json "$T/udp-r.json" '.cases[0].samples[1].transactions')" = 2000 ] || zcb_fail "udp second sample"
[ "$(zcb_json "$T/udp-t.json" '.cases[0].samples[0].rr_lost')" = 0 ] || zcb_fail "udp losses on loopback"

# UDP_RR, receiver stopped for a while: requests time out (lost), their
# answers come late, the run goes on; every request still reached it
tt_recv "$T/ul-r" -u --rr -o "$T/ul-r.json"
timeout 60 "$TTCP" -t -u --rr -p "$TT_PORT" --duration 2s --rr-timeout 50ms -o "$T/ul-t.json" 127.0.0.1 \
	>"$T/ul-t.txt" 2>&1 &
xp=$!
zcb_track "$xp"
sleep 0.5
kill -STOP "$TT_RPID"
sleep 0.5
kill -CONT "$TT_RPID"
wait "$xp" || { cat "$T/ul-t.txt"; zcb_fail "udp loss: transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/ul-r.txt"; zcb_fail "udp loss: receiver exit $TT_RRC"; }
lost=$(zcb_json "$T/ul-t.json" '.cases[0].samples[0].rr_lost')
done_t=$(zcb_json "$T/ul-t.json" '.cases[0].samples[0].transactions')
done_r=$(zcb_json "$T/ul-r.json" '.cases[0].samples[0].transactions')
[ "$lost" -ge 1 ] || zcb_fail "udp loss: none counted"
[ "$done_r" = $((done_t + lost)) ] || zcb_fail "udp loss: receiver answered $done_r, transmitter $done_t + $lost lost"
grep -q "^ttcp-t: $lost requests lost (no answer in time), [1-9][0-9]* late answers" "$T/ul-t.txt" ||
	{ cat "$T/ul-t.txt"; zcb_fail "udp loss line"; }
echo "ok - tcp_rr, burst, tcp_crr, udp_rr: exact counts on both ends, histograms, CPU per transaction, UDP losses"

# the soak meter: pairs of runs; the rate and latencies come from the
# unmetered run, CPU per transaction from the metered one
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
cs_lock
cs_fixture_calibration
rr soak 500 -c --cpu=soak -- --rr -c --cpu=soak
j=$T/soak-t.json
got=$(jq -c '[.cases[0].samples[] | [.soak, .pair, .transactions]]' "$j")
[ "$got" = '[[true,0,500],[false,0,500]]' ] || zcb_fail "soak: runs $got"
jq -e '.cases[0].samples[0].metrics | has("sd_local_us_per_tx") and
	has("metered_trans_per_s") and has("metered_lat_p99_us") and (has("lat_p99_us") | not)' "$j" >/dev/null ||
	zcb_fail "soak: metered run's names: $(jq -c '.cases[0].samples[0].metrics | keys' "$j")"
jq -e '.cases[0].samples[1].metrics | has("trans_per_s") and has("lat_p99_us") and
	(has("sd_local_us_per_tx") | not)' "$j" >/dev/null ||
	zcb_fail "soak: unmetered run's names: $(jq -c '.cases[0].samples[1].metrics | keys' "$j")"
[ "$(zcb_json "$j" '.cases[0].perturbation.metric')" = trans_per_s ] ||
	zcb_fail "soak: perturbation not judged on trans_per_s: $(jq -c '.cases[0].perturbation' "$j")"
zcb_ok "soak pairs: rate and latency unmetered, CPU per transaction metered"
