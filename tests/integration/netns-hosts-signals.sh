#!/usr/bin/env bash
# netns-hosts-signals.sh: scripts/netns-hosts -- CMD on Ctrl-C (SIGINT to
# its process group), SIGTERM and SIGHUP stops CMD, what CMD started in
# the namespaces and the namespaces within seconds; a tc that refuses the
# rate leaves nothing behind (-- and up); `cleanup` removes the pair of
# a netns-hosts killed with SIGKILL (and a stray veth of a dead owner),
# and keeps a pair whose owner still runs.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_root
zcb_need_cmd ip iproute2
zcb_need_cmd setsid
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
"$NH" -- true 2>"$T/probe" || zcb_skip "network namespaces unavailable: $(head -1 "$T/probe")"
set -m # each background job in a group of its own, SIGINT not ignored

has_ns() { ip netns list | awk '{ print $1 }' | grep -qxF -- "$1"; }

# start_pair NAME: netns-hosts -- CMD in the background; CMD starts a
# process in B and waits; sets nh a b cmdpid inner
start_pair() {
	rm -f "$T/info"
	# shellcheck disable=SC2016 # expanded by the command's own shell
	"$NH" -- bash -c 'ip netns exec "$ZCB_NS_B" sleep 60 &
		echo "$ZCB_NS_A $ZCB_NS_B $$ $!" >"$0.tmp" && mv "$0.tmp" "$0"
		sleep 60' "$T/info" >"$T/out-$1" 2>&1 &
	nh=$!
	zcb_track "$nh"
	for _ in $(seq 1 100); do
		[ -s "$T/info" ] && break
		sleep 0.1
	done
	[ -s "$T/info" ] || zcb_fail "$1: the command did not start: $(cat "$T/out-$1")"
	read -r a b cmdpid inner <"$T/info"
	zcb_track "$cmdpid"
	zcb_track "$inner"
	zcb_on_exit "'$NH' down '$a' '$b'"
}

wait_exit() { # wait_exit PID SECONDS: its status in rc
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -lt "$deadline" ] || zcb_fail "still running $2 s after the signal"
		sleep 0.1
	done
	wait "$1"
	rc=$?
}

gone() { # gone NAME RC: nothing left
	[ "$rc" = "$2" ] || zcb_fail "$1: exit $rc, want $2: $(cat "$T/out-$1")"
	zcb_wait_gone "$cmdpid" 5 || zcb_fail "$1: the command ($cmdpid) still runs"
	zcb_wait_gone "$inner" 5 || zcb_fail "$1: its process in $b ($inner) still runs"
	has_ns "$a" && zcb_fail "$1: $a left behind"
	has_ns "$b" && zcb_fail "$1: $b left behind"
	return 0
}

start_pair int
kill -INT -- "-$nh"
wait_exit "$nh" 15
gone int 130
zcb_ok "Ctrl-C: command, its process in the namespace and the pair gone (exit 130)"

start_pair term
kill -TERM "$nh"
wait_exit "$nh" 15
gone term 143
zcb_ok "SIGTERM: the same (exit 143)"

start_pair hup
kill -HUP "$nh"
wait_exit "$nh" 15
gone hup 129
zcb_ok "SIGHUP: the same (exit 129)"

# tc refuses the rate: nothing left, in both modes
"$NH" --rate 0bit -- true >"$T/out-tc" 2>&1 &
p=$!
wait "$p" && zcb_fail "a refused rate was not an error"
ip netns list | grep -q -- "-$p-" && zcb_fail "tc failed (--): left $(ip netns list | grep -- "-$p-")"
rc=0; "$NH" --rate 0bit up >"$T/out-tcup" 2>&1 || rc=$?
[ $rc != 0 ] || zcb_fail "up: a refused rate was not an error"
ip netns list | grep -q -- "-$$-" && zcb_fail "tc failed (up): left $(ip netns list | grep -- "-$$-")"
zcb_ok "tc refusing the rate leaves no namespace (-- and up)"

# a crash (SIGKILL) leaves the pair; cleanup removes it, not a live one
start_pair crash
kill -KILL "$nh"
wait "$nh" 2>/dev/null
kill -TERM "$cmdpid" 2>/dev/null # the command itself ran outside the namespaces
has_ns "$a" || zcb_fail "crash: the pair is already gone (nothing to clean up)"
sleep 60 &
keeper=$!
zcb_track "$keeper"
"$NH" --owner "$keeper" up >"$T/env" || zcb_fail "up --owner failed"
la=$(sed -n 's/^export ZCB_NS_A=\([^ ]*\) .*/\1/p' "$T/env")
lb=$(sed -n 's/^export ZCB_NS_A=[^ ]* ZCB_NS_B=\(.*\)$/\1/p' "$T/env")
zcb_on_exit "'$NH' down '$la' '$lb'"
# a stray veth of a dead owner, made in a namespace of this test's own
sh -c 'exit 0' &
dead=$!
wait "$dead"
ip netns add "zcbtest-veth-$$" || zcb_fail "cannot make a namespace"
zcb_on_exit "ip netns del 'zcbtest-veth-$$'"
ip -n "zcbtest-veth-$$" link add "zva${dead}x00ab" type veth peer name "zvb${dead}x00ab" ||
	zcb_fail "cannot make a veth pair"
ip netns exec "zcbtest-veth-$$" "$NH" cleanup >"$T/out-clean" 2>&1 || zcb_fail "cleanup failed: $(cat "$T/out-clean")"
cat "$T/out-clean"
has_ns "$a" && zcb_fail "cleanup kept $a of a dead owner"
has_ns "$b" && zcb_fail "cleanup kept $b of a dead owner"
zcb_wait_gone "$inner" 5 || zcb_fail "cleanup left $inner running in $b"
has_ns "$la" || zcb_fail "cleanup removed $la, whose owner $keeper runs"
has_ns "$lb" || zcb_fail "cleanup removed $lb, whose owner $keeper runs"
ip -n "zcbtest-veth-$$" link show "zva${dead}x00ab" >/dev/null 2>&1 &&
	zcb_fail "cleanup kept the stray veth zva${dead}x00ab"
"$NH" down "$la" "$lb"
has_ns "$la" && zcb_fail "down left $la"
zcb_ok "cleanup: a crashed pair (and what ran in it) and a stray veth removed; a live pair kept"
