#!/usr/bin/env bash
# peer-strings: strings a peer sends never reach the terminal raw. A fake
# ttcp-sf receiver (fake-receiver) answers ttcp-sf -t -c with a report
# whose meter name, counter names, reasons, note and profile symbol hold
# terminal escapes; a fake transmitter sends ttcp-sf -r a hello whose
# method and host name do, and a stray a frame that is not JSON. An
# unknown meter or method is refused, named escaped; the other strings
# are shown escaped; no ESC or BEL byte is printed either way. (Decoded in lib/cpu/cpujson.c and ttcp-sf/ctl.c,
# so zcc -C and --remote-cpu get the same.)
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq jq
T=$ZCB_TEST_TMP
FAKE=$ZCB_BUILDDIR/tests/integration/fake-receiver

raw() { # FILE: does it hold an ESC or BEL byte?
	LC_ALL=C grep -q $'[\e\a]' "$1"
}

# fake REPORT-JSON OUT [TTCP-ARGS...]: ttcp-sf -t -c against a fake
# receiver answering REPORT-JSON; exit status in RC
fake() {
	local rep=$1 out=$2 fp
	shift 2
	printf '%s\n' "$rep" >"$T/rep.json"
	rm -f "$T/port"
	"$FAKE" "$T/port" "$T/rep.json" 2>"$out.fake" &
	fp=$!
	zcb_track $fp
	for _ in $(seq 1 100); do
		[ -s "$T/port" ] && break
		sleep 0.05
	done
	[ -s "$T/port" ] || zcb_fail "fake receiver did not start: $(cat "$out.fake")"
	RC=0
	timeout 60 "$TTCP" -t -c --cpu=procstat -p "$(cat "$T/port")" -n 50 "$@" 127.0.0.1 \
		>"$out" 2>&1 || RC=$?
	wait $fp 2>/dev/null
}
REPORT='{"type":"ttcp-sf-report/1","recv_method":"read","hostname":"fake",
	"boot_id":"x","bytes":0,"calls":1,"bad_bytes":0,"verified":false,
	"elapsed_s":0.1,"host":{"hostname":"fake"},"cpu":CPU}'

# 1. a meter the table does not have: the report is refused, named escaped
fake "${REPORT/CPU/'[{"meter":"procstat\u001b[5m","ok":true,"scope":"box",
	"elapsed_s":0.1,"ncpu":2,"busy_pct":10}]'}" "$T/m.txt"
raw "$T/m.txt" && zcb_fail "an ESC or BEL byte reached the output: $(cat -v "$T/m.txt")"
[ "$RC" = 1 ] || zcb_fail "unknown meter from the receiver: exit $RC: $(cat "$T/m.txt")"
grep -qF 'phase: report): CPU report names an unknown meter "procstat\x1b[5m"' "$T/m.txt" ||
	zcb_fail "unknown meter not named escaped: $(cat -v "$T/m.txt")"
zcb_ok "a report's unknown meter \"procstat\\x1b[5m\" is refused, named escaped"

# 2. known meters with hostile counter names, reasons, a note and a
# profile: shown, escaped, in the text and the document
fake "${REPORT/CPU/'[
	{"meter":"procstat","ok":true,"scope":"box","elapsed_s":0.1,"ncpu":2,
	 "busy_pct":10,"note":"n\u001b[2Jote"},
	{"meter":"perf","ok":true,"scope":"process","elapsed_s":0.1,"ncpu":2,
	 "busy_pct":5,"counters":{"cyc\u001b]0;T\u0007les":{"ok":true,"value":5,"per_sec":50},
	 "inst":{"ok":false,"why":"no\u001b[31m PMU"}}},
	{"meter":"soak","ok":false,"why":"gone\u001b[2J"},
	{"meter":"profile","ok":true,"scope":"box","elapsed_s":0.1,"ncpu":2,
	 "busy_pct":10,"profile":{"event":"cpu-\u001b[1mclock","samples":10,
	 "families":{"other":100},"top":[{"symbol":"evil\u001b[5m","family":"other","pct":50}]}}]'}" \
	"$T/c.txt" -o "$T/c.json"
