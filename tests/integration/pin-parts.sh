#!/usr/bin/env bash
# pin-parts.sh: the nightly's parts pin their two sides and say where
# (issue 26): zcb_pin_plan's plan (the first and the last CPU this
# process may run on, ZCB_PIN, one CPU: none), and the drivers' --pin:
# zc-vs-copy (ttcp-sf --affinity), chat-regression (taskset), p9-sweep
# (p9bench and the diod it starts; zcb_pin_pid), each side's document
# recording where it ran (host.cpus_allowed, config.server_cpus_allowed).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd jq jq
zcb_need_cmd taskset util-linux
T=$ZCB_TEST_TMP
S=$ZCB_SRCDIR/scripts
export ZCB_BUILDDIR

# plan [ENV...]: zcb_pin_plan's A, B and words, in a shell of its own
plan() {
	# shellcheck disable=SC2016 # the inner bash expands them
	env "$@" bash -c 'source "$1/zcb-paths.sh" || exit 9
		zcb_pin_plan || exit $?
		echo "[$ZCB_PIN_A][$ZCB_PIN_B] $ZCB_PIN_WHY"
		zcb_pin_say part A B' _ "$S"
}

one=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | cut -d, -f1 | cut -d- -f1)
out=$(taskset -c "$one" bash -c "$(declare -f plan); S='$S'; plan")
grep -q "^\[\]\[\] one CPU here ($one): the sides are not pinned$" <<<"$out" ||
	zcb_fail "one CPU: $out"
grep -q "^part: one CPU here" <<<"$out" || zcb_fail "one CPU, the part's line: $out"
out=$(plan ZCB_PIN=3,1)
grep -q '^\[3\]\[1\] the starting side on CPU 3, the waiting side on CPU 1 (ZCB_PIN)$' <<<"$out" ||
	zcb_fail "ZCB_PIN=3,1: $out"
grep -q '^part: pinned: A on CPU 3, B on CPU 1$' <<<"$out" || zcb_fail "ZCB_PIN=3,1, the part's line: $out"
out=$(plan ZCB_PIN=off)
grep -q '^\[\]\[\] not pinned (ZCB_PIN=off)$' <<<"$out" || zcb_fail "ZCB_PIN=off: $out"
plan ZCB_PIN=x >"$T/bad" 2>&1 && zcb_fail "ZCB_PIN=x accepted"
grep -q 'ZCB_PIN=x: two CPU numbers' "$T/bad" || zcb_fail "ZCB_PIN=x: $(cat "$T/bad")"
zcb_ok "zcb_pin_plan: one CPU, ZCB_PIN, off, and a bad one"

# shellcheck disable=SC2016 # the inner bash expands them
mapfile -t cpus < <(bash -c 'source "$1/zcb-paths.sh"; zcb_pin_plan; echo "$ZCB_PIN_A"; echo "$ZCB_PIN_B"' _ "$S")
[ -n "${cpus[0]}" ] || zcb_skip "one CPU here: nothing to pin"
a=${cpus[0]} b=${cpus[1]}
[ "$a" != "$b" ] || zcb_fail "two CPUs, one plan: $a and $b"
zcb_ok "zcb_pin_plan: the starting side on CPU $a, the waiting side on CPU $b"

# zcb_pin_pid: a running process on one CPU; one that is gone: 1 (a
# thread that ends while listed is no failure: taskset -a failed so on
# diod's threads, "failed to get pid N's affinity: No such process")
sleep 30 &
sp=$!
# shellcheck disable=SC2016 # the inner bash expands them
bash -c 'source "$1/zcb-paths.sh" && zcb_pin_pid "$2" "$3"' _ "$S" "$b" "$sp" ||
	zcb_fail "zcb_pin_pid $b $sp failed"
got=$(taskset -c -p "$sp" | sed 's/.*: //')
kill "$sp"
wait "$sp" 2>/dev/null
[ "$got" = "$b" ] || zcb_fail "zcb_pin_pid: sleep runs on $got, not $b"
# shellcheck disable=SC2016 # the inner bash expands them
bash -c 'source "$1/zcb-paths.sh" && zcb_pin_pid "$2" "$3"' _ "$S" "$b" "$sp" &&
	zcb_fail "zcb_pin_pid: a process that is gone was pinned"
