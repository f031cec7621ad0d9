#!/usr/bin/env bash
# zcs-pairs.sh: zcc and zcs under the soak meter run in pairs, metered
# then unmetered. zcs stands on the "far side": its own soaker set (its
# own soak socket), so only its own parking can stop its soakers, and its
# reported soak figure shows whether it did. zcc's hello tells zcs each
# run's kind (the ZCB1 extension); the rate comes from the unmetered runs
# and the document carries the perturbation. Older peers (zcs-oldpeer)
# stay unpaired on their side, with a warning when their soakers slowed
# an unmetered run. Figures are not judged (a fixture calibration).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
OLD=$ZCB_BUILDDIR/tests/integration/zcs-oldpeer
[ -x "$OLD" ] || zcb_fail "no $OLD"
T=$ZCB_TEST_TMP
FAR=$T/far.sock # the server box's soaker set
cs_lock
cs_fixture_calibration
head -c 1000000 /dev/urandom >"$T/a"

# far-side zcs: its own soaker set
far_zcs() { # NAME ARGS...
	local name=$1
	shift
	ZCB_SOAK_SOCKET=$FAR zcs_start "$name" "$@"
}

for mode in epoll fork; do
	args=(-c --cpu=soak -v --output "$T/zcs-$mode.json" --exit-after 8)
	[ "$mode" = fork ] && args+=(--fork)
	far_zcs "s-$mode" "${args[@]}"
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 4 -P 2 -c --cpu=soak -C --repeat 2 \
		--output "$T/$mode.json" "$T/a" >"$T/$mode.txt" 2>&1 ||
		zcb_fail "$mode: zcc: $(cat "$T/$mode.txt")"
	zcs_wait_end "$ZCS_PID"
	zcs_doc_wait "$T/zcs-$mode.json"
	o=$T/$mode.txt
	j=$T/$mode.json
	grep -q "^zcc: CPU meters: soak,procstat; soak runs in pairs" "$o" ||
		zcb_fail "$mode: meters line: $(grep 'CPU meters' "$o")"
	{ [ "$(grep -c '^pair [12], metered run: soakers on' "$o")" = 2 ] &&
		[ "$(grep -c '^pair [12], unmetered run: soakers parked' "$o")" = 2 ]; } ||
		zcb_fail "$mode: run kinds: $(cat "$o")"
	got=$(jq -c '[.cases[0].samples[] | [.soak, .pair]]' "$j")
	[ "$got" = '[[true,0],[false,0],[true,1],[false,1]]' ] || zcb_fail "$mode: zcc runs $got"
	# (runs of a few ms: procstat may say it is below its resolution)
	jq -e "$ZCB_JQ_CPU"'.cases[0].samples | map(select(.soak)) | all((.metrics |
		has("cpu_local_soak_pct") and has("cpu_remote_soak_pct") and
		has("sd_remote_us_per_kb") and has("metered_throughput_MBps") and
		(has("throughput_MBps") | not)) and
		named("remote"; "procstat"; "metered_cpu_remote_procstat_pct"))' \
		"$j" >/dev/null || zcb_fail "$mode: metered runs' names"
	jq -e "$ZCB_JQ_CPU"'.cases[0].samples | map(select(.soak | not)) | all(
		(.metrics | has("throughput_MBps") and
		 (has("cpu_remote_pct") | not) and (has("metered_throughput_MBps") | not)) and
		named("remote"; "procstat"; "cpu_remote_procstat_pct") and
		(.cpu.remote[0] | .meter == "soak" and .ok == false and .paused) and
		(.cpu.local[0] | .meter == "soak" and .paused))' "$j" >/dev/null ||
		zcb_fail "$mode: the far side did not park its soakers for the unmetered runs: $(jq -c '[.cases[0].samples[] | .cpu.remote[0]]' "$j")"
	jq -e '.cases[0].samples | map(select(.soak)) | all(.cpu.remote[0] | .meter == "soak" and .ok)' \
		"$j" >/dev/null || zcb_fail "$mode: far side soak missing in metered runs"
	jq -e '.cases[0].summary.throughput_MBps.n == 2 and
		.cases[0].summary.metered_throughput_MBps.n == 2 and
		.cases[0].summary.cpu_remote_soak_pct.n == 2 and
		.cases[0].perturbation.pairs == 2 and
		.cases[0].perturbation.metric == "throughput_MBps" and
		.cases[0].perturbation.ratio > 0 and
		(.cases[0].perturbation.ci95 | length) == 2' "$j" >/dev/null ||
		zcb_fail "$mode: summary/perturbation: $(jq -c '.cases[0].perturbation' "$j")"
	p=$(sed -n 's/^zcc: perturbation: soak run reached \([0-9.]*\)x.*/\1/p' "$o")
	d=$(jq -r '.cases[0].perturbation.ratio * 100 | round / 100' "$j")
	awk -v p="$p" -v d="$d" 'BEGIN { exit !(p != "" && p - d < 0.006 && d - p < 0.006) }' ||
		zcb_fail "$mode: printed perturbation '$p', document $d"
	grep -q "^zcc: 2 unmetered runs of sendfile" "$o" || zcb_fail "$mode: summary line"
	# zcs's own document: every connection marked with its run
	got=$(jq -c '[.cases[0].samples[] | [.soak, .pair]]' "$T/zcs-$mode.json")
	[ "$got" = '[[true,0],[true,0],[false,0],[false,0],[true,1],[true,1],[false,1],[false,1]]' ] ||
		zcb_fail "$mode: zcs samples $got"
	jq -e '.cases[0].samples | map(select(.soak)) | all(.metrics | has("metered_throughput_MBps"))' \
		"$T/zcs-$mode.json" >/dev/null || zcb_fail "$mode: zcs metered names"
	[ "$(grep -c 'unmetered run of pair [12] (soakers parked)' "$T/s-$mode.err")" = 4 ] ||
		zcb_fail "$mode: zcs log: $(cat "$T/s-$mode.err")"
	zcb_ok "$mode: runs alternate, the far side parks its soakers for unmetered runs, perturbation"
