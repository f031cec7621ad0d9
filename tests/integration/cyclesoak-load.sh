#!/usr/bin/env bash
# cyclesoak-load: an idle box reads near what procstat reads (the box is
# shared: other work shows in both), and one pinned busy CPU reads near
# 100/ncpu percent. Generous tolerances: this checks function, not
# accuracy (bench/cyclesoak-accuracy measures that).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_alone 600
cs_lock
# the soakers leave a CPU cap (cyclesoak-cap.sh), but the busy loop
# below needs a whole CPU: under a cap of less than one it cannot have it
if cap=$(zcb_cpu_capped); then
	read -r q per < <(echo "$cap" | tr '/' ' ')
	[ "$q" -lt "$per" ] 2>/dev/null &&
		zcb_skip "in a cgroup capped at $cap: less than the one CPU the busy part needs"
fi
T=$ZCB_TEST_TMP
TOL=25
cs_calibrate 25

# idle: soak and procstat see the same box
"$CS" --cpu=soak,procstat -o "$T/idle.json" -- sleep 2 >"$T/out" 2>&1 ||
	zcb_fail "idle run: $(cat "$T/out")"
read -r soak ps < <(jq -r '.cases[0].samples[0].metrics |
	"\(.cpu_box_soak_pct * 10 | round / 10) \(.cpu_box_procstat_pct * 10 | round / 10)"' "$T/idle.json")
echo "idle: soak $soak% procstat $ps%"
# no other test of the suite runs beside this one (zcb_alone), but the
# box may be loaded from outside: a busy box also calibrated busy, so the
# two meters need not agree then; that is not what this test is about
awk -v p="$ps" 'BEGIN { exit !(p > 20) }' &&
	zcb_skip "the box is not idle (procstat $ps% outside the soakers): needs a quiet box"
jq -e --argjson t $TOL '.cases[0].samples[0].metrics |
	(.cpu_box_soak_pct - .cpu_box_procstat_pct) | fabs <= $t' "$T/idle.json" >/dev/null ||
	zcb_fail "idle box: soak $soak% vs procstat $ps% (more than $TOL points apart)"
zcb_ok "idle box: soak $soak%, procstat $ps%"

# one pinned busy CPU for 3 s
# shellcheck disable=SC2016 # the inner bash expands it
"$CS" --cpu=soak,procstat -o "$T/busy.json" -- taskset -c 0 bash -c \
	'e=$((SECONDS + 3)); while ((SECONDS < e)); do :; done' >"$T/out" 2>&1 ||
	zcb_fail "busy run: $(cat "$T/out")"
read -r soak ps cpu0 < <(jq -r '.cases[0].samples[0] |
	"\(.metrics.cpu_box_soak_pct * 10 | round / 10) \(.metrics.cpu_box_procstat_pct * 10 | round / 10) \(.cpu.box[0].percpu_busy_pct[0] * 10 | round / 10)"' "$T/busy.json")
echo "one busy CPU of $NCPU: soak $soak% (cpu0 $cpu0%) procstat $ps%"
want=$((100 / NCPU))
jq -e '.cases[0].samples[0].metrics.elapsed_s >= 2' "$T/busy.json" >/dev/null ||
	zcb_fail "the busy command did not run its 3 s: $(cat "$T/out")"
jq -e --argjson t $TOL --argjson w $want '.cases[0].samples[0] |
	.metrics.cpu_box_soak_pct >= $w - $t and
	(.metrics.cpu_box_soak_pct - .metrics.cpu_box_procstat_pct | fabs) <= $t and
	.cpu.box[0].percpu_busy_pct[0] >= 100 - $t' "$T/busy.json" >/dev/null ||
	zcb_fail "one busy CPU: soak $soak% (cpu0 $cpu0%), procstat $ps%, want >= $want-$TOL"
jq -e '.cases[0].samples[0].cpu.box[0].note | test("cpu.idle=1|caller.s session")' \
	"$T/busy.json" >/dev/null || zcb_fail "the note does not say where the soakers ran"
zcb_ok "one busy CPU: soak $soak% (cpu0 $cpu0%), procstat $ps%"
