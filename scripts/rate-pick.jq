# rate-pick.jq: the one rate of the main job's copy-against-zero-copy
# table at a fixed rate (scripts/main.d/20-ttcp-sf.sh): half the slowest
# send method's saturated rate, rounded down to 1, 2 or 5 times a power
# of ten, as ttcp-sf's --rate takes it ("2000M": Mbit/s). Input: the
# saturated run's ttcp-sf documents, slurped (jq -rs -f rate-pick.jq
# FILES); a method's rate is the median of its runs' MB/s (with soak the
# unmetered runs': the metered ones carry metered_throughput_MBps).
# Nothing when no method has a rate.
[.[] | select(.status == "ok" and .tool == "ttcp-sf") | .cases[]?
	| select((.params.rate // null) == null and .params.role == "transmit")
	| .params.method as $m
	| .samples[]?.metrics.throughput_MBps? | numbers | select(. > 0)
	| {m: $m, v: .}]
| group_by(.m) | map(map(.v) | sort | .[(length - 1) / 2 | floor])
| if length == 0 then empty else min end
| . * 8 / 2
| pow(10; log10 | floor) as $p
| (if . >= 5 * $p then 5 elif . >= 2 * $p then 2 else 1 end) * $p
| "\(.)M"
