# shellcheck shell=bash
# lib.sh: helpers for integration tests (sourced). Tests start real
# processes on loopback or in namespaces they make, record every PID they
# start, and stop only those on exit. Exit 0 pass, 1 fail, 77 skip.
set -u

# Once a process: sourced again (a test that also sources a helper that
# sources this, such as nfsbench-lib.sh), it would start over with no
# cleanups and a new temp directory, and what the test started before
# (a diod) would outlive it.
if [ -n "${ZCB_LIB_SH:-}" ]; then
	return 0
fi
ZCB_LIB_SH=1

# A test started from a shell without job control (make check run in the
# background: `scripts/test &`) inherits SIGINT and SIGQUIT ignored, one
# started under nohup SIGHUP, and a script cannot trap a signal ignored
# at its start (our tools keep an ignored SIGHUP ignored, as nohup asks):
# the Ctrl-C and hangup tests would fail for the way they were started.
# Start over with them at their default (bits 0 and 1 of SigIgn: SIGHUP,
# SIGINT).
if [ -z "${ZCB_SIG_RESET:-}" ] && [ -r /proc/$$/status ] &&
	(($(printf '%d' "0x$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)") & 3)); then
	export ZCB_SIG_RESET=1
	exec env --default-signal=HUP,INT,QUIT "$BASH" "$0" "$@"
fi

: "${ZCB_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${ZCB_BUILDDIR:=$ZCB_SRCDIR}"
export ZCB_SRCDIR ZCB_BUILDDIR
# Tests never touch the user's calibration or state.
ZCB_TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/zcb-test.XXXXXX") ||
	{ echo "FAIL: cannot make a directory under ${TMPDIR:-/tmp} (TMPDIR missing?)" >&2; exit 1; }
export XDG_STATE_HOME="$ZCB_TEST_TMP/state"
# A disturbed sample (the shared box busy: lib/cpu/quiet.h) is marked
# but not made again: a test's count of samples must never follow the
# box's load. The tests of re-runs give --reruns themselves.
export ZCB_RERUNS=0
ZCB_PIDS=()
ZCB_CLEANUPS=()

