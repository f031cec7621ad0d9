#!/usr/bin/env bash
# ttcp-stray: a stray connection or datagram never costs ttcp-sf -r a
# sample. Here the transmitter is played by this script (over bash's
# /dev/tcp and /dev/udp), so strays land exactly where they hurt: an HTTP
# request and a silent connection in the report window, a port probe at
# the data accept, a connection from another host between two samples,
# and short UDP datagrams from other senders before and during the data.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP

# hello BYTES SAMPLE MORE: our transmitter's hello frame (ctl.c)
hello() {
	tt_frame "$(printf '{"type":"ttcp-sf-hello/1","method":"write","source":"file","proto":"tcp","hostname":"fake","boot_id":"fake","buflen":8192,"bytes":%d,"dgrams":0,"sample":%d,"more":%s}' "$1" "$2" "$3")"
}
# send_data HOST N: a data connection carrying N bytes, then EOF
send_data() {
	exec 3<>"/dev/tcp/$1/$TT_PORT"
	head -c "$2" /dev/zero >&3
	exec 3>&-
}
# send_hello HOST BYTES SAMPLE MORE: the hello; the answer goes to $T/rep
send_hello() {
	exec 3<>"/dev/tcp/$1/$TT_PORT"
	hello "$2" "$3" "$4" >&3
	timeout 10 cat <&3 >"$T/rep"
	exec 3>&-
	[ "$(head -c 4 "$T/rep")" = ZCBR ] || zcb_fail "no report for the hello (sample $3)"
}

# 1. report window: an HTTP request and a silent connection, then the
# hello: the strays are closed, the hello answered, the sample kept
tt_recv "$T/a" -o "$T/a.json" --report-timeout 5s
send_data 127.0.0.1 50000
sleep 0.2
exec 4<>"/dev/tcp/127.0.0.1/$TT_PORT"
printf 'GET / HTTP/1.0\r\n\r\n' >&4
exec 5<>"/dev/tcp/127.0.0.1/$TT_PORT" # connects, says nothing
sleep 0.2
send_hello 127.0.0.1 50000 0 false
exec 4>&- 5>&-
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "report window strays: receiver exit $TT_RRC: $(cat "$T/a.txt")"
jq -e '.status == "ok" and (.cases | length) == 1 and .cases[0].params.method == "write" and
	.cases[0].samples[0].bytes == 50000' "$T/a.json" >/dev/null ||
	zcb_fail "report window strays: $(cat "$T/a.json")"
grep -q "during the report window: not a ttcp-sf hello (peer report: bad magic)" "$T/a.txt" ||
	zcb_fail "the HTTP request was not named: $(cat "$T/a.txt")"
zcb_ok "an HTTP request and a silent connection in the report window: ignored, hello answered"

# 2. only an HTTP request in the report window: no hello, sample kept
tt_recv "$T/b" -o "$T/b.json" --report-timeout 1s
send_data 127.0.0.1 30000
sleep 0.2
exec 4<>"/dev/tcp/127.0.0.1/$TT_PORT"
printf 'GET / HTTP/1.0\r\n\r\n' >&4
tt_wait_recv
exec 4>&-
[ "$TT_RRC" = 0 ] || zcb_fail "HTTP stray: receiver exit $TT_RRC: $(cat "$T/b.txt")"
jq -e '.status == "ok" and .cases[0].samples[0].bytes == 30000' "$T/b.json" >/dev/null ||
	zcb_fail "HTTP stray: the sample was lost: $(cat "$T/b.json")"
zcb_ok "an HTTP request in the report window: the sample is kept"

# 3. a port probe at the data accept (connect, close) is not a sample
tt_recv "$T/c" -o "$T/c.json"
exec 4<>"/dev/tcp/127.0.0.1/$TT_PORT"
exec 4>&-
sleep 0.3
"$TTCP" -t -p "$TT_PORT" -n 20 127.0.0.1 >"$T/c-t.txt" 2>&1 || zcb_fail "transmitter after a probe: $(cat "$T/c-t.txt")"
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "probe: receiver exit $TT_RRC: $(cat "$T/c.txt")"
jq -e '.status == "ok" and .cases[0].samples[0].bytes == 163840 and
	.cases[0].params.method == "write"' "$T/c.json" >/dev/null ||
	zcb_fail "probe: $(cat "$T/c.json")"
