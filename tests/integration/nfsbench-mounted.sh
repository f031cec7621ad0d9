#!/usr/bin/env bash
# nfsbench-mounted: mounted mode on a plain directory (there is no kernel
# NFS client here; the code path is the same): clients on a barrier,
# own and shared files, write then verified read, --drop-caches, O_DIRECT
# or its clear refusal, the mount facts and the "not NFS" warning,
# --server-pid on a process of ours.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
T=$ZCB_TEST_TMP
dir=$T/mnt
mkdir -p "$dir"

# 3 clients write their own files (default for writes)
"$NB" -w -n 3 -b 1000000 -s 64k -o "$T/w.json" "$dir" >"$T/w.out" || zcb_fail "write"
nb_doc_ok "$T/w.json"
for i in 0 1 2; do
	[ "$(stat -c %s "$dir/nfsbench.dat.$i")" = 1000000 ] || zcb_fail "file $i size"
done
jq -e '.cases[0].params | .mode == "mounted" and .op == "write" and .clients == 3
	and .iosize == 65536 and .direct == false' "$T/w.json" >/dev/null ||
	zcb_fail "params: $(jq -c '.cases[0].params' "$T/w.json")"
jq -e '.cases[0].samples[0] | .bytes == 3000000 and .ops == 48' "$T/w.json" >/dev/null ||
	zcb_fail "write counts: $(jq -c '.cases[0].samples[0] | {bytes,ops}' "$T/w.json")"
fstype=$(stat -f -c %T "$dir")
case "$fstype" in nfs*) ;; *)
	jq -e '.warnings | any(test("not NFS"))' "$T/w.json" >/dev/null ||
		zcb_fail "no 'not NFS' warning on $fstype" ;;
esac
zcb_ok "3 clients wrote their own files"

# read them back, verified, own files, 2 sizes x 2 repeats, with CPU;
# a sleeping process of ours stands in for a local server
sleep 300 &
spid=$!
zcb_track "$spid"
"$NB" -n 3 --files own -s 4k,1m -R 2 --verify --cpu=rusage --server-pid "$spid" \
	--rsize 8192 --wsize 8192 -L mnt-test -o "$T/r.json" "$dir" >"$T/r.out" ||
	zcb_fail "read back"
nb_doc_ok "$T/r.json"
jq -e '(.cases | length) == 2 and all(.cases[]; (.samples | length) == 2 and
	all(.samples[]; .bytes == 3000000 and .verified_bytes == 3000000)
	and .params.rsize == 8192 and .params.wsize == 8192)' "$T/r.json" >/dev/null ||
	zcb_fail "read back counts"
jq -e '.cases[0].samples[0].metrics | .cpu_remote_pid_pct >= 0 and .cpu_remote_pid_pct < 5
	and .cpu_local_rusage_pct >= 0' "$T/r.json" >/dev/null ||
	zcb_fail "CPU metrics: $(jq -c '.cases[0].samples[0].metrics' "$T/r.json")"
grep -qE "^mnt-test +8192 +8192" "$T/r.out" || zcb_fail "seed table row with the label"
grep -q "^NFS server results" "$T/r.out" || zcb_fail "server table"
tail -1 "$T/r.out" | grep -q "^nfsbench: ok" || zcb_fail "summary line"
zcb_ok "verified read back, seed tables, CPU of a given PID"

# many clients on one shared file, released together
"$NB" -n 1,8 -s 16k --verify -o "$T/s.json" "$dir/nfsbench.dat.0" >"$T/s.out" || zcb_fail "shared"
jq -e '[.cases[].samples[0].bytes] == [1000000, 8000000]' "$T/s.json" >/dev/null ||
	zcb_fail "shared file byte counts"
grep -Eq "^Kernel +clients +MB/sec +server CPU" "$T/s.out" || zcb_fail "no seed-002 table"
zcb_ok "1 and 8 clients on one file, seed-002 table"

# a corrupted byte is caught and named
printf 'X' | dd of="$dir/nfsbench.dat.1" bs=1 seek=123456 conv=notrunc status=none
"$NB" -s 64k --verify -o "$T/bad.json" "$dir/nfsbench.dat.1" 2>"$T/bad.err" &&
	zcb_fail "corruption not detected"
nb_doc_failed "$T/bad.json" "offset 123456"
zcb_ok "corruption found at its offset"

# --drop-caches (root) and O_DIRECT (or a clear refusal where unsupported)
if [ "$(id -u)" = 0 ]; then
	"$NB" -s 64k --drop-caches -q -o "$T/dc.json" "$dir/nfsbench.dat.2" || zcb_fail "drop-caches"
	jq -e '.config.drop_caches == true' "$T/dc.json" >/dev/null || zcb_fail "drop_caches config"
	zcb_ok "--drop-caches"
fi
if "$NB" -s 64k --direct --verify -q -o "$T/d.json" "$dir/nfsbench.dat.2" 2>"$T/d.err"; then
	jq -e '.cases[0].params.direct == true and .cases[0].samples[0].verified_bytes == 1000000' \
		"$T/d.json" >/dev/null || zcb_fail "O_DIRECT read"
	zcb_ok "O_DIRECT read verified"
else
	nb_doc_failed "$T/d.json" "O_DIRECT"
	zcb_ok "O_DIRECT refused clearly on $fstype: $(zcb_json "$T/d.json" .error)"
fi
"$NB" -s 1000 --direct "$dir/nfsbench.dat.2" -o "$T/d2.json" 2>/dev/null && zcb_fail "odd O_DIRECT size"
nb_doc_failed "$T/d2.json" "multiple of 512"
zcb_ok "O_DIRECT size check"
