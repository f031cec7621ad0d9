#!/usr/bin/env bash
# p9bench-pairs.sh: p9bench against diod with the soak meter runs each
# cell (op x size x path) as pairs, metered then unmetered, interleaved;
# the rate comes from the unmetered runs, soak CPU from the metered ones,
# and the tables mark a perturbed cell with a footnote. The same with the
# soak meter of the server's host only (a `cyclesoak --serve` on its own
# soaker set: SOAK off/on parks and wakes it). A fixture calibration:
# only who ran when and the names are judged, never the figures.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_need_cmd diod
zcb_need_cmd jq
P9=$(zcb_bin p9bench) || exit 1
PEER="$ZCB_SRCDIR/scripts/peer-diod"
T=$ZCB_TEST_TMP
cs_lock
cs_fixture_calibration

read -r pid addr export _ < <("$PEER" start) || zcb_fail "diod did not start"
zcb_track "$pid"
zcb_on_exit "$(printf '%q stop %q %q' "$PEER" "$pid" "$export")"

# 1. local soak, 2 repeats: 2 pairs per cell
"$P9" -v -s "$addr" -a "$export" --duration 0.3 --sizes 512,4096 --op read \
	--cpu=soak --server-pid "$pid" --repeat 2 -o "$T/p.json" \
	>"$T/p.out" 2>"$T/p.err" || zcb_fail "paired sweep failed: $(cat "$T/p.err")"
j=$T/p.json
[ "$(jq '.cases | length' "$j")" = 4 ] || zcb_fail "expected 4 cases"
bad=$(jq -r '.cases[] | select([.samples[] | [.soak, .pair]] !=
	[[true,0],[false,0],[true,1],[false,1]]) | .params | "\(.iosize) \(.path)"' "$j")
[ -z "$bad" ] || zcb_fail "runs not metered/unmetered alternating in: $bad"
jq -e 'all(.cases[].samples[] | select(.soak) | .metrics;
	has("cpu_local_soak_pct") and has("cpu_local_pct") and has("sd_local_us_per_kb") and
	has("metered_throughput_MBps") and has("metered_ops_per_s") and
	has("metered_cpu_local_procstat_pct") and has("metered_cpu_server_pid_pct") and
	(has("throughput_MBps") | not) and (has("cpu_server_pid_pct") | not))' "$j" >/dev/null ||
	zcb_fail "metered runs' names: $(jq -c '.cases[0].samples[0].metrics | keys' "$j")"
jq -e 'all(.cases[].samples[] | select(.soak | not);
	(.metrics | has("throughput_MBps") and has("cpu_local_procstat_pct") and
	 has("cpu_server_pid_pct") and (has("cpu_local_pct") | not) and
	 (has("cpu_local_soak_pct") | not)) and
	.cpu.local[0].meter == "soak" and (.cpu.local[0].ok | not) and .cpu.local[0].paused)' "$j" \
	>/dev/null || zcb_fail "unmetered runs: $(jq -c '.cases[0].samples[1]' "$j")"
jq -e 'all(.cases[]; .summary.throughput_MBps.n == 2 and
	.summary.metered_throughput_MBps.n == 2 and .summary.cpu_local_soak_pct.n == 2 and
	.summary.cpu_local_procstat_pct.n == 2 and .perturbation.pairs == 2 and
	.perturbation.metric == "throughput_MBps" and .perturbation.ratio > 0)' "$j" \
	>/dev/null || zcb_fail "summary/perturbation: $(jq -c '.cases[0] | .perturbation' "$j")"
zcb_ok "cells run in pairs, metered then unmetered; names and perturbation in the document"

# the order: per repeat, copy then direct (odd repeats direct then copy),
# each as a metered run then an unmetered one
order=$(sed -n 's/^p9bench: read  *512 \([a-z]*\) .*  \(metered\|unmetered\) run: .*/\1-\2/p' "$T/p.err" | tr '\n' ' ')
[ "$order" = "copy-metered copy-unmetered direct-metered direct-unmetered direct-metered direct-unmetered copy-metered copy-unmetered " ] ||
	zcb_fail "run order: $order"
grep -q "^# CPU meter soak: each repeat is a pair of runs" "$T/p.out" || zcb_fail "no pairing note"
grep -q "this box (soak, metered runs)" "$T/p.out" || zcb_fail "soak column not labelled"
tail -1 "$T/p.out" | grep -q "at 4096 bytes (unmetered runs): read No ZC" || zcb_fail "summary line"
zcb_ok "ABAB within a cell, ABBA paths across repeats, output says which runs"

