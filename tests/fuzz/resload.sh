#!/bin/sh
# make check: fuzz_resload over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 570 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" resload 570
