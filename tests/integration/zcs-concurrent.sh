#!/usr/bin/env bash
# zcs-concurrent.sh: 64 clients at once move exact byte counts, through
# the event loop (8 zcc processes x -P 8, each process its own loop
# count), and 16 through --fork; zcs reports every connection's exact
# payload and header bytes in its result document.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
T=$ZCB_TEST_TMP
head -c 100000 /dev/urandom >"$T/a"
head -c 12345 /dev/urandom >"$T/b"
per_loop=112345

run_clients() { # run_clients NAME PROCS PER-PROC: process k sends k loops
	local name=$1 procs=$2 par=$3 k pids=()
	for k in $(seq 1 "$procs"); do
		"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" -P "$par" -n "$k" --timeout 60 \
			--output "$T/$name-zcc$k.json" "$T/a" "$T/b" >"$T/$name-zcc$k.out" 2>&1 &
		pids+=($!)
		zcb_track $!
	done
	for k in $(seq 1 "$procs"); do
		wait "${pids[$((k - 1))]}" || zcb_fail "$name: zcc $k failed: $(cat "$T/$name-zcc$k.out")"
		jq -e --argjson b $((k * per_loop * par)) '.status == "ok" and .cases[0].samples[0].bytes == $b' \
			"$T/$name-zcc$k.json" >/dev/null || zcb_fail "$name: zcc $k document: $(cat "$T/$name-zcc$k.json")"
	done
}

check_server() { # check_server NAME PROCS PER-PROC
	local name=$1 procs=$2 par=$3 want got
	zcs_doc_wait "$T/$name.json"
	jq -e '.status == "ok"' "$T/$name.json" >/dev/null || zcb_fail "$name: zcs document failed"
	# each connection of process k: k loops of 2 files
	want=$(for k in $(seq 1 "$procs"); do for _ in $(seq 1 "$par"); do
		echo "ok $((k * per_loop)) $((4 + k * 12))"; done; done | sort | uniq -c)
	got=$(jq -r '.cases[0].samples[] | "\(.result) \(.payload_bytes) \(.header_bytes)"' "$T/$name.json" | sort | uniq -c)
	[ "$want" = "$got" ] || zcb_fail "$name: per-connection totals differ: want
$want
got
$got"
	n=$(jq '.cases[0].samples | length' "$T/$name.json")
	[ "$n" = $((procs * par)) ] || zcb_fail "$name: $n connections recorded"
}

# one zcc -P 64: every connection is open before any sends (its barrier)
zcs_start all -v --output "$T/all.json" --exit-after 64
run_clients all 1 64
zcs_wait_end "$ZCS_PID"
check_server all 1 64
peak=$(jq .server.peak "$T/all.json")
[ "$peak" = 64 ] || zcb_fail "all: at most $peak connections at once, want 64"
zcb_ok "64 concurrent connections from one zcc -P 64: all open at once, exact bytes each"

zcs_start epoll -v --output "$T/epoll.json" --exit-after 64
run_clients epoll 8 8
zcs_wait_end "$ZCS_PID"
check_server epoll 8 8
zcb_ok "64 connections from 8 zcc processes (epoll): exact payload and header bytes each"

zcs_start fork -v --fork --output "$T/fork.json" --exit-after 16
run_clients fork 4 4
zcs_wait_end "$ZCS_PID"
check_server fork 4 4
zcb_ok "16 concurrent connections (--fork): exact payload and header bytes each"

# every receive method that runs here, 4 connections each, exact bytes
for m in read trunc splice zerocopy-receive; do
	"$ZCS" --method=help 2>/dev/null | sed -n '/^receive/,$p' | grep -Eq "^  $m +ok " || continue
	zcs_start "m-$m" --method "$m" --output "$T/m-$m.json" --exit-after 4
	"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" -P 4 -n 3 -C "$T/a" "$T/b" >"$T/m-$m.out" 2>&1 ||
		zcb_fail "receive method $m: zcc failed: $(cat "$T/m-$m.out")"
	zcs_wait_end "$ZCS_PID"
	got=$(jq -c '[.cases[0].samples[] | [.result, .payload_bytes, .header_bytes]] | unique' "$T/m-$m.json")
	[ "$got" = '[["ok",337035,52]]' ] || zcb_fail "receive method $m: $got"
	zcb_ok "zcs --method $m: 4 connections, exact bytes"
done
