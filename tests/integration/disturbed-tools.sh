#!/usr/bin/env bash
# disturbed-tools.sh: every sample records the box's steal and the CPU
# taken outside the run (issue 26); a sample past the limits is made
# again through the series (--reruns), the disturbed one kept in the
# document, marked, and left out of every summary. A busy loop per CPU
# beside the run makes the box busy for sure; a quiet box is never
# asserted (this one is shared).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq jq
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP
ncpu=$(nproc)

# jtrue DOC FILTER WHAT: the filter is true of the document
jtrue() {
	[ "$(jq -r "$2" "$1")" = true ] || zcb_fail "$3: $(jq -c "$2" "$1" 2>&1 | head -c 400) in $(basename "$1")"
}

# marked DOC WHAT: two samples, the first disturbed and made again, the
# second disturbed too (the hogs still ran) and standing, marked so;
# the summary holds the second only
marked() {
	local d=$1 what=$2
	jtrue "$d" '[.cases[0].samples[] | .quiet | has("steal_pct") and has("outside_pct")] | all' \
		"$what: the quiet figures"
	jtrue "$d" '.cases[0].samples | length == 2' "$what: two samples"
	jtrue "$d" '.cases[0].samples[0].disturbed | .rerun == true and .outside_pct > .outside_max' \
		"$what: the first made again"
	jtrue "$d" '.cases[0].samples[1].disturbed.rerun == false' "$what: the second stands"
	jtrue "$d" "[.cases[0].summary[] | .n] | all(. <= 1)" "$what: the summary pools the first"
}

zcb_hogs "$ncpu"

"$B" -r 2 -u 4 -m 2000 --reruns 1 -o "$T/chat.json" >"$T/chat.out" 2>&1 ||
	zcb_fail "chatbench: $(tail -3 "$T/chat.out")"
marked "$T/chat.json" chatbench
grep -q '^chatbench: run 1 disturbed: processes outside the run took .*: made again$' "$T/chat.out" ||
	zcb_fail "chatbench: no line of the disturbed run: $(cat "$T/chat.out")"
jtrue "$T/chat.json" '.config.reruns == 1 and .config.disturbance == [2, 5]' "chatbench: config"
zcb_ok "chatbench: a disturbed run made again, kept and marked"

# the limits are the user's: past 100% nothing is disturbed
"$B" -r 2 -u 4 -m 2000 --repeat 2 --disturbance 100,100 -o "$T/calm.json" >"$T/calm.out" 2>&1 ||
	zcb_fail "chatbench --disturbance 100,100: $(tail -3 "$T/calm.out")"
jtrue "$T/calm.json" '([.cases[0].samples[] | has("disturbed") | not] | all) and (.cases[0].samples | length == 2)' \
	"chatbench --disturbance 100,100"
zcb_ok "chatbench: --disturbance sets the limits"
zcb_hogs_stop
