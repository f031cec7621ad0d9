# shellcheck shell=bash
# mkvals.sh: result documents with given sample values, for zcbreport's
# judging tests (sourced): a night of a tool whose every figure is named.
#   mkvals FILE TOOL LABEL CASES
# CASES: a JSON array of
#   {params: {...}, metrics: {metric: [v0, v1, ...], ...}}
# sample i carries every metric's i-th value (a shorter list: none).
# A metric's unit and direction follow its name as the tools name them
# (rates *_per_s, *_MBps, *_per_cpu_s and a side's *_per_cpu_s_SIDE:
# higher; the rest lower).
# A case's optional probe: [p0, p1, ...] gives sample i a box probe of
# p_i Mops (lib/run/probe.h; compare --history adjusts for it).
# MK_STARTED, MK_FINISHED: the document's times (default 2026-01-01
# 00:00:00 and 00:01:00 UTC).
# MK_HIST=P99_US: each sample also carries a latency_hist (lib/doc/SCHEMA.md)
# of 100 transactions: 98 at 10 us, then P99_US[i] and 10 x that (us).
mkvals() {
	local file=$1 tool=$2 label=$3 cases=$4
	jq -n --arg tool "$tool" --arg lbl "$label" --argjson cases "$cases" \
		--argjson hist "${MK_HIST:-null}" --arg started "${MK_STARTED:-2026-01-01T00:00:00Z}" \
		--arg finished "${MK_FINISHED:-2026-01-01T00:01:00Z}" '
	def is_rate($m): $m | test("_per_s$|_MBps$|_per_cpu_s(_[a-z]+)?$");
	def unit($m): if $m | test("_MBps$") then "MB/s"
		elif $m | test("_pct$") then "%" elif $m | test("_us$") then "us"
		elif $m | test("_per_s$") then "1/s" else "1" end;
	def hist($p): ($p * 1000 | floor) as $v |
		{unit: "ns", sub_bits: 7, count: 100, min: 10000, max: ($v * 10),
		 sum: (98 * 10000 + 11 * $v),
		 buckets: [[10000 - (10000 % 64), 98], [$v - ($v % (pow(2; ($v | log2 | floor) - 7))), 1],
			   [($v * 10) - (($v * 10) % (pow(2; (($v * 10) | log2 | floor) - 7))), 1]]};
	def sample($c; $i): {metrics: ($c.metrics | with_entries(
		select(.value | length > $i) | .value = .value[$i]))} +
		(if $hist == null then {} else {latency_hist: hist($hist[$i])} end) +
		(if ($c.probe // []) | length > $i
		 then {probe: {Mops: $c.probe[$i], ms: 100, ncpu: 2}} else {} end);
	[$cases[].metrics | keys[]] | unique as $names |
	{schema: "zcbench-result/1", tool: $tool, tool_version: "test",
	 run_id: "0123456789abcdef", label: $lbl,
	 started: $started, finished: $finished,
	 command: [$tool], status: "ok", error: null, warnings: [],
	 host: {hostname: "h", kernel_release: $lbl, cpu_model: "Test CPU",
		online_cpus: 2, cmdline: "ro quiet", sysctls: {}},
	 metrics: ([$names[] | {key: ., value: {unit: unit(.),
		better: (if is_rate(.) then "higher" else "lower" end),
		rate: is_rate(.)}}] | from_entries),
	 cases: [$cases[] | . as $c | {params: .params, summary: {},
		samples: [range([.metrics[] | length] | max) as $i | sample($c; $i)]}]}
	' >"$file"
}
