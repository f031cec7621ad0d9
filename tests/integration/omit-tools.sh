#!/usr/bin/env bash
# omit-tools.sh: --omit T in every tool that measures a rate (issue 26,
# iperf3's -O): the first T of each sample runs but stays out of its
# rate and of its CPU window, and the document says what was left out
# (the config's omit_s, each sample's "omitted": its seconds and its
# bytes or messages). Checked on the recorded figures, never a timing:
# the window opens at T (omitted.s >= T), the rate is the rest's.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq jq
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP

# jtrue DOC FILTER WHAT: the filter is true of the document
jtrue() {
	[ "$(jq -r "$2" "$1")" = true ] || zcb_fail "$3: $(jq -c "$2" "$1" 2>&1 | head -c 300) in $(basename "$1")"
}

# chatbench: a fixed exchange, so the deliveries before T are not
# counted; T is 20 ms, far below what 800000 deliveries take on any box
# (how many came before T is the box's speed: only the sums are checked)
for model in threads epoll; do
	d=$T/chat-$model.json
	"$B" -r 2 -u 5 -m 20000 --model "$model" --cpu=procstat --omit 20ms \
		-o "$d" >"$T/chat-$model.out" 2>&1 ||
		zcb_fail "chatbench $model --omit: $(tail -3 "$T/chat-$model.out")"
	jtrue "$d" '.config.omit_s == 0.02' "chatbench $model: config omit_s"
	jtrue "$d" '.cases[0].samples[0].omitted | .s >= 0.02 and .messages >= 0' \
		"chatbench $model: the omitted part"
	jtrue "$d" '.cases[0].samples[0] | .received == 800000 and .omitted.messages < .received' \
		"chatbench $model: every delivery still checked"
	jtrue "$d" '.cases[0].samples[0] | ((.metrics.msgs_per_s -
		(.received - .omitted.messages) / .exchange_s) | fabs) <= 1e-6 * .metrics.msgs_per_s' \
		"chatbench $model: the rate over the rest"
	# the window is the measured part's: it opens where real_s starts
	jtrue "$d" '.cases[0].samples[0] | (.cpu.box[0].elapsed_s - .metrics.real_s | fabs) <= 0.01 + 0.01 * .metrics.real_s' \
		"chatbench $model: the CPU window against real"
	jtrue "$d" '.cases[0].samples[0] | ((.metrics.msgs_per_cpu_s_box - (.received - .omitted.messages) /
		(.cpu.box[0].busy_pct / 100 * .cpu.box[0].ncpu * .cpu.box[0].elapsed_s)) | fabs)
		<= 1e-6 * .metrics.msgs_per_cpu_s_box' \
		"chatbench $model: messages per CPU-second of the rest"
	grep -q '^  --omit: [0-9]* messages of the first 0\.[0-9]* s left out$' "$T/chat-$model.out" ||
		zcb_fail "chatbench $model: no line of the omitted part"
done
zcb_ok "chatbench: the first T of the exchange left out"

# ttcp-sf's stream, both ends told: a --duration runs T longer, each
# side's window and rate are the measured part's, the exchange carries
# the totals and what each end left out
tt_two omit -c --cpu=procstat --omit 200ms -- -c --cpu=procstat --omit 200ms --duration 300ms
d=$T/omit-t.json
jtrue "$d" '.config.omit_s == 0.2 and (.warnings | length == 0)' "ttcp-sf -t: config omit_s, no warning"
jtrue "$d" '.cases[0].samples[0] | .omitted.s >= 0.2 and .omitted.bytes >= 0 and .elapsed_s >= 0.3
	and ((.metrics.throughput_MBps - .bytes / .elapsed_s / 1e6) | fabs) <= 1e-6 * .metrics.throughput_MBps
	and ((.cpu.local[0].elapsed_s - .elapsed_s) | fabs) <= 0.02 + 0.02 * .elapsed_s
	and .remote.omitted.s >= 0.2 and .remote.bytes + .remote.omitted.bytes == .bytes + .omitted.bytes' \
	"ttcp-sf -t: the omitted part, the rate, the window and the receiver's"
