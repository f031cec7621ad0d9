#!/usr/bin/env bash
# result-output: a result document that cannot be written is an error,
# in all seven tools. `-o` (zcs/zcc: --output) into a missing directory
# fails at once with one line, before the run; a write that fails at the
# end (/dev/full, a full tmpfs this test mounts) makes the tool exit
# non-zero; a failed run never replaces a good document, it goes beside
# it as FILE.failed; /dev/full is written in place, never renamed over.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq
CS=$(zcb_bin cyclesoak) || exit 1
CB=$(zcb_bin chatbench) || exit 1
P9=$(zcb_bin p9bench) || exit 1
NB=$(zcb_bin nfsbench) || exit 1
T=$ZCB_TEST_TMP
D=$T/data
mkdir -p "$D"
head -c 100000 /dev/urandom >"$T/file"

# Four tools that run alone, each writing its document to $1 (ttcp-sf,
# zcs and zcc need their other side: the cases below start it).
run_cyclesoak() { "$CS" --cpu=procstat -o "$1" -- touch "$T/cs-ran"; }
run_chatbench() { "$CB" -r 1 -u 2 -m 5 -o "$1"; }
run_p9bench() { "$P9" --mount "$D" --ops 10 --sizes 4096 -o "$1"; }
run_nfsbench() { "$NB" -w -n 1 -b 100000 -s 64k -o "$1" "$D"; }
# one_line FILE PATTERN: FILE is one line, matching PATTERN
one_line() { [ "$(wc -l <"$1")" = 1 ] && grep -q "$2" "$1"; }

# 1. a missing directory: one line, non-zero, nothing run
for t in cyclesoak chatbench p9bench nfsbench; do
	rm -f "$T/cs-ran"
	"run_$t" "$T/nodir/r.json" >"$T/$t.out" 2>"$T/$t.err" && zcb_fail "$t: -o into a missing directory succeeded"
	one_line "$T/$t.err" "cannot write the result to $T/nodir/r.json: no directory $T/nodir" ||
		zcb_fail "$t: not one clear line: $(cat "$T/$t.err")"
	[ -s "$T/$t.out" ] && zcb_fail "$t ran anyway: $(cat "$T/$t.out")"
done
[ -e "$T/cs-ran" ] && zcb_fail "cyclesoak ran its command"
for args in "-r -p 0" "-t 127.0.0.1"; do
	# shellcheck disable=SC2086
	"$TTCP" $args -o "$T/nodir/r.json" >"$T/tt.out" 2>"$T/tt.err" && zcb_fail "ttcp-sf $args: succeeded"
	one_line "$T/tt.err" "no directory $T/nodir" ||
		zcb_fail "ttcp-sf $args: $(cat "$T/tt.err")"
done
"$ZCS" -p 0 --output "$T/nodir/r.json" >"$T/zcs.out" 2>"$T/zcs.err" && zcb_fail "zcs: succeeded"
one_line "$T/zcs.err" "no directory $T/nodir" || zcb_fail "zcs: $(cat "$T/zcs.err")"
"$ZCC" -s 127.0.0.1 -p 1 --output "$T/nodir/r.json" "$T/file" >"$T/zcc.out" 2>"$T/zcc.err" && zcb_fail "zcc: succeeded"
one_line "$T/zcc.err" "no directory $T/nodir" || zcb_fail "zcc: $(cat "$T/zcc.err")"
"$CS" --cpu=procstat -o "$D" -- true 2>"$T/dir.err" && zcb_fail "cyclesoak -o DIRECTORY succeeded"
grep -q "is a directory" "$T/dir.err" || zcb_fail "-o DIRECTORY: $(cat "$T/dir.err")"
zcb_ok "a missing directory: all seven tools stop at once with one line"

# 2. the write fails at the end (/dev/full): exit non-zero, device kept
if [ -c /dev/full ]; then
	for t in cyclesoak chatbench p9bench nfsbench; do
		"run_$t" /dev/full >"$T/$t.out" 2>"$T/$t.err" && zcb_fail "$t: exit 0 though /dev/full took nothing"
		grep -q "cannot write /dev/full: No space left" "$T/$t.err" || zcb_fail "$t: $(cat "$T/$t.err")"
	done
	# ttcp-sf: both sides
	tt_recv "$T/tt" -o /dev/full
	"$TTCP" -t -p "$TT_PORT" -n 10 -o /dev/full 127.0.0.1 >"$T/tt.out" 2>&1 && zcb_fail "ttcp-sf -t: exit 0 on /dev/full"
	tt_wait_recv
	[ "$TT_RRC" != 0 ] || zcb_fail "ttcp-sf -r: exit 0 on /dev/full"
	# zcs and zcc
	zcs_start full --exit-after 1 --output /dev/full
	"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" --output /dev/full "$T/file" >"$T/zcc.out" 2>&1 &&
		zcb_fail "zcc: exit 0 on /dev/full"
	zcb_wait_gone "$ZCS_PID" 10 || zcb_fail "zcs did not stop"
	wait "$ZCS_PID" && zcb_fail "zcs: exit 0 on /dev/full"
	[ -c /dev/full ] || zcb_fail "/dev/full is no longer a device"
	zcb_ok "/dev/full: all seven tools exit non-zero; the device is still a device"
