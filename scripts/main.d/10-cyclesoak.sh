#!/usr/bin/env bash
# 10-cyclesoak: the CPU meter every later part uses. Calibrate on this box
# (or reuse a calibration made on this kernel and CPU count), then a short
# self-test: known loads with each meter's error, and what the soakers
# cost a CPU task and a loopback stream. Documents in $ZCB_OUT/cyclesoak/.
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
cs=$(zcb_tool cyclesoak) || { echo "10-cyclesoak: no cyclesoak (build first)" >&2; exit 1; }
out="$ZCB_OUT/cyclesoak"
mkdir -p "$out"
calib="${XDG_STATE_HOME:-$HOME/.local/state}/zcbench/calibration.json"

# a calibration whose rounds disagreed (stored with --force) read a busy
# box: every load measured against it reads low, so it is not reused
if [ -s "$calib" ] && jq -e --arg k "$(uname -r)" --argjson n "$(nproc)" \
	'.kernel_release == $k and .online_cpus == $n and .spread_pct <= 3' "$calib" >/dev/null 2>&1; then
	echo "cyclesoak: reusing the calibration made $(jq -r .made "$calib") ($calib)"
else
	ok=0
	for try in 1 2 3; do
		if "$cs" --calibrate; then ok=1; break; fi
		echo "cyclesoak: calibration attempt $try refused (box not idle); retrying in 2s"
		sleep 2
	done
	if [ $ok = 0 ]; then
		# Never store a calibration made on a busy box where later runs
		# would trust it: keep it with this run only (the self-test uses
		# it; the other parts fall back to procstat, and say so).
		calib="$out/calibration-forced.json"
		echo "cyclesoak: WARNING: the box never went idle; a forced calibration for this run only ($calib): soak figures in it read low"
		"$cs" --calibrate --force --calib-file "$calib" || exit 1
	fi
fi

"$cs" --selftest --duration 1 --calib-file "$calib" --label "$ZCB_LABEL" \
	-o "$out/selftest.json" || exit 1
err=$(jq '[.cases[] | select(.params.meter == "soak") | .samples[0].metrics.error_pts // 0 | fabs] | max // 0' \
	"$out/selftest.json" 2>/dev/null)
if awk -v e="${err:-0}" 'BEGIN { exit !(e > 5) }'; then
	err=$(awk -v e="$err" 'BEGIN { printf "%.1f", e }')
	echo "cyclesoak: WARNING: the soak meter was off by up to $err points on the known loads: recalibrate on an idle box (cyclesoak --calibrate); soak figures of this run read wrong by as much"
fi
echo "cyclesoak: documents in $out"