# every case: the -v line and the tables say what the document says
while IFS='|' read -r size path col ratio perturbed; do
	want=$(printf '%.2f' "$ratio")
	grep -Eq "^p9bench: read +$size $path +perturbation: soak run reached ${want}x \(.*2 pairs\)" "$T/p.err" ||
		zcb_fail "no -v perturbation $want for $size $path: $(grep perturbation "$T/p.err")"
	row=$(grep -E "^$size +[0-9.]+[KM]?B " "$T/p.out" | head -1)
	[ -n "$row" ] || zcb_fail "no seed row for $size"
	# the seed table's cell (No ZC: fields 3-4, ZC: 5-6) and footnotes
	if [ "$col" = "No ZC" ]; then
		cell=$(echo "$row" | awk '{print $3 $4}')
	else
		cell=$(echo "$row" | awk '{print $5 $6}')
	fi
	# the tables are zcbreport's p9 layout: a footnote per marked cell
	# ("*1 soak run reached ..."), or one for them all when many cells
	# went the same way ("* every marked cell (N of M): ...")
	notes=$(grep -Ec "^\*[0-9]* soak run reached ${want}x \(.*2 pairs\) of the unmetered rate; its CPU describes that (slower|faster) run" "$T/p.out")
	if [ "$perturbed" = true ]; then
		[[ $cell == *'*'* ]] || zcb_fail "$size $col ($want) not marked: $row"
		[ "$notes" -ge 1 ] || grep -q "^\* every marked cell" "$T/p.out" ||
			zcb_fail "$size $col ($want): no footnote"
	else
		[[ $cell != *'*'* ]] || zcb_fail "$size $col ($want) marked: $row"
	fi
done < <(jq -r '.cases[] | [.params.iosize, .params.path,
	(if .params.path == "copy" then "No ZC" else "ZC" end), .perturbation.ratio,
	(.perturbation.ratio < 0.95 or .perturbation.ratio > 1.05)] | map(tostring) | join("|")' "$j")
zcb_ok "tables and -v lines carry the document's perturbation; * only where outside 0.95-1.05"

# 2. unpaired (procstat): no pairs, nothing renamed, no marks
"$P9" -s "$addr" -a "$export" --duration 0.3 --sizes 4096 --op read --cpu=procstat \
	--repeat 2 -o "$T/q.json" >"$T/q.out" 2>&1 || zcb_fail "procstat sweep: $(cat "$T/q.out")"
jq -e 'all(.cases[]; (.samples | length) == 2 and (has("perturbation") | not) and
	.summary.cpu_local_pct.n == 2 and .summary.throughput_MBps.n == 2 and
	all(.samples[]; (has("soak") | not) and (has("pair") | not)))' "$T/q.json" >/dev/null ||
	zcb_fail "procstat run paired or renamed"
grep -q "CPU meter soak" "$T/q.out" && zcb_fail "pairing note without soak"
grep -q '\*' "$T/q.out" && zcb_fail "a mark without soak"
zcb_ok "procstat alone: unpaired, plain names, no marks"

# 3. the server host's soak only: cyclesoak --serve with its own soaker
#    set (its own socket); p9bench measures no local CPU
ZCB_SOAK_SOCKET="$T/serve.sock" "$CS" --serve --port 0 >"$T/serve.out" 2>"$T/serve.err" &
sp=$!
zcb_track "$sp"
for _ in $(seq 1 100); do
	port=$(sed -n 's/.*serving on 127.0.0.1 port \([0-9]*\) (default meters soak.*/\1/p' "$T/serve.out")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || zcb_fail "cyclesoak --serve with soak did not start: $(cat "$T/serve.out" "$T/serve.err")"
"$P9" -s "$addr" -a "$export" --duration 0.3 --sizes 4096 --op read --path copy \
	--remote-cpu "127.0.0.1:$port" --repeat 2 -o "$T/r.json" >"$T/r.out" 2>"$T/r.err" ||
	zcb_fail "--remote-cpu paired sweep: $(cat "$T/r.err")"
jq -e '.cases[0] | [.samples[] | [.soak, .pair]] == [[true,0],[false,0],[true,1],[false,1]] and
	.perturbation.pairs == 2 and
	all(.samples[] | select(.soak); .cpu.remote[0].meter == "soak" and .cpu.remote[0].ok and
		(.metrics | has("cpu_remote_pct") and has("metered_throughput_MBps"))) and
	all(.samples[] | select(.soak | not); .cpu.remote[0].meter == "soak" and
		(.cpu.remote[0].ok | not) and .cpu.remote[0].paused and
		(.metrics | has("throughput_MBps") and has("cpu_remote_procstat_pct") and
		 (has("cpu_remote_pct") | not))) and
	all(.samples[]; (.cpu | has("local") | not))' "$T/r.json" >/dev/null ||
	zcb_fail "remote soak not paired: $(jq -c '[.cases[0].samples[] | [.soak, .cpu.remote[0]]]' "$T/r.json")"
grep -q "server host (soak, metered runs)" "$T/r.out" || zcb_fail "remote soak column not labelled"
zcb_ok "remote soak (cyclesoak --serve): SOAK off parks it for the unmetered runs, on for the metered"
exit 0
