#!/usr/bin/env bash
# cyclesoak-serve-limits: a remote client cannot take the box hostage.
# An idle client is hung up on; one that stops reading keeps its replies
# queued while others are served, and 20 that flood the server with
# commands and read nothing do not delay another client's PING (and are
# hung up on when they take nothing for --idle-timeout); running out of
# descriptors does not
# spin the CPU; a window held past --max-window is closed; HOST shows the
# kernel command line and memory only with --host-details; the perf and
# profile meters are served only with --serve-allow.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/cyclesoak-lib.sh"
T=$ZCB_TEST_TMP

serve() { # OUT ARGS...: start a server, PORT and SP set
	local out=$1
	shift
	"$@" >"$out" 2>"$out.err" &
	SP=$!
	zcb_track $SP
	PORT=
	for _ in $(seq 1 100); do
		PORT=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$out")
		[ -n "$PORT" ] && return 0
		sleep 0.05
	done
	zcb_fail "server did not say its port: $(cat "$out.err")"
}
ask() { # FD CMD
	printf '%s\n' "$2" >&"$1"
	IFS= read -r -t 10 REPLY <&"$1" || zcb_fail "no reply to $2"
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

serve "$T/a.out" "$CS" --serve --port 0 --idle-timeout 3 --max-window 1 -v
exec {A}<>"/dev/tcp/127.0.0.1/$PORT"
ask $A HOST
echo "${REPLY#OK }" | jq -e 'has("hostname") and (has("cmdline") | not) and (has("mem_bytes") | not)' \
	>/dev/null || zcb_fail "HOST without --host-details: ${REPLY:0:300}"
zcb_ok "HOST hides the kernel command line and memory by default"

ask $A "START procstat"
[[ $REPLY =~ ^OK\ ([0-9]+)$ ]] || zcb_fail "START: $REPLY"
W=${BASH_REMATCH[1]}
sleep 2.5
ask $A STOP
[[ $REPLY =~ ^ERR\ window\ $W\ was\ closed\ after\ [0-9]+\ s\ \(--max-window\) ]] ||
	zcb_fail "window past --max-window: $REPLY"
grep -q "window $W open .* closed (--max-window)" "$T/a.out.err" || zcb_fail "no log of the closed window"
zcb_ok "a window held past --max-window is closed and the client told"

# idle: no window, silent past --idle-timeout: told and hung up on
IFS= read -r -t 8 REPLY <&$A || zcb_fail "idle client not told"
[[ $REPLY =~ ^ERR\ idle\ for ]] || zcb_fail "idle: $REPLY"
IFS= read -r -t 5 REPLY <&$A && zcb_fail "idle client still connected: $REPLY"
exec {A}>&-
zcb_ok "an idle client is hung up on"
kill "$SP"; wait "$SP" 2>/dev/null

serve "$T/b.out" "$CS" --serve --port 0 --host-details
exec {B}<>"/dev/tcp/127.0.0.1/$PORT"
ask $B HOST
echo "${REPLY#OK }" | jq -e 'has("cmdline") and has("mem_bytes")' >/dev/null ||
	zcb_fail "HOST with --host-details: ${REPLY:0:300}"
zcb_ok "--host-details shows them"

# perf counters and a box-wide kernel profile: refused unless the
# operator allows them (a local user got a root daemon's profile, which
# kernel.perf_event_paranoid refuses them directly)
for m in profile procstat,perf; do
	ask $B "START $m"
	[[ $REPLY =~ ^ERR\ meter\ (profile|perf)\ is\ not\ served:.*--serve-allow=(profile|perf)\)$ ]] ||
		zcb_fail "START $m without --serve-allow: $REPLY"
done
grep -q "START procstat,perf refused: meter perf is not served" "$T/b.out.err" ||
	zcb_fail "refused START not logged: $(cat "$T/b.out.err")"
ask $B "START procstat"
[[ $REPLY =~ ^OK\ [0-9]+$ ]] || zcb_fail "START procstat after the refusals: $REPLY"
ask $B STOP
zcb_ok "START profile and perf are refused without --serve-allow, naming it"
for a in --profile --cpu=procstat,perf; do
	rc=0
	timeout 10 "$CS" --serve --port 0 "$a" >"$T/allow.out" 2>&1 || rc=$?
	if [ $rc != 2 ] || ! grep -q -- "--serve-allow=" "$T/allow.out"; then
		zcb_fail "--serve $a without --serve-allow: exit $rc, $(cat "$T/allow.out")"
	fi
done
zcb_ok "a --serve default naming profile or perf needs --serve-allow"

