#!/usr/bin/env bash
# zcc-rate.sh: zcc --rate: the kernel paces every connection at its
# share, so 2 connections at 1 Gbit/s in all move the file set within 3%
# of 125 MB/s; the case key and the sample carry the target and the rate
# achieved. As in ttcp-rate.sh, a box that cannot reach the target
# unpaced skips (exit 77), and a paced run gets three tries on a shared
# box, each after an unpaced run that shows the box reached the target.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
T=$ZCB_TEST_TMP
head -c 16000000 /dev/urandom >"$T/a"
zcs_start s
short=0 ok=0
for i in 1 2 3; do
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 8 -P 2 --output "$T/u$i.json" "$T/a" >"$T/u$i.txt" 2>&1 ||
		zcb_fail "unpaced zcc: $(cat "$T/u$i.txt")"
	u=$(zcb_json "$T/u$i.json" '.cases[0].samples[0].metrics.throughput_MBps')
	if awk -v u="$u" 'BEGIN { exit !(u < 1.1 * 125) }'; then
		short=$((short + 1))
		continue
	fi
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 16 -P 2 --rate 1G --output "$T/p$i.json" "$T/a" >"$T/p$i.txt" 2>&1 ||
		zcb_fail "paced zcc: $(cat "$T/p$i.txt")"
	a=$(zcb_json "$T/p$i.json" '.cases[0].samples[0].rate.achieved_MBps')
	if awk -v a="$a" 'BEGIN { exit !(a >= 0.97 * 125 && a <= 1.03 * 125) }'; then
		ok=1
		break
	fi
	echo "# try $i: $a MB/s of 125 (unpaced $u MB/s)"
done
zcs_stop "$ZCS_PID"
[ $short = 3 ] && zcb_skip "this box reached $u MB/s unpaced, not 1.1 x 125 MB/s"
[ $ok = 1 ] || { cat "$T/p$i.txt"; zcb_fail "zcc --rate 1G missed 125 MB/s by more than 3% in every try"; }
j=$T/p$i.json
[ "$(zcb_json "$j" '.cases[0].params.rate')" = 1Gbit/s ] || zcb_fail "params.rate: $(zcb_json "$j" '.cases[0].params')"
[ "$(zcb_json "$j" '.cases[0].samples[0].rate | .target_MBps == 125 and .paced_by == "kernel" and .missed == false')" = true ] ||
	zcb_fail "rate: $(zcb_json "$j" '.cases[0].samples[0].rate')"
grep -q "^  rate: target 1Gbit/s (125.0 MB/s, paced by the kernel: SO_MAX_PACING_RATE), achieved " "$T/p$i.txt" ||
	{ cat "$T/p$i.txt"; zcb_fail "no rate line"; }
zcb_ok "zcc --rate 1G -P 2: $a MB/s (try $i)"
zcb_expect_fail "--rate 0" "$ZCC" -s 127.0.0.1 --rate 0 "$T/a"
grep -q -- "--rate 0" "$ZCB_TEST_TMP/err" || zcb_fail "--rate 0: $(cat "$ZCB_TEST_TMP/err")"
