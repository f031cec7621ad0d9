#!/usr/bin/env bash
# report-primary.sh: compare --judge primary and --mann-whitney (issue
# 26, item 2), on documents of given values (tests/data/report/mkvals.sh):
# 1. --judge primary judges each tool's short list (lib/doc/primary.c)
#    and shows the rest as context: a 6% drop of msgs/s that
#    Benjamini-Hochberg over 33 rows hides (q 1) is flagged over the one
#    judged row; cpu_box_procstat_pct, the same figure as cpu_box_pct,
#    is left out (one row); the JSON document says so;
# 2. --judge all is the default, byte for byte;
# 3. --mann-whitney off: a row Welch finds (p 0.02) and the rank test
#    does not (an outlier, p 0.06) is flagged; require (the default) not;
# 4. a side's service demand is its CPU-normalised rate upside down
#    (sd_local_us_per_kb = 1024 / MB_per_cpu_s_local): one row, the rate
#    judged; where the samples say otherwise, both are; one box: the
#    remote figure with the local one's samples (to 0.5%: two readings
#    of one box) is one row, on two hosts its own.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

# chat FILE LABEL MSGS: a chatbench case with 30 figures of context, its
# box CPU under two names (procstat the primary meter) and msgs/s MSGS
ctx=$(jq -nc '[range(1; 31)] | map({key: "x\(.)_s", value: [1, 1.1, 0.9, 1]}) | from_entries')
chat() {
	mkvals "$1" chatbench "$2" "$(jq -nc --argjson ctx "$ctx" --argjson m "$3" '[{
		params: {rooms: 10, model: "threads"},
		metrics: ($ctx + {msgs_per_s: $m, cpu_box_pct: [40, 41, 39, 40],
				  cpu_box_procstat_pct: [40, 41, 39, 40]})}]')"
}
chat "$d/a.json" 6.18 '[1000, 1040, 960, 1000]'
chat "$d/b.json" 6.19 '[940, 977.6, 902.4, 940]'

# 1. the primary list judged, the rest context, the alias left out
rc=0
"$Z" compare "$d/a.json" "$d/b.json" >"$d/all" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "compare (all): exit $rc: $(cat "$d/all")"
grep -q '^Hmean  chatbench rooms=10 model=threads .* -6.00%) .*1.0000 (0.0367/n<5)' "$d/all" ||
	zcb_fail "all: msgs/s not judged over every row: $(grep -A2 '^msgs_per_s' "$d/all")"
grep -q '33 rows, 33 judged, 0 regressions' "$d/all" || zcb_fail "all: $(tail -1 "$d/all")"
rc=0
"$Z" compare --judge primary "$d/a.json" "$d/b.json" >"$d/pri" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "compare --judge primary: exit $rc (1: flagged): $(cat "$d/pri")"
grep -q '^Hmean  chatbench rooms=10 model=threads .* -6.00%)  \*  0.0367 (0.0367/n<5) .*REGRESSION (n=4/4)$' "$d/pri" ||
	zcb_fail "primary: msgs/s not flagged: $(grep -A2 '^msgs_per_s' "$d/pri")"
grep -A2 '^x7_s ' "$d/pri" | grep -q 'context: not judged (n=4/4)$' || zcb_fail "x7_s not context: $(grep -A2 '^x7_s' "$d/pri")"
grep -A2 '^cpu_box_pct ' "$d/pri" | grep -q 'context: not judged' || zcb_fail "cpu_box_pct: $(cat "$d/pri")"
! grep -q '^cpu_box_procstat_pct' "$d/pri" || zcb_fail "the alias has a row of its own"
grep -q '^judged: each tool.s primary metrics (--judge primary; zcbreport(1) lists them); 31 rows of context, not judged; rows of a figure under a second name left out' "$d/pri" ||
	zcb_fail "no note of what was judged: $(tail -3 "$d/pri")"
grep -q '32 rows, 1 judged, 1 regression flagged' "$d/pri" || zcb_fail "primary: $(tail -1 "$d/pri")"
"$Z" compare --judge primary -f json "$d/a.json" "$d/b.json" >"$d/pri.json" 2>/dev/null
jq -e '.judge == "primary" and .context_rows == 31 and .alias_rows == 1 and .tests == 1 and
	.flagged == 1 and ([.rows[] | select(.metric == "x3_s") | .kernels[0].verdict] ==
	["context: not judged"])' "$d/pri.json" >/dev/null || zcb_fail "JSON: $(jq -c 'del(.rows)' "$d/pri.json")"
# a markdown table (N-kernel layout) says it too
"$Z" compare --judge primary -f markdown "$d/a.json" "$d/b.json" 2>/dev/null |
	grep -q '^judged: each tool.s primary metrics' || zcb_fail "markdown: no note of what was judged"
zcb_ok "--judge primary: the short list judged (BH over it), context shown, the alias left out"

