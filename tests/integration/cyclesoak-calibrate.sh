#!/usr/bin/env bash
# cyclesoak-calibrate: a short calibration is stored with the box's facts,
# rounds that disagree are refused, and a calibration made on another
# kernel gives a warning on the terminal and in the result document.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
cs_lock
T=$ZCB_TEST_TMP

cs_busy_or_fail() { # a soaker that got no cycles at all: the box is full
	grep -q "got no cycles" "$T/out" && zcb_skip "box fully busy: $(grep -o 'soaker on CPU [0-9]* got no cycles' "$T/out")"
	zcb_fail "$1: $(cat "$T/out")"
}

# cs_quiet CMD...: run a calibration, again (up to 8 times, 2 s apart)
# while a soaker got no cycles at all because parallel tests filled the
# box; the last output stays in $T/out.
cs_quiet() {
	for _ in 1 2 3 4 5 6 7 8; do
		"$@" >"$T/out" 2>&1 && return 0
		grep -q "got no cycles" "$T/out" || return 1
		sleep 2
	done
	return 1
}

# rounds never agree to a millionth: refused, nothing stored, exit 1
zcb_expect_fail "calibration with an impossible tolerance" \
	"$CS" --calibrate --rounds 2 --round-time 0.2 --tolerance 0.000001
grep -q "NOT stored" "$T/err" || zcb_fail "refusal not explained: $(cat "$T/err")"
[ ! -e "$CALIB" ] || zcb_fail "a refused calibration was stored"
zcb_ok "disagreeing rounds refused"

# --force stores it anyway, in --calib-file
cs_quiet "$CS" --calibrate --rounds 3 --round-time 0.3 --tolerance 0.000001 --force \
	--calib-file "$T/c.json" || cs_busy_or_fail "forced calibration"
grep -q "forced" "$T/out" || zcb_fail "forced calibration not said: $(cat "$T/out")"
jq -e --arg k "$(uname -r)" --argjson n "$NCPU" '
	.schema == "zcbench-soak-calibration/1" and .kernel_release == $k and
	.online_cpus == $n and (.cpus | length) == $n and .rounds == 3 and
	all(.cpus[]; .rate > 0) and (.note | test("soakers"))' "$T/c.json" >/dev/null ||
	zcb_fail "calibration file wrong: $(cat "$T/c.json")"
zcb_ok "calibration stored with kernel, CPUs and rates"

# the default state file under XDG_STATE_HOME
cs_quiet "$CS" --calibrate --rounds 2 --round-time 0.3 --force ||
	cs_busy_or_fail "calibration"
[ -s "$CALIB" ] || zcb_fail "no calibration in $CALIB"
zcb_ok "default state file $CALIB"

# made on another kernel: warned, and the document says so
jq '.kernel_release = "0.0.0-other"' "$T/c.json" >"$T/old.json"
"$CS" -n 1 -p 0.3 --calib-file "$T/old.json" -o "$T/doc.json" >"$T/out" 2>"$T/err" ||
	zcb_fail "monitor with an old calibration: $(cat "$T/err")"
grep -q "warning: calibration made on kernel 0.0.0-other" "$T/err" ||
	zcb_fail "no warning on stderr: $(cat "$T/err")"
jq -e '.status == "ok" and any(.warnings[]; test("0.0.0-other")) and
	.cases[0].params.load == "monitor" and
	(.cases[0].samples | length) == 1' "$T/doc.json" >/dev/null ||
	zcb_fail "document lacks the warning: $(cat "$T/doc.json")"
grep -q "^System load: " "$T/out" || zcb_fail "no System load line: $(cat "$T/out")"
zcb_ok "calibration mismatch warned"

# a broken calibration file is named, not used
echo '{"schema": "zcbench-soak-calibration/1", "cpus": "x"}' >"$T/bad.json"
zcb_expect_fail "a broken calibration" "$CS" -n 1 --calib-file "$T/bad.json"
grep -q "bad.json" "$T/err" || zcb_fail "broken file not named: $(cat "$T/err")"
cs_wait_no_host || zcb_fail "a soak host outlived the tests"
zcb_ok "broken calibration refused"
