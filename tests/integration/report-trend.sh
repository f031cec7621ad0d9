#!/usr/bin/env bash
# report-trend.sh: zcbreport trend NIGHT... (issue 26, item 5): change
# points over each primary metric's nightly series by E-divisive means
# (report/compare/edivisive.h). Fifteen nights (tests/data/report/mkvals.sh),
# their figures 1-2% apart: write's MB/s drops 10% from night 7 on,
# sendfile's never; write's elapsed_s (context) rises at night 7 too.
# 1. the shift is named at night 7, by its label and directory, with the
#    levels before and after, and sendfile's series has none;
# 2. elapsed_s is not searched (not a primary metric), --judge all and
#    --metric search it;
# 3. five nights: too few for a shift (3 a side), said;
# 4. a label with a control character is escaped.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkvals.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

noise=(1.00 1.013 0.99 1.005 0.985 1.01 0.997 1.02 0.99 1.003 0.98 1.008 1.0 0.993 1.012)
nights=()
for i in $(seq 1 15); do
	n=$(printf '%s/202612%02dT030000Z' "$d" "$i")
	mkdir -p "$n"
	mkvals "$n/ttcp.json" ttcp-sf 6.18 "$(jq -nc --argjson f "${noise[$((i - 1))]}" --argjson i "$i" '
		(if $i >= 7 then 900 else 1000 end * $f) as $w | (2000 * $f) as $s |
		[{params: {method: "write"}, metrics: {throughput_MBps: [$w, $w * 1.01, $w * 0.99],
			elapsed_s: [if $i >= 7 then 3 else 2 end]}},
		 {params: {method: "sendfile"}, metrics: {throughput_MBps: [$s, $s * 1.01, $s * 0.99]}}]')"
	nights+=("$n")
done

# 1. the shift at night 7, none in sendfile's series
rc=0
"$Z" trend "${nights[@]}" >"$d/out" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "trend: exit $rc: $(cat "$d/out")"
grep -qxF 'ttcp-sf method=write  throughput_MBps: shifted at night 7 (6.18@20261207T030000Z): 1000.4 -> 900.2 MB/s (-10.02%, worse), p 0.005' "$d/out" ||
	zcb_fail "the shift not named at night 7: $(cat "$d/out")"
! grep -q 'sendfile' "$d/out" || zcb_fail "a shift in sendfile's series: $(cat "$d/out")"
grep -qxF "zcbreport trend: 1 change point in 2 series over 15 nights (E-divisive means, 199 permutations, p < 0.01; each tool's primary metrics); 0 series with fewer than 6 nights not searched" "$d/out" ||
	zcb_fail "the closing line: $(tail -1 "$d/out")"
zcb_ok "a 10% step at night 7 of 15 is named at night 7; no step, none"

# 2. context metrics: searched only when asked
"$Z" trend --judge all "${nights[@]}" >"$d/all" 2>&1
grep -q '^ttcp-sf method=write  elapsed_s: shifted at night 7 ' "$d/all" || zcb_fail "--judge all: $(cat "$d/all")"
"$Z" trend -m elapsed_s "${nights[@]}" >"$d/m" 2>&1
{ grep -q '^ttcp-sf method=write  elapsed_s: shifted at night 7 ' "$d/m" && ! grep -q throughput "$d/m"; } ||
	zcb_fail "--metric elapsed_s: $(cat "$d/m")"
zcb_ok "context metrics are searched with --judge all or --metric only"

# 2b. a figure under two names is one series, as compare --judge primary
# makes it one row: the service demand is the CPU-normalised rate upside
# down (1024 / MB_per_cpu_s_local), and both shift at night 7
alias=()
for i in $(seq 1 15); do
	n=$(printf '%s/a/202612%02dT030000Z' "$d" "$i")
	mkdir -p "$n"
	mkvals "$n/ttcp.json" ttcp-sf 6.18 "$(jq -nc --argjson f "${noise[$((i - 1))]}" --argjson i "$i" '
		(if $i >= 7 then 900 else 1000 end * $f) as $c |
		[{params: {method: "write"}, metrics: {throughput_MBps: [2000, 2020, 1980],
			MB_per_cpu_s_local: [$c, $c * 1.01, $c * 0.99],
			sd_local_us_per_kb: [1024 / $c, 1024 / ($c * 1.01), 1024 / ($c * 0.99)]}}]')"
	alias+=("$n")
done
"$Z" trend "${alias[@]}" >"$d/alias" 2>&1 || zcb_fail "trend, aliases: $(cat "$d/alias")"
{ grep -Eq '^ttcp-sf method=write  MB_per_cpu_s_local: shifted at night 7 .*\(-[0-9.]+%, worse\), p ' "$d/alias" &&
	! grep -q 'sd_local_us_per_kb' "$d/alias" &&
	grep -q '^zcbreport trend: 1 change point in 2 series over 15 nights ' "$d/alias"; } ||
	zcb_fail "trend, a figure under two names: $(cat "$d/alias")"
zcb_ok "a figure under two names (a service demand and its CPU-normalised rate) is one series"

# 3. too few nights
"$Z" trend "${nights[@]:0:5}" >"$d/few" 2>&1
grep -q 'zcbreport trend: 0 change points in 0 series over 5 nights .*; 2 series with fewer than 6 nights not searched$' "$d/few" ||
	zcb_fail "5 nights: $(cat "$d/few")"
zcb_ok "fewer than 6 nights: not searched, said"

# 4. a hostile label
jq '.label = "6.18\u001b]0;x\u0007"' "${nights[6]}/ttcp.json" >"$d/h.json"
mv "$d/h.json" "${nights[6]}/ttcp.json"
"$Z" trend "${nights[@]}" >"$d/hostile" 2>&1
! grep -q $'\x1b' "$d/hostile" || zcb_fail "a control character reached the terminal"
grep -q 'shifted at night 7 (6.18\\x1b\]0;x\\x07@20261207T030000Z)' "$d/hostile" || zcb_fail "not escaped: $(cat "$d/hostile")"
zcb_ok "a label's control characters are escaped"
