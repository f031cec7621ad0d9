#!/bin/sh
# make check: fuzz_p9 over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 270 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" p9 270
