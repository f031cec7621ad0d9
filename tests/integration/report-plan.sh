#!/usr/bin/env bash
# report-plan.sh: zcbreport plan BASE: from the baseline's noise, the
# runs each case needs so that a 5% change is found with 90% power
# (compare's Welch test at alpha 0.05, and a change above the threshold
# and the baseline's noise): a quiet case (cov 1%) needs 3 runs, a
# medium one (3%) about 10, a noisy one (8%) never gets there; with
# --rounds (the baseline's rounds of the suite) it says how many
# rounds, up to --cap. And
# compare prints what its "no regression" means: "no change > x%", x
# the smallest change the row could have flagged. plan --history, from
# nights, gives one run's noise and the drift between nights (checked
# against the same numbers computed here), and the runs a night that
# find the change, or "never" when the drift forbids it.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/base" "$d/new"

# quiet: 1000 +- 1% (10 runs); medium: +- 3%; noisy: +- 8%
MK_VALUES=990,1010,995,1005,1000,985,1015,1000,992,1008 MK_PARAMS='{"method":"write","size":65536}' \
	mkdoc "$d/base/q.json" 6.18 0 0 0 0
MK_VALUES=970,1030,985,1015,1000,955,1045,1000,976,1024 MK_PARAMS='{"method":"splice","size":65536}' \
	mkdoc "$d/base/m.json" 6.18 0 0 0 0
MK_VALUES=920,1080,960,1040,1000,880,1120,1000,936,1064 MK_PARAMS='{"method":"sendfile","size":65536}' \
	mkdoc "$d/base/n.json" 6.18 0 0 0 0

rc=0; "$Z" plan --rounds 2 --cap 50 "$d/base" >"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 0 ] || zcb_fail "plan: exit $rc: $(cat "$d/err")"
grep -q 'throughput_MBps: runs for a 5% change at 90% power (alpha 0.05)' "$d/out" || zcb_fail "no heading"
grep -Eq '^ttcp-sf method=write size=65536 +10 +1\.0% +3 runs a side \(1 round\)$' "$d/out" ||
	zcb_fail "quiet case: not 3 runs, 1 round"
need=$(sed -n 's/^ttcp-sf method=splice .* 2\.9% *\([0-9]*\) runs a side.*/\1/p' "$d/out")
{ [ -n "$need" ] && [ "$need" -ge 8 ] && [ "$need" -le 20 ]; } || zcb_fail "medium case needs '$need' runs, want 8-20"
grep -Eq '^ttcp-sf method=sendfile size=65536 +10 +7\.[0-9]% +never: compare flags changes above 7\.[0-9]% only' "$d/out" ||
	zcb_fail "noisy case: not 'never'"
rounds=$(sed -n 's/^zcbreport plan: \([0-9]*\) rounds (cap 50); 1 case noisier than the change: no number of rounds finds it$/\1/p' "$d/out")
[ "$rounds" = $(((need + 4) / 5)) ] || zcb_fail "rounds '$rounds', want ceil($need / 5)"
zcb_ok "plan: 3 runs for 1% noise, $need for 3%, never for 8% (above the change); $rounds rounds of 5 runs"

rc=0; "$Z" plan --rounds 2 --cap 1 "$d/base" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 0 ] && grep -q 'zcbreport plan: 1 round (cap 1); some cases need more than the cap' "$d/out"; } ||
	zcb_fail "cap: $(cat "$d/out")"
zcb_ok "plan: the cap holds, and says so"

# compare says what "no regression" means
MK_VALUES=991,1009,996,1004,1001,986,1014,1001,993,1007 MK_PARAMS='{"method":"write","size":65536}' \
	mkdoc "$d/new/q.json" 6.19 0 0 0 0
rc=0; "$Z" compare "$d/base/q.json" "$d/new/q.json" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "quiet compare: exit $rc"
grep -Eq '^Hmean .* no change > 2\.6% \(n=10/10\)$' "$d/out" ||
	{ cat "$d/out"; zcb_fail "a quiet row does not say the smallest change it could flag"; }
grep -q '"no change > x%": not significant' "$d/out" || zcb_fail "no legend for no change > x%"
"$Z" compare -f json "$d/base/q.json" "$d/new/q.json" >"$d/out.json" || zcb_fail "json"
jq -e '.rows[0].kernels[0].detectable_pct >= 2' "$d/out.json" >/dev/null || zcb_fail "json: detectable_pct"
zcb_ok "compare: 'no change > 2.6%' on a quiet row (above the 2% threshold by 1.3 standard errors)"

