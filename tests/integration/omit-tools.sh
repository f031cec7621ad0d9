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
for model in threads epoll; do
	d=$T/chat-$model.json
	"$B" -r 2 -u 5 -m 20000 --model "$model" --cpu=procstat --omit 20ms \
		-o "$d" >"$T/chat-$model.out" 2>&1 ||
		zcb_fail "chatbench $model --omit: $(tail -3 "$T/chat-$model.out")"
	jtrue "$d" '.config.omit_s == 0.02' "chatbench $model: config omit_s"
	jtrue "$d" '.cases[0].samples[0].omitted | .s >= 0.02 and .messages > 0' \
		"chatbench $model: the omitted part"
	jtrue "$d" '.cases[0].samples[0] | .received == 800000 and .omitted.messages < .received' \
		"chatbench $model: every delivery still checked"
	jtrue "$d" '.cases[0].samples[0] | ((.received - .omitted.messages) / .exchange_s) as $r
		| (.metrics.msgs_per_s - $r | fabs) <= 1e-6 * $r' \
		"chatbench $model: the rate over the rest"
	# the window is the measured part's: it opens where real_s starts
	jtrue "$d" '.cases[0].samples[0] | (.cpu.box[0].elapsed_s - .metrics.real_s | fabs) <= 0.01 + 0.01 * .metrics.real_s' \
		"chatbench $model: the CPU window against real"
	jtrue "$d" '.cases[0].samples[0] | ((.received - .omitted.messages) /
		(.cpu.box[0].busy_pct / 100 * .cpu.box[0].ncpu * .cpu.box[0].elapsed_s)) as $r
		| (.metrics.msgs_per_cpu_s_box - $r | fabs) <= 1e-6 * $r' \
		"chatbench $model: messages per CPU-second of the rest"
	grep -q '^  --omit: [0-9]* messages of the first 0\.[0-9]* s left out$' "$T/chat-$model.out" ||
		zcb_fail "chatbench $model: no line of the omitted part"
done
zcb_ok "chatbench: the first T of the exchange left out"

# an --omit longer than the exchange: the run fails saying so
"$B" -r 1 -u 2 -m 10 --omit 60s -o "$T/short.json" >"$T/short.out" 2>&1 &&
	zcb_fail "chatbench: an exchange shorter than --omit succeeded"
grep -q -- '--omit 60 s: the exchange ended after' "$T/short.out" ||
	zcb_fail "chatbench: the short exchange not named: $(cat "$T/short.out")"
"$B" --server --omit 1 >"$T/srv.out" 2>&1 && zcb_fail "chatbench --server --omit"
grep -q -- '--omit, --reruns and --disturbance are for the client side' "$T/srv.out" ||
	zcb_fail "chatbench --server --omit: $(cat "$T/srv.out")"
zcb_ok "chatbench: a too long --omit and the server's refusal"
