#!/usr/bin/env bash
# report-hostile.sh: a result document is data, never commands. Labels,
# params, units, meter names, host facts, errors and file names that hold
# newlines, gnuplot's system() or terminal escape sequences
# 1. never run a command when plotted (a marker file must not appear),
#    and reach the PNG and ASCII plots as visible text;
# 2. never reach the terminal raw from table, compare, plot --print or a
#    diagnostic: no control bytes (C0 but newline, DEL, UTF-8 C1) in
#    stdout or stderr, the escape shown as \x1b;
# 3. keep CSV one record per line and Markdown one row per line;
# 4. never name a tool with more than a plain word (it becomes a file
#    name in scripts).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd gnuplot "Debian package gnuplot-nox"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
m=$d/PWNED # must never exist
mkdir -p "$d/plot" "$d/term" "$d/base"

# control bytes a terminal obeys: C0 except newline, DEL, C1 as UTF-8
raw() { LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$1"; }
clean() { # clean FILE WHAT
	[ "$(raw "$1")" = 0 ] || {
		od -c "$1" | head -20 >&2
		zcb_fail "$2: control characters reach the terminal"
	}
}

sys="system(\"touch $m\")"
inj=$'\n'"$sys"$'\n#'
# every document string gnuplot sees: label, series params, the unit of
# the y axis, the meter in the title
MK_CASES=4 MK_PARAMS='{"method":"write"}' mkdoc "$d/w.json" 6.1 500 20 4 1
jq --arg i "$inj" '.label = "lbl" + $i + " it'"'"'s a^{b} \\n @x `id`" |
	.cases[].params.method = "m" + $i |
	.metrics.throughput_MBps.unit = "MB/s" + $i |
	.cases[].samples[].cpu.local[0].meter = "procstat" + $i' \
	"$d/w.json" >"$d/plot/evil.json"

# gnuplot through a wrapper that keeps each script it is given
cat >"$d/gp" <<EOS
#!/bin/sh
cp "\$1" "$d/last.gp"
exec gnuplot "\$@"
EOS
chmod +x "$d/gp"
for err in sd ci95 none; do
	rc=0
	GNUPLOT=$d/gp "$Z" plot -o "$d/p" -e "$err" --print "$d/plot" >"$d/out" 2>"$d/err" || rc=$?
	[ ! -e "$m" ] || zcb_fail "plot -e $err: gnuplot ran a command from the document"
	[ $rc = 0 ] || zcb_fail "plot -e $err exited $rc: $(cat "$d/err")"
	clean "$d/out" "plot --print -e $err"
	clean "$d/err" "plot -e $err diagnostics"
	clean "$d/p.txt" "the ASCII plot"
done
# every line of the script is a command of zcbreport's own
bad=$(grep -Ev "^(set |plot |     '|\$)" "$d/last.gp") &&
	zcb_fail "a line of the gnuplot script is not zcbreport's: $bad"
grep -qF "title 'lbl\nsystem(\"touch $m\")\n# it''s a^{b} \n @x \`id\`'" "$d/last.gp" ||
	zcb_fail "the label is not one quoted gnuplot string: $(cat "$d/last.gp")"
grep -qF "meter procstat\nsystem(" "$d/last.gp" || zcb_fail "meter not in the title"
grep -qF 'lbl\nsyste' "$d/p.txt" || zcb_fail "the label is not drawn: $(cat "$d/p.txt")"
for y in cpu_local_pct throughput_MBps; do
	rc=0
	"$Z" plot -o "$d/p" -y "$y" --title "t$inj" "$d/plot" >"$d/out" 2>&1 || rc=$?
	[ ! -e "$m" ] || zcb_fail "plot --title: gnuplot ran a command"
	[ $rc = 0 ] || zcb_fail "plot -y $y --title exited $rc: $(cat "$d/out")"
done
zcb_ok "plot: newlines and system() in a document are drawn, not run"

# a prefix that would break gnuplot's quoting is refused, not mangled
rc=0; "$Z" plot -o "$d/a"$'\n'"b" "$d/plot" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 2 ] && grep -q -- '--output' "$d/out"; } || zcb_fail "-o with a newline: exit $rc: $(cat "$d/out")"
rc=0; "$Z" plot -o "$d/it's" --no-png "$d/plot" >"$d/out" 2>&1 || rc=$?
{ [ $rc = 0 ] && [ -s "$d/it's.txt" ]; } || zcb_fail "-o with a quote: exit $rc: $(cat "$d/out")"
zcb_ok "plot: --output names are quoted, control characters refused"

# terminal: escape sequences that set the title, clear the screen, move
# the cursor, as 7-bit ESC and as 8-bit CSI (U+009B)
esc=$'\e]0;owned\a\e[2J\e[H\xc2\x9b31m'
jq --arg e "$esc" '.label = "k" + $e + "|x\ny\\|z" |
	.cases[].params.method = "m" + $e + ",\"q\"" |
	.host.cmdline = "ro" + $e | .host.sysctls["net.core.x" + $e] = "1" + $e |
	.metrics.throughput_MBps.unit = "MB/s" + $e' \
	"$d/w.json" >"$d/term/t.json"
