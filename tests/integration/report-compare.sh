#!/usr/bin/env bash
# report-compare.sh: zcbreport compare flags a clear regression (exit 1,
# a `*` row, mmtests/lkp layout, host differences above the table),
# stays quiet on identical and on same-distribution runs (exit 0), says
# "not judged" for too few or too noisy samples, and compares
# interleaved copy vs zero-copy runs paired (--split --paired).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/base" "$d/slow" "$d/same" "$d/copy" "$d/few" "$d/noisy" "$d/pair"

# baseline: 1000 MB/s +- 1%, 10 runs; slow: 10% lower on another kernel
mkdoc "$d/base/r.json" 6.1.0 1000 10 10 1
MK_KERNEL=6.2.0-rc1 mkdoc "$d/slow/r.json" 6.2.0 900 10 10 2
mkdoc "$d/same/r.json" 6.1.0 1000 10 10 3
cp "$d/base/r.json" "$d/copy/r.json"

rc=0; "$Z" compare "$d/base" "$d/slow" >"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 1 ] || zcb_fail "clear regression: exit $rc, want 1 ($(cat "$d/err"))"
grep -Eq '^Hmean +ttcp-sf method=sendfile size=65536 +[0-9.]+ +\+- [0-9.]+% +\( +0\.00%\) +[0-9.]+ +\+- [0-9.]+% +\( +-[0-9.]+%\) +\*' "$d/out" ||
	zcb_fail "no flagged Hmean row in mmtests layout"
grep -q 'kernel_release *6.1.0 -> 6.2.0-rc1' "$d/out" || zcb_fail "kernel difference not shown above the table"
grep -q 'REGRESSION' "$d/out" || zcb_fail "no REGRESSION note"
grep -q '2 regressions flagged' "$d/out" || zcb_fail "summary line wrong (throughput and CPU both worse)"
zcb_ok "10% slowdown flagged, exit 1"

for other in copy same; do
	rc=0; "$Z" compare "$d/base" "$d/$other" >"$d/out" 2>"$d/err" || rc=$?
	[ $rc = 0 ] || { cat "$d/out"; zcb_fail "$other: exit $rc, want 0"; }
	grep -q '0 regressions flagged' "$d/out" || zcb_fail "$other: flagged something"
	! grep -q ' \* ' "$d/out" || zcb_fail "$other: a * row"
	grep -q 'Hosts: same kernel' "$d/out" || zcb_fail "$other: host line"
done
zcb_ok "identical and same-distribution runs: quiet, exit 0"

# an improvement is not a regression
rc=0; "$Z" compare "$d/slow" "$d/base" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "improvement: exit $rc"
grep -q improved "$d/out" || zcb_fail "improvement not noted"
zcb_ok "improvement noted, exit 0"

# a 10% change below --threshold 15 is not flagged
rc=0; "$Z" compare --threshold 15 "$d/base" "$d/slow" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "--threshold 15: exit $rc"
zcb_ok "--threshold respected"

# too few samples, too noisy: not judged
MK_VALUES=900,901 mkdoc "$d/few/r.json" 6.2.0 0 0 0 0
rc=0; "$Z" compare "$d/base" "$d/few" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "n=2: exit $rc"
grep -q 'too few samples: not judged (n=10/2)' "$d/out" || zcb_fail "n=2 not said"
mkdoc "$d/noisy/r.json" 6.1.0 1000 400 10 4
rc=0; "$Z" compare "$d/noisy" "$d/slow" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "noisy baseline: exit $rc"
grep -q 'baseline too noisy: not judged' "$d/out" || zcb_fail "noise not said"
zcb_ok "too few / too noisy: not judged"

# paired: copy vs zero-copy interleaved on one kernel, one directory
MK_PARAMS='{"method":"write","size":65536}' mkdoc "$d/pair/w.json" 6.18 1000 20 10 7
MK_PARAMS='{"method":"sendfile","size":65536}' mkdoc "$d/pair/s.json" 6.18 800 20 10 8
rc=0; "$Z" compare --paired --split method=write,sendfile "$d/pair" >"$d/out" 2>&1 || rc=$?
cat "$d/out"
[ $rc = 1 ] || zcb_fail "paired slowdown: exit $rc"
grep -q 'signed-rank' "$d/out" || zcb_fail "paired test not named"
grep -Eq '^Hmean +ttcp-sf size=65536 .*\*' "$d/out" || zcb_fail "paired row not flagged"
zcb_ok "paired split compare flags sendfile 20% slower, exit 1"

# --looks K: each look at Pocock's level (two-sided here: 2 x 0.01102
# for 3 looks at 0.05); a 0.9% change with q 0.037 is flagged at one
# look, not at one of three
mkdir -p "$d/lk"
mkdoc "$d/lk/b.json" 6.1.0 1000 10 10 1
MK_KERNEL=6.2.0 mkdoc "$d/lk/n.json" 6.2.0 984 10 10 5
rc=0; "$Z" compare --threshold 0.5 "$d/lk/b.json" "$d/lk/n.json" >"$d/out" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "--looks 1: exit $rc, want 1: $(cat "$d/out")"
! grep -q '^looks:' "$d/out" || zcb_fail "--looks 1 said looks"
rc=0; "$Z" compare --threshold 0.5 --looks 3 "$d/lk/b.json" "$d/lk/n.json" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "--looks 3: exit $rc, want 0: $(cat "$d/out")"
grep -q '^looks: this judging is one of 3 planned looks .* each look at alpha 0.02205 (two-sided z 2.290)' "$d/out" ||
	zcb_fail "--looks 3: the level not said: $(cat "$d/out")"
"$Z" compare -f json --looks 3 "$d/lk/b.json" "$d/lk/n.json" 2>/dev/null |
	jq -e '.looks == 3 and .alpha_all == 0.05 and (.alpha * 1e5 | round) == 2205' >/dev/null ||
	zcb_fail "--looks 3: the JSON does not carry looks, alpha_all, alpha"
rc=0; "$Z" compare --looks 21 "$d/lk/b.json" "$d/lk/n.json" >/dev/null 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q -- --looks "$d/err"; } || zcb_fail "--looks 21: exit $rc: $(cat "$d/err")"
zcb_ok "--looks 3: a change flagged at one look is not at Pocock's level for three; said in text and JSON"

# usage errors: exit 2
rc=0; "$Z" compare "$d/base" >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "one argument: exit $rc"
rc=0; "$Z" compare --alpha 2 "$d/base" "$d/slow" >/dev/null 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q -- --alpha "$d/err"; } || zcb_fail "--alpha 2: exit $rc"
zcb_ok "usage errors exit 2"