rc=0; "$Z" plan "$d/none" >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "no baseline: exit $rc"
zcb_ok "plan without a baseline: exit 2"

# plan --history: nights of chatbench (10 runs each, +-3% within a night)
# whose figures drift 1% (quiet) or 6% (drifting) between nights. The
# row's one-run noise and drift are computed here too, from the same
# numbers; the quiet case finds 5% with some runs a night against these
# 6 nights, the drifting one needs none: no history finds it
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
runs='[0.97,1.03,0.985,1.015,1.0,0.975,1.025,0.99,1.01,1.0]'
for n in 1 2 3 4 5 6; do
	mkdir -p "$d/h/n$n"
	q=$(awk -v n="$n" 'BEGIN { printf "%.4f", 1 + 0.01 * (n % 2 ? 1 : -1) }')
	w=$(awk -v n="$n" 'BEGIN { split("1.06 0.94 1.05 0.93 1.07 0.95", o, " "); print o[n] }')
	mkvals "$d/h/n$n/c.json" chatbench 6.18 "$(jq -cn --argjson r "$runs" --argjson q "$q" --argjson w "$w" \
		'[{params: {rooms: 10, model: "quiet"}, metrics: {msgs_per_s: [$r[] * 700000 * $q]}},
		  {params: {rooms: 10, model: "drifting"}, metrics: {msgs_per_s: [$r[] * 700000 * $w]}}]')"
done
rc=0; "$Z" plan --history "$d"/h/n{1,2,3,4,5,6} >"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 0 ] || zcb_fail "plan --history: exit $rc: $(cat "$d/err")"
# the figures by hand: each night's log mean and variance, then the
# pooled run variance and the nights' variance beyond it
want() { # want MODEL: "one-run% drift%" as the row should print them
	jq -r --arg m "$1" -s '[.[] | .cases[] | select(.params.model == $m) |
		[.samples[].metrics.msgs_per_s | log]] |
		map({m: (add / length), v: ((. as $x | add / length) as $a |
			(map((. - $a) * (. - $a)) | add) / (length - 1)), n: length}) |
		(map(.v) | add / length) as $rv |
		(map(.v / .n) | add / length) as $w |
		(map(.m) | add / length) as $mm |
		((map((.m - $mm) * (.m - $mm)) | add) / (length - 1)) as $s2 |
		"\(($rv | sqrt) * 100) \(([$s2 - $w, 0] | max | sqrt) * 100)"' "$d"/h/n*/c.json |
		awk '{ printf "%.1f%% %.1f%%", $1, $2 }'
}
for model in quiet drifting; do
	w=$(want "$model")
	grep -Eq "^chatbench rooms=10 model=$model +msgs_per_s +6 +10 +${w% *} +${w#* } " "$d/out" ||
		zcb_fail "plan --history: the $model row is not '6 nights, 10 runs, $w'"
done
grep -Eq '^chatbench rooms=10 model=quiet .* [0-9]+ runs a night with these 6 nights$' "$d/out" ||
	zcb_fail "plan --history: the quiet case has no runs a night"
grep -Eq '^chatbench rooms=10 model=drifting .* never: with 60 nights and any runs the drift between nights \([0-9.]+%\) allows no less than [0-9.]+%$' "$d/out" ||
	zcb_fail "plan --history: the drifting case is not 'never'"
grep -q '^zcbreport plan --history: 2 rows over 6 nights; 1 row where no plan finds the change$' "$d/out" ||
	zcb_fail "plan --history: closing line"
zcb_ok "plan --history: one run's noise and the drift between nights as computed by hand; runs a night for the quiet case, never for the drifting one"

# a figure under two names is one row, as compare --judge primary makes
# it: ttcp-sf's service demand is its CPU-normalised rate upside down
# (sd_local_us_per_kb = 1024 / MB_per_cpu_s_local) and the remote side
# of one box reads the same numbers; a case whose service demand the
# samples do not make the reciprocal keeps its own row
for n in 1 2 3 4 5 6; do
	mkdir -p "$d/a/n$n"
	mkvals "$d/a/n$n/t.json" ttcp-sf 6.18 "$(jq -cn --argjson r "$runs" --argjson n "$n" '
		($r | map(. * 900 * (1 + 0.01 * $n))) as $l |
		[{params: {method: "write", twin: "yes"},
		  metrics: {throughput_MBps: [$r[] * 2000], MB_per_cpu_s_local: $l,
			    MB_per_cpu_s_remote: $l, sd_local_us_per_kb: [$l[] | 1024 / .]}},
		 {params: {method: "write", twin: "no"},
		  metrics: {throughput_MBps: [$r[] * 2000], MB_per_cpu_s_local: $l,
			    sd_local_us_per_kb: [$l[] | 1100 / .]}}]')"
