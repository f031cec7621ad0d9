#!/usr/bin/env bash
# report-html.sh: zcbreport html in a real browser. A baseline and a
# kernel 10% slower (plus a document whose label is an HTML/script
# injection) make one page; the test checks that the file is
# self-contained (no network address, no script), that headless
# Chromium (Debian's chromium-headless-shell) renders it with no
# console error, that the rendered DOM holds the verdict table with the
# regressions on top and their links to the samples, the seed tables,
# and every plot as an SVG image that decodes, and that the injected
# label is text, not markup. The screenshot is kept as a test artifact:
# $ZCB_BUILDDIR/tests/artifacts/report-html.png (and the page beside it).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
zcb_need_cmd jq
zcb_need_cmd gnuplot "Debian package gnuplot-nox"
zcb_need_cmd base64
CHROME=$(command -v chromium-headless-shell || command -v chromium) ||
	zcb_skip "needs headless Chromium (Debian package chromium-headless-shell; scripts/setup-deps)"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP
art=$ZCB_BUILDDIR/tests/artifacts
mkdir -p "$d/base" "$d/new" "$art"

MK_VALUES=500,510,490,505,495 MK_CASES=4 MK_PARAMS='{"method":"write"}' mkdoc "$d/base/w.json" 6.18 0 0 0 0
MK_VALUES=600,640,590,610,605 MK_CASES=4 MK_PARAMS='{"method":"sendfile"}' mkdoc "$d/base/s.json" 6.18 0 0 0 0
MK_VALUES=450,459,441,454,445 MK_CASES=4 MK_PARAMS='{"method":"write"}' mkdoc "$d/new/w.json" 6.19 0 0 0 0
MK_VALUES=600,640,590,610,605 MK_CASES=4 MK_PARAMS='{"method":"sendfile"}' mkdoc "$d/new/s.json" 6.19 0 0 0 0
# a hostile label and host: markup and a script, to be shown as text
jq '.label = "6.19<script>alert(1)</script>" | .host.hostname = "h\"><img src=x onerror=alert(2)>" |
	.cases[].params.method = "splice"' "$d/new/s.json" >"$d/new/x.json"

rc=0; "$Z" html "$d/base" "$d/new" -o "$d/report.html" >"$d/out" 2>"$d/err" || rc=$?
[ $rc = 0 ] || zcb_fail "zcbreport html: exit $rc: $(cat "$d/err")"
grep -q 'regressions flagged' "$d/out" || zcb_fail "no closing line: $(cat "$d/out")"
cp "$d/report.html" "$art/report-html.html"
page=$d/report.html

# self-contained, no JavaScript, the injection escaped
! grep -Eiq '(src|href)="(https?:|//|file:)' "$page" || zcb_fail "the page loads something from elsewhere"
! grep -qi '<script' "$page" || zcb_fail "a <script> element in the page"
grep -q '6.19&lt;script&gt;alert(1)&lt;/script&gt;' "$page" || zcb_fail "the hostile label is not escaped text"
! grep -q 'onerror=alert(2)>' "$page" || zcb_fail "the hostile host name is markup"
zcb_ok "self-contained page, no script, document strings escaped"

# every plot: an SVG image that decodes
nimg=$(grep -o 'src="data:image/svg+xml;base64,[^"]*"' "$page" | wc -l)
[ "$nimg" -ge 3 ] || zcb_fail "only $nimg plots (want the throughput, CPU and ratio plots at least)"
i=0
grep -o 'src="data:image/svg+xml;base64,[^"]*"' "$page" | sed 's/^src="data:image\/svg+xml;base64,//; s/"$//' |
	while IFS= read -r b; do
		i=$((i + 1))
		printf '%s' "$b" | base64 -d >"$d/p$i.svg" 2>/dev/null || exit 1
		{ grep -q '<svg' "$d/p$i.svg" && grep -q '</svg>' "$d/p$i.svg"; } || exit 1
	done || zcb_fail "a plot is not a whole SVG"
zcb_ok "$nimg plots, each a whole SVG image in the page"

# the browser: DOM, console, screenshot (each with a time limit)
chrome() { timeout -k 5 90 "$CHROME" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$d/chrome" --no-first-run --allow-file-access-from-files "$@"; }
chrome --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$d/dom.html" 2>"$d/console.log" ||
	zcb_fail "chromium could not load the page: $(tail -5 "$d/console.log")"
if grep -E 'CONSOLE|Uncaught|:ERROR:.*(console|Refused|Failed to load)' "$d/console.log"; then
	zcb_fail "console errors while loading the page"
fi
grep -q '<table id="verdict-table"' "$d/dom.html" || zcb_fail "no verdict table in the rendered page"
first=$(grep -o '<tr id="v-[0-9]*" class="[a-z]*"' "$d/dom.html" | head -1)
[[ "$first" == *'class="regression"'* ]] || zcb_fail "the first verdict row is not a regression: $first"
link=$(grep -o 'href="#s-[0-9]*-[0-9]*">REGRESSION' "$d/dom.html" | head -1 | sed 's/href="#//; s/">.*//')
{ [ -n "$link" ] && grep -q "id=\"$link\"" "$d/dom.html"; } || zcb_fail "a flagged row's link has no samples to go to"
[ "$(grep -o '<figure class="plot"><img' "$d/dom.html" | wc -l)" = "$nimg" ] || zcb_fail "plots missing in the DOM"
{ grep -q 'id="tables"' "$d/dom.html" && grep -q 'ttcp-sf Results' "$d/dom.html"; } || zcb_fail "no seed tables"
grep -q 'id="hosts"' "$d/dom.html" || zcb_fail "no host facts"
! grep -q '<script' "$d/dom.html" || zcb_fail "a script element in the rendered DOM"
zcb_ok "Chromium renders it: verdict table (regressions first, linked to samples), seed tables, $nimg plots, hosts, no console error"

chrome --screenshot="$art/report-html.png" --window-size=1280,2400 "file://$page" >/dev/null 2>&1 ||
	zcb_fail "no screenshot"
head -c 8 "$art/report-html.png" | od -An -tx1 | grep -q '89 50 4e 47' || zcb_fail "the screenshot is not a PNG"
zcb_ok "screenshot kept: $art/report-html.png"

# one set: no verdicts, still a page
rc=0; "$Z" html "$d/base" -o "$d/one.html" >/dev/null 2>&1 || rc=$?
{ [ $rc = 0 ] && grep -q 'nothing compared' "$d/one.html"; } || zcb_fail "one set: exit $rc"
rc=0; "$Z" html >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || zcb_fail "no input: exit $rc"
zcb_ok "one set: a page without verdicts; no input: exit 2"
