#!/usr/bin/env bash
# zcs-sigint.sh: SIGINT of zcs ends every child (--fork) and every
# connection (both modes), and still writes the result document.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
T=$ZCB_TEST_TMP

for mode in fork epoll; do
	args=(--output "$T/$mode.json")
	[ "$mode" = fork ] && args+=(--fork)
	zcs_start "$mode" "${args[@]}"
	# three clients in the middle of a file, holding their connections
	for fd in 5 6 7; do
		eval "exec $fd<>/dev/tcp/127.0.0.1/$ZCS_PORT"
		printf '\x00\x00\x00\x01\x00\x00\x00\x01\x00\x10\x00\x00abc' >&$fd
	done
	kids=()
	if [ "$mode" = fork ]; then
		for _ in $(seq 1 100); do
			mapfile -t kids < <(pgrep -P "$ZCS_PID")
			[ "${#kids[@]}" -ge 3 ] && break
			sleep 0.05
		done
		[ "${#kids[@]}" = 3 ] || zcb_fail "fork: ${#kids[@]} children for 3 connections"
	fi
	sleep 0.3
	zcs_stop "$ZCS_PID"
	for k in "${kids[@]}"; do
		kill -0 "$k" 2>/dev/null && zcb_fail "$mode: child $k survived SIGINT of zcs"
	done
	for fd in 5 6 7; do
		# each connection was closed: EOF (or a reset), not a timeout
		read -r -t 5 -u $fd _
		rc=$?
		[ $rc -gt 128 ] && zcb_fail "$mode: connection on fd $fd still open after SIGINT"
		eval "exec $fd>&-"
	done
	zcs_doc_wait "$T/$mode.json"
	n=$(jq '[.cases[0].samples[] | select(.result == "interrupted" and .payload_bytes == 3)] | length' "$T/$mode.json")
	[ "$n" = 3 ] || zcb_fail "$mode: $n of 3 connections recorded as interrupted: $(cat "$T/$mode.json")"
	zcb_ok "$mode: SIGINT ended zcs${kids:+, its ${#kids[@]} children (${kids[*]})} and all 3 connections; document written"
done

# SIGKILL of a --fork parent: its children go with it (PR_SET_PDEATHSIG)
zcs_start killed --fork
for fd in 5 6; do
	eval "exec $fd<>/dev/tcp/127.0.0.1/$ZCS_PORT"
	printf '\x00\x00\x00\x01\x00\x00\x00\x01\x00\x10\x00\x00abc' >&$fd
done
kids=()
for _ in $(seq 1 100); do
	mapfile -t kids < <(pgrep -P "$ZCS_PID")
	[ "${#kids[@]}" -ge 2 ] && break
	sleep 0.05
done
[ "${#kids[@]}" = 2 ] || zcb_fail "fork: ${#kids[@]} children for 2 connections"
for k in "${kids[@]}"; do zcb_track "$k"; done
kill -KILL "$ZCS_PID"
for k in "${kids[@]}"; do
	zcb_wait_gone "$k" 5 || zcb_fail "child $k outlived its SIGKILLed parent"
done
for fd in 5 6; do eval "exec $fd>&-"; done
zcb_ok "fork: parent SIGKILLed, its children (${kids[*]}) went with it"
