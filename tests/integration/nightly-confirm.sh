#!/usr/bin/env bash
# nightly-confirm.sh: scripts/nightly judges a night against the
# baseline's last nights and measures suspicious rows again (issue 26,
# items 4 and 5), on a fake part whose samples are drawn from a seed
# fixed by the night and the round, so every verdict here is the same
# on any box:
# 1. one baseline night: judged against it alone, and the summary says
#    so; a row 5% worse at 8% noise is suspicious (p < 0.2, not
#    flagged), its part runs two more rounds, the third judging flags
#    it; confirm.txt names the row, its n before and after, its verdict;
#    the summary says which rows were confirmed; every judging at
#    Pocock's level for the 3 --looks (0.02205 of 0.05, two-sided against one night), the summary
#    says how many looks were made;
# 2. --budget 0: no round added, the row stays unflagged, judged at
#    --alpha itself; --looks 1 the same; --looks 2 at Pocock's 0.02938;
# 3. a part that takes at least 2 s a round and --budget 3s: no round
#    fits after the first two, and confirm.txt says the budget stopped
#    it (a lower bound on the time, never an upper one);
# 4. three baseline nights: judged against their spread (compare
#    --history), said in the summary;
# 5. --judge and --mann-whitney reach compare; bad values are named;
# 6. --spread-over 4s: the second of 2 rounds starts 2 s or more after
#    the first (a lower bound), and says so; not with --gate.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
d=$ZCB_TEST_TMP
mkdir -p "$d/parts"
cp "$ZCB_SRCDIR/tests/data/nightly/10-fake.sh" "$d/parts/"
nightly() { "$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
	--repeat 2 --no-report --nights 1 "$@"; }
latest() { echo "$1/$(readlink "$1/latest")"; }

# 1. against one night, a suspicious row confirmed (5.5% worse; with
# these seeds p 0.062 at the first look, 0.012 at the second)
FAKE_MEAN=1000 FAKE_SD=80 FAKE_NIGHT=1 nightly --results "$d/r1" --label k1 >"$d/o1" 2>&1 ||
	zcb_fail "baseline night: $(cat "$d/o1")"
rc=0
FAKE_MEAN=945 FAKE_SD=80 FAKE_NIGHT=2 nightly --results "$d/r1" --label k2 --baseline k1 >"$d/o2" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "5% worse, confirmed: exit $rc, want 1: $(cat "$d/o2")"
run=$(latest "$d/r1/k2")
grep -q 'judged against: its newest night (1 of the 3 --history needs)' "$run/summary.txt" ||
	zcb_fail "the summary does not say what the night was judged against: $(cat "$run/summary.txt")"
grep -q '^=== \[confirming, round 3\] fake' "$d/o2" || zcb_fail "no third round: $(cat "$d/o2")"
grep -q '^=== \[confirming, round 4\] fake' "$d/o2" || zcb_fail "no fourth round: $(cat "$d/o2")"
! grep -q 'round 5' "$d/o2" || zcb_fail "a round after the row was decided: $(cat "$d/o2")"
[ "$(find "$run" -name fake.json | wc -l)" = 4 ] || zcb_fail "not 4 rounds of documents"
grep -Eq '^confirm round 3 \(look 2 of 3\): ttcp-sf method=sendfile size=65536 \| throughput_MBps \(n=10, p 0\.0[0-9]+, -[0-9.]+%\)$' "$run/confirm.txt" ||
	zcb_fail "confirm.txt: $(cat "$run/confirm.txt")"
grep -Eq '^  ttcp-sf method=sendfile size=65536 \| throughput_MBps: REGRESSION with n=20 \(p 0\.0[0-9]+\)$' "$run/confirm.txt" ||
	zcb_fail "confirm.txt has no outcome: $(cat "$run/confirm.txt")"
grep -q '^confirmed: 1 row(s) measured again in 2 more round(s), 2 of 3 looks (each at alpha 0.02205, Pocock' "$run/summary.txt" ||
	zcb_fail "the summary does not say what was confirmed: $(cat "$run/summary.txt")"
grep -q '^looks: .* 3 planned looks .*each look at alpha 0.02205 (two-sided' "$run/compare.txt" ||
	zcb_fail "compare.txt does not say the look's level: $(cat "$run/compare.txt")"