# 2. --judge all --mann-whitney require is the default, byte for byte
for f in text json csv; do
	"$Z" compare -f "$f" "$d/a.json" "$d/b.json" >"$d/def.$f" 2>&1
	"$Z" compare -f "$f" --judge all --mann-whitney require "$d/a.json" "$d/b.json" >"$d/exp.$f" 2>&1
	cmp -s "$d/def.$f" "$d/exp.$f" || zcb_fail "$f: the default is not --judge all --mann-whitney require"
done
rc=0
"$Z" compare --judge some "$d/a.json" "$d/b.json" >"$d/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q -- '--judge: "some" is not all or primary' "$d/bad"; } || zcb_fail "--judge some: exit $rc: $(cat "$d/bad")"
zcb_ok "--judge all and --mann-whitney require are the defaults"

# 3. Welch finds it, the rank test does not (one outlier): off flags it
mkvals "$d/c.json" ttcp-sf 6.18 '[{"params": {"method": "write"},
	"metrics": {"throughput_MBps": [100, 101, 99, 100, 102, 98]}}]'
mkvals "$d/e.json" ttcp-sf 6.19 '[{"params": {"method": "write"},
	"metrics": {"throughput_MBps": [92, 93, 91, 92, 94, 103]}}]'
rc=0
"$Z" compare "$d/c.json" "$d/e.json" >"$d/req" 2>&1 || rc=$?
{ [ $rc = 0 ] && grep -q '0.0209 (0.0209/0.0646) .*no change' "$d/req"; } ||
	zcb_fail "require: exit $rc: $(cat "$d/req")"
rc=0
"$Z" compare --mann-whitney off "$d/c.json" "$d/e.json" >"$d/off" 2>&1 || rc=$?
{ [ $rc = 1 ] && grep -q '\*  0.0209 (0.0209/off) .*REGRESSION (n=6/6)$' "$d/off" &&
	grep -q '^the rank test is off (--mann-whitney off): a flag needs Welch.s q alone$' "$d/off"; } ||
	zcb_fail "off: exit $rc: $(cat "$d/off")"
"$Z" compare --mann-whitney off -f json "$d/c.json" "$d/e.json" 2>/dev/null |
	jq -e '.mann_whitney == "off" and .rows[0].kernels[0].rank_p == null and .flagged == 1' >/dev/null ||
	zcb_fail "off: the JSON document"
zcb_ok "--mann-whitney off flags on Welch's q alone; require needs the rank test too"

# 4. the same figure for both ends of one box: one row; two hosts: two
onebox() { # onebox FILE LABEL MBREMOTE [SDLOCAL]: a ttcp-sf case, per-CPU rates and SDs
	mkvals "$1" ttcp-sf "$2" "$(jq -nc --argjson r "$3" --argjson sdl "${4:-null}" '
		[200, 202, 198, 200] as $l | [{params: {method: "write"},
		metrics: {throughput_MBps: [100, 101, 99, 100],
			  MB_per_cpu_s_local: $l, MB_per_cpu_s_remote: $r,
			  sd_local_us_per_kb: ($sdl // [$l[] | 1024 / .]),
			  sd_remote_us_per_kb: [$r[] | 1024 / .]}}]')"
}
onebox "$d/f.json" 6.18 '[200.3, 202.1, 197.7, 200.2]'
onebox "$d/g.json" 6.19 '[200.3, 202.1, 197.7, 200.2]'
"$Z" compare --judge primary -f json "$d/f.json" "$d/g.json" >"$d/box.json" 2>/dev/null
jq -e '.alias_rows == 3 and .tests == 2 and
	([.rows[].metric] | sort) == ["MB_per_cpu_s_local", "throughput_MBps"]' \
	"$d/box.json" >/dev/null || zcb_fail "one box: $(jq -c '[del(.rows), [.rows[].metric]]' "$d/box.json")"
onebox "$d/h.json" 6.18 '[140, 141, 139, 140]'
onebox "$d/i.json" 6.19 '[140, 141, 139, 140]'
"$Z" compare --judge primary -f json "$d/h.json" "$d/i.json" >"$d/two.json" 2>/dev/null
jq -e '.alias_rows == 2 and .tests == 3 and
	([.rows[].metric] | sort) == ["MB_per_cpu_s_local", "MB_per_cpu_s_remote", "throughput_MBps"]' \
	"$d/two.json" >/dev/null || zcb_fail "two hosts: $(jq -c '[del(.rows), [.rows[].metric]]' "$d/two.json")"
# a service demand the samples do not make the rate's reciprocal: judged
onebox "$d/j.json" 6.18 '[140, 141, 139, 140]' '[0.5, 0.51, 0.49, 0.5]'
onebox "$d/k.json" 6.19 '[140, 141, 139, 140]' '[0.5, 0.51, 0.49, 0.5]'
"$Z" compare --judge primary -f json "$d/j.json" "$d/k.json" >"$d/nr.json" 2>/dev/null
jq -e '.alias_rows == 1 and any(.rows[]; .metric == "sd_local_us_per_kb")' \
	"$d/nr.json" >/dev/null || zcb_fail "not reciprocal: $(jq -c '[del(.rows), [.rows[].metric]]' "$d/nr.json")"
zcb_ok "a service demand is its CPU-normalised rate's row; a remote figure with the local one's samples is one row; the rate is judged"
