#!/usr/bin/env bash
# cmdline-2001.sh: the command lines seed 001's readers would type.
# 1. cyclesoak -C calibrates (the 2001 option; --calibrate today);
#    -N N soaks N CPUs (the original forked N soakers): a calibration
#    with -N 1 holds one CPU; -N beyond the allowed CPUs, or with --cpus,
#    is refused naming --cpus; -B (bind, per-CPU shares) is accepted and
#    says it is always on; -p is the period in seconds.
# 2. ttcp-sf -t -c -l 32768 -v HOST, as typed in seed 001 (no -m), says
#    which method it sends with and how to get the 2001 tool's
#    sendfile; with -m sendfile it names sendfile only. The receiver's
#    line (-r -c -l 32768 -v) names its method too.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq
cs_lock
T=$ZCB_TEST_TMP

# cs_try CMD...: a calibration, again (up to 5 times) while a soaker got
# no cycles at all because parallel tests filled the box
cs_try() {
	for _ in 1 2 3 4 5; do
		"$@" >"$T/out" 2>&1 && return 0
		grep -q "got no cycles" "$T/out" || return 1
		sleep 2
	done
	zcb_skip "box fully busy: $(grep -m1 'got no cycles' "$T/out")"
}

cs_try "$CS" -C --rounds 2 --round-time 0.2 --force --calib-file "$T/c.json" ||
	zcb_fail "cyclesoak -C: $(cat "$T/out")"
jq -e --argjson n "$NCPU" '(.cpus | length) == $n and all(.cpus[]; .rate > 0)' \
	"$T/c.json" >/dev/null || zcb_fail "-C stored no calibration: $(cat "$T/c.json")"
zcb_ok "cyclesoak -C calibrates"

cs_try "$CS" -N 1 -C --rounds 2 --round-time 0.2 --force --calib-file "$T/c1.json" ||
	zcb_fail "cyclesoak -N 1 -C: $(cat "$T/out")"
[ "$(jq '.cpus | length' "$T/c1.json")" = 1 ] || zcb_fail "-N 1: $(cat "$T/c1.json")"
zcb_ok "cyclesoak -N 1 soaks one CPU"

rc=0; "$CS" -N $((NCPU + 1)) -n 1 >"$T/out" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q -- '--cpus=LIST' "$T/out"; } ||
	zcb_fail "-N beyond the CPUs: exit $rc, $(cat "$T/out")"
rc=0; "$CS" -N 1 --cpus 0 -n 1 >"$T/out" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q -- '-N: not with --cpus' "$T/out"; } ||
	zcb_fail "-N with --cpus: exit $rc, $(cat "$T/out")"
zcb_ok "-N refused beyond the allowed CPUs or with --cpus, naming --cpus"

"$CS" -B -p 1 -n 1 --calib-file "$T/c.json" >"$T/out" 2>"$T/err" ||
	zcb_fail "cyclesoak -B -p 1 -n 1: $(cat "$T/err")"
grep -q 'System load:' "$T/out" || zcb_fail "-B: no System load line: $(cat "$T/out")"
grep -q -- '-B: the soakers are always bound' "$T/err" || zcb_fail "-B: not explained: $(cat "$T/err")"
"$CS" -h | grep -q 'The 2001 cyclesoak' || zcb_fail "--help does not name the 2001 options"
zcb_ok "cyclesoak -B -p 1: accepted, said to be always on"

# ttcp-sf as seed 001 typed it (plus a port and a short count)
tt_recv "$T/r" -c -l 32768 -v
"$TTCP" -t -c -l 32768 -v -p "$TT_PORT" -n 64 127.0.0.1 >"$T/t.txt" 2>&1 ||
	zcb_fail "ttcp-sf -t -c -l 32768 -v: $(cat "$T/t.txt")"
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "receiver: exit $TT_RRC: $(cat "$T/r.txt")"
grep -q '^ttcp-t: method write (the default, a copy: -m sendfile sends as the 2001 ttcp-sf did)' "$T/t.txt" ||
	zcb_fail "the method is not said: $(cat "$T/t.txt")"
grep -q '^ttcp-r: buflen=32768.* method read$' "$T/r.txt" || zcb_fail "receiver method: $(cat "$T/r.txt")"
tt_recv "$T/r2" -l 32768
"$TTCP" -t -l 32768 -m sendfile -p "$TT_PORT" -n 16 127.0.0.1 >"$T/t2.txt" 2>&1 ||
	zcb_fail "ttcp-sf -m sendfile: $(cat "$T/t2.txt")"
tt_wait_recv
grep -q '^ttcp-t: method sendfile, source' "$T/t2.txt" || zcb_fail "-m sendfile: $(cat "$T/t2.txt")"
zcb_ok "ttcp-sf -t -c -l 32768 -v says it sends with write and how to get sendfile"
