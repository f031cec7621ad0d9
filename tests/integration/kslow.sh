#!/usr/bin/env bash
# kslow: the tasks of one cgroup find each system call's CPU time longer
# by --slow PCT, and nothing else is slowed. Checked on kslow's own
# count, not on a time: a dd inside the cgroup makes a known number of
# calls (and one outside, at the same time, must not be counted); the
# time spun is at least PCT% of what the calls ran; a sleeping process's
# wait is not CPU time, so it is not slowed. Bad usage first.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
T=$ZCB_TEST_TMP
KS=$(zcb_bin kslow 2>/dev/null) || zcb_skip "kslow is not built (configure found no BPF toolchain: see its --with-bpf line)"

# usage WORDS ARGS...: kslow refuses ARGS with exit 2 and WORDS
usage() {
	local words=$1 rc
	shift
	"$KS" "$@" >"$T/o" 2>&1
	rc=$?
	if [ $rc != 2 ] || ! grep -q -- "$words" "$T/o"; then
		zcb_fail "kslow $*: rc $rc, $(cat "$T/o") (exit 2 and \"$words\" wanted)"
	fi
}
usage '--cgroup DIR is needed' --slow 10
usage 'not a cgroup v2 directory' --cgroup "$T" --slow 10
usage '"2000" is not a number' --cgroup "$T" --slow 2000
usage 'unexpected argument' --cgroup "$T" --slow 1 extra
zcb_ok "bad usage named"

zcb_need_root
[ -r /sys/kernel/btf/vmlinux ] || zcb_skip "no kernel BTF (/sys/kernel/btf/vmlinux)"
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$root" ] || zcb_skip "no cgroup v2 hierarchy mounted"
CG=$root/zcb-test-kslow.$$
mkdir "$CG" || zcb_skip "cannot make a cgroup under $root"
# shellcheck disable=SC2016 # expanded at exit
zcb_on_exit 'while read -r p; do echo "$p" >"'"$root"'/cgroup.procs"; done <"'"$CG"'/cgroup.procs"; rmdir "'"$CG"'"'

# slow PCT CMD...: CMD run in the cgroup under kslow --slow PCT; kslow's
# closing line into $T/ks
slow() {
	local pct=$1 k
	shift
	"$KS" --cgroup "$CG" --slow "$pct" >"$T/ks" 2>&1 &
	k=$!
	zcb_track "$k"
	local end=$((SECONDS + 20))
	until grep -q '^kslow: slowing' "$T/ks"; do
		kill -0 "$k" 2>/dev/null || { grep -q "cannot load" "$T/ks" && zcb_skip "BPF cannot run here: $(cat "$T/ks")"; zcb_fail "kslow ended: $(cat "$T/ks")"; }
		[ $SECONDS -lt $end ] || zcb_fail "kslow not attached after 20 s"
		sleep 0.05
	done
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' kslow-test "$CG" "$@" ||
		zcb_fail "$* failed in the cgroup"
	kill -INT "$k"
	zcb_wait_gone "$k" 20 || zcb_fail "kslow still running 20 s after SIGINT"
	wait "$k" || zcb_fail "kslow exited $? after SIGINT: $(cat "$T/ks")"
	cat "$T/ks"
	# "kslow: N calls ran R s of CPU; S s spun after them (P%); C spins cut"
	read -r calls ran spun < <(awk '/calls ran/ { print $2, $5, $9 }' "$T/ks")
	[ -n "$spun" ] || zcb_fail "no closing line: $(cat "$T/ks")"
}

# 20000 reads and 20000 writes in the cgroup (dd's own set-up is a few
# dozen calls more); 30000 of each outside it, at the same time
dd if=/dev/zero of=/dev/null bs=64k count=30000 2>/dev/null &
out=$!
slow 100 dd if=/dev/zero of=/dev/null bs=64k count=20000 status=none
wait "$out"
{ [ "$calls" -ge 40000 ] && [ "$calls" -le 40500 ]; } ||
	zcb_fail "calls counted $calls: dd made 40000 and some dozens in the cgroup (60000 outside it)"
awk -v r="$ran" -v s="$spun" 'BEGIN { exit !(r > 0 && s >= 0.95 * r && s <= 3 * r) }' ||
	zcb_fail "--slow 100: spun $spun s after calls that ran $ran s (at least the same wanted)"
zcb_ok "--slow 100: $calls calls, ran $ran s, spun $spun s"

slow 50 dd if=/dev/zero of=/dev/null bs=64k count=20000 status=none
awk -v r="$ran" -v s="$spun" 'BEGIN { exit !(r > 0 && s >= 0.95 * 0.5 * r && s <= 3 * 0.5 * r) }' ||
	zcb_fail "--slow 50: spun $spun s after calls that ran $ran s (half wanted)"
zcb_ok "--slow 50: ran $ran s, spun $spun s"

# a second asleep in nanosleep is not a second of CPU
slow 100 sleep 1
awk -v r="$ran" 'BEGIN { exit !(r < 0.5) }' ||
	zcb_fail "sleep 1 counted $ran s of CPU in its calls: the time switched out was counted"
zcb_ok "sleep 1: its calls ran $ran s of CPU"

# the power check's kernel slowdown, at its tiny size: every night's
# processes in a v2 cgroup under kslow, the A nights at --slow 0, the
# "90%" night at +11.11%, and no group left
zcb_need_cmd jq
v2() { find "$root" -maxdepth 1 -name 'zcb-power.*' 2>/dev/null | sort; }
was=$(v2)
rc=0
"$ZCB_SRCDIR/scripts/nightly" --power --tiny --caps 90 --cap-by kernel --build "$ZCB_BUILDDIR" \
	--results "$T/p" --keep >"$T/pout" 2>"$T/perr" || rc=$?
[ $rc = 0 ] || zcb_fail "nightly --power --tiny --cap-by kernel: exit $rc: $(tail -5 "$T/perr")"
for n in h1 h2 r1.1-a; do
	grep -q 'CPU time +0.00%' "$T/p/$n.kslow" || zcb_fail "night $n not under kslow --slow 0: $(cat "$T/p/$n.kslow" 2>&1)"
done
grep -q 'CPU time +11.11%' "$T/p/r1.2-c90.kslow" || zcb_fail "the 90% night not at +11.11%: $(cat "$T/p/r1.2-c90.kslow" 2>&1)"
read -r c90 < <(awk '/calls ran/ { print $2 }' "$T/p/r1.2-c90.kslow")
[ "${c90:-0}" -gt 1000 ] || zcb_fail "the 90% night's processes made ${c90:-no} calls under kslow: not in its cgroup?"
grep -Eq '^  kslow: [0-9]+ calls ran' "$T/pout" || zcb_fail "no kslow line under the nights: $(cat "$T/pout")"
[ "$(v2)" = "$was" ] || zcb_fail "a v2 group was left: $(v2)"
zcb_ok "nightly --power --tiny --cap-by kernel: 4 nights under kslow, $c90 calls slowed in the 90% night"
