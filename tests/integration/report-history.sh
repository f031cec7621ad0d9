#!/usr/bin/env bash
# report-history.sh: zcbreport compare --history NIGHT... NEW (issue 26,
# item 5): a new night judged against the baseline's last nights, each
# night a block (its figure), their spread the noise, the new night's own
# samples its measurement error (report/compare/cmpnight.h). Five nights
# of one kernel drift 2-3% between them while each is measured to 0.5%
# (a shared box: its samples share the night's conditions):
# 1. an unchanged night 2.7% below the nights' mean (6% below the last
#    one, their highest): compare against the
#    last night flags it (the false alarm of the issue's A/A night);
#    against the history it is not flagged;
# 2. a night 10% below is flagged, its row saying the nights and n, the
#    notes how it was judged, the JSON its nights, spread, t and df;
# 3. fewer than 3 nights: refused; a metric only 2 nights have: its row
#    says so; --split is refused with --history;
# 4. --judge primary: context rows not judged against the nights;
# 5. a latency percentile: each night's figure from its merged
#    histograms (Hist).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

# night FILE LABEL MB [EXTRA]: a ttcp-sf case whose 3 samples are MB
# +- 0.5%, service demand 1 us/KB +- 1% (and EXTRA, a JSON object of
# more metrics)
night() {
	mkvals "$1" ttcp-sf "$2" "$(jq -nc --argjson b "$3" --argjson x "${4:-{\}}" '[{
		params: {method: "write", size: 65536},
		metrics: ({throughput_MBps: [$b, $b * 1.005, $b * 0.995],
			   sd_local_us_per_kb: [1, 1.01, 0.99],
			   elapsed_s: [2, 2.02, 1.98]} + $x)}]')"
}
nights=()
i=0
for mb in 100 97 98 102 104; do
	i=$((i + 1))
	x='{}'
	[ $i -ge 4 ] && x='{"trans_per_s": [10, 10.1, 9.9]}'
	night "$d/n$i.json" 6.18 "$mb" "$x"
	nights+=("$d/n$i.json")
done
night "$d/same.json" 6.18 97.5 '{"trans_per_s": [10, 10.1, 9.9]}'
night "$d/down.json" 6.19 90.2 '{"trans_per_s": [10, 10.1, 9.9]}'

# row FILE METRIC: the rows of one metric's table
row() { sed -n "/^$2 (/,/^\$/p" "$1" | grep '^[HA]mean\|^Hist'; }

# 1. the unchanged night: a false alarm against one night, none here
rc=0
"$Z" compare "$d/n5.json" "$d/same.json" >"$d/one" 2>&1 || rc=$?
{ [ $rc = 1 ] && row "$d/one" throughput_MBps | grep -q 'REGRESSION'; } ||
	zcb_fail "against the last night alone: exit $rc (expected the false alarm): $(cat "$d/one")"
rc=0
"$Z" compare --history "${nights[@]}" "$d/same.json" >"$d/same" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "--history, unchanged night: exit $rc: $(cat "$d/same")"
row "$d/same" throughput_MBps | grep -Eq '^Hmean  ttcp-sf method=write size=65536 +100\.2  \+- 2\.9%  \(   0\.00%\)  97\.50  \+- 0\.5%  \(  -2\.66%\)    0\.[0-9]+ \(0\.[0-9]+/5 nights\) .* no change > [0-9.]+% \(5 nights, n=15/3\)$' ||
	zcb_fail "--history, unchanged night's row: $(row "$d/same" throughput_MBps)"
zcb_ok "an unchanged night inside the nights' spread: flagged against one night, not against the history"

# 2. 10% down: flagged
rc=0
"$Z" compare --history "${nights[@]}" "$d/down.json" >"$d/down" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "--history, 10% down: exit $rc: $(cat "$d/down")"
row "$d/down" throughput_MBps | grep -Eq '^Hmean  ttcp-sf method=write size=65536 +100\.2  \+- 2\.9% .*\(  -9\.95%\)  \*  0\.[0-9]+ \(0\.[0-9]+/5 nights\)  0\.900 \[0\.[0-9]+, 0\.[0-9]+\]  REGRESSION \(5 nights, n=15/3\)$' ||
	zcb_fail "--history, 10% down: $(row "$d/down" throughput_MBps)"
