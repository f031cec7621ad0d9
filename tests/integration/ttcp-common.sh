# shellcheck shell=bash
# ttcp-common.sh: helpers for the ttcp-sf integration tests (sourced after
# lib.sh). The receiver listens on port 0 and says which port it got.
TTCP=$(zcb_bin ttcp-sf) || exit 1
# shellcheck disable=SC2034 # for the tests that source this
TT_N=0

# tt_recv OUTPREFIX [ARGS...]: start a receiver on 127.0.0.1, port 0;
# sets TT_RPID and TT_PORT; its text goes to OUTPREFIX.txt.
tt_recv() {
	local out=$1
	shift
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

# tt_wait_recv: wait for the receiver, its exit status in TT_RRC.
# shellcheck disable=SC2034 # TT_RRC is for the tests that source this
tt_wait_recv() {
	TT_RRC=0
	wait "$TT_RPID" || TT_RRC=$?
}
