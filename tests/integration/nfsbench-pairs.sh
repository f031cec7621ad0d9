#!/usr/bin/env bash
# nfsbench-pairs: libnfs NFSv4 reads from a real nfs-ganesha with the soak
# meter: each case (request size x clients) runs in pairs, metered then
# unmetered, interleaved; the clients are processes released by a
# barrier, and the parent parks the box's soakers (and waits until they
# are) before it forks them, so the whole window of an unmetered run is
# unsoaked. The rate comes from the unmetered runs, soak CPU from the
# metered ones; the seed tables mark a perturbed row with a footnote. Then the server side's soak: a
# `cyclesoak --serve` on its own soaker set, parked by SOAK off. A fixture
# calibration: who ran when and the names are judged, never the figures.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
nb_need_libnfs
cs_lock
cs_fixture_calibration
nb_ganesha 4
T=$ZCB_TEST_TMP
"$NB" -w -b 2000000 -s 64k --files shared -q "$GEXPORT/pat" || zcb_fail "local pattern write"

# 1. client soak, server by PID: 2 sizes x 1 and 2 clients, 2 pairs each
nb -s 4k,64k -n 1,2 -R 2 --verify --cpu=soak --server-pid "$GPID" \
	-o "$T/p.json" "$(nb_url pat)" >"$T/p.out" 2>"$T/p.err" ||
	zcb_fail "paired run failed: $(cat "$T/p.err")"
j=$T/p.json
nb_doc_ok "$j"
[ "$(jq '.cases | length' "$j")" = 4 ] || zcb_fail "expected 4 cases"
bad=$(jq -r '.cases[] | select([.samples[] | [.soak, .pair]] !=
	[[true,0],[false,0],[true,1],[false,1]]) | .params | "\(.iosize) x \(.clients)"' "$j")
[ -z "$bad" ] || zcb_fail "runs not metered/unmetered alternating in: $bad"
jq -e '[.cases[] | .params.clients as $n | .samples[] |
	.verified_bytes == .bytes and .bytes == 2000000 * $n] | all' "$j" >/dev/null ||
	zcb_fail "every run reads and verifies the file per client"
# the barrier: every unmetered window, with 1 or 2 client processes,
# saw the soakers parked, and every metered window saw them run all
# through (a window that overlaps any pause reads "paused", not ok)
# (runs of a few ms: procstat may say it is below its resolution)
jq -e "$ZCB_JQ_CPU"'all(.cases[].samples[] | select(.soak | not);
	.cpu.local[0].meter == "soak" and (.cpu.local[0].ok | not) and .cpu.local[0].paused and
	named("local"; "procstat"; "cpu_local_procstat_pct") and
	(.metrics | has("throughput_MBps") and
	 has("cpu_remote_pid_pct") and (has("cpu_local_pct") | not)))' "$j" >/dev/null ||
	zcb_fail "unmetered runs: $(jq -c '.cases[] | .samples[1] | [.params, .cpu.local[0]]' "$j")"
jq -e 'all(.cases[].samples[] | select(.soak);
	.cpu.local[0].meter == "soak" and .cpu.local[0].ok and
	(.metrics | has("cpu_local_soak_pct") and has("cpu_local_pct") and has("sd_local_us_per_kb") and
	 has("metered_throughput_MBps") and has("metered_cpu_remote_pid_pct") and
	 (has("throughput_MBps") | not)))' "$j" >/dev/null ||
	zcb_fail "metered runs: $(jq -c '.cases[0].samples[0].metrics | keys' "$j")"
jq -e "$ZCB_JQ_CPU"'all(.cases[]; .summary.throughput_MBps.n == 2 and .summary.metered_throughput_MBps.n == 2 and
	.summary.cpu_local_pct.n == 2 and
	(.summary.cpu_local_procstat_pct.n // 0) == (.samples | map(select(.soak | not)) | seen_n("local"; "procstat")) and
	.perturbation.pairs == 2 and .perturbation.metric == "throughput_MBps")' "$j" >/dev/null ||
	zcb_fail "summary/perturbation: $(jq -c '.cases[0].perturbation' "$j")"
zcb_ok "cases run in pairs; the clients' unmetered windows are wholly parked; names and perturbation"

# the text: per run its kind, per case the document's perturbation, and
# the tables' marks and footnotes
grep -q "^nfsbench: CPU meters: client soak,procstat, server pid; soak runs in pairs" "$T/p.out" ||
	zcb_fail "meters line: $(head -1 "$T/p.out")"
[ "$(grep -Ec '^read +4096 B x 2 clients #[12] metered  *:' "$T/p.out")" = 2 ] ||
	zcb_fail "metered run lines"
[ "$(grep -Ec '^read +4096 B x 2 clients #[12] unmetered:' "$T/p.out")" = 2 ] ||
	zcb_fail "unmetered run lines"
