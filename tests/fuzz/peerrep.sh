#!/bin/sh
# make check: fuzz_peerrep over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 310 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" peerrep 310
