#!/usr/bin/env bash
# zcs-hostile.sh: absurd headers (2^32-1 loops, files, lengths), short
# streams, a client that stops mid-file and a full house (--max-conns)
# each cost only their own connection, with a log line naming the client
# and the field; a well-behaved zcc streaming meanwhile, and one after,
# still get every byte through.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
T=$ZCB_TEST_TMP
head -c 300000 /dev/urandom >"$T/a"

zcs_start h --max-file-len 1M --idle-timeout 3 --max-conns 12 --output "$T/h.json" -v -I 0.5
# a good client streaming through all of it (about 30 MB, slowed by -b)
"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -S -b 4k --output "$T/good1.json" "$T/a" >"$T/good1.out" 2>&1 &
good=$!
zcb_track $good

send() { # send NAME BYTES...: write the bytes, close
	exec 3<>"/dev/tcp/127.0.0.1/$ZCS_PORT" || zcb_fail "connect for $1"
	shift
	# shellcheck disable=SC2059 # the callers pass the format: bytes as \x escapes
	printf "$@" >&3 2>/dev/null || true
	exec 3>&-
}
send loops '\xff\xff\xff\xff'
send files '\x00\x00\x00\x01\xff\xff\xff\xff'
send len '\x00\x00\x00\x01\x00\x00\x00\x01\xff\xff\xff\xff'
send len2m '\x00\x00\x00\x01\x00\x00\x00\x01\x00\x20\x00\x00'
send shortfile '\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x64abcdefghij'
send shorthdr '\x00\x00'
send hello0 'ZCB1\x00\x00\x00\x00\x00\x00\x00\x00'
send nothing ''
# a client that stops mid-file and stays connected
exec 4<>"/dev/tcp/127.0.0.1/$ZCS_PORT"
printf '\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x10\x00abc' >&4

wait "$good" || zcb_fail "the good client failed beside the hostile ones: $(cat "$T/good1.out")"
jq -e '.status == "ok" and .cases[0].samples[0].bytes == 30000000' "$T/good1.json" >/dev/null ||
	zcb_fail "good client: $(cat "$T/good1.json")"
# the silent one is dropped after --idle-timeout
for _ in $(seq 1 100); do grep -q "timeout" "$T/h.err" && break; sleep 0.1; done
if read -r -t 5 -u 4 _; then zcb_fail "the stalled connection was not closed"; fi
exec 4>&-

# a full house: 12 idle connections, the 13th is turned away, not queued
for i in $(seq 10 21); do eval "exec $i<>/dev/tcp/127.0.0.1/$ZCS_PORT"; done
sleep 0.5
exec 30<>"/dev/tcp/127.0.0.1/$ZCS_PORT"
if read -r -t 5 -u 30 _; then :; fi
for _ in $(seq 1 50); do grep -q "turned away" "$T/h.err" && break; sleep 0.1; done
grep -q "turned away: 12 connections open (--max-conns)" "$T/h.err" || zcb_fail "no --max-conns line: $(cat "$T/h.err")"
for i in $(seq 10 21) 30; do eval "exec $i>&-"; done
sleep 0.5

# and the server still serves
"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" -n 3 --output "$T/good2.json" "$T/a" >"$T/good2.out" 2>&1 ||
	zcb_fail "a client after the hostile ones failed: $(cat "$T/good2.out")"
kill -0 "$ZCS_PID" || zcb_fail "zcs died"
zcs_stop "$ZCS_PID"

# the original's rate lines, aggregate then per client, every period
grep -Eq '^[0-9]+ kbytes/sec$' "$T/h.out" || zcb_fail "no 'N kbytes/sec' line: $(head "$T/h.out")"
grep -Eq '^  127\.0\.0\.1:[0-9]+ +[0-9]+ kbytes/sec$' "$T/h.out" || zcb_fail "no per-client rate line: $(head "$T/h.out")"

E=$T/h.err
expect() { grep -Eq "$1" "$E" || zcb_fail "no log line like /$1/ in: $(cat "$E")"; }
expect "client 127.0.0.1:[0-9]+: refused: loop count 4294967295 exceeds the limit 10000000 \(--max-loops\)"
expect "client 127.0.0.1:[0-9]+: refused: file count 4294967295 exceeds the limit 1000000 \(--max-files\)"
expect "client 127.0.0.1:[0-9]+: refused: file length 4294967295 exceeds the limit 1048576 \(--max-file-len\)"
expect "refused: file length 2097152 exceeds the limit 1048576"
expect "short: closed in the middle of a file \(10 of 100 bytes, at file 1 of 1, loop 1 of 1\)"
expect "short: closed while the loop count was due"
expect "refused: hello version 0"
expect "short: closed before sending anything"
expect "timeout: no byte for [0-9]+ s \(--idle-timeout\)"
got=$(jq -r '[.cases[0].samples[].result] | group_by(.) | map("\(.[0])=\(length)") | join(" ")' "$T/h.json")
case "$got" in
"ok=2 refused=5 short=15 timeout=1") ;; # short: 3 + the 12 idle ones
*) zcb_fail "results per connection: $got" ;;
esac
jq -e '.status == "ok" and (.warnings | length) >= 9' "$T/h.json" >/dev/null || zcb_fail "zcs document: $(jq -c '{status,warnings}' "$T/h.json")"
zcb_ok "hostile headers, short streams, a stalled client, a full house: each refused by name; zcs served the others ($got)"
