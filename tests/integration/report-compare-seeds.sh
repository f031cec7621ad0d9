#!/usr/bin/env bash
# report-compare-seeds.sh: zcbreport compare on the seeds' own figures.
# 1. Seed 004's two kernels carry n = 50, a mean and a standard
#    deviation and one sample each: compare judges them by Welch from
#    the summaries, says so, and flags the 11.8% msgs/s drop as a
#    significant regression (exit 1); the whole output equals
#    tests/data/report/compare-seed004.txt.
# 2. Host facts missing on both sides print as "unknown", never
#    "same"; one side missing is a difference ("unknown -> 6.2.0").
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
seeds=$ZCB_SRCDIR/results/seeds
data=$ZCB_SRCDIR/tests/data/report
d=$ZCB_TEST_TMP

golden() { # golden EXPECTED OUTPUT
	if ! cmp -s "$1" "$2"; then
		diff -u "$1" "$2" >&2
		zcb_fail "output differs from $1"
	fi
}

rc=0
"$Z" compare "$seeds/004a-chat-pre2.json" "$seeds/004b-chat-pre3.json" \
	>"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 1 ] || zcb_fail "seed 004: exit $rc, want 1 ($(cat "$d/err"))"
[ ! -s "$d/err" ] || zcb_fail "seed 004: diagnostics: $(cat "$d/err")"
grep -Eq '^Amean +chatbench size=100 nodelay=no +247565\.4 .*\( -11\.84%\) +\* .*REGRESSION \(n=50/50\) from summaries' "$d/out" ||
	zcb_fail "seed 004: the msgs/s drop is not a flagged regression judged from summaries"
grep -q 'judged from summaries: Welch' "$d/out" || zcb_fail "seed 004: no word on summaries"
! grep -q 'Hosts: same kernel' "$d/out" || zcb_fail "seed 004: empty kernels called same"
grep -q 'unknown on both sides (not recorded): kernel_release' "$d/out" ||
	zcb_fail "seed 004: unknown kernel not said"
golden "$data/compare-seed004.txt" "$d/out"
zcb_ok "seed 004: 11.8% msgs/s drop flagged from summaries (t = 16), golden"

# a published side against 70 runs of one case: every run counts
# (64 at 200000 msg/s and 6 at 300000: mean 208571.4)
mkdir -p "$d/many"
for i in $(seq 1 70); do
	v=200000; [ "$i" -le 64 ] || v=300000
	jq --argjson v "$v" '.label = "many" | .run_id = "\(.run_id)" |
		.cases[0].samples[0].metrics.msgs_per_s = $v |
		.cases[0].summary.msgs_per_s = {n: 1, mean: $v, stddev: null,
			cov: null, min: $v, median: $v, max: $v, ci95: [null, null]}' \
		"$seeds/004b-chat-pre3.json" >"$d/many/r$i.json"
done
"$Z" compare -m msgs_per_s "$seeds/004a-chat-pre2.json" "$d/many" >"$d/out" 2>"$d/err" ||
	[ $? = 1 ] || zcb_fail "70 runs: $(cat "$d/err")"
grep -Eq '^Amean +chatbench .* 208571\.4 ' "$d/out" ||
	{ cat "$d/out"; zcb_fail "70 runs against a summary: not every run pooled"; }
grep -q '(n=50/70) from summaries' "$d/out" || zcb_fail "70 runs: n not 50/70"
zcb_ok "a published side against 70 runs: all 70 pooled"

# measured documents without kernel or cmdline
mkdoc "$d/a.json" 6.1.0 1000 10 10 1
mkdoc "$d/b.json" 6.1.0 1000 10 10 2
for f in a b; do
	jq '.host.kernel_release = "" | .host.cmdline = ""' "$d/$f.json" >"$d/$f.x.json"
done
"$Z" compare "$d/a.x.json" "$d/b.x.json" >"$d/out" 2>&1 || zcb_fail "blank hosts: exit $?"
! grep -q 'Hosts: same kernel' "$d/out" || zcb_fail "blank kernels called same"
grep -q 'unknown on both sides (not recorded): kernel_release, kernel_version, cmdline' "$d/out" ||
	{ cat "$d/out"; zcb_fail "blank kernels not unknown"; }
"$Z" compare "$d/a.x.json" "$d/b.json" >"$d/out" 2>&1 || zcb_fail "one blank host: exit $?"
grep -Eq '^  kernel_release +unknown -> 6\.1\.0$' "$d/out" ||
	{ cat "$d/out"; zcb_fail "unknown -> 6.1.0 not shown"; }
"$Z" compare "$d/a.json" "$d/b.json" >"$d/out" 2>&1 || zcb_fail "known hosts: exit $?"
grep -q 'unknown on both sides (not recorded): kernel_version, mem_bytes$' "$d/out" ||
	zcb_fail "absent kernel_version not unknown"
grep -q 'Hosts: same kernel, cmdline' "$d/out" || zcb_fail "known hosts: not same"
zcb_ok "missing host facts are unknown, never same"
