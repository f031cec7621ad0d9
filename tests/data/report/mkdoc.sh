# shellcheck shell=bash
# mkdoc.sh: synthetic result documents for zcbreport's tests (sourced).
#   mkdoc FILE LABEL MEAN SD N SEED
# writes a valid zcbench-result/1 document with one case whose N samples
# of throughput_MBps are drawn from normal(MEAN, SD) (awk, seeded) and
# cpu_local_pct = 2000 / throughput. Environment overrides:
#   MK_TOOL (ttcp-sf) MK_PARAMS (JSON params) MK_KERNEL (= LABEL)
#   MK_UNIT (MB/s) MK_SCHEMA (zcbench-result/1) MK_VALUES (comma list,
#   replaces the random draw) MK_CASES (number of cases, size 2^k each)
mkdoc() {
	local file=$1 label=$2 mean=$3 sd=$4 n=$5 seed=$6 vals
	if [ -n "${MK_VALUES:-}" ]; then
		vals=$MK_VALUES
	else
		vals=$(awk -v m="$mean" -v s="$sd" -v n="$n" -v seed="$seed" 'BEGIN {
			srand(seed)
			for (i = 0; i < n; i++) {
				u1 = rand(); u2 = rand()
				z = sqrt(-2 * log(u1 + 1e-12)) * cos(6.283185307 * u2)
				printf "%s%.6f", (i ? "," : ""), m + s * z
			}}')
	fi
	jq -n --arg lbl "$label" --arg kr "${MK_KERNEL:-$label}" \
		--arg tool "${MK_TOOL:-ttcp-sf}" --arg unit "${MK_UNIT:-MB/s}" \
		--arg schema "${MK_SCHEMA:-zcbench-result/1}" \
		--argjson params "${MK_PARAMS:-{\"method\":\"sendfile\",\"size\":65536\}}" \
		--argjson ncases "${MK_CASES:-1}" --argjson v "[$vals]" '
	{schema: $schema, tool: $tool, tool_version: "test",
	 run_id: "0123456789abcdef", "label": $lbl,
	 started: "2025-01-01T00:00:00Z", finished: "2025-01-01T00:01:00Z",
	 command: [$tool], status: "ok", error: null, warnings: [],
	 host: {hostname: "h", kernel_release: $kr, cpu_model: "Test CPU",
		online_cpus: 2, cmdline: "ro quiet",
		sysctls: {"net.core.rmem_max": "212992"}},
	 metrics: {throughput_MBps: {unit: $unit, better: "higher", rate: true},
		cpu_local_pct: {unit: "%", better: "lower", rate: false}},
	 cases: [range($ncases) as $k | {
		params: (if $ncases > 1 then $params + {size: (1024 * pow(2; $k))}
			else $params end),
		samples: [$v[] | {metrics: {throughput_MBps: (. * (1 + $k)),
			cpu_local_pct: (2000 / .)},
			cpu: {local: [{meter: "procstat", ok: true, scope: "box",
				busy_pct: (2000 / .)}]}}],
		summary: {}}]}' >"$file"
}
