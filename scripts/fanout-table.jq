# fanout-table.jq: the table of a merged document (scripts/fanout): per
# host its clients and the sum of metric $m over its clients (each
# client's summary: hmean for rates, else mean), then the total.
def val: (.hmean // .mean // 0);
def fmt: (. * 100 | round / 100 | tostring);
.fanout as $f
| (.cases | group_by(.params.host)
   | map({host: .[0].params.host, v: (map(.summary[$m] | select(. != null) | val) | add // 0)})) as $rows
| "\(.tool) on \($f.hosts | length) hosts, \([$f.hosts[].clients] | add) clients; start spread \($f.start_spread_ms // "?") ms",
  "",
  "  host                      clients  \($m) (sum)",
  ($rows[] as $r | ($f.hosts[] | select(.host == $r.host) | .clients) as $c
   | "  \($r.host | .[0:24] | . + " " * (24 - length))  \($c | tostring | " " * (7 - length) + .)  \($r.v | fmt)"),
  "  \("total" + " " * 19)  \([$f.hosts[].clients] | add | tostring | " " * (7 - length) + .)  \([$rows[].v] | add | fmt)"
