#!/usr/bin/env bash
# fanout-ssh.sh: many client hosts for one server over a real ssh. A
# server namespace of this test holds nfs-ganesha (NFSv4 on its bridge
# address); four client namespaces, each with an sshd of its own, are the
# "hosts" (netns-hosts --clients 4 --sshd). From the server, fanout starts
# nfsbench with 12 clients on each host: seed 002's 48, released together
# by the start barrier; the per-host results come back as one document
# with host/client keys and one table summed per host. Also: 2 hosts x 2
# processes (a count of processes, not -n); a host list with an empty
# line, a duplicate, a bad count or host: one line each, exit 2; an
# unreachable host: one line naming it, nothing started; a host that dies
# mid-run and an INT: the others stopped, nothing left on any host.
# (The clients run over ssh, out of reach of lib.sh's ZCB_RERUNS: they
# get --reruns 0, so their samples do not follow the box's load.)
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_ssh_hosts
zcb_need_cmd ganesha.nfsd "apt-get install nfs-ganesha nfs-ganesha-vfs"
NB=$(zcb_bin nfsbench) || exit 1
"$NB" "nfs://127.0.0.1/x/y" --max-time 0.1 -t 1 -q 2>&1 | grep -q "need libnfs" &&
	zcb_skip "nfsbench built without libnfs"
NH="$ZCB_SRCDIR/scripts/netns-hosts"
FO="$ZCB_SRCDIR/scripts/fanout"
T=$ZCB_TEST_TMP
export NB FO T

# 1. host lists that are refused, before any host is asked
printf 'h1 2\n\nh2\n' >"$T/empty"
printf 'h1\nh2 3\nh1 4\n' >"$T/dup"
printf 'h1 0\n' >"$T/count0"
printf 'h1;reboot\n' >"$T/badhost"
printf '# nothing\n' >"$T/none"
for f in empty:'line 2 is empty' dup:'h1 on lines 1 and 3' count0:'count 0' badhost:'not a host name' none:'no host'; do
	rc=0
	"$FO" --hosts "$T/${f%%:*}" -- "$NB" >"$T/o" 2>"$T/e" || rc=$?
	if ! { [ $rc = 2 ] && [ "$(wc -l <"$T/e")" = 1 ] && grep -q "${f#*:}" "$T/e"; }; then
		cat "$T/e"
		zcb_fail "host list ${f%%:*}: exit $rc, want 2 and one line /${f#*:}/"
	fi
done
rc=0; ZCB_FANOUT=pdsh "$FO" --hosts "$T/dup" -- "$NB" 2>"$T/e" || rc=$?
{ [ $rc = 2 ] && grep -q 'not supported yet' "$T/e"; } || zcb_fail "ZCB_FANOUT=pdsh: exit $rc: $(cat "$T/e")"
zcb_ok "host lists: empty line, duplicate, bad count, bad host, no host: one line each"

"$NH" --clients 4 --sshd -- true 2>"$T/probe" || zcb_skip "namespaces with sshd unavailable: $(head -1 "$T/probe")"

