#!/usr/bin/env bash
# fanout-local.sh: what fanout, zc-vs-copy and zc-files hand the remote
# shell, and how many remote shells fanout runs at once, without real
# hosts (issue 22). The remote shell is a stand-in named ssh (so rsh.sh
# treats it as one: its options, "--", one quoted command line) that
# runs the command here, logs its argv and counts the calls running at
# once; the client tool is a stand-in too (its --version, a document).
# 1. A host beginning with '-' ("-Fevilcfg": ssh would read a config
#    file) is refused with one line naming it, and the remote shell never
#    runs: in a fanout host list, and as zc-vs-copy's and zc-files' --to.
# 2. Every call puts "--" right before the host: fanout's checks, its
#    clients and their stops; zc-vs-copy --to 127.0.0.1 through a default
#    "ssh" (a real run on loopback).
# 3. --fanout N (default 32, as pdsh's -f): a run of more clients than N
#    is refused before any host is asked (5 clients, --fanout 4; 33 hosts
#    by default); 8 clients with --fanout 8 run, never more than 8 remote
#    shells at once, the start barrier releasing them together.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
T=$ZCB_TEST_TMP
FO="$ZCB_SRCDIR/scripts/fanout"
mkdir -p "$T/bin"
export FAKE_LOG="$T/rsh.log" FAKE_LIVE="$T/rsh.live" FAKE_MAX="$T/rsh.max"

# the remote shell: ssh [-o OPT]... [--] HOST 'COMMAND LINE'
cat >"$T/bin/ssh" <<'EOS'
#!/usr/bin/env bash
dashes=0
while [ $# -gt 0 ]; do
	case "$1" in
	--) dashes=1; shift; break ;;
	-o|-i|-l|-p) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
