# shellcheck shell=bash
# zcs-lib.sh: what the zcs/zcc tests share (sourced after lib.sh).
ZCS=$(zcb_bin zcs) || exit 1
# shellcheck disable=SC2034 # for the tests that source this
ZCC=$(zcb_bin zcc) || exit 1

# zcs_start NAME ARGS...: start zcs on 127.0.0.1, a free port; sets
# ZCS_PID and ZCS_PORT; its output goes to $ZCB_TEST_TMP/NAME.{out,err}.
zcs_start() {
	local name=$1 pf
	shift
	pf="$ZCB_TEST_TMP/$name.port"
	rm -f "$pf"
	"$ZCS" -p 0 --bind 127.0.0.1 --port-file "$pf" "$@" \
		>"$ZCB_TEST_TMP/$name.out" 2>"$ZCB_TEST_TMP/$name.err" &
	ZCS_PID=$!
	zcb_track "$ZCS_PID"
	for _ in $(seq 1 200); do
		[ -s "$pf" ] && break
		kill -0 "$ZCS_PID" 2>/dev/null || zcb_fail "zcs $name did not start: $(cat "$ZCB_TEST_TMP/$name.err")"
		sleep 0.05
	done
	[ -s "$pf" ] || zcb_fail "zcs $name wrote no port file"
	# shellcheck disable=SC2034 # for the tests that source this
	ZCS_PORT=$(cat "$pf")
}

# zcs_stop PID: SIGINT; it must be gone within 10 s, with status 0
# (a sanitizer report at exit fails the test).
zcs_stop() {
	local rc=0
	kill -INT "$1" 2>/dev/null
	zcb_wait_gone "$1" 10 || zcb_fail "zcs $1 still running 10 s after SIGINT"
	wait "$1" 2>/dev/null || rc=$?
	[ "$rc" = 0 ] || zcb_fail "zcs $1 exited with status $rc after SIGINT"
}

# zcs_wait_end PID: zcs stopping on its own (--exit-after), status 0.
zcs_wait_end() {
	local rc=0
	zcb_wait_gone "$1" 30 || zcb_fail "zcs $1 did not stop after --exit-after"
	wait "$1" 2>/dev/null || rc=$?
	[ "$rc" = 0 ] || zcb_fail "zcs $1 exited with status $rc"
}

# u32 N: N as 4 big-endian bytes on stdout.
u32() {
	# shellcheck disable=SC2059 # the format is the \x escapes just made
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' \
		$(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)))"
}

# zcs_doc_wait FILE: until zcs has written its result document.
zcs_doc_wait() {
	for _ in $(seq 1 200); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	zcb_fail "no result document $1"
}
