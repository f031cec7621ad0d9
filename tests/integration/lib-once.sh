#!/usr/bin/env bash
# lib-once.sh: tests/integration/lib.sh sourced twice in one test (a test
# that also sources a helper sourcing it, as nfsbench-lib.sh does) keeps
# the cleanups and the PIDs registered before the second source: a child
# test registers a cleanup and a sleeper, sources lib.sh again and exits;
# the cleanup ran, the sleeper is gone and its temp directory too. (Before,
# the second source started over: ival-tools.sh left its diod running.)
source "$ZCB_SRCDIR/tests/integration/lib.sh"
T=$ZCB_TEST_TMP
cat >"$T/child.sh" <<'CHILD'
source "$ZCB_SRCDIR/tests/integration/lib.sh"
echo "$ZCB_TEST_TMP" >"$1/tmpdir"
zcb_on_exit "touch $(printf '%q' "$1/cleaned")"
sleep 300 &
echo $! >"$1/sleeper"
zcb_track "$!"
source "$ZCB_SRCDIR/tests/integration/lib.sh"
[ "$ZCB_TEST_TMP" = "$(cat "$1/tmpdir")" ] || echo "a second temp directory" >"$1/bad"
exit 0
CHILD
bash "$T/child.sh" "$T" || zcb_fail "the child test failed"
[ ! -e "$T/bad" ] || zcb_fail "$(cat "$T/bad")"
[ -e "$T/cleaned" ] || zcb_fail "the cleanup registered before the second source did not run"
p=$(cat "$T/sleeper")
if kill -0 "$p" 2>/dev/null; then
	kill "$p"
	zcb_fail "the PID tracked before the second source outlived the test"
fi
[ ! -d "$(cat "$T/tmpdir")" ] || zcb_fail "the child's temp directory was left"
zcb_ok "lib.sh sourced twice: cleanups, PIDs and the temp directory kept"
exit 0
