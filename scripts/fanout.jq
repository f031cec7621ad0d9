# fanout.jq: merge the clients' result documents into one (scripts/fanout).
# Inputs: the documents, in the order of $man's lines ("HOST\tK\tCLIENTS\tWOKE_NS").
# The first document gives the frame; every case gets "host" and "client"
# in its params; status is "failed" when any client's was; "fanout" holds
# the hosts, the start instant, each client's wake-up and their spread,
# and "host_facts" each host's own "host" section.
[inputs] as $docs
| ($man | split("\n") | map(select(length > 0) | split("\t"))) as $m
| [range(0; $docs | length) | {
	host: $m[.][0], client: ($m[.][1] | tonumber),
	clients: ($m[.][2] | tonumber), woke_ns: ($m[.][3] | tonumber)}] as $cl
| ([$cl[].woke_ns | select(. > 0)]) as $w
| $docs[0] + {
	cases: [range(0; $docs | length) as $i | $docs[$i].cases[]
		| .params += {host: $cl[$i].host, client: $cl[$i].client}],
	warnings: ([$docs[].warnings[]] + [$cl[] | select(.woke_ns > $start + 100000000)
		| "fanout: \(.host) client \(.client) woke \((.woke_ns - $start) / 1e6) ms after the start instant (--start-delay too short?)"]
		| unique),
	status: (if all($docs[]; .status == "ok") then "ok" else "failed" end),
	error: ([$docs[] | .error | select(. != null)] | first // null),
	fanout: {
		start_ns: $start,
		clients: [$cl[] | {host, client, clients, woke_ms: (if .woke_ns > 0 then (.woke_ns - $start) / 1e6 else null end)}],
		hosts: ($cl | group_by(.host) | map({host: .[0].host, processes: length, clients: (map(.clients) | add)})),
		start_spread_ms: (if ($w | length) > 0 then (($w | max) - ($w | min)) / 1e6 else null end),
		host_facts: (reduce range(0; $docs | length) as $i ({}; .[$cl[$i].host] //= $docs[$i].host))
	}
}
