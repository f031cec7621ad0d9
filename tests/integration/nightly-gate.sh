#!/usr/bin/env bash
# nightly-gate.sh: scripts/nightly --gate and --history-before (issue 26:
# nightly-power --spread runs the nights of a round together, a turn at a
# time), on a fake part, with this test serving the gate:
# 1. the night asks for a turn before each round, runs nothing until it
#    is given one (no document while its request is unanswered), writes
#    a line into done after the round; a second turn, a second round;
#    it takes no lock (another holder of RESULTS/.lock does not stop it);
# 2. a turn never given: the night waits --timeout s (a condition, with
#    its bound) and fails, kept as DATE.failed;
# 3. --history-before STAMP: only the nights named before STAMP are its
#    history (judged against the first night alone, not the second);
#    bad values named.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
d=$ZCB_TEST_TMP
mkdir -p "$d/parts"
cp "$ZCB_SRCDIR/tests/data/nightly/10-fake.sh" "$d/parts/"
nightly() { "$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
	--no-report --nights 1 "$@"; }
latest() { echo "$1/$(readlink "$1/latest")"; }
docs() { find "$d/r1/k1" -name fake.json 2>/dev/null | wc -l; }

# 1. turns served by this test
g=$d/gate
mkdir -p "$g" "$d/r1"
mkfifo "$g/req" "$g/turn" "$g/done"
exec {req}<>"$g/req" {turn}<>"$g/turn" {done}<>"$g/done"
exec {lk}>"$d/r1/.lock"
flock -n "$lk" || zcb_fail "could not take the lock"
FAKE_MEAN=1000 FAKE_SD=10 FAKE_NIGHT=1 nightly --results "$d/r1" --label k1 --repeat 2 \
	--budget 0 --gate "$g" --timeout 60 >"$d/o1" 2>&1 &
pid=$!
zcb_track "$pid"
for t in 1 2; do
	read -r -t 60 line <&"$req" || zcb_fail "turn $t: no request in 60 s: $(cat "$d/o1")"
	[ "$line" = "$g" ] || zcb_fail "turn $t: the request \"$line\" does not name the gate $g"
	[ "$(docs)" = $((t - 1)) ] || zcb_fail "turn $t asked: $(docs) documents, want $((t - 1)) (a round ran before its turn)"
	echo go >&"$turn"
	read -r -t 60 line <&"$done" || zcb_fail "turn $t: no done in 60 s: $(cat "$d/o1")"
	[ "$(docs)" = "$t" ] || zcb_fail "after turn $t: $(docs) documents, want $t"
done
rc=0
zcb_wait_gone "$pid" 60 || zcb_fail "the night did not end after its 2 rounds: $(cat "$d/o1")"
wait "$pid" || rc=$?
[ $rc = 0 ] || zcb_fail "the gated night: exit $rc: $(cat "$d/o1")"
run=$(latest "$d/r1/k1")
[ "$(find "$run" -name fake.json | wc -l)" = 2 ] || zcb_fail "not 2 rounds in $run"
! read -r -t 0 <&"$req" || zcb_fail "a request after the last round (no judging without a baseline)"
zcb_ok "--gate: a round per turn, none before it, done after it; no lock taken"
flock -u "$lk"

# 2. no turn: a bounded wait, then a failed night
rc=0
FAKE_MEAN=1000 FAKE_SD=10 FAKE_NIGHT=2 nightly --results "$d/r1" --label k2 --repeat 1 \
	--budget 0 --gate "$g" --timeout 2 >"$d/o2" 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "no turn: exit $rc, want 2: $(cat "$d/o2")"
grep -q "no turn within 2 s" "$d/o2" || zcb_fail "no turn: not said: $(cat "$d/o2")"
[ -n "$(find "$d/r1/k2" -maxdepth 1 -name '*.failed')" ] || zcb_fail "no turn: not kept as failed"
read -r -t 0 <&"$req" && read -r line <&"$req"
zcb_ok "no turn within --timeout: the night fails (exit 2, kept as failed)"

# 3. --history-before: two nights, the third judged against the first
for n in 1 2; do
	FAKE_MEAN=$((1000 * n)) FAKE_SD=10 FAKE_NIGHT=$((10 + n)) nightly --results "$d/r2" --label k1 \
		--repeat 1 --budget 0 >"$d/h$n" 2>&1 || zcb_fail "history night $n: $(cat "$d/h$n")"
	# the next night's directory is named a second later
	s=$(date +%s)
	while [ "$(date +%s)" = "$s" ]; do sleep 0.05; done
done
first=$(find "$d/r2/k1" -mindepth 1 -maxdepth 1 -name '2*' | sort | head -1)
second=$(find "$d/r2/k1" -mindepth 1 -maxdepth 1 -name '2*' | sort | tail -1)
[ "$first" != "$second" ] || zcb_fail "the two nights share a directory"
FAKE_MEAN=1000 FAKE_SD=10 FAKE_NIGHT=20 nightly --results "$d/r2" --label k2 --baseline k1 --repeat 1 \
	--budget 0 --history-before "$(basename "$second")" >"$d/o3" 2>&1
run=$(latest "$d/r2/k2")
grep -q "^zcbench nightly .*baseline $first\$" "$run/summary.txt" ||
	zcb_fail "--history-before: not judged against the first night alone: $(head -3 "$run/summary.txt")"
jq -e '.flagged == 0' "$run/.compare.json" >/dev/null ||
	zcb_fail "--history-before: flagged against the first night's equal rate: $(cat "$run/compare.txt")"
rc=0
nightly --results "$d/r3" --history-before yesterday >"$d/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -qF -- '--history-before: "yesterday" is not a time as YYYYmmddTHHMMSSZ' "$d/bad"; } ||
	zcb_fail "--history-before yesterday: exit $rc: $(cat "$d/bad")"
rc=0
nightly --results "$d/r3" --gate "$d/parts" >"$d/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -qF -- "--gate: $d/parts is not a directory with the FIFOs req, turn and done" "$d/bad"; } ||
	zcb_fail "--gate without FIFOs: exit $rc: $(cat "$d/bad")"
zcb_ok "--history-before: the nights before the stamp only; bad values named (exit 2)"
