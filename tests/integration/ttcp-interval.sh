#!/usr/bin/env bash
# ttcp-interval.sh: -i prints a line per interval on both sides (rate,
# and CPU with -c) and keeps the intervals in the result document; their
# counts add up exactly to the sample's bytes or transactions (a stream,
# --rr, -P, UDP). --json-stream writes one JSON object per line on stdout: an
# "interval" event per interval and an "end" event holding the document.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
TT_SPLIT=1 # the transmitter's stdout apart: --json-stream

# adds NAME FIELD TOTAL: the intervals' FIELD adds up to the sample's TOTAL
adds() {
	local sum tot
	sum=$(zcb_json "$T/$1.json" "[.cases[0].samples[0].intervals[].$2] | add")
	tot=$(zcb_json "$T/$1.json" ".cases[0].samples[0].$3")
	[ "$sum" = "$tot" ] || zcb_fail "$1: intervals hold $sum $2, the sample $tot"
	[ "$(zcb_json "$T/$1.json" '.cases[0].samples[0].intervals | length')" -ge 2 ] ||
		zcb_fail "$1: fewer than 2 intervals"
}

# a stream, both sides, with CPU
tt_two st -i 0.2 -c --cpu=procstat -- -i 0.2 -c --cpu=procstat --duration 1s --source-size 4m
adds st-t bytes bytes
adds st-r bytes bytes
grep -q "^ttcp-t: \[  0.00-  0.2[0-9] s\] *[0-9]* bytes *[0-9.]* MB/s  cpu *[0-9.]*%" "$T/st-t.out" ||
	{ cat "$T/st-t.out"; zcb_fail "stream: interval line"; }
grep -q "^ttcp-r: \[  0.00-  0.2[0-9] s\]" "$T/st-r.txt" || zcb_fail "stream: receiver's interval line"
[ "$(zcb_json "$T/st-t.json" '.cases[0].samples[0].intervals[0].cpu_box_pct | type')" = number ] ||
	zcb_fail "stream: interval CPU"

# --rr: transactions per interval
tt_two rr --rr -- --rr -i 0.2 --duration 1s
adds rr-t transactions transactions

# -P 3: the flows' sum per interval
tt_two p -- -P 3 -i 0.2 --duration 1s --source-size 4m
adds p-t bytes bytes

# UDP: the receiver's intervals run from the first datagram
tt_two u -u -i 0.2 -- -u -i 0.2 -l 1400 --duration 1s --source-size 1m
adds u-r bytes bytes
adds u-t bytes bytes

# --json-stream: every stdout line is one JSON object
tt_two js -- --json-stream -i 0.2 --duration 1s --source-size 4m
n=$(wc -l <"$T/js-t.out")
[ "$n" -ge 3 ] || zcb_fail "--json-stream: $n lines"
jq -e -s 'length >= 3 and (.[:-1] | all(.event == "interval" and (.data.bytes | type) == "number"))
	and .[-1].event == "end" and .[-1].data.schema == "zcbench-result/1"' "$T/js-t.out" >/dev/null ||
	{ head -c 600 "$T/js-t.out"; zcb_fail "--json-stream: events"; }
[ "$(jq -s '[.[:-1][].data.bytes] | add' "$T/js-t.out")" = "$(jq -s '.[-1].data.cases[0].samples[0].bytes' "$T/js-t.out")" ] ||
	zcb_fail "--json-stream: interval bytes do not add up"
grep -q "^ttcp-t: .* bytes in .* real seconds" "$T/js-t.txt" || zcb_fail "--json-stream: text not on stderr"
rc=0
"$TTCP" -t --json-stream -J 127.0.0.1 >/dev/null 2>"$T/e" || rc=$?
if [ $rc != 2 ] || ! grep -q "both want stdout" "$T/e"; then
	zcb_fail "--json-stream -J not refused"
fi
zcb_ok "-i and --json-stream: lines, CPU, intervals adding up exactly (stream, --rr, -P)"
