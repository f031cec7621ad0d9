#!/usr/bin/env bash
# nightly-power.sh: the nightly's power check at a tiny size
# (zcb nightly --power --tiny): two A nights of history, then a round of
# an A night and a night inside a cgroup capped at 90% of the box, each
# a run of scripts/nightly judged against the A nights before it. The
# nights run the real tools (ttcp-sf, chatbench); what is checked is the
# harness, not the power (that takes an hour: README): the nights of a
# group taking turns round by round (--spread 2: each night's two rounds
# with the other night's between them), a line per night, the table of
# judged rows with k/n per kind of night, a summary line for the
# nightly's verdict and each variant, the cgroup gone; --spread 1 runs
# the nights one after another; and a signal in the middle of a night
# capped by busy loops (--cap-by cpu) ending it (exit 130) with its
# cgroups removed and nothing left running.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP
[ "$(id -u)" = 0 ] || zcb_skip "the cgroup cap needs root"
[ -d /sys/fs/cgroup/cpu ] || grep -qsw cpu /sys/fs/cgroup/cgroup.controllers ||
	zcb_skip "no cgroup with a cpu controller here"
NP="$ZCB_SRCDIR/scripts/nightly"
cgs() { find /sys/fs/cgroup /sys/fs/cgroup/cpu -maxdepth 1 -name 'zcb-power.*' 2>/dev/null | sort; }
# the capped night's nightly has begun its run (its temporary directory)
b_running() { [ -n "$(find "$T/m/nights/B" -maxdepth 1 -name '.*.tmp.*' 2>/dev/null)" ]; }
new_cg() { cgs | grep -qvxF "${before:-/}"; } # a group this test made
before=$(cgs)

rc=0
"$NP" --power --tiny --caps 90 --cap-by box --build "$ZCB_BUILDDIR" --results "$T/n" --keep >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 0 ] || zcb_fail "nightly --power --tiny: exit $rc: $(tail -5 "$T/err")"
for n in h1 h2 r1.1-a r1.2-c90; do
	d=$(cat "$T/n/$n.dir" 2>/dev/null)
	if [ -z "$d" ] || [ ! -d "$d/r1/ttcp-sf" ] || [ ! -d "$d/r2/ttcp-sf" ] || [ ! -f "$d/r1/chatbench/power.json" ] || [ ! -f "$d/r2/chatbench/power.json" ]; then
		zcb_fail "night $n: documents missing: $(find "$T/n" -maxdepth 1 -name "$n*")"
	fi
done
[ "$(find "$T/n/nights/A" -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l)" = 3 ] ||
	zcb_fail "not 3 A nights: $(ls "$T/n/nights/A")"
[ "$(find "$T/n/nights/B" -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l)" = 1 ] ||
	zcb_fail "not 1 B night: $(ls "$T/n/nights/B")"
