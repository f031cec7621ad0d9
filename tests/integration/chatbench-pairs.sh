#!/usr/bin/env bash
# chatbench-pairs.sh: chatbench under the soak meter runs in pairs,
# metered then unmetered: the seed table's rows come from the unmetered
# runs, soak CPU from the metered ones, and the document carries the
# perturbation. A --server on the "far side" (its own soaker set, its own
# soak socket) learns each run's kind over the control connection and
# parks its soakers for the unmetered runs; a server from before paired
# runs (--fault unpaired) stays unpaired, with a warning when its soakers
# slowed an unmetered run. Figures are not judged (a fixture calibration).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
source "$ZCB_SRCDIR/tests/integration/chatbench-lib.sh"
B=$(zcb_bin chatbench) || exit 1
T=$ZCB_TEST_TMP
FAR=$T/far.sock # the server box's soaker set
port=0 spid=0   # set by start_server
cs_lock
cs_fixture_calibration
shape=(-r 2 -u 3 -m 20 -s 64)

# runs FILE: the [soak, pair] of every sample
runs() { jq -c '[.cases[0].samples[] | [.soak, .pair]]' "$1"; }

# --- in-process: this box's soakers parked for the unmetered runs
"$B" "${shape[@]}" -n 2 --cpu=soak -o "$T/in.json" >"$T/in.txt" 2>&1 ||
	zcb_fail "in-process: $(cat "$T/in.txt")"
o=$T/in.txt
j=$T/in.json
grep -q "^chatbench: the soak meter (this box) runs in pairs" "$o" || zcb_fail "pairs line: $(head -3 "$o")"
{ [ "$(grep -c '^pair [12], metered run: soakers on' "$o")" = 2 ] &&
	[ "$(grep -c '^pair [12], unmetered run: soakers parked' "$o")" = 2 ]; } ||
	zcb_fail "run kinds: $(cat "$o")"
[ "$(runs "$j")" = '[[true,0],[false,0],[true,1],[false,1]]' ] || zcb_fail "runs $(runs "$j")"
# (these runs last a few ms: procstat may say it is below its resolution)
jq -e "$ZCB_JQ_CPU"'.cases[0].samples | map(select(.soak)) | all((.metrics |
	has("cpu_box_soak_pct") and has("cpu_box_pct") and has("metered_msgs_per_s") and
	has("metered_time_cpu_pct") and
	(has("msgs_per_s") | not) and (has("system_s") | not)) and
	named("box"; "procstat"; "metered_cpu_box_procstat_pct"))' "$j" >/dev/null ||
	zcb_fail "metered runs' names: $(jq -c '.cases[0].samples[0].metrics | keys' "$j")"
jq -e "$ZCB_JQ_CPU"'.cases[0].samples | map(select(.soak | not)) | all((.metrics |
	has("msgs_per_s") and has("real_s") and has("time_cpu_pct") and
	(has("cpu_box_pct") | not)) and named("box"; "procstat"; "cpu_box_procstat_pct") and
	.cpu.box[0].paused)' \
	"$j" >/dev/null || zcb_fail "unmetered runs' names: $(jq -c '.cases[0].samples[1]' "$j")"
