#!/usr/bin/env bash
# ttcp-tcpinfo.sh: TCP's facts (TCP_INFO) on both ends of a TCP run.
#
# On loopback, -P 4 -i 1: per flow at the end of the sample and per
# interval, the receiver's in its report, the metrics compare judges
# declared (lower is better), the intervals' retransmits adding up to
# the sample's, -P's per-flow lines carrying them; --rr has them, UDP
# none.
#
# On a veth pair (scripts/netns-hosts, root; skipped without): through
# tbf at 100 Mbit/s the limited times move where the buffers say (a
# receiver with a 32 KB buffer holds the sender on its window, a sender
# with a 32 KB buffer on its own), and through a tbf whose queue holds
# 32 KB the retransmit count is checked against `ss -ti`'s. The count
# is compared when the connection is quiet: the receiver is stopped
# (SIGSTOP) until its window is full and the sender's -i lines show no
# bytes and no retransmits, then ss reads the socket, and the sum of the
# intervals' retransmits so far must be ss's total (retrans:X/TOTAL).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

s0='.cases[0].samples[0]'
tt_two p4 -- -P 4 -i 1 -l 32768 --duration 2s
j=$T/p4-t.json
[ "$(zcb_json "$j" "$s0.tcp | has(\"retrans\") and has(\"srtt_us\") and has(\"cwnd\") and has(\"rwnd_limited_us\") and .flows == 4")" = true ] ||
	zcb_fail "-P 4: the sample's tcp: $(zcb_json "$j" "$s0.tcp")"
[ "$(zcb_json "$j" "[$s0.flows[] | has(\"tcp\") and has(\"remote_tcp\")] | all")" = true ] ||
	zcb_fail "-P 4: each flow's facts, and the receiver's"
[ "$(zcb_json "$j" "[$s0.intervals[] | (.tcp_flows | length) == 4] | all")" = true ] ||
	zcb_fail "-P 4 -i 1: each interval's per-flow facts"
[ "$(zcb_json "$j" "$s0 | ([.intervals[].tcp.retrans] | add) == .tcp.retrans")" = true ] ||
	zcb_fail "the intervals' retransmits do not add up to the sample's: $(zcb_json "$j" "[$s0.intervals[].tcp.retrans]") vs $(zcb_json "$j" "$s0.tcp.retrans")"
for m in tcp_local_retrans tcp_local_rwnd_limited_pct tcp_local_sndbuf_limited_pct tcp_remote_retrans; do
	[ "$(zcb_json "$j" ".metrics.$m.better")" = lower ] || zcb_fail "$m not declared lower-is-better"
	[ "$(zcb_json "$j" "$s0.metrics | has(\"$m\")")" = true ] || zcb_fail "$m not in the sample"
done
[ "$(zcb_json "$j" "$s0.remote.tcp.flows")" = 4 ] || zcb_fail "the receiver's report: no TCP facts"
[ "$(zcb_json "$T/p4-r.json" "$s0.tcp.flows")" = 4 ] || zcb_fail "the receiver's document: no TCP facts"
[ "$(grep -c '^ttcp-t: flow [1-4]: .* MB/s retr [0-9]* cwnd [0-9]* srtt ' "$T/p4-t.txt")" = 4 ] ||
	{ cat "$T/p4-t.txt"; zcb_fail "-P 4: per-flow lines without their facts"; }
grep -q '^ttcp-t: \[.*\] .* MB/s  retr [0-9]* cwnd [0-9]* srtt ' "$T/p4-t.txt" || zcb_fail "-i: no facts in the interval lines"
grep -q '^ttcp-t:   flow 4: .* MB/s retr ' "$T/p4-t.txt" || zcb_fail "-i: no per-flow interval lines"
grep -q '^ttcp-t: tcp (4 flows): retr .* busy .* rwnd-limited .*, sndbuf-limited ' "$T/p4-t.txt" || zcb_fail "no sum line"
grep -q "^ttcp-t: receiver's tcp: retr " "$T/p4-t.txt" || zcb_fail "no receiver's line"
zcb_ok "-P 4 -i 1 on loopback: per flow, per interval, both ends"

tt_two rr -- --rr -n 2000
[ "$(zcb_json "$T/rr-t.json" "$s0.tcp.flows")" = 1 ] || zcb_fail "--rr: no TCP facts"
tt_two u -u -- -u -n 100
[ "$(zcb_json "$T/u-t.json" "$s0 | has(\"tcp\")")" = false ] || zcb_fail "UDP with TCP facts"
zcb_ok "--rr has them, UDP none"

# the veth pair
[ "$(id -u)" = 0 ] || zcb_skip "the veth part needs root (the loopback part passed)"
zcb_need_cmd ip iproute2
zcb_need_cmd tc iproute2
zcb_need_cmd ss iproute2
NH="$ZCB_SRCDIR/scripts/netns-hosts"
"$NH" --rate 100mbit -- true 2>"$T/probe" || zcb_skip "netns with tbf unavailable: $(head -1 "$T/probe")"

# inside the pair: ttcp-sf there and back, named NAME, receiver's and
# transmitter's extra options apart
pair_run() { # NAME "RECV_ARGS" "XMIT_ARGS"
	local name=$1 r
	# shellcheck disable=SC2086 # the options, word by word
	$ZCB_RSH_B "$TTCP" -r -p 5001 --wait 20 $2 -o "$T/$name-r.json" >"$T/$name-r.txt" 2>&1 &
	r=$!
	for _ in $(seq 1 200); do grep -q port= "$T/$name-r.txt" 2>/dev/null && break; sleep 0.05; done
	# shellcheck disable=SC2086
	$ZCB_RSH_A "$TTCP" -t -p 5001 -l 32768 --duration 2s --source-size 16M $3 \
		-o "$T/$name-t.json" "$ZCB_ADDR_B" >"$T/$name-t.txt" 2>&1 || return 1
	wait "$r"
}

# until the last 3 interval lines of FILE say no bytes and no
# retransmits, at most 20 s; the lines then in FILE.at
quiet() {
	local deadline=$((SECONDS + 20))
	while [ $SECONDS -lt $deadline ]; do
		grep '^ttcp-t: \[' "$1" >"$1.at" 2>/dev/null
		if [ "$(wc -l <"$1.at")" -ge 6 ] &&
			[ "$(tail -3 "$1.at" | grep -c ' 0 bytes .* retr 0 ')" = 3 ]; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

run() {
	set -u
	pair_run plain "" "" || return 1
	pair_run rbuf "-b 32768" "" || return 1
	pair_run sbuf "" "-b 32768" || return 1
	# a queue of 32 KB: the sender's window overflows it
	local dev r t n
	dev=$(ip -n "$ZCB_NS_A" -o link show type veth | sed -n 's/^[0-9]*: \([^@:]*\).*/\1/p' | head -1)
	$ZCB_RSH_A tc qdisc replace dev "$dev" root tbf rate 100mbit burst 16kb limit 32kb || return 1
	$ZCB_RSH_B "$TTCP" -r -p 5001 --wait 20 -o "$T/ss-r.json" >"$T/ss-r.txt" 2>&1 &
	r=$!
	for _ in $(seq 1 200); do grep -q port= "$T/ss-r.txt" 2>/dev/null && break; sleep 0.05; done
	$ZCB_RSH_A "$TTCP" -t -p 5001 -l 32768 --duration 6s --source-size 16M -i 0.25 \
		-o "$T/ss-t.json" "$ZCB_ADDR_B" >"$T/ss-t.txt" 2>&1 &
	t=$!
	# 8 intervals, counted: under load an interval ends a little late
	# (1.76 s, not 1.75 s), so its bounds are no mark to wait for
	n=0
	for _ in $(seq 1 400); do
		n=$(grep -c '^ttcp-t: \[' "$T/ss-t.txt" 2>/dev/null)
		[ "${n:-0}" -ge 8 ] && break
		sleep 0.05
	done
	[ "${n:-0}" -ge 8 ] || { cat "$T/ss-t.txt" >&2; zcb_fail "8 intervals of data: $n within 20 s"; }
	kill -STOP "$r"
	if ! quiet "$T/ss-t.txt"; then
		kill -CONT "$r"
		echo "the connection never went quiet" >"$T/ss-why"
		return 1
	fi
	$ZCB_RSH_A ss -tin dst "$ZCB_ADDR_B" >"$T/ss.txt"
	n=$(wc -l <"$T/ss-t.txt.at")
	tt_wait_for "$T/ss-t.txt" "^ttcp-t: \\[" "an interval after ss" 10
	until [ "$(grep -c '^ttcp-t: \[' "$T/ss-t.txt")" -gt "$n" ]; do sleep 0.05; done
	grep '^ttcp-t: \[' "$T/ss-t.txt" | sed -n "$((n + 1))p" >"$T/ss-after"
	kill -CONT "$r"
	wait "$t" || return 1
	wait "$r" || return 1
	echo "$ZCB_NS_A" >"$T/ns"
}
export -f run pair_run quiet tt_wait_for zcb_fail
export TTCP T
"$NH" --rate 100mbit -- bash -c run || {
	cat "$T"/*-t.txt "$T/ss-why" 2>/dev/null | tail -40
	zcb_fail "ttcp-sf across the shaped pair failed"
}
ns=$(cat "$T/ns")
ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "the pair $ns was not removed"

pct() { zcb_json "$T/$1-t.json" "$s0.tcp.$2_limited_pct"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
rw=$(pct rbuf rwnd) sb=$(pct sbuf sndbuf) rw0=$(pct plain rwnd) sb0=$(pct plain sndbuf)
{ gt "$rw" 40 && gt "$rw" "$(awk -v x="$rw0" 'BEGIN { print x + 15 }')"; } ||
	zcb_fail "a receiver's 32 KB buffer: rwnd-limited $rw% (without it $rw0%)"
{ gt "$sb" 20 && gt "$sb" "$(awk -v x="$sb0" 'BEGIN { print x + 15 }')"; } ||
	zcb_fail "a sender's 32 KB buffer: sndbuf-limited $sb% (without it $sb0%)"
zcb_ok "100 Mbit/s tbf: rwnd-limited $rw0% -> $rw% with -r -b 32k, sndbuf-limited $sb0% -> $sb% with -t -b 32k"

# ss's total against the intervals' sum when it ran
grep -q '^ESTAB' "$T/ss.txt" || { cat "$T/ss.txt"; zcb_fail "ss -ti did not show the connection"; }
# ss leaves retrans:X/TOTAL out when nothing was retransmitted
total=$(sed -n 's/.* retrans:[0-9]*\/\([0-9]*\).*/\1/p' "$T/ss.txt" | head -1)
total=${total:-0}
ours=$(sed -n 's/.* retr \([0-9]*\) cwnd .*/\1/p' "$T/ss-t.txt.at" | awk '{ s += $1 } END { print s + 0 }')
grep -q ' 0 bytes .* retr 0 ' "$T/ss-after" || zcb_fail "the interval after ss moved: $(cat "$T/ss-after")"
[ "$total" -gt 0 ] || zcb_skip "no retransmit through a 32 KB queue here: nothing to check against ss"
[ "$ours" = "$total" ] || { cat "$T/ss.txt" "$T/ss-t.txt.at"; zcb_fail "retransmits: ours $ours, ss -ti $total"; }
[ "$(zcb_json "$T/ss-t.json" "$s0 | ([.intervals[].tcp.retrans] | add) == .tcp.retrans")" = true ] ||
	zcb_fail "the intervals' retransmits do not add up to the sample's"
[ "$(zcb_json "$T/ss-t.json" "$s0.metrics.tcp_local_retrans >= $total")" = true ] || zcb_fail "tcp_local_retrans below ss's"
zcb_ok "retransmits $ours, as ss -ti counts them ($total), on a 32 KB tbf queue"
