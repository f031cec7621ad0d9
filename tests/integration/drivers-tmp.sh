#!/usr/bin/env bash
# drivers-tmp.sh: a seed driver given no --out makes its results
# directory under TMPDIR; when it stops before its end it removes that
# directory, or keeps it and says where when it holds the documents of
# runs that ended well (issue 22: an interrupted zc-vs-copy left
# /tmp/zc-vs-copy.XXXXXX without naming it). On loopback, with TMPDIR a
# directory of the test:
# 1. zc-vs-copy, SIGINT in its second run: exit 130, the first run's
#    document kept and the directory named on stderr;
# 2. zc-vs-copy, SIGTERM before any document: exit 143, nothing left in
#    TMPDIR, no ttcp-sf of it running;
# 3. zc-files, SIGHUP before any document: exit 129, nothing left (its
#    file set neither);
# 4. zc-vs-copy refused by its remote shell before any run (exit 2):
#    nothing left.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd pgrep procps
T=$ZCB_TEST_TMP
TTCP=$(zcb_bin ttcp-sf) || exit 1
ZVC="$ZCB_SRCDIR/scripts/zc-vs-copy"
ZCF="$ZCB_SRCDIR/scripts/zc-files"
set -m # each background job in a group of its own, SIGINT not ignored

# start NAME CMD...: CMD in the background with TMPDIR=$T/NAME; sets job
start() {
	local n=$1
	shift
	mkdir -p "$T/$n"
	TMPDIR="$T/$n" "$@" >"$T/$n.out" 2>"$T/$n.err" &
	job=$!
	zcb_track "$job"
}
# until FILE-GLOB matches under $T/NAME, within 60 s, the job still running
until_there() {
	local n=$1 glob=$2 deadline=$((SECONDS + 60)) f
	while [ $SECONDS -lt $deadline ]; do
		for f in "$T/$n"/$glob; do [ -e "$f" ] && return 0; done
		kill -0 "$job" 2>/dev/null || zcb_fail "$n: ended before $glob appeared: $(cat "$T/$n.out" "$T/$n.err")"
		sleep 0.05
	done
	zcb_fail "$n: no $glob within 60 s: $(cat "$T/$n.out" "$T/$n.err")"
}
# stop NAME SIG WANT: the signal, then exit WANT. The drivers bound
# their own cleanup (each child TERM, KILL 10 s later); 120 s catches a
# hang on a box as slow as an ASan build on a loaded VM (30 s did not)
stop() {
	kill -"$2" "$job"
	zcb_wait_gone "$job" 120 || zcb_fail "$1: still running 120 s after SIG$2"
	rc=0
	wait "$job" || rc=$?
	[ $rc = "$3" ] || zcb_fail "$1: exit $rc after SIG$2, want $3: $(cat "$T/$1.err")"
}
# nothing_left NAME: TMPDIR empty, no process with its path running
nothing_left() {
	[ -z "$(ls -A "$T/$1")" ] ||
		zcb_fail "$1: left in TMPDIR: $(find "$T/$1" -mindepth 1 | head -20 | tr '\n' ' '); its stderr: $(cat "$T/$1.err")"
	for _ in $(seq 1 50); do
		pgrep -f "$T/$1/" >/dev/null || return 0
		sleep 0.1
	done
	zcb_fail "$1: still running: $(pgrep -af "$T/$1/")"
}
zvc_args=(--bin "$TTCP" --methods write --sizes 32768 --cpu procstat --source-size 4M)

# 1. a document, then SIGINT: kept and named
start int "$ZVC" "${zvc_args[@]}" --repeat 2 --duration 4s
until_there int 'zc-vs-copy.*/ttcp-sf/write-32768-r1.json'
stop int INT 130
dir=$(echo "$T"/int/zc-vs-copy.*)
[ -f "$dir/ttcp-sf/write-32768-r1.json" ] || zcb_fail "int: the first run's document is gone"
grep -qx "zc-vs-copy: stopped (exit 130): the results so far are kept in $dir" "$T/int.err" ||
	zcb_fail "int: the kept directory is not named: $(cat "$T/int.err")"
zcb_ok "zc-vs-copy, SIGINT after a document: exit 130, kept and named ($dir)"

# 2. SIGTERM before any document: removed
start term "$ZVC" "${zvc_args[@]}" --repeat 1 --duration 30s
until_there term 'zc-vs-copy.*/logs/ttcp-sf/write-32768-r1.txt'
stop term TERM 143
nothing_left term
! grep -q 'kept in' "$T/term.err" || zcb_fail "term: says it kept something: $(cat "$T/term.err")"
zcb_ok "zc-vs-copy, SIGTERM before a document: exit 143, its directory removed"

# 3. zc-files, SIGHUP before any document: removed, the file set too
start hup "$ZCF" --bin-dir "$ZCB_BUILDDIR" --methods sendfile --files 3 --size 64k \
	--loops 1000000 --repeat 1 --cpu procstat
until_there hup 'zc-files.*/logs/zcc/*'
stop hup HUP 129
nothing_left hup
zcb_ok "zc-files, SIGHUP before a document: exit 129, its directory and file set removed"

# 4. refused before any run: removed
rc=0
mkdir -p "$T/early"
ZCB_RSH="no-such-rsh h1" TMPDIR="$T/early" "$ZVC" "${zvc_args[@]}" --to h1 \
	>"$T/early.out" 2>"$T/early.err" || rc=$?
[ $rc = 2 ] || zcb_fail "early: exit $rc, want 2: $(cat "$T/early.err")"
grep -q 'not a command here' "$T/early.err" || zcb_fail "early: $(cat "$T/early.err")"
nothing_left early
zcb_ok "zc-vs-copy refused before any run (exit 2): its directory removed"
