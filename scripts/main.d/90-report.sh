#!/usr/bin/env bash
# 90-report: every seed table from the fresh runs in $ZCB_OUT (a layout
# whose tool produced nothing is skipped with a note), then the plots:
# $ZCB_OUT/plots/TOOL-METRIC.png and .txt (ASCII, printed here too).
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
Z=$(zcb_tool zcbreport) || { echo "90-report: zcbreport is not built" >&2; exit 1; }
mapfile -t docs < <(find "$ZCB_OUT" -name '*.json' -not -path '*/plots/*' | sort)
if [ ${#docs[@]} -eq 0 ]; then
	echo "90-report: no result documents under $ZCB_OUT: nothing to report"
	exit 0
fi
echo "90-report: ${#docs[@]} result documents under $ZCB_OUT"
echo
rc=0
"$Z" table --layout all "$ZCB_OUT" || rc=$?
[ $rc -le 1 ] || echo "90-report: no seed layout had data (exit $rc)"

mkdir -p "$ZCB_OUT/plots"
mapfile -t tools < <(jq -r 'select(.status == "ok") | .tool' "${docs[@]}" 2>/dev/null | sort -u)
for tool in "${tools[@]}"; do
	for metric in throughput_MBps cpu_local_pct; do
		out="$ZCB_OUT/plots/$tool-$metric"
		if "$Z" plot -q --tool "$tool" -y "$metric" -o "$out" "$ZCB_OUT" >/dev/null 2>&1; then
			echo
			cat "$out.txt"
			echo "(plot: $out.png, $out.txt)"
		else
			echo "(no $metric plot for $tool: no size-keyed cases with it)"
		fi
	done
done
exit 0
