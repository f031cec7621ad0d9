#!/usr/bin/env bash
# run.sh NAME: run fuzz target NAME over its corpus for ZCB_FUZZ_SECONDS.
# Used as each fuzz test's wrapper in make check (see tests/Makefile.inc).
set -eu
name=$1
bin="$ZCB_BUILDDIR/tests/fuzz/fuzz_$name"
corpus="$ZCB_SRCDIR/tests/fuzz/corpus/$name"
[ -x "$bin" ] || { echo "no fuzz binary $bin"; exit 1; }
if "$bin" -help=1 >/dev/null 2>&1 && nm "$bin" 2>/dev/null | grep -q LLVMFuzzerRunDriver; then
	exec "$bin" -max_total_time="${ZCB_FUZZ_SECONDS:-2}" "$corpus"
fi
exec "$bin" "$corpus"
