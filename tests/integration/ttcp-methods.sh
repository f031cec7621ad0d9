#!/usr/bin/env bash
# ttcp-methods.sh: every usable send method with every usable receive
# method over loopback moves exactly the bytes asked. The methods are the
# ones `ttcp-sf --method=help` lists (a new method is tested without a
# change here), and what each is comes from the documents: where the
# receiver saw the bytes (remote.verified) the pattern is checked, else
# the count; a method that reports zero-copy counters has them all
# accounted for (here every completion comes back "copied": that must be
# counted, and warned).
source "$ZCB_SRCDIR/tests/integration/lib.sh"
source "$ZCB_SRCDIR/tests/integration/ttcp-common.sh"
T=$ZCB_TEST_TMP
L=32768
N=97 # 3 MiB + a bit: the 32 MiB source does not wrap, -l is not a power of 2 multiple of it
"$TTCP" --method=help >"$T/methods" || zcb_fail "--method=help failed"
methods() { # methods send|recv ok|NO: the methods of --method=help
	awk -v d="$1" -v ok="$2" '
		/^send/ {s = "send"} /^receive/ {s = "recv"}
		s == d && /^  [^ ]/ && $2 == ok {print $1}' "$T/methods"
}
mapfile -t send_methods < <(methods send ok)
mapfile -t recv_methods < <(methods recv ok)
for sm in $(methods send NO); do
	echo "skip $sm: $(grep -A1 "^  $sm " "$T/methods" | tail -1)"
done
[ "$(methods send ok; methods send NO)" ] || zcb_fail "--method=help lists no send method"
[ "${recv_methods[0]:-}" = read ] || zcb_fail "read, the default receive method, is not usable"
pairs=0
verified=""
for sm in "${send_methods[@]}"; do
	for rm in "${recv_methods[@]}"; do
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
		# the receiver saw the bytes: the pattern was checked
		if [ "$(zcb_json "$T/t.json" '.cases[0].samples[0].remote.verified')" = true ]; then
			[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters.bad_bytes')" = 0 ] || zcb_fail "$sm -> $rm: bad bytes"
			verified="$verified $rm"
		fi
		if [ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters | has("rx_mapped")')" = true ]; then
			[ "$(zcb_json "$T/r.json" '.cases[0].samples[0].counters | .rx_mapped + .rx_copied')" = $want ] ||
				zcb_fail "$sm -> $rm: mapped + copied != bytes"
		fi
		c=$(zcb_json "$T/t.json" '.cases[0].samples[0].counters')
		if [ "$(jq -r 'has("zc_sends")' <<<"$c")" = true ]; then
			comp=$(jq -r .zc_completions <<<"$c")
			copied=$(jq -r .zc_copied <<<"$c")
			zsends=$(jq -r .zc_sends <<<"$c")
			{ [ "$comp" -gt 0 ] && [ "$comp" = "$zsends" ]; } || zcb_fail "$sm: $comp completions for $zsends sends"
			# loopback copies every zero-copy send: all must be counted
			[ "$copied" = "$comp" ] || zcb_fail "$sm: $copied of $comp counted as copied"
			[ "$(zcb_json "$T/t.json" '.cases[0].samples[0].metrics.zc_copied_pct')" = 100 ] || zcb_fail "$sm: zc_copied_pct"
			zcb_json "$T/t.json" '.warnings[]' | grep -q "^$sm: $copied of $comp sends copied by the kernel" ||
				zcb_fail "$sm: no copied warning"
			grep -q "sends copied by the kernel" "$T/t.txt" || zcb_fail "$sm: output does not warn"
		fi
		pairs=$((pairs + 1))
	done
done
[ $pairs -gt 0 ] || zcb_skip "no usable method pair"
case " $verified " in *" read "*) ;; *) zcb_fail "read never checked the pattern" ;; esac
zcb_ok "$pairs method pairs moved $((L * N)) bytes each, verified"
