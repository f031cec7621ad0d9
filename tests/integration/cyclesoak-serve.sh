#!/usr/bin/env bash
# cyclesoak-serve: the daemon's line protocol: greetings, windows with
# figures, bad and over-long lines (answered, connection still usable),
# many clients each with its own window, a client that vanishes, the
# client cap, and SIGTERM. Real connections over loopback.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
T=$ZCB_TEST_TMP

"$CS" --serve --port 0 --max-clients 12 -v >"$T/serve.out" 2>"$T/serve.err" &
SP=$!
zcb_track $SP
for _ in $(seq 1 100); do
	PORT=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$T/serve.out")
	[ -n "$PORT" ] && break
	sleep 0.05
done
[ -n "$PORT" ] || zcb_fail "server did not say its port: $(cat "$T/serve.err")"
grep -q "serving on 127.0.0.1 port" "$T/serve.out" || zcb_fail "not on loopback by default"

# ask FD CMD: send one line, read one reply line into REPLY
ask() {
	printf '%s\n' "$2" >&"$1"
	IFS= read -r -t 10 REPLY <&"$1" || zcb_fail "no reply to \"${2:0:40}\""
	REPLY=${REPLY%$'\r'}
}
expect() { # FD CMD PATTERN
	ask "$1" "$2"
	[[ $REPLY =~ $3 ]] || zcb_fail "\"${2:0:40}\": got \"${REPLY:0:200}\", want /$3/"
}

exec {A}<>"/dev/tcp/127.0.0.1/$PORT"
expect $A HELLO "^OK zcbench-soak/1 host=[^ ]+ cpus=$NCPU default=procstat$"
expect $A PING "^OK PONG$"
expect $A "frobnicate now" "^ERR unknown command frobnicate$"
expect $A "STOP" "^ERR no window open"
expect $A "REPORT" "^ERR no window open"
expect $A "STOP please" "^ERR STOP takes no argument$"
expect $A "START bogus" "^ERR unknown CPU meter \"bogus\""
expect $A "START soak;reboot" "^ERR bad meter list"
expect $A "CALIB" "^ERR no calibration"
expect $A "$(head -c 5000 /dev/zero | tr '\0' A)" "^ERR line too long"
expect $A PING "^OK PONG$"
zcb_ok "greetings and errors; the connection stays usable"

expect $A "START procstat,rusage" "^OK [0-9]+$"
W=${REPLY#OK }
expect $A "START" "^ERR window $W already open"
sleep 0.3
expect $A REPORT "^OK \{"
echo "${REPLY#OK }" | jq -e --argjson w "$W" '.window == $w and .host.hostname != null and
	(.cpu | map(.meter)) == ["procstat", "rusage"] and .cpu[0].ok and .elapsed_s > 0.2' \
	>/dev/null || zcb_fail "REPORT: $REPLY"
expect $A STOP "^OK \{"
echo "${REPLY#OK }" | jq -e --argjson n "$NCPU" '.cpu[0].meter == "procstat" and
	.cpu[0].ncpu == $n and (.cpu[0].percpu_busy_pct | length) == $n and
	.cpu[0].busy_pct >= 0 and .cpu[0].busy_pct <= 100' >/dev/null || zcb_fail "STOP: $REPLY"
expect $A STOP "^ERR no window open"
expect $A HOST "^OK \{\"hostname\""
zcb_ok "a window: START, REPORT, STOP"

# many clients at once, each its own window
fds=()
for _ in $(seq 1 10); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
	fds+=("$fd")
	expect "$fd" "START procstat" "^OK [0-9]+$"
	echo "${REPLY#OK }" >>"$T/ids"
done
[ "$(sort -u "$T/ids" | wc -l)" -eq 10 ] || zcb_fail "window ids not distinct: $(tr '\n' ' ' <"$T/ids")"
# A, the 10 and X make 12 (--max-clients 12): the 13th is refused
exec {X}<>"/dev/tcp/127.0.0.1/$PORT"
exec {Y}<>"/dev/tcp/127.0.0.1/$PORT"
IFS= read -r -t 10 REPLY <&$Y || zcb_fail "13th client got no reply"
[[ $REPLY =~ ^ERR\ too\ many\ clients ]] || zcb_fail "13th client: $REPLY"
exec {Y}>&-
expect $X PING "^OK PONG$"
# every window at least 0.6 s (120 of /proc/stat's ticks on 2 CPUs), so an
# idle one is a figure ("under 1%"), not below the meter's resolution
sleep 0.6
for fd in "${fds[@]}"; do
	expect "$fd" STOP "^OK \{"
	echo "${REPLY#OK }" | jq -e '.cpu[0].ok' >/dev/null || zcb_fail "window of fd $fd: $REPLY"
	exec {fd}>&-
done
zcb_ok "10 clients with their own windows; the client cap holds"

# a client that vanishes mid-window ends it; the server goes on
exec {V}<>"/dev/tcp/127.0.0.1/$PORT"
expect $V "START procstat" "^OK "
exec {V}>&-
sleep 0.3
expect $A PING "^OK PONG$"
grep -q "gone (window ended)" "$T/serve.err" || zcb_fail "vanished client's window not ended: $(cat "$T/serve.err")"
expect $A QUIT "^OK bye$"
IFS= read -r -t 5 REPLY <&$A && zcb_fail "connection open after QUIT"
zcb_ok "vanished client ends its window; QUIT hangs up"

# with a calibration the soak meter is the default, and CALIB answers
cs_fixture_calibration
expect $X CALIB "^OK \{"
echo "${REPLY#OK }" | jq -e '.schema == "zcbench-soak-calibration/1" and (.path | test("calibration.json"))' \
	>/dev/null || zcb_fail "CALIB: $REPLY"
expect $X HELLO "default=soak$"
cs_lock
expect $X START "^OK "
sleep 0.3
expect $X STOP "^OK \{"
echo "${REPLY#OK }" | jq -e '.cpu[0].meter == "soak" and .cpu[0].ok and (.cpu[0].note | test("soakers"))' \
	>/dev/null || zcb_fail "soak window: $REPLY"
zcb_ok "soak window over the protocol"

kill -TERM $SP
zcb_wait_gone $SP 10 || zcb_fail "server ignored SIGTERM"
wait $SP
rc=$?
grep -q "server stopped" "$T/serve.err" || zcb_fail "no stop line: $(cat "$T/serve.err")"
cs_wait_no_host || zcb_fail "soak host outlived the server"
zcb_ok "SIGTERM stops the server (exit $rc)"
