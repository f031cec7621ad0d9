#!/usr/bin/env bash
# The shellcheck test: every shell script of the suite passes shellcheck
# at its default (strictest) severity: scripts/ (and main.d/), bench/,
# tests/ (integration, fuzz, data) and .ci/. A script is a *.sh file or
# an executable whose first line runs sh or bash. A finding that is meant
# is silenced at its line with `# shellcheck disable=SCxxxx # reason`.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
zcb_need_cmd shellcheck "apt-get install shellcheck, or scripts/setup-deps"
cd "$ZCB_SRCDIR" || zcb_fail "no source directory $ZCB_SRCDIR"

mapfile -t files < <(find scripts bench tests .ci -type f \
	\( -name '*.sh' -o -perm -u+x \) ! -name '*.c' ! -path '*/corpus/*' 2>/dev/null |
	while IFS= read -r f; do
		case "$f" in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" | grep -Eq '^#!.*(/|env )(ba)?sh( |$)' && echo "$f" ;;
		esac
	done | sort)
[ ${#files[@]} -ge 20 ] || zcb_fail "found only ${#files[@]} scripts: ${files[*]}"
for must in scripts/nightly scripts/peer-diod bench/zcs-load tests/integration/lib.sh; do
	printf '%s\n' "${files[@]}" | grep -qxF "$must" || zcb_fail "$must was not selected"
done
# all at once, so a sourced file is an input and is followed; niced:
# seconds of CPU that the timing-sensitive tests beside it should not lose.
# Nice 10, not 19: beside two nice-0 busy loops nice 19 (weight 15 of
# 1024) stretched its ~20 s of CPU to ~40 minutes of wall time, run by run
if ! nice -n 10 shellcheck "${files[@]}" >"$ZCB_TEST_TMP/sc.out" 2>&1; then
	cat "$ZCB_TEST_TMP/sc.out"
	zcb_fail "shellcheck: $(grep -c '^In ' "$ZCB_TEST_TMP/sc.out") findings in ${#files[@]} scripts ($(shellcheck --version | sed -n 's/^version: //p'))"
fi
zcb_ok "shellcheck: ${#files[@]} scripts clean"