raw "$T/c.txt" && zcb_fail "an ESC or BEL byte reached the output: $(cat -v "$T/c.txt")"
[ "$RC" = 0 ] || zcb_fail "report with hostile strings: exit $RC: $(cat "$T/c.txt")"
for s in 'note: n\x1b[2Jote' 'cyc\x1b]0;T\x07les' 'inst' 'no\x1b[31m PMU' \
	'soak     unavailable: gone\x1b[2J' 'profile  cpu-\x1b[1m' 'evil\x1b[5m'; do
	grep -qF -- "$s" "$T/c.txt" || zcb_fail "\"$s\" not shown escaped: $(cat -v "$T/c.txt")"
done
jq -r '.. | strings' "$T/c.json" >"$T/c.strings"
raw "$T/c.strings" && zcb_fail "the document holds a peer's escape raw: $(grep -a $'\e' "$T/c.strings" | cat -v)"
zcb_ok "counter names, reasons, note and profile symbol from a receiver are shown escaped"

# 3. a hello whose method is no method of lib/xfer, and whose host name
# holds escapes: the receiver names the method escaped and shows nothing raw
frame() { # JSON: a lib/wire/peerrep frame of it (ASCII JSON)
	local n=${#1}
	printf 'ZCBR'
	printf '%b' "$(printf '\\%03o' $((n >> 24 & 255)) $((n >> 16 & 255)) \
		$((n >> 8 & 255)) $((n & 255)))"
	printf '%s' "$1"
}
hello() { # METHOD HOSTNAME: a hello for a 4-byte sample, as JSON
	printf '{"type":"ttcp-sf-hello/1","method":"%s","source":"file","proto":"tcp",
		"hostname":"%s","boot_id":"b","buflen":8192,"bytes":4,"sample":0,"more":false}' "$1" "$2"
}
send_hello() { # OUT JSON: to a new receiver after a 4-byte sample
	tt_recv "$1" --report-timeout 2s
	exec {D}<>"/dev/tcp/127.0.0.1/$TT_PORT"
	printf 'data' >&$D
	exec {D}>&-
	exec {H}<>"/dev/tcp/127.0.0.1/$TT_PORT"
	frame "$2" >&$H
	timeout 10 cat <&$H >"$1.reply"
	exec {H}>&-
	zcb_wait_gone "$TT_RPID" 20 || zcb_fail "receiver still running 20 s after the hello"
	tt_wait_recv
}
send_hello "$T/h" "$(hello 'w\u001b[31m\u001b]0;T\u0007' h)"
raw "$T/h.txt" && zcb_fail "an ESC or BEL byte reached the receiver's output: $(cat -v "$T/h.txt")"
grep -qF 'field "method": "w\x1b[31m\x1b]0;T\x07" is not a transfer method' "$T/h.txt" ||
	zcb_fail "hostile method not named escaped: $(cat -v "$T/h.txt")"
zcb_ok "a hello's method \"w\\x1b[31m\\x1b]0;T\\x07\" is refused, named escaped"

send_hello "$T/g" "$(hello write 'h\u001b[5m\u0007')"
raw "$T/g.txt" && zcb_fail "an ESC or BEL byte reached the receiver's output: $(cat -v "$T/g.txt")"
[ "$TT_RRC" = 0 ] || zcb_fail "hello with a hostile host name: receiver exit $TT_RRC: $(cat "$T/g.txt")"
[ -s "$T/g.reply" ] || zcb_fail "hello with a hostile host name got no report: $(cat "$T/g.txt")"
zcb_ok "a hello's host name with escapes is taken, nothing raw shown"

# a stray whose frame is not JSON: jansson's message quotes the bytes;
# the receiver's log line shows them escaped
send_hello "$T/s" $'\e]0;T\a'
raw "$T/s.txt" && zcb_fail "a stray's bytes reached the receiver's output raw: $(cat -v "$T/s.txt")"
grep -F 'not a ttcp-sf hello (peer report: not JSON:' "$T/s.txt" | grep -qF '\x1b' ||
	zcb_fail "stray's frame not logged escaped: $(cat -v "$T/s.txt")"
zcb_ok "a stray's non-JSON frame is logged escaped"
