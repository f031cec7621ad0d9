#!/usr/bin/env bash
# ttcp-profile.sh: the profile meter through ttcp-sf on loopback. write
# and sendfile, each a profiled run and an unprofiled one (a pair); the
# documents carry the families, the top symbols, the event and the
# sample count, the perturbation is printed, and the send side's copy
# share (the samples of the transmitting process in the copy family) is
# lower with sendfile than with write: write copies the file into its
# buffer and the buffer into the socket, sendfile neither.
#
# The check is on the transmitter's own samples, not the box's copy
# family: the box is shared, and the receive copy (_copy_to_iter on the
# receiver) stays with both methods, so the box's share moves with
# whatever else runs. Shares, not times: no timing assertion.
#
# Then a box where the profile cannot run (kallsyms with its addresses
# hidden, through ZCB_PROC_ROOT): one line says so and the run goes on.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP

profile() { # profile METHOD: a pair over loopback into $T/METHOD.json
	tt_recv "$T/r-$1"
	"$TTCP" -t -p "$TT_PORT" -m "$1" -l 65536 --duration 1s \
		--source-size 32M --cpu=procstat,profile -o "$T/$1.json" \
		127.0.0.1 >"$T/$1.txt" 2>&1 ||
		{ cat "$T/$1.txt"; zcb_fail "$1: transmitter failed"; }
	tt_wait_recv
	[ "$TT_RRC" = 0 ] || { cat "$T/r-$1.txt"; zcb_fail "$1: receiver exit $TT_RRC"; }
}
prof() { # prof METHOD JQ: of the profiled run's profile
	jq -r '.cases[0].samples[] | select(.soak == true) | .cpu.local[] |
		select(.meter == "profile") | .profile | '"$2" "$T/$1.json"
}

profile write
if grep -q "^ttcp-t: profile unavailable" "$T/write.txt"; then
	zcb_skip "$(sed -n 's/^ttcp-t: profile unavailable, the run goes on without it: //p' "$T/write.txt")"
fi
profile sendfile
for m in write sendfile; do
	[ "$(zcb_json "$T/$m.json" .status)" = ok ] || zcb_fail "$m: status"
	grep -q "^ttcp-t: CPU meters: procstat,profile; profile runs in pairs" "$T/$m.txt" ||
		zcb_fail "$m: the pairs are not announced"
	grep -Eq "^ttcp-t: perturbation: profile run reached [0-9.]+x \(1 pair\) of the unmetered rate" "$T/$m.txt" ||
		{ cat "$T/$m.txt"; zcb_fail "$m: no perturbation line"; }
	[ "$(zcb_json "$T/$m.json" '.cases[0].perturbation.pairs')" = 1 ] ||
		zcb_fail "$m: no perturbation in the document"
	ev=$(prof $m .event)
	{ [ "$ev" = cpu-clock ] || [ "$ev" = cycles ]; } || zcb_fail "$m: event \"$ev\""
	[ "$(prof $m '.samples > 0 and .freq == 999')" = true ] || zcb_fail "$m: samples, freq"
	[ "$(prof $m '[.families[]] | add | . > 99.5 and . < 100.5')" = true ] ||
		zcb_fail "$m: the families do not sum to 100"
	[ "$(prof $m '.top | length > 0 and length <= 10')" = true ] || zcb_fail "$m: top symbols"
	[ "$(prof $m '.self.samples > 0')" = true ] || zcb_fail "$m: no sample of the transmitter"
	# the unprofiled run says it was paused, and has no profile
	[ "$(jq -r '[.cases[0].samples[] | select(.soak == false) | .cpu.local[] |
		select(.meter == "profile") | .paused] == [true]' "$T/$m.json")" = true ] ||
		zcb_fail "$m: the unprofiled run's profile is not marked paused"
	[ "$(zcb_json "$T/$m.json" '.cases[0].summary.prof_local_self_copy_pct.n')" = 1 ] ||
		zcb_fail "$m: no copy share in the summary"
	grep -q "^      families: copy " "$T/$m.txt" || zcb_fail "$m: no family line"
