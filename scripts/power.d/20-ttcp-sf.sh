#!/usr/bin/env bash
# power.d/20-ttcp-sf: a short night's ttcp-sf (nightly-power): write and
# sendfile, $ZCB_POWER_REPEAT interleaved rounds of $ZCB_POWER_DURATION
# each with /proc/stat CPU, both ends on loopback (zc-vs-copy pins each
# end to a CPU of its own where the box has two, and says so). With
# ZCB_POWER_VETH set, on a veth pair between two namespaces instead:
# "unshaped", or a tc rate the pair is shaped to (a slower wire).
set -uo pipefail
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
tt=$(zcb_tool ttcp-sf) || { echo "power 20-ttcp-sf: no ttcp-sf (build first)" >&2; exit 1; }
args=(--methods "write,sendfile" --sizes 32768 --repeat "${ZCB_POWER_REPEAT:-5}"
	--duration "${ZCB_POWER_DURATION:-2s}" --source-size 64M --cpu procstat
	--out "$ZCB_OUT" --label "$ZCB_LABEL" --bin "$tt")
case "${ZCB_POWER_VETH:-}" in
"") ;;
unshaped) args+=(--netns); echo "power ttcp-sf: on a veth pair, unshaped" ;;
*) args+=(--netns --shape "$ZCB_POWER_VETH"); echo "power ttcp-sf: on a veth pair shaped to $ZCB_POWER_VETH" ;;
esac
exec "$zcb_libexec/zc-vs-copy" "${args[@]}"
