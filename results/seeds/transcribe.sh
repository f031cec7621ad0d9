#!/usr/bin/env bash
# transcribe.sh: writes the seed mails' published figures as result
# documents (zcbench-result/1, "transcribed": true), one per experiment
# and label, one sample per case, so `zcbreport table --layout L
# results/seeds/` regenerates every seed table. The figures are typed in
# below exactly as the mails print them; rates are stored in MB/s
# (10^6 B/s) as SCHEMA.md wants: the 9P mail's "22.4 kb/s" is 0.0224
# (k = 1000, m = 10^6, the decimal units dd printed), its "1.4 mb/s" 1.4.
# File names start with the seed number and a letter so that a directory
# load keeps the mails' row order (the patched kernel first).
# Run from anywhere; needs jq. Rewrites the *.json next to it.
set -euo pipefail
cd "$(dirname "$0")"

# metric definitions used below
M_TPUT='{"throughput_MBps":{"unit":"MB/s","better":"higher","rate":true}}'
M_CPUL='{"cpu_local_pct":{"unit":"%","better":"lower","rate":false}}'
M_CPUR='{"cpu_remote_pct":{"unit":"%","better":"lower","rate":false}}'

# doc FILE TOOL LABEL STARTED SOURCE NOTE HOST COMMAND METRICS CASES
doc() {
	local id
	id=$(printf '%s' "$1" | md5sum | cut -c1-16)
	jq -n --arg tool "$2" --arg lbl "$3" --arg started "$4" \
		--arg source "$5" --arg note "$6" --argjson host "$7" \
		--argjson command "$8" --argjson metrics "$9" \
		--argjson cases "${10}" --arg id "$id" '
	def summ($v): {n: 1, mean: $v, stddev: null, cov: null, min: $v,
		median: $v, max: $v, ci95: [null, null]};
	{schema: "zcbench-result/1", tool: $tool, tool_version: "transcribed",
	 run_id: $id, "label": $lbl, started: $started, finished: $started,
	 command: $command, host: $host, status: "ok", error: null,
	 warnings: [], transcribed: true, source: $source, note: $note,
	 metrics: $metrics,
	 cases: [$cases[] | . as $c | {params: $c.params,
		samples: [{metrics: $c.m}],
		summary: ($c.summary // ($c.m | with_entries(
			.key as $k | .value = (summ(.value) +
			(if $metrics[$k].rate then {hmean: .value} else {} end)))))}]}
	' >"$1"
}

# rowcases NAME VALUE FILTER LINE...: each line of figures ("1 0.0224
# 0.0198") as $r, a JSON array of numbers, made cases by the jq FILTER
# with $NAME set to VALUE; the cases of all the lines, in their order
rowcases() {
	local name=$1 value=$2 filter=$3
	shift 3
	printf '%s\n' "$@" | jq -c -R 'split(" ") | map(tonumber)' |
		jq -s --arg "$name" "$value" "[.[] as \$r | $filter]"
}

# ---- seed 000: 9P2000.L read/write by IO size (JV, 2011-02-09) ----
S000='seed 000: Venkateswararao Jujjuri (JV), "Re: [V9fs-developer] [RFC] [PATCH 6/7] [net/9p] Read and Write side zerocopy changes for 9P2000.L protocol", 2011-02-09, Message-ID <4D5309A9.3070508@linux.vnet.ibm.com>'
H000='{"hostname":"","kernel_release":"","cpu_model":"HS21 blade, two-socket quad-core Xeon (as the mail says)","online_cpus":8,"mem_bytes":4294967296,"cmdline":"","sysctls":{}}'
p9cases() { # OP then lines "IOSIZE NOZC_MBps ZC_MBps": a case per path
	# shellcheck disable=SC2016 # $r and $op: jq's, not the shell's
	rowcases op "$1" '["copy", "direct"] | to_entries[] |
		{params: {op: $op, iosize: $r[0], total_bytes: ($r[0] * 1048576),
			path: .value, mode: "mounted"},
		 m: {throughput_MBps: $r[.key + 1]}}' "${@:2}"
}
W=$(p9cases write "1 0.0224 0.0198" "32 0.711 0.633" "64 1.4 1.3" \
	"128 2.8 2.6" "256 5.6 5.1" "512 10.4 10.2" "1024 19.7 20.4" \
	"2048 40.1 43.7" "4096 71.4 73.1")
R=$(p9cases read "1 0.0266 0.0231" "32 0.783 0.734" "64 1.7 1.5" \
	"128 3.4 3.0" "256 4.2 5.9" "512 6.9 11.6" "1024 23.3 23.4" \
	"2048 42.5 45.4" "4096 67.4 73.9")
