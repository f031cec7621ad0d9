# shellcheck shell=bash
# ttcp-common.sh: helpers for the ttcp-sf integration tests (sourced after
# lib.sh). The receiver listens on port 0 and says which port it got.
TTCP=$(zcb_bin ttcp-sf) || exit 1
# shellcheck disable=SC2034 # for the tests that source this
TT_N=0

# tt_recv OUTPREFIX [ARGS...]: start a receiver on 127.0.0.1, port 0;
# sets TT_RPID and TT_PORT; its text goes to OUTPREFIX.txt (TT_ROUT).
tt_recv() {
	local out=$1
	shift
	TT_ROUT=$out.txt
	# emptied here: the background job truncates it only once it runs,
	# and a previous receiver's port must not be read meanwhile
	: >"$out.txt"
	"$TTCP" -r -p 0 --bind 127.0.0.1 --wait 30 "$@" >"$out.txt" 2>&1 &
	TT_RPID=$!
	zcb_track "$TT_RPID"
	TT_PORT=""
	for _ in $(seq 1 200); do
		TT_PORT=$(sed -n 's/^ttcp-r: .*port=\([0-9][0-9]*\) .*/\1/p' "$out.txt" | head -1)
		[ -n "$TT_PORT" ] && return 0
		kill -0 "$TT_RPID" 2>/dev/null || break
		sleep 0.05
	done
	cat "$out.txt" >&2
	zcb_fail "receiver did not start"
}

# tt_wait_for FILE PATTERN WHAT [SECS]: until a line of FILE matches
# PATTERN (grep), at most SECS (30) seconds; fails naming WHAT
tt_wait_for() {
	local deadline=$((SECONDS + ${4:-30}))
	while [ $SECONDS -lt $deadline ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	cat "$1" >&2
	zcb_fail "$3: no \"$2\" within ${4:-30} s"
}
# the line of a receiver started with -i once bytes have come
# shellcheck disable=SC2034 # for the tests that source this
TT_BYTES_CAME='^ttcp-r: \[.* s\] *[1-9][0-9]* bytes'

# tt_wait_recv: wait for the receiver, its exit status in TT_RRC.
# shellcheck disable=SC2034 # TT_RRC is for the tests that source this
tt_wait_recv() {
	TT_RRC=0
	wait "$TT_RPID" || TT_RRC=$?
}

# tt_two NAME RECV_ARGS... -- XMIT_ARGS...: a receiver and a transmitter
# to it (both must succeed); documents in $T/NAME-{t,r}.json, text in
# $T/NAME-{t,r}.txt (with TT_SPLIT=1 the transmitter's stdout apart, in
# $T/NAME-t.out: --json-stream). Needs T.
tt_two() {
	local name=$1 rargs=() rc=0
	shift
	while [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	tt_recv "$T/$name-r" "${rargs[@]}" -o "$T/$name-r.json"
	if [ "${TT_SPLIT:-0}" = 1 ]; then
		timeout 120 "$TTCP" -t -p "$TT_PORT" -o "$T/$name-t.json" "$@" 127.0.0.1 \
			>"$T/$name-t.out" 2>"$T/$name-t.txt" || rc=$?
	else
		timeout 120 "$TTCP" -t -p "$TT_PORT" -o "$T/$name-t.json" "$@" 127.0.0.1 \
			>"$T/$name-t.txt" 2>&1 || rc=$?
	fi
	[ $rc = 0 ] || { cat "$T/$name-t.txt" "$T/$name-r.txt"; zcb_fail "$name: transmitter exit $rc"; }
	tt_wait_recv
	[ "$TT_RRC" = 0 ] || { cat "$T/$name-r.txt"; zcb_fail "$name: receiver exit $TT_RRC"; }
}

# tt_kill_midway OUT ARGS...: a transmitter (ttcp-sf -t ARGS -p PORT
# 127.0.0.1, its text in OUT) to the receiver tt_recv started, which is
# killed (SIGKILL) once it took the transmitter's connection (or its UDP
# setup); the transmitter's exit status in TT_XRC (it has 30 s to end).
# shellcheck disable=SC2034 # TT_XRC is for the tests that source this
tt_kill_midway() {
	local out=$1 xp
	shift
	timeout 30 "$TTCP" -t "$@" -p "$TT_PORT" 127.0.0.1 >"$out" 2>&1 &
	xp=$!
	zcb_track "$xp"
	tt_wait_for "$TT_ROUT" "^ttcp-r: \(accept from\|tcp_rr from\|tcp_crr from\|udp_rr from\) " \
		"the receiver taking the transmitter"
	kill -KILL "$TT_RPID"
	TT_XRC=0
	wait "$xp" || TT_XRC=$?
}

# tt_u32be N: N as 4 big-endian bytes
tt_u32be() {
	# shellcheck disable=SC2059
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' \
		$(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)))"
}
# tt_frame JSON: JSON in ttcp-sf's frame (lib/wire/peerrep: "ZCBR", its
# length, the bytes); JSON is ASCII
tt_frame() {
	printf 'ZCBR'
	tt_u32be "${#1}"
	printf '%s' "$1"
}

# tt_bad WHAT PATTERN ARGS...: ttcp-sf ARGS exits 2 with PATTERN in its
# (one-line) message
tt_bad() {
	local what=$1 pat=$2 rc=0
	shift 2
	"$TTCP" "$@" >"$T/o" 2>"$T/e" || rc=$?
	[ $rc = 2 ] || zcb_fail "$what: exit $rc, expected 2"
	grep -q -- "$pat" "$T/e" || { cat "$T/e"; zcb_fail "$what: message lacks $pat"; }
	[ "$(wc -l <"$T/e")" = 1 ] || zcb_fail "$what: more than one line"
}
