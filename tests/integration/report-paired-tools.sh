#!/usr/bin/env bash
# report-paired-tools: zcbreport over documents the real tools wrote with
# the soak meter (a fixture calibration and a private soak socket, as
# soak-pairs.sh): ttcp-sf --cpu=soak on loopback runs pairs, and the
# tables print the unmetered runs' rate and the metered runs' soak CPU,
# mark the CPU exactly when the document's perturbation is outside
# 0.95-1.05 with the footnote ttcp-sf printed itself, and say where the
# figures came from. `cyclesoak -- CMD` (soaked, unpaired) is marked, and
# compare refuses to judge an older, unpaired soaked document's rate
# against the paired one's. The box's own ratio is not judged: only
# that the report tells it as the tool did.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
T=$ZCB_TEST_TMP
cs_lock
cs_fixture_calibration

tt_recv "$T/r" -c --cpu=soak -o "$T/r.json"
"$TTCP" -t -c --cpu=soak -p "$TT_PORT" -l 8192 -n 500 --repeat 2 \
	-o "$T/t.json" 127.0.0.1 >"$T/t.txt" 2>&1 || { cat "$T/t.txt"; zcb_fail "transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/r.txt"; zcb_fail "receiver exit $TT_RRC"; }
jq -e '.cases[0].perturbation.pairs == 2' "$T/t.json" >/dev/null || zcb_fail "ttcp-sf did not pair its runs"

"$Z" table --layout zc-vs-copy "$T/t.json" >"$T/zc" 2>"$T/zc.err" || zcb_fail "zc-vs-copy: $(cat "$T/zc.err")"
cat "$T/zc"
row=$(grep -E '^[^ ]+ +write ' "$T/zc") || zcb_fail "no write row"
# MB/s: the hmean of the unmetered runs; sending CPU: the metered runs' soak
want=$(jq -r '[.cases[0].samples[] | select(.soak == false) | .metrics.throughput_MBps] |
	(length / (map(1 / .) | add)) * 10 | round / 10' "$T/t.json")
got=$(awk '{ print $5 }' <<<"$row" | tr -d '*')
awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 0.051 && b - a < 0.051) }' ||
	zcb_fail "MB/s $got is not the unmetered runs' hmean $want"
metered=$(jq -r '[.cases[0].samples[] | select(.soak) | .metrics.metered_throughput_MBps] |
	(length / (map(1 / .) | add)) * 10 | round / 10' "$T/t.json")
zcb_ok "MB/s $got: the unmetered runs' (the metered ones ran at $metered)"
grep -qxF '(paired runs: rates from the unmetered runs; CPU, service demand from the metered runs of the same pairs; service demand: the CPU and the bytes of one run)' "$T/zc" ||
	zcb_fail "no sources line"

# the mark follows the document's perturbation, the footnote is the tool's
ratio=$(jq -r '.cases[0].perturbation.ratio' "$T/t.json")
note=$(sed -n 's/^ttcp-t: perturbation: //p' "$T/t.txt")
if awk -v r="$ratio" 'BEGIN { exit !(r < 0.95 || r > 1.05) }'; then
	grep -Eq '^[^ ]+ +write +[0-9.]+%\* ' <<<"$row" || zcb_fail "perturbation $ratio: sending CPU not marked: $row"
	grep -qxF "* $note" "$T/zc" || zcb_fail "footnote is not ttcp-sf's line \"$note\""
	zcb_ok "perturbation $ratio (outside the band): marked, footnote as ttcp-sf printed it"
else
	! grep -q '\*' "$T/zc" || zcb_fail "perturbation $ratio (within the band), yet marked: $(cat "$T/zc")"
	zcb_ok "perturbation $ratio (within the band): no mark, no footnote"
fi

# ttcp-cpu over both ends: the receiver's case carries its own ratio
"$Z" table --layout ttcp-cpu "$T/t.json" "$T/r.json" >"$T/tc" 2>&1 || zcb_fail "ttcp-cpu: $(cat "$T/tc")"
cat "$T/tc"
rr=$(jq -r '.cases[0].perturbation.ratio' "$T/r.json")
for side in sending:$ratio receiving:$rr; do
	line=$(grep ", ${side%%:*} with ttcp-sf" "$T/tc")
	if awk -v r="${side#*:}" 'BEGIN { exit !(r < 0.95 || r > 1.05) }'; then
		grep -q '%\*[0-9]*$' <<<"$line" || zcb_fail "${side%%:*} (ratio ${side#*:}) not marked: $line"
	else
		! grep -q '\*' <<<"$line" || zcb_fail "${side%%:*} (ratio ${side#*:}) marked: $line"
	fi
done
zcb_ok "ttcp-cpu: each end marked by its own document's perturbation ($ratio, $rr)"

# an older document: the same runs as an unpaired tool wrote them (the
# soaked runs only, their figures under their plain names)
mkdir -p "$T/old" "$T/new"
jq '.cases |= map(.samples |= map(select(.soak) | del(.soak, .pair) |
		.metrics |= with_entries(.key |= sub("^metered_"; ""))) | del(.perturbation, .summary) |
		.summary = {}) |
	.metrics |= with_entries(select(.key | startswith("metered_") | not))' "$T/t.json" >"$T/old/t.json"
cp "$T/t.json" "$T/new/"
rc=0; "$Z" compare --min-n 2 "$T/old" "$T/new" >"$T/cmp" 2>&1 || rc=$?
[ $rc -le 1 ] || zcb_fail "compare exit $rc: $(cat "$T/cmp")"
sed -n '/^throughput_MBps (/,/^$/p' "$T/cmp" | grep -q 'not comparable: base from runs with soakers on (unpaired), new from unmetered runs' ||
	zcb_fail "old soaked rate judged against the unmetered one: $(cat "$T/cmp")"
! sed -n '/^cpu_local_soak_pct (/,/^$/p' "$T/cmp" | grep -q 'not comparable' ||
	zcb_fail "soak CPU refused (metered on both sides)"
zcb_ok "compare: an unpaired soaked document's rate is not judged against a paired one's"

# cyclesoak -- CMD: soaked, unpaired: every figure marked
"$CS" --cpu=soak,procstat -o "$T/cs.json" -- sleep 0.2 >"$T/cs.txt" 2>&1 || zcb_fail "cyclesoak: $(cat "$T/cs.txt")"
"$Z" table "$T/cs.json" >"$T/cst" 2>&1 || zcb_fail "table of cyclesoak: $(cat "$T/cst")"
{ grep -q '^\* ran with soakers on, unpaired' "$T/cst" && grep -q '^[^ ]*\* ' "$T/cst"; } ||
	zcb_fail "cyclesoak -- CMD not marked: $(cat "$T/cst")"
zcb_ok "cyclesoak -- CMD (soaked, unpaired) marked"
