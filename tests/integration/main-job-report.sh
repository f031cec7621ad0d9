#!/usr/bin/env bash
# main-job-report.sh: the main job's report part finds the profiled runs
# (issue 22: on a fresh run it printed "profile: (skipped: no profiled
# ttcp-sf or zcc results for this layout)" right after part 2 had made
# them under profile/ttcp-sf/, as 90-report left profile/ out of the one
# `table --layout all` that prints the profile layout too).
# main-job runs from a copy in a scratch tree whose main.d holds the real
# 90-report.sh and a stand-in part 2 writing synthetic documents: two
# runs each of write and sendfile, and one profiled run each under
# profile/. Then:
# 1. the report part prints the profile table of the profiled runs, and
#    the seed table of the two runs only (the profiled ones are no extra
#    rows of it);
# 2. `zcbreport table --layout all` of the run directory does the same;
#    the zc-vs-copy layout named alone still reads every document given;
# 3. runs at a fixed rate (rate/) are printed apart, after the saturated
#    table, each table saying its rate, and rate-pick.jq picks it.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
top="$d/top"
mkdir -p "$top/scripts/main.d"
cp "$ZCB_SRCDIR/scripts/main-job" "$ZCB_SRCDIR/scripts/zcb-paths.sh" "$top/scripts/"
cp "$ZCB_SRCDIR/scripts/main.d/90-report.sh" "$top/scripts/main.d/"
cat >"$top/scripts/main.d/20-ttcp-sf.sh" <<EOS
# 20-ttcp-sf: a stand-in: what the real part writes, in small
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
mkdir -p "\$ZCB_OUT/ttcp-sf" "\$ZCB_OUT/profile/ttcp-sf"
for m in write sendfile; do
	for r in 1 2; do
		MK_PARAMS="{\"method\":\"\$m\",\"size\":32768}" MK_VALUES=1000 \\
			mkdoc "\$ZCB_OUT/ttcp-sf/\$m-32768-r\$r.json" "\$ZCB_LABEL" 1000 0 1 1
	done
	# the profiled run: the profile meter's shares as metrics
	MK_PARAMS="{\"method\":\"\$m\",\"size\":32768}" MK_VALUES=500 \\
		mkdoc "\$ZCB_OUT/profile/ttcp-sf/p.json" "\$ZCB_LABEL" 500 0 1 1
	jq '.metrics.prof_local_copy_pct = {unit: "%", better: "lower", rate: false} |
		.cases[].samples[].metrics.prof_local_copy_pct = 12.5' \\
		"\$ZCB_OUT/profile/ttcp-sf/p.json" >"\$ZCB_OUT/profile/ttcp-sf/\$m-32768-r1.json"
	rm "\$ZCB_OUT/profile/ttcp-sf/p.json"
done
EOS

# the seed table of the two runs (MB/s 1000: the profiled runs' 500 is
# not pooled in) and the profile table of the profiled ones
seed_and_profile() { # seed_and_profile WHAT FILE
	grep -q '^--- profile: ' "$2" || zcb_fail "$1: no profile layout: $(cat "$2")"
	! grep -q 'skipped: no profiled ttcp-sf or zcc results' "$2" ||
		zcb_fail "$1: the profiled runs were not found: $(sed -n '/^--- profile/,$p' "$2")"
	grep -q '^Where the CPU went (% of all samples): ttcp-sf$' "$2" || zcb_fail "$1: no profile table"
	[ "$(sed -n '/^Where the CPU went/,$p' "$2" | grep -Ec '^32768 +(write|sendfile) +12\.5% .* 500\.0$')" = 2 ] ||
		zcb_fail "$1: the profile table lacks the profiled runs: $(sed -n '/^Where the CPU went/,$p' "$2")"
	[ "$(sed -n '/^Copy against zero-copy: ttcp-sf/,/^---/p' "$2" | grep -Ec ' (write|sendfile) .* 1000\.0')" = 2 ] ||
		zcb_fail "$1: the seed table is not of the two runs alone: $(sed -n '/^Copy against zero-copy: ttcp-sf/,/^---/p' "$2")"
	sed -n '/^Copy against zero-copy: ttcp-sf/,/^---/p' "$2" | grep -q 'of 2 runs per row' ||
		zcb_fail "$1: the profiled runs were pooled into the seed table"
}

