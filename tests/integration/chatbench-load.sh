#!/usr/bin/env bash
# chatbench-load.sh: 50 rooms x 20 users = 1000 connections (2000 sockets
# and 4000 threads with the server in-process) complete with every message
# accounted for, in both models.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP

[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 2300 ] ||
	zcb_skip "open file hard limit $(ulimit -Hn) < 2300"
for model in threads epoll; do
	# 50 * 20 * 20 * 19 = 380000 deliveries
	"$B" -r 50 -u 20 -m 20 --model "$model" -t 50 -o "$T/load.json" \
		>"$T/out" 2>&1 || zcb_fail "$model: 1000 connections: $(cat "$T/out")"
	[ "$(jq '.cases[0].samples[0].received' "$T/load.json")" = 380000 ] ||
		zcb_fail "$model: not 380000 messages"
	zcb_ok "$model: 1000 connections, 380000 of 380000 messages"
done
