#!/usr/bin/env bash
# report-probe.sh: zcbreport compare --history adjusts a row for the box
# probe its samples carry (report/compare/cmpprobe.h, lib/run/probe.h;
# issue 26). Five nights of a ttcp-sf case on a box whose speed drifts
# (probes 700-820 Mops); the rate follows it as rate = 1000 (p/800)^0.6
# (the drift between nights: about 6%), each sample within 0.5% (a
# noise the probes do not explain).
# 1. a night on a box 25% slower, the rate as the law says: flagged as
#    measured (--no-probe), not once adjusted; the slope (0.6) in the
#    JSON and how it was judged in the notes;
# 2. a night with a 4% loss on a box of the usual speed: inside the
#    nights' spread as measured (not flagged), flagged once adjusted;
# 3. a night whose samples lack a probe: its rows are judged as
#    measured, with no slope.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

# night FILE LABEL PROBE LOSS [NOPROBE]: three samples, probes PROBE,
# +1%, -1%, the rate by the law less LOSS (a fraction), +0.5%, -0.25%, -0.25%
night() {
	local f=$1 lbl=$2 p=$3 loss=$4 probes
	probes=$(jq -nc --argjson p "$p" '[$p, $p * 1.01, $p * 0.99]')
	[ -n "${5:-}" ] && probes='[]'
	mkvals "$f" ttcp-sf "$lbl" "$(jq -nc --argjson p "$p" \
		--argjson pr "$probes" --argjson l "$loss" '
		[[$p, $p * 1.01, $p * 0.99], [1.005, 0.9975, 0.9975]] | transpose |
		map(1000 * pow(.[0] / 800; 0.6) * .[1] * (1 - $l)) as $mb |
		[{params: {method: "write", size: 65536}, probe: $pr,
		  metrics: {throughput_MBps: $mb}}]')"
}
nights=()
i=0
for p in 800 700 760 820 740; do
	i=$((i + 1))
	night "$d/n$i.json" 6.18 "$p" 0
	nights+=("$d/n$i.json")
done
night "$d/slow.json" 6.19 600 0
night "$d/loss.json" 6.19 780 0.04
night "$d/bare.json" 6.19 600 0 noprobe

# verdict FILE [OPTION...]: the throughput row's verdict, from the JSON
verdict() {
	local f=$1
	shift
	"$Z" compare --history -f json "$@" "${nights[@]}" "$f" 2>/dev/null |
		jq -r '.rows[] | select(.metric == "throughput_MBps") | .kernels[0].verdict'
}
slope() {
	"$Z" compare --history -f json "${nights[@]}" "$1" 2>/dev/null |
		jq -r '.rows[] | select(.metric == "throughput_MBps") | .kernels[0].history.probe_slope // "none"'
}

# 1. a slower box
[ "$(verdict "$d/slow.json" --no-probe)" = REGRESSION ] ||
	zcb_fail "slow box, as measured: $(verdict "$d/slow.json" --no-probe), not REGRESSION"
v=$(verdict "$d/slow.json")
[ "$v" != REGRESSION ] || zcb_fail "slow box, adjusted for its probe: still flagged"
s=$(slope "$d/slow.json")
awk -v s="$s" 'BEGIN { exit !(s > 0.59 && s < 0.61) }' || zcb_fail "the slope: $s, not 0.6"
"$Z" compare --history "${nights[@]}" "$d/slow.json" >"$d/slow.txt" 2>&1
grep -q 'where every sample carries a box probe (--probe), its figures first adjusted for it' "$d/slow.txt" ||
	zcb_fail "no note of the adjustment: $(tail -4 "$d/slow.txt")"
"$Z" compare --history --no-probe "${nights[@]}" "$d/slow.json" 2>&1 | grep -q 'box probe' &&
	zcb_fail "--no-probe: the note still speaks of the probe"
zcb_ok "a slower box: flagged as measured, $v once adjusted for its probe (slope $s)"

# 2. a real loss the drift hid
v=$(verdict "$d/loss.json" --no-probe)
[ "$v" != REGRESSION ] || zcb_fail "4% loss, as measured: flagged (the test's nights drift too little)"
[ "$(verdict "$d/loss.json")" = REGRESSION ] ||
	zcb_fail "4% loss, adjusted: $(verdict "$d/loss.json"), not REGRESSION"
zcb_ok "a 4% loss: $v as measured, REGRESSION once adjusted"

# 3. no probe: as measured
[ "$(slope "$d/bare.json")" = none ] || zcb_fail "no probes, yet a slope $(slope "$d/bare.json")"
[ "$(verdict "$d/bare.json")" = REGRESSION ] || zcb_fail "no probes: $(verdict "$d/bare.json"), not judged as measured"
zcb_ok "samples without a probe: judged as measured"
