#!/bin/sh
# make check: fuzz_zcwire over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 240 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" zcwire 240
