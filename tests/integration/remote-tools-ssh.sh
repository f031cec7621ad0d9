#!/usr/bin/env bash
# remote-tools-ssh.sh: the tools' own remote paths over a real ssh. Two
# namespaces of this test joined by a veth pair, each with an sshd of its
# own (netns-hosts --sshd: throwaway keys). From host A, each far side is
# started on host B through ssh, as a user would on two boxes:
#   - ttcp-sf -r on B, ttcp-sf -t on A (the peer's report in A's document);
#   - chatbench --server on B, chatbench --host B on A;
#   - cyclesoak --serve on B, reached by p9bench --remote-cpu from A;
#   - diod (peer-diod) on B, p9bench on A against it;
#   - nfs-ganesha (peer-ganesha --bind) on B, nfsbench on A against it.
# Every far process is started with its PID echoed first and stopped by
# that PID over ssh; afterwards nothing of ours runs on B but its sshd.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_ssh_hosts
zcb_need_cmd diod diod
zcb_need_cmd ganesha.nfsd nfs-ganesha
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
"$NH" --sshd -- true 2>"$T/probe" || zcb_skip "netns with sshd unavailable: $(head -1 "$T/probe")"
export TTCP CHAT CS P9 NFSB T
TTCP=$(zcb_bin ttcp-sf) || exit 1
CHAT=$(zcb_bin chatbench) || exit 1
CS=$(zcb_bin cyclesoak) || exit 1
P9=$(zcb_bin p9bench) || exit 1
NFSB=$(zcb_bin nfsbench) || exit 1

