#!/usr/bin/env bash
# p9bench-mount.sh: mounted mode (--mount DIR), what users run in a guest
# on a v9fs mount; here on a plain directory: exact bytes and ops, the
# file's content, buffered and O_DIRECT, and its errors.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
P9=$(zcb_bin p9bench) || exit 1
T=$ZCB_TEST_TMP
D=$T/mnt
mkdir -p "$D"

"$P9" --mount "$D" --ops 100 --sizes 1,512,4096 --verify --keep --file m.dat \
	-o "$T/m1.json" >"$T/out1" 2>"$T/err1" || zcb_fail "mounted sweep failed: $(cat "$T/err1")"
[ "$(jq -r .status "$T/m1.json")" = ok ] || zcb_fail "status not ok"
[ "$(jq '.cases | length' "$T/m1.json")" = 6 ] || zcb_fail "expected 6 cases"
bad=$(jq -r '.cases[] | .params as $p | .samples[0] |
	select(.bytes != 100 * $p.iosize or .ops != 100 or .msgs != 100 or
	       $p.mode != "mounted" or $p.path != "buffered" or $p.msize != 0 or
	       ($p.op == "read" and .verify_bad_bytes != 0)) |
	"\($p.op) \($p.iosize)"' "$T/m1.json")
[ -z "$bad" ] || zcb_fail "wrong samples: $bad"
grep -Eq '^IO SIZE +TOTAL SIZE +buffered +O_DIRECT$' "$T/out1" || zcb_fail "no table header"
grep -Eq '^4096 +400KB +[0-9.]+ [kmg]b/s +-$' "$T/out1" || zcb_fail "no 4096 row: $(cat "$T/out1")"
size=$(stat -c %s "$D/m.dat")
[ "$size" = 409600 ] || zcb_fail "file has $size bytes, expected 409600"
for off in 0 251 4096 409599; do
	b=$(od -An -tu1 -j "$off" -N 1 "$D/m.dat" | tr -d ' ')
	[ "$b" = $((off % 251)) ] || zcb_fail "byte at $off is $b"
done
zcb_ok "mounted: 6 cases, exact bytes/ops, verified reads, file content"

# the default file is removed afterwards
"$P9" --mount "$D" --ops 10 --sizes 64 -q >/dev/null 2>"$T/err2" || zcb_fail "second run failed"
[ "$(ls "$D")" = m.dat ] || zcb_fail "test file left: $(ls "$D")"
zcb_ok "test file removed"

# O_DIRECT: where the file system has it, both columns; else a clear error
if "$P9" --mount "$D" --ops 20 --sizes 4096,8192 --odirect=both -J >"$T/m3.json" 2>"$T/err3"; then
	[ "$(jq '[.cases[] | select(.params.path == "odirect")] | length' "$T/m3.json")" = 4 ] ||
		zcb_fail "expected 4 O_DIRECT cases"
	[ "$(jq '[.cases[].samples[0].bytes] | add' "$T/m3.json")" = $((2 * 2 * 20 * (4096 + 8192))) ] ||
		zcb_fail "O_DIRECT: wrong bytes"
	grep -Eq '^IO SIZE +TOTAL SIZE +buffered +O_DIRECT$' "$T/err3" || zcb_fail "no table on stderr with -J"
	zcb_ok "O_DIRECT and buffered side by side"
else
	grep -q "O_DIRECT open" "$T/err3" || zcb_fail "O_DIRECT failure not explained: $(cat "$T/err3")"
	zcb_ok "O_DIRECT not supported here, said so"
fi

zcb_expect_fail "missing file" "$P9" --mount "$D" --no-create --file nope --ops 1 --sizes 1
grep -q "nope: No such file or directory" "$T/err" || zcb_fail "ENOENT not named"
zcb_expect_fail "missing dir" "$P9" --mount "$T/nodir" --ops 1 --sizes 1 -o "$T/m4.json"
grep -q "$T/nodir" "$T/err" || zcb_fail "missing dir not named"
[ "$(jq -r .status "$T/m4.json")" = failed ] || zcb_fail "no failed document"
zcb_ok "missing file and directory reported"
exit 0
