#!/usr/bin/env bash
# sched-busy: the exact meter on a known load. A busy loop pinned to CPU
# 0 under `cyclesoak --cpu=sched -- CMD`: CPU 0 reads as busy as the loop
# was on it (throughout, unless a cgroup cap held it back)
# (but for what the hypervisor stole: steal is not busy, and the kernel
# takes it out of a task's time as sched does; CI's loaded hosts steal);
# the command's share (sched's "self", with the hardirqs taken while it
# ran) is its CPU time from rusage within 1 point (rusage charges a
# task what interrupts it, and the box is shared); and the box less
# the other tasks' share (the box is shared: they are sched's "other")
# is 50 +- 1% of a 2-CPU box (100/ncpu elsewhere). That last check needs
# the loop to have had its CPU: up to 3 runs for one where it had.
# Where BPF cannot run here, skip with the reason.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq jq
zcb_need_cmd taskset util-linux
CS=$(zcb_bin cyclesoak) || exit 1
T=$ZCB_TEST_TMP
NCPU=$(nproc)
[ "$NCPU" -ge 2 ] || zcb_skip "needs 2 CPUs (one busy, one not)"
zcb_alone 600 # CPU 0 must be the loop's: no other test of the suite beside it
want=$(awk -v n="$NCPU" 'BEGIN { printf "%.2f", 100 / n }')

# one run: busy self other hardirq cpu0 truth
busy_run() {
	# shellcheck disable=SC2016 # the inner bash expands it
	"$CS" --cpu=sched -o "$T/busy.json" -- taskset -c 0 bash -c \
		'e=$((SECONDS + 3)); while ((SECONDS < e)); do :; done' >"$T/out" 2>&1 ||
		zcb_fail "busy run: $(cat "$T/out")"
	cat "$T/out" >&2
	why=$(jq -r '.cases[0].samples[0].cpu.box[] | select(.meter == "sched") |
		select(.ok | not) | .why' "$T/busy.json")
	[ -n "$why" ] && zcb_skip "sched cannot run here: $why"
	grep -q "cpu box    procstat" "$T/out" || zcb_fail "no procstat beside sched"
	jq -e '.cases[0].samples[0].metrics.elapsed_s >= 1.5' "$T/busy.json" >/dev/null ||
		zcb_fail "the busy command did not run: $(cat "$T/out")"
	# shellcheck disable=SC2016 # jq's variables
	jq -r --argjson n "$NCPU" '
		.cases[0].samples[0] | (.cpu.box[] | select(.meter == "sched")) as $s |
		[$s.busy_pct, $s.sched.self_pct, $s.sched.other_pct,
		 $s.sched.hardirq_pct, $s.percpu_busy_pct[0],
		 $s.sched.steal_pct * $n,
		 100 * (.cmd_rusage.utime_s + .cmd_rusage.stime_s) /
		 ($s.elapsed_s * $n)] | map(. * 100 | round / 100) | @tsv' "$T/busy.json"
}

for try in 1 2 3; do
	read -r busy self other hirq cpu0 steal truth < <(busy_run)
	[ -n "${truth:-}" ] || zcb_fail "no figures in $T/busy.json"
	echo "try $try: sched box $busy%, self $self%, other $other%, hardirq $hirq%, cpu0 $cpu0%, steal $steal% of a CPU; rusage $truth%"
	# CPU 0 is at least as busy as the loop was on it (all of it, unless
	# a cgroup cap held the loop back: then its rusage says how much);
	# steal is not busy: CPU 0's is at most all the box's
	awk -v c="$cpu0" -v s="$steal" -v t="$truth" -v n="$NCPU" \
		'BEGIN { w = t * n - 1; if (w > 99) w = 99; exit !(c + s >= w) }' ||
		zcb_fail "CPU 0 ran the loop ($truth% of the box) but reads $cpu0% busy (steal $steal% of a CPU)"
	# rusage charges the interrupts a task suffers to the task
	awk -v s="$self" -v h="$hirq" -v t="$truth" \
		'BEGIN { d = s + h - t; exit !(d <= 1 && d >= -1) }' ||
		zcb_fail "the command's share $self% (+ hardirq $hirq%) is not its CPU time $truth% (+- 1)"
	awk -v t="$truth" -v w="$want" 'BEGIN { exit !(t >= w - 1) }' && break
	[ "$try" = 3 ] &&
		zcb_skip "the loop got $truth% of the box, not $want%, in 3 runs: CPU 0 was shared, or a cgroup cap held the loop back"
done
zcb_ok "CPU 0 busy: $cpu0%"
zcb_ok "the command's share $self% (+ hardirq $hirq%) is its CPU time $truth%"
awk -v b="$busy" -v o="$other" -v w="$want" \
	'BEGIN { d = b - o - w; exit !(d <= 1 && d >= -1) }' ||
	zcb_fail "box $busy% less others $other% is not $want% +- 1"
zcb_ok "one busy CPU of $NCPU: sched $busy% of the box, less others $other%: $want% +- 1"
