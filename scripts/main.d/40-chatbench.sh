#!/usr/bin/env bash
# 40-chatbench: seed 004's experiment in short: chat-1.0.1's default
# exchange (10 rooms x 20 users x 100 messages of 100 bytes, server and
# clients on this box), 5 runs each with TCP_NODELAY off and on,
# interleaved; seed 004's Mean / Standard Deviation table for each and the
# comparison. Then one run of 50 rooms (1000 connections) per model.
# Server and clients are one process: it runs on the two CPUs the other
# parts' sides take (zcb_pin_plan), said here and recorded in each
# document (host.cpus_allowed). Documents in $ZCB_OUT/chatbench/.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
cb=$(zcb_tool chatbench) || { echo "40-chatbench: no chatbench (build first)" >&2; exit 1; }
out="$ZCB_OUT/chatbench"
mkdir -p "$out"
label=${ZCB_LABEL:-$(uname -r)}
zcb_pin_plan || exit 1
cpus="" pin=()
if [ -n "$ZCB_PIN_A" ]; then
	cpus="$ZCB_PIN_A,$ZCB_PIN_B"
	[ "$ZCB_PIN_A" = "$ZCB_PIN_B" ] && cpus=$ZCB_PIN_A
	pin=(--pin "$cpus")
	echo "40-chatbench: pinned: chatbench (server and clients in one process) on CPUs $cpus"
else
	echo "40-chatbench: $ZCB_PIN_WHY"
fi

"$zcb_libexec/chat-regression" --build "${ZCB_BUILDDIR:-}" -n 5 "${pin[@]}" \
	--out "$out/nodelay" --a-label "$label nodelay-off" \
	--b-label "$label nodelay-on" -- --cpu=procstat
rc=$?
[ $rc -eq 3 ] && rc=0 # a difference between two settings is a finding, not a failure
[ $rc -eq 0 ] || exit $rc

echo
for model in threads epoll; do
	zcb_pinned "$cpus" "$cb" -r 50 -u 20 --model "$model" --label "$label" --cpu=procstat \
		-o "$out/load-$model.json" | tail -1 || exit 1
done
echo "40-chatbench: documents in $out"