# the turns: the history's two nights, then the round's two, alternate
# from the start (a group starts when each of its nights has asked)
# (the order of the first turns is fixed: the group's order; each
# night's second round comes after them)
t=$(tr '\n' ' ' <"$T/n/turns")
[[ "$t" == "h1 h2 "*"h1 "* ]] || zcb_fail "the history's nights did not take turns: $t"
r=${t#*h1 h2 }
r=${r#"${r%%r1.*}"}
[[ "$r" == "r1.1-a r1.2-c90 "*"r1.1-a "* ]] || zcb_fail "the round's nights did not take turns: $t"
grep -q "judged against: its newest night" "$T/n/r1.2-c90.log" ||
	zcb_fail "the capped night was not judged by the nightly: $(cat "$T/n/r1.2-c90.log")"
grep -Eq '^night r1.1-a: exit [01], [0-9]+ of [0-9]+ judged rows flagged, [0-9]+ confirmation round\(s\), [1-3] look\(s\)' "$T/out" ||
	zcb_fail "no line for the A night: $(cat "$T/out")"
grep -Eq '^night r1.2-c90: exit [01], [0-9]+ of [0-9]+ judged rows flagged' "$T/out" ||
	zcb_fail "no line for the capped night: $(cat "$T/out")"
chg='(-|[+-][0-9]+\.[0-9]%)'
grep -Eq "^ +[01]/[01] +[01]/[01] +$chg +$chg +ttcp-sf method=write .*\| throughput_MBps$" "$T/out" ||
	zcb_fail "no ttcp-sf row in the table: $(cat "$T/out")"
grep -Eq "^ +[01]/[01] +[01]/[01] +$chg +$chg +chatbench .*\| msgs_per_s$" "$T/out" ||
	zcb_fail "no chatbench rate row in the table: $(cat "$T/out")"
for v in nightly before primary history 'history, no rank test'; do
	grep -Eq "^$v: +finds a 10% loss in [01] of 1 trials \\(in every tool: [01]\\); false alarms: [01] of 1 A nights$" "$T/out" ||
		zcb_fail "no summary line for $v: $(tail -8 "$T/out")"
done
# the nightly's line counts the capped night found when it flagged any
# row, and "in every tool" never more often
nflag=$(sed -n 's/^night r1.2-c90: exit [01], \([0-9]*\) of.*/\1/p' "$T/out")
found=$(sed -n 's/^nightly: *finds a 10% loss in \([01]\) of 1 trials (in every tool: \([01]\)).*/\1 \2/p' "$T/out")
want=0
[ "${nflag:-0}" -eq 0 ] || want=1
{ [ "${found% *}" = "$want" ] && [ "${found#* }" -le "$want" ]; } ||
	zcb_fail "the capped night flagged ${nflag:-?} rows, the line says found/every tool \"$found\": $(tail -8 "$T/out")"
[ "$(cgs)" = "$before" ] || zcb_fail "a cgroup was left: $(cgs)"
zcb_ok "nightly --power --tiny: 4 nights through the nightly taking turns, the table and a line per judging; no cgroup left"

# --spread 1: one night after another, each its one round
rc=0
"$NP" --power --tiny --spread 1 --caps 90 --cap-by box --build "$ZCB_BUILDDIR" --results "$T/s" --keep >"$T/out1" 2>"$T/err1" || rc=$?
[ $rc = 0 ] || zcb_fail "nightly --power --tiny --spread 1: exit $rc: $(tail -5 "$T/err1")"
t=$(uniq <"$T/s/turns" | tr '\n' ' ')
[ "$t" = "h1 h2 r1.1-a r1.2-c90 " ] || zcb_fail "--spread 1: the nights' turns interleave: $t"
d=$(cat "$T/s/r1.2-c90.dir")
{ [ -f "$d/r1/chatbench/power-2.json" ] && [ -d "$d/r1/ttcp-sf" ]; } || zcb_fail "--spread 1: the capped night's round lacks documents"
grep -Eq '^nightly: +finds a 10% loss in [01] of 1 trials' "$T/out1" || zcb_fail "--spread 1: no summary: $(tail -5 "$T/out1")"
[ "$(cgs)" = "$before" ] || zcb_fail "--spread 1: a cgroup was left: $(cgs)"
zcb_ok "--spread 1: the nights one after another, each one round"

# --group 2: two rounds' nights take turns together, each judged
# against the history before the group (the first rounds' A night is
# not the second round's history); 3 nights of history, so the
# variants judge against their spread: every night's every variant
# against those 3 nights (a variant once rewrote the group's history
# list for the ones after it), as compare judges them by hand
rc=0
"$NP" --power --tiny --rounds 2 --group 2 --history 3 --caps 90 --cap-by box --build "$ZCB_BUILDDIR" --results "$T/g" --keep >"$T/outg" 2>"$T/errg" || rc=$?
[ $rc = 0 ] || zcb_fail "nightly --power --tiny --group 2: exit $rc: $(tail -5 "$T/errg")"
t=$(tr '\n' ' ' <"$T/g/turns")
r=${t#"${t%%r1.*}"}
[[ "$r" == "r1.1-a r1.2-c90 r2.1-a r2.2-c90 "*"r1.1-a "* ]] || zcb_fail "--group 2: the two rounds' nights did not take turns together: $t"
for n in r1.1-a r1.2-c90 r2.1-a r2.2-c90; do
	grep -q "judged against: 3 nights of A (their spread" "$T/g/$n.log" || zcb_fail "--group 2: $n not judged against the 3 nights: $(tail -3 "$T/g/$n.log")"
	grep -q "^nightly: label .*, budget 360 s, " "$T/g/$n.log" ||
		zcb_fail "--group 2: $n's budget is not 4 nights' 90 s: $(head -3 "$T/g/$n.log")"
done
h=$(sed -n 's/^zcbench nightly .*, baseline \(.*\)$/\1/p' "$(cat "$T/g/r2.1-a.dir")/summary.txt")
[ "$h" = "$(cat "$T/g/h3.dir")" ] || zcb_fail "--group 2: the second round's A night was judged against $h, not the history's newest $(cat "$T/g/h3.dir")"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
pvals() { jq -c '[.rows[] | select(.kernels[0].p != null) | [.case, .metric, .kernels[0].p, .kernels[0].verdict]] | sort' "$@"; }
for n in r1.1-a r1.2-c90 r2.1-a r2.2-c90; do
	for v in 2 3 4; do
		o=(--judge primary)
		[ $v != 3 ] || o+=(--mann-whitney off)
		[ $v != 4 ] || o+=(--no-probe)
		want=$("$Z" compare -f json "${o[@]}" --history "$T/g/h1.first" "$T/g/h2.first" "$T/g/h3.first" "$T/g/$n.first" 2>/dev/null | pvals)
		[ "$(pvals "$T/g/$n.v$v.json")" = "$want" ] || zcb_fail "--group 2: night $n, variant $v not judged against h1 h2 h3: $(pvals "$T/g/$n.v$v.json") against $want"
	done
done
grep -q 'the nights of 2 rounds taking turns' "$T/outg" || zcb_fail "--group 2: not said: $(tail -2 "$T/outg")"
[ "$(cgs)" = "$before" ] || zcb_fail "--group 2: a cgroup was left: $(cgs)"
zcb_ok "--group 2: two rounds' nights take turns together, judged against the history before them"

# bad input: named
rc=0
"$NP" --power --caps 120 >"$T/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'caps: "120" is not a list of percentages below 100' "$T/bad"; } ||
	zcb_fail "--caps 120: exit $rc: $(cat "$T/bad")"
rc=0
"$NP" --power --veth fast >"$T/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'veth: "fast" is not a tc rate' "$T/bad"; } || zcb_fail "--veth fast: exit $rc: $(cat "$T/bad")"
rc=0
"$NP" --power --cap-by steal >"$T/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'cap-by: "steal" is none of cpu, box, kernel' "$T/bad"; } || zcb_fail "--cap-by steal: exit $rc: $(cat "$T/bad")"
rc=0
"$NP" --power --spread 1 --group 2 >"$T/bad" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q 'group 2: not with --spread 1' "$T/bad"; } || zcb_fail "--spread 1 --group 2: exit $rc: $(cat "$T/bad")"
zcb_ok "bad options named, exit 2"

# SIGINT while a capped night runs (--cap-by cpu: a capped busy loop on
# every CPU): exit 130, the cgroups, the loops and the part gone.
# Job control on, as at a terminal: else bash starts the job with SIGINT
# ignored
# busy loops of the same command line that are not ours (the box may be
# loaded so on purpose: issue 22's loaded runs) are not its leftovers
loops() { pgrep -xf 'bash -c while :; do :; done' | sort; }
theirs=$(loops)
set -m
"$NP" --power --tiny --caps 90 --cap-by cpu --history 1 --build "$ZCB_BUILDDIR" --results "$T/m" >"$T/out2" 2>&1 &
pid=$!
zcb_track "$pid"
end=$((SECONDS + 120))
while [ $SECONDS -lt $end ]; do
	new_cg && b_running && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
{ new_cg && b_running; } || zcb_fail "the capped night never started: $(cat "$T/out2")"
kill -INT "$pid"
zcb_wait_gone "$pid" 60 || zcb_fail "nightly-power still running 60 s after SIGINT"
rc=0
wait "$pid" || rc=$?
[ $rc = 130 ] || zcb_fail "SIGINT: exit $rc, want 130"
[ "$(cgs)" = "$before" ] || zcb_fail "SIGINT left a cgroup: $(cgs)"
! pgrep -f "$T/m/" >/dev/null || zcb_fail "SIGINT left a part running: $(pgrep -af "$T/m/")"
left=$(comm -13 <(echo "$theirs") <(loops) | grep . || true)
[ -z "$left" ] || zcb_fail "SIGINT left a busy loop: $(echo "$left" | xargs ps -o pid=,args= -p)"
[ -n "$(find "$T/m/nights/B" -maxdepth 1 -name '*.interrupted')" ] ||
	zcb_fail "the stopped night is not kept as interrupted: $(find "$T/m/nights" -maxdepth 2 | head)"
zcb_ok "SIGINT during a capped night (--cap-by cpu): exit 130, its cgroups, busy loops and part gone"
