#!/usr/bin/env bash
# ttcp-rate.sh: --rate on loopback. write and sendfile at 1 Gbit/s and
# 5 Gbit/s, UDP at 1 Gbit/s, -P 4 in total and --rate-per-flow, and -R
# (the receiver paces, learning the rate from the setup frame) each
# achieve within 3% of the target over 2 s; both ends record the target
# and the rate achieved (the receiver of a forward stream from the
# hello). A target no box reaches is a miss: said, warned and recorded.
#
# The box must reach a target unpaced, with room to spare, for its paced
# run to mean anything: each case first runs 1 s unpaced, and a case
# whose unpaced runs never reach 1.5 times the target is skipped, saying
# so (every case skipped: exit 77). The room is for what a paced sender
# pays and an unpaced one does not: it sleeps, and on a busy box waits
# for a CPU when it wakes (beside two busy loops under ASan, unpaced
# runs of 739 and 1090 MB/s came before and after paced ones of 541-561
# at a target of 625; with 1.1 times the target as the bar that failed).
# A shared box can stall a paced run for a
# while: a case gets three tries (each an unpaced run, then the paced
# one, and after a miss another unpaced run), and fails only when the
# box reached the target unpaced before and after and the paced run
# still missed by more than 3% every time.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
ran=0 skipped=() paced1g=()
ZR=$(zcb_bin zcbreport) || exit 1

# mbps NAME SIDE: the sample's MB/s
mbps() { zcb_json "$T/$1-$2.json" '.cases[0].samples[0].metrics.throughput_MBps'; }

