#!/usr/bin/env bash
# nightly-once-per-kernel.sh: scripts/nightly --once-per-kernel on a tiny
# suite (a fake part writing synthetic documents). The first run runs and
# records the kernel (uname -r, -v, /sys/kernel/notes) in RESULTS/.last-kernel; a second
# on the same kernel is skipped (exit 0, said, nothing written); --force
# runs anyway; after a kernel change (the record names another kernel) it
# runs, and --baseline previous compares with the newest complete run of
# any label; a failed run does not count as the kernel's run. Without
# --once-per-kernel a night always runs.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
zcb_need_cmd bc
zcb_need_cmd gnuplot
d=$ZCB_TEST_TMP
mkdir -p "$d/parts"
cat >"$d/parts/10-fake.sh" <<'EOS'
# 10-fake: a stand-in part: 5 samples of ttcp-sf-like throughput
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
[ "${FAKE_FAIL:-0}" = 1 ] && { echo "fake part: failed on purpose" >&2; exit 1; }
mkdir -p "$ZCB_OUT/ttcp-sf"
mkdoc "$ZCB_OUT/ttcp-sf/fake.json" "$ZCB_LABEL" 1000 10 5 "$RANDOM"
EOS
res="$d/res"
nightly() { # nightly NAME ARGS...: output in $d/out-NAME, status in rc
	local n=$1
	shift
	rc=0
	"$ZCB_SRCDIR/scripts/nightly" --build "$ZCB_BUILDDIR" --parts "$d/parts" \
		--results "$res" --repeat 2 "$@" >"$d/out-$n" 2>&1 || rc=$?
}
runs() { find "$res" -mindepth 2 -maxdepth 2 -type d -name '*Z' | wc -l; }
kbuild=$(sha256sum /sys/kernel/notes 2>/dev/null | cut -c1-16)
kernel="$(uname -r) $(uname -v)${kbuild:+ build $kbuild}"

nightly 1 --once-per-kernel --label k1
[ $rc = 0 ] || zcb_fail "first run: exit $rc: $(cat "$d/out-1")"
[ "$(runs)" = 1 ] || zcb_fail "first run: $(runs) runs stored, want 1"
[ "$(sed -n 1p "$res/.last-kernel")" = "$kernel" ] ||
	zcb_fail "the record names $(sed -n 1p "$res/.last-kernel"), not this kernel ($kernel)"
[ "$(sed -n 2p "$res/.last-kernel")" = "k1/$(readlink "$res/k1/latest")" ] ||
	zcb_fail "the record names run $(sed -n 2p "$res/.last-kernel"), not k1/latest"
zcb_ok "first run on this kernel ran and recorded the kernel"

sleep 1
nightly 2 --once-per-kernel --label k1
[ $rc = 0 ] || zcb_fail "same kernel: exit $rc, want 0: $(cat "$d/out-2")"
grep -q "was measured by the last complete run, k1/.*nothing to do (--force runs anyway)" "$d/out-2" ||
	zcb_fail "same kernel: the skip is not said: $(cat "$d/out-2")"
[ "$(runs)" = 1 ] || zcb_fail "same kernel: a run was stored"
zcb_ok "same kernel: skipped, said so, exit 0, nothing stored"

sleep 1
nightly 3 --once-per-kernel --force --label k1
[ $rc = 0 ] || zcb_fail "--force: exit $rc: $(cat "$d/out-3")"
[ "$(runs)" = 2 ] || zcb_fail "--force: $(runs) runs stored, want 2"
third="k1/$(readlink "$res/k1/latest")"
zcb_ok "--force: ran on the same kernel"

# a kernel change: the record names the kernel booted before this one,
# or this name and version built again (another build-id)
printf '%s\n%s\n' "$(uname -r) $(uname -v) build 0123456789abcdef" "old/20000101T000000Z" >"$res/.last-kernel"
sleep 1
nightly 4 --once-per-kernel --label k2 --baseline previous
[ $rc = 0 ] || zcb_fail "new kernel: exit $rc: $(cat "$d/out-4")"
[ "$(runs)" = 3 ] || zcb_fail "new kernel: $(runs) runs stored, want 3"
grep -q "baseline $res/$third\$" "$res/k2/latest/summary.txt" ||
	zcb_fail "--baseline previous did not pick $third: $(head -1 "$res/k2/latest/summary.txt")"
grep -q 'regressions flagged\|no regression' "$res/k2/latest/compare.txt" ||
	zcb_fail "nothing compared: $(cat "$res/k2/latest/compare.txt")"
[ "$(sed -n 1p "$res/.last-kernel")" = "$kernel" ] || zcb_fail "the record was not updated"
zcb_ok "after a kernel change: ran, compared with the newest run of any label ($third)"

# a failed run is not the kernel's run
printf '%s\n%s\n' "0.0.1-old #1" "old/20000101T000000Z" >"$res/.last-kernel"
cp "$res/.last-kernel" "$d/record"
sleep 1
FAKE_FAIL=1 nightly 5 --once-per-kernel --label k2
[ $rc = 2 ] || zcb_fail "failed part: exit $rc, want 2: $(cat "$d/out-5")"
cmp -s "$res/.last-kernel" "$d/record" || zcb_fail "a failed run changed the record"
sleep 1
nightly 6 --once-per-kernel --label k2
[ $rc = 0 ] || zcb_fail "after a failed run: exit $rc: $(cat "$d/out-6")"
grep -q "nothing to do" "$d/out-6" && zcb_fail "after a failed run the kernel counted as measured"
[ "$(runs)" = 4 ] || zcb_fail "after a failed run: $(runs) runs stored, want 4"
zcb_ok "a failed run does not count: the next --once-per-kernel runs"

# without --once-per-kernel every night runs
sleep 1
nightly 7 --label k2
[ $rc = 0 ] || zcb_fail "without --once-per-kernel: exit $rc: $(cat "$d/out-7")"
[ "$(runs)" = 5 ] || zcb_fail "without --once-per-kernel: not run"
zcb_ok "without --once-per-kernel: runs on the same kernel"

# --baseline previous with nothing earlier says so
nightly 8 --results "$d/empty" --label k1 --baseline previous
[ $rc = 0 ] || zcb_fail "previous, nothing earlier: exit $rc: $(cat "$d/out-8")"
grep -q "no earlier complete run in" "$d/out-8" || zcb_fail "previous, nothing earlier: not said: $(cat "$d/out-8")"
zcb_ok "--baseline previous with no earlier run: nothing compared, said so"
