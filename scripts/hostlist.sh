# shellcheck shell=bash
# hostlist.sh: read a host list (--hosts FILE), sourced by fanout.
#
# One host a line, optionally followed by the count of client processes
# to start there: "HOST" or "HOST COUNT". A '#' starts a comment (to the
# end of the line). The rules, each an error with the line number:
#   - an empty line (a line holding only a comment is fine): an empty
#     line is more often two lists joined or a host left out than meant;
#   - a host listed twice (give one line with the count instead);
#   - a host that is not a name or an address ([A-Za-z0-9_.:%@-], at most
#     253 characters: it reaches a command line), or that begins with '-'
#     (ssh would take it for an option: -Fcfg names a config file);
#   - a count that is not a number from 1 to 1024, or more words;
#   - no host at all.
#
#   hostlist_read FILE DEFAULT_COUNT   sets HL_HOSTS and HL_COUNTS (arrays)
#                                      or prints one line and returns 1

HL_HOSTS=()
HL_COUNTS=()

hostlist_read() { # hostlist_read FILE DEFAULT_COUNT
	local file=$1 def=$2 line n=0 host count extra
	local -A seen=()
	HL_HOSTS=()
	HL_COUNTS=()
	[ -r "$file" ] || { echo "host list $file: cannot read it" >&2; return 1; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		if [ -z "$line" ]; then
			echo "host list $file: line $n is empty (a host a line; '#' for a comment)" >&2
			return 1
		fi
		line=${line%%#*}
		read -r host count extra <<<"$line"
		[ -n "$host" ] || continue
		if [ -n "$extra" ]; then
			echo "host list $file: line $n: \"HOST [COUNT]\", not $(printf '%q' "$line")" >&2
			return 1
		fi
		if ! [[ "$host" =~ ^[A-Za-z0-9_.:%@-]{1,253}$ ]]; then
			echo "host list $file: line $n: $(printf '%q' "$host") is not a host name or address" >&2
			return 1
		fi
		if [ "${host#-}" != "$host" ]; then
			echo "host list $file: line $n: host $(printf '%q' "$host") begins with '-': a host name never does (ssh would take it for an option)" >&2
			return 1
		fi
		count=${count:-$def}
		if ! [[ "$count" =~ ^[1-9][0-9]{0,3}$ ]] || [ "$count" -gt 1024 ]; then
			echo "host list $file: line $n: count $(printf '%q' "$count"): 1 to 1024" >&2
			return 1
		fi
		if [ -n "${seen[$host]:-}" ]; then
			echo "host list $file: $host on lines ${seen[$host]} and $n (one line, with a count)" >&2
			return 1
		fi
		seen[$host]=$n
		HL_HOSTS+=("$host")
		HL_COUNTS+=("$count")
	done <"$file"
	if [ ${#HL_HOSTS[@]} = 0 ]; then
		echo "host list $file: no host in it" >&2
		return 1
	fi
	return 0
}