# a client that sends and never reads: its replies queue, others go on
exec {S}<>"/dev/tcp/127.0.0.1/$PORT"
yes HOST | head -n 1500 >&$S
sleep 2
ask $B PING
[ "$REPLY" = "OK PONG" ] || zcb_fail "other client while one stalls: $REPLY"
n=0
while IFS= read -r -t 5 REPLY <&$S; do
	[[ $REPLY =~ ^OK\ \{ ]] || zcb_fail "stalled client's reply $n: ${REPLY:0:80}"
	n=$((n + 1))
	[ $n = 1500 ] && break
done
[ $n = 1500 ] || zcb_fail "the stalled client got $n of 1500 replies"
zcb_ok "a client that stops reading stalls nobody and loses nothing"
exec {S}>&- {B}>&-
kill "$SP"; wait "$SP" 2>/dev/null

# 20 clients with a 4 KiB receive buffer each send 80,000 HOST lines
# (70 MB of replies each) and read none. A PING from another client is
# answered at once all the while: the server runs one command of each
# client per turn, and the next only when the last reply has gone (it
# ran a whole read's worth, some 800 HOSTs, of each client in a row, and
# PING waited 1.1-12 s). The bound is about being stalled by the others,
# not about speed: a turn is 20 HOSTs (a few ms here).
FLOOD=$ZCB_BUILDDIR/tests/integration/soak-flood
serve "$T/f.out" "$CS" --serve --port 0
"$FLOOD" "$PORT" 20 80000 HOST >"$T/flood.out" 2>&1 &
FP=$!
zcb_track $FP
for _ in $(seq 1 300); do
	grep -q ready "$T/flood.out" && break
	kill -0 $FP 2>/dev/null || zcb_fail "soak-flood: $(cat "$T/flood.out")"
	sleep 0.1
done
grep -q ready "$T/flood.out" || zcb_fail "the flooding clients did not get their lines out in 30 s"
exec {G}<>"/dev/tcp/127.0.0.1/$PORT"
worst=0
end=$((SECONDS + 3))
while [ $SECONDS -lt $end ]; do
	t0=${EPOCHREALTIME/./}
	printf 'PING\n' >&$G
	IFS= read -r -t 60 REPLY <&$G || zcb_fail "PING not answered in 60 s beside 20 flooding clients"
	[ "$REPLY" = "OK PONG" ] || zcb_fail "PING beside the flood: $REPLY"
	dt=$((${EPOCHREALTIME/./} - t0))
	[ $dt -gt $worst ] && worst=$dt
	sleep 0.05
done
[ $worst -lt 1000000 ] || zcb_fail "PING beside 20 flooding clients took up to $((worst / 1000)) ms"
kill -0 $FP 2>/dev/null || zcb_fail "the flooding clients were hung up on: $(cat "$T/f.out.err")"
zcb_ok "20 clients flooding commands and reading nothing: PING answered in at most $((worst / 1000)) ms"
kill $FP; wait $FP 2>/dev/null
exec {G}>&-
kill "$SP"; wait "$SP" 2>/dev/null

# clients that take none of their replies for --idle-timeout are hung up
# on and logged; one that reads stays
serve "$T/g.out" "$CS" --serve --port 0 --idle-timeout 2
"$FLOOD" "$PORT" 3 80000 HOST >"$T/flood2.out" 2>&1 &
FP=$!
zcb_track $FP
exec {G}<>"/dev/tcp/127.0.0.1/$PORT"
for _ in $(seq 1 300); do
	[ "$(grep -c "replies not taken for [0-9]* s: hanging up" "$T/g.out.err")" = 3 ] && break
	printf 'PING\n' >&$G
	IFS= read -r -t 10 REPLY <&$G || zcb_fail "reading client lost beside the hung-up ones"
	sleep 0.1
done
[ "$(grep -c "replies not taken for [0-9]* s: hanging up" "$T/g.out.err")" = 3 ] ||
	zcb_fail "clients that read nothing not hung up on in 30 s: $(cat "$T/g.out.err")"
printf 'PING\n' >&$G
REPLY=
IFS= read -r -t 10 REPLY <&$G
[ "$REPLY" = "OK PONG" ] || zcb_fail "the reading client was hung up on too: ${REPLY:-no reply}"
zcb_ok "clients that take no replies for --idle-timeout are hung up on, logged"
kill $FP; wait $FP 2>/dev/null
exec {G}>&-
kill "$SP"; wait "$SP" 2>/dev/null

# --serve-allow=profile,perf: served (or unavailable here), not refused
serve "$T/p.out" "$CS" --serve --port 0 --serve-allow=profile,perf
exec {P}<>"/dev/tcp/127.0.0.1/$PORT"
for m in profile perf; do
	ask $P "START $m"
	if [[ $REPLY =~ ^OK\ [0-9]+$ ]]; then
		ask $P STOP
		echo "${REPLY#OK }" | jq -e --arg m "$m" 'any(.cpu[]; .meter == $m)' >/dev/null ||
			zcb_fail "--serve-allow: no $m in the report: ${REPLY:0:300}"
	elif [[ $REPLY =~ not\ served ]]; then
		zcb_fail "--serve-allow=profile,perf: START $m refused: $REPLY"
	fi
done
exec {P}>&-
kill "$SP"; wait "$SP" 2>/dev/null
zcb_ok "--serve-allow=profile,perf serves them"

# out of descriptors: accept fails with EMFILE; the server must not spin
serve "$T/c.out" prlimit --nofile=16 "$CS" --serve --port 0
fds=()
for _ in $(seq 1 24); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || break
	fds+=("$fd")
done
sleep 0.5
t0=$(ticks "$SP")
sleep 2
t1=$(ticks "$SP")
hz=$(getconf CLK_TCK)
# a spin burns ~2 s of CPU here; a backed-off server almost none
[ $((t1 - t0)) -lt $((hz / 2)) ] || zcb_fail "server burned $((t1 - t0)) ticks in 2 s at EMFILE"
grep -q "accept: Too many open files" "$T/c.out.err" || zcb_fail "EMFILE not reported"
for fd in "${fds[@]}"; do exec {fd}>&-; done
exec {D}<>"/dev/tcp/127.0.0.1/$PORT"
ask $D PING
[ "$REPLY" = "OK PONG" ] || zcb_fail "after EMFILE: $REPLY"
zcb_ok "EMFILE: no spin, serving again once descriptors free up"
