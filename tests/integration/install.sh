#!/usr/bin/env bash
# install.sh: `make install` and `make uninstall` into a staging directory
# (DESTDIR), and the installed tree used where it landed (its paths are
# relative, so a staged or moved tree works as installed). Every tool,
# zcb, every script zcb lists, every main-job part and every seed document
# of the source tree is installed, with zcb(1) and the units; with an
# empty environment (no build tree, no ZCB_*), `zcb paths` names only the
# staged tree, `zcb zc-vs-copy` runs the staged ttcp-sf, and `zcb nightly`
# the staged zcbreport and report part; uninstall leaves no file.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP
dest="$T/dest"
make -s -C "$ZCB_BUILDDIR" install DESTDIR="$dest" >"$T/install.log" 2>&1 ||
	zcb_fail "make install: $(tail -10 "$T/install.log")"
zcb=$(find "$dest" -path '*/bin/zcb' -type f)
[ -n "$zcb" ] || zcb_fail "no bin/zcb installed"
pre=${zcb%/bin/zcb}
lx="$pre/libexec/zcbench" data="$pre/share/zcbench"
want=("$pre"/bin/{cyclesoak,ttcp-sf,zcs,zcc,chatbench,p9bench,nfsbench,zcbreport}
	"$lx"/{zcb-paths.sh,rsh.sh} "$pre/share/man/man1/zcb.1"
	"$data/systemd/full-suite.conf")
for c in $("$ZCB_SRCDIR/scripts/zcb" help | awk '/^  [a-z]/ && $1 != "paths" && $1 != "help" { print $1 }'); do
	want+=("$lx/$c")
done
for p in "$ZCB_SRCDIR"/scripts/main.d/[0-9]*.sh; do want+=("$data/main.d/${p##*/}"); done
for s in "$ZCB_SRCDIR"/results/seeds/*.json; do want+=("$data/seeds/${s##*/}"); done
for f in "${want[@]}"; do [ -f "$f" ] || zcb_fail "not installed: ${f#"$dest"}"; done
{ [ -n "$(find "$dest" -name zcbench-nightly.service)" ] &&
	[ -n "$(find "$dest" -name zcbench-nightly.timer)" ]; } || zcb_fail "the units are not installed"
grep -q "^ExecStart=${pre#"$dest"}/bin/zcb nightly " "$(find "$dest" -name zcbench-nightly.service)" ||
	zcb_fail "ExecStart does not name the installed zcb"
zcb_ok "installed: ${#want[@]} files where they belong, and the units"

clean=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$T/home" LANG=C.UTF-8)
"${clean[@]}" "$zcb" paths >"$T/paths" 2>&1 || zcb_fail "zcb paths: $(cat "$T/paths")"
cat "$T/paths"
{ grep -q "^libexec  *$lx\$" "$T/paths" && grep -q "^parts  *$data/main.d\$" "$T/paths"; } ||
	zcb_fail "zcb paths does not name the staged tree"
for t in cyclesoak ttcp-sf zcs zcc chatbench p9bench nfsbench zcbreport; do
	grep -q "^$t  *$pre/bin/$t\$" "$T/paths" || zcb_fail "zcb paths: $t is not the staged one"
done
zcb_ok "zcb paths: the staged scripts, parts, seeds and tools"

"${clean[@]}" "$zcb" zc-vs-copy --methods write --repeat 1 --duration 1s --source-size 4M \
	--cpu procstat --out "$T/zvc" >"$T/zvc.log" 2>&1 || zcb_fail "zcb zc-vs-copy: $(tail -5 "$T/zvc.log")"
doc=$(find "$T/zvc/ttcp-sf" -name '*.json' | head -1)
[ -n "$doc" ] || zcb_fail "zcb zc-vs-copy wrote no document: $(cat "$T/zvc.log")"
[ "$(jq -r '.command[0]' "$doc")" = "$pre/bin/ttcp-sf" ] ||
	zcb_fail "zc-vs-copy ran $(jq -r '.command[0]' "$doc"), not the staged ttcp-sf"
zcb_ok "zcb zc-vs-copy ran the staged ttcp-sf"

# nightly with a stand-in part: the staged zcbreport and report part
mkdir -p "$T/parts"
cp "$ZCB_SRCDIR/tests/data/report/mkdoc.sh" "$T/mkdoc.sh"
cat >"$T/parts/10-fake.sh" <<EOS
source "$T/mkdoc.sh"
mkdir -p "\$ZCB_OUT/ttcp-sf"
mkdoc "\$ZCB_OUT/ttcp-sf/fake.json" "\$ZCB_LABEL" 1000 10 5 1
EOS
"${clean[@]}" "$zcb" nightly --parts "$T/parts" --results "$T/res" --repeat 1 --label staged \
	>"$T/nightly.log" 2>&1 || zcb_fail "zcb nightly: $(cat "$T/nightly.log")"
grep -q 'ttcp-sf Results' "$T/res/staged/latest/tables.txt" ||
	zcb_fail "no tables from the staged report part: $(cat "$T/res/staged/latest/tables.txt")"
zcb_ok "zcb nightly: the staged zcbreport and report part"

make -s -C "$ZCB_BUILDDIR" uninstall DESTDIR="$dest" >"$T/uninstall.log" 2>&1 ||
	zcb_fail "make uninstall: $(tail -10 "$T/uninstall.log")"
left=$(find "$dest" ! -type d)
[ -z "$left" ] || zcb_fail "left after make uninstall: $left"
zcb_ok "make uninstall: no file left"
