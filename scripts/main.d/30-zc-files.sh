#!/usr/bin/env bash
# 30-zc-files: seed 001's zcs/zcc runs, short form: 63 files averaging
# 350 KB, 5 loops, each send method, both boxes' CPU, 2 interleaved
# rounds, on a veth pair of network namespaces shaped to 1 Gbit/s (the
# seed's link-limited setting, scaled) when this box allows it, else on
# loopback. zcc and zcs each on a CPU of their own (zcb_pin_plan), said
# here and recorded in each document (host.cpus_allowed).
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
args=(--methods "sendfile,send,write,splice,msg-zerocopy" --files 63 --size 350k
	--loops 5 --repeat 2 --out "$ZCB_OUT" --label "$ZCB_LABEL"
	--bin-dir "${ZCB_BUILDDIR:-}")
zcb_pin_plan || exit 1
zcb_pin_say 30-zc-files zcc zcs
[ -n "$ZCB_PIN_A" ] && args+=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
if [ "$(id -u)" = 0 ] && "$zcb_libexec/netns-hosts" -- true 2>/dev/null; then
	exec "$zcb_libexec/zc-files" --netns --shape 1gbit "${args[@]}"
fi
echo "(no network namespaces here: both ends on loopback)"
exec "$zcb_libexec/zc-files" "${args[@]}"