done

# paired by the server alone: zcc measures procstat, zcs soak
far_zcs srv -c --cpu=soak --exit-after 2
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 4 -c --cpu=procstat -C --output "$T/srv.json" \
	"$T/a" >"$T/srv.txt" 2>&1 || zcb_fail "server-paired: $(cat "$T/srv.txt")"
zcs_wait_end "$ZCS_PID"
grep -q "^zcc: the server measures with soak: runs go in pairs" "$T/srv.txt" ||
	zcb_fail "server-paired: no pairing line: $(cat "$T/srv.txt")"
jq -e "$ZCB_JQ_CPU"'[.cases[0].samples[] | [.soak, .pair]] == [[true,0],[false,0]] and
	(.cases[0].samples[0] | named("local"; "procstat"; "metered_cpu_local_procstat_pct") and
		(.metrics | has("cpu_remote_soak_pct"))) and
	(.cases[0].samples[1] | named("local"; "procstat"; "cpu_local_procstat_pct") and
		(.metrics | has("throughput_MBps"))) and
	.cases[0].samples[1].cpu.remote[0].paused and .cases[0].perturbation.pairs == 1' \
	"$T/srv.json" >/dev/null || zcb_fail "server-paired: $(jq -c '.cases[0].samples[] | del(.cpu, .counters)' "$T/srv.json")"
zcb_ok "a zcs measuring with soak pairs zcc's runs (zcc on procstat)"

# unpaired meters: nothing renamed, no perturbation, zcs marks nothing
far_zcs plain -c --cpu=procstat --output "$T/zp.json" --exit-after 2
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 4 -c --cpu=procstat -C --repeat 2 \
	--output "$T/plain.json" "$T/a" >"$T/plain.txt" 2>&1 || zcb_fail "procstat: $(cat "$T/plain.txt")"
