#!/usr/bin/env bash
# report-extreme.sh: figures at the edge of what a double holds, and
# rates that cannot be rates (issue 22):
# 1. A base whose rate samples are 1e308 (their mean overflows) against
#    all-negative ones: compare and html never abort (GSL's handler used
#    to: "Default GSL error handler invoked.", exit 134); the loader
#    refuses the document, naming it, its case and metric, and names
#    the rate <= 0 of the other (exit 2).
# 2. A test GSL refuses (a published standard deviation of 1e150 makes
#    Welch's degrees of freedom NAN) is a row "not judged" that names the
#    test and GSL's words, in compare, its JSON and the HTML page (exit 2).
# 3. A rate sample <= 0 (600 610 620 630 0): no harmonic mean, in compare
#    ("-", not judged, never the arithmetic mean 492.0) and in table ("-"
#    with a note under the table, for one case and for pooled ones);
#    all-negative runs are never a REGRESSION.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
seeds=$ZCB_SRCDIR/results/seeds
d=$ZCB_TEST_TMP

# setrates FILE V1,V2,...: the document's throughput samples become these
setrates() {
	jq --argjson v "[$2]" '.cases[0].samples |= [range($v | length) as $i |
		.[$i] | .metrics.throughput_MBps = $v[$i]]' "$1" >"$1.tmp" &&
		mv "$1.tmp" "$1"
}
# run NAME CMD...: output in $d/NAME.out and .err, status in rc
run() {
	local n=$1
	shift
	rc=0
	"$@" >"$d/$n.out" 2>"$d/$n.err" || rc=$?
	[ $rc -lt 128 ] || zcb_fail "$n: killed by signal $((rc - 128)): $(cat "$d/$n.err")"
	! grep -q 'GSL error handler' "$d/$n.err" || zcb_fail "$n: GSL's own handler ran: $(cat "$d/$n.err")"
}

# 1. overflowing base, negative new
mkdoc "$d/huge.json" 6.1 1000 10 5 1
setrates "$d/huge.json" 1e308,1e308,1e308,1e308,1e308
mkdoc "$d/neg.json" 6.2 1000 10 5 2
setrates "$d/neg.json" -600,-610,-620,-630,-640
run cmp1 "$Z" compare "$d/huge.json" "$d/neg.json"
[ $rc = 2 ] || zcb_fail "1e308 against negatives: exit $rc, want 2: $(cat "$d/cmp1.err")"
grep -q "^zcbreport: error: $d/huge.json: cases\[0\] throughput_MBps: the samples' mean or standard deviation is not a finite number (values up to 1e+308 overflow)" "$d/cmp1.err" ||
	zcb_fail "the overflowing document is not refused by name, case and metric: $(cat "$d/cmp1.err")"
grep -q "^zcbreport: warning: $d/neg.json: cases\[0\] throughput_MBps: 5 of 5 samples <= 0" "$d/cmp1.err" ||
	zcb_fail "the negative rates are not named: $(cat "$d/cmp1.err")"
run html1 "$Z" html -o "$d/page1.html" "$d/huge.json" "$d/neg.json"
[ $rc = 2 ] || zcb_fail "html, 1e308 against negatives: exit $rc, want 2: $(cat "$d/html1.err")"
grep -q "huge.json: cases\[0\] throughput_MBps: .*not a finite number" "$d/html1.err" ||
	zcb_fail "html: the overflowing document is not named: $(cat "$d/html1.err")"
zcb_ok "1e308 against negative rates: refused and named, no abort (compare, html)"

# 2. a test GSL refuses: seed 004 with a published sd of 1e150
jq '.cases[0].summary.msgs_per_s.stddev = 1e150 | .cases[0].summary.msgs_per_s.cov = null' \
	"$seeds/004b-chat-pre3.json" >"$d/wide.json"
gsl="not judged: Welch's t-test failed: GSL: x too large to extract fraction part (gamma\.c:[0-9]*)"
gsle="not judged: Welch's t-test failed: GSL: x too large to extract fraction part \(gamma\.c:[0-9]+\)"
run cmp2 "$Z" compare -m msgs_per_s "$seeds/004a-chat-pre2.json" "$d/wide.json"
[ $rc = 2 ] || zcb_fail "GSL refusal: exit $rc, want 2: $(cat "$d/cmp2.out" "$d/cmp2.err")"
grep -Eq "^Amean +chatbench size=100 nodelay=no .*$gsle \(n=50/50\)" "$d/cmp2.out" ||
	zcb_fail "the row does not name the failed test and GSL's words: $(cat "$d/cmp2.out")"
