#!/usr/bin/env bash
# cyclesoak-private-dir: another user cannot disable the soak meter of a
# user without XDG_RUNTIME_DIR (the package's zcbench service user) by
# making /tmp/zcbench-UID first. That directory is refused (not ours),
# and the socket goes to the user's state directory, where every process
# of the user still finds the one soaker set. Runs as a uid no account
# has (setpriv), against a directory uid nobody made.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_need_root
zcb_need_cmd setpriv util-linux
zcb_need_cmd jq jq
T=$ZCB_TEST_TMP

# a uid with no account, no process and no /tmp/zcbench-UID
U=
for _ in $(seq 1 100); do
	u=$((61000 + RANDOM % 2000))
	if ! getent passwd "$u" >/dev/null && ! pgrep -u "$u" >/dev/null &&
		[ ! -e "/tmp/zcbench-$u" ]; then
		U=$u
		break
	fi
done
[ -n "$U" ] || zcb_skip "no unused uid found"
NOBODY=$(id -u nobody 2>/dev/null) || zcb_skip "no user nobody"
# what uid U runs (its soak host) is what this test started: stop it by PID
stop_user() {
	local p
	for p in $(pgrep -u "$U"); do kill "$p"; done
}
zcb_on_exit stop_user
zcb_on_exit "rm -rf /tmp/zcbench-$U"

H=$T/home
mkdir -p "$H"
CALIB=$H/.local/state/zcbench/calibration.json cs_fixture_calibration
chown -R "$U:$U" "$H"
chmod 711 "$T" # U reaches its home, nothing else here
as_user() {
	setpriv --reuid="$U" --regid="$U" --clear-groups \
		env -u XDG_RUNTIME_DIR -u XDG_STATE_HOME -u ZCB_SOAK_SOCKET HOME="$H" "$@"
}
users_gone() { # until uid U runs nothing (its soak host has ended)
	for _ in $(seq 1 100); do
		pgrep -u "$U" >/dev/null || return 0
		sleep 0.1
	done
	return 1
}
soak_ok() { # DOC: the soak meter read the box
	jq -e '.cases[0].samples[0].cpu.box | any(.meter == "soak" and .ok)' "$1" >/dev/null
}

# uid nobody takes the name first, as itself, private: not ours
setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups mkdir -m 700 "/tmp/zcbench-$U" ||
	zcb_fail "nobody could not make /tmp/zcbench-$U"
cs_lock
as_user "$CS" --cpu=soak -J -- true >"$T/a.json" 2>"$T/a.err" ||
	zcb_fail "soak meter of uid $U: $(cat "$T/a.err")"
soak_ok "$T/a.json" ||
	zcb_fail "soak meter disabled by nobody's /tmp/zcbench-$U: $(grep -i soak "$T/a.err" | head -3)"
S=$H/.local/state/zcbench/soak
[ "$(stat -c '%u %a' "$S")" = "$U 700" ] ||
	zcb_fail "state directory $S: $(stat -c '%U %a' "$S" 2>&1)"
if [ "$(stat -c '%u' "/tmp/zcbench-$U")" != "$NOBODY" ] || [ -n "$(ls -A "/tmp/zcbench-$U")" ]; then
	zcb_fail "nobody's directory was used: $(ls -la "/tmp/zcbench-$U")"
fi
users_gone || zcb_fail "uid $U's soak host did not end: $(pgrep -u "$U" -a)"
zcb_ok "nobody's /tmp/zcbench-$U is refused; the soak socket goes to the state directory (0700)"

# two processes of the user share one soaker set there
as_user "$CS" --cpu=soak -J -- sh -c "while [ ! -e '$H/go' ]; do sleep 0.1; done" \
	>"$T/b.json" 2>"$T/b.err" &
BP=$!
zcb_track $BP
for _ in $(seq 1 100); do
	[ -S "$S/soak.sock" ] && break
	sleep 0.1
done
[ -S "$S/soak.sock" ] || zcb_fail "no soak socket in $S: $(cat "$T/b.err")"
as_user "$CS" --cpu=soak -J -- true >"$T/c.json" 2>"$T/c.err" ||
	zcb_fail "second process: $(cat "$T/c.err")"
touch "$H/go"
wait $BP || zcb_fail "first process: $(cat "$T/b.err")"
hp() { jq -r '.cases[0].samples[0].cpu.box[] | select(.meter == "soak") | .note' "$1" |
	grep -o 'host pid [0-9]*'; }
b=$(hp "$T/b.json") c=$(hp "$T/c.json")
if [ -z "$b" ] || [ "$b" != "$c" ]; then
	zcb_fail "two soaker sets for one user: '$b', '$c'"
fi
users_gone || zcb_fail "uid $U's soak host did not end: $(pgrep -u "$U" -a)"
zcb_ok "both processes of the user joined one soaker set ($b)"
