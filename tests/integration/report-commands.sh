#!/usr/bin/env bash
# report-commands.sh: zcbreport's subcommands are one table, so every
# place that names them names the same ones: the usage's list, the
# errors for no command and for an unknown one (each lists every
# command of the usage, in its order), and each command's own usage
# (-h: exit 0, "usage: zcbreport NAME") and its bad-option hint.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
Z=$(zcb_bin zcbreport) || zcb_fail "zcbreport not built"
d=$ZCB_TEST_TMP

"$Z" --help >"$d/usage" || zcb_fail "zcbreport --help exited $?"
mapfile -t cmds < <(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$d/usage")
[ "${#cmds[@]}" -ge 5 ] || zcb_fail "the usage lists ${#cmds[@]} commands: $(cat "$d/usage")"
list=$(printf '%s, ' "${cmds[@]}")
list=${list%, }
zcb_ok "the usage lists ${#cmds[@]} commands: $list"

expect_list() { # expect_list WHAT ARGS...: exit 2 naming every command
	local what=$1 rc=0
	shift
	"$Z" "$@" >"$d/out" 2>"$d/err" || rc=$?
	[ "$rc" = 2 ] || zcb_fail "$what: exit $rc, want 2"
	grep -qF "($list)" "$d/err" ||
		zcb_fail "$what: the error does not list ($list): $(cat "$d/err")"
	zcb_ok "$what: exit 2, every command listed"
}
expect_list "no command"
expect_list "unknown command" nosuch

for c in "${cmds[@]}"; do
	"$Z" "$c" -h >"$d/out" 2>"$d/err" || zcb_fail "$c -h exited $?"
	head -n 1 "$d/out" | grep -q "^usage: zcbreport $c " ||
		zcb_fail "$c -h: not its usage: $(head -n 1 "$d/out")"
	rc=0
	"$Z" "$c" --no-such-option >"$d/out" 2>"$d/err" || rc=$?
	{ [ "$rc" = 2 ] && grep -qF "see zcbreport $c --help" "$d/err"; } ||
		zcb_fail "$c --no-such-option: exit $rc: $(cat "$d/err")"
done
zcb_ok "each command's usage and bad-option hint name it"
