#!/usr/bin/env bash
# ttcp-faults.sh: bad options (exit 2, one line naming the option), a
# refused connection, a receiver that dies mid-transfer, a transmitter
# that dies (with --require-peer), and a lying peer: each ends with a
# clear error naming the phase and a failed result document, no hang.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP

tt_bad "no side" "-t or -r" 127.0.0.1
tt_bad "both sides" "-t and -r" -t -r 127.0.0.1
tt_bad "no host" "-t needs" -t
tt_bad "bad method" "-m: \"nope\"" -t -m nope 127.0.0.1
tt_bad "recv method on -t" "-m: \"trunc\"" -t -m trunc 127.0.0.1
tt_bad "bad size" "-l" -t -l 12q 127.0.0.1
tt_bad "bad port" "-p" -r -p 70000
tt_bad "bad unit" "-f" -t -f x 127.0.0.1
tt_bad "udp method" "UDP" -t -u -m sendfile 127.0.0.1
tt_bad "udp buflen" "-l 4" -r -u -l 4
tt_bad "confidence" "--confidence" -t --confidence 95 --repeat 2 127.0.0.1
tt_bad "cc" "--cc" -t --cc no-such-cc 127.0.0.1
tt_bad "-V on -t" "-V" -t -V 127.0.0.1
tt_bad "unknown option" "unknown option" -t --frobnicate 127.0.0.1
"$TTCP" --help | grep -q "^Usage: ttcp-sf" || zcb_fail "--help"
"$TTCP" --method=help | grep -q "^  sendfile " || zcb_fail "--method=help"

# refused: nothing listens on a port we just had and closed
tt_recv "$T/x" --wait 1
tt_wait_recv
rc=0
timeout 20 "$TTCP" -t -p "$TT_PORT" -o "$T/ref.json" 127.0.0.1 >"$T/ref.txt" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "refused: exit $rc"
grep -q "phase: connect.*refused" "$T/ref.txt" || zcb_fail "refused: message"
[ "$(zcb_json "$T/ref.json" .status)" = failed ] || zcb_fail "refused: document not failed"
zcb_json "$T/ref.json" .error | grep -q "refused" || zcb_fail "refused: error not in document"

# the receiver dies mid-transfer (once bytes came): the transmitter
# fails, naming the phase
tt_recv "$T/d" -m read -i 0.1
timeout 40 "$TTCP" -t -p "$TT_PORT" --duration 30s --source-size 8M --timeout 5s -o "$T/die.json" 127.0.0.1 >"$T/die.txt" 2>&1 &
tpid=$!
zcb_track $tpid
tt_wait_for "$T/d.txt" "$TT_BYTES_CAME" "receiver killed mid-transfer"
kill -KILL "$TT_RPID"
rc=0
wait $tpid || rc=$?
[ $rc = 1 ] || { cat "$T/die.txt"; zcb_fail "receiver died: transmitter exit $rc (124 = hung)"; }
grep -q "phase: data\|phase: end of data" "$T/die.txt" || { cat "$T/die.txt"; zcb_fail "receiver died: no phase"; }
[ "$(zcb_json "$T/die.json" .status)" = failed ] || zcb_fail "receiver died: document not failed"

# the transmitter dies (once bytes came): a receiver that requires a
# ttcp-sf peer fails
tt_recv "$T/k" --require-peer --report-timeout 2s -o "$T/k.json" -i 0.1
"$TTCP" -t -p "$TT_PORT" --duration 30s --source-size 8M 127.0.0.1 >"$T/kt.txt" 2>&1 &
tpid=$!
zcb_track $tpid
tt_wait_for "$T/k.txt" "$TT_BYTES_CAME" "transmitter killed mid-transfer"
kill -KILL $tpid
rc=0
zcb_wait_gone "$TT_RPID" 30 || zcb_fail "receiver hung after the transmitter died"
tt_wait_recv
[ "$TT_RRC" = 1 ] || { cat "$T/k.txt"; zcb_fail "transmitter died: receiver exit $TT_RRC"; }
grep -q "no hello" "$T/k.txt" || zcb_fail "transmitter died: message"
[ "$(zcb_json "$T/k.json" .status)" = failed ] || zcb_fail "transmitter died: document not failed"

# a lying peer: garbage instead of the hello after the data. It cannot
# be told from a stray connection: logged and closed, the sample is kept
# (with --require-peer the run fails for want of a hello)
tt_recv "$T/l" -o "$T/l.json" --report-timeout 2s
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"; printf 'data' >&3; exec 3>&-
sleep 0.3
exec 3<>"/dev/tcp/127.0.0.1/$TT_PORT"; printf 'ZCBR\377\377\377\377xx' >&3; exec 3>&-
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/l.txt"; zcb_fail "lying peer: receiver exit $TT_RRC"; }
grep -q "during the report window: not a ttcp-sf hello (peer report: length" "$T/l.txt" ||
	zcb_fail "lying peer: not logged: $(cat "$T/l.txt")"
jq -e '.status == "ok" and .cases[0].samples[0].bytes == 4' "$T/l.json" >/dev/null ||
	zcb_fail "lying peer: the sample was not kept: $(cat "$T/l.json")"
zcb_ok "bad options, refused, dead receiver, dead transmitter, lying peer"

# Ctrl-C on the transmitter mid-run (once bytes came; before them, see
# ttcp-vanish.sh): exit 130 soon, the line says why there is no report
# (it said "--no-report"), the receiver ends on its own within its
# report timeout, nothing is left
tt_recv "$T/i" --report-timeout 2s -i 0.1
"$TTCP" -t -p "$TT_PORT" --duration 20 -o "$T/i-t.json" 127.0.0.1 >"$T/i-t.txt" 2>&1 &
tp=$!
zcb_track "$tp"
tt_wait_for "$T/i.txt" "$TT_BYTES_CAME" "Ctrl-C on the transmitter"
kill -INT "$tp"
zcb_wait_gone "$tp" 10 || zcb_fail "interrupted transmitter still running after 10 s"
rc=0; wait "$tp" || rc=$?
[ $rc = 130 ] || { cat "$T/i-t.txt"; zcb_fail "interrupted transmitter: exit $rc, want 130"; }
grep -q '^ttcp-t: no report: interrupted by a signal$' "$T/i-t.txt" ||
	zcb_fail "interrupted transmitter: $(grep 'no report' "$T/i-t.txt")"
zcb_wait_gone "$TT_RPID" 15 || zcb_fail "receiver still running after the transmitter was interrupted"
tt_wait_recv
zcb_ok "Ctrl-C on the transmitter: exit 130, 'interrupted by a signal', the receiver ends"
