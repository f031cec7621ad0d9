# shellcheck shell=bash
# cyclesoak-lib.sh: what the cyclesoak integration tests share (sourced
# after lib.sh). Each test gets a private soaker set (its own socket) and
# the tests that soak take a lock, so they never compete for idle cycles.
CS=$(zcb_bin cyclesoak) || exit 1
export ZCB_SOAK_SOCKET="$ZCB_TEST_TMP/soak.sock"
CALIB="$XDG_STATE_HOME/zcbench/calibration.json"
NCPU=$(nproc)

cs_lock() { # one soaking test at a time on this box
	exec 9>"${TMPDIR:-/tmp}/zcbench-cyclesoak-tests.lock"
	flock -w 600 9 || zcb_skip "could not get the cyclesoak test lock"
}

cs_calibrate() { # a short calibration (3 tries), or skip when too busy
	local try
	for try in 1 2 3; do
		"$CS" --calibrate --rounds 3 --round-time 0.4 --tolerance "${1:-25}" \
			>"$ZCB_TEST_TMP/calib.out" 2>&1 && break
		grep -q "NOT stored" "$ZCB_TEST_TMP/calib.out" ||
			zcb_fail "calibration failed: $(cat "$ZCB_TEST_TMP/calib.out")"
		[ $try = 3 ] &&
			zcb_skip "box too busy to calibrate: $(grep 'NOT stored' "$ZCB_TEST_TMP/calib.out" | head -1)"
		sleep 1
	done
	[ -s "$CALIB" ] || zcb_fail "calibration not stored in $CALIB"
}

cs_host_alive() { # is our private soak host up? (it holds .alive locked)
	[ -e "$ZCB_SOAK_SOCKET.alive" ] || return 1
	! flock -n -s "$ZCB_SOAK_SOCKET.alive" true
}

cs_wait_no_host() { # until our soak host is gone
	for _ in $(seq 1 100); do
		cs_host_alive || return 0
		sleep 0.1
	done
	return 1
}

cs_host_pid() { # FILE: the soak host pid named in a note in FILE
	local p
	for _ in $(seq 1 150); do
		p=$(grep -o 'host pid [0-9]*' "$1" 2>/dev/null | head -1 | awk '{print $3}')
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}

cs_no_leftovers() { # HOSTPID SOAKERPID...: none of them, nor its cgroup, remain
	local h=$1 d p
	shift
	cs_wait_no_host || zcb_fail "soak host $h still holds its lock"
	zcb_wait_gone "$h" 5 || zcb_fail "soak host $h still runs"
	for p in "$@"; do
		zcb_wait_gone "$p" 5 || zcb_fail "soaker $p of host $h remains"
	done
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/unified /sys/fs/cgroup; do
		[ -e "$d/zcbench-soak-$h" ] && zcb_fail "cgroup $d/zcbench-soak-$h remains"
	done
	return 0
}

cs_dying() { # PID: it has SIGKILL pending (bit 8 of SigPnd or ShdPnd)
	local m
	while read -r m; do
		(($(printf '%d' "0x$m") & 256)) && return 0
	done < <(sed -n 's/^\(SigPnd\|ShdPnd\):[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ ! -e "/proc/$1" ]
}

cs_find_host() { # the soak host on our socket, waiting for it to appear
	local p
	for _ in $(seq 1 100); do
		for p in $(pgrep -x zcb-soakhost); do
			tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
				grep -qx "ZCB_SOAK_SOCKET=$ZCB_SOAK_SOCKET" && { echo "$p"; return 0; }
		done
		sleep 0.1
	done
	return 1
}

cs_fixture_calibration() { # a stored calibration with made-up rates, for
	# tests of function (not of figures) on a box too busy to calibrate
	mkdir -p "$(dirname "$CALIB")"
	jq -n --arg k "$(uname -r)" --argjson n "$NCPU" \
		--arg m "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" '
		{schema: "zcbench-soak-calibration/1", kernel_release: $k,
		 cpu_model: $m, online_cpus: $n, made: "2026-01-01T00:00:00Z",
		 rounds: 2, round_s: 0.2, spread_pct: 0, note: "test fixture",
		 cpus: [range(0; $n) | {cpu: ., rate: 1e7}]}' >"$CALIB"
}