steps() {
	set -u
	local S="$ZCB_SRCDIR/scripts" url h i rc
	echo "$ZCB_NS_SERVER $ZCB_NS_CLIENTS" >"$T/ns"
	onS() { ip netns exec "$ZCB_NS_SERVER" "$@"; }
	left() { # what of ours still runs on a client host (its sshd aside)
		local ns p s
		for ns in $ZCB_NS_CLIENTS; do
			s=$(cat "$(dirname "$ZCB_HOSTS_FILE")/sshd_C${ns##*-}.pid" 2>/dev/null)
			for p in $(ip netns pids "$ns"); do
				[ "$p" = "$s" ] && continue
				[ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "$s" ] && continue
				ps -o pid=,args= -p "$p"
			done
		done
	}
	nothing_left() {
		for _ in $(seq 1 80); do [ -z "$(left)" ] && return 0; sleep 0.1; done
		echo "FAIL: $1: left running: $(left)" >&2
		return 1
	}
	onS "$S/peer-ganesha" start --vers 4 --bind "$ZCB_ADDR_SERVER" --state "$T/g" >"$T/g.out" 2>&1 ||
		{ cat "$T/g.out" >&2; echo "FAIL: ganesha did not start" >&2; return 1; }
	url="$(onS "$S/peer-ganesha" get "$T/g" URL)/f?$(onS "$S/peer-ganesha" get "$T/g" QUERY)"
	head -c 4M /dev/urandom >"$(onS "$S/peer-ganesha" get "$T/g" EXPORT)/f"
	for h in $ZCB_ADDR_CLIENTS; do echo "$h 12 # 12 clients"; done >"$T/hosts"

	# 2. 4 hosts x 12 clients (nfsbench -n 12 on each)
	onS env ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts" --count-opt -n --start-delay 2 \
		--out "$T/fo48" -- "$NB" -r -s 64k -b 1m --reruns 0 "$url" >"$T/fo48.out" 2>&1 ||
		{ cat "$T/fo48.out" >&2; echo "FAIL: 48 clients on 4 hosts" >&2; return 1; }
	nothing_left "48 clients" || return 1
	cat "$T/fo48.out"

	# 3. 2 hosts x 2 processes of one client each
	tr ' ' '\n' <<<"$ZCB_ADDR_CLIENTS" | head -2 | sed 's/$/ 2/' >"$T/hosts2"
	onS env ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts2" --start-delay 2 --out "$T/fo4" \
		-- "$NB" -r -s 64k -b 1m --reruns 0 "$url" >"$T/fo4.out" 2>&1 ||
		{ cat "$T/fo4.out" >&2; echo "FAIL: 2 hosts x 2 processes" >&2; return 1; }
	nothing_left "2 x 2" || return 1

	# 4. a host that cannot be reached: named, nothing starts
	{ cat "$T/hosts"; echo 10.201.0.99 12; } >"$T/hosts5"
	rc=0
	onS env ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts5" --count-opt -n --out "$T/fo5" \
		-- "$NB" -r -s 64k -b 1m --reruns 0 "$url" >"$T/fo5.out" 2>"$T/fo5.err" || rc=$?
	{ [ $rc = 2 ] && [ "$(wc -l <"$T/fo5.err")" = 1 ] && grep -q '^fanout: 10.201.0.99: ssh failed' "$T/fo5.err"; } ||
		{ cat "$T/fo5.err" >&2; echo "FAIL: unreachable host: exit $rc" >&2; return 1; }
	[ -z "$(left)" ] || { echo "FAIL: unreachable host: started $(left)" >&2; return 1; }
	echo "ok - unreachable: $(cat "$T/fo5.err")"

	# 5. INT while the clients wait at the barrier: all stopped. (CMD of
	# netns-hosts runs in the background, so with SIGINT ignored: env
	# gives fanout the default back, as at a terminal; ip execs env, env
	# execs fanout: $! is fanout itself)
	ip netns exec "$ZCB_NS_SERVER" env --default-signal=INT ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts" --count-opt -n --start-delay 30 \
		--out "$T/foi" -- "$NB" -r -s 64k -b 1m --reruns 0 "$url" >"$T/foi.out" 2>&1 &
	local f=$!
	for _ in $(seq 1 100); do grep -q starting "$T/foi.out" && break; sleep 0.1; done
	kill -INT $f
	wait $f
	rc=$?
	[ $rc = 130 ] || { cat "$T/foi.out" >&2; echo "FAIL: INT: exit $rc" >&2; return 1; }
	nothing_left "INT" || return 1
	echo "ok - INT: exit 130, every client stopped on its host"

	# 6. a host dies mid-run: the third namespace's processes (its sshd too) killed
	onS env ZCB_RSH="$ZCB_SSH" "$FO" --hosts "$T/hosts" --count-opt -n --start-delay 30 \
		--out "$T/fod" -- "$NB" -r -s 64k -b 1m --reruns 0 "$url" >"$T/fod.out" 2>&1 &
	f=$!
	i=$(echo "$ZCB_NS_CLIENTS" | cut -d' ' -f3)
	for _ in $(seq 1 200); do # until its client waits at the barrier there
		ip netns pids "$i" | xargs -r ps -o args= -p | grep -q zcb-barrier && break
		sleep 0.1
	done
	ip netns pids "$i" | xargs -r kill -KILL
	wait $f
	rc=$?
	{ [ $rc = 1 ] && grep -q '^fanout: 10.201.0.13: client 1: ssh failed or the host went away' "$T/fod.out"; } ||
		{ cat "$T/fod.out" >&2; echo "FAIL: a host that died: exit $rc" >&2; return 1; }
	nothing_left "a host that died" || return 1
	echo "ok - a host died: $(grep 10.201.0.13 "$T/fod.out")"
	onS "$S/peer-ganesha" stop "$T/g" >/dev/null 2>&1
	return 0
}
export -f steps
"$NH" --clients 4 --sshd -- bash -c steps >"$T/log" 2>&1 || { cat "$T/log"; zcb_fail "fanout over ssh"; }
cat "$T/log"
zcb_netns_gone "$T/ns"

d=$T/fo48/fanout.json
[ "$(jq -r .status "$d")" = ok ] || zcb_fail "merged: status $(jq -r .status "$d")"
[ "$(jq '.cases | length' "$d")" = 4 ] || zcb_fail "merged: $(jq '.cases | length' "$d") cases, want 4 (one per host)"
[ "$(jq '[.fanout.hosts[].clients] | add' "$d")" = 48 ] || zcb_fail "merged: not 48 clients"
[ "$(jq '[.cases[].params.clients] | add' "$d")" = 48 ] || zcb_fail "merged: the cases do not hold 48 clients"
[ "$(jq '[.cases[].params.host] | unique | length' "$d")" = 4 ] || zcb_fail "merged: no host key"
jq -e '.fanout.start_spread_ms | numbers' "$d" >/dev/null || zcb_fail "merged: no start spread"
jq -e '.fanout.host_facts["10.201.0.12"].iface.name == "eth0"' "$d" >/dev/null || zcb_fail "merged: no host facts of 10.201.0.12"
grep -Eq '^  total +48 +[0-9.]+$' "$T/log" || zcb_fail "no total row of 48 clients"
"$(zcb_bin zcbreport)" table "$d" >"$T/table" 2>&1 || { cat "$T/table"; zcb_fail "zcbreport does not read the merged document"; }
d=$T/fo4/fanout.json
{ [ "$(jq '.cases | length' "$d")" = 4 ] && [ "$(jq '[.fanout.hosts[].processes] | add' "$d")" = 4 ]; } ||
	zcb_fail "2 x 2: $(jq -c '.fanout.hosts' "$d")"
zcb_ok "48 nfsbench clients on 4 ssh hosts: one document, one table; 2 x 2 processes; faults named, nothing left"
