#!/usr/bin/env bash
# power.d/40-chatbench: a short night's chatbench (nightly-power):
# 10 rooms x 20 users x $ZCB_POWER_MESSAGES messages (chat-1.0.1's
# exchange, 100 by default), threads model, /proc/stat CPU, server and
# clients in one process: $ZCB_POWER_PROCS processes (8) of
# $ZCB_POWER_RUNS runs (2) each, one after another, a document each
# (power.json, power-2.json, ...; compare pools them into the one case).
# Several processes, not one with more runs: each chatbench process
# carries an offset of its own that its runs share (here 5.5% sd across
# processes beyond its runs' 7.5%, two checks of 16 processes x 4
# runs), so one process's runs told a night's figure that far off and
# the nights seemed to drift by as much.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
cb=$(zcb_tool chatbench) || { echo "power 40-chatbench: no chatbench (build first)" >&2; exit 1; }
procs=${ZCB_POWER_PROCS:-8}
[[ "$procs" =~ ^[1-9][0-9]*$ ]] || { echo "power 40-chatbench: ZCB_POWER_PROCS=\"$procs\" is not a positive integer" >&2; exit 1; }
mkdir -p "$ZCB_OUT/chatbench" || exit 1
for ((p = 1; p <= procs; p++)); do
	out=$ZCB_OUT/chatbench/power.json
	[ "$p" = 1 ] || out=$ZCB_OUT/chatbench/power-$p.json
	"$cb" -r 10 -u 20 -m "${ZCB_POWER_MESSAGES:-100}" --model threads -n "${ZCB_POWER_RUNS:-2}" \
		--cpu=procstat --label "${ZCB_LABEL:-$(uname -r)}" -o "$out" || exit
done
