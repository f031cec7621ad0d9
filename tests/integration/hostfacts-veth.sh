#!/usr/bin/env bash
# hostfacts-veth.sh: a ttcp-sf run across a veth pair between two
# namespaces of this test (scripts/netns-hosts) records, on both sides,
# the facts of the interface the traffic used (driver veth, MTU, the
# offloads from ethtool, queues) and per-CPU NET_RX/NET_TX softirq
# counts and the interface's bytes for the run. A second run with GRO
# turned on at the receiver: `zcbreport compare` prints "iface gro
# off -> on" above its tables. The pair is removed on every exit path.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_root
zcb_need_cmd ip iproute2
zcb_need_cmd ethtool ethtool
zcb_need_cmd jq jq
TTCP=$(zcb_bin ttcp-sf) || exit 1
Z=$(zcb_bin zcbreport) || exit 1
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
mkdir -p "$T/off" "$T/on"
"$NH" -- true 2>"$T/probe" || zcb_skip "netns unavailable: $(head -1 "$T/probe")"

run() { # inside the pair: one transfer, documents to $T/$1
	set -u
	$ZCB_RSH_B "$TTCP" -r -p 5001 --wait 20 -o "$T/$1/r.json" >"$T/r.txt" 2>&1 &
	local r=$!
	for _ in $(seq 1 100); do grep -q port= "$T/r.txt" 2>/dev/null && break; sleep 0.05; done
	$ZCB_RSH_A "$TTCP" -t -p 5001 -l 65536 -n 256 --label "gro-$1" \
		-o "$T/$1/t.json" "$ZCB_ADDR_B" >"$T/t.txt" 2>&1
	local rc=$?
	wait $r || rc=1
	return $rc
}
pair() { # both runs: GRO as veth starts (off), then on at B
	set -u
	local dev
	dev=$(ip -n "$ZCB_NS_B" -o link show type veth | awk -F'[:@ ]+' '{ print $2; exit }')
	echo "$ZCB_NS_A" >"$T/ns"
	ip netns exec "$ZCB_NS_B" ethtool -K "$dev" gro off || return 1
	run off || return 1
	ip netns exec "$ZCB_NS_B" ethtool -K "$dev" gro on || return 1
	run on
}
export -f run pair
export TTCP T
"$NH" -- bash -c pair || { cat "$T/t.txt" "$T/r.txt"; zcb_fail "ttcp-sf across the pair failed"; }
ns=$(cat "$T/ns")
ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "the pair $ns was not removed"

j() { jq -r "$2" "$1"; }
doc=$T/off/t.json
[ "$(j "$doc" .host.iface.driver)" = veth ] || zcb_fail "sender: driver $(j "$doc" .host.iface.driver), want veth"
[ "$(j "$doc" .host.iface.mtu)" = 1500 ] || zcb_fail "sender: no MTU"
[[ "$(j "$doc" .host.iface.name)" == zva* ]] || zcb_fail "sender: iface $(j "$doc" .host.iface.name), want the A veth"
[ "$(j "$doc" .host.iface_rule)" = "most bytes during the run" ] || zcb_fail "sender: rule $(j "$doc" .host.iface_rule)"
for k in tso gso gro sg; do
	[[ "$(j "$doc" ".host.iface.offloads.$k")" =~ ^(true|false)$ ]] || zcb_fail "sender: offload $k missing"
done
[ "$(j "$doc" .host.iface.rx_queues)" -ge 1 ] || zcb_fail "sender: no queue count"
tx=$(j "$doc" '[.host.net_dev[]] | map(.tx_bytes) | max')
[ "$tx" -ge $((256 * 65536)) ] || zcb_fail "sender: the interface sent $tx bytes, want >= 16 MiB"
[ "$(j "$doc" '.host.softirqs.NET_RX | length')" = "$(j "$doc" '.host.softirqs.cpus | length')" ] ||
	zcb_fail "sender: NET_RX is not per CPU"
sum=$(j "$T/off/r.json" '.host.softirqs.NET_RX | add')
[ "$sum" -ge 1 ] || zcb_fail "receiver: no NET_RX softirqs during the run"
[ "$(j "$T/off/r.json" .host.iface.offloads.gro)" = false ] || zcb_fail "receiver: GRO not off in run 1"
[ "$(j "$T/on/r.json" .host.iface.offloads.gro)" = true ] || zcb_fail "receiver: GRO not on in run 2"
# the sender's report of its peer carries the receiver's facts
[ "$(j "$T/on/t.json" .peer.iface.offloads.gro)" = true ] || zcb_fail "sender: the peer's GRO not reported"
zcb_ok "both sides: veth facts, offloads, queues, per-CPU softirqs, bytes"

rc=0; "$Z" compare "$T/off/r.json" "$T/on/r.json" >"$T/cmp" 2>&1 || rc=$?
[ $rc -le 1 ] || { cat "$T/cmp"; zcb_fail "compare exit $rc"; }
grep -Eq '^  iface gro +off -> on$' "$T/cmp" || { cat "$T/cmp"; zcb_fail "compare did not print the GRO difference"; }
grep -q 'iface mtu' "$T/cmp" && zcb_fail "compare printed an MTU that did not differ"
zcb_ok "compare prints: $(grep 'iface gro' "$T/cmp" | tr -s ' ')"
# the sender's documents: its own GRO did not change, its peer's did
rc=0; "$Z" compare "$T/off/t.json" "$T/on/t.json" >"$T/cmp" 2>&1 || rc=$?
grep -Eq '^  peer iface gro +off -> on$' "$T/cmp" || { cat "$T/cmp"; zcb_fail "compare did not print the peer's GRO difference"; }
grep -Eq '^  iface gro' "$T/cmp" && zcb_fail "compare printed a GRO change of the sender's own"
zcb_ok "compare of the sender's documents: the peer's GRO"
# the busiest CPU for softirqs, each side, beside the host differences
grep -Eq '^  base +host cpu[0-9]+ [0-9]+/[0-9]+/[0-9]+   peer cpu[0-9]+ ' "$T/cmp" ||
	{ cat "$T/cmp"; zcb_fail "compare did not print the busiest softirq CPU"; }
zcb_ok "compare prints the busiest softirq CPU of each side"
