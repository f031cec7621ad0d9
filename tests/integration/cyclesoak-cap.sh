#!/usr/bin/env bash
# cyclesoak-cap: a tool run inside a cgroup with a CPU cap still reads
# the box. The soakers go outside the cap (to the top of the cpu
# hierarchy), so on an idle box they take the idle CPU the cap holds
# back from the tool; inside it they would read the cap as load (a
# quarter-box cap: an idle box read 75% or more). The note says where
# they ran and whose cap they escaped. Root: the test makes the cgroup
# (v1 cpu hierarchy, or v2 with the cpu controller) and removes it.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_need_root
zcb_need_cmd jq jq
zcb_alone 600
cs_lock
cap=$(zcb_cpu_capped) && zcb_skip "already in a cgroup capped at $cap: this test makes its own cap"
T=$ZCB_TEST_TMP
TOL=25
cs_calibrate 25

# the cgroup: a quarter of the box
quota=$((100000 * NCPU / 4))
cg=
if [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	cg=/sys/fs/cgroup/cpu/zcb-test-cap-$$
	mkdir "$cg" || zcb_skip "cannot make $cg"
	zcb_on_exit "rmdir $cg"
	if ! { echo 100000 >"$cg/cpu.cfs_period_us" && echo "$quota" >"$cg/cpu.cfs_quota_us"; }; then
		zcb_fail "cannot cap $cg at $quota/100000 us"
	fi
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	cg=/sys/fs/cgroup/zcb-test-cap-$$
	mkdir "$cg" || zcb_skip "cannot make $cg"
	zcb_on_exit "rmdir $cg"
	echo "$quota 100000" >"$cg/cpu.max" || zcb_fail "cannot cap $cg at $quota 100000 us"
else
	zcb_skip "no cgroup cpu controller to cap a run with"
fi

# capped: the command's shell joins the cgroup, then becomes cyclesoak
# (its soak host and soakers start from inside the cap)
# shellcheck disable=SC2016 # the inner bash expands it
bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' capped "$cg" \
	"$CS" --cpu=soak,procstat -o "$T/cap.json" -- sleep 2 >"$T/out" 2>&1 ||
	zcb_fail "capped run: $(cat "$T/out")"
cat "$T/out"
note=$(jq -r '.cases[0].samples[0].cpu.box[] | select(.meter == "soak") | .note' "$T/cap.json")
echo "note: $note"
case "$note" in
*"outside the CPU cap of /zcb-test-cap-$$"*) ;;
*) zcb_fail "the soakers' note does not say they left the cap: $note" ;;
esac
zcb_ok "soakers outside the cap: $note"

read -r soak ps < <(jq -r '.cases[0].samples[0].metrics |
	"\(.cpu_box_soak_pct * 10 | round / 10) \(.cpu_box_procstat_pct * 10 | round / 10)"' "$T/cap.json")
echo "capped, idle: soak $soak% procstat $ps%"
# no other test of the suite runs beside it (zcb_alone), but the box may
# be loaded from outside: on a busy box the two meters need not agree;
# the question here is the cap's idle CPU read as load
awk -v p="$ps" 'BEGIN { exit !(p > 20) }' &&
	zcb_skip "the box is not idle (procstat $ps% outside the soakers): needs a quiet box"
awk -v s="$soak" -v p="$ps" -v t=$TOL 'BEGIN { d = s - p; if (d < 0) d = -d; exit !(d <= t) }' ||
	zcb_fail "capped at a quarter of the box, idle: soak $soak% vs procstat $ps% (more than $TOL points apart)"
zcb_ok "capped at a quarter of the box, idle: soak $soak%, procstat $ps%"