jq -e "$ZCB_JQ_CPU"'.cases[0].summary.msgs_per_s.n == 2 and .cases[0].summary.metered_msgs_per_s.n == 2 and
	.cases[0].summary.cpu_box_soak_pct.n == 2 and
	(.cases[0].summary.cpu_box_procstat_pct.n // 0) ==
		(.cases[0].samples | map(select(.soak | not)) | seen_n("box"; "procstat")) and
	.cases[0].perturbation.pairs == 2 and .cases[0].perturbation.metric == "msgs_per_s" and
	.cases[0].perturbation.ratio > 0' "$j" >/dev/null ||
	zcb_fail "summary/perturbation: $(jq -c '.cases[0].perturbation' "$j")"
p=$(sed -n 's/^chatbench: perturbation: soak run reached \([0-9.]*\)x.*/\1/p' "$o")
d=$(jq -r '.cases[0].perturbation.ratio * 100 | round / 100' "$j")
awk -v p="$p" -v d="$d" 'BEGIN { exit !(p != "" && p - d < 0.006 && d - p < 0.006) }' ||
	zcb_fail "printed perturbation '$p', document $d"
# the table: rows from the 2 unmetered runs, soak over the metered ones
# (its rows are the document's summary), a footnote only when perturbed
tp=$(awk '$1 == "Throughput" { print $2 }' "$o" | tr -d '*')
jq -e --argjson t "$tp" '(.cases[0].summary.msgs_per_s.mean - $t) | fabs < 0.01' "$j" >/dev/null ||
	zcb_fail "table Throughput $tp is not the unmetered runs' mean"
{ grep -q '^  cpu box    soak     mean .* over 2 metered runs$' "$o" &&
	grep -Eq '^  cpu box    procstat (mean .* over [12] unmetered runs|unavailable: below its resolution.*)$' "$o"; } ||
	zcb_fail "meter rows: $(grep 'cpu box' "$o")"
for row in Throughput Real System User CPU; do
	grep -Eq "^$row +[0-9]+\.[0-9]{6}\*? +[0-9]+\.[0-9]{6}$" "$o" || zcb_fail "table row $row"
done
if awk -v d="$(jq -r '.cases[0].perturbation.ratio' "$j")" 'BEGIN { exit !(d < 0.95 || d > 1.05) }'; then
	grep -Eq "^\* soak run reached ${p}x .* its CPU describes that (slower|faster) run( \(the figure marked is from the unmetered runs\))?$" "$o" ||
		zcb_fail "perturbed ($d) but no footnote: $(cat "$o")"
else
	grep -q '^\* ' "$o" && zcb_fail "a footnote for an unperturbed case ($d)"
fi
zcb_ok "in-process: runs alternate, rows from unmetered runs, soak from metered, perturbation"

# --- a far-side server: parks its own soakers on the control connection
ZCB_SOAK_SOCKET=$FAR start_server "$T/far.log" --cpu=soak
"$B" --host 127.0.0.1 --port "$port" "${shape[@]}" -n 2 --cpu=soak -o "$T/far.json" \
	>"$T/far.txt" 2>&1 || zcb_fail "far server: $(cat "$T/far.txt")"
j=$T/far.json
grep -q "^chatbench: the soak meter (this box and the server) runs in pairs" "$T/far.txt" ||
	zcb_fail "far: pairs line: $(head -3 "$T/far.txt")"
[ "$(runs "$j")" = '[[true,0],[false,0],[true,1],[false,1]]' ] || zcb_fail "far: runs $(runs "$j")"
jq -e '[.cases[0].samples[] | .cpu.server[] | select(.meter == "soak") |
	if .ok then "ran" elif .paused then "parked" else "?" end] == ["ran","parked","ran","parked"]' \
	"$j" >/dev/null || zcb_fail "far: the server did not park its soakers for the unmetered runs: $(jq -c '[.cases[0].samples[] | .cpu.server]' "$j")"
jq -e '(.cases[0].samples | map(select(.soak)) | all(.metrics | has("cpu_server_soak_pct") and
	has("metered_server_system_s"))) and (.cases[0].samples | map(select(.soak | not)) |
	all(.metrics | has("server_system_s") and (has("cpu_server_pct") | not))) and
	(.warnings | length) == 0' "$j" >/dev/null || zcb_fail "far: names: $(jq -c '.cases[0].samples[] | .metrics | keys' "$j")"
zcb_ok "--host: the far server parks its soakers for the unmetered runs"

# --- paired by the server alone (no -c here)
"$B" --host 127.0.0.1 --port "$port" "${shape[@]}" -o "$T/srv.json" >"$T/srv.txt" 2>&1 ||
	zcb_fail "server-paired: $(cat "$T/srv.txt")"
grep -q "^chatbench: the soak meter (the server) runs in pairs" "$T/srv.txt" ||
	zcb_fail "server-paired: $(head -3 "$T/srv.txt")"
jq -e '[.cases[0].samples[] | [.soak, .pair]] == [[true,0],[false,0]] and
	.cases[0].samples[1].cpu.server[1].paused and .cases[0].perturbation.pairs == 1' \
	"$T/srv.json" >/dev/null || zcb_fail "server-paired: $(jq -c '.cases[0].samples[] | .cpu' "$T/srv.json")"
zcb_ok "a server measuring with soak pairs the client's runs"

# --- the control connection as a client from before paired runs uses it
# (STATS frames with seq 0): the server's soakers stay on; seq 2 (an
# unmetered run) parks them before the window
ctrl_window() { # KIND: JOIN, START(KIND), 0.2 s, STOP(0): the report JSON
	local fd len
	exec {fd}<>"/dev/tcp/127.0.0.1/$port"
	printf 'CH\x01\x02\x00\x00\x00\x2c%b\x00\x00\x00\x01' \
		'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >&"$fd"
	printf %b "CH\\x01\\x05\\x00\\x00\\x00\\x10\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0$1" >&"$fd"
	sleep 0.2
	printf 'CH\x01\x06\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00' >&"$fd"
	len=$(timeout 10 dd bs=1 count=8 status=none <&"$fd" | od -An -tu1 |
		awk '{ print (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')
	[ "${len:-0}" -gt 0 ] || zcb_fail "no report on the control connection"
	timeout 10 dd bs=1 count="$len" status=none <&"$fd"
	exec {fd}>&-
}
ctrl_window 0 >"$T/w0.json"
jq -e '.pairs and .soak and (has("run") | not) and
	(.cpu[] | select(.meter == "soak") | .ok)' "$T/w0.json" >/dev/null ||
	zcb_fail "an older client's window: $(cat "$T/w0.json")"
