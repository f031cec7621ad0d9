#!/usr/bin/env bash
# ttcp-sched: ttcp-sf with the exact meter on both ends of one box
# (--cpu=sched,procstat). Each end's sched tells its own process apart
# ("self"), so the transmitter's document carries both sides' shares (its
# own, and the receiver's from the report) and the softirq time by
# vector, NET_RX above all on loopback; each side's share is inside the
# other side's "other". Where BPF cannot run here, skip with the reason.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq jq
T=$ZCB_TEST_TMP

tt_two s -c --cpu=sched,procstat -- -c --cpu=sched,procstat -l 65536 -n 4000
j=$T/s-t.json
cat "$T/s-t.txt"
why=$(zcb_json "$j" '.cases[0].samples[0].cpu.local[] | select(.meter == "sched") |
	select(.ok | not) | .why')
[ -n "$why" ] && zcb_skip "sched cannot run here: $why"
grep -q "cpu box    sched .*of .* CPUs" "$T/s-t.txt" || zcb_fail "no sched line"
grep -q "shares: self .*peer .*other" "$T/s-t.txt" || zcb_fail "no shares line"
grep -q "softirq .*NET_RX" "$T/s-t.txt" || zcb_fail "no NET_RX in the softirq line"

for side in local remote; do
	for k in self peer other hardirq softirq idle_softirq softirq_net_rx softirq_net_tx \
		softirq_timer softirq_rcu; do
		m=sched_${side}_${k}_pct
		[ "$(zcb_json "$j" ".cases[0].samples[0].metrics.$m | type")" = number ] ||
			zcb_fail "metric $m missing"
		zcb_json "$j" ".metrics | has(\"$m\")" | grep -qx true || zcb_fail "metric $m not declared"
	done
	zcb_json "$j" ".cases[0].samples[0].cpu.${side}[] | select(.meter == \"sched\") |
		.ok and .sched.softirq.NET_RX.count > 0 and .sched.softirq.NET_RX.pct > 0 and
		(.sched.softirq | length) == 10 and .sched.switches > 0" | grep -qx true ||
		zcb_fail "$side: the sched sample lacks its NET_RX softirqs: $(zcb_json "$j" ".cases[0].samples[0].cpu.${side}")"
done
# shellcheck disable=SC2016 # jq's variables
read -r ls rs lo ro < <(zcb_json "$j" '.cases[0].samples[0].metrics |
	[.sched_local_self_pct, .sched_remote_self_pct, .sched_local_other_pct,
	 .sched_remote_other_pct] | map(. * 10 | round / 10) | @tsv')
echo "transmitter $ls% (its other $lo%), receiver $rs% (its other $ro%)"
awk -v a="$ls" -v b="$rs" 'BEGIN { exit !(a > 0 && b > 0) }' ||
	zcb_fail "a side with no share: transmitter $ls%, receiver $rs%"
# the two windows differ by the report exchange: a point of slack
awk -v s="$rs" -v o="$lo" 'BEGIN { exit !(s <= o + 2) }' ||
	zcb_fail "the receiver's $rs% is not inside the transmitter's others $lo%"
awk -v s="$ls" -v o="$ro" 'BEGIN { exit !(s <= o + 2) }' ||
	zcb_fail "the transmitter's $ls% is not inside the receiver's others $ro%"
zcb_ok "both sides' shares (transmitter $ls%, receiver $rs%) and softirq by vector in the document"
