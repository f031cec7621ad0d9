#!/usr/bin/env bash
# zcs-cpu.sh: zcc -c -C prints and records both boxes' CPU (the server's
# from its report, checked against the bytes sent), in both server modes;
# against a zcs without -c it says the remote CPU is unavailable.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
T=$ZCB_TEST_TMP
head -c 2000000 /dev/urandom >"$T/a"
head -c 500000 /dev/urandom >"$T/b"

for mode in epoll fork; do
	args=(-c "--cpu=procstat,rusage")
	[ "$mode" = fork ] && args+=(--fork)
	zcs_start "$mode" "${args[@]}"
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 40 -P 2 -c -C --repeat 2 --label t1 -J \
		"$T/a" "$T/b" >"$T/$mode.json" 2>"$T/$mode.txt" || zcb_fail "$mode: zcc failed: $(cat "$T/$mode.txt")"
	zcs_stop "$ZCS_PID"
	D=$T/$mode.json
	jq -e '.status == "ok" and .label == "t1" and .tool == "zcc"' "$D" >/dev/null || zcb_fail "$mode: $(cat "$D")"
	jq -e '.cases[0].params == {"method":"sendfile","recv_method":"read","files":2,"bytes_per_loop":2500000,"connections":2}' "$D" >/dev/null ||
		zcb_fail "$mode: params $(jq -c '.cases[0].params' "$D")"
	# 200 MB take 0.1 s here, a few ms on a fast box: a side's procstat
	# figure is there unless the meter said its window had no tick, and
	# its service demand unless the window had no busy one (0%)
	jq -e "$ZCB_JQ_CPU"'def side($s): named($s; "procstat"; "cpu_\($s)_pct") and
		(.metrics["cpu_\($s)_pct"] == null or .metrics["cpu_\($s)_pct"] == 0 or
		 .metrics["sd_\($s)_us_per_kb"] > 0);
		[.cases[0].samples[] | .bytes == 200000000 and .server_payload_bytes == 200000000 and .same_box == true
		and side("local") and side("remote") and ((.metrics.cpu_remote_pct // 0) <= 100)
		and (.metrics.throughput_MBps > 0) and (.cpu.remote | length) == 2] | all and length == 2' "$D" >/dev/null ||
		zcb_fail "$mode: samples $(jq -c '.cases[0].samples[] | del(.cpu)' "$D")"
	jq -e '.peer.hostname and .cases[0].summary.throughput_MBps.n == 2' "$D" >/dev/null || zcb_fail "$mode: no peer or summary"
	{ grep -q "cpu local  procstat" "$T/$mode.txt" && grep -q "cpu remote procstat" "$T/$mode.txt" &&
		grep -q "cpu remote rusage" "$T/$mode.txt"; } || zcb_fail "$mode: CPU lines missing: $(cat "$T/$mode.txt")"
	zcb_ok "$mode: local and remote CPU, per run, bytes checked against the server's count"
done

zcs_start plain
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -C --output "$T/plain.json" "$T/a" >"$T/plain.txt" 2>&1 || zcb_fail "zcc -C: $(cat "$T/plain.txt")"
grep -q "cpu remote unavailable: the server does not measure CPU" "$T/plain.txt" || zcb_fail "no 'unavailable' line: $(cat "$T/plain.txt")"
jq -e '.cases[0].samples[0].metrics | has("cpu_remote_pct") | not' "$T/plain.json" >/dev/null || zcb_fail "remote CPU from a server that does not measure"
zcs_stop "$ZCS_PID"
zcb_ok "zcs without -c: zcc -C says the remote CPU is unavailable"

# -i and -o (the common set's socket buffers, as the originals') reach
# the socket: a send buffer beyond net.core.wmem_max is cut, and zcc says so
zcs_start bufs -i 64k -o 64k
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -i 64k -o 1000m --output "$T/bufs.json" "$T/b" >"$T/bufs.txt" 2>&1 ||
	zcb_fail "zcc -i -o: $(cat "$T/bufs.txt")"
grep -q "SO_SNDBUF (-o): asked 1048576000 bytes" "$T/bufs.txt" || zcb_fail "zcc -o did not reach the socket: $(cat "$T/bufs.txt")"
[ "$(jq -r .status "$T/bufs.json")" = ok ] || zcb_fail "zcc -i -o: the document"
zcs_stop "$ZCS_PID"
zcb_ok "-i, -o: the socket buffers, and --output the document"

# usage errors: one line, exit 2
for bad in "-s 127.0.0.1 -S --method write $T/a" "-s 127.0.0.1 -w $T/a" "-s x -n -1 $T/a" "$T/a" "-s x --method nope $T/a"; do
	# shellcheck disable=SC2086
	"$ZCC" $bad >/dev/null 2>"$T/u.err"
	[ $? = 2 ] || zcb_fail "zcc $bad: not exit 2"
	[ "$(wc -l <"$T/u.err")" = 1 ] || zcb_fail "zcc $bad: $(cat "$T/u.err")"
done
"$ZCS" --method nope 2>/dev/null; [ $? = 2 ] || zcb_fail "zcs --method nope: not exit 2"
"$ZCS" --max-conns 0 2>/dev/null; [ $? = 2 ] || zcb_fail "zcs --max-conns 0: not exit 2"
zcb_ok "bad options: one line, exit 2"
