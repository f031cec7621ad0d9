#!/usr/bin/env bash
# ttcp-methods.sh: every usable send method with every usable receive
# method over loopback moves exactly the bytes asked; where the receiver
# sees the bytes (read, zerocopy-receive) the pattern is checked, and for
# trunc/splice the count. Zero-copy sends are all accounted for (here
# every completion comes back "copied": that must be counted, and warned).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
L=32768
N=97 # 3 MiB + a bit: the 32 MiB source does not wrap, -l is not a power of 2 multiple of it
usable() { # usable NAME DIR: the --method=help line says ok
	"$TTCP" --method=help | awk -v d="$2" -v m="$1" '
		/^send/ {s = "send"} /^receive/ {s = "recv"}
		s == d && $1 == m {print $2}' | grep -qx ok
}
pairs=0
for sm in write send sendfile splice mmap msg-zerocopy uring uring-zc; do
	usable "$sm" send || { echo "skip $sm: $("$TTCP" --method=help | grep -A1 "^  $sm " | tail -1)"; continue; }
	for rm in read trunc splice zerocopy-receive; do
		usable "$rm" recv || continue
		tt_recv "$T/r" -V -m "$rm" -o "$T/r.json" --report-timeout 10s
		"$TTCP" -t -p "$TT_PORT" -m "$sm" -l $L -n $N -o "$T/t.json" \
			127.0.0.1 >"$T/t.txt" 2>&1 || { cat "$T/t.txt" "$T/r.txt"; zcb_fail "$sm -> $rm: transmitter failed"; }
		tt_wait_recv
		[ "$TT_RRC" = 0 ] || { cat "$T/r.txt"; zcb_fail "$sm -> $rm: receiver exit $TT_RRC"; }
		want=$((L * N))
		[ "$(zcb_json "$T/t.json" .status)" = ok ] || zcb_fail "$sm -> $rm: status"
		[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].bytes')" = $want ] || zcb_fail "$sm -> $rm: bytes sent"
		[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].remote.bytes')" = $want ] || zcb_fail "$sm -> $rm: bytes received"
		[ "$(zcb_json "$T/t.json" '.cases[0].params.recv_method')" = "$rm" ] || zcb_fail "$sm -> $rm: recv_method"
		[ "$(zcb_json "$T/t.json" '.cases[0].params.method')" = "$sm" ] || zcb_fail "$sm -> $rm: method"
		[ "$(zcb_json "$T/r.json" '.cases[0].params.method')" = "$sm" ] || zcb_fail "$sm -> $rm: receiver's method"
		[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters.bytes')" = $want ] || zcb_fail "$sm -> $rm: receiver count"
		case "$rm" in
		read|zerocopy-receive)
			[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].remote.verified')" = true ] || zcb_fail "$sm -> $rm: not verified"
			[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters.bad_bytes')" = 0 ] || zcb_fail "$sm -> $rm: bad bytes" ;;
		esac
		if [ "$rm" = zerocopy-receive ]; then
			[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters | .rx_mapped + .rx_copied')" = $want ] ||
				zcb_fail "$sm -> $rm: mapped + copied != bytes"
		fi
		case "$sm" in
		msg-zerocopy|uring-zc)
			c=$(zcb_json "$T/t.json" '.cases[0].samples[0].counters')
			comp=$(jq -r .zc_completions <<<"$c")
			copied=$(jq -r .zc_copied <<<"$c")
			sends=$(jq -r .zc_sends <<<"$c")
			{ [ "$comp" -gt 0 ] && [ "$comp" = "$sends" ]; } || zcb_fail "$sm: $comp completions for $sends sends"
			# loopback copies every zero-copy send: all must be counted
			[ "$copied" = "$comp" ] || zcb_fail "$sm: $copied of $comp counted as copied"
			[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].metrics.zc_copied_pct')" = 100 ] || zcb_fail "$sm: zc_copied_pct"
			zcb_json "$T/t.json" '.warnings[]' | grep -q "^$sm: $copied of $comp sends copied by the kernel" ||
				zcb_fail "$sm: no copied warning"
			grep -q "sends copied by the kernel" "$T/t.txt" || zcb_fail "$sm: output does not warn" ;;
		esac
		pairs=$((pairs + 1))
	done
done
[ $pairs -gt 0 ] || zcb_skip "no usable method pair"
zcb_ok "$pairs method pairs moved $((L * N)) bytes each, verified"
