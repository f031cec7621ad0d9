#!/usr/bin/env bash
# chatbench-remote.sh: `chatbench --server` and `chatbench --host` as two
# processes, every pairing of the two models: exact accounting over
# repeats, the server's per-run lines (it waits for run after run), and the
# server's own CPU figures sent back over the control connection.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/chatbench-lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP
port=0 spid=0 # set by start_server

for smodel in threads epoll; do
	start_server "$T/server.log" --model "$smodel" --cpu=procstat
	for cmodel in threads epoll; do
		d="$T/$smodel-$cmodel.json"
		# 4 rooms x 6 users x 30 messages: 4 * 6 * 30 * 5 = 3600 per run
		"$B" --host 127.0.0.1 --port "$port" --model "$cmodel" -r 4 -u 6 \
			-m 30 -s 64 --nodelay -n 2 -o "$d" >"$T/client.out" 2>&1 ||
			zcb_fail "$smodel server, $cmodel client: $(cat "$T/client.out")"
		jq -e '[.cases[0].samples[] | .received == 3600 and .messages == 3600] == [true, true]' \
			"$d" >/dev/null || zcb_fail "$smodel/$cmodel: not 3600 per run"
		jq -e '.cases[0].samples[0].same_box == false' "$d" >/dev/null ||
			zcb_fail "$smodel/$cmodel: same_box"
		# (runs of a few ms: procstat may say it is below its resolution)
		jq -e "$ZCB_JQ_CPU"'.cases[0].summary.server_system_s.n == 2 and
			.cases[0].summary.cpu_server_rusage_pct.n == 2 and
			(.cases[0].summary.cpu_server_procstat_pct.n // 0) ==
				(.cases[0].samples | seen_n("server"; "procstat"))' "$d" >/dev/null ||
			zcb_fail "$smodel/$cmodel: no server CPU figures: $(jq -c .cases[0].summary "$d")"
		grep -q '^server System ' "$T/client.out" ||
			zcb_fail "$smodel/$cmodel: table lacks the server rows"
		zcb_ok "$smodel server, $cmodel client: 2 x 3600 messages, server CPU reported"
	done
	for _ in $(seq 1 50); do
		[ "$(grep -c 'relayed' "$T/server.log")" -ge 4 ] && break
		sleep 0.1
	done
	[ "$(grep -c ': 4 rooms x 6 users x 30 messages of 64 bytes relayed' "$T/server.log")" -eq 4 ] ||
		zcb_fail "$smodel: server did not log 4 runs: $(cat "$T/server.log")"
	kill -TERM $spid
	zcb_wait_gone $spid 15 || zcb_fail "$smodel: server did not stop"
	grep -q 'chatbench server: 4 runs served' "$T/server.log" ||
		zcb_fail "$smodel: server summary: $(tail -2 "$T/server.log")"
	zcb_ok "$smodel server served 4 runs one after the other"
done

# no server there: a clear error naming it
port=$(zcb_free_port)
zcb_expect_fail "no server" "$B" --host 127.0.0.1 --port "$port" -r 1 -u 2 -m 1 -o "$T/none.json"
grep -q "127.0.0.1:$port" "$ZCB_TEST_TMP/err" || zcb_fail "error does not name the server"
[ "$(jq -r .status "$T/none.json")" = failed ] || zcb_fail "no failed document"
zcb_ok "missing server: clear error, failed document"