done
rc=0; "$Z" plan --history "$d"/a/n{1,2,3,4,5,6} >"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 0 ] || zcb_fail "plan --history, aliases: exit $rc: $(cat "$d/err")"
rows() { sed '/^$/q' "$d/out" | grep -E "^ttcp-sf (method=write twin=$1|twin=$1 method=write) " | awk '{ print $4 }' | sort | tr '\n' ' '; }
[ "$(rows yes)" = "MB_per_cpu_s_local throughput_MBps " ] ||
	zcb_fail "plan --history: the twin case's rows are '$(rows yes)', not the rate and the CPU-normalised rate"
[ "$(rows no)" = "MB_per_cpu_s_local sd_local_us_per_kb throughput_MBps " ] ||
	zcb_fail "plan --history: the case whose service demand is not the reciprocal has rows '$(rows no)'"
zcb_ok "plan --history: a figure under two names (a service demand, the other end's copy) is one row; a service demand the samples do not make the reciprocal stays its own"

# the drift by the time between runs: 6 nights 1000 s apart, two runs
# each 5 s apart (their documents' mid-points), a chatbench figure that
# wanders between nights and differs a little within one; each bin's
# sd and the wander computed here from the same documents
for n in 1 2 3 4 5 6; do
	mkdir -p "$d/l/n$n"
	for k in 0 1; do
		t0=$(((n - 1) * 1000 + 5 * k))
		v=$(awk -v n="$n" -v k="$k" 'BEGIN { split("1.00 1.06 0.95 1.03 0.97 1.08", w, " ")
			printf "%.2f", 600000 * w[n] * (k ? 1.01 : 0.99) }')
		MK_STARTED=$(date -u -d "@$((1767225600 + t0))" +%FT%TZ) \
			MK_FINISHED=$(date -u -d "@$((1767225600 + t0))" +%FT%TZ) \
			mkvals "$d/l/n$n/c$k.json" chatbench 6.18 "[{\"params\": {\"rooms\": 10}, \"metrics\": {\"msgs_per_s\": [$v, $v]}}]"
	done
done
rc=0; "$Z" plan --history "$d"/l/n{1,2,3,4,5,6} >"$d/out" 2>"$d/err" || rc=$?
cat "$d/out"
[ $rc = 0 ] || zcb_fail "plan --history, lags: exit $rc: $(cat "$d/err")"
jq -r '"\(.started | fromdate) \(.cases[0].samples[0].metrics.msgs_per_s | log)"' "$d"/l/n*/c*.json >"$d/ty"
want=$(awk '{ t[NR] = $1; y[NR] = $2 } END {
	split("0 10 40 160 640 2560", e, " ")
	for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
		l = t[j] - t[i]; if (l < 0) l = -l
		b = 6; while (b > 1 && l < e[b]) b--
		s[b] += (y[j] - y[i]) ^ 2 / 2; c[b]++
	}
	for (b = 1; b <= 6; b++) printf "%s ", (c[b] >= 3 ? sprintf("%.1f%% (%d)", 100 * sqrt(s[b] / c[b]), c[b]) : "-")
	fs = s[4] + s[5] + s[6]; fc = c[4] + c[5] + c[6]
	printf "%.1f%%", 100 * sqrt((fs / fc) - (s[1] / c[1]))
}' "$d/ty")
got=$(grep -E '^chatbench rooms=10 +msgs_per_s +12 ' "$d/out" | sed 's/^chatbench rooms=10 *msgs_per_s *12 *//; s/  */ /g; s/ (/ (/g')
[ "$(echo "$want" | tr -s ' ')" = "$got" ] || zcb_fail "plan --history, lags: the row is '$got', by hand '$want'"
grep -q '^the drift by the time between runs:' "$d/out" || zcb_fail "plan --history, lags: no heading"
zcb_ok "plan --history: the drift by the time between runs, each bin and the wander as computed by hand"

rc=0; "$Z" plan --history "$d/h/n1" "$d/h/n2" >/dev/null 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q 'give 3 nights or more' "$d/err"; } || zcb_fail "plan --history with 2 nights: exit $rc: $(cat "$d/err")"
zcb_ok "plan --history with 2 nights: refused, saying why"
