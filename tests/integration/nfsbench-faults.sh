#!/usr/bin/env bash
# nfsbench-faults: what goes wrong ends with a clear error, a result
# document with status "failed", and no hang: bad URLs, a missing file, a
# refused connection, bad options, SIGINT, a frozen server (SIGSTOP: the
# RPC timeout fires) and a server stopped mid-run.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
nb_need_libnfs
nb_ganesha 4
T=$ZCB_TEST_TMP

# expect_fail NAME PATTERN ARGS...: exit 1, failed document, error matches
expect_fail() {
	local name=$1 pat=$2 rc
	shift 2
	timeout 60 "$NB" -o "$T/$name.json" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	[ $rc = 124 ] && zcb_fail "$name: hung"
	[ $rc = 1 ] || zcb_fail "$name: exit $rc, not 1: $(cat "$T/$name.err")"
	nb_doc_failed "$T/$name.json" "$pat"
	grep -qE -- "$pat" "$T/$name.err" || zcb_fail "$name: stderr lacks /$pat/"
	zcb_ok "$name: $(zcb_json "$T/$name.json" .error)"
}

expect_fail bad-url "bad URL" "nfs://127.0.0.1"
expect_fail bad-version "bad URL.*version" "nfs://127.0.0.1/export/f?version=5"
expect_fail missing-file "nofile" "$(nb_url nofile)"
expect_fail refused "mount 127\.0\.0\.1:/export" -t 2s "nfs://127.0.0.1/export/f?version=4&nfsport=1"

# bad options: one line naming the option, exit 2
for args in "--qd 0 x" "-s bogus x" "--qd 4 /tmp/x" "--vers 5 x" "-n 0 x" "--files both x"; do
	# shellcheck disable=SC2086
	"$NB" $args >"$T/use.out" 2>"$T/use.err"
	rc=$?
	[ $rc = 2 ] || zcb_fail "nfsbench $args: exit $rc, not 2"
	[ "$(wc -l <"$T/use.err")" = 1 ] || zcb_fail "nfsbench $args: not one line: $(cat "$T/use.err")"
done
"$NB" --help | grep -q -- "--server-pid" || zcb_fail "--help"
zcb_ok "usage errors exit 2 with one line"

# a file that takes a few seconds to read in 1 KiB requests
head -c $((48 << 20)) /dev/zero >"$GEXPORT/big"
# a request larger than the server takes is refused clearly
expect_fail too-big "exceeds the largest READ" -s 4m "$(nb_url big)"

# SIGINT mid-run: the document is still written, status failed
"$NB" -s 1k -o "$T/int.json" -q "$(nb_url big)" 2>"$T/int.err" &
pid=$!
zcb_track "$pid"
sleep 1
kill -INT "$pid"
zcb_wait_gone "$pid" 15 || zcb_fail "nfsbench ignored SIGINT"
wait "$pid"
rc=$?
[ $rc = 130 ] || zcb_fail "SIGINT: exit $rc, not 130"
nb_doc_failed "$T/int.json" "interrupted"
zcb_ok "SIGINT: exit 130, failed document"

# a frozen server: the RPC timeout ends the run
"$NB" -s 1k -t 2s -o "$T/frozen.json" -q "$(nb_url big)" 2>"$T/frozen.err" &
pid=$!
zcb_track "$pid"
sleep 1
kill -STOP "$GPID"
zcb_on_exit "kill -CONT $GPID"
start=$SECONDS
zcb_wait_gone "$pid" 40 || zcb_fail "nfsbench hung on a frozen server"
wait "$pid"
rc=$?
kill -CONT "$GPID"
[ $rc = 1 ] || zcb_fail "frozen server: exit $rc, not 1: $(cat "$T/frozen.err")"
nb_doc_failed "$T/frozen.json" "client 0, reading"
zcb_ok "frozen server: failed after $((SECONDS - start)) s: $(zcb_json "$T/frozen.json" .error)"

# the server stopped mid-run (SIGTERM, then gone)
"$NB" -s 1k -n 2 -t 3s -o "$T/stopped.json" -q "$(nb_url big)" 2>"$T/stopped.err" &
pid=$!
zcb_track "$pid"
sleep 1
kill -TERM "$GPID"
zcb_wait_gone "$pid" 40 || zcb_fail "nfsbench hung after the server stopped"
wait "$pid"
rc=$?
[ $rc = 1 ] || zcb_fail "stopped server: exit $rc, not 1"
nb_doc_failed "$T/stopped.json" "client [01], reading"
zcb_ok "stopped server: $(zcb_json "$T/stopped.json" .error)"
