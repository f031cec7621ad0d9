#!/usr/bin/env bash
# report-pairkey.sh: a case's key in compare knows the meter that paired
# its runs (issue 26, item 7). The main job (scripts/main.d/20-ttcp-sf.sh)
# runs write and sendfile soak-paired for the seed's table, then again
# paired by the profiler under profile/, with the same params. Pooled
# into one case, the soak CPU of the metered runs met /proc/stat's of the
# unprofiled runs, and every night the CPU and service demand of write
# and sendfile were "not comparable: base from runs with and without
# soakers". Now:
# 1. two main-job-shaped runs (tests/data/report/mkpaired.sh) compare
#    with every soak-paired row judged, none "not comparable", and a 10%
#    rise of write's service demand flagged;
# 2. the profiled runs are their own cases, "(paired by profile)", each
#    row judged against the other night's profiled runs only;
# 3. unpaired runs and soak-paired ones still share a key (their figures
#    are told apart row by row, report-paired.sh).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkpaired.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

# night DIR LABEL SD: a main job's ttcp-sf documents, write's soak service
# demand SD: the seed's methods soak-paired (3 pairs), write and
# sendfile again profile-paired (3 pairs) under profile/
night() {
	local dir=$1 label=$2 sd=$3 soak prof
	mkdir -p "$dir/profile"
	soak=$(jq -n --argjson sd "$sd" '[["write", $sd], ["sendfile", 0.6]] | map(
		{params: {method: .[0], size: 32768, role: "transmit", proto: "tcp"},
		 ratios: [0.97, 0.98, 0.99], base: {throughput_MBps: 900},
		 soak: {cpu_local_pct: 40, sd_local_us_per_kb: .[1]},
		 procstat: {cpu_local_procstat_pct: 38}})')
	prof=$(jq -n '["write", "sendfile"] | map(
		{params: {method: ., size: 32768, role: "transmit", proto: "tcp"},
		 ratios: [0.96, 0.97, 0.98], sides: ["local"],
		 base: {throughput_MBps: 880}, soak: {prof_local_copy_pct: 17},
		 procstat: {cpu_local_pct: 36, cpu_local_procstat_pct: 36,
			    sd_local_us_per_kb: 1.1}})')
	mkpaired "$dir/ttcp.json" ttcp-sf "$label" "$soak"
	MK_METER=profile mkpaired "$dir/profile/ttcp.json" ttcp-sf "$label" "$prof"
}
night "$d/a" 6.18 1.2
night "$d/b" 6.18 1.32

# 1. every row of the soak-paired cases judged; write's +10% flagged
rc=0
"$Z" compare "$d/a" "$d/b" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "compare of two main-job runs: exit $rc (1: a regression): $(cat "$d/cmp")"
! grep -q 'not comparable' "$d/cmp" || zcb_fail "rows not comparable: $(grep 'not comparable' "$d/cmp")"
# row METRIC: the rows of one metric's table
row() { sed -n "/^$1 (/,/^\$/p" "$d/cmp" | grep '^[HA]mean'; }
for m in cpu_local_pct sd_local_us_per_kb; do
	for meth in write sendfile; do
		row "$m" | grep -E "method=$meth size=32768 role=transmit proto=tcp +[0-9]" |
			grep -q '(n=3/3)' || zcb_fail "$m of $meth not judged: $(row "$m")"
	done
done
row sd_local_us_per_kb | grep 'method=write size=32768 role=transmit proto=tcp  ' |
	grep -q 'REGRESSION' || zcb_fail "write's +10% service demand not flagged: $(row sd_local_us_per_kb)"
zcb_ok "two main-job runs: write and sendfile CPU and service demand judged, a rise flagged"

# 2. the profiled runs: own cases, judged against the other's profiled runs
for meth in write sendfile; do
	row cpu_local_pct | grep -F "method=$meth size=32768 role=transmit proto=tcp (paired by profile)" |
		grep -q '36.00 .*36.00 .*no change' ||
		zcb_fail "$meth's profiled runs not their own judged case: $(row cpu_local_pct)"
done
[ "$(row prof_local_copy_pct | grep -c '(paired by profile)')" = 2 ] ||
	zcb_fail "the profile's figures not under the profiled cases: $(row prof_local_copy_pct)"
grep -q 'cases only in base: \|only in new' "$d/cmp" && zcb_fail "cases unmatched: $(cat "$d/cmp")"
zcb_ok "profiled runs are cases of their own, \"(paired by profile)\""

# 3. unpaired runs (an older document) still meet the soak-paired ones
MK_UNPAIRED=1 mkpaired "$d/old.json" ttcp-sf 6.18 "$(jq -n '[{params: {method: "write",
	size: 32768, role: "transmit", proto: "tcp"}, ratios: [0.97, 0.98, 0.99],
	base: {throughput_MBps: 900}, soak: {cpu_local_pct: 40}}]')"
rc=0
"$Z" compare -m cpu_local_pct "$d/old.json" "$d/a/ttcp.json" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "unpaired against paired: exit $rc: $(cat "$d/cmp")"
grep -q '1 rows\?, 1 judged' "$d/cmp" || zcb_fail "unpaired and soak-paired runs do not share a key: $(cat "$d/cmp")"
zcb_ok "unpaired and soak-paired runs share a key"
