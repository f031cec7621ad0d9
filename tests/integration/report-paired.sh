#!/usr/bin/env bash
# report-paired.sh: zcbreport over paired runs (soak meter: a metered and
# an unmetered run per pair, lib/doc/SCHEMA.md "Paired runs"), from the
# documents in tests/data/report/paired/ (one per seed layout's tool, a
# case outside 0.95-1.05 beside one inside):
# 1. every seed layout and the grid, in text, Markdown and CSV, equal
#    tests/data/report/paired/expect.* byte for byte;
# 2. a case outside the band is marked and footnoted with its ratio,
#    one inside never is; rates are the unmetered runs' and each table
#    says where its figures came from; the seeds print as before;
# 3. pooled cells say how; an unpaired soaked run is marked; a stored
#    perturbation that the samples contradict is warned about; many
#    marked cells of one table, all one way, share one footnote (a
#    sweep on this VM marks every cell), cells both ways keep one each;
# 4. compare never judges a soaked figure against an unsoaked one, and
#    shows each side's perturbation.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkpaired.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
P=$ZCB_SRCDIR/tests/data/report/paired
d=$ZCB_TEST_TMP

# the committed documents are what make.sh makes
mkdir -p "$d/made"
bash "$P/make.sh" "$d/made" || zcb_fail "make.sh failed"
for f in "$d/made"/*.json; do
	cmp -s "$f" "$P/$(basename "$f")" || zcb_fail "$(basename "$f") differs from what make.sh makes"
done
zcb_ok "fixtures are make.sh's"

# all_tables FMT: each layout over its tool's document, then the grid
all_tables() {
	local l f
	for l in p9:p9 nfs-rsize:nfs-rsize nfs-clients:nfs-clients ttcp-cpu:ttcp \
		chat:chat zc-vs-copy:ttcp p9:p9-sweep; do
		f=${l#*:}
		l=${l%%:*}
		echo "=== --layout $l $f.json"
		"$Z" table -f "$1" --layout "$l" "$P/$f.json" || echo "exit $?"
	done
	echo "=== grid ttcp.json"
	"$Z" table -f "$1" -m throughput_MBps,cpu_local_pct,sd_local_us_per_kb,cpu_local_procstat_pct \
		"$P/ttcp.json" || echo "exit $?"
	echo "=== grid --cols method ttcp.json"
	"$Z" table -f "$1" --cols method "$P/ttcp.json" || echo "exit $?"
}
for fmt in txt:text md:markdown csv:csv; do
	all_tables "${fmt#*:}" >"$d/all.${fmt%%:*}" 2>"$d/err" || zcb_fail "tables failed"
	[ ! -s "$d/err" ] || zcb_fail "diagnostics: $(cat "$d/err")"
	if ! cmp -s "$d/all.${fmt%%:*}" "$P/expect.${fmt%%:*}"; then
		diff -u "$P/expect.${fmt%%:*}" "$d/all.${fmt%%:*}" >&2
		zcb_fail "${fmt#*:}: output differs from expect.${fmt%%:*}"
	fi
done
zcb_ok "every layout and the grid match expect.txt, expect.md, expect.csv"

# section NAME FILE: the lines of one "=== NAME" block of all_tables
section() { awk -v n="=== $1" '$0 == n { on = 1; next } /^=== / { on = 0 } on' "$2"; }
t=$d/all.txt
# p9: READ 4096 copy (0.32x) and 65536 direct (0.40x) marked, the
# others not; the rate is the unmetered runs' hmean (71.2 * 1, 1.01,
# 1.02), never the metered one (~23)
p9=$(section "--layout p9 p9.json" "$t")
grep -Eq '^4096 +4MB +71\.9 mb/s\*1 +76\.7 mb/s$' <<<"$p9" || zcb_fail "p9 4096 row: $p9"
grep -Eq '^65536 +64MB +821 mb/s +910 mb/s\*2$' <<<"$p9" || zcb_fail "p9 65536 row: $p9"
grep -qxF '*1 soak run reached 0.32x (0.30-0.35, 3 pairs) of the unmetered rate; its CPU describes that slower run (the figure marked is from the unmetered runs)' <<<"$p9" ||
	zcb_fail "p9 footnote 1: $p9"
grep -q '^\*2 soak run reached 0.40x (0.35-0.45, 3 pairs)' <<<"$p9" || zcb_fail "p9 footnote 2"
# WRITE: every case within the band: no mark, no footnote, the sources
write=$(sed -n '/^WRITE$/,/^READ$/p' <<<"$p9")
! grep -q '\*' <<<"$write" || zcb_fail "a mark in the WRITE table (all within the band): $write"
grep -qxF '(paired runs: rates from the unmetered runs)' <<<"$write" || zcb_fail "WRITE: no sources line"
zcb_ok "p9: cells outside the band marked and footnoted, inside never; rates unmetered"

# no footnote anywhere names a ratio within the band
bad=$(grep -ho 'reached [0-9.]*x' "$d/all.txt" | awk '{ r = $2 + 0; if (r >= 0.95 && r <= 1.05) print }')
[ -z "$bad" ] || zcb_fail "a footnote within the band: $bad"
nfs=$(section "--layout nfs-rsize nfs-rsize.json" "$t")
grep -Eq '^6\.18-paired +4096 +4096 +96\.1 +44\.0%\*$' <<<"$nfs" || zcb_fail "nfs client 4096 row: $nfs"
grep -Eq '^6\.18-paired +32768 +32768 +414\.8 +30\.2%$' <<<"$nfs" || zcb_fail "nfs client 32768 row: $nfs"
grep -qxF '(paired runs: rates from the unmetered runs; CPU from the metered runs of the same pairs)' <<<"$nfs" ||
	zcb_fail "nfs: no sources line"
cl=$(section "--layout nfs-clients nfs-clients.json" "$t")
{ grep -Eq '^6\.18-paired +8 +132\.1 +88\.4%\*$' <<<"$cl" &&
	grep -Eq '^6\.18-paired +1 +121\.5 +41%$' <<<"$cl"; } || zcb_fail "nfs-clients rows: $cl"
tc=$(section "--layout ttcp-cpu ttcp.json" "$t")
{ [ "$(grep -c '%\*$' <<<"$tc")" = 2 ] &&
	grep -q 'sending with ttcp-sf (method=write): *55.5%\*$' <<<"$tc"; } || zcb_fail "ttcp-cpu marks: $tc"
ch=$(section "--layout chat chat.json" "$t")
{ [ "$(grep -c '^Throughput .*\*' <<<"$ch")" = 1 ] &&
	sed -n '/rooms=10/,/rooms=20/p' <<<"$ch" | grep -q '^Throughput .*\*'; } ||
	zcb_fail "chat: the 10-room block's throughput alone is marked: $ch"
zc=$(section "--layout zc-vs-copy ttcp.json" "$t")
{ grep -Eq '^6\.18-paired +write +55\.5%\* +60\.1%\* +1868\.4 +0\.610 +0\.660$' <<<"$zc" &&
	grep -Eq '^6\.18-paired +sendfile +31\.5% +58\.7% +2232\.0 +0\.290 +0\.540$' <<<"$zc"; } || zcb_fail "zc-vs-copy rows: $zc"
grid=$(section "grid ttcp.json" "$t")
grep -q 'sd_local_us_per_kb from the metered runs of the same pairs; service demand: the CPU and the bytes of one run' <<<"$grid" ||
	zcb_fail "grid: service demand's runs not said: $grid"
zcb_ok "nfs-rsize, nfs-clients, ttcp-cpu, chat, zc-vs-copy, grid: marks, footnotes and sources"

# many marked cells: READ's ten all ran faster: one footnote with the
# range; WRITE's four went both ways: one footnote each
sw=$(section "--layout p9 p9-sweep.json" "$t")
rd=$(sed -n '/^READ$/,/^WRITE: /p' <<<"$sw")
{ [ "$(grep -c '^\*' <<<"$rd")" = 1 ] &&
	grep -qxF '* every marked cell (10 of 10): soak runs reached 1.36x-1.53x of the unmetered rate (3 pairs each); their CPU describes those faster runs (the figures marked are from the unmetered runs)' <<<"$rd" &&
	[ "$(grep -Ec 'mb/s\*( |$)' <<<"$rd")" = 5 ]; } || zcb_fail "READ's footnotes not one: $rd"
wr=$(sed -n '/^WRITE$/,/^READ$/p' <<<"$sw")
{ [ "$(grep -c '^\*[1-4] soak run reached' <<<"$wr")" = 4 ] &&
	grep -q '^\*1 soak run reached 0.70x' <<<"$wr" && grep -q '^\*2 soak run reached 1.30x' <<<"$wr"; } ||
	zcb_fail "WRITE's footnotes (both ways) not one per cell: $wr"
zcb_ok "ten marked cells one way share a footnote; four both ways keep one each"

# Markdown: a footnote is not a list item; CSV: footnotes are comments
grep -q '^\\\*1 soak run reached 0.32x' "$d/all.md" || zcb_fail "markdown footnote"
grep -q '^# \*1 soak run reached 0.32x' "$d/all.csv" || zcb_fail "csv footnote"
grep -q '^4096,4MB,71.9 mb/s\*1,76.7 mb/s$' "$d/all.csv" || zcb_fail "csv marked cell"
zcb_ok "markdown and csv carry marks and footnotes"

# the seeds (no pairs): no mark, no footnote, no sources line
"$Z" table --layout all "$ZCB_SRCDIR/results/seeds" >"$d/seeds" 2>&1
! grep -Eq 'paired runs|soak run|\*' "$d/seeds" || zcb_fail "seed tables changed: $(grep -E 'paired|soak|\*' "$d/seeds")"
zcb_ok "seed tables carry no perturbation marks"

# pooled: a second run of the p9 cases, within the band, same label
mkpaired "$d/p9b.json" p9bench 6.18-paired '[
 {"params": {"op": "read", "iosize": 4096, "total_bytes": 4194304, "path": "copy"},
  "ratios": [0.99, 0.98], "base": {"throughput_MBps": 70.0}}]'
"$Z" table --layout p9 --where op=read "$P/p9.json" "$d/p9b.json" >"$d/pool" 2>&1 || zcb_fail "pooled table"
grep -q '^\*1 pools 2 cases whose soak runs reached 0.32x and 0.98x of their unmetered rates; the worst: soak run reached 0.32x (0.30-0.35, 3 pairs)' "$d/pool" ||
	zcb_fail "pooled footnote: $(cat "$d/pool")"
grep -q 'of 3-5 runs per cell' "$d/pool" || zcb_fail "pooled run count: $(cat "$d/pool")"
zcb_ok "a pooled cell names each case's ratio and the worst"

# the same pooled and swept cells paired by the profiler (--profile):
# their footnotes name the profile runs, never soak
jq '(.cases[].samples[].cpu[][] | select(.meter == "soak")).meter = "profile"' "$P/p9.json" >"$d/prof-p9.json"
MK_METER=profile mkpaired "$d/prof-p9b.json" p9bench 6.18-paired '[
 {"params": {"op": "read", "iosize": 4096, "total_bytes": 4194304, "path": "copy"},
  "ratios": [0.99, 0.98], "base": {"throughput_MBps": 70.0}, "soak": {"cpu_local_pct": 38.0}}]'
"$Z" table --layout p9 --where op=read "$d/prof-p9.json" "$d/prof-p9b.json" >"$d/ppool" 2>&1 || zcb_fail "profile pooled table"
grep -q '^\*1 pools 2 cases whose profile runs reached 0.32x and 0.98x of their unmetered rates; the worst: profile run reached 0.32x' "$d/ppool" ||
	zcb_fail "profile pooled footnote: $(cat "$d/ppool")"
jq '(.cases[].samples[].cpu[][] | select(.meter == "soak")).meter = "profile"' "$P/p9-sweep.json" >"$d/prof-sweep.json"
"$Z" table --layout p9 "$d/prof-sweep.json" >"$d/psweep" 2>&1 || zcb_fail "profile sweep table"
grep -q '^\* every marked cell (10 of 10): profile runs reached 1.36x-1.53x of the unmetered rate (3 pairs each); their profile describes those faster runs' "$d/psweep" ||
	zcb_fail "profile sweep footnote: $(cat "$d/psweep")"
! grep -q soak "$d/ppool" "$d/psweep" || zcb_fail "a profile-paired table speaks of soak: $(grep soak "$d/ppool" "$d/psweep")"
zcb_ok "pooled and swept cells paired by the profiler name the profile runs"

# an older document: soaked runs, unpaired: every figure of it marked
MK_UNPAIRED=1 mkpaired "$d/old.json" ttcp-sf 6.18-old '[
 {"params": {"method": "write", "size": 65536, "role": "transmit", "proto": "tcp"},
  "ratios": [0.6, 0.62, 0.58], "base": {"throughput_MBps": 1850.0},
  "soak": {"cpu_local_pct": 55.5, "cpu_remote_pct": 60.1},
  "procstat": {"cpu_local_procstat_pct": 50.2}}]'
"$Z" table --layout zc-vs-copy "$d/old.json" >"$d/old" 2>&1 || zcb_fail "old table"
{ grep -Eq '^6\.18-old +write +55\.5%\* +60\.1%\* +1[0-9]+\.[0-9]\*$' "$d/old" &&
	grep -q '^\* ran with soakers on, unpaired' "$d/old"; } || zcb_fail "unpaired soaked run: $(cat "$d/old")"
! grep -q 'paired runs:' "$d/old" || zcb_fail "an unpaired document has a paired sources line"
zcb_ok "an unpaired soaked run is marked on its rate and CPU"

# a stored perturbation the samples contradict: warned, samples used
jq '(.cases[] | select(.params.path == "copy" and .params.iosize == 4096 and .params.op == "read")
	| .perturbation.ratio) = 1.0' "$P/p9.json" >"$d/edited.json"
"$Z" table --layout p9 "$d/edited.json" >"$d/ed" 2>"$d/ed.err" || zcb_fail "edited table"
grep -q 'perturbation 1 (.*), the samples give 0.319' "$d/ed.err" || zcb_fail "no warning: $(cat "$d/ed.err")"
grep -q '71.9 mb/s\*1' "$d/ed" || zcb_fail "the samples' perturbation not used: $(cat "$d/ed")"
zcb_ok "a stored perturbation follows the samples"

# compare: the old (unpaired, soaked) against the paired: rates and
# /proc/stat figures of runs with soakers against runs without are not
# judged; soak CPU (metered on both sides) is
mkdir -p "$d/A" "$d/B"
cp "$d/old.json" "$d/A/"
jq '.cases |= map(select(.params.method == "write"))' "$P/ttcp.json" >"$d/B/new.json"
rc=0; "$Z" compare "$d/A" "$d/B" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "compare old/new: exit $rc: $(cat "$d/cmp")"
row() { sed -n "/^$1 (/,/^\$/p" "$d/cmp" | grep '^[HA]mean'; }
row throughput_MBps | grep -q 'not comparable: base from runs with soakers on (unpaired), new from unmetered runs (n=3/3)' ||
	zcb_fail "throughput judged across metered/unmetered: $(row throughput_MBps)"
row throughput_MBps | grep -q '(       -)' || zcb_fail "a change shown for an incomparable row"
row cpu_local_procstat_pct | grep -q 'not comparable' || zcb_fail "procstat judged across: $(row cpu_local_procstat_pct)"
! row cpu_local_pct | grep -q 'not comparable' || zcb_fail "soak CPU (metered both sides) refused"
grep -q '^2 rows not comparable: figures of runs with soakers on against runs without' "$d/cmp" ||
	zcb_fail "no count of incomparable rows: $(tail -3 "$d/cmp")"
# the new side's perturbation: on its rows and under the tables
row cpu_local_pct | grep -q 'soak new 0.60x$' || zcb_fail "row perturbation: $(row cpu_local_pct)"
grep -q '^    new: soak run reached 0.60x (0.55-0.65, 3 pairs) of the unmetered rate' "$d/cmp" ||
	zcb_fail "perturbation block: $(cat "$d/cmp")"
zcb_ok "compare: soaked against unsoaked not judged, perturbation shown"

# paired against paired, and paired against runs without any soaker:
# every row comparable; within the band nothing said
jq '.cases |= map(select(.params.method == "sendfile"))' "$P/ttcp.json" >"$d/B/new.json"
rm -f "$d/A"/*
jq '.cases |= map(select(.params.method == "sendfile") | .samples |= map(select(.soak == false) | del(.soak, .pair) |
	.cpu |= map_values(map(select(.meter != "soak")))) | del(.perturbation))' \
	"$P/ttcp.json" >"$d/A/plain.json"
rc=0; "$Z" compare -m throughput_MBps,cpu_local_procstat_pct "$d/A" "$d/B" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "compare plain/paired: exit $rc: $(cat "$d/cmp")"
! grep -q 'not comparable\|soak \(base\|new\)\|perturbation' "$d/cmp" || zcb_fail "plain/paired: $(cat "$d/cmp")"
grep -q '2 rows, 2 judged' "$d/cmp" || zcb_fail "plain/paired not judged: $(tail -1 "$d/cmp")"
rc=0; "$Z" compare "$P/ttcp.json" "$P/ttcp.json" >"$d/cmp" 2>&1 || rc=$?
{ [ $rc = 0 ] && ! grep -q 'not comparable' "$d/cmp"; } || zcb_fail "paired/paired: $(cat "$d/cmp")"
zcb_ok "compare: unmetered against unsoaked runs judged"

# paired by the profiler, by soak: cases of their own (the case key
# knows its pairing, report-pairkey.sh), never matched across; both on
# each side (the main job's write and sendfile): each key's perturbation
# names its own meter, the head says both
jq '(.cases[].samples[].cpu[][] | select(.meter == "soak")).meter = "profile"' "$P/ttcp.json" >"$d/prof-ttcp.json"
rc=0; "$Z" compare -m throughput_MBps "$P/ttcp.json" "$d/prof-ttcp.json" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "compare soak/profile: exit $rc: $(cat "$d/cmp")"
grep -q '^cases only in base: 2, only in new: 2$' "$d/cmp" || zcb_fail "soak-paired matched with profile-paired: $(cat "$d/cmp")"
mkdir -p "$d/both"
cp "$P/ttcp.json" "$d/prof-ttcp.json" "$d/both/"
rc=0; "$Z" compare -m throughput_MBps "$d/both" "$d/both" >"$d/cmp" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "compare soak+profile: exit $rc: $(cat "$d/cmp")"
{ row throughput_MBps | grep -q 'proto=tcp (paired by profile) .*profile base 0.60x, new 0.60x$' &&
	row throughput_MBps | grep -q 'proto=tcp  .*soak base 0.60x, new 0.60x$' &&
	grep -q '^Meter perturbation outside 0.95-1.05 ("soak" or "profile" on a row' "$d/cmp" &&
	grep -q '^    base: soak run reached 0.60x' "$d/cmp" &&
	grep -q '^    new: profile run reached 0.60x (0.55-0.65, 3 pairs) of the unmetered rate; its profile describes' "$d/cmp"; } ||
	zcb_fail "soak/profile perturbations: $(cat "$d/cmp")"
rc=0; "$Z" compare -m throughput_MBps "$d/prof-ttcp.json" "$d/prof-ttcp.json" >"$d/cmp" 2>&1 || rc=$?
{ row throughput_MBps | grep -q 'profile base 0.60x, new 0.60x$' && ! grep -qi 'soak' "$d/cmp"; } ||
	zcb_fail "profile/profile compare speaks of soak: $(cat "$d/cmp")"
zcb_ok "compare: runs paired by the profiler are their own cases and say profile, not soak"

# compare BASE A B: one perturbation block over both kernels, each case
# with the baseline's figure and the kernel's, by its label and meter;
# in CSV the block is comment lines
jq '.label = "6.19-a"' "$P/ttcp.json" >"$d/ka.json"
jq '.label = "6.19-b"' "$d/prof-ttcp.json" >"$d/kb.json"
for f in text csv; do
	rc=0; "$Z" compare --format "$f" -m throughput_MBps "$d/both" "$d/ka.json" "$d/kb.json" \
		>"$d/multi.$f" 2>&1 || rc=$?
	[ $rc = 0 ] || zcb_fail "compare BASE A B ($f): exit $rc: $(cat "$d/multi.$f")"
done
m=$d/multi.text
{ grep -q '^Meter perturbation outside 0.95-1.05 ("soak" or "profile"' "$m" &&
	grep -q '^  ttcp-sf method=write size=65536 role=transmit proto=tcp, base against 6.19-a$' "$m" &&
	grep -q '^    6.19-a: soak run reached 0.60x (0.55-0.65, 3 pairs)' "$m" &&
	grep -q '^  ttcp-sf method=write size=65536 role=transmit proto=tcp (paired by profile), base against 6.19-b$' "$m" &&
	grep -q '^    6.19-b: profile run reached 0.60x (0.55-0.65, 3 pairs)' "$m" &&
	[ "$(grep -c '^    base: soak run reached 0.60x' "$m")" = 1 ] &&
	[ "$(grep -c '^    base: profile run reached 0.60x' "$m")" = 1 ] &&
	! grep -q 'method=sendfile.*base against' "$m"; } ||
	zcb_fail "compare BASE A B perturbation block: $(cat "$m")"
grep -q '^#     6.19-b: profile run reached 0.60x' "$d/multi.csv" ||
	zcb_fail "compare BASE A B (csv): the block is not comment lines: $(cat "$d/multi.csv")"
zcb_ok "compare BASE A B: the perturbed cases of every kernel, by label and meter"

# plot: the title says which of the pair the figures came from
if command -v gnuplot >/dev/null; then
	"$Z" plot --no-png -o "$d/pl" "$P/p9.json" --where op=read >/dev/null 2>&1 ||
		zcb_fail "plot of the paired p9 document failed"
	{ grep -q 'p9bench: Read throughput by IO size' "$d/pl.txt" &&
		grep -q 'hmean of 3 unmetered runs' "$d/pl.txt"; } ||
		zcb_fail "plot title: $(head -1 "$d/pl.txt")"
	"$Z" plot --no-png -y cpu_local_pct -o "$d/pl" "$P/p9.json" --where op=read >/dev/null 2>&1 ||
		zcb_fail "CPU plot of the paired p9 document failed"
	{ grep -q 'p9bench: CPU load, local by IO size' "$d/pl.txt" &&
		grep -q 'mean of 3 metered runs' "$d/pl.txt"; } ||
		zcb_fail "CPU plot title: $(head -1 "$d/pl.txt")"
	zcb_ok "plot titles name the unmetered (rate) and metered (soak CPU) runs"
fi
