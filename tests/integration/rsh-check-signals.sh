#!/usr/bin/env bash
# rsh-check-signals.sh: a signal while the far side's --version is being
# asked (rsh.sh's rsh_check: up to 60 s for a slow login) leaves neither
# the check's directory (zcb-rsh.XXXXXX under TMPDIR) nor its remote
# shell behind (issue 22: scripts/test's final check looks for them).
# The remote shell is a stand-in that never answers; with TMPDIR a
# directory of the test:
# 1. zc-vs-copy --to, SIGINT during the check: exit 130, TMPDIR empty,
#    the remote shell gone;
# 2. zc-files --to, SIGTERM during the check: the same (exit 143);
# 3. fanout over 3 hosts, SIGTERM during the checks: exit 143, no
#    zcb-rsh.* left, none of the 3 remote shells running.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
T=$ZCB_TEST_TMP
TTCP=$(zcb_bin ttcp-sf) || exit 1
mkdir -p "$T/bin"
export HANG_PIDS="$T/hang.pids"
# the remote shell: says its PID, then never answers
cat >"$T/bin/hang" <<'EOS'
#!/bin/sh
echo $$ >>"$HANG_PIDS"
exec sleep 300
EOS
chmod +x "$T/bin/hang"
set -m # each background job in a group of its own, SIGINT not ignored

# start NAME CMD...: CMD in the background, TMPDIR=$T/NAME; sets job
start() {
	local n=$1
	shift
	mkdir -p "$T/$n"
	: >"$HANG_PIDS"
	TMPDIR="$T/$n" "$@" >"$T/$n.out" 2>"$T/$n.err" &
	job=$!
	zcb_track "$job"
}
# checking NAME N: until N checks are under way (their directories made,
# their remote shells started), within 30 s
checking() {
	local deadline=$((SECONDS + 30)) d p
	while [ $SECONDS -lt $deadline ]; do
		d=$(find "$T/$1" -maxdepth 1 -name 'zcb-rsh.*' | wc -l)
		p=$(grep -c . "$HANG_PIDS")
		[ "$d" -ge "$2" ] && [ "$p" -ge "$2" ] && break
		kill -0 "$job" 2>/dev/null || zcb_fail "$1: ended before its checks: $(cat "$T/$1.err")"
		sleep 0.05
	done
	if [ "$d" -lt "$2" ] || [ "$p" -lt "$2" ]; then
		zcb_fail "$1: $d check directories and $p remote shells after 30 s, want $2"
	fi
	while read -r p; do zcb_track "$p"; done <"$HANG_PIDS"
}
# stopped NAME SIG WANT: the signal; exit WANT within 30 s; no zcb-rsh.*,
# no remote shell left
stopped() {
	local p
	kill -"$2" "$job"
	zcb_wait_gone "$job" 30 || zcb_fail "$1: still running 30 s after SIG$2"
	rc=0
	wait "$job" || rc=$?
	[ $rc = "$3" ] || zcb_fail "$1: exit $rc after SIG$2, want $3: $(cat "$T/$1.err")"
	while read -r p; do
		zcb_wait_gone "$p" 10 || zcb_fail "$1: the remote shell $p still runs after SIG$2"
	done <"$HANG_PIDS"
	[ -z "$(find "$T/$1" -maxdepth 1 -name 'zcb-rsh.*')" ] ||
		zcb_fail "$1: left behind: $(find "$T/$1" -maxdepth 1 -name 'zcb-rsh.*')"
}

start zvc env ZCB_RSH="$T/bin/hang h1" "$ZCB_SRCDIR/scripts/zc-vs-copy" --to h1 --bin "$TTCP" \
	--methods write --repeat 1 --duration 1s --cpu procstat
checking zvc 1
stopped zvc INT 130
[ -z "$(ls -A "$T/zvc")" ] || zcb_fail "zvc: left in TMPDIR: $(ls -A "$T/zvc")"
zcb_ok "zc-vs-copy: SIGINT during the check: exit 130, nothing left"

start zcf env ZCB_RSH="$T/bin/hang h1" "$ZCB_SRCDIR/scripts/zc-files" --to h1 \
	--bin-dir "$ZCB_BUILDDIR" --methods sendfile --files 2 --size 4k --repeat 1 --cpu procstat
checking zcf 1
stopped zcf TERM 143
[ -z "$(ls -A "$T/zcf")" ] || zcb_fail "zcf: left in TMPDIR: $(ls -A "$T/zcf")"
zcb_ok "zc-files: SIGTERM during the check: exit 143, nothing left"

printf 'h1\nh2\nh3\n' >"$T/hosts"
start fo env ZCB_RSH="$T/bin/hang" "$ZCB_SRCDIR/scripts/fanout" --hosts "$T/hosts" \
	--out "$T/fo-out" -- "$TTCP"
checking fo 3
stopped fo TERM 143
zcb_ok "fanout: SIGTERM during 3 checks: exit 143, no check directory or remote shell left"