zcb_ok "zcb_pin_pid: every thread of a running process; a gone one is an error"

# zc-vs-copy: -t --affinity A, -r --affinity B; the transmitter's
# document says its own CPU and, in the peer's facts, the receiver's
TT=$(zcb_bin ttcp-sf) || exit 1
"$S/zc-vs-copy" --methods write --sizes 16k --repeat 1 --duration 200ms \
	--source-size 32M --pin "$a,$b" --out "$T/zc" --bin "$TT" >"$T/zc.out" 2>&1 ||
	zcb_fail "zc-vs-copy --pin: $(tail -5 "$T/zc.out")"
grep -q "^zc-vs-copy: pinned: the transmitter on CPU $a, the receiver on CPU $b$" "$T/zc.out" ||
	zcb_fail "zc-vs-copy: no line of where: $(head -3 "$T/zc.out")"
d=$(ls "$T"/zc/ttcp-sf/*.json)
[ "$(jq -r '.host.cpus_allowed' "$d")" = "$a" ] || zcb_fail "zc-vs-copy: the transmitter's cpus_allowed: $(jq -c .host.cpus_allowed "$d")"
[ "$(jq -r '.peer.cpus_allowed' "$d")" = "$b" ] || zcb_fail "zc-vs-copy: the receiver's cpus_allowed: $(jq -c .peer.cpus_allowed "$d")"
[ "$(jq -r '.config.affinity' "$d")" = "$a" ] || zcb_fail "zc-vs-copy: config.affinity"
"$S/zc-vs-copy" --pin x --out "$T/zcx" --bin "$TT" >"$T/zcx.out" 2>&1 && zcb_fail "zc-vs-copy --pin x accepted"
grep -q -- '--pin x: two CPU numbers' "$T/zcx.out" || zcb_fail "zc-vs-copy --pin x: $(cat "$T/zcx.out")"
zcb_ok "zc-vs-copy: both ends pinned, said and recorded"

# chat-regression: chatbench is one process, on the CPUs given
"$S/chat-regression" --side-only -n 1 --pin "$b" --out "$T/chat" -- -r 1 -u 2 -m 10 \
	>"$T/chat.out" 2>&1 || zcb_fail "chat-regression --pin: $(tail -5 "$T/chat.out")"
grep -q "^chat-regression: pinned: chatbench (server and clients in one process) on CPUs $b$" "$T/chat.out" ||
	zcb_fail "chat-regression: no line of where: $(head -3 "$T/chat.out")"
[ "$(jq -r '.host.cpus_allowed' "$T/chat/A/run-1.json")" = "$b" ] ||
	zcb_fail "chat-regression: cpus_allowed: $(jq -c .host.cpus_allowed "$T/chat/A/run-1.json")"
zcb_ok "chat-regression: chatbench pinned, said and recorded"

# p9-sweep: p9bench on A, the diod it starts on B
if command -v diod >/dev/null; then
	"$S/p9-sweep" --ops 20 --sizes 4096 --repeat 1 --no-cpu --pin "$a,$b" \
		--out "$T/p9" >"$T/p9.out" 2>&1 || zcb_fail "p9-sweep --pin: $(tail -5 "$T/p9.out")"
	grep -q "^# pinned: diod on CPU $b$" "$T/p9.out" ||
		zcb_fail "p9-sweep: no line of diod's CPU: $(head -5 "$T/p9.out")"
	grep -q "^# pinned: p9bench on CPU $a$" "$T/p9.out" ||
		zcb_fail "p9-sweep: no line of p9bench's CPU: $(head -5 "$T/p9.out")"
	d=$(ls "$T"/p9/p9bench/*.json)
	[ "$(jq -r '.host.cpus_allowed' "$d")" = "$a" ] || zcb_fail "p9-sweep: p9bench's cpus_allowed"
	[ "$(jq -r '.config.server_cpus_allowed' "$d")" = "$b" ] ||
		zcb_fail "p9-sweep: diod's cpus_allowed: $(jq -c .config "$d")"
	zcb_ok "p9-sweep: p9bench and diod pinned, said and recorded"
else
	echo "(p9-sweep's part skipped: no diod)"
fi
