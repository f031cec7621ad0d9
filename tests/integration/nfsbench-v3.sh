#!/usr/bin/env bash
# nfsbench-v3: libnfs NFSv3 against nfs-ganesha in a network namespace of
# this test's own, with rpcbind (scripts/peer-ganesha removes both). Every
# request size from 1 KiB to 1 MiB reads back byte for byte; writes of
# 4 KiB .. 1 MiB (wsize) match a locally written copy by sha256; several
# clients with their own connections; the server's rtmax is recorded.
source "$ZCB_SRCDIR/tests/integration/nfsbench-lib.sh"
nb_need_libnfs
zcb_need_cmd ip
nb_ganesha 3
ns=$("$PG" get "$GSTATE" NETNS)
{ [ -n "$ns" ] && ip netns list | grep -q "^$ns"; } || zcb_fail "no namespace $ns"

size=$((2 * 1048576 + 4097))
head -c "$size" /dev/urandom >"$GEXPORT/rand"

# 1. reads, every size, sync and async
nb -s 1k..1m --verify-file "$GEXPORT/rand" -o "$ZCB_TEST_TMP/r.json" -q \
	"$(nb_url rand)" || zcb_fail "v3 read sweep failed"
d=$ZCB_TEST_TMP/r.json
nb_doc_ok "$d"
jq -e --argjson n "$size" '(.cases | length) == 11 and
	all(.cases[]; .samples[0].bytes == $n and .samples[0].verified_bytes == $n
	and .params.vers == "3")' "$d" >/dev/null || zcb_fail "v3 reads not all verified"
jq -e '.cases[0].samples[0].server_readmax >= 1048576' "$d" >/dev/null ||
	zcb_fail "server rtmax not recorded: $(jq '.cases[0].samples[0].server_readmax' "$d")"
nb -s 8k,256k --qd 8 -n 3 --verify-file "$GEXPORT/rand" -o "$ZCB_TEST_TMP/ra.json" -q \
	"$(nb_url rand)" || zcb_fail "v3 async 3-client reads failed"
jq -e --argjson n "$size" 'all(.cases[]; .samples[0].verified_bytes == 3 * $n
	and .params.clients == 3)' "$ZCB_TEST_TMP/ra.json" >/dev/null ||
	zcb_fail "v3 async reads by 3 clients not verified"
zcb_ok "v3 reads of 1 KiB .. 1 MiB verified, sync and async, 3 clients"

# 2. writes at every wsize from 4 KiB to 1 MiB, then the checksum
"$NB" -w -b 1500000 -s 64k -q "$ZCB_TEST_TMP/ref" || zcb_fail "local write"
want=$(sha256sum <"$ZCB_TEST_TMP/ref.0" | cut -d' ' -f1)
for s in 4k 64k 1m; do
	nb -w -b 1500000 -s "$s" --qd 4 -q -o "$ZCB_TEST_TMP/w$s.json" "$(nb_url "w$s")" ||
		zcb_fail "v3 write at $s failed"
	nb_doc_ok "$ZCB_TEST_TMP/w$s.json"
	[ "$(sha256sum <"$GEXPORT/w$s.0" | cut -d' ' -f1)" = "$want" ] ||
		zcb_fail "written at $s: checksum differs from the local copy"
	# and read back through libnfs with the pattern check
	nb -s "$s" --verify -q "$(nb_url "w$s.0")" || zcb_fail "read back of w$s.0"
done
zcb_ok "v3 writes of 4 KiB .. 1 MiB match by sha256"

# 3. the namespace goes when the server is stopped
"$PG" stop "$GSTATE" || zcb_fail "stop failed"
ip netns list | grep -q "^$ns" && zcb_fail "namespace $ns left behind"
kill -0 "$GPID" 2>/dev/null && zcb_fail "ganesha $GPID still running"
zcb_ok "server stopped by PID, namespace removed"
