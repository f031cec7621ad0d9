#!/usr/bin/env bash
# report-percentile.sh: compare judges a latency percentile from the
# runs' merged histograms (issue 26, item 6). Each run of 100
# transactions (tests/data/report/mkvals.sh MK_HIST) has 98 at 10 us, its
# p99 P and one at 10 P; three runs of P 100, 110, 120 us merge into a
# p99 of 120 us (the 297th of 300), where the mean of the runs' p99s is
# 110. Checked:
# 1. the row's figure and change are the merged histograms' (120.1 and
#    156.2: +30.06%), marked Hist, with a note; its test is on the runs'
#    own p99s (Welch on logs: p 0.0244), and it is flagged;
# 2. the JSON cell says merged_histograms;
# 3. a side whose runs kept no histogram: the runs' mean, as before.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

# rr FILE LABEL P99S: a request/response case, its runs' p99s P99S
rr() {
	MK_HIST=$3 mkvals "$1" ttcp-sf "$2" "$(jq -nc --argjson p "$3" '[{
		params: {workload: "tcp_rr", size: 1, resp_size: 1},
		metrics: {lat_p99_us: $p, trans_per_s: [1000, 1010, 990]}}]')"
}
rr "$d/a.json" 6.18 '[100, 110, 120]'
rr "$d/b.json" 6.19 '[130, 143, 156]'

# 1. the merged figure, the runs' test
rc=0
"$Z" compare "$d/a.json" "$d/b.json" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "compare: exit $rc (1: flagged): $(cat "$d/cmp")"
grep -q '^Hist  ttcp-sf workload=tcp_rr size=1 resp_size=1  120.1  +- 9.1%  (   0.00%)  156.2  +- 9.1%  ( +30.06%)  \*  0.0487 (0.0244/n<5)  1.300 \[1.057, 1.599\]  REGRESSION (n=3/3)$' "$d/cmp" ||
	zcb_fail "the p99 row is not the merged histograms': $(grep -A2 '^lat_p99_us' "$d/cmp")"
grep -q '^Hist: 1 row of a latency percentile whose figure and change are those of each side.s runs. merged histograms' "$d/cmp" ||
	zcb_fail "no note of what Hist means: $(cat "$d/cmp")"
grep -q '^Hmean  ttcp-sf .*  999.9  +- 1.0%' "$d/cmp" || zcb_fail "a rate row changed: $(cat "$d/cmp")"
zcb_ok "p99 from the merged histograms (120 us, not the runs' mean 110), tested on the runs' p99s"

# 2. JSON
"$Z" compare -f json "$d/a.json" "$d/b.json" 2>/dev/null >"$d/cmp.json"
jq -e '.rows[] | select(.metric == "lat_p99_us") | (.base.value | . > 119 and . < 121) and
	.kernels[0].merged_histograms == true and (.kernels[0].value | . > 155 and . < 157)' \
	"$d/cmp.json" >/dev/null || zcb_fail "JSON: $(jq -c '.rows' "$d/cmp.json")"
jq -e '[.rows[] | select(.metric == "trans_per_s") | .kernels[0] | has("merged_histograms")] == [false]' \
	"$d/cmp.json" >/dev/null || zcb_fail "JSON: a rate marked merged"
zcb_ok "JSON: merged_histograms on the percentile's cell"

# 3. no histograms on a side: the runs' mean
jq 'del(.cases[].samples[].latency_hist)' "$d/b.json" >"$d/c.json"
"$Z" compare "$d/a.json" "$d/c.json" >"$d/cmp" 2>&1
grep -q '^Amean  ttcp-sf workload=tcp_rr size=1 resp_size=1  110.0 .*143.0' "$d/cmp" ||
	zcb_fail "without histograms: $(grep -A2 '^lat_p99_us' "$d/cmp")"
! grep -q '^Hist' "$d/cmp" || zcb_fail "Hist without histograms"
zcb_ok "without histograms on a side: the runs' mean, as before"