steps() {
	set -u
	local B=10.200.0.2 pid
	onA() { ip netns exec "$ZCB_NS_A" "$@"; }
	# shellcheck disable=SC2086 # ZCB_SSH_B is a command line: split it
	onB() { ip netns exec "$ZCB_NS_A" $ZCB_SSH_B "$@"; }
	# farB NAME CMD...: CMD on B in the background through ssh, its PID
	# (the far shell's, which execs CMD) into $T/NAME.pid
	farB() {
		local name=$1
		shift
		rm -f "$T/$name.pid"
		# (B sees this test's directory: one file system)
		onB "echo \$\$ >$T/$name.pid.tmp && mv $T/$name.pid.tmp $T/$name.pid; exec $*" >"$T/$name.far" 2>&1 &
		for _ in $(seq 1 100); do
			[ -s "$T/$name.pid" ] && return 0
			sleep 0.1
		done
		echo "FAIL: $name never started on B: $(cat "$T/$name.far")" >&2
		return 1
	}
	stopB() { # stopB NAME: TERM that far process, wait for it to go
		local p
		p=$(cat "$T/$1.pid")
		onB "kill -TERM $p 2>/dev/null; for i in \$(seq 1 50); do kill -0 $p 2>/dev/null || exit 0; sleep 0.1; done; kill -KILL $p"
	}
	listensB() { # listensB PORT: wait until B listens on PORT
		for _ in $(seq 1 100); do
			ip netns exec "$ZCB_NS_B" ss -Hltn "sport = :$1" | grep -q . && return 0
			sleep 0.1
		done
		echo "FAIL: nothing listens on $B:$1" >&2
		return 1
	}
	leftB() {
		local p s
		s=$(cat "$(dirname "$ZCB_SSH_KEY")/sshd_B.pid")
		for p in $(ip netns pids "$ZCB_NS_B"); do
			[ "$p" = "$s" ] && continue
			[ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "$s" ] && continue
			ps -o pid=,args= -p "$p"
		done
	}
	echo "$ZCB_NS_A" >"$T/ns"

	# 1. ttcp-sf: the receiver on B, the transmitter here
	farB ttcp "$TTCP -r -p 15101 --cpu=procstat" || return 1
	listensB 15101 || return 1
	onA "$TTCP" -t -p 15101 -l 32768 --duration 0.5 --cpu=procstat \
		--output "$T/ttcp.json" "$B" >"$T/ttcp.out" 2>&1 ||
		{ cat "$T/ttcp.out" >&2; echo "FAIL: ttcp-sf to B" >&2; return 1; }
	wait # the receiver ends after its transmitter
	echo "ok - ttcp-sf: receiver on B over ssh, transmitter on A"

	# 2. chatbench: the server on B
	farB chat "$CHAT --server --bind $B -p 15102" || return 1
	listensB 15102 || return 1
	onA "$CHAT" --host "$B" -p 15102 -r 2 -u 3 -m 20 --cpu=procstat \
		--output "$T/chat.json" >"$T/chat.out" 2>&1 ||
		{ cat "$T/chat.out" >&2; echo "FAIL: chatbench --host B" >&2; return 1; }
	stopB chat || return 1
	echo "ok - chatbench: server on B over ssh, clients on A"

	# 3. cyclesoak --serve on B, diod on B (peer-diod; a second listen
	#    address on B's veth), p9bench from A with --remote-cpu; by
	#    time, not by count: 200 reads were over in 15 ms, a window
	#    /proc/stat may give no tick (no cpu_remote_pct: failed beside
	#    two busy loops under ASan)
	farB soak "$CS --serve --bind=$B --port=15103" || return 1
	listensB 15103 || return 1
	onB "$ZCB_SRCDIR/scripts/peer-diod" start --port 15104 -- -l "$B:15105" >"$T/diod.line" 2>"$T/diod.err" ||
		{ cat "$T/diod.err" >&2; echo "FAIL: peer-diod on B" >&2; return 1; }
	read -r pid _ _ _ <"$T/diod.line"
	listensB 15105 || return 1
	onA "$P9" -s "$B:15105" -a "$(cut -d' ' -f3 "$T/diod.line")" --op read --sizes 4096 \
		--duration 0.3 --cpu=procstat --remote-cpu "$B:15103" --output "$T/p9.json" >"$T/p9.out" 2>&1 ||
		{ cat "$T/p9.out" >&2; echo "FAIL: p9bench against diod on B" >&2; return 1; }
	onB "$ZCB_SRCDIR/scripts/peer-diod" stop "$pid" "$(cut -d' ' -f3 "$T/diod.line")" >/dev/null 2>&1
	stopB soak || return 1
	echo "ok - p9bench: diod on B, cyclesoak --serve on B as --remote-cpu, over ssh"

	# 4. nfs-ganesha on B (NFSv4 on B's address), nfsbench from A
	onB "$ZCB_SRCDIR/scripts/peer-ganesha" start --vers 4 --bind "$B" --state "$T/g" \
		>"$T/g.out" 2>&1 || { cat "$T/g.out" >&2; echo "FAIL: peer-ganesha on B" >&2; return 1; }
	local url
	url="$(onB "$ZCB_SRCDIR/scripts/peer-ganesha" get "$T/g" URL)/f?$(onB "$ZCB_SRCDIR/scripts/peer-ganesha" get "$T/g" QUERY)"
	local exp
	exp=$(onB "$ZCB_SRCDIR/scripts/peer-ganesha" get "$T/g" EXPORT)
	onB "head -c 2M /dev/zero >'$exp/f'"
	onA "$NFSB" -r -s 64k -b 2m --output "$T/nfs.json" "$url" >"$T/nfs.out" 2>&1 ||
		{ cat "$T/nfs.out" >&2; onB "$ZCB_SRCDIR/scripts/peer-ganesha" stop "$T/g"; echo "FAIL: nfsbench against ganesha on B" >&2; return 1; }
	onB "$ZCB_SRCDIR/scripts/peer-ganesha" stop "$T/g" >/dev/null 2>&1
	echo "ok - nfsbench: ganesha on B over ssh, client on A"

	# the soak host cyclesoak --serve started ends when its last client
	# has gone: allow it a hang's time, not a speed
	for _ in $(seq 1 300); do [ -z "$(leftB)" ] && return 0; sleep 0.1; done
	echo "FAIL: left running on B: $(leftB) (the far cyclesoak was $(cat "$T/soak.pid"))" >&2
	return 1
}
export -f steps
"$NH" --sshd -- bash -c steps >"$T/log" 2>&1 || { cat "$T/log"; zcb_fail "the tools' remote paths over ssh"; }
cat "$T/log"
ns=$(cat "$T/ns")
ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "the pair $ns was not removed"

j() { jq -r "$1" "$T/$2"; }
{ [ "$(j .status ttcp.json)" = ok ] && [ -n "$(j '.peer.hostname // empty' ttcp.json)" ]; } ||
	zcb_fail "ttcp-sf: status $(j .status ttcp.json), no peer report from B"
[ "$(j .status chat.json)" = ok ] || zcb_fail "chatbench: status $(j .status chat.json)"
[ "$(j .status p9.json)" = ok ] || zcb_fail "p9bench: status $(j .status p9.json)"
jq -e '[.cases[].samples[].metrics.cpu_remote_pct | numbers] | length > 0' "$T/p9.json" >/dev/null ||
	zcb_fail "p9bench: no cpu_remote_pct from cyclesoak --serve on B"
[ "$(j .status nfs.json)" = ok ] || zcb_fail "nfsbench: status $(j .status nfs.json)"
zcb_ok "ttcp-sf, chatbench, p9bench (+ --remote-cpu) and nfsbench with their far side on B started over ssh; nothing left on B"