jq '.label = "base"' "$d/w.json" >"$d/base/b.json"
jq --arg e "$esc" '.status = "failed" | .error = "died" + $e' \
	"$d/w.json" >"$d/term/failed.json"
echo 'not json' >"$d/term/bad$esc.json"

for f in text csv markdown; do
	rc=0; "$Z" table -f "$f" --sd "$d/term" >"$d/out" 2>"$d/err" || rc=$?
	[ $rc = 0 ] || zcb_fail "table -f $f: exit $rc: $(cat "$d/err")"
	clean "$d/out" "table -f $f"
	clean "$d/err" "table -f $f diagnostics"
	want='k\x1b]0;owned\x07\x1b[2J\x1b[H\u009b31m'
	# Markdown writes a backslash as \\ (and a pipe as \|)
	[ "$f" = markdown ] && want=${want//\\/\\\\}
	grep -qF "$want" "$d/out" ||
		zcb_fail "table -f $f: the label is not shown escaped: $(cat "$d/out")"
done
{ grep -qF 'died\x1b]0;owned' "$d/err" && grep -qF 'bad\x1b]0;owned' "$d/err"; } ||
	zcb_fail "diagnostics do not name the bad documents escaped: $(cat "$d/err")"
rc=0; "$Z" table -l all "$d/term" >"$d/out" 2>"$d/err" || rc=$?
clean "$d/out" "table -l all"
clean "$d/err" "table -l all diagnostics"
zcb_ok "table: escape sequences shown escaped (text, csv, markdown, layouts)"

# CSV: one record per line (4 cases and a header); Markdown: one row per
# line, the label's pipes escaped, a backslash before one too
"$Z" table -f csv "$d/term/t.json" >"$d/out" 2>/dev/null
[ "$(wc -l <"$d/out")" = 5 ] || zcb_fail "csv: not one record per line: $(cat "$d/out")"
"$Z" table -f markdown "$d/term/t.json" >"$d/out" 2>/dev/null
{ [ "$(grep -c '^|' "$d/out")" = "$(wc -l <"$d/out")" ] && grep -qF 'k\\x1b' "$d/out" &&
	grep -qF 'm\|x\\ny\\\|z |' "$d/out"; } || zcb_fail "markdown: not one row per line: $(cat "$d/out")"
zcb_ok "csv and markdown stay one record per line"

rc=0; "$Z" compare "$d/base" "$d/term" >"$d/out" 2>"$d/err" || rc=$?
[ $rc != 2 ] || grep -q 'failed' "$d/err" || zcb_fail "compare: exit $rc: $(cat "$d/err")"
clean "$d/out" "compare"
clean "$d/err" "compare diagnostics"
grep -qF 'ro\x1b]0;owned' "$d/out" || zcb_fail "compare: host facts not shown escaped: $(cat "$d/out")"
grep -qF 'k\x1b]0;owned' "$d/out" || zcb_fail "compare: the label not shown escaped"
zcb_ok "compare: host facts, labels and units shown escaped"
# the N-kernel table (two NEW, or markdown) heads each kernel's host
# facts with "NEW against BASE:": its labels escaped too
for f in text markdown; do
	for news in 1 2; do
		args=("$d/base" "$d/term")
		[ "$news" = 2 ] && args+=("$d/term")
		rc=0; "$Z" compare -f "$f" "${args[@]}" >"$d/out" 2>"$d/err" || rc=$?
		[ $rc != 2 ] || grep -q 'failed' "$d/err" ||
			zcb_fail "compare -f $f with $news NEW: exit $rc: $(cat "$d/err")"
		clean "$d/out" "compare -f $f with $news NEW"
		clean "$d/err" "compare -f $f with $news NEW: diagnostics"
		grep -qF 'k\x1b]0;owned' "$d/out" ||
			zcb_fail "compare -f $f with $news NEW: the label not shown escaped: $(cat "$d/out")"
	done
done
zcb_ok "compare's N-kernel table: labels shown escaped over the host facts"

# a tool's name becomes a file name (scripts/main.d/90-report.sh makes
# plots/TOOL-METRIC.png): a tool that is not a plain word is refused
mkdir -p "$d/tools"
jq '.tool = "../../x"' "$d/w.json" >"$d/tools/up.json"
jq --arg e "$esc" '.tool = "t" + $e' "$d/w.json" >"$d/tools/esc.json"
rc=0; "$Z" table "$d/tools" >"$d/out" 2>"$d/err" || rc=$?
{ [ $rc = 2 ] && [ "$(grep -c 'tool is not a plain name' "$d/err")" = 2 ]; } ||
	zcb_fail "tools that are not plain names: exit $rc: $(cat "$d/out" "$d/err")"
clean "$d/err" "refused tools"
{ "$Z" table "$d/w.json" >/dev/null 2>"$d/err" && [ ! -s "$d/err" ]; } ||
	zcb_fail "a plain tool name was refused: $(cat "$d/err")"
zcb_ok "a tool that is not a plain name is refused"
