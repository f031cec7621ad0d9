#!/usr/bin/env bash
# power-veth.sh: nightly-power's shaped-veth trial, its ttcp-sf part
# (scripts/power.d/20-ttcp-sf.sh with ZCB_POWER_VETH set to a tc rate):
# zc-vs-copy runs on a veth pair whose link is shaped to that rate
# (--netns --shape: tbf), its transmitter not paced (no ttcp-sf --rate:
# a slower wire is the slowdown the trial injects, not a paced sender).
# The verdict is the words and the documents, never the rate reached.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_root
zcb_need_cmd ip iproute2
zcb_need_cmd tc iproute2
zcb_need_cmd jq jq
T=$ZCB_TEST_TMP
S=$ZCB_SRCDIR/scripts
"$S/netns-hosts" --rate 100mbit -- true 2>"$T/probe" ||
	zcb_skip "netns with tbf unavailable: $(head -1 "$T/probe")"
export ZCB_BUILDDIR

ZCB_POWER_VETH=100mbit ZCB_POWER_REPEAT=1 ZCB_POWER_DURATION=1s \
	ZCB_OUT="$T/out" ZCB_LABEL=power-veth ZCB_PIN=off \
	"$S/power.d/20-ttcp-sf.sh" >"$T/part.out" 2>&1 ||
	zcb_fail "power.d/20-ttcp-sf.sh, ZCB_POWER_VETH=100mbit: $(tail -5 "$T/part.out")"
grep -q '^power ttcp-sf: on a veth pair shaped to 100mbit$' "$T/part.out" ||
	zcb_fail "no line of the shaped pair: $(head -3 "$T/part.out")"
grep -q '^zc-vs-copy: .*, veth pair zcbA-[^ ]* -> zcbB-[^ ]* shaped to 100mbit$' "$T/part.out" ||
	zcb_fail "zc-vs-copy did not shape the pair: $(grep '^zc-vs-copy:' "$T/part.out" | head -2)"
n=0
for d in "$T"/out/ttcp-sf/*.json; do
	[ -f "$d" ] || zcb_fail "no ttcp-sf document in $T/out/ttcp-sf: $(tail -5 "$T/part.out")"
	n=$((n + 1))
	[ "$(jq -r '[.cases[].params.rate] | map(select(. != null)) | length' "$d")" = 0 ] ||
		zcb_fail "$(basename "$d"): the transmitter was paced: params.rate $(jq -c '[.cases[].params.rate]' "$d")"
	[ "$(jq -r '[.cases[].samples[].rate] | map(select(. != null)) | length' "$d")" = 0 ] ||
		zcb_fail "$(basename "$d"): a sample sent at a rate"
done
[ "$n" = 2 ] || zcb_fail "$n documents, expected 2 (write and sendfile)"
zcb_ok "power.d/20-ttcp-sf.sh: ZCB_POWER_VETH=100mbit shapes the veth pair (tbf), the sender unpaced"