# try NAME TARGET_MBPS RECV_ARGS -- XMIT_ARGS: one case (see above), at
# --rate $RATE (default the target) and $PACED; the paced run's name in
# TRY ("": skipped)
try() {
	local name=$1 target=$2 rargs=() i u a short=0
	shift 2
	while [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	for i in 1 2 3; do
		tt_two "$name-u$i" "${rargs[@]}" -- "$@" --duration 1s
		u=$(mbps "$name-u$i" t)
		if awk -v u="$u" -v t="$target" 'BEGIN { exit !(u < 1.5 * t) }'; then
			short=$((short + 1))
			continue
		fi
		tt_two "$name-p$i" "${rargs[@]}" -- "$@" --duration 2s --rate "${RATE:-$((target * 8))M}" ${PACED:+"$PACED"}
		a=$(zcb_json "$T/$name-p$i-t.json" '.cases[0].samples[0].rate.achieved_MBps')
		if awk -v a="$a" -v t="$target" 'BEGIN { exit !(a >= 0.97 * t && a <= 1.03 * t) }'; then
			zcb_ok "$name: $a MB/s at a target of $target MB/s (try $i; unpaced $u MB/s)"
			ran=$((ran + 1))
			TRY=$name-p$i
			return 0
		fi
		echo "# $name: try $i achieved $a MB/s of $target (unpaced $u MB/s)"
		# and after it: a box that slowed meanwhile (a cgroup cap
		# shared with other tests, a loaded host) is not the pacer's miss
		tt_two "$name-v$i" "${rargs[@]}" -- "$@" --duration 1s
		u=$(mbps "$name-v$i" t)
		if awk -v u="$u" -v t="$target" 'BEGIN { exit !(u < 1.5 * t) }'; then
			echo "# $name: unpaced after it: $u MB/s, short of 1.5 x $target"
			short=$((short + 1))
		fi
	done
	# a miss counts only when the box had the room before and after
	if [ $short -gt 0 ]; then
		skipped+=("$name: in $short of 3 tries this box reached less than 1.5 x $target MB/s unpaced (last: $u MB/s)")
		TRY=""
		return 0
	fi
	cat "$T/$name-p$i-t.txt" "$T/$name-p$i-r.txt"
	zcb_fail "$name: missed $target MB/s by more than 3% in every try (unpaced $u MB/s)"
}

# check NAME TARGET_MBPS PACED_BY RATE_PARAM [MET]: both documents say
# it, and the sides in MET (default "t r") met the target
check() {
	local name=$1 target=$2 by=$3 param=$4 met=${5:-t r} s
	[ -n "$name" ] || return 0
	for s in t r; do
		j=$T/$name-$s.json
		[ "$(zcb_json "$j" '.cases[0].params.rate')" = "$param" ] ||
			zcb_fail "$name: $s params.rate $(zcb_json "$j" '.cases[0].params.rate'), not $param"
		[ "$(zcb_json "$j" ".cases[0].samples[0].rate | .target_MBps == $target and .paced_by == \"$by\"")" = true ] ||
			zcb_fail "$name: $s rate $(zcb_json "$j" '.cases[0].samples[0].rate')"
		[[ " $met " != *" $s "* ]] || [ "$(zcb_json "$j" '.cases[0].samples[0].rate.missed')" = false ] ||
			zcb_fail "$name: $s missed the target: $(zcb_json "$j" '.cases[0].samples[0].rate')"
		grep -q "^ttcp-$s: rate: target $param (.* paced by .*), achieved " "$T/$name-$s.txt" ||
			{ cat "$T/$name-$s.txt"; zcb_fail "$name: $s has no rate line"; }
	done
}

for m in write sendfile; do
	try "$m-1g" 125 -- -m "$m" -l 32768 --source-size 64m
	check "$TRY" 125 kernel 1Gbit/s
	[ -z "$TRY" ] || paced1g+=("$T/$TRY-t.json")
	try "$m-5g" 625 -- -m "$m" -l 32768 --source-size 64m
	check "$TRY" 625 kernel 5Gbit/s
done
# UDP: ttcp-sf's token bucket (the kernel paces UDP only with fq); what
# arrives is the sender's rate less the datagrams a busy receiver lost
try udp-1g 125 -u -- -u -l 8192
check "$TRY" 125 ttcp-sf 1Gbit/s t
# -P 4: the rate is the sum of the flows, split evenly
try p4 250 -- -P 4 -l 32768
check "$TRY" 250 kernel 2Gbit/s
[ -z "$TRY" ] || [ "$(zcb_json "$T/$TRY-t.json" '.cases[0].samples[0].metrics.fairness_jain > 0.99')" = true ] ||
	zcb_fail "-P 4 --rate: the flows did not share it evenly: $(zcb_json "$T/$TRY-t.json" '.cases[0].samples[0].flows')"
# --rate-per-flow: each of 2 flows at 500 Mbit/s, 1 Gbit/s in all
RATE=500M PACED=--rate-per-flow try pf 125 -- -P 2 -l 32768
[ -z "$TRY" ] || [ "$(zcb_json "$T/$TRY-t.json" '.config.rate_per_flow')" = true ] || zcb_fail "--rate-per-flow not in the config"
# -R: the receiver sends, paced as the setup frame says
try rev 125 -- -R -l 32768
check "$TRY" 125 kernel 1Gbit/s

# a target beyond any box: said, warned, recorded as missed
tt_two miss -- -l 32768 --duration 1s --rate 10T
grep -q "^ttcp-t: rate: .*MISSED the target by more than 5%" "$T/miss-t.txt" || { cat "$T/miss-t.txt"; zcb_fail "miss: no line"; }
grep -q "^ttcp-r: rate: .*MISSED" "$T/miss-r.txt" || { cat "$T/miss-r.txt"; zcb_fail "miss: the receiver did not say it"; }
[ "$(zcb_json "$T/miss-t.json" '.cases[0].samples[0].rate.missed')" = true ] || zcb_fail "miss: not recorded"
zcb_json "$T/miss-t.json" '.warnings[]' | grep -q "missed its target rate" || zcb_fail "miss: no warning"
zcb_ok "a target beyond the box: missed, said and recorded"

# --bidir: both ends say and record the other way's rate too (what it
# achieved is the box's business: only that it is there)
tt_two bidir -- -l 32768 --duration 1s --bidir --rate 200M
for side in t r; do
	grep -q "^ttcp-$side: rate: other way achieved [0-9.]* MB/s" "$T/bidir-$side.txt" ||
		{ cat "$T/bidir-$side.txt"; zcb_fail "--bidir: $side has no line for the other way"; }
	[ "$(zcb_json "$T/bidir-$side.json" '.cases[0].samples[0].rate.rev_achieved_MBps > 0')" = true ] ||
		zcb_fail "--bidir: $side recorded no rate for the other way"
done
zcb_ok "--bidir: the other way's rate said and recorded at both ends"

"$ZR" table --layout zc-vs-copy "$T/miss-t.json" >"$T/miss-table.txt" || zcb_fail "zcbreport on the miss"
grep -q "^Copy against zero-copy: ttcp-sf at 10Tbit/s$" "$T/miss-table.txt" || { cat "$T/miss-table.txt"; zcb_fail "miss: the title has no rate"; }
grep -qE "^[^ ]+ +write +[-0-9.%]+ +- +[0-9.]+\*\$" "$T/miss-table.txt" || { cat "$T/miss-table.txt"; zcb_fail "miss: MB/s not marked"; }
grep -q "^\* missed its target rate by more than 5%: .* MB/s of 1250000.0: its figures are not those of the rate asked" "$T/miss-table.txt" ||
	{ cat "$T/miss-table.txt"; zcb_fail "miss: no footnote"; }
if [ ${#paced1g[@]} -gt 0 ]; then
	"$ZR" table --layout zc-vs-copy "${paced1g[@]}" "$T/miss-t.json" >"$T/both-table.txt" || zcb_fail "zcbreport on both rates"
	grep -qE "^[^ ]+ +write +1Gbit/s +[-0-9.%]+ +- +[0-9.]+\$" "$T/both-table.txt" || { cat "$T/both-table.txt"; zcb_fail "two rates: no rate column, or the paced run marked"; }
	"$ZR" table --layout ttcp-cpu "${paced1g[@]}" >"$T/cpu-table.txt" || zcb_fail "zcbreport ttcp-cpu"
	grep -q "^ttcp-sf Results at 1Gbit/s$" "$T/cpu-table.txt" || { cat "$T/cpu-table.txt"; zcb_fail "ttcp-cpu: the title has no rate"; }
fi
zcb_ok "tables: the rate in the title or a column, the miss marked"

# --rate on the wrong side, or with --rr: refused
zcb_expect_fail "-r --rate" "$TTCP" -r --rate 1G
grep -q -- "--rate: give it to -t" "$ZCB_TEST_TMP/err" || zcb_fail "-r --rate: $(cat "$ZCB_TEST_TMP/err")"
zcb_expect_fail "--rr --rate" "$TTCP" -t --rr --rate 1G 127.0.0.1
zcb_expect_fail "--rate 0" "$TTCP" -t --rate 0 127.0.0.1
zcb_expect_fail "--rate-per-flow alone" "$TTCP" -t -P 2 --rate-per-flow 127.0.0.1

if [ $ran = 0 ]; then
	zcb_skip "no case could run: ${skipped[*]}"
fi
for s in "${skipped[@]}"; do echo "# skipped $s"; done
exit 0
