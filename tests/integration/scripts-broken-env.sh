#!/usr/bin/env bash
# scripts-broken-env.sh: the scripts in a broken environment and against a
# remote side. A missing TMPDIR is an error naming it, never a run that
# writes to / (zc-files and zc-vs-copy did, as root), and every mktemp in
# scripts/ and bench/ is checked. zc-vs-copy and zc-files --to a host
# reached through ssh (a stand-in that runs the command line detached, as
# on another host) stop the remote receiver or zcs on SIGTERM and Ctrl-C,
# and a label with shell syntax in it never runs on the other host.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd setsid
T=$ZCB_TEST_TMP
S="$ZCB_SRCDIR/scripts"
B="$ZCB_SRCDIR/bench"

# 1. TMPDIR missing: an error naming it, nothing written to /
before=$(ls -A /)
root_clean() { # what a run wrote to / (it must be nothing), removed again
	local new
	new=$(comm -13 <(echo "$before") <(ls -A /))
	[ -z "$new" ] && return 0
	for n in $new; do
		case "$n" in base|new|zcc|zcs|logs|ttcp-sf|out|res|*.json) rm -rf "/${n:?}" ;; esac
	done
	zcb_fail "$1 wrote to / with TMPDIR missing: $new"
}
missing="$T/no-such-dir"
check_tmpdir() { # check_tmpdir NAME CMD...
	local name=$1 rc=0
	shift
	TMPDIR=$missing timeout 60 "$@" >"$T/out" 2>&1 || rc=$?
	root_clean "$name"
	[ $rc != 0 ] || zcb_fail "$name: exit 0 with TMPDIR missing"
	grep -q "TMPDIR" "$T/out" || zcb_fail "$name: the missing TMPDIR is not named: $(tail -3 "$T/out")"
}
check_tmpdir zc-vs-copy "$S/zc-vs-copy" --methods write --repeat 1 --duration 1s \
	--source-size 1M --cpu procstat
check_tmpdir zc-files "$S/zc-files" --methods write --files 1 --size 4k --loops 1 \
	--repeat 1 --cpu procstat --bin-dir "$ZCB_BUILDDIR"
check_tmpdir compare-power "$B/compare-power" --synthetic 1 --trials 1 --build "$ZCB_BUILDDIR"
check_tmpdir compare-speed "$B/compare-speed" --docs 2 --build "$ZCB_BUILDDIR"
zcb_ok "TMPDIR missing: zc-vs-copy, zc-files, compare-power, compare-speed say so, write nothing to /"

