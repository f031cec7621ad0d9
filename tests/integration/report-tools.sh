#!/usr/bin/env bash
# report-tools.sh: one owner for each table. p9bench, nfsbench and
# chatbench print their seed tables through the table room's layouts
# (lib/table), handing them their own document; so the tables a tool
# prints are, byte for byte, `zcbreport table --layout L` of the file it
# wrote, with paired runs (marks, footnotes, notes) and without:
# 1. chatbench in-process, soak (paired) and procstat: the chat layout;
# 2. p9bench against diod, soak (paired) with the server's CPU by PID:
#    the p9 layout (seed tables and ops/s tables); p9bench on a mounted
#    directory (buffered, O_DIRECT): the same;
# 3. nfsbench on a mounted directory, 2 sizes x 1 and 2 clients, soak:
#    nfs-rsize, then nfs-clients.
# A fixture calibration: the figures are not judged, only that the two
# printers are one.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
zcb_need_cmd jq
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
B=$(zcb_bin chatbench) || zcb_fail "chatbench not built"
P9=$(zcb_bin p9bench) || zcb_fail "p9bench not built"
NB=$(zcb_bin nfsbench) || zcb_fail "nfsbench not built"
T=$ZCB_TEST_TMP
cs_lock
cs_fixture_calibration

# same OUT DOC LAYOUT...: the layouts of DOC, as zcbreport prints them
# (a blank line between two), are in the tool's output OUT
same() {
	local out=$1 doc=$2 l want=""
	shift 2
	for l in "$@"; do
		[ -z "$want" ] || want+=$'\n\n'
		want+=$("$Z" table --layout "$l" "$doc" 2>&1)
	done
	[[ "$(cat "$out")" == *"$want"* ]] || {
		diff <(echo "$want") "$out" >&2
		zcb_fail "$(basename "$out"): the tool's tables are not zcbreport's ($*)"
	}
}

# 1. chatbench
"$B" -r 2 -u 3 -m 20 -s 64 -n 2 --cpu=soak -o "$T/cp.json" >"$T/cp.out" 2>&1 ||
	zcb_fail "chatbench paired: $(cat "$T/cp.out")"
jq -e '.cases[0].perturbation.pairs == 2' "$T/cp.json" >/dev/null || zcb_fail "chatbench did not pair"
same "$T/cp.out" "$T/cp.json" chat
"$B" -r 2 -u 3 -m 20 -s 64 -n 3 --cpu=procstat -o "$T/cu.json" >"$T/cu.out" 2>&1 ||
	zcb_fail "chatbench: $(cat "$T/cu.out")"
same "$T/cu.out" "$T/cu.json" chat
zcb_ok "chatbench's table is zcbreport's chat layout of its document (paired and not)"

# 2. p9bench: mounted (no server needed), then 9P against diod
D=$T/mnt
mkdir -p "$D"
"$P9" --mount "$D" --ops 50 --sizes 4096,8192 --repeat 2 -o "$T/pm.json" >"$T/pm.out" 2>&1 ||
	zcb_fail "p9bench mounted: $(cat "$T/pm.out")"
same "$T/pm.out" "$T/pm.json" p9
grep -Eq '^IO SIZE +TOTAL SIZE +buffered +O_DIRECT$' "$T/pm.out" || zcb_fail "mounted: no buffered/O_DIRECT columns"
if command -v diod >/dev/null 2>&1; then
	PEER="$ZCB_SRCDIR/scripts/peer-diod"
	read -r pid addr export _ < <("$PEER" start) || zcb_fail "diod did not start"
	zcb_track "$pid"
	zcb_on_exit "$(printf '%q stop %q %q' "$PEER" "$pid" "$export")"
	"$P9" -s "$addr" -a "$export" --ops 100 --sizes 512,4096 --cpu=soak \
		--server-pid "$pid" --repeat 2 -o "$T/pp.json" >"$T/pp.out" 2>&1 ||
		zcb_fail "p9bench paired: $(cat "$T/pp.out")"
	same "$T/pp.out" "$T/pp.json" p9
	grep -q '^READ: ops/s, ZC/No ZC throughput ratio' "$T/pp.out" || zcb_fail "p9bench: no ops/s table"
	zcb_ok "p9bench's tables are zcbreport's p9 layout of its document (mounted; 9P paired)"
else
	zcb_ok "p9bench's tables are zcbreport's p9 layout of its document (mounted; no diod here for 9P)"
fi

# 3. nfsbench, mounted mode on a plain directory
"$NB" -w -b 400000 -s 64k --files shared -q "$D/nfs.dat" || zcb_fail "nfsbench write"
"$NB" -s 4k,64k -n 1,2 -R 2 --cpu=soak -o "$T/n.json" "$D/nfs.dat" >"$T/n.out" 2>&1 ||
	zcb_fail "nfsbench: $(cat "$T/n.out")"
same "$T/n.out" "$T/n.json" nfs-rsize nfs-clients
zcb_ok "nfsbench's tables are zcbreport's nfs-rsize and nfs-clients layouts of its document"