zcb_bin() { # zcb_bin NAME: path of a built tool
	local d
	for d in "$ZCB_BUILDDIR/$1" "$ZCB_BUILDDIR"/*/"$1"; do
		[ -x "$d" ] && [ -f "$d" ] && { echo "$d"; return 0; }
	done
	echo "no built binary named $1 under $ZCB_BUILDDIR" >&2
	return 1
}

zcb_cleanup() {
	local pid c
	for c in "${ZCB_CLEANUPS[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
	for pid in "${ZCB_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${ZCB_PIDS[@]}"; do
		for _ in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	done
	rm -rf "$ZCB_TEST_TMP"
	# leave the box (below) after every process the test started is gone
	if [ "${ZCB_BOX_IN:-}" = $$ ]; then
		[ "$(cat "$ZCB_BOX_DIR/alone.d/pid" 2>/dev/null)" != $$ ] || rm -rf "$ZCB_BOX_DIR/alone.d"
		rm -f "$ZCB_BOX_DIR/run.$$"
	fi
}
trap zcb_cleanup EXIT
trap 'exit 130' INT TERM

zcb_on_exit() { ZCB_CLEANUPS+=("$1"); } # run a command at exit
zcb_track() { ZCB_PIDS+=("$1"); }	 # stop this PID at exit

# The box. make -j runs tests beside each other; a test that measures the
# whole box (an idle box, one busy CPU) would read its neighbours and
# skip, or worse. Every test registers in ZCB_BOX_DIR (a file named by its
# PID; a process the test starts that sources this again is part of it:
# ZCB_BOX_IN), and `zcb_alone` takes the box: it marks it taken (a
# directory made atomically, holding its PID), so tests that start later
# wait at registration, then waits for the tests already running to end.
# Each wait has a deadline; a mark or registration whose PID is gone
# (a test killed by -9) is cleared. Registration comes before the look at
# the mark, so a test either sees the mark or is seen by zcb_alone.
ZCB_BOX_DIR="${TMPDIR:-/tmp}/zcbench-tests.box"
zcb_box_clear() { # remove registrations and a mark whose PID is gone
	local f pid
	for f in "$ZCB_BOX_DIR"/run.*; do
		[ -e "$f" ] || continue
		pid=${f##*/run.}
		kill -0 "$pid" 2>/dev/null || rm -f "$f"
	done
	pid=$(cat "$ZCB_BOX_DIR/alone.d/pid" 2>/dev/null) || return 0
	[ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || rm -rf "$ZCB_BOX_DIR/alone.d"
}
zcb_box_taken() { # the mark is held by a live test other than this one
	local pid
	pid=$(cat "$ZCB_BOX_DIR/alone.d/pid" 2>/dev/null) || return 1
	[ -n "$pid" ] && [ "$pid" != "$ZCB_BOX_IN" ] && kill -0 "$pid" 2>/dev/null
}
zcb_box_enter() {
	local deadline=$((SECONDS + ${ZCB_BOX_WAIT:-900}))
	mkdir -p "$ZCB_BOX_DIR" 2>/dev/null || return 0
	export ZCB_BOX_IN=$$
	while :; do
		: >"$ZCB_BOX_DIR/run.$$"
		zcb_box_taken || return 0
		rm -f "$ZCB_BOX_DIR/run.$$"
		if [ $SECONDS -ge $deadline ]; then
			echo "note: the box was still taken by test $(cat "$ZCB_BOX_DIR/alone.d/pid" 2>/dev/null) after ${ZCB_BOX_WAIT:-900} s; running beside it" >&2
			: >"$ZCB_BOX_DIR/run.$$"
			return 0
		fi
		sleep 0.2
		zcb_box_clear
	done
}
# zcb_alone [TIMEOUT_S]: this test has the box to itself from here to its
# end (no other test of this suite runs), or skips saying what kept it.
# Call it before any other lock (cs_lock): a test waiting for that lock
# is registered, so holding it while waiting here would wait on itself.
zcb_alone() {
	local deadline=$((SECONDS + ${1:-600})) f others
	[ "${ZCB_BOX_IN:-}" = $$ ] || zcb_fail "zcb_alone: this test did not register (lib.sh)"
	until mkdir "$ZCB_BOX_DIR/alone.d" 2>/dev/null; do
		[ $SECONDS -lt $deadline ] ||
			zcb_skip "test $(cat "$ZCB_BOX_DIR/alone.d/pid" 2>/dev/null) had the box to itself for ${1:-600} s"
		sleep 0.2
		zcb_box_clear
	done
	echo $$ >"$ZCB_BOX_DIR/alone.d/pid"
	while :; do
		zcb_box_clear
		others=""
		for f in "$ZCB_BOX_DIR"/run.*; do
			[ -e "$f" ] && [ "$f" != "$ZCB_BOX_DIR/run.$$" ] && others+=" ${f##*/run.}"
		done
		[ -n "$others" ] || break
		[ $SECONDS -lt $deadline ] ||
			zcb_skip "tests$others still ran beside it after ${1:-600} s: it needs the box to itself"
		sleep 0.2
	done
	echo "the box to itself: no other test of this run beside it"
}
[ -n "${ZCB_BOX_IN:-}" ] || zcb_box_enter

# zcb_hogs N: N busy loops at nice 0 (processes outside any run: a box
# that is not quiet), stopped at exit or by zcb_hogs_stop.
ZCB_HOGS=()
zcb_hogs() {
	local i
	for i in $(seq 1 "$1"); do
		(while :; do :; done) &
		zcb_track $!
		ZCB_HOGS+=($!)
	done
}
zcb_hogs_stop() {
	local pid
	for pid in "${ZCB_HOGS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
	for pid in "${ZCB_HOGS[@]}"; do wait "$pid" 2>/dev/null; done
	ZCB_HOGS=()
}

zcb_skip() { echo "SKIP: $*"; exit 77; }

