#!/usr/bin/env bash
# ttcp-report.sh: with -c both ends measure; the receiver's figures reach
# the transmitter after the data (peer host, remote CPU and service
# demand on one line); both ends on one box are recognised and said so.
# Against a plain-ttcp peer (--no-report acts as one) the report is
# skipped and the output says so. --repeat drives several samples.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

tt_recv "$T/r" -c --cpu=procstat,rusage -o "$T/r.json"
"$TTCP" -t -c --cpu=procstat,rusage -p "$TT_PORT" -m sendfile -l 32768 --duration 0.3s --repeat 3 \
	-o "$T/t.json" 127.0.0.1 >"$T/t.txt" 2>&1 || { cat "$T/t.txt"; zcb_fail "transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/r.txt"; zcb_fail "receiver exit $TT_RRC"; }
j=$T/t.json
[ "$(zcb_json "$j" '.cases[0].samples | length')" = 3 ] || zcb_fail "3 samples expected"
[ "$(zcb_json "$T/r.json" '.cases[0].samples | length')" = 3 ] || zcb_fail "receiver followed 3 samples"
for k in cpu_local_pct cpu_remote_pct sd_local_us_per_kb sd_remote_us_per_kb throughput_MBps \
	cpu_local_procstat_pct cpu_remote_rusage_pct; do
	[ "$(zcb_json "$j" ".cases[0].samples[0].metrics.$k | type")" = number ] || zcb_fail "metric $k missing"
	zcb_json "$j" ".metrics | has(\"$k\")" | grep -qx true || zcb_fail "metric $k not declared"
done
[ "$(zcb_json "$j" '.cases[0].samples[0].same_box')" = true ] || zcb_fail "same box not detected"
[ "$(zcb_json "$j" '.peer.hostname')" = "$(hostname)" ] || zcb_fail "peer host facts"
[ "$(zcb_json "$j" '.cases[0].summary.throughput_MBps.n')" = 3 ] || zcb_fail "summary n"
grep -q "^ttcp-t: .* bytes in .* real seconds = .* KB/sec +++" "$T/t.txt" || zcb_fail "ttcp's rate line"
grep -q "^ttcp-t: .* I/O calls, msec/call = .*, calls/sec = " "$T/t.txt" || zcb_fail "ttcp's calls line"
grep -q "^ttcp-t: cpu box .*%, sd .* us/KB (procstat; both ends on this box)" "$T/t.txt" || zcb_fail "one-line CPU"
grep -q "both ends on this box" "$T/r.txt" || zcb_fail "receiver does not say same box"
grep -q "cpu remote rusage" "$T/t.txt" || zcb_fail "remote process meter not shown"
res=$(zcb_json "$j" '.cases[0].params | [.method, .recv_method, .size, .proto, .role, .source] | join(" ")')
[ "$res" = "sendfile read 32768 tcp transmit file" ] || zcb_fail "params: $res"

# a plain-ttcp receiver: no report, the transmitter says so, still ok
tt_recv "$T/p" --no-report
"$TTCP" -t -c --cpu=procstat -p "$TT_PORT" --duration 0.3s --report-timeout 3s -o "$T/p.json" 127.0.0.1 >"$T/pt.txt" 2>&1 ||
	{ cat "$T/pt.txt"; zcb_fail "transmitter against plain receiver"; }
tt_wait_recv
grep -q "no report: the receiver .*plain ttcp" "$T/pt.txt" || zcb_fail "no-report not said"
zcb_json "$T/p.json" '.warnings[]' | grep -q "no report" || zcb_fail "no-report not in warnings"
[ "$(zcb_json "$T/p.json" '.cases[0].samples[0].metrics | has("cpu_remote_pct")')" = false ] || zcb_fail "remote CPU invented"
grep -q "cpu local .*remote: no report" "$T/pt.txt" || zcb_fail "one-line CPU without remote"
# a plain-ttcp transmitter: the receiver waits briefly for a hello, then says so
tt_recv "$T/q" --report-timeout 1s -o "$T/q.json"
"$TTCP" -t --no-report -p "$TT_PORT" -n 100 127.0.0.1 >"$T/qt.txt" 2>&1 || zcb_fail "plain transmitter"
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/q.txt"; zcb_fail "receiver against plain transmitter: exit $TT_RRC"; }
grep -q "transmitter sent no hello" "$T/q.txt" || zcb_fail "receiver does not say no hello"
[ "$(zcb_json "$T/q.json" '.cases[0].params.method')" = unknown ] || zcb_fail "receiver invented a method"
[ "$(zcb_json "$T/q.json" '.cases[0].samples[0].bytes')" = 819200 ] || zcb_fail "receiver bytes"
zcb_ok "remote report, same box, repeat, and plain-ttcp peers on both sides"
