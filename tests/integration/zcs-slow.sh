#!/usr/bin/env bash
# zcs-slow.sh: a client that trickles a byte every 0.3 s is never idle,
# yet it holds its slot no longer: --header-timeout closes one whose
# first file header is not complete in time, --min-rate one that sends
# too little over an --idle-timeout period. Both modes; the document
# names the limit. A client at full speed is not touched.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP
head -c 200000 /dev/urandom >"$T/a"

HDR='\x00\x00\x00\x01\x00\x00\x00\x01\x00\x10\x00\x00' # 1 loop, 1 file of 1 MB
HDR_SLOW='\x00 \x00 \x00 \x01 \x00 \x00 \x00 \x01 \x00 \x10 \x00 \x00' # byte by byte

# trickle FAST SLOW: send FAST (printf escapes) at once, then each byte
# of SLOW, then zero bytes (file data), one every 0.3 s (about 15 s)
trickle() {
	local b
	exec 5<>"/dev/tcp/127.0.0.1/$ZCS_PORT" || zcb_fail "connect"
	(
		# shellcheck disable=SC2059
		printf "$1"
		for b in $2 $(printf '\\x00 %.0s' $(seq 1 50)); do
			# shellcheck disable=SC2059
			printf "$b" || exit 0
			sleep 0.3
		done
	) >&5 2>/dev/null &
	TPID=$!
	zcb_track "$TPID"
	exec 5>&-
}

# limit_closes NAME LIMIT FAST SLOW ARGS...: a trickling client is
# closed by LIMIT (named in the document) long before its 15 s are over
limit_closes() {
	local name=$1 limit=$2 fast=$3 slow=$4
	shift 4
	zcs_start "$name" --idle-timeout 2 --exit-after 1 --output "$T/$name.json" "$@"
	trickle "$fast" "$slow"
	zcb_wait_gone "$ZCS_PID" 10 || zcb_fail "$name: a trickling client held its slot 10 s"
	wait "$ZCS_PID" || zcb_fail "$name: zcs exit $?: $(cat "$T/$name.err")"
	kill "$TPID" 2>/dev/null
	jq -e --arg l "$limit" '.cases[0].samples[0] | .result == "timeout" and (.error | contains($l))' \
		"$T/$name.json" >/dev/null || zcb_fail "$name: $(jq -c '.cases[0].samples' "$T/$name.json")"
}

for mode in epoll fork; do
	m=()
	[ "$mode" = fork ] && m=(--fork)
	# the header itself trickles: loop count, file count, length
	limit_closes "hdr-$mode" "--header-timeout" '' "$HDR_SLOW" \
		--header-timeout 1.5 --min-rate 0 "${m[@]}"
	# a good header, then a byte every 0.3 s into a 1 MB file
	limit_closes "rate-$mode" "--min-rate" "$HDR" '' \
		--header-timeout 0 --min-rate 1k "${m[@]}"
	zcb_ok "$mode: a trickling client is closed by --header-timeout and by --min-rate"
done

# the defaults leave a real client alone, and are in --help
zcs_start good --idle-timeout 2 --min-rate 1k --header-timeout 1 --exit-after 1 --output "$T/good.json"
"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" -n 20 "$T/a" >"$T/zcc.out" 2>&1 || zcb_fail "zcc: $(cat "$T/zcc.out")"
zcs_wait_end "$ZCS_PID"
jq -e '.cases[0].samples[0].result == "ok"' "$T/good.json" >/dev/null || zcb_fail "good client: $(cat "$T/good.json")"
"$ZCS" --help | grep -q -- "--min-rate RATE" || zcb_fail "--min-rate not in --help"
"$ZCS" --help | grep -q -- "--header-timeout SECS" || zcb_fail "--header-timeout not in --help"
for bad in "--min-rate x" "--header-timeout -1"; do
	# shellcheck disable=SC2086
	"$ZCS" $bad >/dev/null 2>&1
	[ $? = 2 ] || zcb_fail "$bad: not a usage error"
done
zcb_ok "a client at full speed is not touched; the limits are options"
