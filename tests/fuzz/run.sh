#!/usr/bin/env bash
# run.sh NAME [MIN_COV]: run fuzz target NAME over its corpus
# (tests/fuzz/corpus/NAME) for ZCB_FUZZ_SECONDS (default 2): each fuzz
# test's wrapper in make check (tests/Makefile.inc).
#
# Built with tests/fuzz/driver.c (every gcc build): the corpus, then random
# mutations. Built on libFuzzer (configure --enable-libfuzzer, scripts/build
# --fuzz): libFuzzer with the corpus read-only (new inputs go to a scratch
# directory, crashes to the build's tests/fuzz/), and the test fails when
# replaying the corpus reaches fewer than MIN_COV coverage edges: a target
# that stopped reaching its decoder, or a library built without coverage.
set -eu
name=$1
min_cov=${2:-0}
bin="$ZCB_BUILDDIR/tests/fuzz/fuzz_$name"
corpus="$ZCB_SRCDIR/tests/fuzz/corpus/$name"
dict="$ZCB_SRCDIR/tests/fuzz/dict/$name.dict"
[ -x "$bin" ] || { echo "no fuzz binary $bin"; exit 1; }
if ! nm "$bin" 2>/dev/null | grep -q LLVMFuzzerRunDriver; then
	exec "$bin" "$corpus"
fi
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM HUP
opts=(-max_total_time="${ZCB_FUZZ_SECONDS:-2}" -timeout=30
	-artifact_prefix="$ZCB_BUILDDIR/tests/fuzz/$name-")
[ -f "$dict" ] && opts+=(-dict="$dict")
mkdir "$scratch/new"
rc=0
"$bin" "${opts[@]}" "$scratch/new" "$corpus" >"$scratch/log" 2>&1 || rc=$?
grep -E 'INITED|DONE|ERROR|SUMMARY|Test unit' "$scratch/log" || true
if [ "$rc" -ne 0 ]; then
	tail -40 "$scratch/log"
	exit 1
fi
cov=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$scratch/log" | head -1)
if [ -z "$cov" ]; then
	echo "no coverage figure from libFuzzer"
	exit 1
fi
if [ "$cov" -lt "$min_cov" ]; then
	echo "the corpus reaches $cov coverage edges, fewer than $min_cov:" \
		"the target no longer reaches its decoder, or the library" \
		"was built without -fsanitize=fuzzer-no-link"
	exit 1
fi
echo "corpus replay: $cov edges (at least $min_cov)"
