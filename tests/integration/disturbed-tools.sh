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

# told DOC: 0 when the samples' windows were long enough for the box's
# clock ticks to say how quiet it was (a fixed count may run shorter
# than a tick on a fast box: then nothing is known, and nothing can be
# said of disturbed runs: the part is skipped, saying so)
told() {
	[ "$(jq -r '[.cases[].samples[0].quiet.outside_pct | . != null] | all' "$1")" = true ]
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

"$B" -r 2 -u 4 -m 20000 --reruns 1 -o "$T/chat.json" >"$T/chat.out" 2>&1 ||
	zcb_fail "chatbench: $(tail -3 "$T/chat.out")"
jtrue "$T/chat.json" '.config.reruns == 1 and .config.disturbance == [2, 5]' "chatbench: config"
if told "$T/chat.json"; then
	marked "$T/chat.json" chatbench
	# the hogs make it disturbed; the host may steal past its limit first,
	# and the line names whichever it found first
	grep -Eq '^chatbench: run 1 disturbed: (processes outside the run took|steal) .*: made again$' "$T/chat.out" ||
		zcb_fail "chatbench: no line of the disturbed run: $(cat "$T/chat.out")"
	# the tables pool the run that stands only: chatbench's own and
	# zcbreport's of the document
	grep -qx '(mean of 1 run per row)' "$T/chat.out" ||
		zcb_fail "chatbench: its table pooled the disturbed run: $(cat "$T/chat.out")"
	"$(zcb_bin zcbreport)" table --layout chat "$T/chat.json" >"$T/chat.table" 2>&1 ||
		zcb_fail "zcbreport table: $(cat "$T/chat.table")"
	grep -qx '(mean of 1 run per row)' "$T/chat.table" ||
		zcb_fail "zcbreport table pooled the disturbed run: $(cat "$T/chat.table")"
	zcb_ok "chatbench: a disturbed run made again, kept and marked, in no table"
else
	echo "(chatbench's part: its runs were shorter than a clock tick here)"
fi

# ttcp-sf: the transmitter judges with the receiver's figures, and the
# next frame tells the receiver, which marks its own sample too
tt_two dist -- --duration 200ms --reruns 1
if told "$T/dist-t.json"; then
	marked "$T/dist-t.json" "ttcp-sf -t"
	jtrue "$T/dist-r.json" '(.cases[0].samples | length == 2) and .cases[0].samples[0].disturbed.rerun
		and (.cases[0].samples[1] | has("disturbed") | not)' "ttcp-sf -r: the receiver's marks"
	grep -Eq '^ttcp-t: sample 1 disturbed: (processes outside the run took|steal) .*: made again$' "$T/dist-t.txt" ||
		zcb_fail "ttcp-sf: no line of the disturbed sample: $(cat "$T/dist-t.txt")"
	zcb_ok "ttcp-sf: a disturbed sample made again, marked on both ends"
else
	echo "(ttcp-sf's part: its samples were shorter than a clock tick here)"
fi

# the limits are the user's: past 100% nothing is disturbed
"$B" -r 2 -u 4 -m 2000 --repeat 2 --disturbance 100,100 -o "$T/calm.json" >"$T/calm.out" 2>&1 ||
	zcb_fail "chatbench --disturbance 100,100: $(tail -3 "$T/calm.out")"
jtrue "$T/calm.json" '([.cases[0].samples[] | has("disturbed") | not] | all) and (.cases[0].samples | length == 2)' \
	"chatbench --disturbance 100,100"
zcb_ok "chatbench: --disturbance sets the limits"

# marked_cases DOC WHAT: every case as marked() says of one
marked_cases() {
	jtrue "$1" '[.cases[] | (.samples | length == 2) and (.samples[0].disturbed.rerun == true)
		and (.samples[1].disturbed.rerun == false) and ([.summary[] | .n] | all(. <= 1))
		and ([.samples[] | .quiet | has("steal_pct")] | all)] | all' "$2: each case's runs"
}

if command -v diod >/dev/null; then
	P9=$(zcb_bin p9bench) || exit 1
	read -r dpid addr export _ < <("$ZCB_SRCDIR/scripts/peer-diod" start) ||
		zcb_fail "diod did not start"
	zcb_track "$dpid"
	zcb_on_exit "rm -rf '$(dirname "$export")'"
	"$P9" -s "$addr" -a "$export" --duration 200ms --sizes 4096 --reruns 1 --file d.dat \
		-o "$T/p9.json" >"$T/p9.out" 2>&1 || zcb_fail "p9bench: $(tail -3 "$T/p9.out")"
	marked_cases "$T/p9.json" p9bench
	jtrue "$T/p9.json" '.config.reruns == 1' "p9bench: config"
	zcb_ok "p9bench: each cell's disturbed run made again, kept and marked"
else
	echo "(p9bench's part skipped: no diod)"
fi

N=$(zcb_bin nfsbench) || exit 1
mkdir -p "$T/nfs"
"$N" -w -b 256m -s 64k --reruns 1 -o "$T/nfs.json" "$T/nfs/f" >"$T/nfs.out" 2>&1 ||
	zcb_fail "nfsbench: $(tail -3 "$T/nfs.out")"
rm -rf "$T/nfs"
if told "$T/nfs.json"; then
	marked_cases "$T/nfs.json" nfsbench
	zcb_ok "nfsbench: a disturbed sample made again, kept and marked"
else
	echo "(nfsbench's part: its samples were shorter than a clock tick here)"
fi

source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
head -c 1000000 /dev/urandom >"$T/zfile"
zcs_start dist
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 200 --reruns 1 --output "$T/zcc.json" "$T/zfile" \
	>"$T/zcc.out" 2>&1 || zcb_fail "zcc: $(tail -3 "$T/zcc.out")"
zcs_stop "$ZCS_PID"
if told "$T/zcc.json"; then
	marked_cases "$T/zcc.json" zcc
	grep -q '^zcc: run 1 disturbed: .*: made again$' "$T/zcc.out" ||
		zcb_fail "zcc: no line of the disturbed run: $(cat "$T/zcc.out")"
	zcb_ok "zcc: a disturbed run made again, kept and marked"
else
	echo "(zcc's part: its runs were shorter than a clock tick here)"
fi
zcb_hogs_stop
