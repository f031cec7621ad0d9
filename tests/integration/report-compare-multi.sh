#!/usr/bin/env bash
# report-compare-multi.sh: zcbreport compare BASE A B C: one table in
# mmtests' compare-kernels layout, a column group per kernel (figure,
# change, ratio to the baseline with its 95% interval, verdict), equal
# byte for byte to tests/data/report/compare-3k.{txt,md,csv}; a kernel
# like the baseline is quiet ("none > 2.4%": the smallest change it
# could have flagged), a 10% slower one flagged (exit 1), a
# faster one "improved". --format json carries the same rows, and its
# q values are Benjamini-Hochberg over every test of the table (checked
# here with awk from its p values), not per kernel.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
data=$ZCB_SRCDIR/tests/data/report
d=$ZCB_TEST_TMP

# fixed samples: the same as base, 10% slower, 10% faster
MK_VALUES=1000,1010,990,1005,995,1002,998,1008,992,1000 mkdoc "$d/base.json" 6.1.0 0 0 0 0
MK_VALUES=1001,1009,991,1004,996,1003,997,1007,993,999 mkdoc "$d/k1.json" 6.2.0 0 0 0 0
MK_VALUES=900,909,891,904,896,902,898,907,893,900 mkdoc "$d/k2.json" 6.3.0 0 0 0 0
MK_VALUES=1100,1111,1089,1105,1095,1102,1098,1109,1091,1100 mkdoc "$d/k3.json" 6.4.0 0 0 0 0
all=("$d/base.json" "$d/k1.json" "$d/k2.json" "$d/k3.json")

for f in text:txt markdown:md csv:csv; do
	rc=0
	"$Z" compare --format "${f%%:*}" "${all[@]}" >"$d/out.${f#*:}" 2>"$d/err" || rc=$?
	[ $rc = 1 ] || zcb_fail "${f%%:*}: exit $rc, want 1 ($(cat "$d/err"))"
	if ! cmp -s "$data/compare-3k.${f#*:}" "$d/out.${f#*:}"; then
		diff -u "$data/compare-3k.${f#*:}" "$d/out.${f#*:}" >&2
		zcb_fail "${f%%:*}: differs from compare-3k.${f#*:}"
	fi
done
t=$d/out.txt
cat "$t"
[ "$(grep -c 'ratio \[95% CI\]' "$t")" = 1 ] || zcb_fail "not one table (one heading line)"
grep -Eq '^Hmean +ttcp-sf method=sendfile size=65536 +1000\.0 +\+- 0\.7% +1000\.0 +\(\+0\.00%\) +1\.000 \[0\.99[0-9], 1\.00[0-9]\] +none > 2\.4% +900\.0 +\(-10\.00%\) +0\.900 \[[0-9.]+, [0-9.]+\] +REGRESSION +1100\.0 +\(\+10\.00%\) +1\.100 \[[0-9.]+, [0-9.]+\] +improved$' "$t" ||
	zcb_fail "the throughput row is not base, quiet, REGRESSION, improved"
grep -q 'Benjamini-Hochberg over the 6 tests of the table' "$t" || zcb_fail "BH family not the table"
grep -q '6.3.0: 2 rows, 2 judged, 2 regressions' "$t" || zcb_fail "per-kernel count"
zcb_ok "three kernels against a baseline: one table, golden in text, markdown and csv"

rc=0; "$Z" compare -f json "${all[@]}" >"$d/out.json" || rc=$?
[ $rc = 1 ] || zcb_fail "json: exit $rc"
[ "$(jq -r '.kernels | join(" ")' "$d/out.json")" = "6.2.0 6.3.0 6.4.0" ] || zcb_fail "json kernels"
[ "$(jq '.rows | length' "$d/out.json")" = 2 ] || zcb_fail "json rows"
[ "$(jq '.tests' "$d/out.json")" = 6 ] || zcb_fail "json tests"
[ "$(jq -r '[.rows[] | .kernels[] | .verdict] | join(",")' "$d/out.json")" = \
	"-,REGRESSION,improved,-,REGRESSION,improved" ] || zcb_fail "json verdicts"
# q = BH over the 6 p values of the table: min over j >= i of p(j) m / j
jq -r '.rows[] | .kernels[] | "\(.p) \(.q)"' "$d/out.json" | sort -g | awk '
	{ p[NR] = $1; q[NR] = $2 }
	END {
		m = NR; best = 1
		for (i = m; i >= 1; i--) {
			v = p[i] * m / i; if (v < best) best = v
			d = best - q[i]; if (d < 0) d = -d
			if (d > 1e-9 * (best > 1e-300 ? best : 1) && d > 1e-300) { print "row " i ": q " q[i] ", want " best; bad = 1 }
		}
		exit bad
	}' || zcb_fail "q is not Benjamini-Hochberg over the whole table"
zcb_ok "--format json: the same table; q is BH over every test of it"

# two kernels of one label (two nights): columns told apart by path
mkdir -p "$d/n1" "$d/n2"
cp "$d/k1.json" "$d/n1/r.json"; cp "$d/k1.json" "$d/n2/r.json"
rc=0; "$Z" compare "$d/base.json" "$d/n1" "$d/n2" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$d/out"; zcb_fail "two quiet nights: exit $rc"; }
grep -q '6.2.0@n1 .*6.2.0@n2' "$d/out" || { cat "$d/out"; zcb_fail "nights of one label not told apart"; }
zcb_ok "nights of one label are told apart by their directory"

rc=0; "$Z" compare -f xml "${all[@]}" >/dev/null 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && grep -q 'text, markdown, csv or json' "$d/err"; } || zcb_fail "--format xml: exit $rc"
zcb_ok "a bad --format: exit 2"