ctrl_window 2 >"$T/w2.json"
jq -e '.run == "unmetered" and (.cpu[] | select(.meter == "soak") | .paused)' \
	"$T/w2.json" >/dev/null || zcb_fail "an unmetered window: $(cat "$T/w2.json")"
ctrl_window 0 >"$T/w0b.json" # the hold went with the connection
jq -e '.cpu[] | select(.meter == "soak") | .ok' "$T/w0b.json" >/dev/null ||
	zcb_fail "soakers still parked after the control connection closed: $(cat "$T/w0b.json")"
kill -TERM "$spid"
zcb_wait_gone "$spid" 15 || zcb_fail "server did not stop"
zcb_ok "control frames without a kind (older clients) leave the soakers on; an unmetered kind parks them"

# an unpaired client: a server with procstat only
start_server "$T/p.log" --cpu=procstat
"$B" --host 127.0.0.1 --port "$port" "${shape[@]}" -n 2 --cpu=procstat -o "$T/p.json" \
	>"$T/p.txt" 2>&1 || zcb_fail "procstat: $(cat "$T/p.txt")"
jq -e "$ZCB_JQ_CPU"'(.cases[0].samples | length) == 2 and (.cases[0].samples | all(has("soak") | not)) and
	(.cases[0] | has("perturbation") | not) and .cases[0].summary.msgs_per_s.n == 2 and
	(.cases[0].summary.cpu_server_procstat_pct.n // 0) == (.cases[0].samples | seen_n("server"; "procstat"))' \
	"$T/p.json" >/dev/null ||
	zcb_fail "procstat: $(jq -c '.cases[0] | del(.samples)' "$T/p.json")"
grep -q "pair" "$T/p.txt" && zcb_fail "procstat: pairs printed"
kill -TERM "$spid"
zcb_wait_gone "$spid" 15 || zcb_fail "server did not stop"
zcb_ok "procstat on both sides: runs unpaired, nothing renamed"

# --- a server from before paired runs: its side unpaired, a warning
ZCB_SOAK_SOCKET=$FAR start_server "$T/old.log" --cpu=soak --fault unpaired
"$B" --host 127.0.0.1 --port "$port" "${shape[@]}" --cpu=soak -o "$T/olds.json" \
	>"$T/olds.txt" 2>&1 || zcb_fail "older server: $(cat "$T/olds.txt")"
{ grep -q "^chatbench: the server is a chatbench from before paired runs" "$T/olds.txt" &&
	grep -q "^chatbench: the server's soakers ran during unmetered run 2: that rate is perturbed" "$T/olds.txt"; } ||
	zcb_fail "older server: no warning: $(cat "$T/olds.txt")"
jq -e '[.cases[0].samples[] | [.soak, .pair]] == [[true,0],[false,0]] and
	(.cases[0].samples[1].metrics | has("cpu_server_soak_pct") and has("msgs_per_s")) and
	(.warnings | any(test("soakers ran during unmetered run 2")))' "$T/olds.json" >/dev/null ||
	zcb_fail "older server: $(jq -c '[.warnings, [.cases[0].samples[] | .metrics | keys]]' "$T/olds.json")"
kill -TERM "$spid"
zcb_wait_gone "$spid" 15 || zcb_fail "server did not stop"
zcb_ok "a server from before paired runs: its side unpaired, a warning for the perturbed run"

# --profile pairs the runs for the profile: every line says profile, not soak
"$B" --profile -r 2 -u 3 -m 20 --repeat 2 -o "$T/prof.json" >"$T/prof.txt" 2>&1 ||
	zcb_fail "--profile: $(cat "$T/prof.txt")"
if grep -q "profile *unavailable: [^p]" "$T/prof.txt"; then
	zcb_ok "--profile: the profiler cannot run here, so no pairs to name ($(grep -m1 'profile *unavailable' "$T/prof.txt"))"
else
	{ grep -q "^chatbench: the profile runs in pairs: profiled, then unprofiled" "$T/prof.txt" &&
		grep -q "^chatbench: perturbation: profile run reached" "$T/prof.txt" &&
		grep -q "; the profile from the metered runs$" "$T/prof.txt" &&
		! grep -q "soak" "$T/prof.txt"; } ||
		zcb_fail "--profile: the pairs not named for the profile: $(cat "$T/prof.txt")"
	zcb_ok "--profile: the pairs, the perturbation and the summary name the profile"
fi
