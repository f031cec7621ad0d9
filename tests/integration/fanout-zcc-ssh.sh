#!/usr/bin/env bash
# fanout-zcc-ssh.sh: fanout with a tool besides nfsbench: zcc on three
# client hosts, each with 2 parallel connections (--count-opt -P), against
# one zcs on the server host, over a real ssh (netns-hosts --clients 3
# --sshd). zcs must see every connection end, the merged document holds a
# case per host with its host key and zcc's own figures, and the table
# sums them; nothing is left running on any host. The clients run over
# ssh, out of reach of lib.sh's ZCB_RERUNS: --reruns 0, so zcs's count of
# connections does not follow the box's load.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_ssh_hosts
ZCC=$(zcb_bin zcc) || exit 1
ZCS=$(zcb_bin zcs) || exit 1
NH="$ZCB_SRCDIR/scripts/netns-hosts"
FO="$ZCB_SRCDIR/scripts/fanout"
T=$ZCB_TEST_TMP
export ZCC ZCS FO T

"$NH" --clients 3 --sshd -- true 2>"$T/probe" || zcb_skip "namespaces with sshd unavailable: $(head -1 "$T/probe")"
head -c 8M /dev/urandom >"$T/a"

# shellcheck disable=SC2317 # run by netns-hosts as bash -c steps (export -f)
steps() {
	set -u
	local h zpid rc
	echo "$ZCB_NS_SERVER $ZCB_NS_CLIENTS" >"$T/ns"
	# zcs on the server host: 3 hosts x 2 connections, then it exits
	ip netns exec "$ZCB_NS_SERVER" "$ZCS" -p 0 --bind "$ZCB_ADDR_SERVER" \
		--port-file "$T/port" --exit-after 6 >"$T/zcs.out" 2>&1 &
	zpid=$!
	for _ in $(seq 1 100); do [ -s "$T/port" ] && break; sleep 0.05; done
	[ -s "$T/port" ] || { cat "$T/zcs.out" >&2; echo "FAIL: zcs did not start" >&2; return 1; }
	for h in $ZCB_ADDR_CLIENTS; do echo "$h 2"; done >"$T/hosts"
	ip netns exec "$ZCB_NS_SERVER" env ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts" \
		--count-opt -P --start-delay 2 --timeout 120 --out "$T/fo" \
		-- "$ZCC" -s "$ZCB_ADDR_SERVER" -p "$(cat "$T/port")" -n 8 --reruns 0 "$T/a" >"$T/fo.out" 2>&1 ||
		{ cat "$T/fo.out" >&2; kill "$zpid" 2>/dev/null; echo "FAIL: fanout zcc" >&2; return 1; }
	cat "$T/fo.out"
	for _ in $(seq 1 100); do kill -0 "$zpid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$zpid" 2>/dev/null; then
		kill "$zpid"
		echo "FAIL: zcs did not see 6 connections end: $(cat "$T/zcs.out")" >&2
		return 1
	fi
	wait "$zpid"
	rc=$?
	[ "$rc" = 0 ] || { cat "$T/zcs.out" >&2; echo "FAIL: zcs exit $rc" >&2; return 1; }
	return 0
}
export -f steps
"$NH" --clients 3 --sshd -- bash -c steps >"$T/log" 2>&1 || { cat "$T/log"; zcb_fail "fanout zcc over ssh"; }
zcb_netns_gone "$T/ns"

d=$T/fo/fanout.json
[ "$(jq -r .status "$d")" = ok ] || zcb_fail "merged: status $(jq -r .status "$d")"
[ "$(jq -r .tool "$d")" = zcc ] || zcb_fail "merged: tool $(jq -r .tool "$d")"
[ "$(jq '.cases | length' "$d")" = 3 ] || zcb_fail "merged: $(jq '.cases | length' "$d") cases, want 3 (one per host)"
[ "$(jq '[.cases[].params.host] | unique | length' "$d")" = 3 ] || zcb_fail "merged: no host key"
[ "$(jq '[.fanout.hosts[].clients] | add' "$d")" = 6 ] || zcb_fail "merged: not 6 connections: $(jq -c .fanout.hosts "$d")"
jq -e 'all(.cases[]; .params.connections == 2 and .summary.throughput_MBps.mean > 0)' "$d" >/dev/null ||
	zcb_fail "merged: a host's case lacks its 2 connections or its rate: $(jq -c '[.cases[] | .params]' "$d")"
grep -Eq '^  total +6 +[0-9.]+$' "$T/log" || zcb_fail "no total row of 6 connections: $(cat "$T/log")"
"$(zcb_bin zcbreport)" table "$d" >"$T/table" 2>&1 || { cat "$T/table"; zcb_fail "zcbreport does not read the merged document"; }
zcb_ok "zcc on 3 ssh hosts x 2 connections against one zcs: one document, one table, zcs saw all 6"
exit 0