grep -q '0 judged, 0 regressions flagged .*; 1 row not judged: a computation failed$' "$d/cmp2.out" ||
	zcb_fail "the closing line does not count the failed row: $(tail -1 "$d/cmp2.out")"
run json2 "$Z" compare -m msgs_per_s --format json "$seeds/004a-chat-pre2.json" "$d/wide.json"
[ $rc = 2 ] || zcb_fail "GSL refusal, json: exit $rc, want 2"
[ "$(jq -r '.failed_rows' "$d/json2.out")" = 1 ] || zcb_fail "json: failed_rows is not 1"
jq -r '.rows[0].kernels[0].verdict' "$d/json2.out" | grep -q "^$gsl$" ||
	zcb_fail "json: the verdict does not name GSL's error: $(jq -c '.rows[0].kernels[0]' "$d/json2.out")"
run html2 "$Z" html -m msgs_per_s -o "$d/page2.html" "$seeds/004a-chat-pre2.json" "$d/wide.json"
[ $rc = 2 ] || zcb_fail "GSL refusal, html: exit $rc, want 2: $(cat "$d/html2.err")"
grep -q "not judged: Welch&#39;s t-test failed: GSL: x too large" "$d/page2.html" ||
	zcb_fail "html: the verdict does not name GSL's error"
zcb_ok "a test GSL refuses: a row not judged that names it, exit 2 (compare, json, html)"

# 3. a rate sample of 0: no harmonic mean
mkdoc "$d/b.json" 6.1 620 6 5 3
setrates "$d/b.json" 600,610,620,630,640
mkdoc "$d/z.json" 6.2 620 6 5 4
setrates "$d/z.json" 600,610,620,630,0
run cmp3 "$Z" compare -m throughput_MBps "$d/b.json" "$d/z.json"
[ $rc = 0 ] || zcb_fail "a sample of 0: exit $rc, want 0: $(cat "$d/cmp3.err")"
grep -Eq '^Hmean +ttcp-sf method=sendfile size=65536 +619\.7 .* -  \+- -  \( +-\) .*not judged: a rate <= 0 \(no harmonic mean\) \(n=5/5\)' "$d/cmp3.out" ||
	zcb_fail "compare: the row with a 0 is not '-' and not judged: $(cat "$d/cmp3.out")"
! grep -q '492' "$d/cmp3.out" || zcb_fail "compare: the arithmetic mean 492.0 is shown as the Hmean"
grep -q "warning: $d/z.json: cases\[0\] throughput_MBps: 1 of 5 samples <= 0" "$d/cmp3.err" ||
	zcb_fail "compare: the sample of 0 is not named: $(cat "$d/cmp3.err")"
for set in "$d/z.json" "$d/z.json $d/b.json"; do
	# shellcheck disable=SC2086 # one case, then two pooled
	run tab3 "$Z" table -m throughput_MBps --rows tool $set
	[ $rc = 0 ] || zcb_fail "table $set: exit $rc: $(cat "$d/tab3.err")"
	grep -Eq '^ttcp-sf +-$' "$d/tab3.out" || zcb_fail "table $set: not '-': $(cat "$d/tab3.out")"
	grep -q '^-: no harmonic mean: a sample <= 0, which a rate cannot be (throughput_MBps)$' "$d/tab3.out" ||
		zcb_fail "table $set: no note for the '-': $(cat "$d/tab3.out")"
done
mkdoc "$d/n0.json" 6.1 620 6 5 5
setrates "$d/n0.json" -599,-609,-619,-629,-639
run cmp4 "$Z" compare -m throughput_MBps "$d/n0.json" "$d/neg.json"
[ $rc = 0 ] || zcb_fail "all negative: exit $rc, want 0"
! grep -q 'REGRESSION\|improved\|1\.00[0-9]' "$d/cmp4.out" || zcb_fail "all-negative runs judged: $(cat "$d/cmp4.out")"
grep -q 'not judged: a rate <= 0' "$d/cmp4.out" || zcb_fail "all negative: not said: $(cat "$d/cmp4.out")"
zcb_ok "a rate <= 0: '-' with a note in table and compare, never judged"
