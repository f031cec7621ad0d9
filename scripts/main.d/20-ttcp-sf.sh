#!/usr/bin/env bash
# 20-ttcp-sf: seed 001's ttcp-sf table, short form: copy and zero-copy
# send methods, 2 interleaved rounds of 2 s, on a veth pair of network
# namespaces when this box allows it, else on loopback, as fast as each
# goes (saturated: every method near the CPU's limit); then the same at
# one rate for every method, half the slowest one's saturated rate
# rounded down (rate-pick.jq), so the CPU columns compare at one
# throughput as seed 001's did on 100baseT (kept in rate/: 90-report
# prints it apart); then where the CPU went (the profile's family table)
# for write against sendfile. The transmitter and the receiver each on a
# CPU of their own (zcb_pin_plan), said here and recorded in each
# document (host.cpus_allowed).
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
zc="$zcb_libexec/zc-vs-copy"
tt=$(zcb_tool ttcp-sf) || { echo "20-ttcp-sf: no ttcp-sf (build first)" >&2; exit 1; }
methods=write,sendfile,splice,msg-zerocopy,uring-zc
args=(--methods "$methods" --sizes 32768 --repeat 2 --duration 2s
	--source-size 64M --label "$ZCB_LABEL" --bin "$tt")
zcb_pin_plan || exit 1
zcb_pin_say 20-ttcp-sf "the transmitter" "the receiver"
pin=()
[ -n "$ZCB_PIN_A" ] && pin=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
args+=("${pin[@]}")
where=()
if [ "$(id -u)" = 0 ] && "$zcb_libexec/netns-hosts" -- true 2>/dev/null; then
	where=(--netns)
else
	echo "(no network namespaces here: both ends on loopback)"
fi
"$zc" "${where[@]}" "${args[@]}" --out "$ZCB_OUT" || exit
# one rate for every method: half the slowest one's saturated rate
rate=$(jq -rs -f "$zcb_libexec/rate-pick.jq" "$ZCB_OUT"/ttcp-sf/*.json 2>/dev/null)
echo
if [ -n "$rate" ]; then
	echo "(every method again at ${rate}bit/s: half the slowest method's saturated rate, rounded down)"
	"$zc" "${where[@]}" "${args[@]}" --rate "$rate" --out "$ZCB_OUT/rate" || exit
else
	echo "(no saturated rate to halve: no table at a fixed rate)"
fi
# where the CPU went, copy against zero-copy: the kernel profile of write
# and sendfile, one pair each (profiled, then unprofiled), saturated and
# at the fixed rate, its family table under the seed's; kept in profile/
# (its runs are no extra rows of the seed's table: 90-report's layout
# "all" gives them to the profile layout only, and its plots leave them
# out)
profiled() { # profiled OUT [--rate R]
	local o=$1
	shift
	echo
	"$zc" "${where[@]}" --methods write,sendfile --sizes 32768 --repeat 1 \
		--duration 1s --source-size 64M --cpu procstat,profile \
		--out "$o" --label "$ZCB_LABEL" --bin "$tt" "${pin[@]}" "$@"
}
profiled "$ZCB_OUT/profile" || exit
[ -z "$rate" ] || profiled "$ZCB_OUT/profile/rate" --rate "$rate"
