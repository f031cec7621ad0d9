#!/usr/bin/env bash
# 40-chatbench: seed 004's experiment in short: chat-1.0.1's default
# exchange (10 rooms x 20 users x 100 messages of 100 bytes, server and
# clients on this box), 5 runs each with TCP_NODELAY off and on,
# interleaved; seed 004's Mean / Standard Deviation table for each and the
# comparison. Then one run of 50 rooms (1000 connections) per model.
# Documents in $ZCB_OUT/chatbench/.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
cb=$(zcb_tool chatbench) || { echo "40-chatbench: no chatbench (build first)" >&2; exit 1; }
out="$ZCB_OUT/chatbench"
mkdir -p "$out"
label=${ZCB_LABEL:-$(uname -r)}

"$zcb_libexec/chat-regression" --build "${ZCB_BUILDDIR:-}" -n 5 \
	--out "$out/nodelay" --a-label "$label nodelay-off" \
	--b-label "$label nodelay-on" -- --cpu=procstat
rc=$?
[ $rc -eq 3 ] && rc=0 # a difference between two settings is a finding, not a failure
[ $rc -eq 0 ] || exit $rc

echo
for model in threads epoll; do
	"$cb" -r 50 -u 20 --model "$model" --label "$label" --cpu=procstat \
		-o "$out/load-$model.json" | tail -1 || exit 1
done
echo "40-chatbench: documents in $out"