doc 000a-p9-iosize.json p9bench "9p-zc-rfc" "2011-02-09T21:39:53Z" "$S000" \
	"1M operations per IO size (TOTAL SIZE = IO SIZE x 2^20); No ZC = path copy, ZC = path direct (the RFC's zero-copy); kernel release not given in the mail, the label names the patch series" \
	"$H000" '[]' "$M_TPUT" "$(jq -n --argjson w "$W" --argjson r "$R" '$w + $r')"

# ---- seed 001: NFS/UDP client and server, ttcp-sf (akpm, 2001-01-29) ----
S001='seed 001: Andrew Morton, "Re: sendfile+zerocopy: fairly sexy (nothing to do with ECN)", linux-kernel 2001-01-29, Message-ID <3A74433C.239D1317@uow.edu.au>'
H001='{"hostname":"","kernel_release":"","cpu_model":"(not given; 100baseT)","online_cpus":1,"mem_bytes":0,"cmdline":"","sysctls":{}}'
nfscases() { # CPU_METRIC then lines "RSIZE WSIZE MBYTE_PER_SEC CPU"
	# shellcheck disable=SC2016 # $r and $cpu: jq's, not the shell's
	rowcases cpu "$1" '{params: {op: "read", rsize: $r[0], wsize: $r[1],
			proto: "udp", mode: "mounted"},
		 m: {throughput_MBps: $r[2], ($cpu): $r[3]}}' "${@:2}"
}
NOTE_C="NFS/UDP client results: reading a 100 meg file, fully cached on the server, across 100baseT; CPU of the client (cyclesoak); rsize 8199 as printed in the mail"
NOTE_S="NFS/UDP server results: the same read, CPU of the server (cyclesoak); rsize 8199 as printed in the mail"
# nfs001 FILE LABEL NOTE CPU_METRIC ITS_DEFINITION LINE...: one of the
# mail's four NFS tables (nfscases' lines), client or server, patched or not
nfs001() {
	doc "$1" nfsbench "$2" "2001-01-28T16:05:16Z" "$S001" "$3" "$H001" '[]' \
		"$(jq -n "$M_TPUT + $5")" "$(nfscases "$4" "${@:6}")"
}
nfs001 001a-nfs-client-zc.json "2.4.1-pre10+zc" "$NOTE_C" cpu_local_pct "$M_CPUL" "1024 1024 2.4 10.3" \
	"2048 2048 3.7 11.4" "4096 4096 10.1 29.0" "8199 8192 11.9 28.2" "16384 16384 11.9 28.2"
nfs001 001b-nfs-client-vanilla.json "2.4.1-pre10" "$NOTE_C" cpu_local_pct "$M_CPUL" "1024 1024 2.4 9.7" \
	"2048 2048 3.7 11.8" "4096 4096 10.7 33.6" "8199 8192 11.9 29.5" "16384 16384 11.9 29.2"
nfs001 001c-nfs-server-zc.json "2.4.1-pre10+zc" "$NOTE_S" cpu_remote_pct "$M_CPUR" "1024 1024 2.6 19.1" \
	"2048 2048 3.9 18.8" "4096 4096 10.0 34.5" "8199 8192 11.8 28.9" "16384 16384 11.8 29.0"
nfs001 001d-nfs-server-vanilla.json "2.4.1-pre10" "$NOTE_S" cpu_remote_pct "$M_CPUR" "1024 1024 2.6 18.5" \
	"2048 2048 3.9 18.6" "4096 4096 10.9 33.8" "8199 8192 11.8 29.0" "16384 16384 11.8 29.0"
ttcpcases() { # SEND_CPU RECV_CPU: the measured box sending, then receiving
	jq -n --argjson s "$1" --argjson r "$2" '[
	 {params: {method: "sendfile", size: 32768, proto: "tcp", role: "transmit"},
	  m: {cpu_local_pct: $s}},
	 {params: {method: "sendfile", size: 32768, proto: "tcp", role: "receive"},
	  m: {cpu_local_pct: $r}}]'
}
NOTE_T="ttcp-sf -t -c -l 32768 (sending) and ttcp-sf -c -r -l 32768 (receiving); CPU of the measured box by cyclesoak"
CMD_T='["./ttcp-sf","-t","-c","-l","32768","-v","receiver_host"]'
doc 001e-ttcp-zerocopy.json ttcp-sf "2.4.1-pre10-zerocopy" "2001-01-28T16:05:16Z" "$S001" "$NOTE_T" "$H001" \
	"$CMD_T" "$M_CPUL" "$(ttcpcases 10.5 16.1)"
