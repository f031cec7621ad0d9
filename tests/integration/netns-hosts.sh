#!/usr/bin/env bash
# netns-hosts.sh: scripts/netns-hosts up/down and -- CMD: the pair exists
# while asked, the two ends reach each other, and nothing is left behind,
# also when the command fails. A bad option is refused with exit 2.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_root
zcb_need_cmd ip iproute2
NH="$ZCB_SRCDIR/scripts/netns-hosts"
T=$ZCB_TEST_TMP
"$NH" -- true 2>"$T/probe" || zcb_skip "network namespaces unavailable: $(head -1 "$T/probe")"
rc=0; "$NH" --rate fast -- true 2>/dev/null || rc=$?
[ $rc = 2 ] || zcb_fail "bad --rate: exit $rc"
"$NH" up >"$T/env" || zcb_fail "up failed"
a=$(sed -n 's/^export ZCB_NS_A=\([^ ]*\) .*/\1/p' "$T/env")
b=$(sed -n 's/^export ZCB_NS_A=[^ ]* ZCB_NS_B=\(.*\)$/\1/p' "$T/env")
zcb_on_exit "'$NH' down '$a' '$b'"
# A reaches B: bash's /dev/tcp to a listener in B (no ping installed here)
ip netns exec "$b" "$(zcb_bin ttcp-sf)" -r -p 5001 --wait 5 --report-timeout 1s >"$T/r" 2>&1 &
zcb_track $!
sleep 0.3
ip netns exec "$a" "$(zcb_bin ttcp-sf)" -t -p 5001 -n 10 10.200.0.2 >"$T/t" 2>&1 || zcb_fail "A cannot reach B"
wait
"$NH" down "$a" "$b"
ip netns list | grep -q "$a" && zcb_fail "down left $a"
rc=0
# shellcheck disable=SC2016 # the command's own bash expands it
"$NH" -- bash -c 'echo "$ZCB_NS_A" >"$0"; exit 3' "$T/ns" || rc=$?
[ $rc = 3 ] || zcb_fail "-- CMD: exit status $rc not passed on"
ip netns list | grep -q "$(cat "$T/ns")" && zcb_fail "a failing command left its pair"
zcb_ok "netns-hosts up/down/-- and cleanup"
