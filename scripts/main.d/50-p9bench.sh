#!/usr/bin/env bash
# 50-p9bench: seed 000's 9P2000.L IO-size sweep, short form: diod on
# loopback, IO sizes 1..4096 as in the seed, write then read, copy path
# (No ZC) and direct path (ZC) interleaved, 3 repeats of 3000 operations
# per size (the seed did 1M: scripts/p9-sweep without --ops), with CPU of
# this box and of the diod process. Well under 2 minutes.
set -uo pipefail
: "${ZCB_OUT:?}"
# shellcheck source=scripts/zcb-paths.sh
source "${ZCB_LIBEXEC:-$(dirname "$0")/..}/zcb-paths.sh" || exit 1
if ! command -v diod >/dev/null; then
	echo "50-p9bench: skipped: diod is not installed (scripts/setup-deps)"
	exit 0
fi
zcb_pin_plan || exit 1
zcb_pin_say 50-p9bench p9bench diod
pin=()
[ -n "$ZCB_PIN_A" ] && pin=(--pin "$ZCB_PIN_A,$ZCB_PIN_B")
exec "$zcb_libexec/p9-sweep" --build "${ZCB_BUILDDIR:-}" --out "$ZCB_OUT" \
	--label "${ZCB_LABEL:-$(uname -r)}" --ops 3000 --repeat 3 "${pin[@]}"
