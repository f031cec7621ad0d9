#!/usr/bin/env bash
# report-badinput.sh: documents that are not JSON, have another schema
# version, miss fields, record a failed run or mix units are each named
# with the reason; the rest is still reported; exit 2 only when nothing
# usable remains (table) or the input was bad (compare).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/set/sub" "$d/bad" "$d/base"

mkdoc "$d/set/a.json" 6.1.0 1000 10 5 1
mkdoc "$d/set/b.json" 6.1.0 1000 10 5 2
echo 'this is { not json' >"$d/set/notjson.json"
jq '.schema = "zcbench-result/2"' "$d/set/a.json" >"$d/set/schema2.json"
jq 'del(.label)' "$d/set/a.json" >"$d/set/sub/nolabel.json"
jq '.status = "failed" | .error = "peer 10.0.0.2 died during transfer"' \
	"$d/set/a.json" >"$d/set/failed.json"
MK_UNIT=kB/s mkdoc "$d/set/z-units.json" 6.1.0 1000 10 5 3
echo '{"ignored": "not .json"}' >"$d/set/readme.txt"

rc=0; "$Z" table --tool ttcp-sf "$d/set" >"$d/out" 2>"$d/err" || rc=$?
cat "$d/err"
[ $rc = 0 ] || zcb_fail "table with some bad files: exit $rc"
grep -q "^zcbreport: error: $d/set/notjson.json: not JSON: line 1" "$d/err" || zcb_fail "not-JSON file not named"
grep -q "$d/set/schema2.json: unsupported schema version \"zcbench-result/2\"" "$d/err" || zcb_fail "schema version not named"
grep -q "$d/set/sub/nolabel.json: missing or non-string field: label" "$d/err" || zcb_fail "missing field not named"
grep -q "$d/set/failed.json: the run failed: peer 10.0.0.2 died" "$d/err" || zcb_fail "failed run not named"
grep -q "$d/set/z-units.json: mixed units: metric throughput_MBps is in \"kB/s\" here but in \"MB/s\"" "$d/err" || zcb_fail "mixed units not named"
! grep -q readme "$d/err" || zcb_fail "a non-.json file was read"
[ "$(wc -l <"$d/err")" = 5 ] || zcb_fail "expected exactly 5 refusals"
grep -Eq '^6\.1\.0 +[0-9.]+ +[0-9.]+$' "$d/out" || { cat "$d/out"; zcb_fail "the good documents were not reported"; }
zcb_ok "each bad file named with its reason, the rest reported, exit 0"

cp "$d/set/notjson.json" "$d/set/schema2.json" "$d/bad/"
rc=0; "$Z" table "$d/bad" >"$d/out" 2>"$d/err" || rc=$?
[ $rc = 2 ] || zcb_fail "nothing usable: exit $rc, want 2"
grep -q "no usable result documents" "$d/err" || zcb_fail "no summary of the refusal"
rc=0; "$Z" table "$d/does-not-exist" >"$d/out" 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q "does-not-exist: cannot open" "$d/err"; } || zcb_fail "missing path: exit $rc"
zcb_ok "nothing usable: exit 2"

# compare: a bad file in NEW is named; exit 2 (no regression to report)
mkdoc "$d/base/r.json" 6.1.0 1000 10 5 4
rc=0; "$Z" compare "$d/base" "$d/set" >"$d/out" 2>"$d/err" || rc=$?
[ $rc = 2 ] || zcb_fail "compare with bad input: exit $rc, want 2"
grep -q "notjson.json: not JSON" "$d/err" || zcb_fail "compare did not name the bad file"
grep -q "1 rows\|2 rows" "$d/out" || zcb_fail "compare did not report the usable rest"
# units that differ between BASE and NEW are not compared
rc=0; "$Z" compare "$d/base/r.json" "$d/set/z-units.json" >"$d/out" 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q "throughput_MBps is in MB/s in BASE but in kB/s in NEW" "$d/err"; } ||
	zcb_fail "unit mismatch between sides: exit $rc: $(cat "$d/err")"
rc=0; "$Z" compare "$d/base" "$d/bad" >"$d/out" 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q "NEW has no usable cases" "$d/err"; } || zcb_fail "empty NEW: exit $rc"
zcb_ok "compare: bad input named, exit 2"
