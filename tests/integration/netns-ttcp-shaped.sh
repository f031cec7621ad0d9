#!/usr/bin/env bash
# netns-ttcp-shaped.sh: two namespaces joined by a veth pair shaped to
# 100 Mbit/s with tbf (scripts/netns-hosts); ttcp-sf across it must see
# the wire rate: 100 Mbit/s carries 12.5 MB/s of frames, 1448 payload
# bytes in each 1514-byte frame give 11.95 MB/s of TCP payload (the
# seed's 100baseT 11.9). Asserted with a tolerant window, 11.0-12.6 MB/s
# (10^6 bytes). The remote side is driven through ZCB_RSH-style commands.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_root
zcb_need_cmd ip iproute2
zcb_need_cmd tc iproute2
TTCP=$(zcb_bin ttcp-sf) || exit 1
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
"$NH" --rate 100mbit -- true 2>"$T/probe" || zcb_skip "netns with tbf unavailable: $(head -1 "$T/probe")"

run() { # inside the pair
	set -u
	$ZCB_RSH_B "$TTCP" -r -p 5001 --wait 20 -o "$T/r.json" >"$T/r.txt" 2>&1 &
	local r=$!
	for _ in $(seq 1 100); do grep -q port= "$T/r.txt" 2>/dev/null && break; sleep 0.05; done
	$ZCB_RSH_A "$TTCP" -t -p 5001 -l 32768 --duration 4s --source-size 16M \
		-o "$T/t.json" "$ZCB_ADDR_B" >"$T/t.txt" 2>&1
	local rc=$?
	wait $r || rc=1
	echo "$ZCB_NS_A" >"$T/ns" # ours: other tests may have pairs up too
	return $rc
}
export -f run
export TTCP T
"$NH" --rate 100mbit -- bash -c run || { cat "$T/t.txt" "$T/r.txt"; zcb_fail "ttcp-sf across the shaped pair failed"; }
ns=$(cat "$T/ns")
case "$ns" in zcbA-*) ;; *) zcb_fail "the pair was not up during the run: \"$ns\"" ;; esac
ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "the pair $ns was not removed"
mbps=$(zcb_json "$T/t.json" '.cases[0].samples[0].metrics.throughput_MBps')
awk -v x="$mbps" 'BEGIN { exit !(x >= 11.0 && x <= 12.6) }' ||
	zcb_fail "shaped to 100mbit: $mbps MB/s, expected 11.0-12.6"
[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].same_box')" = true ] || zcb_fail "namespaces on one box: same_box"
zcb_ok "100mbit tbf pair: $mbps MB/s"
