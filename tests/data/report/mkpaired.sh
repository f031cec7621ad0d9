# shellcheck shell=bash
# mkpaired.sh: paired-run result documents for zcbreport's tests
# (sourced), shaped as the tools write them with the soak meter
# (lib/doc/SCHEMA.md "Paired runs"). Each case runs its pairs metered
# then unmetered: the unmetered run carries the tool's figures under
# their names, the metered run the soak CPU under its plain names and
# the rest as metered_<name>, scaled by the pair's ratio; the case's
# perturbation is computed as lib/doc/result.c computes it.
#   mkpaired FILE TOOL LABEL CASES
# CASES: a JSON array of
#   {params: {...},
#    ratios: [r0, r1, ...],       metered rate / unmetered rate per pair
#    base: {metric: v, ...},      the unmetered run's figures (pair k: v*(1+k/100))
#    soak: {metric: v, ...},      the soak CPU figures of the metered runs
#    procstat: {metric: v, ...},  /proc/stat figures of both kinds of run
#    sides: ["local", ...]}       optional: sides whose CPU entries the
#                                 runs carry besides soak's cpu_<side>_pct
# The first metric of base is the rate the perturbation is judged on.
# MK_METER=profile: the metered runs ran the profile meter (--profile),
# not soak.
# MK_UNPAIRED=1 writes an older document instead: one soaked run per
# pair, unpaired (no soak/pair marks), its figures under their names.
mkpaired() {
	local file=$1 tool=$2 label=$3 cases=$4
	jq -n --arg tool "$tool" --arg lbl "$label" --argjson cases "$cases" \
		--argjson unpaired "${MK_UNPAIRED:-0}" --arg meter "${MK_METER:-soak}" '
	# Student t, 97.5% quantile, by degrees of freedom (n pairs - 1)
	def tq: {"1": 12.706204736174696, "2": 4.302652729749461,
		 "3": 3.182446305284263};
	def units: {throughput_MBps: "MB/s", ops_per_s: "ops/s",
		    msgs_per_s: "msg/s", elapsed_s: "s", real_s: "s",
		    system_s: "s", user_s: "s"};
	def unit($m): units[$m] // (if $m | test("^sd_") then "us/KB"
					elif $m | test("_pct$") then "%" else "1" end);
	def is_rate($m): $m | test("_per_s$|_MBps$");
	def cpu_entry($meter; $v; $ok):
		if $ok then {meter: $meter, ok: true, scope: "box", ncpu: 2,
			     busy_pct: $v, elapsed_s: 1}
		else {meter: $meter, ok: false, paused: true, scope: "box",
		      ncpu: 0, busy_pct: 0, elapsed_s: 1,
		      error: "soakers paused: the unmetered run of a pair"} end;
	def sides($c; $metered):
		([($c.soak // {}) | keys[] | capture("^cpu_(?<s>[a-z]+)_pct$").s] +
		 ($c.sides // [])) | unique | map({key: ., value: [
			cpu_entry($meter; ($c.soak["cpu_" + . + "_pct"]); $metered),
			cpu_entry("procstat"; 30; true)]}) | from_entries;
	def scaled($c; $k): $c.base | with_entries(
		.value = (if is_rate(.key) then .value * (1 + $k / 100)
			  else .value end));
	def unmetered($c; $k):
		{pair: $k, soak: false, cpu: sides($c; false),
		 metrics: (scaled($c; $k) + ($c.procstat // {}))};
	def metered($c; $k; $r):
		{pair: $k, soak: true, cpu: sides($c; true),
		 metrics: (($c.soak // {}) +
			   ((scaled($c; $k) + ($c.procstat // {})) |
			    with_entries(.key = "metered_" + .key |
				.value = (if is_rate(.key[8:]) then .value * $r
					  else .value end))))};
	def perturbation($c):
		($c.ratios | length) as $n | ($c.ratios | map(log)) as $l |
		($l | add / $n) as $m |
		(if $n > 1 then
			(($l | map((. - $m) * (. - $m)) | add) / ($n - 1) | sqrt) *
			tq[($n - 1) | tostring] / ($n | sqrt)
		 else null end) as $h |
		{metric: ($c.base | keys_unsorted[0]), ratio: ($m | exp),
		 ci95: (if $h == null then [null, null]
			else [($m - $h | exp), ($m + $h | exp)] end),
		 pairs: $n, min: ($c.ratios | min), max: ($c.ratios | max),
		 formula: "geometric mean over pairs of metered/unmetered; ci95: Student t on the log ratios"};
	def old($s): $s | del(.soak, .pair) | .cpu |= map_values(map(.ok = true | del(.paused, .error))) |
		.metrics |= with_entries(.key |= sub("^metered_"; ""));
	def paired_case($c):
		{params: $c.params, summary: {},
		 samples: [range($c.ratios | length) as $k |
			   metered($c; $k; $c.ratios[$k]), unmetered($c; $k)],
		 perturbation: perturbation($c)};
	def old_case($c):
		{params: $c.params, summary: {},
		 samples: [range($c.ratios | length) as $k |
			   old(metered($c; $k; $c.ratios[$k]))]};
	[$cases[] | .base, (.soak // {}), (.procstat // {}) | keys[]] | unique as $names |
	{schema: "zcbench-result/1", tool: $tool, tool_version: "test",
	 run_id: "0123456789abcdef", label: $lbl,
	 started: "2026-01-01T00:00:00Z", finished: "2026-01-01T00:01:00Z",
	 command: [$tool, "--cpu=soak"], status: "ok", error: null, warnings: [],
	 host: {hostname: "h", kernel_release: $lbl, cpu_model: "Test CPU",
		online_cpus: 2, cmdline: "ro quiet", sysctls: {}},
	 metrics: ([$names[] | {key: ., value: {unit: unit(.),
			better: (if is_rate(.) then "higher" else "lower" end),
			rate: is_rate(.)}}] | from_entries |
		   if $unpaired == 1 then . else
		   . + (with_entries(select(.key | test("^(cpu|sd)_") | not) |
				     .key = "metered_" + .key)) +
		       (with_entries(select(.key | test("_procstat_")) |
				     .key = "metered_" + .key)) end),
	 cases: [$cases[] | if $unpaired == 1 then old_case(.) else paired_case(.) end]}
	' >"$file"
}
