#!/usr/bin/env bash
# 30-zc-files: seed 001's zcs/zcc runs, short form: 63 files averaging
# 350 KB, 5 loops, each send method, both boxes' CPU, 2 interleaved
# rounds, on a veth pair of network namespaces shaped to 1 Gbit/s (the
# seed's link-limited setting, scaled) when this box allows it, else on
# loopback.
set -uo pipefail
args=(--methods "sendfile,send,write,splice,msg-zerocopy" --files 63 --size 350k
	--loops 5 --repeat 2 --out "$ZCB_OUT" --label "$ZCB_LABEL"
	--bin-dir "$ZCB_BUILDDIR")
if [ "$(id -u)" = 0 ] && "$ZCB_SRCDIR/scripts/netns-hosts" -- true 2>/dev/null; then
	exec "$ZCB_SRCDIR/scripts/zc-files" --netns --rate 1gbit "${args[@]}"
fi
echo "(no network namespaces here: both ends on loopback)"
exec "$ZCB_SRCDIR/scripts/zc-files" "${args[@]}"