done
# a box so busy the transmitter hardly ran tells nothing either way
n=$(prof write '.self.samples')
[ "$n" -ge 30 ] || zcb_skip "the transmitter ran in only $n of $(prof write .samples) samples (box too busy)"
w=$(prof write '.self.families.copy')
s=$(prof sendfile '.self.families.copy')
echo "send-side copy share: write $w%, sendfile $s% (the box's copy family: write $(prof write .families.copy)%, sendfile $(prof sendfile .families.copy)%)"
[ "$(jq -n --argjson w "$w" --argjson s "$s" '$w > 0 and $s < $w')" = true ] ||
	{ cat "$T/write.txt" "$T/sendfile.txt"; zcb_fail "send-side copy: write $w%, sendfile $s%"; }
zcb_ok "profiled write and sendfile: send-side copy $w% > $s%"

# the families by method, side by side; and compare judges them
Z=$(zcb_bin zcbreport) || exit 1
"$Z" table --layout profile "$T/write.json" "$T/sendfile.json" >"$T/table" 2>&1 ||
	{ cat "$T/table"; zcb_fail "table --layout profile failed"; }
grep -q "^Where the CPU went (% of all samples): ttcp-sf" "$T/table" || zcb_fail "profile table: no title"
grep -Eq "^ *size +method +copy +csum +pcache +stack +drv +sirq +sched +sys +idle +user +other +tool copy +MB/s$" "$T/table" ||
	{ cat "$T/table"; zcb_fail "profile table: columns"; }
for m in write sendfile; do
	grep -Eq "^ *65536 +$m +[0-9.]+% " "$T/table" || { cat "$T/table"; zcb_fail "profile table: no $m row"; }
done
grep -q "^(paired runs: profile from the metered runs" "$T/table" ||
	{ cat "$T/table"; zcb_fail "profile table: the pairs are not named"; }
# a footnote of a perturbed case names the profiler, not soakers
! grep -q "soak run" "$T/table" || { cat "$T/table"; zcb_fail "profile table: footnote says soak"; }
"$Z" compare --split method=write,sendfile -m prof_local_self_copy_pct \
	"$T/write.json" "$T/sendfile.json" >"$T/cmp" 2>&1 || [ $? = 1 ] ||
	{ cat "$T/cmp"; zcb_fail "compare of the profiles failed"; }
grep -q "^prof_local_self_copy_pct (%, lower is better)" "$T/cmp" ||
	{ cat "$T/cmp"; zcb_fail "compare: no profile metric"; }
zcb_ok "zcbreport: the profile layout and compare of the families"

# addresses hidden: the profile says why in one line, procstat goes on
mkdir -p "$T/root/proc"
# the live counters (a copy never moves: a window without a tick)
ln -s /proc/stat "$T/root/proc/stat"
echo "0000000000000000 T _stext" >"$T/root/proc/kallsyms"
tt_recv "$T/r-hidden"
ZCB_PROC_ROOT=$T/root "$TTCP" -t -p "$TT_PORT" -l 65536 --duration 0.3s --cpu=profile \
	-o "$T/hidden.json" 127.0.0.1 >"$T/hidden.txt" 2>&1 ||
	{ cat "$T/hidden.txt"; zcb_fail "hidden: the run did not go on"; }
tt_wait_recv
[ "$(grep -c "^ttcp-t: profile unavailable, the run goes on without it: .*kptr_restrict" "$T/hidden.txt")" = 1 ] ||
	{ cat "$T/hidden.txt"; zcb_fail "hidden: no single line saying why"; }
[ "$(zcb_json "$T/hidden.json" '[.warnings[] | select(test("CPU meter profile unavailable"))] | length')" = 1 ] ||
	zcb_fail "hidden: no warning in the document"
[ "$(zcb_json "$T/hidden.json" '.cases[0].samples | length')" = 1 ] ||
	zcb_fail "hidden: runs paired without a profile"
[ "$(zcb_json "$T/hidden.json" '.cases[0].summary | has("cpu_local_procstat_pct")')" = true ] ||
	zcb_fail "hidden: procstat did not go on"
zcb_ok "a profile that cannot run: one line, the run goes on"
