#!/usr/bin/env bash
# nfsbench-v4: libnfs NFSv4 against a real nfs-ganesha on loopback. Every
# request size from 1 KiB to 1 MiB reads a random file back byte for byte
# (--verify-file against the export's own copy), sync and with a queue;
# several clients; writes verified by checksum; server CPU by PID.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
nb_need_libnfs
nb_ganesha 4

# an odd-sized random file: the last request of every size is short
size=$((3 * 1048576 + 123))
head -c "$size" /dev/urandom >"$GEXPORT/rand"
sum=$(sha256sum <"$GEXPORT/rand" | cut -d' ' -f1)

# 1. every request size, synchronous
nb -s 1k..1m --verify-file "$GEXPORT/rand" -o "$ZCB_TEST_TMP/sync.json" \
	"$(nb_url rand)" >"$ZCB_TEST_TMP/sync.out" || zcb_fail "sync sweep failed"
d=$ZCB_TEST_TMP/sync.json
nb_doc_ok "$d"
[ "$(zcb_json "$d" '.cases | length')" = 11 ] || zcb_fail "expected 11 cases"
bad=$(jq --argjson n "$size" '[.cases[] | select(.samples[0].bytes != $n
	or .samples[0].verified_bytes != $n)] | length' "$d")
[ "$bad" = 0 ] || zcb_fail "$bad sizes did not read and verify $size bytes"
jq -e '[.cases[].params.rsize] == [1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576]' "$d" >/dev/null ||
	zcb_fail "rsize params are not 1 KiB .. 1 MiB"
jq -e '.cases[0].params | .vers == "4" and .mode == "libnfs" and .op == "read"
	and .clients == 1 and .qd == 1 and .proto == "tcp"' "$d" >/dev/null ||
	zcb_fail "params: $(jq -c '.cases[0].params' "$d")"
# 1 KiB requests: one op per KiB (+1 for the odd tail)
[ "$(jq '.cases[0].samples[0].ops' "$d")" = $((size / 1024 + 1)) ] ||
	zcb_fail "1 KiB ops: $(jq '.cases[0].samples[0].ops' "$d")"
jq -e '.cases[0].summary.throughput_MBps.mean > 0' "$d" >/dev/null ||
	zcb_fail "no throughput summary"
grep -q "^NFS/TCP client results$" "$ZCB_TEST_TMP/sync.out" || zcb_fail "no client table"
grep -qE "^Kernel +rsize +wsize +mbyte/sec +CPU" "$ZCB_TEST_TMP/sync.out" ||
	zcb_fail "no seed-001 header"
[ "$(sha256sum <"$GEXPORT/rand" | cut -d' ' -f1)" = "$sum" ] || zcb_fail "file changed"
zcb_ok "v4 sync reads of 1 KiB .. 1 MiB verified byte for byte"

# 2. the same with 16 requests in flight (async API)
nb -s 1k,4k,64k,1m --qd 16 --verify-file "$GEXPORT/rand" -q \
	-o "$ZCB_TEST_TMP/async.json" "$(nb_url rand)" || zcb_fail "async sweep failed"
d=$ZCB_TEST_TMP/async.json
nb_doc_ok "$d"
jq -e --argjson n "$size" 'all(.cases[]; .samples[0].verified_bytes == $n and .params.qd == 16)' "$d" >/dev/null ||
	zcb_fail "async reads not verified"
zcb_ok "v4 async qd 16 verified"

# 3. several clients on one file, pattern-checked, with client and server CPU
"$NB" -w -b 2000000 -s 64k --files shared -q "$GEXPORT/pat" || zcb_fail "local pattern write"
nb -n 4 -s 32k --qd 4 --verify -c --cpu=procstat,rusage --server-pid "$GPID" -R 2 \
	-L v4-test -J "$(nb_url pat)" >"$ZCB_TEST_TMP/multi.json" 2>"$ZCB_TEST_TMP/multi.err" ||
	zcb_fail "4 clients failed: $(cat "$ZCB_TEST_TMP/multi.err")"
d=$ZCB_TEST_TMP/multi.json
nb_doc_ok "$d"
[ "$(zcb_json "$d" .label)" = v4-test ] || zcb_fail "label"
jq -e '.cases | length == 1' "$d" >/dev/null || zcb_fail "one case expected"
jq -e '.cases[0].samples | length == 2' "$d" >/dev/null || zcb_fail "two samples expected"
jq -e 'all(.cases[0].samples[]; .bytes == 8000000 and .verified_bytes == 8000000)' "$d" >/dev/null ||
	zcb_fail "4 clients x 2000000 bytes not read and verified"