# every mktemp in scripts/ and bench/ is checked: '||' on its line or the next
bad=$(cd "$ZCB_SRCDIR" && for f in scripts/* scripts/main.d/* bench/*; do
	[ -f "$f" ] || continue
	# a $(mktemp ...) with no '||' on its line must have one opening the next
	awk -v f="$f" 'held != "" { if ($0 !~ /^[[:space:]]*\|\|/) print held; held = "" }
		/\$\(mktemp/ && !/^[[:space:]]*#/ && !/\|\|/ { held = f ":" FNR ": " $0 }
		END { if (held != "") print held }' "$f"
done)
[ -z "$bad" ] || zcb_fail "unchecked mktemp: $bad"
zcb_ok "every mktemp in scripts/ and bench/ is checked"

# 2. a remote side through ssh: a stand-in ssh that, like ssh, hands its
# arguments joined by spaces to a shell "there", detached from this client
mkdir -p "$T/bin"
cat >"$T/bin/ssh" <<EOS
#!/usr/bin/env bash
while [ "\$1" = -o ]; do shift 2; done # the options rsh.sh adds
shift # the host
printf '%s\n' "\$*" >>"$T/ssh.log"
cd "$T/remote" || exit 1
setsid bash -c "\$*" &
wait \$!
EOS
chmod +x "$T/bin/ssh"
mkdir -p "$T/remote"
export ZCB_RSH="$T/bin/ssh otherhost"
set -m # background jobs in groups of their own, as at a terminal

wait_exit() { # wait_exit PID SECONDS: its status in rc
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -lt "$deadline" ] || zcb_fail "still running $2 s after the signal"
		sleep 0.1
	done
	wait "$1"
	rc=$?
}

remote_pid() { # remote_pid FILE: the PID the remote side reported
	local p=""
	for _ in $(seq 1 100); do
		p=$(sed -n 's/^zcb-remote-pid \([0-9]*\)$/\1/p' "$1" 2>/dev/null | head -1)
		[ -n "$p" ] && break
		sleep 0.1
	done
	echo "$p"
}

# shellcheck disable=SC2016 # literal: it must not run anywhere
label="zcbtest$$"'x$(touch PWNED)`touch PWNED2`;touch PWNED3'
# the transfers run niced: they only have to be running when the signal
# comes, and the timing-sensitive tests beside this one need the CPUs
for sig in TERM INT; do
	out="$T/zvc-$sig"
	nice -n 19 "$S/zc-vs-copy" --to 127.0.0.1 --methods write --repeat 1 --duration 60s \
		--source-size 1M --cpu procstat --label "$label" --out "$out" >"$T/zvc.out" 2>&1 &
	z=$!
	zcb_track "$z"
	rpid=$(remote_pid "$out/logs/ttcp-sf/write-32768-r1.recv.txt")
	[ -n "$rpid" ] || zcb_fail "zc-vs-copy: no receiver started: $(cat "$T/zvc.out")"
	zcb_track "$rpid"
	for _ in $(seq 1 50); do
		grep -q "^ttcp-r: accept" "$out/logs/ttcp-sf/write-32768-r1.recv.txt" 2>/dev/null && break
		sleep 0.1
	done
	if [ $sig = INT ]; then kill -INT -- "-$z"; else kill -TERM "$z"; fi
	wait_exit "$z" 15
	zcb_wait_gone "$rpid" 5 || zcb_fail "zc-vs-copy SIG$sig: the remote receiver $rpid still runs"
	if pgrep -f "zcbtest$$" >/dev/null; then
		zcb_fail "zc-vs-copy SIG$sig: a process of this run still runs: $(pgrep -af "zcbtest$$")"
	fi
done
compgen -G "$T/remote/PWNED*" >/dev/null && zcb_fail "the label ran as shell code on the other host"
grep -q "ttcp-sf.*label" "$T/ssh.log" || zcb_fail "the stand-in ssh was not used"
zcb_ok "zc-vs-copy --to via ssh: SIGTERM and Ctrl-C stop the remote receiver; the label stays a string"

nice -n 19 "$S/zc-files" --to 127.0.0.1 --methods write --files 2 --size 256k --loops 1000000 \
	--repeat 1 --cpu procstat --bin-dir "$ZCB_BUILDDIR" --label "$label" \
	--out "$T/zcf" >"$T/zcf.out" 2>&1 &
z=$!
zcb_track "$z"
zpid=$(remote_pid "$T/zcf/logs/zcs.txt")
[ -n "$zpid" ] || zcb_fail "zc-files: zcs did not start: $(cat "$T/zcf.out")"
zcb_track "$zpid"
sleep 1
kill -TERM "$z"
wait_exit "$z" 15
zcb_wait_gone "$zpid" 5 || zcb_fail "zc-files SIGTERM: the remote zcs $zpid still runs"
if pgrep -f "zcbtest$$" >/dev/null; then
	zcb_fail "zc-files SIGTERM: a process of this run still runs: $(pgrep -af "zcbtest$$")"
fi
compgen -G "$T/remote/PWNED*" >/dev/null && zcb_fail "the label ran as shell code on the other host"
zcb_ok "zc-files --to via ssh: SIGTERM stops zcc and the remote zcs"
