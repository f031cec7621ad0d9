#!/usr/bin/env bash
# 60-nfsbench: seeds 001 and 002 in libnfs mode against a local
# nfs-ganesha (NFSv4 on loopback): request sizes 1 KiB .. 64 KiB with
# client and server CPU, then 1 .. 48 clients. Short form (< 2 min).
set -uo pipefail
: "${ZCB_SRCDIR:?}" "${ZCB_BUILDDIR:?}" "${ZCB_OUT:?}"
nb="$ZCB_BUILDDIR/nfsbench/nfsbench"
[ -x "$nb" ] || { echo "60-nfsbench: $nb is not built" >&2; exit 1; }
if ! command -v ganesha.nfsd >/dev/null; then
	echo "60-nfsbench: skipped: nfs-ganesha is not installed (scripts/setup-deps)"
	exit 0
fi
if "$nb" "nfs://127.0.0.1/x/y" -q 2>&1 | grep -q "need libnfs"; then
	echo "60-nfsbench: skipped: nfsbench was built without libnfs"
	exit 0
fi
mkdir -p "$ZCB_OUT/nfsbench"
exec "$ZCB_SRCDIR/scripts/nfs-rsize" --short --vers 4 \
	--out "$ZCB_OUT/nfsbench" --label "${ZCB_LABEL:-$(uname -r)}"
