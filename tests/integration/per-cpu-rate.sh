#!/usr/bin/env bash
# per-cpu-rate.sh: where CPU is measured, a sample carries its rate per
# CPU-second of the side's primary meter (issue 26): ttcp-sf's stream
# (MB_per_cpu_s_local, _remote), its --rr (trans_per_cpu_s_local) and
# chatbench (msgs_per_cpu_s_box), each the sample's work over busy% /
# 100 x CPUs x the window, declared higher-is-better; none without -c.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq jq
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP

# per_cpu DOC METRIC WORK_FILTER SIDE: the metric is WORK over the CPU
# seconds of the side's procstat entry (the primary here), within 1e-6
per_cpu() {
	local d=$1 m=$2 w=$3 side=$4 ok
	ok=$(jq -r --arg m "$m" --arg side "$side" "
		.cases[0].samples[0] as \$s
		| (\$s.cpu[\$side][] | select(.meter == \"procstat\")) as \$c
		| (\$c.busy_pct / 100 * \$c.ncpu * \$c.elapsed_s) as \$cpu_s
		| if \$cpu_s <= 0 then \$s.metrics[\$m] == null
		  else ((\$s | $w) / \$cpu_s) as \$want
		  | (\$s.metrics[\$m] - \$want | fabs) <= 1e-6 * \$want end" "$d")
	[ "$ok" = true ] ||
		zcb_fail "$m in $(basename "$d"): $(jq -c --arg m "$m" '.cases[0].samples[0].metrics[$m]' "$d"), not the work over the CPU-seconds"
	[ "$(jq -r --arg m "$m" '.metrics[$m].better' "$d")" = higher ] ||
		zcb_fail "$m: not declared higher-is-better"
}

# by time, not by count: 2000 buffers took one /proc/stat tick on a
# fresh fast box, so a side's window held no CPU and the figure was
# rightly absent
tt_two stream -c --cpu=procstat -- -c --cpu=procstat --duration 1s -l 16384
per_cpu "$T/stream-t.json" MB_per_cpu_s_local '.bytes / 1e6' local
per_cpu "$T/stream-t.json" MB_per_cpu_s_remote '.remote.bytes / 1e6' remote
per_cpu "$T/stream-r.json" MB_per_cpu_s_local '.bytes / 1e6' local
[ "$(zcb_json "$T/stream-t.json" '.metrics.MB_per_cpu_s_local.unit')" = MB/CPU-s ] ||
	zcb_fail "MB_per_cpu_s_local's unit"
zcb_ok "ttcp-sf stream: MB per CPU-second of each side"

tt_two rr --rr -c --cpu=procstat -- --rr -c --cpu=procstat --duration 1s
per_cpu "$T/rr-t.json" trans_per_cpu_s_local '.transactions' local
[ "$(zcb_json "$T/rr-t.json" '.cases[0].samples[0].metrics | has("MB_per_cpu_s_local")')" = false ] ||
	zcb_fail "--rr: a MB per CPU-second figure"
zcb_ok "ttcp-sf --rr: transactions per CPU-second"

tt_two plain -- -n 200 -l 16384
[ "$(zcb_json "$T/plain-t.json" '[.cases[0].samples[0].metrics | keys[] | select(test("per_cpu"))] | length')" = 0 ] ||
	zcb_fail "no meter, yet a per-CPU figure"
zcb_ok "none without a meter"

# a fast box delivers a small exchange within one /proc/stat tick (no CPU
# seen: no per-CPU figure, rightly): more messages until the window
# holds CPU time, not a count meant to last
for m in 50 400 3200 25600; do
	"$B" -r 2 -u 4 -m "$m" --cpu=procstat -o "$T/chat.json" >"$T/chat.out" 2>&1 ||
		zcb_fail "chatbench: $(cat "$T/chat.out")"
	jq -e '.cases[0].samples[0].cpu.box[] | select(.meter == "procstat") | .busy_pct > 0' \
		"$T/chat.json" >/dev/null && break
	# no CPU seen: the figure is null or absent (SCHEMA: a metric is a
	# number or null), as per_cpu wants of the ttcp-sf sides
	[ "$(jq -r '.cases[0].samples[0].metrics.msgs_per_cpu_s_box' "$T/chat.json")" = null ] ||
		zcb_fail "chatbench -m $m: no CPU seen, yet msgs_per_cpu_s_box $(jq -c '.cases[0].samples[0].metrics.msgs_per_cpu_s_box' "$T/chat.json")"
done
jq -e '.cases[0].samples[0].cpu.box[] | select(.meter == "procstat") | .busy_pct > 0' \
	"$T/chat.json" >/dev/null || zcb_fail "chatbench: /proc/stat saw no CPU even at -m $m"
per_cpu "$T/chat.json" msgs_per_cpu_s_box '.received' box
zcb_ok "chatbench: messages per CPU-second"
