#!/usr/bin/env bash
# 60-nfsbench: seeds 001 and 002 in libnfs mode against a local
# nfs-ganesha (NFSv4 on loopback): request sizes 1 KiB .. 64 KiB with
# client and server CPU, then 1 .. 48 clients. Short form (< 2 min).
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
nb=$(zcb_tool nfsbench) || { echo "60-nfsbench: nfsbench is not built" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then
	echo "60-nfsbench: skipped: nfs-ganesha needs root (its VFS back end, clients on privileged ports)"
	exit 0
fi
if ! command -v ganesha.nfsd >/dev/null; then
	echo "60-nfsbench: skipped: nfs-ganesha is not installed (scripts/setup-deps)"
	exit 0
fi
if "$nb" "nfs://127.0.0.1/x/y" -q 2>&1 | grep -q "need libnfs"; then
	echo "60-nfsbench: skipped: nfsbench was built without libnfs"
	exit 0
fi
mkdir -p "$ZCB_OUT/nfsbench"
zcb_pin_plan || exit 1
zcb_pin_say 60-nfsbench "the nfsbench clients" ganesha
pin=()
[ -n "$ZCB_PIN_A" ] && pin=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
exec "$zcb_libexec/nfs-rsize" --short --vers 4 \
	--out "$ZCB_OUT/nfsbench" --label "${ZCB_LABEL:-$(uname -r)}" "${pin[@]}"
