#!/usr/bin/env bash
# chatbench-faults.sh: bad input and dying peers against a real server
# process of each model: half frames, bad magic, a too-long frame and a
# message out of sequence from a joined user (raw bytes from bash), a
# client that hangs up mid-run, a client killed mid-run, and a stalled
# server. After each, the server must still serve an exact run.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/chatbench-lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP
port=0 spid=0 # set by start_server

be16() { printf '\\x%02x\\x%02x' $(($1 >> 8 & 255)) $(($1 & 255)); }
be32() { be16 $(($1 >> 16 & 65535)); be16 $(($1 & 65535)); }
# hdr TYPE LEN ROOM SENDER SEQ: a frame header as printf escapes
hdr() { printf 'CH\\x01\\x%02x%s%s%s%s' "$1" "$(be32 "$2")" "$(be16 "$3")" "$(be16 "$4")" "$(be32 "$5")"; }
# join TOKEN ROOM USER ROOMS USERS MESSAGES SIZE
join() {
	printf '%s%s%s%s%s%s%s%s' "$(hdr 2 44 "$2" "$3" 0)" "$(be32 0)" \
		"$(be32 "$1")" "$(be32 "$4")" "$(be32 "$5")" "$(be32 "$6")" \
		"$(be32 "$7")" "$(be32 0)"
}
msg16() { hdr 1 16 "$1" "$2" "$3"; } # ROOM USER SEQ, a 16-byte message
# raw FORMAT: printf FORMAT to stdout in a subshell: the server may close
# first, and SIGPIPE must end the subshell, not the test
# shellcheck disable=SC2059
raw() { (printf "$1") 2>/dev/null || true; }

check_run() { # an exact run against the server: it survived
	"$B" --host 127.0.0.1 --port "$port" -r 2 -u 4 -m 25 -o "$T/ok.json" \
		>"$T/ok.out" 2>&1 || zcb_fail "$1: next run failed: $(cat "$T/ok.out")"
	[ "$(jq '.cases[0].samples[0].received' "$T/ok.json")" = 600 ] ||
		zcb_fail "$1: next run not exact"
}

# two raw users of a 2-user room; user 0 then sends $1 (printf escapes);
# user 1 must get READY and an ABORT naming $2, the server log $2 too
raw_room() {
	local tok=$1 bad=$2 want=$3
	exec 3<>"/dev/tcp/127.0.0.1/$port" 4<>"/dev/tcp/127.0.0.1/$port"
	raw "$(join "$tok" 0 0 1 2 3 16)" >&3
	raw "$(join "$tok" 0 1 1 2 3 16)" >&4
	# user 0 reads its READY (so its hang-up is a FIN, not a reset)
	[ "$(timeout 10 head -c 16 <&3 | od -An -tx1 | tr -d ' \n' | cut -c1-8)" = 43480103 ] ||
		zcb_fail "$model: user 0 got no READY"
	raw "$bad" >&3
	exec 3>&-
	timeout 10 cat <&4 >"$T/u1" || true
	exec 4>&-
	[ "$(head -c 4 "$T/u1" | od -An -tx1 | tr -d ' ')" = 43480103 ] ||
		zcb_fail "$model: user 1 got no READY ($want)"
	grep -aq "$want" "$T/u1" || zcb_fail "$model: ABORT lacks '$want': $(cat -v "$T/u1")"
	for _ in $(seq 1 50); do grep -q "$want" "$T/server.log" && break; sleep 0.1; done
	grep -q "$want" "$T/server.log" || zcb_fail "$model: server log lacks '$want'"
}

for model in threads epoll; do
	start_server "$T/server.log" --model "$model" -t 20

	# half a frame, then hang up; garbage; a too-long first frame
	raw 'CH\x01' >"/dev/tcp/127.0.0.1/$port"
	raw 'GET / HTTP/1.0\r\n\r\n................................' \
		>"/dev/tcp/127.0.0.1/$port"
	raw "$(hdr 1 65536 0 0 0)" >"/dev/tcp/127.0.0.1/$port"
	for _ in $(seq 1 50); do
		[ "$(grep -c 'client 127.0.0.1:[0-9]*: ' "$T/server.log")" -ge 3 ] && break
		sleep 0.1
	done
	grep -q 'client 127.0.0.1:[0-9]*: .*hung up' "$T/server.log" ||
		zcb_fail "$model: half frame not logged: $(cat "$T/server.log")"
	grep -q 'client 127.0.0.1:[0-9]*: .*bad magic' "$T/server.log" ||
		zcb_fail "$model: garbage not logged"
	grep -q 'client 127.0.0.1:[0-9]*: .*65536 bytes is too long' "$T/server.log" ||
		zcb_fail "$model: too-long frame not logged"
	zcb_ok "$model: half frame, garbage and a too-long frame logged and closed"

	raw_room 101 'XX\x01\x01' 'malformed frame: bad magic'
	raw_room 102 "$(hdr 1 1000 0 0 0)" 'is too long (max 16)'
	raw_room 103 "$(msg16 0 0 1)" 'sent message seq 1, expected 0 of 3'
	raw_room 104 'CH\x01\x01\x00' 'hung up inside a frame'
	check_run "raw frames"
	zcb_ok "$model: bad frames of a joined user break up its room only; exact run after"

	# a client whose user hangs up mid-run
	zcb_expect_fail "$model drop" "$B" --host 127.0.0.1 --port "$port" \
		-r 2 -u 4 -m 50 --fault drop:7 -o "$T/drop.json"
	grep -q 'room 0 user 0 (127.0.0.1:[0-9]*)[ ,].*after sending 7 of 50 messages' \
		"$ZCB_TEST_TMP/err" || zcb_fail "$model: drop error unclear: $(cat "$ZCB_TEST_TMP/err")"
	[ "$(jq -r .status "$T/drop.json")" = failed ] || zcb_fail "$model: drop document not failed"
	jq -r .error "$T/drop.json" | grep -q 'broke up the room' ||
		zcb_fail "$model: drop document error"
	check_run "dying user"
	zcb_ok "$model: a user hanging up mid-run fails the run clearly; server survives"

	# a client process killed mid-run
	"$B" --host 127.0.0.1 --port "$port" -r 4 -u 10 -m 100000 -t 50 \
		>/dev/null 2>&1 &
	cpid=$!
	sleep 1
	kill -KILL $cpid
	wait $cpid 2>/dev/null
	for _ in $(seq 1 50); do grep -q 'closing room' "$T/server.log" && break; sleep 0.1; done
	check_run "killed client"
	zcb_ok "$model: a killed client; server survives"

	kill -TERM $spid
	zcb_wait_gone $spid 15 || zcb_fail "$model: server did not stop on SIGTERM"
	wait $spid
	rc=$?
	[ $rc -eq 0 ] || zcb_fail "$model: server exit $rc after SIGTERM"
	grep -q 'runs served' "$T/server.log" || zcb_fail "$model: no server summary"

	# a stalled server: the run times out naming what is missing
	zcb_expect_fail "$model stall" "$B" -r 2 -u 4 -m 50 --model "$model" \
		--fault stall:30 -t 2 -o "$T/stall.json"
	grep -Eq 'run timed out after 2\.0 s: [0-9]+ of 1200 messages missing; [0-9]+ of 8 users short' \
		"$ZCB_TEST_TMP/err" || zcb_fail "$model: stall message: $(cat "$ZCB_TEST_TMP/err")"
	[ "$(jq -r .status "$T/stall.json")" = failed ] || zcb_fail "$model: stall document"
	zcb_ok "$model: a stalled run times out and names the missing messages"
done
