#!/bin/sh
# make check: fuzz_chatframe over its corpus for a few seconds; on libFuzzer the
# corpus must reach at least 700 coverage edges (tests/fuzz/README.md).
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" chatframe 700
