#!/usr/bin/env bash
# cyclesoak-run: `cyclesoak -- CMD` writes a valid document with every
# meter, reports CMD's failure with its status, bad options exit 2, and a
# quick selftest writes its cases. Without a calibration (procstat etc.).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
T=$ZCB_TEST_TMP

"$CS" --help | grep -q -- "--selftest" || zcb_fail "--help"
for bad in "--port 5" "-p 0" "--rounds 1 --calibrate" "--serve --selftest" \
	"--" "--bogus" "-J --serve" "--tolerance x --calibrate" "--force" "ls"; do
	# shellcheck disable=SC2086
	"$CS" $bad >"$T/out" 2>"$T/err" </dev/null && zcb_fail "$bad: accepted"
	rc=$?
	[ $rc -eq 2 ] || zcb_fail "$bad: exit $rc, want 2 ($(cat "$T/err"))"
	[ "$(wc -l <"$T/err")" -eq 1 ] || zcb_fail "$bad: not one line: $(cat "$T/err")"
done
zcb_ok "bad options exit 2 with one line"

# a good command: the document, side by side meters (no calibration here)
# shellcheck disable=SC2016 # the inner sh expands it
"$CS" -J --label t1 -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>"$T/ok.json" 2>"$T/err" || zcb_fail "run: $(cat "$T/err")"
jq -e '.schema == "zcbench-result/1" and .tool == "cyclesoak" and
	.label == "t1" and .status == "ok" and (.run_id | test("^[0-9a-f]{16}$")) and
	.cases[0].params == {"load": "command", "meter": "procstat"} and
	.cases[0].samples[0].exit_status == 0 and
	(.cases[0].samples[0].metrics | has("cpu_box_pct") and has("cpu_box_procstat_pct")
	 and has("cpu_box_rusage_pct") and has("cpu_box_softirq_pct") and has("elapsed_s")) and
	.cases[0].samples[0].cmd_rusage.utime_s > 0 and
	.cases[0].summary.cpu_box_pct.n == 1 and .metrics.cpu_box_pct.unit == "%" and
	(.cases[0].samples[0].cpu.box | map(.meter)) == ["procstat", "rusage", "perf"]' \
	"$T/ok.json" >/dev/null || zcb_fail "run document: $(cat "$T/ok.json")"
perf=$(jq -c '.cases[0].samples[0].cpu.box[2].counters' "$T/ok.json")
jq -e '.cases[0].samples[0].cpu.box[2].counters | ."task-clock".ok and
	(.cycles.ok or (.cycles.why | test("perf_event_open")))' "$T/ok.json" >/dev/null ||
	zcb_fail "perf counters: $perf"
grep -q "cpu box    procstat" "$T/err" || zcb_fail "text not on stderr with -J: $(cat "$T/err")"
zcb_ok "cyclesoak -J -- CMD: document with procstat, rusage, perf"

# the command fails: its status, a failed document, cyclesoak non-zero
"$CS" -o "$T/fail.json" -- sh -c 'exit 3' >"$T/out" 2>&1
rc=$?
[ $rc -eq 3 ] || zcb_fail "exit $rc after CMD exit 3"
jq -e '.status == "failed" and (.error | test("exited with status 3")) and
	.cases[0].samples[0].exit_status == 3' "$T/fail.json" >/dev/null ||
	zcb_fail "failed document: $(cat "$T/fail.json")"
grep -q "exited 3" "$T/out" || zcb_fail "summary: $(cat "$T/out")"
"$CS" -o "$T/none.json" -- /nonexistent/cmd >"$T/out" 2>&1
rc=$?
[ $rc -eq 127 ] || zcb_fail "exit $rc for a missing command, want 127"
jq -e '.status == "failed" and (.error | test("cannot run /nonexistent/cmd"))' \
	"$T/none.json" >/dev/null || zcb_fail "missing command: $(cat "$T/none.json")"
zcb_ok "command failures reported with their status"

# a quick selftest without calibration: every load, procstat's error
cs_lock
"$CS" --selftest --quick --duration 0.3 -o "$T/st.json" >"$T/out" 2>&1 ||
	zcb_fail "selftest: $(cat "$T/out")"
jq -e '[.cases[].params.load] | unique == (["all-busy","busy-100","busy-25",
	"busy-50","busy-75","idle","perturb-cpu-task"] | sort)' "$T/st.json" >/dev/null ||
	zcb_fail "selftest cases: $(jq -c '[.cases[].params]' "$T/st.json")"
jq -e '.status == "ok" and (.cases[] | select(.params.load == "busy-100" and
	.params.meter == "procstat") | .samples[0].metrics | has("error_pts") and
	has("true_pct")) and (.cases[] | select(.params.load == "perturb-cpu-task") |
	.samples[0].metrics.ratio > 0)' "$T/st.json" >/dev/null ||
	zcb_fail "selftest document: $(cat "$T/st.json")"
grep -q "soak meter is left out" "$T/out" || zcb_fail "no note that soak was left out"
jq -e '(.cases[] | select(.params.load == "perturb-cpu-task") | .samples[0].metrics |
	.without_s > 0 and .with_s > 0) and .metrics.without_s.unit == "s" and
	.metrics.error_pts.unit == "points"' "$T/st.json" >/dev/null ||
	zcb_fail "perturbation metrics: $(jq -c .metrics "$T/st.json")"
# zcbreport (when built) loads only documents that pass the schema check
if command -v zcbreport >/dev/null 2>&1; then
	zcbreport table "$T/st.json" "$T/ok.json" "$T/fail.json" >"$T/rep" 2>&1 ||
		zcb_fail "zcbreport refused the documents: $(cat "$T/rep")"
fi
zcb_ok "selftest document"