fi

# 3. a failed run never overwrites a good document
run_cyclesoak "$D/keep.json" >/dev/null 2>&1 || zcb_fail "cyclesoak: a good run failed"
id=$(jq -r .run_id "$D/keep.json")
"$CS" --cpu=procstat -o "$D/keep.json" -- false >/dev/null 2>"$T/cs.err" && zcb_fail "cyclesoak -- false: exit 0"
[ "$(jq -r '.status + " " + .run_id' "$D/keep.json")" = "ok $id" ] || zcb_fail "the good document was replaced"
[ "$(jq -r .status "$D/keep.json.failed")" = failed ] || zcb_fail "no failed document beside it"
grep -q "keep.json holds a good run: this failed run's document is $D/keep.json.failed" "$T/cs.err" ||
	zcb_fail "not said: $(cat "$T/cs.err")"
# zcs: a good document, then a run that dies at once (a bad --bind)
zcs_start good --output "$D/zcs.json"
zcs_stop "$ZCS_PID"
id=$(jq -r .run_id "$D/zcs.json")
"$ZCS" -p 0 --bind 192.0.2.1 --output "$D/zcs.json" >/dev/null 2>"$T/zcs.err" && zcb_fail "zcs: bad --bind accepted"
[ "$(jq -r '.status + " " + .run_id' "$D/zcs.json")" = "ok $id" ] || zcb_fail "zcs: the good document was replaced"
jq -e '.status == "failed" and (.error | length > 0)' "$D/zcs.json.failed" >/dev/null ||
	zcb_fail "zcs: no failed document beside the good one"
# a failed document may replace a failed one
"$ZCS" -p 0 --bind 192.0.2.1 --output "$D/zcs.json.failed" >/dev/null 2>&1
[ -e "$D/zcs.json.failed.failed" ] && zcb_fail "a failed document was kept beside a failed one"
zcb_ok "a failed run leaves the good document and writes FILE.failed beside it"

# 4. No space left on a real file system, found at the end of the run
zcb_need_root
M=$T/tiny
mkdir -p "$M"
mount -t tmpfs -o size=256k tmpfs "$M" || zcb_skip "cannot mount a tmpfs"
zcb_on_exit "umount '$M'"
# cyclesoak: the command fills the file system after the check passed
"$CS" --cpu=procstat -o "$M/cs.json" -- sh -c "dd if=/dev/zero of='$M/fill' bs=4k 2>/dev/null; true" \
	>"$T/cs.out" 2>"$T/cs.err" && zcb_fail "cyclesoak: exit 0 though its document was not written"
grep -q "No space left" "$T/cs.err" || zcb_fail "cyclesoak: $(cat "$T/cs.err")"
for f in "$M"/*.tmp.*; do
	[ -e "$f" ] && zcb_fail "a temporary file was left: $f"
done
rm -f "$M/fill"
# zcs: the disk fills while it serves
zcs_start tiny --exit-after 1 --output "$M/zcs.json"
dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null
"$ZCC" -q -s 127.0.0.1 -p "$ZCS_PORT" "$T/file" >"$T/zcc.out" 2>&1 || zcb_fail "zcc: $(cat "$T/zcc.out")"
zcb_wait_gone "$ZCS_PID" 10 || zcb_fail "zcs did not stop"
wait "$ZCS_PID" && zcb_fail "zcs: exit 0 though its document was not written"
grep -q "No space left" "$T/tiny.err" || zcb_fail "zcs: $(cat "$T/tiny.err")"
# full before the run: found by the check, nothing run
"$CS" --cpu=procstat -o "$M/cs.json" -- touch "$T/cs-ran2" 2>"$T/cs.err" && zcb_fail "cyclesoak: ran on a full disk"
[ -e "$T/cs-ran2" ] && zcb_fail "cyclesoak ran its command on a full disk"
grep -q "cannot write the result to $M/cs.json: No space left" "$T/cs.err" || zcb_fail "full disk: $(cat "$T/cs.err")"
rm -f "$M/fill"
zcb_ok "a full tmpfs: cyclesoak and zcs exit non-zero; a full disk is found before the run"
