#!/usr/bin/env bash
# 90-report: every seed table from the fresh runs in $ZCB_OUT (a layout
# whose tool produced nothing is skipped with a note), then the
# copy-against-zero-copy tables at one rate (20-ttcp-sf's rate/: every
# method at the same rate, apart from the saturated table), then the
# plots:
# $ZCB_OUT/plots/TOOL-METRIC.png and .txt (ASCII, printed here too), a
# multi-client tool's against the client count, and the ratios the
# seeds argue about (9P ZC/No ZC, ttcp-sf zero-copy/write) with their
# 95% interval; nothing for a tool with nothing to plot.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
Z=$(zcb_tool zcbreport) || { echo "90-report: zcbreport is not built" >&2; exit 1; }
# every document for the tables: the layout "all" gives a profiled run
# (20-ttcp-sf's profile/) to the profile layout only, never as extra rows
# of a seed table; the plots are of the experiment's runs, not profile/
# (the rate/ runs are the fixed-rate tables', printed apart below)
mapfile -t all < <(find "$ZCB_OUT" -name '*.json' -not -path '*/plots/*' \
	-not -path "$ZCB_OUT/rate/*" | sort)
mapfile -t docs < <(printf '%s\n' "${all[@]}" | grep -v "^$ZCB_OUT/profile/")
mapfile -t paced < <(find "$ZCB_OUT/rate" -name '*.json' 2>/dev/null | sort)
if [ ${#all[@]} -eq 0 ]; then
	echo "90-report: no result documents under $ZCB_OUT: nothing to report"
	exit 0
fi
echo "90-report: ${#all[@]} result documents under $ZCB_OUT"
echo
rc=0
"$Z" table --layout all "${all[@]}" || rc=$?
[ $rc -le 1 ] || echo "90-report: no seed layout had data (exit $rc)"
if [ ${#paced[@]} -gt 0 ]; then
	echo
	echo "--- at one rate: every send method at the same rate (the saturated table above has each at its own), so the CPU columns compare"
	for layout in zc-vs-copy ttcp-cpu; do
		"$Z" table --layout "$layout" "${paced[@]}" ||
			echo "90-report: no $layout table at a fixed rate"
		echo
	done
fi
[ ${#docs[@]} -gt 0 ] || exit 0

mkdir -p "$ZCB_OUT/plots"
mapfile -t tools < <(jq -r 'select(.status == "ok") | .tool' "${docs[@]}" 2>/dev/null | sort -u)
made=()
# plot NAME ARGS...: one plot into plots/NAME.{png,txt}, printed; a tool
# with nothing to plot (exit 2: no such metric, 3: nothing varies or no
# line of two points) prints nothing
plot() {
	local name=$1 out="$ZCB_OUT/plots/$1" r=0
	shift
	"$Z" plot -q -o "$out" "$@" "${docs[@]}" >/dev/null 2>"$out.err" || r=$?
	if [ $r = 0 ]; then
		echo
		cat "$out.txt"
		made+=("$out.png" "$out.txt")
	elif [ $r = 1 ] || [ $r -gt 3 ]; then
		echo "90-report: plot $name failed: $(head -1 "$out.err")"
	fi
	rm -f "$out.err"
}
# the values of a param in a tool's documents, one a line
values() { jq -r --arg t "$1" --arg p "$2" \
	'select(.status == "ok" and .tool == $t) | .cases[].params[$p] // empty' \
	"${docs[@]}" 2>/dev/null | sort -u; }
for tool in "${tools[@]}"; do
	metric=throughput_MBps
	[ "$tool" = chatbench ] && metric=msgs_per_s
	plot "$tool-$metric" --tool "$tool" -y "$metric"
	plot "$tool-cpu_local_pct" --tool "$tool" -y cpu_local_pct
	# multi-client runs against the client count
	[ "$(values "$tool" clients | wc -l)" -gt 1 ] &&
		plot "$tool-$metric-clients" --tool "$tool" -y "$metric" --x clients
	# the ratios the seeds argue about, with their 95% interval
	case "$tool" in
	p9bench) plot "$tool-zc-ratio" --tool "$tool" --ratio path=copy,direct ;;
	ttcp-sf)
		while IFS= read -r m; do
			[ "$m" = write ] || [ -z "$m" ] ||
				plot "$tool-$m-write-ratio" --tool "$tool" --ratio "method=write,$m"
		done < <(values "$tool" method)
		;;
	esac
done
echo
echo "90-report: ${#made[@]} plot files in $ZCB_OUT/plots:"
[ ${#made[@]} -eq 0 ] || printf '  %s\n' "${made[@]##*/}"
exit 0
