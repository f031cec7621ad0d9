#!/usr/bin/env bash
# report-plot-signals: zcbreport plot never leaves gnuplot behind. INT,
# TERM and HUP while gnuplot runs end it, remove the temporary directory
# and what gnuplot was writing, and exit 128 + the signal; SIGKILL of
# zcbreport still ends gnuplot (PR_SET_PDEATHSIG). gnuplot is a stand-in
# that says where it runs and waits, so no real gnuplot is needed.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
mkdir -p "$d/runs"
MK_CASES=3 mkdoc "$d/runs/w.json" 6.18 500 20 4 1

# the stand-in: its pid and script, a half-written output, then a wait
cat >"$d/gp-wait" <<EOS
#!/bin/sh
echo "\$1" >"$d/gp.script"
printf 'half a plot' >"$d/plot.png"
echo \$\$ >"$d/gp.pid.tmp" && mv "$d/gp.pid.tmp" "$d/gp.pid"
exec sleep 60
EOS
chmod +x "$d/gp-wait"

# start_plot: zcbreport plot in the background, once its gnuplot runs:
# RUN (zcbreport), GP (gnuplot), GPDIR (zcbreport's temporary directory)
start_plot() {
	local i
	rm -f "$d/gp.pid" "$d/gp.script" "$d/plot.png"
	GNUPLOT="$d/gp-wait" "$Z" plot -o "$d/plot" "$d/runs" >"$d/out" 2>"$d/err" &
	RUN=$!
	zcb_track "$RUN"
	for i in $(seq 1 200); do
		[ -s "$d/gp.pid" ] && break
		kill -0 "$RUN" 2>/dev/null || zcb_fail "zcbreport ended before gnuplot: $(cat "$d/err")"
		sleep 0.05
	done
	[ -s "$d/gp.pid" ] || zcb_fail "the gnuplot stand-in never ran"
	GP=$(cat "$d/gp.pid")
	zcb_track "$GP"
	GPDIR=$(dirname "$(cat "$d/gp.script")")
	zcb_on_exit "rm -rf '$GPDIR'"
	[ -d "$GPDIR" ] || zcb_fail "no temporary directory $GPDIR"
}

for sig in TERM:143 INT:130 HUP:129; do
	start_plot
	kill -"${sig%%:*}" "$RUN"
	zcb_wait_gone "$RUN" 10 || zcb_fail "zcbreport ignored SIG${sig%%:*}"
	rc=0
	wait "$RUN" || rc=$?
	[ "$rc" = "${sig#*:}" ] || zcb_fail "SIG${sig%%:*}: exit $rc, want ${sig#*:} ($(cat "$d/err"))"
	zcb_wait_gone "$GP" 5 || zcb_fail "SIG${sig%%:*}: gnuplot $GP outlived zcbreport"
	[ ! -e "$GPDIR" ] || zcb_fail "SIG${sig%%:*}: $GPDIR left behind"
	[ ! -e "$d/plot.png" ] || zcb_fail "SIG${sig%%:*}: the half-written plot.png left behind"
	grep -q "stopped by signal" "$d/err" || zcb_fail "SIG${sig%%:*}: not said: $(cat "$d/err")"
	zcb_ok "SIG${sig%%:*}: gnuplot ended, files removed, exit ${sig#*:}"
done

# SIGKILL: nothing can be cleaned, but gnuplot goes with zcbreport
start_plot
kill -KILL "$RUN"
zcb_wait_gone "$GP" 5 || zcb_fail "gnuplot $GP outlived a SIGKILLed zcbreport"
zcb_ok "SIGKILL: gnuplot went with zcbreport"