zcs_wait_end "$ZCS_PID"
zcs_doc_wait "$T/zp.json"
jq -e "$ZCB_JQ_CPU"'(.cases[0].samples | length) == 2 and (.cases[0].samples | all(has("soak") | not)) and
	(.cases[0] | has("perturbation") | not) and .cases[0].summary.throughput_MBps.n == 2 and
	(.cases[0].summary.cpu_remote_pct.n // 0) == (.cases[0].samples | seen_n("remote"; "procstat"))' \
	"$T/plain.json" >/dev/null ||
	zcb_fail "procstat: $(jq -c '.cases[0]' "$T/plain.json")"
jq -e '.cases[0].samples | all(has("soak") | not)' "$T/zp.json" >/dev/null || zcb_fail "procstat: zcs marked runs"
grep -q "pair" "$T/plain.txt" && zcb_fail "procstat: pairs printed"
zcb_ok "procstat alone: runs unpaired, nothing renamed"

# an older zcs: its side unpaired; its soakers ran during the unmetered run
rm -f "$T/old.port"
"$OLD" server "$T/old.port" 2 &
op=$!
zcb_track $op
for _ in $(seq 1 100); do [ -s "$T/old.port" ] && break; sleep 0.05; done
"$ZCC" -s 127.0.0.1 -p "$(cat "$T/old.port")" -n 4 -c --cpu=soak -C \
	--output "$T/old.json" "$T/a" >"$T/old.txt" 2>&1 || zcb_fail "older zcs: $(cat "$T/old.txt")"
wait $op || zcb_fail "the older zcs failed"
{ grep -q "^zcc: the server is a zcs from before paired runs" "$T/old.txt" &&
	grep -q "^zcc: the server's soakers ran during unmetered run 2: that rate is perturbed" "$T/old.txt"; } ||
	zcb_fail "older zcs: no warning: $(cat "$T/old.txt")"
jq -e '[.cases[0].samples[] | [.soak, .pair]] == [[true,0],[false,0]] and
	(.cases[0].samples[1].metrics | has("cpu_remote_soak_pct") and has("throughput_MBps")) and
	(.warnings | any(test("soakers ran during unmetered run 2")))' "$T/old.json" >/dev/null ||
	zcb_fail "older zcs: document: $(jq -c '[.warnings, [.cases[0].samples[] | .metrics | keys]]' "$T/old.json")"
zcb_ok "an older zcs: its side unpaired, a warning for the perturbed unmetered run"

# an older zcc (hello flags 1) against this zcs: unpaired, soakers on;
# the same hello asking an unmetered run: parked before the answer
far_zcs oldc -c --cpu=soak --output "$T/oc.json" --exit-after 2
"$OLD" client "$ZCS_PORT" 1 100000 >"$T/oc1.txt" || zcb_fail "older zcc failed"
"$OLD" client "$ZCS_PORT" 7 100000 >"$T/oc7.txt" || zcb_fail "run-kind hello failed"
zcs_wait_end "$ZCS_PID"
zcs_doc_wait "$T/oc.json"
[ "$(head -1 "$T/oc1.txt")" = "answer 1" ] || zcb_fail "older zcc: $(head -1 "$T/oc1.txt")"
sed -n 2p "$T/oc1.txt" | jq -e '.cpu[0].meter == "soak" and .cpu[0].ok' >/dev/null ||
	zcb_fail "older zcc: zcs parked its soakers: $(sed -n 2p "$T/oc1.txt")"
[ "$(head -1 "$T/oc7.txt")" = "answer 7" ] || zcb_fail "unmetered hello: granted $(head -1 "$T/oc7.txt")"
sed -n 2p "$T/oc7.txt" | jq -e '.cpu[0].meter == "soak" and (.cpu[0].ok | not) and .cpu[0].paused' \
	>/dev/null || zcb_fail "unmetered hello: soak not parked: $(sed -n 2p "$T/oc7.txt")"
jq -e '(.cases[0].samples[0] | has("soak") | not) and .cases[0].samples[1].soak == false and
	.cases[0].samples[1].pair == 0' "$T/oc.json" >/dev/null ||
	zcb_fail "zcs marks: $(jq -c '[.cases[0].samples[] | [.soak, .pair]]' "$T/oc.json")"
zcb_ok "an older zcc runs unpaired with the soakers on; a run-kind hello parks them"
