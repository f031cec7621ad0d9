#!/usr/bin/env bash
# report-plot-kinds.sh: one golden gnuplot script per plot kind
# (tests/data/report/plot-*.gp, compared by structure, not pixels; the
# run's data and image are named by base name), and the rules of a plot
# fit for a mailing list:
# - sweep: words with units in the title, axes and legend; the kernel
#   and host in a subtitle; a log2 size axis, a linear y from 0;
# - a sweep over decades (seed 000's 9P sizes): a log y axis;
# - multi-client runs against the client count;
# - ratio: B/A with its 95% band and the line of no change; transcribed
#   single runs (seed 001's zc/vanilla NFS) say they have no interval;
# - a line of one point is not drawn; a tool with nothing to plot (one
#   size, seed 004) draws nothing and exits 3;
# - ASCII plots within 72 columns, the legend under the data.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd gnuplot "Debian package gnuplot-nox"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
seeds=$ZCB_SRCDIR/results/seeds
data=$ZCB_SRCDIR/tests/data/report
d=$ZCB_TEST_TMP
mkdir -p "$d/runs" "$d/clients"

MK_VALUES=500,510,490,505 MK_CASES=5 MK_PARAMS='{"method":"write"}' mkdoc "$d/runs/w.json" 6.18 0 0 0 0
MK_VALUES=600,640,590,610 MK_CASES=5 MK_PARAMS='{"method":"sendfile"}' mkdoc "$d/runs/s.json" 6.18 0 0 0 0
# a method measured at one size only: a line of one point
MK_VALUES=700,710,690 MK_PARAMS='{"method":"splice","size":1024}' mkdoc "$d/runs/p.json" 6.18 0 0 0 0
for n in 1 2 4 8; do
	MK_TOOL=nfsbench MK_VALUES="$((100 * n)),$((100 * n + 5)),$((100 * n - 5))" \
		MK_PARAMS="{\"op\":\"read\",\"rsize\":65536,\"clients\":$n}" \
		mkdoc "$d/clients/c$n.json" 6.18 0 0 0 0
done

golden() { # golden KIND ARGS...: plot with --script, its .gp against plot-KIND.gp
	local kind=$1 rc=0
	shift
	(cd "$d" && "$Z" plot --script -o "$kind" "$@") >"$d/$kind.out" 2>&1 || rc=$?
	[ $rc = 0 ] || zcb_fail "$kind: exit $rc: $(cat "$d/$kind.out")"
	if ! cmp -s "$data/plot-$kind.gp" "$d/$kind.gp"; then
		diff -u "$data/plot-$kind.gp" "$d/$kind.gp" >&2
		zcb_fail "$kind: the gnuplot script differs from plot-$kind.gp"
	fi
	awk 'length > 72 { bad = 1 } END { exit bad }' "$d/$kind.txt" ||
		zcb_fail "$kind: ASCII plot wider than 72 columns"
	# the legend under the data: after the axis' last line, nothing but
	# the x label and one line per series
	[ "$(awk '/ \+-+\+$/ { n = NR } END { print NR - n }' "$d/$kind.txt")" -le \
		$(($(grep -c ' title ' "$d/$kind.gp") + 3)) ] ||
		zcb_fail "$kind: legend not under the plot: $(cat "$d/$kind.txt")"
	head -c 8 "$d/$kind.png" | od -An -tx1 | grep -q '89 50 4e 47' || zcb_fail "$kind: no PNG"
}

golden sweep "$d/runs"
grep -q "^set title 'ttcp-sf: Throughput by buffer size per call' . \"\\\\n\" . 'hmean of 4 runs +- sd, meter procstat; kernel 6.18 on host h'$" "$d/sweep.gp" ||
	zcb_fail "sweep: title and subtitle"
! grep -q splice "$d/sweep.gp" || zcb_fail "sweep: a line of one point was drawn"
zcb_ok "sweep: words with units, kernel and host in the subtitle, no one-point line"

golden p9-logy --tool p9bench "$seeds"
grep -q '^set logscale y 10$' "$d/p9-logy.gp" || zcb_fail "9P sweep over decades: no log y axis"
zcb_ok "9P sweep over four decades: log y axis"

golden clients "$d/clients"
grep -q "^set xlabel 'Clients'$" "$d/clients.gp" || zcb_fail "clients: x axis"
grep -q "^set title 'nfsbench: Read throughput by clients'" "$d/clients.gp" || zcb_fail "clients: title"
zcb_ok "multi-client runs against the client count"

golden ratio --ratio method=write,sendfile "$d/runs"
grep -q 'filledcurves' "$d/ratio.gp" || zcb_fail "ratio: no 95% band"
grep -q "1 = no change" "$d/ratio.gp" || zcb_fail "ratio: no line of no change"
golden nfs-zc-ratio --ratio label=2.4.1-pre10,2.4.1-pre10+zc \
	"$seeds/001a-nfs-client-zc.json" "$seeds/001b-nfs-client-vanilla.json"
grep -q 'single runs have no interval' "$d/nfs-zc-ratio.gp" || zcb_fail "single runs: interval not said missing"
zcb_ok "ratio plots: B/A with the 95% band; single runs say they have none"

for args in "--tool ttcp-sf -y cpu_local_pct $seeds" "--tool chatbench -y msgs_per_s $seeds"; do
	rc=0
	# shellcheck disable=SC2086 # the words of args
	(cd "$d" && "$Z" plot -o none $args) >"$d/out" 2>&1 || rc=$?
	[ $rc = 3 ] || zcb_fail "nothing to plot ($args): exit $rc: $(cat "$d/out")"
	grep -q 'nothing to plot' "$d/out" || zcb_fail "nothing to plot not said"
	{ [ ! -e "$d/none.png" ] && [ ! -e "$d/none.txt" ]; } || zcb_fail "a plot of nothing was written"
done
zcb_ok "one size (seed 001 ttcp-sf), one point (seed 004): nothing drawn, exit 3"
