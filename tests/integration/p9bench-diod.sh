#!/usr/bin/env bash
# p9bench-diod.sh: p9bench against a real diod on loopback (`diod -d 1`
# logs every message it decodes): the full message set, exact message
# and byte counts, split I/O above msize - 24, msize negotiation, the
# file's bytes on disk, Rlerror for a missing file, the unix transport.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd diod
zcb_need_cmd jq
P9=$(zcb_bin p9bench) || exit 1
PEER="$ZCB_SRCDIR/scripts/peer-diod"

read -r pid addr export log < <("$PEER" start --debug) || zcb_fail "diod did not start"
zcb_track "$pid"
zcb_on_exit "rm -rf '$(dirname "$export")'"
T=$ZCB_TEST_TMP

# 1. a sweep that creates the file: 3 sizes (70000 > 65536 - 24 is split),
#    write then read, both paths, 40 ops each
"$P9" -s "$addr" -a "$export" --ops 40 --sizes 1,4096,70000 --file t.dat \
	--keep --verify -o "$T/r1.json" --label itest >"$T/out1" 2>"$T/err1" ||
	zcb_fail "sweep failed: $(cat "$T/err1")"
zcb_json "$T/r1.json" .status | grep -qx ok || zcb_fail "status not ok"
[ "$(zcb_json "$T/r1.json" '.cases | length')" = 12 ] || zcb_fail "expected 12 cases"
zcb_json "$T/r1.json" .label | grep -qx itest || zcb_fail "label not kept"
bad=$(jq -r '.cases[] | .params as $p | .samples[0] |
	select(.bytes != 40 * $p.iosize or .ops != 40 or
	       .msgs != 40 * (if $p.iosize > 65512 then 2 else 1 end) or
	       $p.msize != 65536 or $p.qd != 1 or $p.mode != "9p" or
	       $p.total_bytes != 40 * $p.iosize or
	       (.metrics.throughput_MBps > 0 | not) or
	       (.metrics.ops_per_s > 0 | not) or
	       ($p.path == "copy" and .copied_bytes != .bytes) or
	       ($p.path == "direct" and .copied_bytes != 0)) |
	"\($p.op) \($p.iosize) \($p.path)"' "$T/r1.json")
[ -z "$bad" ] || zcb_fail "wrong sample figures: $bad"
[ "$(jq '[.cases[] | select(.params.op == "read") | .samples[0].verify_bad_bytes] | add' "$T/r1.json")" = 0 ] ||
	zcb_fail "read data did not verify"
zcb_ok "sweep: 12 cases with exact bytes, ops, messages and copy counts"

# the seed's tables
for h in WRITE READ; do
	grep -qx "$h" "$T/out1" || zcb_fail "no $h table"
done
grep -Eq '^IO SIZE +TOTAL SIZE +No ZC +ZC$' "$T/out1" || zcb_fail "no seed header"
grep -Eq '^4096 +160KB +[0-9.]+ [km]b/s +[0-9.]+ [km]b/s$' "$T/out1" ||
	zcb_fail "no seed-style row for 4096: $(cat "$T/out1")"
grep -q "Linux v9fs over TCP always copies" "$T/out1" || zcb_fail "paths not labelled"
tail -1 "$T/out1" | grep -q "^p9bench: 9P server $addr" || zcb_fail "no summary line"
zcb_ok "seed tables printed"

# what diod decoded: the messages and their fields
grep -q "P9_TVERSION tag 65535 msize 65536 version '9P2000.L'" "$log" || zcb_fail "no Tversion"
grep -q "P9_TATTACH tag 0 fid 1 afid -1 uname '.*' aname '$export' n_uname $(id -u)" "$log" ||
	zcb_fail "no Tattach with aname and n_uname"
grep -q "P9_TWALK tag 0 fid 1 newfid 2 nwname 1 't.dat'" "$log" || zcb_fail "no Twalk"
grep -q "P9_TLCREATE tag 0 fid 2 name 't.dat' flags 0xc2 mode 0644" "$log" || zcb_fail "no Tlcreate"
n=$(grep -c "P9_TWRITE tag 0 fid 2 offset [0-9]* count 4096$" "$log")
[ "$n" = 80 ] || zcb_fail "expected 80 Twrite of 4096 (40 ops x 2 paths), saw $n"
n=$(grep -c "P9_TREAD tag 0 fid 2 offset [0-9]* count 1$" "$log")
[ "$n" = 80 ] || zcb_fail "expected 80 Tread of 1, saw $n"
n=$(grep -c "P9_TREAD tag 0 fid 2 offset [0-9]* count 65512$" "$log")
m=$(grep -c "P9_TREAD tag 0 fid 2 offset [0-9]* count 4488$" "$log")
{ [ "$n" = 80 ] && [ "$m" = 80 ]; } || zcb_fail "70000-byte reads not split 65512 + 4488 ($n, $m)"
grep -q "P9_TREAD tag 0 fid 2 offset 70000 count 65512$" "$log" || zcb_fail "split offsets wrong"
if grep -Eq "count (6551[3-9]|655[2-9][0-9]|65[6-9][0-9][0-9]|6[6-9][0-9]{3}|[7-9][0-9]{4})$" "$log"; then
	zcb_fail "an I/O larger than msize - 24 was sent"
fi
[ "$(grep -c P9_RLERROR "$log")" = 1 ] || zcb_fail "unexpected Rlerror: $(grep -B1 P9_RLERROR "$log")"
grep -q "P9_TCLUNK tag 0 fid 2" "$log" || zcb_fail "no Tclunk"
zcb_ok "diod decoded Tversion, Tattach, Twalk, Tlcreate, Tread/Twrite, Tclunk as sent"

# the file on the server: 40 x 70000 bytes of pat(offset) = offset % 251
size=$(stat -c %s "$export/t.dat")
[ "$size" = 2800000 ] || zcb_fail "file has $size bytes, expected 2800000"
for off in 0 250 251 4097 69999 70000 2799999; do
	b=$(od -An -tu1 -j "$off" -N 1 "$export/t.dat" | tr -d ' ')
	[ "$b" = $((off % 251)) ] || zcb_fail "byte at $off is $b, expected $((off % 251))"
done
zcb_ok "file content is the pattern at every offset checked"

# 2. the existing file: Twalk, Tgetattr, Tlopen; reads only; not removed
: >"$log"
"$P9" -s "$addr" -a "$export" --ops 20 --sizes 4096 --file t.dat --op read \
	--path direct --qd 4 --verify --no-create -J >"$T/r2.json" 2>"$T/err2" ||
	zcb_fail "read of the existing file failed: $(cat "$T/err2")"
[ "$(jq '.cases | length' "$T/r2.json")" = 1 ] || zcb_fail "expected 1 case"
[ "$(jq '.cases[0].params.qd' "$T/r2.json")" = 4 ] || zcb_fail "qd not recorded"
[ "$(jq '.cases[0].samples[0].verify_bad_bytes' "$T/r2.json")" = 0 ] || zcb_fail "data did not verify"
grep -q "P9_TGETATTR tag 0 fid 2" "$log" || zcb_fail "no Tgetattr"
grep -q "P9_TLOPEN tag 0 fid 2 flags 00" "$log" || zcb_fail "no read-only Tlopen"
grep -q "P9_TREAD tag 3 fid 2" "$log" || zcb_fail "no 4th tag in flight"
grep -q "P9_TWRITE" "$log" && zcb_fail "a read-only run wrote"
[ -f "$export/t.dat" ] || zcb_fail "an existing file was removed"
zcb_ok "existing file: Tgetattr, read-only Tlopen, 4 tags in flight, kept"

# 3. msize negotiation and "max": propose 8192, I/O of 8192 - 24
: >"$log"
"$P9" -s "$addr" -a "$export" --msize 8192 --ops 10 --sizes max -o "$T/r3.json" \
	>"$T/out3" 2>"$T/err3" || zcb_fail "msize 8192 run failed: $(cat "$T/err3")"
grep -q "P9_RVERSION tag 65535 msize 8192" "$log" || zcb_fail "msize not negotiated"
[ "$(jq '[.cases[].params | select(.iosize == 8168 and .msize == 8192)] | length' "$T/r3.json")" = 4 ] ||
	zcb_fail "size max is not msize - 24"
grep -q "count 8168$" "$log" || zcb_fail "no 8168-byte I/O"
compgen -G "$export/p9bench.*" >/dev/null && zcb_fail "the made-up test file was not removed"
grep -q "P9_TREMOVE tag 0 fid 2" "$log" || zcb_fail "no Tremove"
zcb_ok "msize 8192 negotiated; 'max' = 8168; test file removed by Tremove"

# 4. Rlerror: walking to a missing file names it and ENOENT
zcb_expect_fail "missing file" "$P9" -s "$addr" -a "$export" --no-create \
	--file missing.dat --ops 1 --sizes 1 -o "$T/r4.json"
grep -q "9P server $addr: Twalk 'missing.dat': No such file or directory" "$ZCB_TEST_TMP/err" ||
	zcb_fail "ENOENT not named: $(cat "$ZCB_TEST_TMP/err")"
[ "$(jq -r .status "$T/r4.json")" = failed ] || zcb_fail "no failed document"
zcb_ok "missing file: Rlerror ENOENT named, failed document"

# 5. the unix-socket transport
sock="$T/diod.sock"
read -r upid _ uexport _ < <("$PEER" start --unix "$sock") || zcb_fail "diod on a unix socket did not start"
zcb_track "$upid"
zcb_on_exit "rm -rf '$(dirname "$uexport")'"
"$P9" -s "unix:$sock" -a "$uexport" --ops 10 --sizes 512 -J >"$T/r5.json" 2>"$T/err5" ||
	zcb_fail "unix transport failed: $(cat "$T/err5")"
[ "$(jq '[.cases[].samples[0].bytes] | add' "$T/r5.json")" = 20480 ] || zcb_fail "unix: wrong bytes"
zcb_ok "unix socket transport"
"$PEER" stop "$upid" "$uexport"

# 6. CPU: this box (-c), the server's host (cyclesoak --serve), diod itself
if CS=$(zcb_bin cyclesoak 2>/dev/null); then
	"$CS" --serve --port=0 >"$T/cs.out" 2>&1 &
	cs=$!
	zcb_track "$cs"
	for _ in $(seq 1 100); do
		csport=$(sed -n 's/.*serving on 127.0.0.1 port \([0-9]*\).*/\1/p' "$T/cs.out")
		[ -n "$csport" ] && break
		sleep 0.05
	done
	[ -n "$csport" ] || zcb_fail "cyclesoak --serve did not say its port: $(cat "$T/cs.out")"
	"$P9" -s "$addr" -a "$export" --duration 0.3 --sizes 4096 --cpu=procstat \
		--remote-cpu "127.0.0.1:$csport" --server-pid "$pid" -o "$T/r6.json" \
		>"$T/out6" 2>"$T/err6" || zcb_fail "CPU run failed: $(cat "$T/err6")"
	bad=$(jq -r '.cases[] | .samples[0] | select((.metrics.cpu_local_pct >= 0 | not) or
		(.metrics.cpu_remote_pct >= 0 | not) or (.metrics.cpu_server_pct >= 0 | not) or
		.metrics.cpu_server_pct > 100 or .same_box != true) | .metrics' "$T/r6.json")
	[ -z "$bad" ] || zcb_fail "CPU metrics missing: $bad"
	jq -e '.peer.hostname' "$T/r6.json" >/dev/null || zcb_fail "no peer host facts"
	grep -q "this box (procstat) = server host, server process" "$T/out6" || zcb_fail "CPU columns not labelled"
	zcb_ok "CPU: local, remote (cyclesoak --serve, same box) and server process"
else
	echo "# cyclesoak not built: --remote-cpu not tested"
fi
"$PEER" stop "$pid" "$export"
exit 0
