#!/usr/bin/env bash
# 20-ttcp-sf: seed 001's ttcp-sf table, short form: copy and zero-copy
# send methods, 2 interleaved rounds of 2 s, on a veth pair of network
# namespaces when this box allows it, else on loopback; then where the
# CPU went (the profile's family table) for write against sendfile. The
# transmitter and the receiver each on a CPU of their own (zcb_pin_plan),
# said here and recorded in each document (host.cpus_allowed).
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
zc="$zcb_libexec/zc-vs-copy"
tt=$(zcb_tool ttcp-sf) || { echo "20-ttcp-sf: no ttcp-sf (build first)" >&2; exit 1; }
args=(--methods "write,sendfile,splice,msg-zerocopy,uring-zc" --sizes 32768
	--repeat 2 --duration 2s --source-size 64M --out "$ZCB_OUT"
	--label "$ZCB_LABEL" --bin "$tt")
zcb_pin_plan || exit 1
zcb_pin_say 20-ttcp-sf "the transmitter" "the receiver"
[ -n "$ZCB_PIN_A" ] && args+=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
where=()
if [ "$(id -u)" = 0 ] && "$zcb_libexec/netns-hosts" -- true 2>/dev/null; then
	where=(--netns)
else
	echo "(no network namespaces here: both ends on loopback)"
fi
"$zc" "${where[@]}" "${args[@]}" || exit
# where the CPU went, copy against zero-copy: the kernel profile of write
# and sendfile, one pair each (profiled, then unprofiled), its family
# table under the seed's; kept in profile/ (its runs are no extra rows of
# the seed's table: 90-report's layout "all" gives them to the profile
# layout only, and its plots leave them out)
echo
pin=()
[ -n "$ZCB_PIN_A" ] && pin=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
"$zc" "${where[@]}" --methods write,sendfile --sizes 32768 --repeat 1 \
	--duration 1s --source-size 64M --cpu procstat,profile \
	--out "$ZCB_OUT/profile" --label "$ZCB_LABEL" --bin "$tt" "${pin[@]}"
