#!/usr/bin/env bash
# chatbench-basic.sh: in-process runs of both models with exact message
# accounting, the seed's table over repeats, the result document, the CPU
# meters, and usage errors.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP

"$B" --help | grep -q -- '--rooms' || zcb_fail "--help lacks --rooms"
for bad in "--size 10" "--model fork" "--users 1" "--rooms 0" \
	"--confidence 95,0" "--server --host x" "--fault boom:1" "extra"; do
	# shellcheck disable=SC2086
	"$B" $bad >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || zcb_fail "chatbench $bad: exit $rc, expected 2"
	[ "$(wc -l <"$T/err")" -eq 1 ] || zcb_fail "chatbench $bad: not one line: $(cat "$T/err")"
done
zcb_ok "usage errors exit 2 with one line"

# 3 rooms x 5 users x 40 messages: 3 * 5 * 40 * 4 = 2400 deliveries
for model in threads epoll; do
	"$B" -r 3 -u 5 -m 40 -s 100 --model "$model" -o "$T/$model.json" \
		--label L-$model >"$T/$model.out" 2>"$T/$model.err" ||
		zcb_fail "$model run failed: $(cat "$T/$model.err")"
	grep -q '^Average throughput : [0-9]* messages per second$' "$T/$model.out" ||
		zcb_fail "$model: no Average throughput line: $(cat "$T/$model.out")"
	grep -q '^chatbench: 1 run of 3 rooms x 5 users' "$T/$model.out" ||
		zcb_fail "$model: no summary line"
	d="$T/$model.json"
	[ "$(zcb_json "$d" .status)" = ok ] || zcb_fail "$model: status not ok"
	[ "$(zcb_json "$d" .label)" = "L-$model" ] || zcb_fail "$model: label"
	[ "$(zcb_json "$d" '.cases[0].samples[0].messages')" = 2400 ] ||
		zcb_fail "$model: expected 2400 deliveries"
	[ "$(zcb_json "$d" '.cases[0].samples[0].received')" = 2400 ] ||
		zcb_fail "$model: received != 2400"
	zcb_json "$d" '.cases[0].params | "\(.rooms) \(.users) \(.messages) \(.size) \(.nodelay) \(.model)"' |
		grep -qx "3 5 40 100 false $model" || zcb_fail "$model: params"
	for k in msgs_per_s real_s system_s user_s time_cpu_pct; do
		v=$(zcb_json "$d" ".cases[0].samples[0].metrics.$k")
		[ "$v" != null ] || zcb_fail "$model: metric $k missing"
	done
	# CPU as time(1): (user + system) / real * 100
	zcb_json "$d" '.cases[0].samples[0].metrics |
		((.user_s + .system_s) / .real_s * 100 - .time_cpu_pct) | fabs < 0.001' |
		grep -qx true || zcb_fail "$model: time_cpu_pct is not (user+sys)/real"
	zcb_json "$d" '.cases[0].samples[0].metrics.msgs_per_s > 0' | grep -qx true ||
		zcb_fail "$model: no throughput"
	zcb_ok "$model: 2400 of 2400 messages, document ok"
done

# nodelay, repeats: the seed's table; -c procstat adds the box meter
"$B" -r 2 -u 4 -m 20 --nodelay -n 3 --cpu=procstat -J >"$T/rep.json" \
	2>"$T/rep.txt" || zcb_fail "repeat run failed: $(cat "$T/rep.txt")"
for row in Throughput Real System User CPU; do
	grep -Eq "^$row +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6}$" "$T/rep.txt" ||
		zcb_fail "table row $row missing: $(cat "$T/rep.txt")"
done
grep -q 'Mean *Standard Deviation' "$T/rep.txt" || zcb_fail "table header"
grep -q '^==> .* <==$' "$T/rep.txt" || zcb_fail "table label line"
grep -q 'cpu box *procstat mean' "$T/rep.txt" || zcb_fail "meter line"
[ "$(jq '.cases[0].samples | length' "$T/rep.json")" = 3 ] || zcb_fail "3 samples"
[ "$(jq '.cases[0].params.nodelay' "$T/rep.json")" = true ] || zcb_fail "nodelay param"
[ "$(jq '.cases[0].summary.msgs_per_s.n' "$T/rep.json")" = 3 ] || zcb_fail "summary n"
# 160 messages a run last a few ms: /proc/stat may give such a window
# no tick (the meter says so and stores no figure) or no busy one (0%)
jq -e "$ZCB_JQ_CPU"'.cases[0].samples | all((.cpu.box | length) > 0 and named("box"; "procstat"; "cpu_box_pct"))' "$T/rep.json" >/dev/null ||
	zcb_fail "cpu_box_pct: $(jq -c '[.cases[0].samples[] | [.metrics.cpu_box_pct, .cpu.box]]' "$T/rep.json")"
jq -e '[.cases[0].samples[].received] == [2*4*20*3, 2*4*20*3, 2*4*20*3]' \
	"$T/rep.json" >/dev/null || zcb_fail "repeat accounting"
zcb_ok "repeats print the seed's table; meters and nodelay recorded"

# --confidence stops early or says it did not reach the interval
"$B" -r 1 -u 3 -m 20 --confidence 99,50 -n 6 >"$T/conf.txt" 2>&1 ||
	zcb_fail "confidence run failed"
grep -Eq '^confidence 99% \+-25\.0% (reached|NOT reached) after [0-9]+ runs$' \
	"$T/conf.txt" || zcb_fail "confidence line: $(cat "$T/conf.txt")"
zcb_ok "confidence"
