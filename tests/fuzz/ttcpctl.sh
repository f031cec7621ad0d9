#!/bin/sh
# make check: fuzz_ttcpctl over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 260 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" ttcpctl 260
