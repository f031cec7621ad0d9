#!/usr/bin/env bash
# peer-ganesha-hostile.sh: scripts/peer-ganesha with hostile input. A --port
# holding a command never runs it; a path that would break ganesha.conf is
# refused before anything starts, one with a space is quoted; `stop` with
# stale PID files signals nothing that is not its own ganesha and removes
# no namespace it did not make; a user who is not root cannot reach the
# export as root (privileged ports only).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
PG="$ZCB_SRCDIR/scripts/peer-ganesha"
T=$ZCB_TEST_TMP
cd "$T" || exit 1

# 1. option values: refused with exit 2, nothing run
# shellcheck disable=SC2016 # literal: the script must not run it
for port in '2049; touch MARK' '$(touch MARK)' 0 65536 ' 2049' 20x49; do
	rc=0
	"$PG" start --port "$port" --state "$T/st-port" >"$T/out" 2>&1 || rc=$?
	[ -e "$T/MARK" ] && zcb_fail "--port '$port' ran a command"
	[ $rc = 2 ] || zcb_fail "--port '$port': exit $rc, want 2: $(cat "$T/out")"
	[ -e "$T/st-port/ganesha.conf" ] && zcb_fail "--port '$port': a configuration was written"
done
rc=0; "$PG" start --vers '4; touch MARK' >"$T/out" 2>&1 || rc=$?
{ [ $rc = 2 ] && [ ! -e "$T/MARK" ]; } || zcb_fail "bad --vers: exit $rc"
rc=0; "$PG" start --port >"$T/out" 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "--port without a value: exit $rc"
zcb_ok "hostile --port and --vers refused (exit 2), no command run"

# 2. paths that would end the string or the block in ganesha.conf
n=0
# shellcheck disable=SC2016 # literal '$'
for bad in 'q"uote' $'new\nline' 'br}ace' 'semi;colon' 'hash#' 'back\slash' 'dol$lar'; do
	n=$((n + 1))
	mkdir -p "$T/ex$n/$bad"
	rc=0
	"$PG" start --export "$T/ex$n/$bad" --state "$T/st$n" >"$T/out" 2>&1 || rc=$?
	[ $rc = 2 ] || zcb_fail "export $(printf '%q' "$bad"): exit $rc, want 2: $(cat "$T/out")"
	[ -e "$T/st$n/ganesha.conf" ] && zcb_fail "export $(printf '%q' "$bad"): ganesha.conf written"
	mkdir -p "$T/sx$n/$bad"
	rc=0
	"$PG" start --state "$T/sx$n/$bad" >"$T/out" 2>&1 || rc=$?
	[ $rc = 2 ] || zcb_fail "state $(printf '%q' "$bad"): exit $rc, want 2: $(cat "$T/out")"
	[ -e "$T/sx$n/$bad/ganesha.conf" ] && zcb_fail "state $(printf '%q' "$bad"): ganesha.conf written"
done
zcb_ok "paths with quote, newline, brace, ';', '#', backslash, '\$' refused before starting"

# 3. stale PID files: a process of ours that is not ganesha survives stop
sleep 60 &
victim=$!
zcb_track "$victim"
st="$T/stale"
mkdir -p "$st"
for f in ganesha.pid.real rpcbind.pid.real wrapper.pid; do echo "$victim" >"$st/$f"; done
vns=""
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns add "zcbtest-victim-$$" 2>/dev/null; then
	vns="zcbtest-victim-$$"
	zcb_on_exit "ip netns del '$vns'"
	echo "$vns" >"$st/netns"
fi
"$PG" stop "$st" >"$T/out" 2>&1
sleep 0.2
kill -0 "$victim" 2>/dev/null || zcb_fail "stop signalled PID $victim (a sleep) from a stale PID file"
grep -q "not signalled" "$T/out" || zcb_fail "stop did not say it left $victim alone: $(cat "$T/out")"
if [ -n "$vns" ]; then
	ip netns list | grep -qw "$vns" || zcb_fail "stop removed namespace $vns it did not make"
fi
zcb_ok "stale PID files: the unrelated process and namespace are left alone"

# 4. a real ganesha: a quoted path with a space; only root reaches it
if [ "$(id -u)" != 0 ] || ! command -v ganesha.nfsd >/dev/null || ! command -v setpriv >/dev/null; then
	zcb_ok "(real ganesha part skipped: needs root, nfs-ganesha and setpriv)"
	exit 0
fi
NB=$(zcb_bin nfsbench) || exit 0
if "$NB" "nfs://127.0.0.1/x/y" --max-time 0.1 -t 1 -q 2>&1 | grep -q "need libnfs"; then
	zcb_ok "(real ganesha part skipped: nfsbench without libnfs)"
	exit 0
fi
ex="$T/ex port"
mkdir -p "$ex" "$T/gst"
zcb_on_exit "'$PG' stop '$T/gst'"
if ! "$PG" start --export "$ex" --state "$T/gst" >"$T/pg.out" 2>&1; then
	cat "$T/pg.out" >&2
	grep -q "libfsalvfs\|Can not load FSAL\|FSAL VFS" "$T/gst/ganesha.log" 2>/dev/null &&
		zcb_skip "ganesha has no VFS FSAL"
	zcb_fail "ganesha did not start with an export path holding a space"
fi
gpid=$("$PG" get "$T/gst" PID)
url="$("$PG" get "$T/gst" URL)"
q="$("$PG" get "$T/gst" QUERY)"
"$NB" -w -q -b 2k -s 1k "$url/byroot?$q" -o "$T/w.json" >/dev/null 2>&1 ||
	zcb_fail "root cannot write through the export: $(jq -r .error "$T/w.json")"
[ -f "$ex/byroot.0" ] || [ -f "$ex/byroot" ] || zcb_fail "root's file is not in the export: $(ls "$ex")"
# another user, claiming uid 0 (AUTH_SYS believes it) from a normal port
mkdir -p "$T/nobody"
cp "$NB" "$T/nobody/nfsbench"
chmod 755 "$T" "$T/nobody" "$T/nobody/nfsbench"
setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_STATE_HOME="$T/nobody" \
	"$T/nobody/nfsbench" -w -q -b 2k -s 1k --max-time 5 "$url/stranger?$q&uid=0&gid=0" \
	>/dev/null 2>&1
if compgen -G "$ex/stranger*" >/dev/null; then
	zcb_fail "a non-root user wrote $(stat -c '%n owned by uid %u' "$ex"/stranger*) as root through ganesha"
fi
"$PG" stop "$T/gst" || zcb_fail "stop failed"
zcb_wait_gone "$gpid" 2 || zcb_fail "ganesha $gpid still running after stop"
zcb_ok "a path with a space is quoted; root writes; a non-root user claiming uid 0 is refused; stop ends ganesha"