jq -e '.looks == 3 and .alpha_all == 0.05 and (.alpha * 1e5 | round) == 2205' "$run/.compare.json" >/dev/null ||
	zcb_fail ".compare.json: $(jq -c 'del(.rows)' "$run/.compare.json")"
grep -Eq '^Hmean .*REGRESSION' "$run/compare.txt" || zcb_fail "compare.txt is not the last judging: $(cat "$run/compare.txt")"
jq -e '.flagged == 1' "$run/.compare.json" >/dev/null || zcb_fail ".compare.json is not the last judging"
zcb_ok "a suspicious row measured again until flagged; confirm.txt and the summary say so"

# 2. --budget 0, --looks 1: nothing measured again, one look at alpha
for o in "--budget 0" "--looks 1"; do
	rc=0
	# shellcheck disable=SC2086 # the option and its value
	FAKE_MEAN=945 FAKE_SD=80 FAKE_NIGHT=2 nightly --results "$d/r1" --label k3 --baseline k1 $o >"$d/o3" 2>&1 || rc=$?
	[ $rc = 0 ] || zcb_fail "$o: exit $rc, want 0 (the row unconfirmed): $(cat "$d/o3")"
	run=$(latest "$d/r1/k3")
	[ ! -e "$run/confirm.txt" ] || zcb_fail "$o confirmed: $(cat "$run/confirm.txt")"
	[ "$(find "$run" -name fake.json | wc -l)" = 2 ] || zcb_fail "$o: not 2 rounds"
	{ grep -q 'flagged (alpha 0.05 after' "$run/compare.txt" && ! grep -q '^looks:' "$run/compare.txt"; } ||
		zcb_fail "$o: not judged at alpha itself: $(cat "$run/compare.txt")"
done
rc=0
FAKE_MEAN=945 FAKE_SD=80 FAKE_NIGHT=2 nightly --results "$d/r1" --label k6 --baseline k1 --looks 2 >"$d/o3" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "--looks 2: exit $rc, want 1: $(cat "$d/o3")"
run=$(latest "$d/r1/k6")
grep -q 'each look at alpha 0.02938 ' "$run/compare.txt" || zcb_fail "--looks 2: $(cat "$run/compare.txt")"
[ "$(find "$run" -name fake.json | wc -l)" = 4 ] || zcb_fail "--looks 2: not one block of 2 rounds"
zcb_ok "--budget 0 and --looks 1: no confirmation, alpha itself; --looks 2: Pocock's level for 2"

# 3. the budget spent: each round takes at least 2 s, the budget is 3 s
rc=0
FAKE_SLEEP=2 FAKE_MEAN=945 FAKE_SD=80 FAKE_NIGHT=2 nightly --results "$d/r1" --label k4 --baseline k1 \
	--budget 3s >"$d/o4" 2>&1 || rc=$?
[ $rc = 0 ] || zcb_fail "--budget 3s: exit $rc: $(cat "$d/o4")"
run=$(latest "$d/r1/k4")
grep -q '^nightly: look 2: 1 suspicious row(s) left; another round (~[0-9]* s) would pass the budget (3s)$' "$run/confirm.txt" ||
	zcb_fail "the budget's end not said: $(cat "$run/confirm.txt" 2>&1)"
[ "$(find "$run" -name fake.json | wc -l)" = 2 ] || zcb_fail "a round past the budget"
zcb_ok "a spent budget stops confirmation and says so"

# 4. three nights: judged against their spread
for n in 1 2 3; do
	FAKE_MEAN=$((990 + 10 * n)) FAKE_SD=10 FAKE_NIGHT=$((10 + n)) nightly --results "$d/r2" --label k1 \
		--budget 0 >"$d/h$n" 2>&1 || zcb_fail "history night $n: $(cat "$d/h$n")"
done
rc=0
FAKE_MEAN=900 FAKE_SD=10 FAKE_NIGHT=20 nightly --results "$d/r2" --label k2 --baseline k1 >"$d/o5" 2>&1 || rc=$?
[ $rc = 1 ] || zcb_fail "10% down against 3 nights: exit $rc: $(cat "$d/o5")"
run=$(latest "$d/r2/k2")
grep -q '^judged against: 3 nights of k1 (their spread; zcbreport compare --history), --judge primary$' "$run/summary.txt" ||
	zcb_fail "summary: $(cat "$run/summary.txt")"
