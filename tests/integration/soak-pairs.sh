#!/usr/bin/env bash
# soak-pairs: with the soak meter a case runs in pairs, metered then
# unmetered (the box's soakers parked). The rate comes from the unmetered
# runs, soak CPU from the metered ones, procstat from both, and the case
# carries its perturbation. Both ends of ttcp-sf on loopback share one
# soaker set; `cyclesoak --serve` parks it on SOAK off. Figures are not
# judged here (a fixture calibration): only who ran when, and the names.
# The runs last by time (0.3 s, 60 of /proc/stat's ticks on 2 CPUs): a
# count-based one is over within a tick on a fast box, and procstat then
# says it is below its resolution instead of naming a figure.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
cs_lock
cs_fixture_calibration

tt_recv "$T/r" -c --cpu=soak -o "$T/r.json"
"$TTCP" -t -c --cpu=soak -p "$TT_PORT" -l 8192 --duration 0.3s --repeat 2 \
	-o "$T/t.json" 127.0.0.1 >"$T/t.txt" 2>&1 || { cat "$T/t.txt"; zcb_fail "transmitter failed"; }
tt_wait_recv
[ "$TT_RRC" = 0 ] || { cat "$T/r.txt"; zcb_fail "receiver exit $TT_RRC"; }
grep -q "^ttcp-t: CPU meters: soak,procstat; soak runs in pairs" "$T/t.txt" ||
	zcb_fail "meters line: $(grep 'CPU meters' "$T/t.txt")"
[ "$(grep -c '^ttcp-t: pair [12], metered run' "$T/t.txt")" = 2 ] || zcb_fail "two metered runs"
[ "$(grep -c '^ttcp-t: pair [12], unmetered run' "$T/t.txt")" = 2 ] || zcb_fail "two unmetered runs"
grep -q "soak .*unavailable: soakers paused: the unmetered run of a pair" "$T/t.txt" ||
	zcb_fail "paused soak not shown"
grep -q "^ttcp-t: perturbation: soak run reached [0-9.]*x (.*2 pairs) of the unmetered rate" "$T/t.txt" ||
	zcb_fail "perturbation line: $(grep perturbation "$T/t.txt")"
j=$T/t.json
for f in "$j" "$T/r.json"; do
	got=$(jq -c '[.cases[0].samples[] | [.soak, .pair]]' "$f")
	[ "$got" = '[[true,0],[false,0],[true,1],[false,1]]' ] || zcb_fail "$f: runs $got"
done
jq -e '.cases[0].samples | map(select(.soak)) | all(.metrics |
	has("cpu_local_soak_pct") and has("cpu_local_pct") and has("sd_local_us_per_kb") and
	has("metered_throughput_MBps") and has("metered_cpu_local_procstat_pct") and
	(has("throughput_MBps") | not))' "$j" >/dev/null || zcb_fail "metered runs' names"
jq -e '.cases[0].samples | map(select(.soak | not)) | all(.metrics |
	has("throughput_MBps") and has("cpu_local_procstat_pct") and
	has("sd_local_procstat_us_per_kb") and (has("cpu_local_pct") | not) and
	(has("cpu_local_soak_pct") | not))' "$j" >/dev/null || zcb_fail "unmetered runs' names"
jq -e '.cases[0].samples | map(select(.soak | not)) | all(.cpu.local[0].paused)' "$j" \
	>/dev/null || zcb_fail "unmetered runs' soak not marked paused"
jq -e '.cases[0].summary.throughput_MBps.n == 2 and
	.cases[0].summary.metered_throughput_MBps.n == 2 and
	.cases[0].summary.cpu_local_soak_pct.n == 2 and
	.cases[0].summary.cpu_local_procstat_pct.n == 2 and
	.cases[0].perturbation.pairs == 2 and
	.cases[0].perturbation.metric == "throughput_MBps" and
	.cases[0].perturbation.ratio > 0 and
	(.cases[0].perturbation.ci95 | length) == 2 and
	.metrics.metered_throughput_MBps.unit == "MB/s"' "$j" >/dev/null ||
	zcb_fail "summary/perturbation: $(jq -c '.cases[0].perturbation' "$j")"
# the printed perturbation is the document's
p=$(sed -n 's/^ttcp-t: perturbation: soak run reached \([0-9.]*\)x.*/\1/p' "$T/t.txt")
d=$(jq -r '.cases[0].perturbation.ratio * 100 | round / 100' "$j")
awk -v p="$p" -v d="$d" 'BEGIN { exit !(p - d < 0.006 && d - p < 0.006) }' ||
	zcb_fail "printed perturbation $p, document $d"
zcb_ok "ttcp-sf: metered and unmetered runs interleaved, named apart, perturbation"

# an unpaired meter list: no pairs, nothing renamed
tt_recv "$T/q" -c --cpu=procstat
"$TTCP" -t -c --cpu=procstat -p "$TT_PORT" --duration 0.3s --repeat 2 -o "$T/q.json" 127.0.0.1 \
	>"$T/q.txt" 2>&1 || zcb_fail "procstat run"
tt_wait_recv
jq -e '(.cases[0].samples | length) == 2 and (.cases[0].samples[0] | has("soak") | not) and
	(.cases[0] | has("perturbation") | not) and
	.cases[0].summary.cpu_local_pct.n == 2' "$T/q.json" >/dev/null || zcb_fail "procstat only"
zcb_ok "procstat alone runs unpaired"

# cyclesoak --serve: SOAK off parks the soakers for a remote client
"$CS" --serve --port 0 >"$T/serve.out" 2>"$T/serve.err" &
SP=$!
zcb_track $SP
for _ in $(seq 1 100); do
	PORT=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$T/serve.out")
	[ -n "$PORT" ] && break
	sleep 0.05
done
[ -n "$PORT" ] || zcb_fail "server did not say its port: $(cat "$T/serve.err")"
exec {A}<>"/dev/tcp/127.0.0.1/$PORT"
ask() {
	printf '%s\n' "$1" >&"$A"
	IFS= read -r -t 20 REPLY <&"$A" || zcb_fail "no reply to $1"
}
ask "SOAK maybe"
[[ $REPLY =~ ^ERR\ SOAK\ takes\ on\ or\ off ]] || zcb_fail "SOAK maybe: $REPLY"
# the word in any case, like the commands (it was "ERR bad meter list")
ask "SOAK OFF"
[ "$REPLY" = "OK off" ] || zcb_fail "SOAK OFF: $REPLY"
ask "START soak"
sleep 0.2
ask STOP
echo "${REPLY#OK }" | jq -e '.cpu[0].meter == "soak" and (.cpu[0].ok | not) and .cpu[0].paused and
	.cpu[1].meter == "procstat" and .cpu[1].ok' >/dev/null || zcb_fail "parked window: $REPLY"
ask "SOAK on"
[ "$REPLY" = "OK on" ] || zcb_fail "SOAK on: $REPLY"
ask "START soak"
sleep 0.2
ask STOP
echo "${REPLY#OK }" | jq -e '.cpu[0].meter == "soak" and .cpu[0].ok' >/dev/null ||
	zcb_fail "soaked window: $REPLY"
exec {A}>&-
zcb_ok "cyclesoak --serve: SOAK off/on"