host=${1:-}
shift
exec 9>>"$FAKE_LIVE.lock"
flock 9
echo "dashes=$dashes host=$host" >>"$FAKE_LOG"
n=$(($(cat "$FAKE_LIVE" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_LIVE"
[ "$n" -le "$(cat "$FAKE_MAX" 2>/dev/null || echo 0)" ] || echo "$n" >"$FAKE_MAX"
flock -u 9
trap 'kill -TERM $c 2>/dev/null' TERM INT HUP
sh -c "$*" 9>&- &
c=$!
wait $c
rc=$?
[ $rc -lt 128 ] || wait $c
flock 9
echo $(($(cat "$FAKE_LIVE") - 1)) >"$FAKE_LIVE"
exit $rc
EOS
# the client: "faketool zcbench 1", or a document (-J) of one sample
cat >"$T/bin/faketool" <<EOS
#!/usr/bin/env bash
[ "\${1:-}" = --version ] && { echo "faketool zcbench 1"; exit 0; }
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
MK_TOOL=faketool MK_VALUES=100 mkdoc /dev/stdout k 100 0 1 1
EOS
chmod +x "$T/bin/ssh" "$T/bin/faketool"
export PATH="$T/bin:$PATH"
fresh() { rm -f "$FAKE_LOG" "$FAKE_LIVE" "$FAKE_MAX"; }
# fo NAME ARGS...: fanout, output in $T/NAME.out and .err, status in rc
fo() {
	local n=$1
	shift
	rc=0
	"$FO" "$@" >"$T/$n.out" 2>"$T/$n.err" || rc=$?
}
# refused NAME PATTERN: exit 2, one line matching, the remote shell not run
refused() {
	[ $rc = 2 ] || zcb_fail "$1: exit $rc, want 2: $(cat "$T/$1.out" "$T/$1.err")"
	if [ "$(wc -l <"$T/$1.err")" != 1 ] || ! grep -Eq -- "$2" "$T/$1.err"; then
		zcb_fail "$1: want one line /$2/, got: $(cat "$T/$1.err")"
	fi
	[ ! -e "$FAKE_LOG" ] || zcb_fail "$1: the remote shell ran: $(cat "$FAKE_LOG")"
}

# 1. a host that would be an option
fresh
printf 'h1\n-Fevilcfg\n' >"$T/evil"
fo evil --hosts "$T/evil" -- "$T/bin/faketool"
refused evil "host list $T/evil: line 2: host -Fevilcfg begins with '-'"
TTCP=$(zcb_bin ttcp-sf) || exit 1
rc=0
"$ZCB_SRCDIR/scripts/zc-vs-copy" --to -Fevilcfg --bin "$TTCP" --out "$T/zvc-evil" \
	>"$T/zvc-evil.out" 2>"$T/zvc-evil.err" || rc=$?
refused zvc-evil "^zc-vs-copy: --to -Fevilcfg: a host name or address never begins with '-'"
rc=0
"$ZCB_SRCDIR/scripts/zc-files" --to -Fevilcfg --bin-dir "$ZCB_BUILDDIR" --out "$T/zcf-evil" \
	>"$T/zcf-evil.out" 2>"$T/zcf-evil.err" || rc=$?
refused zcf-evil "^zc-files: --to -Fevilcfg: a host name or address never begins with '-'"
zcb_ok "a host beginning with '-': refused by name, the remote shell never ran (fanout, zc-vs-copy, zc-files)"

# 2. and 3. eight clients on four hosts, --fanout 8
fresh
printf 'h1 2\nh2 2\nh3 2\nh4 2\n' >"$T/four"
fo run --hosts "$T/four" --fanout 8 --start-delay 1 --out "$T/run" -- "$T/bin/faketool"
[ $rc = 0 ] || zcb_fail "8 clients, --fanout 8: exit $rc: $(cat "$T/run.out" "$T/run.err")"
[ "$(jq '.fanout.clients | length' "$T/run/fanout.json")" = 8 ] || zcb_fail "8 clients: not 8 in fanout.json"
grep -q '^faketool on 4 hosts, 8 clients' "$T/run.out" || zcb_fail "8 clients: no table: $(cat "$T/run.out")"
[ "$(cat "$FAKE_MAX")" -le 8 ] || zcb_fail "--fanout 8: $(cat "$FAKE_MAX") remote shells at once"
[ "$(grep -c . "$FAKE_LOG")" -ge 12 ] || zcb_fail "want 4 checks and 8 clients, logged: $(cat "$FAKE_LOG")"
! grep -v '^dashes=1 host=h[1-4]$' "$FAKE_LOG" || zcb_fail "a call without -- before its host (above)"
zcb_ok "8 clients with --fanout 8: run, at most $(cat "$FAKE_MAX") remote shells at once, each call with -- before the host"

fresh
printf 'h1\nh2\nh3\nh4\nh5\n' >"$T/five"
fo over --hosts "$T/five" --fanout 4 -- "$T/bin/faketool"
refused over "^fanout: 5 clients on 5 hosts, more than --fanout 4 at once: the start barrier"
seq -f 'h%g' 1 33 >"$T/many"
fo many --hosts "$T/many" --start-delay 1 -- "$T/bin/faketool"
refused many "^fanout: 33 clients on 33 hosts, more than --fanout 32 at once"
printf 'h1 3\nh2 3\n' >"$T/copt"
fo copt --hosts "$T/copt" --count-opt -n --fanout 1 -- "$T/bin/faketool"
refused copt "^fanout: 2 clients on 2 hosts, more than --fanout 1 at once"
for bad in 0 x 1000000; do
	fo bad --hosts "$T/four" --fanout "$bad" -- "$T/bin/faketool"
	refused bad "^fanout: --fanout $bad: the most clients at once"
done
zcb_ok "more clients than --fanout (default 32): refused before any host is asked"

# zc-vs-copy --to through the default "ssh": -- before the host
fresh
rc=0
env -u ZCB_RSH "$ZCB_SRCDIR/scripts/zc-vs-copy" --to 127.0.0.1 --bin "$TTCP" \
	--methods write --repeat 1 --duration 0.3s --source-size 4M --cpu procstat \
	--out "$T/zvc" >"$T/zvc.out" 2>"$T/zvc.err" || rc=$?
[ $rc = 0 ] || zcb_fail "zc-vs-copy --to 127.0.0.1 via ssh: exit $rc: $(cat "$T/zvc.err")"
[ "$(find "$T/zvc/ttcp-sf" -name '*.json' | wc -l)" = 1 ] || zcb_fail "zc-vs-copy: no document"
grep -q . "$FAKE_LOG" || zcb_fail "zc-vs-copy: the remote shell was not used"
! grep -vx 'dashes=1 host=127.0.0.1' "$FAKE_LOG" || zcb_fail "zc-vs-copy: a call without -- before its host (above)"
zcb_ok "zc-vs-copy --to via ssh: every call with -- before the host"