jq -e '.cases[0].samples[0] | .same_box == true and
	(.metrics.cpu_remote_pct >= 0) and (.metrics.cpu_remote_pid_pct >= 0) and
	(.metrics.cpu_local_pct >= 0) and (.metrics.cpu_local_rusage_pct >= 0) and
	.cpu.remote[0].meter == "pid" and .cpu.local[0].meter == "procstat"' "$d" >/dev/null ||
	zcb_fail "CPU figures missing: $(jq -c '.cases[0].samples[0].metrics' "$d")"
jq -e '.metrics.throughput_MBps.unit == "MB/s" and .metrics.cpu_remote_pct.better == "lower"' "$d" >/dev/null ||
	zcb_fail "metric definitions"
grep -q "server pid" "$ZCB_TEST_TMP/multi.err" || zcb_fail "no server CPU in the text (stderr with -J)"
zcb_ok "4 clients, client and server CPU"

# 4. writes through libnfs (own file each) match a locally written copy
nb -w -n 2 -b 777777 -s 1k,2k --qd 2 -q -o "$ZCB_TEST_TMP/w.json" "$(nb_url w)" ||
	zcb_fail "v4 write failed"
nb_doc_ok "$ZCB_TEST_TMP/w.json"
jq -e '[.cases[].samples[0].bytes] == [1555554, 1555554]' "$ZCB_TEST_TMP/w.json" >/dev/null ||
	zcb_fail "write byte counts"
"$NB" -w -b 777777 -s 100k -q "$ZCB_TEST_TMP/ref" || zcb_fail "local write"
want=$(sha256sum <"$ZCB_TEST_TMP/ref.0" | cut -d' ' -f1)
for f in w.0 w.1; do
	[ "$(sha256sum <"$GEXPORT/$f" | cut -d' ' -f1)" = "$want" ] ||
		zcb_fail "$f written through libnfs differs from the local copy"
done
zcb_ok "v4 writes verified by sha256"

# 5. the server's CPU from `cyclesoak --serve` (--remote-cpu)
if cs=$(zcb_bin cyclesoak 2>/dev/null); then
	"$cs" --serve --port 0 >"$ZCB_TEST_TMP/cs.out" 2>&1 &
	cspid=$!
	zcb_track "$cspid"
	for _ in $(seq 1 100); do
		csport=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$ZCB_TEST_TMP/cs.out")
		[ -n "$csport" ] && break
		sleep 0.05
	done
	[ -n "$csport" ] || zcb_fail "cyclesoak --serve did not say its port"
	nb -s 64k -c --remote-cpu "127.0.0.1:$csport" -q -o "$ZCB_TEST_TMP/rc.json" \
		"$(nb_url rand)" || zcb_fail "--remote-cpu run failed"
	d=$ZCB_TEST_TMP/rc.json
	nb_doc_ok "$d"
	# (a run of a few ms: the remote procstat may say it is below its
	# resolution instead of naming a figure)
	jq -e "$ZCB_JQ_CPU"'(.peer.hostname | length) > 0 and
		(.cases[0].samples[0] | named("remote"; "procstat"; "cpu_remote_pct")) and
		(.cases[0].samples[0].metrics.cpu_remote_pct // 0 >= 0) and
		(.cases[0].samples[0].cpu.remote | length) >= 1' "$d" >/dev/null ||
		zcb_fail "no remote CPU from cyclesoak: $(jq -c '.cases[0].samples[0].metrics' "$d")"
	kill "$cspid"
	wait "$cspid" 2>/dev/null
	nb -s 64k --remote-cpu "127.0.0.1:$csport" -q -o "$ZCB_TEST_TMP/rc2.json" \
		"$(nb_url rand)" 2>/dev/null && zcb_fail "--remote-cpu to a dead server succeeded"
	nb_doc_failed "$ZCB_TEST_TMP/rc2.json" "CPU: .*127.0.0.1"
	zcb_ok "server CPU through cyclesoak --serve; a dead one is named"
else
	echo "# cyclesoak not built: --remote-cpu not exercised"
fi
