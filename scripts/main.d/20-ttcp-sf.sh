#!/usr/bin/env bash
# 20-ttcp-sf: seed 001's ttcp-sf table, short form: copy and zero-copy
# send methods, 2 interleaved rounds of 2 s, on a veth pair of network
# namespaces when this box allows it, else on loopback.
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
zc="$zcb_libexec/zc-vs-copy"
tt=$(zcb_tool ttcp-sf) || { echo "20-ttcp-sf: no ttcp-sf (build first)" >&2; exit 1; }
args=(--methods "write,sendfile,splice,msg-zerocopy,uring-zc" --sizes 32768
	--repeat 2 --duration 2s --source-size 64M --out "$ZCB_OUT"
	--label "$ZCB_LABEL" --bin "$tt")
if [ "$(id -u)" = 0 ] && "$zcb_libexec/netns-hosts" -- true 2>/dev/null; then
	exec "$zc" --netns "${args[@]}"
fi
echo "(no network namespaces here: both ends on loopback)"
exec "$zc" "${args[@]}"
