#!/usr/bin/env bash
# report-explain.sh: when compare flags a rate or CPU row, it says under
# the tables what changed with it (issue 24): the host facts that differ
# (a kernel, a sysctl), TCP's facts of the same case on both ends
# (retransmits, the limited times, RTT, window) and the profile's
# families that moved most; in the N-kernel table too (as notes), never
# in CSV; nothing when nothing was flagged. A document's strings are
# escaped on the way.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/base" "$d/new" "$d/same"

# facts DOC RETR RWND SRTT COPY SYSCTL: TCP's facts on both ends, the
# profile's copy and stack families, a sysctl, into every sample
facts() {
	jq --argjson r "$2" --argjson w "$3" --argjson s "$4" --argjson c "$5" --arg sc "$6" '
	.host.sysctls["net.ipv4.tcp_rmem"] = $sc |
	.cases[].samples[] |= (. + {
		tcp: {retrans: $r, rwnd_limited_pct: $w, sndbuf_limited_pct: 0,
		      srtt_us: $s, min_rtt_us: 20, cwnd: 40},
		remote: {tcp: {retrans: 0, rwnd_limited_pct: 0,
			       sndbuf_limited_pct: 0, srtt_us: 25,
			       min_rtt_us: 20, cwnd: 10}}} |
		.metrics.prof_local_copy_pct = $c |
		.metrics.prof_local_stack_pct = 15 |
		.metrics.prof_local_self_copy_pct = 99)' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
MK_PARAMS='{"method":"send\u001b[31mfile","size":65536}' mkdoc "$d/base/r.json" 6.1.0 1000 10 10 1
facts "$d/base/r.json" 0 0.5 45 17.1 "4096 131072 6291456"
MK_PARAMS='{"method":"send\u001b[31mfile","size":65536}' MK_KERNEL=6.2.0 mkdoc "$d/new/r.json" 6.2.0 800 10 10 2
facts "$d/new/r.json" 153 31.2 210 25.3 "4096 65536 1048576"

rc=0; "$Z" compare "$d/base" "$d/new" >"$d/out" 2>"$d/err" || rc=$?
[ $rc = 1 ] || { cat "$d/out" "$d/err"; zcb_fail "the regression: exit $rc, want 1"; }
sed -n '/^What changed with the flagged rate and CPU rows/,/^$/p' "$d/out" >"$d/why"
[ -s "$d/why" ] || { cat "$d/out"; zcb_fail "no block under the tables"; }
cat "$d/why"
grep -q '^  ttcp-sf method=send\\x1b\[31mfile size=65536: throughput_MBps -[0-9.]*% REGRESSION; cpu_local_pct +[0-9.]*% REGRESSION$' "$d/why" ||
	zcb_fail "the case's heading (its rows, escaped)"
! grep -q $'\x1b' "$d/out" || zcb_fail "an ESC from a document reached the terminal"
grep -q '^    host: kernel_release 6.1.0 -> 6.2.0$' "$d/why" || zcb_fail "the kernel"
grep -q '^    host: sysctl net.ipv4.tcp_rmem 4096 131072 6291456 -> 4096 65536 1048576$' "$d/why" || zcb_fail "the sysctl"
grep -q '^    tcp (this end): retr 0 -> 153, rwnd-limited 0.5% -> 31.2%, sndbuf-limited 0.0% -> 0.0%, srtt 45 -> 210 us, min rtt 20 -> 20 us, cwnd 40 -> 40$' "$d/why" ||
	zcb_fail "TCP's facts of this end"
grep -q '^    tcp (the other end): retr 0 -> 0, ' "$d/why" || zcb_fail "TCP's facts of the other end"
grep -q '^    profile (local): copy 17.1% -> 25.3% (+8.2)$' "$d/why" || zcb_fail "the profile's families (stack did not move, self is not one)"
zcb_ok "two kernels: host, TCP and profile under the tables"

# the N-kernel table: the same, as notes, per kernel; CSV: none
cp "$d/base/r.json" "$d/same/r.json"
rc=0; "$Z" compare --format markdown "$d/base" "$d/same" "$d/new" >"$d/md" 2>"$d/err" || rc=$?
[ $rc = 1 ] || zcb_fail "markdown: exit $rc"
grep -q 'What changed with the flagged rate and CPU rows' "$d/md" || { cat "$d/md"; zcb_fail "markdown: no block"; }
grep -q 'tcp (this end): retr 0 -> 153' "$d/md" || zcb_fail "markdown: no TCP facts"
rc=0; "$Z" compare --format csv "$d/base" "$d/new" >"$d/csv" 2>"$d/err" || rc=$?
! grep -q 'What changed' "$d/csv" || zcb_fail "CSV has prose"
# nothing flagged: no block
rc=0; "$Z" compare "$d/base" "$d/same" >"$d/q" 2>"$d/err" || rc=$?
[ $rc = 0 ] || zcb_fail "identical: exit $rc"
! grep -q 'What changed' "$d/q" || zcb_fail "a block with nothing flagged"
zcb_ok "N kernels as notes, none in CSV, none when nothing was flagged"
