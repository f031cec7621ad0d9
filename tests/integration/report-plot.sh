#!/usr/bin/env bash
# report-plot.sh: zcbreport plot writes a PNG (checked by its signature)
# and a 72-column ASCII plot naming the meter and the run count; falls
# back from pngcairo to png; a missing gnuplot is an error, not a pass.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd gnuplot "Debian package gnuplot-nox"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/runs"
MK_CASES=5 MK_PARAMS='{"method":"write"}' mkdoc "$d/runs/w.json" 6.18 500 20 4 1
MK_CASES=5 MK_PARAMS='{"method":"sendfile"}' mkdoc "$d/runs/s.json" 6.18 600 20 4 2

png_ok() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

rc=0; "$Z" plot -o "$d/tput" --print "$d/runs" >"$d/out" 2>"$d/err" || rc=$?
[ $rc = 0 ] || zcb_fail "plot exited $rc: $(cat "$d/err")"
png_ok "$d/tput.png" || zcb_fail "tput.png is not a PNG"
[ -s "$d/tput.txt" ] || zcb_fail "no ASCII plot"
grep -q 'ttcp-sf: Throughput by buffer size per call' "$d/tput.txt" ||
	zcb_fail "title not in words: $(head -4 "$d/tput.txt")"
grep -q 'hmean of 4 runs +- sd, meter procstat; kernel 6.18 on host h' "$d/tput.txt" ||
	zcb_fail "subtitle lacks meter, run count, kernel or host: $(head -4 "$d/tput.txt")"
{ grep -q '6.18, sendfile' "$d/tput.txt" && grep -q '6.18, write' "$d/tput.txt"; } || zcb_fail "a line per method missing"
grep -q '32768\|16384' "$d/tput.txt" || zcb_fail "x axis sizes missing"
awk 'length > 72 { bad = 1 } END { exit bad }' "$d/tput.txt" || zcb_fail "ASCII plot wider than 72 columns"
[ "$(wc -l <"$d/tput.txt")" -le 24 ] || zcb_fail "ASCII plot taller than 22 lines and a legend line per series"
cmp -s <(head -n "$(wc -l <"$d/tput.txt")" "$d/out") "$d/tput.txt" || zcb_fail "--print did not print the ASCII plot"
zcb_ok "PNG and ASCII plot written"

# CPU on y, ci95 bars
rc=0; "$Z" plot -o "$d/cpu" -y cpu_local_pct -e ci95 "$d/runs" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 0 ] && png_ok "$d/cpu.png" && grep -q 'mean of 4 runs +- ci95' "$d/cpu.txt"; } ||
	zcb_fail "CPU plot: exit $rc: $(cat "$d/out")"
zcb_ok "CPU plot with ci95 bars"

# no pngcairo: the png terminal takes over
cat >"$d/gp-nocairo" <<EOS
#!/bin/sh
grep -q pngcairo "\$1" && { echo 'unknown or ambiguous terminal type' >&2; exit 1; }
exec gnuplot "\$@"
EOS
chmod +x "$d/gp-nocairo"
rm -f "$d/tput.png"
rc=0; GNUPLOT="$d/gp-nocairo" "$Z" plot -o "$d/tput" "$d/runs" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 0 ] && png_ok "$d/tput.png"; } || zcb_fail "png fallback: exit $rc: $(cat "$d/out")"
zcb_ok "falls back to the png terminal"

rc=0; GNUPLOT="$d/no-such-gnuplot" "$Z" plot -o "$d/x" "$d/runs" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 1 ] && grep -q "could not write" "$d/out"; } || zcb_fail "missing gnuplot: exit $rc"
rc=0; "$Z" plot -o "$d/x" -y no_such_metric "$d/runs" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q "no cases with metric no_such_metric" "$d/out"; } || zcb_fail "unknown metric: exit $rc"
zcb_ok "errors: missing gnuplot exit 1, nothing to plot exit 2"
