#!/usr/bin/env bash
# report-nightly.sh: scripts/nightly end to end on a tiny suite (a fake
# part writing synthetic documents): a first run with no baseline, a run
# of a 10% slower "kernel" flagged against it (exit 1, comparison, tables,
# plots, summary), a run quiet against itself (exit 0), the trend of the
# last --nights 3 runs against a baseline (one table), the lock against
# an overlapping run (exit 75), and a failed run that leaves earlier
# results untouched and says what failed (exit 2).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
zcb_need_cmd gnuplot
d=$ZCB_TEST_TMP
mkdir -p "$d/parts"
cat >"$d/parts/10-fake.sh" <<'EOS'
# 10-fake: a stand-in part: 5 samples of ttcp-sf-like throughput
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
[ "${FAKE_FAIL:-0}" = 1 ] && { echo "fake part: peer died in phase transfer" >&2; exit 1; }
mkdir -p "$ZCB_OUT/ttcp-sf"
MK_CASES=3 mkdoc "$ZCB_OUT/ttcp-sf/fake.json" "$ZCB_LABEL" "$FAKE_MEAN" "$(echo "$FAKE_MEAN / 100" | bc -l)" 5 "$RANDOM"
EOS
cat >"$d/parts/90-report.sh" <<'EOS'
echo "the report part is not part of the suite" >&2; exit 1
EOS
nightly() { "$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
	--results "$d/res" --repeat 2 --budget 0 "$@"; }
zcb_need_cmd bc

rc=0; FAKE_MEAN=1000 nightly --label k1 >"$d/out1" 2>&1 || rc=$?
cat "$d/out1"
[ $rc = 0 ] || zcb_fail "first run: exit $rc"
grep -q "no earlier run of label k1" "$d/out1" || zcb_fail "first run did not say it had no baseline"
first=$(readlink "$d/res/k1/latest")
[ -f "$d/res/k1/$first/summary.txt" ] || zcb_fail "no summary"
[ "$(find "$d/res/k1/$first" -name '*.json' | wc -l)" = 2 ] || zcb_fail "expected 2 documents (2 rounds)"
zcb_ok "first run stored under k1/$first"

sleep 1
rc=0; FAKE_MEAN=900 nightly --label k2 --baseline k1 >"$d/out2" 2>&1 || rc=$?
cat "$d/out2"
[ $rc = 1 ] || zcb_fail "10% slower run: exit $rc, want 1"
run2="$d/res/k2/$(readlink "$d/res/k2/latest")"
grep -q 'regressions flagged' "$run2/compare.txt" || zcb_fail "no comparison written"
grep -Eq '^Hmean .*\*' "$run2/compare.txt" || zcb_fail "no flagged row"
grep -Eq '^throughput_MBps: Hmean .*\*' "$run2/summary.txt" || zcb_fail "summary lacks the flagged rows"
[ "$(wc -l <"$run2/summary.txt")" -le 24 ] || zcb_fail "summary longer than a screen"
grep -q 'ttcp-sf Results' "$run2/tables.txt" || zcb_fail "no seed tables in tables.txt"
head -c 8 "$run2/plots/ttcp-sf-throughput_MBps.png" | od -An -tx1 | grep -q '89 50 4e 47' || zcb_fail "no PNG plot"
[ -s "$run2/plots/ttcp-sf-throughput_MBps.txt" ] || zcb_fail "no ASCII plot"
grep -q '<table id="verdict-table"' "$run2/report.html" || zcb_fail "no HTML report with its verdict table"
grep -q "^page: .*report.html" "$run2/summary.txt" || zcb_fail "the summary does not name the HTML report"
zcb_ok "k2 10% slower than k1: flagged, exit 1, comparison, tables, plots, summary"

sleep 1
rc=0; FAKE_MEAN=900 nightly --label k2 >"$d/out3" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$d/out3"; zcb_fail "k2 against its previous run: exit $rc, want 0"; }
zcb_ok "k2 against its own previous run: quiet, exit 0"

