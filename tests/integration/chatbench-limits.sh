#!/usr/bin/env bash
# chatbench-limits: a chatbench server holds what it can afford and no
# connection waits forever. --max-conns caps the connections (and so the
# threads model's 2 threads each), named in a log line when hit; a JOIN
# must be whole soon after the accept, however it trickles in; a control
# connection idle with no run going is closed after --timeout. Both models.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/chatbench-lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP

# closed FD SECONDS: the server closes FD within SECONDS (EOF or reset)
closed() {
	local rc=0
	read -r -t "$2" -u "$1" _ || rc=$?
	[ "$rc" -gt 0 ] && [ "$rc" -le 128 ]
}
threads_of() { awk '/^Threads:/ {print $2}' "/proc/$1/status"; }

# a control JOIN (flags CHAT_JOIN_CTRL), and its bytes one by one
CTRL_JOIN='CH\x01\x02\x00\x00\x00\x2c'$(printf '\\x00%.0s' $(seq 1 32))'\x00\x00\x00\x01'
JOIN_SLOW='C H \x01 \x02 \x00 \x00 \x00 \x2c \x00 \x00 \x00 \x00 \x00 \x00 \x00 \x00'

for model in threads epoll; do
	# --max-conns 4: the 5th to 8th connection are turned away
	start_server "$T/max-$model.log" --model "$model" --max-conns 4 --timeout 30
	t0=$(threads_of "$spid")
	zcb_hold "$port" 8 # accepted in this order: the last 4 are beyond the cap
	for i in 4 5 6 7; do
		closed "${ZCB_HELD[$i]}" 5 || zcb_fail "$model: connection $((i + 1)) not turned away at --max-conns 4"
	done
	for i in 0 1 2 3; do
		closed "${ZCB_HELD[$i]}" 0.2 && zcb_fail "$model: connection $((i + 1)) closed under --max-conns 4"
	done
	grep -q "turned away: 4 connections open (--max-conns 4" "$T/max-$model.log" ||
		zcb_fail "$model: the cap is not named: $(cat "$T/max-$model.log")"
	t1=$(threads_of "$spid")
	[ "$t1" -le $((t0 + 4)) ] || zcb_fail "$model: $t0 threads before, $t1 with 4 connections"
	zcb_release
	kill -INT "$spid"
	zcb_wait_gone "$spid" 15 || zcb_fail "$model: server did not stop"

	# idle limit 1 s: a JOIN trickling in and an idle control connection
	start_server "$T/idle-$model.log" --model "$model" --timeout 1
	exec 5<>"/dev/tcp/127.0.0.1/$port"
	(
		for b in $JOIN_SLOW; do
			# shellcheck disable=SC2059
			printf "$b" || exit 0
			sleep 0.3
		done
	) >&5 2>/dev/null &
	tpid=$!
	zcb_track "$tpid"
	exec 6<>"/dev/tcp/127.0.0.1/$port"
	# shellcheck disable=SC2059
	printf "$CTRL_JOIN" >&6
	closed 5 4 || zcb_fail "$model: a trickling JOIN held its connection 4 s (JOIN deadline 1 s)"
	closed 6 5 || zcb_fail "$model: an idle control connection was not closed (--timeout 1)"
	kill "$tpid" 2>/dev/null
	exec 5>&- 6>&-
	grep -q "control: idle" "$T/idle-$model.log" || zcb_fail "$model: $(cat "$T/idle-$model.log")"
	# a real remote run still gets the server's figures over control
	"$B" --host 127.0.0.1 --port "$port" --model "$model" -r 1 -u 2 -m 10 -t 20 -J \
		>"$T/run-$model.json" 2>"$T/run-$model.err" || zcb_fail "$model: run: $(cat "$T/run-$model.err")"
	kill -INT "$spid"
	zcb_wait_gone "$spid" 15 || zcb_fail "$model: server did not stop"
	zcb_ok "$model: --max-conns named when hit; a trickling JOIN and an idle control connection closed"
done
"$B" --max-conns 5 >/dev/null 2>&1
[ $? = 2 ] || zcb_fail "--max-conns without --server: not a usage error"
