#!/usr/bin/env bash
# ival-tools.sh: -i and --json-stream beyond ttcp-sf (lib/cpu/ival): zcc
# (--interval: its -i is SO_RCVBUF) against a zcs, chatbench in one
# process, p9bench against diod, nfsbench (2 clients) against
# nfs-ganesha, each with an interval of 0.2 s on loopback. Each prints
# its interval lines; every stdout line is one JSON object, "interval"
# events and then the "end" event last; the document's intervals add up
# exactly to the sample's count, and there are at least as many as whole
# intervals fit in the sample's time less one (slack for a busy box).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
zcb_need_cmd jq
T=$ZCB_TEST_TMP
CHAT=$(zcb_bin chatbench) || exit 1
P9=$(zcb_bin p9bench) || exit 1

# check NAME LABEL COUNT TOTAL ELAPSED: $T/NAME.{txt,stream,json}; COUNT
# the intervals' key, TOTAL and ELAPSED the first sample's keys
check() {
	local n=$1 d=$T/$1.json s=$T/$1.stream sum tot el cnt
	el=$(jq ".cases[0].samples[0].$5" "$d")
	# the first line covers 0.2 s, or the whole run when that was shorter
	# and it is the only line (a fast box delivers chatbench's messages
	# in under 0.2 s)
	awk -v l="$2: " 'index($0, l "[") == 1 {
			lines++
			if (lines > 1) next
			s = substr($0, length(l) + 2); split(s, a, /[-s\]]/)
			from = a[1] + 0; to = a[2] + 0
			form = $0 ~ /s\] *[0-9]+ [a-z]+ *[0-9.]+ [a-zA-Z\/]+/ }
		END { exit !(lines && form && from == 0 &&
			     (to >= 0.195 && to < 0.3 || lines == 1 && to < 0.195)) }' "$T/$n.txt" ||
		{ head -5 "$T/$n.txt"; zcb_fail "$n: no first interval line ($el s run)"; }
	jq -e -s 'length >= 2 and (.[:-1] | all(.event == "interval"))
		and .[-1].event == "end" and .[-1].data.schema == "zcbench-result/1"' "$s" >/dev/null ||
		{ head -c 600 "$s"; zcb_fail "$n: --json-stream lines"; }
	sum=$(jq "[.cases[0].samples[0].intervals[].$3] | add" "$d")
	tot=$(jq ".cases[0].samples[0].$4" "$d")
	[ "$sum" = "$tot" ] || zcb_fail "$n: intervals hold $sum $3, the sample $tot"
	cnt=$(jq '.cases[0].samples[0].intervals | length' "$d")
	awk -v c="$cnt" -v e="$el" 'BEGIN { exit !(c >= 1 && c >= int(e / 0.2) - 1) }' ||
		zcb_fail "$n: $cnt intervals in $el s"
	zcb_ok "$n: lines, JSON stream, $cnt intervals adding up to $tot $3"
}

# zcc: --interval (long form), bytes over 2 connections
head -c 4000000 /dev/zero >"$T/f"
zcs_start zcs
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -P 2 --interval 0.2 --json-stream \
	--output "$T/zcc.json" "$T/f" >"$T/zcc.stream" 2>"$T/zcc.txt" ||
	zcb_fail "zcc: $(cat "$T/zcc.txt")"
zcs_stop "$ZCS_PID"
check zcc zcc bytes bytes elapsed_s
rc=0
"$ZCC" -s 127.0.0.1 -i 0.2 "$T/f" >/dev/null 2>"$T/e" || rc=$?
[ $rc = 2 ] || zcb_fail "zcc -i 0.2: a size for SO_RCVBUF, refused ($rc)"

# chatbench: messages delivered, in process, both models
for m in threads epoll; do
	"$CHAT" --model $m -r 4 -u 8 -m 1500 -i 0.2 --json-stream -o "$T/chat-$m.json" \
		>"$T/chat-$m.stream" 2>"$T/chat-$m.txt" || zcb_fail "chatbench $m: $(cat "$T/chat-$m.txt")"
	check "chat-$m" chatbench messages received exchange_s
done

# p9bench: bytes, against diod
if command -v diod >/dev/null; then
	PEER="$ZCB_SRCDIR/scripts/peer-diod"
	read -r pid addr export _ < <("$PEER" start) || zcb_fail "diod did not start"
	zcb_track "$pid"
	zcb_on_exit "$(printf '%q stop %q %q' "$PEER" "$pid" "$export")"
	"$P9" -s "$addr" -a "$export" --duration 1 --sizes 4096 --op read --path copy \
		-i 0.2 -c --cpu=procstat --json-stream -o "$T/p9.json" >"$T/p9.stream" 2>"$T/p9.txt" ||
		zcb_fail "p9bench: $(cat "$T/p9.txt")"
	check p9 "p9bench read 4096 copy" bytes bytes elapsed_s
	grep -q "cpu *[0-9.]*%$" "$T/p9.txt" || zcb_fail "p9bench: no CPU column with -c"
else
	echo "p9bench: not run (no diod)"
fi

# nfsbench: bytes of 2 client processes, against nfs-ganesha (last: its
# helper skips the test where ganesha is missing)
command -v ganesha.nfsd >/dev/null || zcb_skip "nfsbench needs ganesha.nfsd (the others passed)"
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
nb_need_libnfs
nb_ganesha 4
head -c $((64 << 20)) /dev/zero >"$GEXPORT/z"
nb -s 4k -n 2 -i 0.2 --json-stream -o "$T/nfs.json" "$(nb_url z)" \
	>"$T/nfs.stream" 2>"$T/nfs.txt" || zcb_fail "nfsbench: $(cat "$T/nfs.txt")"
check nfs nfsbench bytes bytes elapsed_s
