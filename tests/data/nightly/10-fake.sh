# shellcheck shell=bash
# 10-fake: 5 samples of a ttcp-sf-like rate, seeded by night and round
# (a nightly part for the nightly-*.sh tests; FAKE_MEAN, FAKE_SD,
# FAKE_NIGHT and, optionally, FAKE_SLEEP come from the test)
source "$ZCB_SRCDIR/tests/data/report/mkdoc.sh"
r=$(basename "$ZCB_OUT")
r=${r#r}
mkdir -p "$ZCB_OUT/ttcp-sf"
mkdoc "$ZCB_OUT/ttcp-sf/fake.json" "$ZCB_LABEL" "$FAKE_MEAN" "$FAKE_SD" 5 "$((FAKE_NIGHT * 100 + r))"
[ -z "${FAKE_SLEEP:-}" ] || sleep "$FAKE_SLEEP"