doc 001f-ttcp-vanilla.json ttcp-sf "2.4.1-pre10-vanilla" "2001-01-28T16:05:16Z" "$S001" "$NOTE_T" "$H001" \
	"$CMD_T" "$M_CPUL" "$(ttcpcases 18.5 16.0)"

# ---- seed 002: 48 NFS clients against one server (Theurer, 2002-04-12) ----
S002='seed 002: Andrew Theurer, "Re: [PATCH] zerocopy NFS updated", nfs list 2002-04-12, Message-ID <009501c1e212$b30e6bc0$2e060e09@beavis>'
H002='{"hostname":"","kernel_release":"","cpu_model":"4-way SMP (not named), 4 gigabit adapters","online_cpus":4,"mem_bytes":0,"cmdline":"","sysctls":{}}'
NOTE_N="48 clients read a 200 MB file from one 4-way SMP NFS server over TCP; aggregate MB/sec and server CPU as the mail gives them; the patched label is Hirokazu Takahashi's va01-va03 zerocopy patches"
nfsclients() {
	jq -n --argjson t "$1" --argjson c "$2" '[{params: {op: "read", clients: 48,
		proto: "tcp", mode: "mounted"}, m: {throughput_MBps: $t, cpu_remote_pct: $c}}]'
}
doc 002a-nfs-clients-vanilla.json nfsbench "2.5.7" "2002-04-12T11:10:46Z" "$S002" "$NOTE_N" "$H002" '[]' \
	"$(jq -n "$M_TPUT + $M_CPUR")" "$(nfsclients 87 100)"
doc 002b-nfs-clients-zerocopy.json nfsbench "2.5.7+zerocopy-nfs" "2002-04-12T11:10:46Z" "$S002" "$NOTE_N" "$H002" '[]' \
	"$(jq -n "$M_TPUT + $M_CPUR")" "$(nfsclients 130 82)"

# ---- seed 004: chat benchmark, 2.4.4pre2 vs pre3 (Maneesh Soni, 2001-05-31) ----
S004='seed 004: Maneesh Soni, "Performance effects of zero-copy patch", 2001-05-31'
H004='{"hostname":"","kernel_release":"","cpu_model":"4-way PIII Xeon, 1MB L2","online_cpus":4,"mem_bytes":1073741824,"cmdline":"","sysctls":{}}'
M_CHAT='{"msgs_per_s":{"unit":"msg/s","better":"higher","rate":true},
 "real_s":{"unit":"s","better":"lower","rate":false},
 "system_s":{"unit":"s","better":"lower","rate":false},
 "user_s":{"unit":"s","better":"lower","rate":false},
 "time_cpu_pct":{"unit":"%","better":"lower","rate":false}}'
NOTE_CH="50 runs, server and clients on the same machine, 100-byte messages; the summary holds the published mean and standard deviation over the 50 runs (n = 50), the one sample the means"
chat() { # lines "METRIC MEAN SD"
	printf '%s\n' "$@" | jq -R 'split(" ") | {(.[0]): {n: 50, mean: (.[1] | tonumber),
		stddev: (.[2] | tonumber), cov: ((.[2] | tonumber) / (.[1] | tonumber)),
		min: null, median: null, max: null, ci95: [null, null]}}' | jq -s '
		add as $s | [{params: {size: 100, nodelay: false},
		m: ($s | with_entries(.value = .value.mean)),
		summary: $s}]'
}
doc 004a-chat-pre2.json chatbench "2.4.4pre2" "2001-05-31T12:09:21Z" "$S004" "$NOTE_CH" "$H004" '[]' "$M_CHAT" \
	"$(chat "msgs_per_s 247565.408163 9455.052520" "real_s 16.346939 0.626732" \
	"system_s 33.124694 1.378236" "user_s 1.040408 0.118198" "time_cpu_pct 208.469388 1.608597")"
doc 004b-chat-pre3.json chatbench "2.4.4pre3" "2001-05-31T12:09:21Z" "$S004" "$NOTE_CH" "$H004" '[]' "$M_CHAT" \
	"$(chat "msgs_per_s 218249.040816 8672.886637" "real_s 18.730000 0.732203" \
	"system_s 36.602041 1.464336" "user_s 1.088163 0.112021" "time_cpu_pct 200.612245 1.238553")"
ls -1 ./*.json
