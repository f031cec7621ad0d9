#!/usr/bin/env bash
# emfile: a server out of file descriptors (a low RLIMIT_NOFILE, more
# clients than it allows) does not spin on its readable listener: zcs
# (event loop) and the chatbench servers (epoll and threads) rest their
# accepts, say so in a few lines rather than a flood, and accept again
# once descriptors are free. The CPU bound is generous (under 20% of one
# CPU over 2 s): it tells a spin (100%) from a rest, it times nothing.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
source "$ZCB_SRCDIR/tests/integration/chatbench-lib.sh"
zcb_need_cmd prlimit util-linux
zcb_need_cmd jq
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP
HZ=$(getconf CLK_TCK)
head -c 100000 /dev/urandom >"$T/a"

# ticks PID: its user + system CPU time in clock ticks
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# few N: N is 1 or 2 (a line when it starts, not one per accept)
few() { [ "$1" -ge 1 ] && [ "$1" -le 2 ]; }

# no_spin NAME PID: under 20% of one CPU over 2 s
no_spin() {
	local t0 t1 used
	sleep 0.5 # past the first accepts
	t0=$(ticks "$2")
	sleep 2
	t1=$(ticks "$2")
	used=$((t1 - t0))
	[ "$used" -lt $((HZ * 2 / 5)) ] ||
		zcb_fail "$1: $used ticks of CPU in 2 s ($HZ/s): spinning on EMFILE"
	echo "$1: $used ticks in 2 s"
}

# zcs: 20 descriptors, 40 clients holding theirs
"$ZCS" -p 0 --bind 127.0.0.1 --port-file "$T/zcs.port" --output "$T/zcs.json" \
	>"$T/zcs.out" 2>"$T/zcs.err" &
ZCS_PID=$!
zcb_track "$ZCS_PID"
for _ in $(seq 1 100); do [ -s "$T/zcs.port" ] && break; sleep 0.05; done
ZCS_PORT=$(cat "$T/zcs.port")
prlimit --pid "$ZCS_PID" --nofile=20:20 || zcb_skip "prlimit cannot set RLIMIT_NOFILE"
zcb_hold "$ZCS_PORT" 40
no_spin zcs "$ZCS_PID"
n=$(grep -c "accept: Too many open files" "$T/zcs.err")
few "$n" || zcb_fail "zcs: $n EMFILE lines: $(head -5 "$T/zcs.err")"
grep -q "open file limit 20" "$T/zcs.err" || zcb_fail "zcs: the limit is not named: $(head -3 "$T/zcs.err")"
zcb_release
# descriptors free again: a real client is served
"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" --timeout 20 "$T/a" >"$T/zcc.out" 2>&1 ||
	zcb_fail "zcc after EMFILE: $(cat "$T/zcc.out")"
zcs_stop "$ZCS_PID"
jq -e '[.cases[0].samples[] | select(.result == "ok")] | length == 1' "$T/zcs.json" >/dev/null ||
	zcb_fail "zcs: the client after EMFILE was not served: $(jq -c '[.cases[0].samples[].result]' "$T/zcs.json")"
zcb_ok "zcs: EMFILE rests the listener (no spin, one line), accepts again after"

# chatbench servers: both models
for model in epoll threads; do
	start_server "$T/cb-$model.log" --model "$model"
	prlimit --pid "$spid" --nofile=24:24 || zcb_skip "prlimit cannot set RLIMIT_NOFILE"
	zcb_hold "$port" 40
	no_spin "chatbench $model" "$spid"
	n=$(grep -c "accept: Too many open files" "$T/cb-$model.log")
	few "$n" || zcb_fail "chatbench $model: $n EMFILE lines: $(head -5 "$T/cb-$model.log")"
	zcb_release
	"$B" --host 127.0.0.1 --port "$port" --model "$model" -r 1 -u 2 -m 10 -t 20 \
		>"$T/cb-$model.out" 2>&1 || zcb_fail "chatbench $model after EMFILE: $(cat "$T/cb-$model.out")"
	kill -INT "$spid"
	zcb_wait_gone "$spid" 15 || zcb_fail "chatbench $model server did not stop"
	zcb_ok "chatbench $model: EMFILE rests the accepts (no spin, one line), accepts again after"
done
