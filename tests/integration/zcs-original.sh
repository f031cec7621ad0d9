#!/usr/bin/env bash
# zcs-original.sh: wire compatibility with the originals, both ways.
#  1. an original-format stream, written by this test a byte at a time,
#     is accepted by zcs with exact payload and header counts;
#  2. zcc without -C writes exactly the original stream (golden bytes
#     captured by a listener that, like the original zcs, never answers),
#     with every send method that runs here, and with TCP_CORK;
#  3. zcc -C against such an original server fails within seconds with a
#     clear error and a failed result document.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
SINK=$ZCB_BUILDDIR/tests/integration/zcs-sink
[ -x "$SINK" ] || zcb_fail "no $SINK"
T=$ZCB_TEST_TMP

# --- 1. a stream written byte by byte: 2 loops of "abc" and an empty file
zcs_start orig -v --output "$T/orig.json" --exit-after 1
{ u32 2; for _ in 1 2; do u32 2; u32 3; printf abc; u32 0; done; } >"$T/stream"
[ "$(stat -c %s "$T/stream")" = 34 ] || zcb_fail "test stream is not 34 bytes"
exec 3<>"/dev/tcp/127.0.0.1/$ZCS_PORT"
for i in $(seq 0 33); do
	dd if="$T/stream" bs=1 skip="$i" count=1 status=none >&3
	[ $((i % 5)) = 0 ] && sleep 0.02 # force partial reads now and then
done
exec 3>&-
zcs_wait_end "$ZCS_PID"
zcs_doc_wait "$T/orig.json"
jq -e '.status == "ok" and (.cases[0].samples | length) == 1' "$T/orig.json" >/dev/null ||
	zcb_fail "original stream: bad document: $(cat "$T/orig.json")"
got=$(jq -c '.cases[0].samples[0] | [.result, .payload_bytes, .header_bytes, .files, .loops, .hello]' "$T/orig.json")
[ "$got" = '["ok",6,28,4,2,false]' ] || zcb_fail "original stream: got $got, want [ok,6,28,4,2,false]"
grep -q "ok: 6 payload bytes, 28 header bytes, 4 files, 2 loops" "$T/orig.err" ||
	zcb_fail "original stream: no per-connection line: $(cat "$T/orig.err")"
zcb_ok "an original stream written byte by byte is accepted (6 payload + 28 header bytes)"

# --- 2. zcc's bytes are the original stream exactly
printf 'hello\n' >"$T/f1"
head -c 70000 /dev/urandom >"$T/f2"
: >"$T/f3"
{ u32 3; for _ in 1 2 3; do
	u32 3; u32 6; cat "$T/f1"; u32 70000; cat "$T/f2"; u32 0
done; } >"$T/golden"
capture() { # capture NAME ZCC-ARGS...: run zcc against the sink
	local name=$1 sp
	shift
	rm -f "$T/sink.port" "$T/$name.bin"
	"$SINK" "$T/sink.port" "$T/$name.bin" &
	sp=$!
	zcb_track "$sp"
	for _ in $(seq 1 100); do [ -s "$T/sink.port" ] && break; sleep 0.05; done
	"$ZCC" -q -s 127.0.0.1 -p "$(cat "$T/sink.port")" -n 3 "$@" "$T/f1" "$T/f2" "$T/f3" \
		>"$T/$name.zcc" 2>&1 || zcb_fail "zcc $*: $(cat "$T/$name.zcc")"
	wait "$sp" || zcb_fail "sink for $name failed"
	cmp "$T/golden" "$T/$name.bin" || zcb_fail "zcc $*: the bytes differ from the original stream"
}
capture sendfile
capture send -S
capture write -S -w
capture cork -k -b 1000
capture small -S -b 7
for m in splice mmap msg-zerocopy uring uring-zc; do
	if "$ZCC" --method=help 2>/dev/null | grep -Eq "^  $m +ok "; then
		capture "m-$m" --method "$m"
		zcb_ok "zcc --method $m writes the original stream"
	fi
done
zcb_ok "zcc (sendfile, -S, -S -w, -k, odd -b) writes exactly the original stream ($(stat -c %s "$T/golden") bytes)"

# --- 3. -C against an original server: a clear, quick failure
rm -f "$T/sink.port"
"$SINK" "$T/sink.port" "$T/c.bin" &
sp=$!
zcb_track "$sp"
for _ in $(seq 1 100); do [ -s "$T/sink.port" ] && break; sleep 0.05; done
start=$SECONDS
if "$ZCC" -C -s 127.0.0.1 -p "$(cat "$T/sink.port")" --output "$T/c.json" "$T/f1" 2>"$T/c.err"; then
	zcb_fail "zcc -C against an original server succeeded"
fi
[ $((SECONDS - start)) -le 15 ] || zcb_fail "zcc -C took $((SECONDS - start)) s to give up"
grep -q "hello.*not a zcbench zcs" "$T/c.err" || zcb_fail "zcc -C: unclear error: $(cat "$T/c.err")"
jq -e '.status == "failed" and (.error | test("127.0.0.1"))' "$T/c.json" >/dev/null ||
	zcb_fail "zcc -C: document not failed: $(cat "$T/c.json")"
wait "$sp" 2>/dev/null || true
zcb_ok "zcc -C against an original server fails in $((SECONDS - start)) s: $(head -1 "$T/c.err")"
