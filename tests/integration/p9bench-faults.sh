#!/usr/bin/env bash
# p9bench-faults.sh: a 9P server that dies or stalls mid-sweep ends the run
# with a clear error naming the server and the phase and a failed result
# document, never a hang; attach refused (EPERM) says what to do; SIGINT
# stops cleanly; bad usage exits 2.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd diod
zcb_need_cmd jq
P9=$(zcb_bin p9bench) || exit 1
PEER="$ZCB_SRCDIR/scripts/peer-diod"
T=$ZCB_TEST_TMP

start_diod() { # start_diod [diod args...]: sets pid addr export
	read -r pid addr export _ < <("$PEER" start -- "$@") || zcb_fail "diod did not start"
	zcb_track "$pid"
	zcb_on_exit "rm -rf '$(dirname "$export")'"
}

# wait_exit PID SECONDS: until it exits (then its status is in $rc)
wait_exit() {
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -lt $deadline ] || zcb_fail "p9bench still running after $2 s (hang)"
		sleep 0.1
	done
	wait "$1"
	rc=$?
}

# 1. the server dies mid-sweep
start_diod
"$P9" -s "$addr" -a "$export" --ops 100M --sizes 4096 --op write --file-size 1M \
	--server-pid "$pid" -o "$T/d1.json" >"$T/out1" 2>"$T/err1" &
p9=$!
zcb_track "$p9"
sleep 1
kill -KILL "$pid"
wait_exit "$p9" 30
[ "$rc" = 1 ] || zcb_fail "exit $rc after the server died, expected 1"
grep -q "write of 4096 bytes, copy path (repeat 1): 9P server $addr" "$T/err1" ||
	zcb_fail "error does not name phase and server: $(cat "$T/err1")"
grep -Eq "closed the connection|reset by peer" "$T/err1" || zcb_fail "error does not say why: $(cat "$T/err1")"
grep -q "server process $pid is gone" "$T/err1" || zcb_fail "error does not say the server process went"
[ "$(jq -r .status "$T/d1.json")" = failed ] || zcb_fail "document not failed"
jq -r .error "$T/d1.json" | grep -q "9P server $addr" || zcb_fail "document error does not name the server"
zcb_ok "server killed mid-sweep: exit 1, error names server and phase, failed document"

# 2. the server stalls (SIGSTOP): --timeout ends the run
start_diod
"$P9" -s "$addr" -a "$export" --ops 100M --sizes 512 --op write --file-size 1M \
	--timeout 1 -o "$T/d2.json" >"$T/out2" 2>"$T/err2" &
p9=$!
zcb_track "$p9"
zcb_on_exit "kill -CONT $pid"
sleep 1
kill -STOP "$pid"
wait_exit "$p9" 30
kill -CONT "$pid"
[ "$rc" = 1 ] || zcb_fail "exit $rc after the server stalled, expected 1"
grep -q "9P server $addr: no progress for 1000 ms" "$T/err2" || zcb_fail "stall not reported: $(cat "$T/err2")"
[ "$(jq -r .status "$T/d2.json")" = failed ] || zcb_fail "document not failed"
zcb_ok "stalled server: timeout after 1 s, failed document"

# 3. SIGINT stops cleanly: tables, summary, failed document, 128 + 2
"$P9" -s "$addr" -a "$export" --duration 60 --sizes 4096 -o "$T/d3.json" >"$T/out3" 2>"$T/err3" &
p9=$!
zcb_track "$p9"
sleep 1
kill -INT "$p9"
wait_exit "$p9" 20
[ "$rc" = 130 ] || zcb_fail "exit $rc after SIGINT, expected 130"
tail -1 "$T/out3" | grep -q "interrupted" || zcb_fail "no summary after SIGINT"
jq -r .error "$T/d3.json" | grep -q "interrupted by signal 2" || zcb_fail "document does not say interrupted"
[ -e "$export/p9bench.$p9.dat" ] && zcb_fail "test file left after SIGINT"
zcb_ok "SIGINT: exit 130, summary, failed document, test file removed"
"$PEER" stop "$pid" "$export"

# 4. attach refused: a diod that accepts only uid 1000
start_diod -u 1000
chmod 755 "$(dirname "$export")"
chmod 777 "$export"
zcb_expect_fail "attach as root" "$P9" -s "$addr" -a "$export" --ops 1 --sizes 1 --uid 0 -o "$T/d4.json"
grep -q "Tattach '$export' as uid 0: Operation not permitted" "$T/err" || zcb_fail "EPERM not reported: $(cat "$T/err")"
if [ "$(id -u)" != 1000 ]; then
	zcb_expect_fail "attach as default uid" "$P9" -s "$addr" -a "$export" --ops 1 --sizes 1
	grep -q -- "--uid" "$T/err" || zcb_fail "EPERM without a hint: $(cat "$T/err")"
fi
"$P9" -s "$addr" -a "$export" --ops 5 --sizes 64 --uid 1000 -o "$T/d4.json" >/dev/null 2>"$T/err4" ||
	zcb_fail "attach as uid 1000 failed: $(cat "$T/err4")"
[ "$(jq -r .status "$T/d4.json")" = ok ] || zcb_fail "uid 1000 run not ok"
zcb_ok "attach EPERM reported with a hint; --uid 1000 works"
"$PEER" stop "$pid" "$export"

# 5. nobody listening; bad usage
port=$(zcb_free_port)
zcb_expect_fail "no server" "$P9" -s "127.0.0.1:$port" --ops 1 -o "$T/d5.json"
grep -q "9P server 127.0.0.1:$port: cannot connect" "$T/err" || zcb_fail "refused not reported: $(cat "$T/err")"
[ "$(jq -r .status "$T/d5.json")" = failed ] || zcb_fail "no failed document when refused"
for args in "--path bogus -s x" "--qd 0 -s x" "--ops 1" "-s x --mount /tmp" \
	"-s x --ops 5 --duration 1" "--mount /tmp --qd 4" "-s x --sizes 1,zz" \
	"-s x --file a/b" "--mount /tmp --sizes max" "-s x --odirect"; do
	# shellcheck disable=SC2086
	"$P9" $args >/dev/null 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || zcb_fail "p9bench $args: exit $rc, expected 2"
	[ "$(wc -l <"$T/err")" = 1 ] || zcb_fail "p9bench $args: not one line: $(cat "$T/err")"
done
"$P9" --help | grep -q "^usage: p9bench" || zcb_fail "--help"
zcb_ok "refused connection and bad usage"
exit 0