# zcb_cpu_capped: print the CPU cap of this process's cgroup or one above
# it ("100000/100000 us", v1 cfs quota/period, or v2 cpu.max) and return
# 0, or return 1 when none caps it
zcb_cpu_capped() {
	local rel d q per
	rel=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpu\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' /proc/self/cgroup | head -1)
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		if [ -z "$rel" ] || [ ! -r "$d/cpu.cfs_quota_us" ]; then
			continue
		fi
		d=$d$rel
		while [ -n "$d" ] && [ "$d" != /sys/fs/cgroup ]; do
			q=$(cat "$d/cpu.cfs_quota_us" 2>/dev/null) || break
			per=$(cat "$d/cpu.cfs_period_us" 2>/dev/null)
			[ "$q" != -1 ] && { echo "$q/$per us"; return 0; }
			d=${d%/*}
		done
		return 1
	done
	rel=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
	d=/sys/fs/cgroup$rel
	while [ -n "$rel" ] && [ "$d" != /sys/fs/cgroup ]; do
		q=$(cat "$d/cpu.max" 2>/dev/null) || { d=${d%/*}; continue; }
		[ "${q%% *}" != max ] && { echo "$q us"; return 0; }
		d=${d%/*}
	done
	return 1
}
zcb_fail() { echo "FAIL: $*" >&2; exit 1; }
zcb_ok() { echo "ok - $*"; }
zcb_need_root() { [ "$(id -u)" = 0 ] || zcb_skip "needs root"; }
zcb_need_cmd() { command -v "$1" >/dev/null 2>&1 || zcb_skip "needs $1 (${2:-not installed})"; }

# What a test of ssh hosts in namespaces (netns-hosts --sshd) needs.
zcb_need_ssh_hosts() {
	zcb_need_root
	zcb_need_cmd ip iproute2
	zcb_need_cmd /usr/sbin/sshd openssh-server
	zcb_need_cmd ssh openssh-client
	zcb_need_cmd jq jq
}

# zcb_netns_gone FILE: every namespace named on FILE's line is removed.
zcb_netns_gone() {
	local ns nss
	read -r -a nss <"$1"
	for ns in "${nss[@]}"; do
		ip netns list | cut -d' ' -f1 | grep -qxF "$ns" && zcb_fail "namespace $ns was not removed"
	done
	return 0
}

# A free TCP port on 127.0.0.1 (racy by nature; tests retry on EADDRINUSE).
zcb_free_port() {
	local p
	for _ in $(seq 1 100); do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# zcb_wait_port HOST PORT [TIMEOUT_S]: until something listens.
zcb_wait_port() {
	local deadline=$((SECONDS + ${3:-10}))
	while [ $SECONDS -lt $deadline ]; do
		(exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# zcb_wait_gone PID [TIMEOUT_S]: until the process is gone.
zcb_wait_gone() {
	local deadline=$((SECONDS + ${2:-10}))
	while [ $SECONDS -lt $deadline ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
	return 1
}

# zcb_hold PORT N: N connections to 127.0.0.1:PORT, held open (their
# descriptors appended to ZCB_HELD); zcb_release closes them all.
ZCB_HELD=()
zcb_hold() {
	local i fd
	for i in $(seq 1 "$2"); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$1" || zcb_fail "connection $i to port $1 refused"
		ZCB_HELD+=("$fd")
	done
}
zcb_release() {
	local fd
	for fd in "${ZCB_HELD[@]}"; do exec {fd}>&-; done
	ZCB_HELD=()
}

# zcb_expect_fail "what" CMD...: the command must fail (exit != 0).
zcb_expect_fail() {
	local what=$1
	shift
	if "$@" >"$ZCB_TEST_TMP/out" 2>"$ZCB_TEST_TMP/err"; then
		zcb_fail "$what: succeeded but should have failed"
	fi
}

# zcb_json FILE FILTER: a jq filter on a JSON document, raw output.
zcb_json() { jq -r "$2" "$1"; }

# jq definitions for a sample whose run may have been too short for a
# tick-counting meter (procstat): such a meter says "below its resolution"
# instead of naming a figure, and a test of names must take either.
#   named(SIDE; METER; NAME): the metric is there; or METER on SIDE said
#                             the window was below its resolution, and
#                             the metric is not there
#   seen_n(SIDE; METER):      of an array of samples, how many METER saw
ZCB_JQ_CPU=$(
	cat <<'EOF'
def unseen($side; $meter): any(.cpu[$side][]?; .meter == $meter and (.ok | not) and
	((.why // "") | startswith("below its resolution")));
def named($side; $meter; $name): if unseen($side; $meter) then (.metrics | has($name) | not)
	else (.metrics | has($name)) end;
def seen_n($side; $meter): map(select(unseen($side; $meter) | not)) | length;
EOF
)
export ZCB_JQ_CPU
