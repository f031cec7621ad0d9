#!/usr/bin/env bash
# cyclesoak-share: two measuring processes on one box share ONE soaker
# set (netperf's looper ran one per process and read 75% for a true 50%);
# the set lives until the last of them leaves.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
cs_lock
T=$ZCB_TEST_TMP
cs_fixture_calibration

"$CS" -v -p 0.2 -n 15 -o "$T/a.json" >"$T/a.out" 2>"$T/a.err" &
A=$!
zcb_track $A
"$CS" -v -p 0.2 -n 5 -o "$T/b.json" >"$T/b.out" 2>"$T/b.err" &
B=$!
zcb_track $B
HA=$(cs_host_pid "$T/a.err") || zcb_fail "A named no soak host: $(cat "$T/a.err")"
HB=$(cs_host_pid "$T/b.err") || zcb_fail "B named no soak host: $(cat "$T/b.err")"
[ "$HA" = "$HB" ] || zcb_fail "two soak hosts: $HA and $HB"
n=$(pgrep -c -P "$HA")
[ "$n" -eq "$NCPU" ] || zcb_fail "$n soakers for $NCPU CPUs"
hosts=$(pgrep -x zcb-soakhost | while read -r p; do
	tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "ZCB_SOAK_SOCKET=$ZCB_SOAK_SOCKET" && echo "$p"
done | wc -l)
[ "$hosts" -eq 1 ] || zcb_fail "$hosts soak hosts on our socket"
zcb_ok "two clients, one soak host ($HA), $n soakers"

# B leaves first: the set stays for A
wait $B || zcb_fail "B failed: $(cat "$T/b.err")"
kill -0 "$HA" 2>/dev/null || zcb_fail "soak host left with A still measuring"
SOAKERS=$(pgrep -P "$HA" | tr '\n' ' ')
wait $A || zcb_fail "A failed: $(cat "$T/a.err")"
# shellcheck disable=SC2086
cs_no_leftovers "$HA" $SOAKERS
jq -e '(.cases[0].samples | length) == 15' "$T/a.json" >/dev/null || zcb_fail "A's document"
jq -e '(.cases[0].samples | length) == 5' "$T/b.json" >/dev/null || zcb_fail "B's document"
zcb_ok "the set lives until the last client leaves"

# two first openers racing: still one host
for i in 1 2 3 4; do
	"$CS" -v -p 0.2 -n 3 >/dev/null 2>"$T/r$i.err" &
	zcb_track $!
done
for i in 1 2 3 4; do cs_host_pid "$T/r$i.err" >>"$T/hosts" || zcb_fail "racer $i: $(cat "$T/r$i.err")"; done
[ "$(sort -u "$T/hosts" | wc -l)" -eq 1 ] || zcb_fail "racing openers made hosts: $(sort -u "$T/hosts" | tr '\n' ' ')"
wait
cs_wait_no_host || zcb_fail "soak host outlived the racers"
zcb_ok "4 racing openers share one host"