while IFS='|' read -r size n ratio perturbed mbps; do
	want=$(printf '%.2f' "$ratio")
	s=""
	[ "$n" = 1 ] && s=" "
	grep -Eq "^read +$size B x $n client${s}s?: perturbation: soak run reached ${want}x \(.*2 pairs\)" "$T/p.out" ||
		zcb_fail "no perturbation line $want for $size x $n: $(grep perturbation "$T/p.out")"
	# the tables are zcbreport's nfs-rsize and nfs-clients layouts:
	# seed 002's row of this case (Kernel clients IO SIZE MB/sec ...):
	# the rate is the unmetered runs' (their hmean)
	row=$(sed -n '/^NFS\/TCP server, many clients$/,/^(mean/p' "$T/p.out" |
		awk -v n="$n" -v s="$size" '$2 == n && $3 == s')
	[ "$(echo "$row" | awk '{print $4}')" = "$(printf '%.1f' "$mbps" | sed 's/\.0$//')" ] ||
		zcb_fail "seed 002 row for $size x $n is not the unmetered runs' rate $mbps: $row"
	# seed 001's client table (Kernel rsize wsize clients ...): this row
	row1=$(sed -n '/^NFS\/TCP client results$/,/^(mean/p' "$T/p.out" |
		awk -v n="$n" -v s="$size" '$2 == s && $3 == s && $4 == n')
	[ -n "$row1" ] || zcb_fail "no seed 001 row for $size x $n"
	if [ "$perturbed" = true ]; then
		[[ $row == *'*'* ]] || zcb_fail "$size x $n ($want) not marked: $row"
		[[ $row1 == *'*'* ]] || zcb_fail "$size x $n ($want) not marked: $row1"
		grep -Eq "^\*[0-9]* soak run reached ${want}x .*its CPU describes that (slower|faster) run" "$T/p.out" ||
			grep -q "^\* every marked cell" "$T/p.out" ||
			zcb_fail "no footnote for $size x $n"
	else
		[[ $row != *'*'* ]] || zcb_fail "$size x $n ($want) marked: $row"
		[[ $row1 != *'*'* ]] || zcb_fail "$size x $n ($want) marked: $row1"
	fi
done < <(jq -r '.cases[] | [.params.iosize, .params.clients, .perturbation.ratio,
	(.perturbation.ratio < 0.95 or .perturbation.ratio > 1.05),
	.summary.throughput_MBps.hmean] | map(tostring) | join("|")' "$j")
grep -qxF "(paired runs: rates from the unmetered runs; CPU from the metered runs of the same pairs)" \
	"$T/p.out" || zcb_fail "tables do not say which runs"
zcb_ok "run kinds, per-case perturbation, marked rows and footnotes match the document"

# 2. unpaired (procstat): nothing changes
nb -s 64k -R 2 --cpu=procstat -q -o "$T/q.json" "$(nb_url pat)" || zcb_fail "procstat run"
# (runs of a few ms: procstat may say a window was below its resolution)
jq -e "$ZCB_JQ_CPU"'.cases[0] | (.samples | length) == 2 and (has("perturbation") | not) and
	all(.samples[]; (has("soak") | not) and (has("pair") | not)) and
	(.summary.cpu_local_pct.n // 0) == (.samples | seen_n("local"; "procstat"))' "$T/q.json" >/dev/null ||
	zcb_fail "procstat run paired or renamed"
zcb_ok "procstat alone: unpaired, plain names"

# 3. the server side's soak: cyclesoak --serve with its own soaker set
#    (its own socket) next to the client's
ZCB_SOAK_SOCKET="$T/serve.sock" "$CS" --serve --port 0 >"$T/serve.out" 2>"$T/serve.err" &
sp=$!
zcb_track "$sp"
for _ in $(seq 1 100); do
	port=$(sed -n 's/.*serving on 127.0.0.1 port \([0-9]*\) (default meters soak.*/\1/p' "$T/serve.out")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || zcb_fail "cyclesoak --serve with soak did not start: $(cat "$T/serve.out" "$T/serve.err")"
nb -s 64k -n 2 -R 2 --cpu=soak --server-pid "$GPID" --remote-cpu "127.0.0.1:$port" \
	-o "$T/r.json" "$(nb_url pat)" >"$T/r.out" 2>&1 || zcb_fail "--remote-cpu run: $(cat "$T/r.out")"
jq -e '.cases[0] | [.samples[] | [.soak, .pair]] == [[true,0],[false,0],[true,1],[false,1]] and
	.perturbation.pairs == 2 and
	all(.samples[]; [.cpu.remote[].meter] == ["pid", "soak", "procstat"]) and
	all(.samples[] | select(.soak); .cpu.local[0].ok and .cpu.remote[1].ok and
		(.metrics | has("cpu_remote_soak_pct") and has("cpu_remote_pct") and
		 has("metered_cpu_remote_pid_pct"))) and
	all(.samples[] | select(.soak | not); (.cpu.local[0].ok | not) and .cpu.local[0].paused and
		(.cpu.remote[1].ok | not) and .cpu.remote[1].paused and
		(.metrics | has("cpu_remote_pid_pct") and (has("cpu_remote_pct") | not)))' \
	"$T/r.json" >/dev/null ||
	zcb_fail "server soak not paired: $(jq -c '[.cases[0].samples[] | [.soak, .cpu.remote[1]]]' "$T/r.json")"
grep -q "server pid and soak (cyclesoak --serve); soak runs in pairs" "$T/r.out" ||
	zcb_fail "meters line: $(grep 'CPU meters' "$T/r.out")"
zcb_ok "server soak (cyclesoak --serve): parked by SOAK off in the unmetered runs, both boxes' soakers"
exit 0
