#!/usr/bin/env bash
# ttcp-knobs.sh: --busy-poll, --nodelay and --cork reach the sockets
# (each side reads them back from the kernel and says so), runs with them
# move exact counts, they are in the document's config, and --cork where
# it would stall request/response is refused.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

tt_recv "$T/bp-r" --rr --busy-poll 50 -o "$T/bp-r.json"
timeout 60 "$TTCP" -t --rr --busy-poll 50 --nodelay -p "$TT_PORT" -n 2000 -o "$T/bp-t.json" 127.0.0.1 \
	>"$T/bp-t.txt" 2>&1 || { cat "$T/bp-t.txt"; zcb_fail "--busy-poll: transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/bp-r.txt"; zcb_fail "--busy-poll: receiver exit $TT_RRC"; }
grep -q "^ttcp-t: socket: SO_BUSY_POLL 50 us, TCP_NODELAY on, TCP_CORK off" "$T/bp-t.txt" ||
	{ cat "$T/bp-t.txt"; zcb_fail "--busy-poll --nodelay not on the transmitter's socket"; }
grep -q "^ttcp-r: socket: SO_BUSY_POLL 50 us" "$T/bp-r.txt" || zcb_fail "--busy-poll not on the receiver's socket"
for s in t r; do
	[ "$(zcb_json "$T/bp-$s.json" '.cases[0].samples[0].transactions')" = 2000 ] || zcb_fail "--busy-poll: $s count"
	[ "$(zcb_json "$T/bp-$s.json" '.config.busy_poll_us')" = 50 ] || zcb_fail "--busy-poll: $s config"
done

tt_recv "$T/ck-r" -o "$T/ck-r.json"
timeout 60 "$TTCP" -t --cork -m sendfile -l 16384 -n 500 -p "$TT_PORT" -o "$T/ck-t.json" 127.0.0.1 \
	>"$T/ck-t.txt" 2>&1 || { cat "$T/ck-t.txt"; zcb_fail "--cork: transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || zcb_fail "--cork: receiver exit $TT_RRC"
grep -q "^ttcp-t: socket: .* TCP_CORK on" "$T/ck-t.txt" || { cat "$T/ck-t.txt"; zcb_fail "--cork not on the socket"; }
[ "$(zcb_json "$T/ck-r.json" '.cases[0].samples[0].bytes')" = $((500 * 16384)) ] || zcb_fail "--cork: receiver bytes"
[ "$(zcb_json "$T/ck-t.json" '.config.cork')" = true ] || zcb_fail "--cork: config"

rc=0
"$TTCP" -t --cork --rr 127.0.0.1 >/dev/null 2>"$T/e" || rc=$?
if [ $rc != 2 ] || ! grep -q -- "--cork: for -t TCP streams" "$T/e"; then
	zcb_fail "--cork --rr not refused"
fi
rc=0
"$TTCP" -t --busy-poll 0 127.0.0.1 >/dev/null 2>"$T/e" || rc=$?
[ $rc = 2 ] || zcb_fail "--busy-poll 0 not refused"
zcb_ok "--busy-poll, --nodelay, --cork: on the sockets, exact counts, in the config"