grep -q '(3 nights, n=' "$run/compare.txt" || zcb_fail "compare.txt is not a --history judging: $(cat "$run/compare.txt")"
grep -q 'each look at alpha 0.02317 (one-sided z 1.992)' "$run/compare.txt" ||
	zcb_fail "--history: not at the one-sided Pocock level: $(cat "$run/compare.txt")"
rc=0
FAKE_MEAN=900 FAKE_SD=10 FAKE_NIGHT=21 nightly --results "$d/r2" --label k3 --baseline k1 --history 1 >"$d/o6" 2>&1 || rc=$?
run=$(latest "$d/r2/k3")
grep -q 'judged against: its newest night (1 of the 3 --history needs)' "$run/summary.txt" ||
	zcb_fail "--history 1: $(cat "$run/summary.txt")"
zcb_ok "3 nights of the baseline: the night judged against their spread; --history 1: the newest alone"

# 5. options reach compare; bad values named
FAKE_MEAN=1000 FAKE_SD=10 FAKE_NIGHT=22 nightly --results "$d/r2" --label k5 --baseline k1 \
	--judge all --mann-whitney off --budget 0 >"$d/o7" 2>&1
run=$(latest "$d/r2/k5")
jq -e '.judge == null and .mann_whitney == "off" and .tests > 0' "$run/.compare.json" >/dev/null ||
	zcb_fail "--judge all --mann-whitney off did not reach compare: $(jq -c 'del(.rows)' "$run/.compare.json")"
bad() { # bad OPTION VALUE MESSAGE: refused, exit 2, the message said
	local rc=0
	nightly --results "$d/r3" "$1" "$2" >"$d/bad" 2>&1 || rc=$?
	{ [ $rc = 2 ] && grep -qF -- "$3" "$d/bad"; } || zcb_fail "$1 $2: exit $rc: $(cat "$d/bad")"
}
bad --judge some '--judge: "some" is not primary or all'
bad --mann-whitney maybe '--mann-whitney: "maybe" is not require or off'
bad --budget soon '--budget: "soon" is not a time'
bad --suspect 2 '--suspect: "2" is not a p between 0 and 1'
bad --history 0 '--history: "0" is not a positive integer'
bad --spread-over soon '--spread-over: "soon" is not a time'
bad --looks 0 '--looks: "0" is not a number of judgings from 1 to 20'
bad --looks 21 '--looks: "21" is not a number of judgings from 1 to 20'
zcb_ok "--judge and --mann-whitney reach compare; bad values named (exit 2)"

# 6. --spread-over: the rounds spread, round 2 no sooner than 2 s after 1
FAKE_MEAN=1000 FAKE_SD=10 FAKE_NIGHT=30 nightly --results "$d/r4" --label k1 --budget 0 \
	--spread-over 4s >"$d/o8" 2>&1 || zcb_fail "--spread-over 4s: $(cat "$d/o8")"
grep -q '^nightly: round 2 of 2 in [0-9]* s (--spread-over 4s)$' "$d/o8" || zcb_fail "--spread-over: not said: $(cat "$d/o8")"
t1=$(sed -n 's/^=== \[1\/2\] fake \([0-9:]*\)$/\1/p' "$d/o8")
t2=$(sed -n 's/^=== \[2\/2\] fake \([0-9:]*\)$/\1/p' "$d/o8")
gap=$((($(date -u -d "$t2" +%s) - $(date -u -d "$t1" +%s) + 86400) % 86400))
[ "$gap" -ge 2 ] || zcb_fail "--spread-over 4s: round 2 began $gap s after round 1 ($t1, $t2)"
mkdir -p "$d/g" && mkfifo "$d/g/req" "$d/g/turn" "$d/g/done"
rc=0
nightly --results "$d/r4" --label k2 --spread-over 1m --gate "$d/g" >"$d/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -qF -- '--spread-over: not with --gate' "$d/bad"; } || zcb_fail "--spread-over with --gate: exit $rc: $(cat "$d/bad")"
zcb_ok "--spread-over: round 2 of 2 no sooner than half the time after round 1, said; not with --gate"