jtrue "$T/omit-r.json" '.config.omit_s == 0.2 and (.cases[0].samples[0] | .omitted.s >= 0.2
	and ((.cpu.local[0].elapsed_s - .elapsed_s) | fabs) <= 0.02 + 0.02 * .elapsed_s)' \
	"ttcp-sf -r: its own omitted part and window"
zcb_ok "ttcp-sf: both ends leave out the first T of the stream"

# only the transmitter told: both ends say their windows differ
tt_two half -- --omit 200ms --duration 300ms
grep -q '^ttcp-t: the receiver left out the first 0.000 s of its stream, this side 0.2 s: their windows differ' "$T/half-t.txt" ||
	zcb_fail "ttcp-sf -t: no line of the ends' --omit: $(cat "$T/half-t.txt")"
grep -q '^ttcp-r: the transmitter leaves out the first 0.2 s, this side 0 s: their windows differ' "$T/half-r.txt" ||
	zcb_fail "ttcp-sf -r: no line of the ends' --omit: $(cat "$T/half-r.txt")"
jtrue "$T/half-t.json" '[.warnings[] | select(test("give both ends the same --omit"))] | length == 1' \
	"ttcp-sf -t: the warning"
zcb_ok "ttcp-sf: ends with different --omit say so"

# a count sent before T fails, naming --omit; --omit is a stream's
tt_recv "$T/cnt-r"
timeout 60 "$TTCP" -t -p "$TT_PORT" -n 10 --omit 60s 127.0.0.1 >"$T/cnt-t.txt" 2>&1 &&
	zcb_fail "ttcp-sf: a count sent before --omit succeeded"
grep -q -- '--omit 60 s: the sample.s 81920 bytes went in' "$T/cnt-t.txt" ||
	zcb_fail "ttcp-sf: the short count not named: $(cat "$T/cnt-t.txt")"
tt_wait_recv
"$TTCP" -t -u --omit 1 127.0.0.1 >"$T/u.txt" 2>&1
[ $? = 2 ] || zcb_fail "ttcp-sf -u --omit: not a usage error"
grep -q -- '--omit: TCP streams only' "$T/u.txt" || zcb_fail "ttcp-sf -u --omit: $(cat "$T/u.txt")"
zcb_ok "ttcp-sf: a count shorter than --omit, and --omit off a stream"

# an --omit longer than the exchange: the run fails saying so
"$B" -r 1 -u 2 -m 10 --omit 60s -o "$T/short.json" >"$T/short.out" 2>&1 &&
	zcb_fail "chatbench: an exchange shorter than --omit succeeded"
grep -q -- '--omit 60 s: the exchange ended after' "$T/short.out" ||
	zcb_fail "chatbench: the short exchange not named: $(cat "$T/short.out")"
"$B" --server --omit 1 >"$T/srv.out" 2>&1 && zcb_fail "chatbench --server --omit"
grep -q -- '--omit, --reruns and --disturbance are for the client side' "$T/srv.out" ||
	zcb_fail "chatbench --server --omit: $(cat "$T/srv.out")"
zcb_ok "chatbench: a too long --omit and the server's refusal"

# p9bench against diod: a --duration runs T longer, the measured part
# is the duration; the bytes before T are not counted
if command -v diod >/dev/null; then
	P9=$(zcb_bin p9bench) || exit 1
	read -r dpid addr export _ < <("$ZCB_SRCDIR/scripts/peer-diod" start) ||
		zcb_fail "diod did not start"
	zcb_track "$dpid"
	zcb_on_exit "rm -rf '$(dirname "$export")'"
	d=$T/p9.json
	"$P9" -s "$addr" -a "$export" --duration 300ms --omit 200ms --sizes 4096 \
		--cpu=procstat --file o.dat -o "$d" >"$T/p9.out" 2>&1 ||
		zcb_fail "p9bench --omit: $(tail -3 "$T/p9.out")"
	jtrue "$d" '.config.omit_s == 0.2' "p9bench: config omit_s"
	jtrue "$d" '[.cases[] | .samples[0].iosize = .params.iosize | .samples[0]
		| .omitted.s >= 0.2 and .omitted.bytes >= 0
		and .elapsed_s >= 0.3 and .ops * .iosize == .bytes and .omitted.ops * .iosize == .omitted.bytes
		and ((.metrics.throughput_MBps - .bytes / .elapsed_s / 1e6) | fabs) <= 1e-6 * .metrics.throughput_MBps
		and ((.cpu.local[0].elapsed_s - .elapsed_s) | fabs) <= 0.02 + 0.02 * .elapsed_s] | all and length == 4' \
		"p9bench: the omitted part, the rate and the window of each case"
	"$P9" -s "$addr" -a "$export" --ops 10 --omit 60s --sizes 4096 --file o.dat \
		-o "$T/p9short.json" >"$T/p9short.out" 2>&1 && zcb_fail "p9bench: --omit past the sample succeeded"
	grep -q -- '--omit 60 s: the sample ended after' "$T/p9short.out" ||
		zcb_fail "p9bench: the short sample not named: $(cat "$T/p9short.out")"
	zcb_ok "p9bench: the first T of each sample left out"
