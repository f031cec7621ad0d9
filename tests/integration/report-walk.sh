#!/usr/bin/env bash
# report-walk.sh: zcbreport reads each document once.
# 1. a results/ tree with `latest` (a symlink to a run inside it), a
#    symlink to `.`, two of them, a symlink to `..`, a hard link and a
#    file named twice on the command line: each document counted once,
#    the walk ends, nothing said unless -v (which names what it skipped).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd timeout
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
r=$d/results
r1=$r/runs/6.1/20250101T000000Z r2=$r/runs/6.1/20250102T000000Z
mkdir -p "$r1" "$r2"

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
[ $rc = 0 ] && grep -q 'method=sendfile .*(n=10/10)' "$d/out" &&
	grep -q 'method=write .*(n=5/5)' "$d/out" ||
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
