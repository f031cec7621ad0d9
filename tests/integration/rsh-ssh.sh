#!/usr/bin/env bash
# rsh-ssh.sh: the remote paths over a real ssh. Two namespaces of this
# test joined by a veth pair, each with an sshd of its own (netns-hosts
# --sshd: throwaway host and client keys). From host A, zc-vs-copy --to
# and zc-files --to start the far side on host B through ZCB_RSH="ssh
# ...": both runs end well with the peer's figures in the documents. Then
# the faults: a port where no sshd listens, a remote shell that is no
# command, a host key that does not match, a far binary that is missing,
# one of another version: each ends the script with exit 2 and one line
# on stderr naming the host. A TERM in the middle of a run stops the far
# side too. After each, nothing of ours runs on host B (its sshd aside).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_ssh_hosts
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
"$NH" --sshd -- true 2>"$T/probe" || zcb_skip "netns with sshd unavailable: $(head -1 "$T/probe")"
export TTCP ZCS ZCC T
TTCP=$(zcb_bin ttcp-sf) || exit 1
ZCS=$(zcb_bin zcs) || exit 1
ZCC=$(zcb_bin zcc) || exit 1

# inside the pair: everything runs on host A and reaches B by ssh
steps() {
	set -u
	local B=10.200.0.2 rc
	echo "$ZCB_NS_A" >"$T/ns"
	onA() { ip netns exec "$ZCB_NS_A" "$@"; }
	leftB() { # our processes still on B: all but its sshd
		local p s
		s=$(cat "$(dirname "$ZCB_SSH_KEY")/sshd_B.pid")
		for p in $(ip netns pids "$ZCB_NS_B"); do
			[ "$p" = "$s" ] && continue
			[ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "$s" ] && continue # a closing session
			ps -o pid=,args= -p "$p"
		done
	}
	nothing_left() { # nothing_left WHAT: B is clean within 5 s
		for _ in $(seq 1 50); do [ -z "$(leftB)" ] && return 0; sleep 0.1; done
		echo "FAIL: $1: left running on host B: $(leftB)" >&2
		return 1
	}
	one_line() { # one_line WHAT ERRFILE PATTERN: exactly one line naming B
		[ "$(wc -l <"$2")" = 1 ] && grep -q "$B" "$2" && grep -Eq "$3" "$2" && return 0
		echo "FAIL: $1: want one line naming $B and /$3/, got:" >&2
		cat "$2" >&2
		return 1
	}

	# 1. zc-vs-copy --to over ssh
	onA env ZCB_RSH="$ZCB_SSH_B" "$ZCB_SRCDIR/scripts/zc-vs-copy" --to "$B" --bin "$TTCP" \
		--methods write,sendfile --repeat 1 --duration 0.3s --source-size 4M --cpu procstat \
		--out "$T/zvc" >"$T/zvc.out" 2>"$T/zvc.err" ||
		{ cat "$T/zvc.out" "$T/zvc.err" >&2; echo "FAIL: zc-vs-copy --to over ssh" >&2; return 1; }
	nothing_left "zc-vs-copy" || return 1
	# 2. zc-files --to over ssh
	onA env ZCB_RSH="$ZCB_SSH_B" "$ZCB_SRCDIR/scripts/zc-files" --to "$B" \
		--bin-dir "$ZCB_BUILDDIR" --methods sendfile,write --files 3 --size 64k --loops 2 \
		--repeat 1 --cpu procstat --out "$T/zcf" >"$T/zcf.out" 2>"$T/zcf.err" ||
		{ cat "$T/zcf.out" "$T/zcf.err" >&2; echo "FAIL: zc-files --to over ssh" >&2; return 1; }
	nothing_left "zc-files" || return 1

	# 3. faults: exit 2, one line naming the host
	fault() { # fault NAME ZCB_RSH PATTERN [ARGS...]
		local name=$1 rsh=$2 pat=$3
		shift 3
		rc=0
		onA env ZCB_RSH="$rsh" "$ZCB_SRCDIR/scripts/zc-vs-copy" --to "$B" --bin "$TTCP" \
			--methods write --repeat 1 --duration 0.3s --source-size 4M --cpu procstat \
			--out "$T/f-$name" "$@" >"$T/f-$name.out" 2>"$T/f-$name.err" || rc=$?
		[ $rc = 2 ] || { echo "FAIL: $name: exit $rc, want 2" >&2; cat "$T/f-$name.err" >&2; return 1; }
		one_line "$name" "$T/f-$name.err" "$pat" || return 1
		nothing_left "$name" || return 1
		echo "ok - $name: $(cat "$T/f-$name.err")"
	}
	fault refused "${ZCB_SSH_B/ssh /ssh -p 2 }" 'ssh failed: .*(refused|port 2)' || return 1
	fault nocommand "no-such-ssh $B" 'not a command here' || return 1
	local d bad
	d=$(dirname "$ZCB_SSH_KEY")
	bad="$T/known_bad"
	echo "$B $(cut -d' ' -f1,2 "$d/host_A.pub")" >"$bad" # A's key for B
	fault hostkey "${ZCB_SSH_B/UserKnownHostsFile=$ZCB_SSH_KNOWN/UserKnownHostsFile=$bad}" \
		'ssh failed: Host key verification failed' || return 1
	fault missing "$ZCB_SSH_B" "no ttcp-sf at $T/nowhere/ttcp-sf" --remote-bin "$T/nowhere/ttcp-sf" || return 1
	printf '#!/bin/sh\necho "ttcp-sf zcbench 0.0.1"\n' >"$T/old-ttcp-sf"
	chmod +x "$T/old-ttcp-sf"
	fault version "$ZCB_SSH_B" 'zcbench 0.0.1, here .* same build' --remote-bin "$T/old-ttcp-sf" || return 1

	# 4. TERM mid-run: the far zcs stops too
	# (ip execs env, env execs the script: $! is zc-files itself)
	ip netns exec "$ZCB_NS_A" env ZCB_RSH="$ZCB_SSH_B" "$ZCB_SRCDIR/scripts/zc-files" --to "$B" \
		--bin-dir "$ZCB_BUILDDIR" --methods sendfile --files 3 --size 64k --loops 100000 \
		--repeat 1 --cpu procstat --out "$T/zcs-term" >"$T/term.out" 2>&1 &
	local s=$! up=""
	for _ in $(seq 1 100); do
		leftB | grep -q zcs && { up=1; break; }
		sleep 0.1
	done
	[ -n "$up" ] || { kill -TERM $s; cat "$T/term.out" >&2; echo "FAIL: zcs never ran on B" >&2; return 1; }
	sleep 0.3
	kill -TERM $s
	wait $s
	rc=$?
	[ $rc = 143 ] || { cat "$T/term.out" >&2; echo "FAIL: zc-files on TERM: exit $rc, want 143" >&2; return 1; }
	nothing_left "TERM mid-run" || return 1
	echo "ok - TERM mid-run: zc-files exit 143, the far zcs stopped"
}
export -f steps
"$NH" --sshd -- bash -c steps >"$T/log" 2>&1 || { cat "$T/log"; zcb_fail "remote runs over ssh"; }
cat "$T/log"
ns=$(cat "$T/ns")
ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "the pair $ns was not removed"
[ -e "/run/zcb-netns/$ns" ] && zcb_fail "the keys of $ns were not removed"

for f in "$T"/zvc/ttcp-sf/*.json "$T"/zcf/zcc/*.json; do
	[ "$(jq -r .status "$f")" = ok ] || zcb_fail "$f: status $(jq -r .status "$f")"
	[ "$(jq -r '.peer.hostname // empty' "$f")" != "" ] || zcb_fail "$f: no peer host (the far side's report)"
done
n=$(find "$T/zvc/ttcp-sf" "$T/zcf/zcc" -name '*.json' | wc -l)
[ "$n" = 4 ] || zcb_fail "$n documents, want 4"
zcb_ok "zc-vs-copy --to and zc-files --to over ssh: 4 documents with the peer's report"
