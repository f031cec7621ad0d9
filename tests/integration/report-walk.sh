#!/usr/bin/env bash
# report-walk.sh: zcbreport reads each document once, and every
# subcommand shows the same figures for it.
# 1. a results/ tree with `latest` (a symlink to a run inside it), a
#    symlink to `.`, two of them, a symlink to `..`, a hard link and a
#    file named twice on the command line: each document counted once,
#    the walk ends, nothing said unless -v (which names what it skipped);
# 2. a document whose stored summary was edited to lie: table and
#    compare both show the samples' figure, and a warning names it; a
#    transcription whose published mean is not its samples' is refused.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd timeout
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
r=$d/results
r1=$r/runs/6.1/20250101T000000Z r2=$r/runs/6.1/20250102T000000Z
mkdir -p "$r1" "$r2" "$d/lie"

mkdoc "$r1/a.json" 6.1 1000 10 5 1
MK_PARAMS='{"method":"write","size":65536}' mkdoc "$r1/b.json" 6.1 800 10 5 2
mkdoc "$r2/c.json" 6.1 1000 10 5 3
ln -s runs/6.1/20250102T000000Z "$r/latest"

# table -v ARGS: the count of documents read (a hang is a failure)
count() {
	local rc=0
	timeout 60 "$Z" table -v "$@" >"$d/out" 2>"$d/err" || rc=$?
	[ $rc = 0 ] || zcb_fail "table -v $*: exit $rc (124: never finished): $(tail -3 "$d/err")"
	sed -n 's/.*: \([0-9]*\) documents read.*/\1/p' "$d/err"
}
quiet() { # quiet ARGS: nothing on stderr without -v
	"$Z" table "$@" >/dev/null 2>"$d/err" || zcb_fail "table $*: exit $?"
	[ ! -s "$d/err" ] || zcb_fail "table $*: said: $(cat "$d/err")"
}

n=$(count "$r")
[ "$n" = 3 ] || zcb_fail "results/ with latest: $n documents, want 3"
grep -q "$r/runs/6.1/20250102T000000Z: skipped, the same directory as $r/latest" "$d/err" ||
	zcb_fail "-v does not say what was skipped: $(cat "$d/err")"
quiet "$r"
# both sides of compare from the tree: 10 sendfile samples (a and c)
rc=0; timeout 60 "$Z" compare "$r" "$r" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 0 ] && grep -q 'method=sendfile .*(n=10/10)' "$d/out" &&
	grep -q 'method=write .*(n=5/5)' "$d/out"; } ||
	zcb_fail "compare over results/: exit $rc, samples counted twice: $(cat "$d/out")"
zcb_ok "results/latest: each document once (table and compare)"

ln -s . "$r/runs/self"
n=$(count "$r")
[ "$n" = 3 ] || zcb_fail "a symlink to .: $n documents, want 3"
grep -q "$r/runs/self: skipped, a symlink loop back to $r/runs" "$d/err" ||
	zcb_fail "-v does not name the loop: $(cat "$d/err")"
quiet "$r"
ln -s . "$r/loop1"
ln -s . "$r/loop2"
ln -s .. "$r1/up"
n=$(count "$r")
[ "$n" = 3 ] || zcb_fail "two symlinks to . and one to ..: $n documents, want 3"
quiet "$r"
zcb_ok "symlink loops (., two of them, ..): walked once, the walk ends"

ln "$r1/a.json" "$r2/hard.json"
n=$(count "$r")
[ "$n" = 3 ] || zcb_fail "a hard link: $n documents, want 3"
n=$(count "$r1/a.json" "$r1/a.json" "$r1/../20250101T000000Z/a.json")
[ "$n" = 1 ] || zcb_fail "one file named three times: $n documents, want 1"
n=$(count "$r" "$r1/b.json" "$r")
[ "$n" = 3 ] || zcb_fail "a tree, a file in it and the tree again: $n documents, want 3"
quiet "$r1/a.json" "$r1/a.json"
zcb_ok "a file named twice or hard-linked: read once"

# a stored summary edited to lie (mean 9999 while the samples say ~1000)
mkdoc "$d/lie/honest.json" 6.1 1000 10 5 7
jq '.cases[0].summary.throughput_MBps = {n: 5, mean: 9999, hmean: 9999,
	median: 9999, stddev: 1, cov: 0.0001, min: 9998, max: 10000,
	ci95: [9998, 10000]}' "$d/lie/honest.json" >"$d/lie.json"
"$Z" table -m throughput_MBps "$d/lie.json" >"$d/out" 2>"$d/err" ||
	zcb_fail "table over the lying document: exit $?"
tv=$(awk 'NR == 2 { print $2 }' "$d/out")
grep -q "lie.json: the stored summary disagrees with the samples, which are used: cases\[0\] throughput_MBps" "$d/err" ||
	zcb_fail "no warning naming the lying document: $(cat "$d/err")"
"$Z" compare -m throughput_MBps "$d/lie.json" "$d/lie/honest.json" >"$d/out" 2>&1 ||
	zcb_fail "compare over the lying document: exit $?: $(cat "$d/out")"
cv=$(awk '$1 == "Hmean" { print $5 }' "$d/out")
{ [ -n "$tv" ] && [ "$tv" = "$cv" ] && [ "$tv" != 9999.0 ]; } ||
	zcb_fail "table says $tv, compare says $cv for the same document"
# a summary of a metric no sample carries is dropped, not shown
jq 'del(.cases[0].samples[].metrics.cpu_local_pct) |
	.cases[0].summary.cpu_local_pct = {n: 5, mean: 1.5}' \
	"$d/lie/honest.json" >"$d/nosamples.json"
"$Z" table -m cpu_local_pct "$d/nosamples.json" >"$d/out" 2>"$d/err"
{ [ "$(awk 'NR == 2 { print $2 }' "$d/out")" = - ] && grep -q 'has a summary and no samples' "$d/err"; } ||
	zcb_fail "a summary without samples was shown: $(cat "$d/out" "$d/err")"
zcb_ok "a lying summary: table and compare agree on the samples' figure, named"

jq '.transcribed = true | .source = "test" |
	.cases[0].summary.throughput_MBps = {n: 50, mean: 9999, stddev: 3}' \
	"$d/lie/honest.json" >"$d/lie-t.json"
rc=0; "$Z" table "$d/lie-t.json" >"$d/out" 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q 'lie-t.json: transcribed figures contradict the samples: cases\[0\] throughput_MBps mean 9999' "$d/err"; } ||
	zcb_fail "a contradictory transcription: exit $rc: $(cat "$d/out" "$d/err")"
m=$(jq '[.cases[0].samples[].metrics.throughput_MBps] | add / length' "$d/lie/honest.json")
jq --argjson m "$m" '.transcribed = true | .source = "test" |
	.cases[0].summary.throughput_MBps = {n: 50, mean: $m, stddev: 3}' \
	"$d/lie/honest.json" >"$d/ok-t.json"
quiet "$d/ok-t.json"
zcb_ok "a transcription: its published figures kept unless the samples contradict them"
