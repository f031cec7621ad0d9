#!/usr/bin/env bash
# profile-tools.sh: --profile in the tools ttcp-profile.sh does not
# cover: zcc against zcs, p9bench against diod, nfsbench against
# nfs-ganesha, all on loopback. In each, a case runs in pairs (profiled,
# then unprofiled); the meters line and the run lines say "profile", never
# "soak"; the document's profiled runs carry a profile (event, samples,
# families summing to 100) and the unprofiled ones a paused profile
# meter; each case has its perturbation. Shares are never judged: the box
# is shared.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
source "$ZCB_SRCDIR/tests/integration/zcs-lib.sh"
zcb_need_cmd jq
zcb_need_cmd diod
nb_need_libnfs
P9=$(zcb_bin p9bench) || exit 1
T=$ZCB_TEST_TMP

# skip_if_unavailable OUT: the profile cannot run here (no perf events)
skip_if_unavailable() {
	local why
	why=$(grep -m1 'profile unavailable' "$1") || return 0
	zcb_skip "the profile meter cannot run here: $why"
}

# profiled DOC WHO: every case in pairs, the profile in the profiled
# runs, a paused one in the others, and a perturbation per case
profiled() {
	local j=$1 who=$2
	[ "$(zcb_json "$j" .status)" = ok ] || zcb_fail "$who: status $(zcb_json "$j" .status)"
	jq -e 'all(.cases[]; ([.samples[] | .soak] | . == [range(length / 2) | true, false]) and
		.perturbation.pairs >= 1)' "$j" >/dev/null ||
		zcb_fail "$who: runs not profiled/unprofiled in pairs: $(jq -c '[.cases[] | [.samples[] | .soak]]' "$j")"
	jq -e 'all(.cases[].samples[] | select(.soak) | .cpu.local[] | select(.meter == "profile");
		.ok and (.profile.event == "cpu-clock" or .profile.event == "cycles") and
		.profile.samples > 0 and ([.profile.families[]] | add | . > 99.5 and . < 100.5))' \
		"$j" >/dev/null || zcb_fail "$who: a profiled run without its profile"
	jq -e '[.cases[].samples[] | select(.soak) | .cpu.local[] | select(.meter == "profile")] | length > 0' \
		"$j" >/dev/null || zcb_fail "$who: no profile meter in the profiled runs"
	jq -e 'all(.cases[].samples[] | select(.soak | not) | .cpu.local[] | select(.meter == "profile");
		.paused and (.ok | not))' "$j" >/dev/null ||
		zcb_fail "$who: an unprofiled run's profile is not marked paused"
}

# no_soak OUT WHO: the text never speaks of soak or soakers
no_soak() {
	! grep -qi 'soak' "$1" || zcb_fail "$2 speaks of soak: $(grep -i soak "$1" | head -3)"
}

# 1. zcc against zcs
head -c 4000000 /dev/urandom >"$T/a"
zcs_start zcs --exit-after 4
"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 10 --profile --repeat 2 \
	--output "$T/zcc.json" "$T/a" >"$T/zcc.txt" 2>&1 ||
	zcb_fail "zcc --profile: $(cat "$T/zcc.txt")"
zcs_wait_end "$ZCS_PID"
skip_if_unavailable "$T/zcc.txt"
grep -q '^zcc: CPU meters: procstat,profile; profile runs in pairs: profiled, then unprofiled (the rate)$' "$T/zcc.txt" ||
	zcb_fail "zcc meters line: $(grep 'CPU meters' "$T/zcc.txt")"
[ "$(grep -c '^pair [12], metered run: profiler on' "$T/zcc.txt")" = 2 ] ||
	zcb_fail "zcc run lines: $(grep '^pair' "$T/zcc.txt")"
no_soak "$T/zcc.txt" zcc
profiled "$T/zcc.json" zcc
zcb_ok "zcc --profile: pairs, profiles, no soak"

# 2. p9bench against diod
PEER="$ZCB_SRCDIR/scripts/peer-diod"
read -r pid addr export _ < <("$PEER" start) || zcb_fail "diod did not start"
zcb_track "$pid"
zcb_on_exit "$(printf '%q stop %q %q' "$PEER" "$pid" "$export")"
"$P9" -v -s "$addr" -a "$export" --ops 300 --sizes 4096 --op read --path copy \
	--profile -o "$T/p9.json" >"$T/p9.txt" 2>&1 ||
	zcb_fail "p9bench --profile: $(cat "$T/p9.txt")"
grep -q 'CPU meters: this box procstat,profile, server host -; profile runs in pairs: profiled, then unprofiled (the rate)$' "$T/p9.txt" ||
	zcb_fail "p9bench meters line: $(grep 'CPU meters' "$T/p9.txt")"
no_soak "$T/p9.txt" p9bench
profiled "$T/p9.json" p9bench
zcb_ok "p9bench --profile: pairs, profiles, no soak"

# 3. nfsbench against nfs-ganesha
nb_ganesha 4
"$NB" -w -b 1000000 -s 64k --files shared -q "$GEXPORT/pat" || zcb_fail "local pattern write"
nb -s 64k -n 1 --profile -o "$T/nfs.json" "$(nb_url pat)" >"$T/nfs.txt" 2>&1 ||
	zcb_fail "nfsbench --profile: $(cat "$T/nfs.txt")"
grep -q '^nfsbench: CPU meters: client procstat,profile, server -; profile runs in pairs: profiled, then unprofiled (the rate)$' "$T/nfs.txt" ||
	zcb_fail "nfsbench meters line: $(grep 'CPU meters' "$T/nfs.txt")"
no_soak "$T/nfs.txt" nfsbench
nb_doc_ok "$T/nfs.json"
profiled "$T/nfs.json" nfsbench
zcb_ok "nfsbench --profile: pairs, profiles, no soak"
exit 0
