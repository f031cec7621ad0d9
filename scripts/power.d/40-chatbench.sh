#!/usr/bin/env bash
# power.d/40-chatbench: a short night's chatbench (nightly-power):
# 10 rooms x 20 users x $ZCB_POWER_MESSAGES messages (chat-1.0.1's
# exchange, 100 by default), threads model, $ZCB_POWER_RUNS runs with
# /proc/stat CPU, server and clients in this process.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
cb=$(zcb_tool chatbench) || { echo "power 40-chatbench: no chatbench (build first)" >&2; exit 1; }
mkdir -p "$ZCB_OUT/chatbench" || exit 1
exec "$cb" -r 10 -u 20 -m "${ZCB_POWER_MESSAGES:-100}" --model threads -n "${ZCB_POWER_RUNS:-8}" \
	--cpu=procstat --label "${ZCB_LABEL:-$(uname -r)}" \
	-o "$ZCB_OUT/chatbench/power.json"