else
	echo "(p9bench's part skipped: no diod)"
fi

# nfsbench on a local file (mounted mode): a fixed count per client, the
# bytes before T not counted; 5 ms is far below what 256 MiB take
N=$(zcb_bin nfsbench) || exit 1
mkdir -p "$T/nfs"
d=$T/nfs.json
"$N" -w -b 256m -s 64k --cpu=procstat --omit 5ms -o "$d" "$T/nfs/f" >"$T/nfs.out" 2>&1 ||
	zcb_fail "nfsbench --omit: $(tail -3 "$T/nfs.out")"
jtrue "$d" '.config.omit_s == 0.005' "nfsbench: config omit_s"
jtrue "$d" '.cases[0].samples[0] | .omitted.s >= 0.005 and .bytes + .omitted.bytes == 268435456
	and .ops + .omitted.ops == 4096
	and ((.metrics.throughput_MBps - .bytes / .elapsed_s / 1e6) | fabs) <= 1e-6 * .metrics.throughput_MBps
	and ((.cpu.local[0].elapsed_s - .elapsed_s) | fabs) <= 0.05 + 0.05 * .elapsed_s' \
	"nfsbench: the omitted part, the rate and the window"
"$N" -w -b 64k -s 64k --omit 60s -o "$T/nfsshort.json" "$T/nfs/g" >"$T/nfsshort.out" 2>&1 &&
	zcb_fail "nfsbench: --omit past the sample succeeded"
grep -q -- '--omit 60 s: client 0 ended after' "$T/nfsshort.out" ||
	zcb_fail "nfsbench: the short sample not named: $(cat "$T/nfsshort.out")"
rm -rf "$T/nfs"
zcb_ok "nfsbench: the bytes of the first T left out"

# zcc against zcs: the file set -n times, the bytes before T not counted
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
head -c 1000000 /dev/urandom >"$T/zfile"
zcs_start omit -c --cpu=procstat
d=$T/zcc.json
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 400 -c -C --cpu=procstat --omit 5ms \
	--output "$d" "$T/zfile" >"$T/zcc.out" 2>&1 || zcb_fail "zcc --omit: $(tail -3 "$T/zcc.out")"
jtrue "$d" '.config.omit_s == 0.005' "zcc: config omit_s"
jtrue "$d" '.cases[0].samples[0] | .omitted.s >= 0.005 and .bytes + .omitted.bytes == 400000000
	and .server_payload_bytes == 400000000
	and ((.metrics.throughput_MBps - .bytes / .elapsed_s / 1e6) | fabs) <= 1e-6 * .metrics.throughput_MBps
	and ((.cpu.local[0].elapsed_s - .elapsed_s) | fabs) <= 0.05 + 0.05 * .elapsed_s' \
	"zcc: the omitted part, the rate and the window"
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 1 --omit 60s --output "$T/zccshort.json" "$T/zfile" \
	>"$T/zccshort.out" 2>&1 && zcb_fail "zcc: --omit past the run succeeded"
grep -q -- '--omit 60 s: a connection ended after' "$T/zccshort.out" ||
	zcb_fail "zcc: the short run not named: $(cat "$T/zccshort.out")"
zcs_stop "$ZCS_PID"
zcb_ok "zcc: the bytes of the first T left out"