rc=0
"$top/scripts/main-job" --build "$ZCB_BUILDDIR" --out "$d/run" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "main-job: exit $rc: $(cat "$d/out")"
seed_and_profile "the report part" "$d/out"
zcb_ok "the report part: the profile table of profile/, the seed table of the runs alone"

"$Z" table --layout all "$d/run" >"$d/all" 2>"$d/err" || zcb_fail "table --layout all: $(cat "$d/err")"
seed_and_profile "table --layout all" "$d/all"
"$Z" table --layout zc-vs-copy "$d/run/profile" >"$d/zvc" 2>"$d/err" ||
	zcb_fail "table --layout zc-vs-copy of profile/: $(cat "$d/err")"
[ "$(grep -Ec ' (write|sendfile) .* 500\.0' "$d/zvc")" = 2 ] ||
	zcb_fail "the zc-vs-copy layout named alone left the profiled runs out: $(cat "$d/zvc")"
zcb_ok "table --layout all: the same; a layout named alone reads every document"

# 3. the table at one rate (issue 24): 20-ttcp-sf's rate/ runs are
#    printed apart, after the saturated table, which stays as it was;
#    both seed layouts say the rate; the rate is half the slowest
#    method's saturated one, rounded down (rate-pick.jq)
cat >>"$top/scripts/main.d/20-ttcp-sf.sh" <<EOS
mkdir -p "\$ZCB_OUT/rate/ttcp-sf"
for m in write sendfile; do
	MK_PARAMS="{\"method\":\"\$m\",\"size\":32768,\"role\":\"transmit\",\"rate\":\"1Gbit/s\"}" MK_VALUES=125 \\
		mkdoc "\$ZCB_OUT/rate/ttcp-sf/\$m-32768-r1.json" "\$ZCB_LABEL" 125 0 1 1
done
EOS
rc=0
"$top/scripts/main-job" --build "$ZCB_BUILDDIR" --out "$d/run2" >"$d/out2" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "main-job with a rate: exit $rc: $(cat "$d/out2")"
seed_and_profile "the report part with a rate" "$d/out2"
sed -n '/^--- at one rate/,$p' "$d/out2" >"$d/rate"
grep -q '^Copy against zero-copy: ttcp-sf at 1Gbit/s$' "$d/rate" || zcb_fail "no fixed-rate table: $(cat "$d/out2")"
[ "$(grep -Ec ' (write|sendfile) .* 125\.0$' "$d/rate")" = 2 ] || zcb_fail "the fixed-rate table: $(cat "$d/rate")"
grep -q '^ttcp-sf Results at 1Gbit/s$' "$d/rate" || zcb_fail "the seed 001 lines at the rate: $(cat "$d/rate")"
! sed -n '/^Copy against zero-copy: ttcp-sf$/,/^---/p' "$d/out2" | grep -q '125\.0' ||
	zcb_fail "the fixed-rate runs were pooled into the saturated table"
zcb_ok "the report part: the saturated table, then the fixed-rate one, each saying its rate"
# half the slowest method's median (write 1000, sendfile 600 MB/s: 2400
# Mbit/s) rounded down to 1, 2 or 5 times a power of ten
mkdir -p "$d/sat"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
for m in write:1000 sendfile:600 sendfile:700 sendfile:650; do
	MK_PARAMS="{\"method\":\"${m%%:*}\",\"size\":32768,\"role\":\"transmit\"}" MK_VALUES=${m#*:} \
		mkdoc "$d/sat/${m%%:*}-${m#*:}.json" x 1 0 1 1
done
[ "$(jq -rs -f "$ZCB_SRCDIR/scripts/rate-pick.jq" "$d"/sat/*.json)" = 2000M ] ||
	zcb_fail "rate-pick: $(jq -rs -f "$ZCB_SRCDIR/scripts/rate-pick.jq" "$d"/sat/*.json), not 2000M"
[ -z "$(jq -rs -f "$ZCB_SRCDIR/scripts/rate-pick.jq" "$d/run2/rate/ttcp-sf/"*.json)" ] ||
	zcb_fail "rate-pick took paced runs for saturated ones"
zcb_ok "rate-pick: half the slowest method's rate, rounded down: 2000M"
