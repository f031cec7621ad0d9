#!/usr/bin/env bash
# nightly-unjudged.sh: a night that zcbreport compare cannot judge (it
# exits above 1) is never the kernel's run nor a baseline (issue 22).
# Once, compare aborted in GSL: summary.txt's verdict became "Default GSL
# error handler invoked.", yet latest and .last-kernel were updated, so
# the next --once-per-kernel night skipped the kernel and the broken run
# became the `previous` baseline. Here, on a tiny suite (a fake part
# writing seed 004's chat figures):
# 1. a first night (k1) is the baseline;
# 2. a night whose figures make a test fail (a published sd of 1e150:
#    compare exits 2, the row says GSL refused it), and a night whose
#    compare crashes (exit 134, a stand-in for the old abort): each is
#    kept as DATE.unjudged, exits 2, says so in summary.txt; neither
#    moves latest nor .last-kernel;
# 3. the next --once-per-kernel night runs (the kernel was not measured)
#    and --baseline previous picks k1's night, not an unjudged one.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
zcb_need_cmd flock
zcb_need_cmd gnuplot
d=$ZCB_TEST_TMP
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
mkdir -p "$d/parts" "$d/build/report"
cat >"$d/parts/10-fake.sh" <<'EOS'
# 10-fake: a stand-in part: seed 004's published chat figures of one
# kernel, with FAKE_WIDE=1 their msgs/s standard deviation 1e150
mkdir -p "$ZCB_OUT/chatbench"
jq --arg l "$ZCB_LABEL" --arg w "${FAKE_WIDE:-0}" '.label = $l |
	if $w == "1" then .cases[0].summary.msgs_per_s.stddev = 1e150 |
		.cases[0].summary.msgs_per_s.cov = null else . end' \
	"$ZCB_SRCDIR/results/seeds/004a-chat-pre2.json" >"$ZCB_OUT/chatbench/fake.json"
EOS
# the build the nightly uses: the real zcbreport, whose compare crashes
# (SIGABRT, as GSL's own handler did) when FAKE_ABORT is set
cat >"$d/build/report/zcbreport" <<EOS
#!/usr/bin/env bash
if [ "\$1" = compare ] && [ -n "\${FAKE_ABORT:-}" ]; then
	echo "Default GSL error handler invoked." >&2
	kill -ABRT \$\$
fi
exec "$Z" "\$@"
EOS
chmod +x "$d/build/report/zcbreport"
res="$d/res"
nightly() { # nightly NAME ARGS...: output in $d/out-NAME, status in rc
	local n=$1
	shift
	rc=0
	"$ZCB_SRCDIR/scripts/nightly" --build "$d/build" \
		--parts "$d/parts" --results "$res" --repeat 1 --nights 1 "$@" >"$d/out-$n" 2>&1 || rc=$?
}
old="0.0.1-old #1"

nightly 1 --once-per-kernel --label k1
[ $rc = 0 ] || zcb_fail "first night: exit $rc: $(cat "$d/out-1")"
first="k1/$(readlink "$res/k1/latest")"
[ "$(sed -n 2p "$res/.last-kernel")" = "$first" ] || zcb_fail "first night: not recorded"
zcb_ok "first night $first: the baseline"

# a new kernel booted; its nights cannot be judged
printf '%s\n%s\n' "$old" "old/20000101T000000Z" >"$res/.last-kernel"
cp "$res/.last-kernel" "$d/record"
n=0
for how in FAKE_WIDE FAKE_ABORT; do
	n=$((n + 1))
	export FAKE_WIDE=0 FAKE_ABORT=
	[ $how = FAKE_WIDE ] && FAKE_WIDE=1
	[ $how = FAKE_ABORT ] && FAKE_ABORT=1
	sleep 1 # a night's directory is named by the second
	nightly bad$n --once-per-kernel --label k2 --baseline previous
	[ $rc = 2 ] || zcb_fail "$how: exit $rc, want 2: $(cat "$d/out-bad$n")"
	[ ! -e "$res/k2/latest" ] || zcb_fail "$how: latest points at the unjudged run ($(readlink "$res/k2/latest"))"
	cmp -s "$res/.last-kernel" "$d/record" || zcb_fail "$how: the unjudged run was recorded as the kernel's: $(cat "$res/.last-kernel")"
	[ "$(find "$res/k2" -mindepth 1 -maxdepth 1 -name '*Z.unjudged' | wc -l)" = $n ] ||
		zcb_fail "$how: not kept as DATE.unjudged: $(ls -a "$res/k2")"
	run=$(find "$res/k2" -mindepth 1 -maxdepth 1 -name '*Z.unjudged' | sort | tail -1)
	grep -q '^NOT JUDGED: zcbreport compare exited [0-9]* (see compare.txt): ' "$run/summary.txt" ||
		zcb_fail "$how: summary.txt does not say the run was not judged: $(cat "$run/summary.txt")"
	grep -q "^nightly: compare exited [0-9]*: the run is kept in $run (not latest, never a baseline" "$d/out-bad$n" ||
		zcb_fail "$how: the nightly does not say where the run went: $(cat "$d/out-bad$n")"
done
grep -q "not judged: Welch's t-test failed: GSL: " "$(find "$res/k2" -name compare.txt | sort | head -1)" ||
	zcb_fail "the GSL night's compare does not name GSL's error"
grep -q '^NOT JUDGED: zcbreport compare exited 134 ' "$run/summary.txt" ||
	zcb_fail "the crashed compare's status is not in the summary: $(cat "$run/summary.txt")"
unset FAKE_WIDE FAKE_ABORT
zcb_ok "a night compare fails (exit 2, exit 134): kept as DATE.unjudged, exit 2, not latest, kernel not recorded"

sleep 1
nightly 3 --once-per-kernel --label k2 --baseline previous
[ $rc = 0 ] || zcb_fail "after the unjudged nights: exit $rc: $(cat "$d/out-3")"
! grep -q "nothing to do" "$d/out-3" || zcb_fail "the kernel counted as measured by an unjudged night"
grep -q "baseline $res/$first\$" "$res/k2/latest/summary.txt" ||
	zcb_fail "--baseline previous did not pick $first: $(head -1 "$res/k2/latest/summary.txt")"
zcb_ok "the next --once-per-kernel night runs, against $first"
