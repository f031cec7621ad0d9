#!/usr/bin/env bash
# peer-diod-hostile.sh: scripts/peer-diod gives no stranger root. Started
# by root, diod drops to an unprivileged user and a client attaching as
# uid 0 acts as that user; started by a user, it serves that user only.
# `stop` signals only a diod peer-diod started (not a process that merely
# calls itself diod) and leaves no log file behind; a bad --port and a
# missing TMPDIR are refused.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd diod
PD="$ZCB_SRCDIR/scripts/peer-diod"
P9=$(zcb_bin p9bench) || exit 1
T=$ZCB_TEST_TMP
mkdir -p "$T/tmp"
chmod 755 "$T" # diod runs as another user, which must reach its export
export TMPDIR="$T/tmp"

# 1. started by root: diod is not root, and neither is its client
if [ "$(id -u)" = 0 ]; then
	read -r pid addr export _ < <("$PD" start) || zcb_fail "diod did not start"
	zcb_track "$pid"
	uid=$(awk '/^Uid:/ { print $3 }' "/proc/$pid/status")
	[ "$uid" != 0 ] || zcb_fail "diod runs as root"
	"$P9" -s "$addr" -a "$export" --uid 0 --ops 2 --sizes 64 --keep --file mine.dat \
		-o "$T/r1.json" >/dev/null 2>"$T/err1" || zcb_fail "root could not use diod: $(cat "$T/err1")"
	owner=$(stat -c %u "$export/mine.dat")
	[ "$owner" != 0 ] || zcb_fail "a client attaching as uid 0 created a root-owned file"
	"$PD" stop "$pid" "$export"
	zcb_wait_gone "$pid" 2 || zcb_fail "diod $pid still running after stop"
	[ -e "$export" ] && zcb_fail "stop left $export"
	zcb_ok "root's diod runs as uid $uid; an attach as uid 0 writes as uid $owner"
fi

# 2. started by a user (nobody here): serves that user only
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env TMPDIR="$T/ntmp" "$@"; }
	mkdir -p "$T/ntmp" "$T/nbin"
	cp "$PD" "$T/nbin/peer-diod"
	cp "$P9" "$T/nbin/p9bench"
	chown 65534 "$T/ntmp"
	chmod 755 "$T" "$T/nbin" "$T/nbin/peer-diod" "$T/nbin/p9bench"
	read -r pid addr export _ < <(as_nobody "$T/nbin/peer-diod" start) ||
		zcb_fail "diod did not start for a user"
	zcb_track "$pid"
	as_nobody "$T/nbin/p9bench" -s "$addr" -a "$export" --ops 2 --sizes 64 -o "$T/ntmp/r2.json" \
		>/dev/null 2>"$T/err2" || zcb_fail "the user could not use its diod: $(cat "$T/err2")"
	zcb_expect_fail "attach as root to a user's diod" "$P9" -s "$addr" -a "$export" --uid 0 \
		--ops 1 --sizes 1 -o "$T/r3.json"
	as_nobody "$T/nbin/peer-diod" stop "$pid" "$export"
	zcb_wait_gone "$pid" 2 || zcb_fail "diod $pid still running after stop"
	zcb_ok "a user's diod admits that user, refuses uid 0"
fi

# 3. --export given: stop removes the log too
mkdir -p "$T/exp"
chmod 755 "$T" "$T/exp"
read -r pid addr export log < <("$PD" start --export "$T/exp") || zcb_fail "diod --export did not start"
zcb_track "$pid"
[ -f "$log" ] || zcb_fail "no log file $log"
"$PD" stop "$pid" "$export"
zcb_wait_gone "$pid" 2 || zcb_fail "diod $pid still running after stop"
[ -d "$T/exp" ] || zcb_fail "stop removed the caller's export"
left=$(find "$T/tmp" -mindepth 1 -maxdepth 1)
[ -z "$left" ] || zcb_fail "stop left behind: $left"
zcb_ok "--export DIR: stop leaves the export and removes the log"

# 4. a stale PID: a process named diod that peer-diod did not start
cp "$(command -v sleep)" "$T/diod"
"$T/diod" 60 &
decoy=$!
zcb_track "$decoy"
"$PD" stop "$decoy" "$T/exp" 2>"$T/err4"
sleep 0.2
kill -0 "$decoy" 2>/dev/null || zcb_fail "stop killed PID $decoy, a process named diod it did not start"
grep -q "not signalled" "$T/err4" || zcb_fail "stop did not say it left $decoy alone"
zcb_ok "stop leaves a process it did not start alone"

# 5. a broken environment and bad values
rc=0; "$PD" start --port '564; touch x' >"$T/out" 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "bad --port: exit $rc"
rc=0; TMPDIR="$T/missing" "$PD" start >"$T/out" 2>&1 || rc=$?
[ $rc != 0 ] || zcb_fail "TMPDIR missing: started anyway: $(cat "$T/out")"
grep -q "TMPDIR" "$T/out" || zcb_fail "TMPDIR missing: not said: $(cat "$T/out")"
zcb_ok "bad --port exit 2; a missing TMPDIR is named"