grep -q '^                      *6.18 (5 nights) .* 6.19 .*q (p/nights)' "$d/down" || zcb_fail "the head: $(cat "$d/down")"
grep -q '^history: each row against the baseline.s 5 nights (those that have it: "k nights"): its figure the nights. geometric mean, +- their spread' "$d/down" ||
	zcb_fail "no note of how the rows were judged: $(tail -3 "$d/down")"
"$Z" compare --history -f json "${nights[@]}" "$d/down.json" >"$d/down.json.out" 2>/dev/null
jq -e '.rows[] | select(.metric == "throughput_MBps") | .kernels[0] |
	.verdict == "REGRESSION" and .history.nights == 5 and .history.df == 4 and
	(.history.spread_pct | . > 2.8 and . < 3) and .history.t < -3 and .q < 0.05' \
	"$d/down.json.out" >/dev/null || zcb_fail "JSON: $(jq -c '.rows[0]' "$d/down.json.out")"
"$Z" compare --history -f markdown "${nights[@]}" "$d/down.json" 2>/dev/null | grep -q '^history: each row' ||
	zcb_fail "markdown: no note of how the rows were judged"
zcb_ok "a night 10% down is flagged against the nights' spread; text, markdown and JSON say how"

# 3. too few nights
rc=0
"$Z" compare --history "$d/n1.json" "$d/n2.json" "$d/down.json" >"$d/few" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'compare --history: 2 nights of the baseline given; at least 3 are needed, then NEW' "$d/few"; } ||
	zcb_fail "2 nights: exit $rc: $(cat "$d/few")"
row "$d/down" trans_per_s | grep -q 'not judged: 2 nights of history, 3 needed (n=6/3)$' ||
	zcb_fail "a metric of 2 nights: $(row "$d/down" trans_per_s)"
rc=0
"$Z" compare --history --split method=a,b "${nights[@]}" "$d/down.json" >"$d/split" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'compare --history: not with --split' "$d/split"; } || zcb_fail "--split: exit $rc: $(cat "$d/split")"
zcb_ok "fewer than 3 nights: said, for the compare and for a row"

# 4. --judge primary: elapsed_s is context
"$Z" compare --history --judge primary "${nights[@]}" "$d/down.json" >"$d/pri" 2>&1
row "$d/pri" elapsed_s | grep -q 'context: not judged (n=15/3)$' || zcb_fail "primary: $(row "$d/pri" elapsed_s)"
row "$d/pri" throughput_MBps | grep -q 'REGRESSION (5 nights' || zcb_fail "primary: $(row "$d/pri" throughput_MBps)"
zcb_ok "--history --judge primary: context rows not judged"

# 5. p99 from each night's merged histograms: runs of p99 P, P+10, P+20
# merge into P+20
rr=()
for i in 1 2 3 4; do
	p=$((100 + i))
	MK_HIST="[$p, $((p + 10)), $((p + 20))]" mkvals "$d/r$i.json" ttcp-sf 6.18 \
		"[{\"params\": {\"workload\": \"tcp_rr\"}, \"metrics\": {\"lat_p99_us\": [$p, $((p + 10)), $((p + 20))]}}]"
	rr+=("$d/r$i.json")
done
MK_HIST='[150, 160, 170]' mkvals "$d/rnew.json" ttcp-sf 6.19 \
	'[{"params": {"workload": "tcp_rr"}, "metrics": {"lat_p99_us": [150, 160, 170]}}]'
"$Z" compare --history "${rr[@]}" "$d/rnew.json" >"$d/rr" 2>&1
row "$d/rr" lat_p99_us | grep -Eq '^Hist  ttcp-sf workload=tcp_rr +122\.[0-9]  .* 170\.[0-9]  .*REGRESSION \(4 nights, n=12/3\)$' ||
	zcb_fail "p99 against the nights: $(row "$d/rr" lat_p99_us)"
zcb_ok "a latency percentile against the nights: each night's merged histograms"