# --repeat auto: the rounds k1's noise needs (1% noise, 10 runs a case:
# 3 runs find 5% with 90% power, one round of 5)
sleep 1
rc=0; FAKE_MEAN=1000 nightly --label k3 --baseline k1 --repeat auto >"$d/outa" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$d/outa"; zcb_fail "--repeat auto: exit $rc"; }
grep -q 'nightly: --repeat auto: 1 round(s) (for a 5% change at 90% power' "$d/outa" ||
	{ cat "$d/outa"; zcb_fail "--repeat auto did not plan one round"; }
runa="$d/res/k3/$(readlink "$d/res/k3/latest")"
grep -q '^zcbreport plan: 1 round (cap 10)$' "$runa/plan.txt" || zcb_fail "no plan.txt"
[ "$(find "$runa" -name '*.json' -not -name '.*' | wc -l)" = 1 ] || zcb_fail "--repeat auto: not one round"
zcb_ok "--repeat auto: one round for k1's 1% noise, plan.txt kept"

# the trend: baseline k1 against the last --nights 3 runs of k2
sleep 1
rc=0; FAKE_MEAN=900 nightly --label k2 --baseline k1 --nights 3 >"$d/out6" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$d/out6"; zcb_fail "k2 against k1 with a trend: exit $rc, want 1"; }
run6="$d/res/k2/$(readlink "$d/res/k2/latest")"
cat "$run6/trend.txt"
grep -q 'zcbreport compare: k1 against 3 kernels' "$run6/trend.txt" || zcb_fail "no 3-night trend table"
[ "$(grep -c 'ratio \[95% CI\]' "$run6/trend.txt")" = 1 ] || zcb_fail "trend: not one table"
grep -q '^trend: .*trend.txt (k1 against 3 kernels' "$run6/summary.txt" || zcb_fail "summary does not name the trend"
zcb_ok "trend: k1 against the last 3 nights of k2, one table"

# an overlapping run is refused while the lock is held
( exec 8>"$d/res/.lock"; flock 8; exec sleep 30 ) &
holder=$!
zcb_track "$holder"
for _ in $(seq 1 50); do flock -n "$d/res/.lock" true || break; sleep 0.1; done
rc=0; FAKE_MEAN=900 nightly --label k2 >"$d/out4" 2>&1 || rc=$?
{ [ $rc = 75 ] && grep -q "another nightly run holds" "$d/out4"; } || zcb_fail "overlap: exit $rc: $(cat "$d/out4")"
kill "$holder"; wait "$holder" 2>/dev/null
zcb_ok "overlapping run refused (exit 75)"

# a failed run: earlier results untouched, the failure named
before=$(cd "$d/res" && find . -path '*.failed' -prune -o -type f -print | sort | xargs md5sum)
latest=$(readlink "$d/res/k2/latest")
sleep 1
rc=0; FAKE_FAIL=1 FAKE_MEAN=900 nightly --label k2 >"$d/out5" 2>&1 || rc=$?
cat "$d/out5"
[ $rc = 2 ] || zcb_fail "failed part: exit $rc, want 2"
{ grep -q "FAILED: fake(round 1)" "$d/out5" && grep -q "peer died in phase transfer" "$d/out5"; } ||
	zcb_fail "the failure is not named"
after=$(cd "$d/res" && find . -path '*.failed' -prune -o -type f -print | sort | xargs md5sum)
[ "$before" = "$after" ] || zcb_fail "a failed run changed earlier results"
[ "$(readlink "$d/res/k2/latest")" = "$latest" ] || zcb_fail "latest moved to a failed run"
ls -d "$d/res/k2/"*.failed >/dev/null || zcb_fail "the failed run was not kept for inspection"
! ls -d "$d/res/k2/".*.tmp.* >/dev/null 2>&1 || zcb_fail "a temporary directory was left"
zcb_ok "failed run: named, kept as .failed, earlier results untouched (exit 2)"

rc=0; nightly --repeat 0 >"$d/out6" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q -- "--repeat" "$d/out6"; } || zcb_fail "--repeat 0: exit $rc"
zcb_ok "bad option exit 2"
