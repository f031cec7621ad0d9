#!/usr/bin/env bash
# report-threads.sh: zcbreport's loader parses and judges documents on
# a thread per CPU (lib/doc/resdir.c), each remaking its summaries and
# perturbations (lib/doc/result_summary.c). Hundreds of paired documents
# a side keep both threads judging at once; scripts/test runs this
# under ThreadSanitizer too, which found a shared buffer there. Here:
# every document counted, the figures of one, nothing said on stderr.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkpaired.sh"
zcb_need_cmd jq
zcb_need_cmd timeout
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/base" "$d/new"
mkpaired "$d/one.json" p9bench 6.18-paired '[
 {"params": {"op": "read", "iosize": 4096, "total_bytes": 4194304, "path": "copy"},
  "ratios": [0.99, 0.98], "base": {"throughput_MBps": 70.0}}]'
for i in $(seq -w 1 300); do
	cp "$d/one.json" "$d/base/r$i.json"
	cp "$d/one.json" "$d/new/r$i.json"
done
timeout 120 "$Z" compare "$d/base" "$d/new" >"$d/out" 2>"$d/err"
rc=$?
[ "$rc" = 0 ] || zcb_fail "compare exited $rc: $(head -20 "$d/err")"
[ ! -s "$d/err" ] || zcb_fail "compare said: $(head -20 "$d/err")"
grep -q '^Hmean  p9bench op=read .* 70\.35 .* (n=600/600)$' "$d/out" ||
	zcb_fail "unpaired figures: $(cat "$d/out")"
grep -q '^Hmean  p9bench op=read .* 69\.29 .* (n=600/600)$' "$d/out" ||
	zcb_fail "metered figures: $(cat "$d/out")"
zcb_ok "600 paired documents judged on threads: every one counted"