grep -q "closed without sending a byte" "$T/c.txt" || zcb_fail "probe not named: $(cat "$T/c.txt")"
zcb_ok "a port probe before the transmitter is not taken for it"

# 4. two samples; between them a connection from another host (::1,
# the transmitter is 127.0.0.1) sends data: it is turned away
"$TTCP" -r -p 0 --bind :: --wait 30 -o "$T/d.json" >"$T/d.txt" 2>&1 &
TT_RPID=$!
zcb_track "$TT_RPID"
for _ in $(seq 1 200); do
	TT_PORT=$(sed -n 's/^ttcp-r: .*port=\([0-9][0-9]*\) .*/\1/p' "$T/d.txt" | head -1)
	[ -n "$TT_PORT" ] && break
	sleep 0.05
done
[ -n "$TT_PORT" ] || zcb_fail "receiver on :: did not start: $(cat "$T/d.txt")"
send_data 127.0.0.1 10000
send_hello 127.0.0.1 10000 0 true
send_data ::1 777 # the stray
send_data 127.0.0.1 20000
send_hello 127.0.0.1 20000 1 false
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "other host: receiver exit $TT_RRC: $(cat "$T/d.txt")"
[ "$(jq -c '[.cases[].samples[].bytes]' "$T/d.json")" = "[10000,20000]" ] ||
	zcb_fail "other host: samples $(jq -c '[.cases[].samples[].bytes]' "$T/d.json"): $(cat "$T/d.txt")"
grep -q "not the transmitter's host" "$T/d.txt" || zcb_fail "the stray host was not named: $(cat "$T/d.txt")"
zcb_ok "a data connection from another host between samples is turned away"

# 5. UDP: stray short datagrams from other senders before and during the
# data, and a short one from the sender that is not its end marker
dg() { # dg FD SEQ: one of our data datagrams (magic, sequence, 24 bytes)
	{ printf 'ZCBU'; tt_u32be "$2"; head -c 24 /dev/zero; } >"$T/dg"
	cat "$T/dg" >&"$1" # one write: one datagram
}
tt_recv "$T/u" -u -o "$T/u.json" --report-timeout 1s
exec 6>"/dev/udp/127.0.0.1/$TT_PORT" 7>"/dev/udp/127.0.0.1/$TT_PORT"
printf 'abcd' >&7 # a stray "start"
sleep 0.05
printf 'ZCBS' >&6
for i in 0 1 2; do dg 6 $i; done
printf 'xy' >&7  # a stray "end"
printf 'zz' >&6  # short, from the sender, not its end marker
for i in 3 4; do dg 6 $i; done
sleep 0.05
tt_u32be 5 >"$T/end"
cat "$T/end" >&6 # the end: 5 sent
exec 6>&- 7>&-
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "UDP strays: receiver exit $TT_RRC: $(cat "$T/u.txt")"
jq -e '.cases[0].samples[0] | .datagrams == 5 and .lost == 0 and .bytes == 160' "$T/u.json" >/dev/null ||
	zcb_fail "UDP strays: $(jq -c '.cases[0].samples[0] | {datagrams, lost, bytes}' "$T/u.json"): $(cat "$T/u.txt")"
jq -e '.warnings | any(test("3 stray datagrams ignored"))' "$T/u.json" >/dev/null ||
	zcb_fail "UDP strays not counted: $(jq -c .warnings "$T/u.json")"

# a plain ttcp sender (no magic): a stray short datagram from elsewhere
# does not end it, its own does
tt_recv "$T/v" -u -o "$T/v.json" --report-timeout 1s
exec 6>"/dev/udp/127.0.0.1/$TT_PORT" 7>"/dev/udp/127.0.0.1/$TT_PORT"
printf 'ttcp' >&6
for i in 1 2 3; do head -c 100 /dev/zero >&6; done
printf 'x' >&7
for i in 1 2; do head -c 100 /dev/zero >&6; done
printf 'ttcp' >&6
exec 6>&- 7>&-
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "UDP plain: receiver exit $TT_RRC: $(cat "$T/v.txt")"
jq -e '.cases[0].samples[0] | .datagrams == 5 and .bytes == 500' "$T/v.json" >/dev/null ||
	zcb_fail "UDP plain: $(jq -c '.cases[0].samples[0] | {datagrams, bytes}' "$T/v.json")"
zcb_ok "UDP: strays before and during the data are counted and ignored; only the sender's end marker ends it"
