# shellcheck shell=bash
# rsh.sh: run one side of a two-host experiment on the other host, and
# stop it again; sourced by zc-vs-copy and zc-files.
#
# The other host is reached through a command prefix: ZCB_RSH ("ssh
# HOST" by default, or "ip netns exec NS" as netns-hosts sets), or none
# for this host. A prefix whose first word is ssh gets one command line,
# each word single-quoted for the remote shell (ssh joins its arguments
# and hands them to a shell there), so a label or a path never runs as
# shell code on the other host; any other prefix gets the words as argv.
#
# Every command started by rsh_start prints "zcb-remote-pid PID" on its
# stderr first (a sh that then execs the command), so rsh_stop can signal
# it on its own host: killing a local ssh leaves the remote command
# running. rsh_stop signals that PID only while its command line still
# holds the command's name.
#
# An ssh prefix gets -o BatchMode=yes (never a password prompt),
# ConnectTimeout=10 and ServerAliveInterval=5 (ServerAliveCountMax=3: a
# far host that dies mid-run ends the local ssh within ~15 s), each only
# when ZCB_RSH does not set it already.
#
#   rsh_split VAR STRING [HOST]
#                              the prefix STRING as the array VAR; with
#                              HOST, the host as its last word, after
#                              "--" for an ssh (which stops its option
#                              parsing there: a host never becomes an
#                              option). A HOST that begins with '-' is
#                              refused (one line, 1)
#   rsh_host_ok HOST           whether HOST may be a host: not empty and
#                              not beginning with '-' (ssh -Fcfg would take
#                              it for an option); else 1
#   rsh_check VAR HOST NAME RPATH LPATH
#                              before a run: RPATH --version on the other
#                              host must say what LPATH --version says
#                              here ("NAME zcbench VERSION"); else one
#                              line naming HOST on stderr (ssh failed: why;
#                              no NAME at RPATH; another version) and 1.
#                              Its answer goes through a directory
#                              zcb-rsh.XXXXXX under TMPDIR, removed at its
#                              end; a caller that may exit in the middle
#                              (a signal) calls rsh_check_abort from its
#                              EXIT trap
#   rsh_check_abort            stop the check under way, if any: its
#                              remote command, and its directory removed
#   rsh_start VAR LOG ERR CMD...  CMD in the background via the prefix in
#                              array VAR, stdout to LOG, stderr to ERR
#                              (the same file is fine); sets RSH_PID
#   rsh_stop VAR ERR PID NAME [always]
#                              stop the command started so (ERR holds its
#                              PID there; NAME is its program), then PID
#                              (the local end), waiting up to 5 s (and
#                              first up to 10 s for a PID not said yet,
#                              while the local end runs). The
#                              other host is asked only while the local
#                              end runs, or always (on exit or a signal:
#                              the local end may have died first)

rsh_host_ok() { [ -n "$1" ] && [ "${1#-}" = "$1" ]; }

rsh_split() { # rsh_split VAR STRING [HOST]
	local -n _rsh_arr=$1
	local o extra=() _rsh_h=()
	if [ $# -ge 3 ]; then
		rsh_host_ok "$3" || {
			echo "${0##*/}: host $(printf '%q' "$3"): a host name never begins with '-' (the remote shell would take it for an option)" >&2
			return 1
		}
		_rsh_h=("$3")
	fi
	read -r -a "$1" <<<"$2"
	if ! rsh_is_ssh "${_rsh_arr[@]}"; then
		_rsh_arr+=("${_rsh_h[@]}")
		return 0
	fi
	for o in BatchMode=yes ConnectTimeout=10 ServerAliveInterval=5 ServerAliveCountMax=3; do
		[[ "$2" == *"${o%%=*}"* ]] || extra+=(-o "$o")
	done
	[ ${#_rsh_h[@]} = 0 ] || _rsh_h=(-- "${_rsh_h[@]}")
	_rsh_arr=("${_rsh_arr[0]}" "${extra[@]}" "${_rsh_arr[@]:1}" "${_rsh_h[@]}")
}

RSH_TMP="" RSH_CHECK_PID="" # the check under way: its directory, command

rsh_check_abort() { # rsh_check_abort: from an EXIT trap
	if [ -n "$RSH_CHECK_PID" ]; then
		kill -TERM "$RSH_CHECK_PID" 2>/dev/null
		wait "$RSH_CHECK_PID" 2>/dev/null
	fi
	[ -z "$RSH_TMP" ] || rm -rf "$RSH_TMP"
	RSH_TMP="" RSH_CHECK_PID=""
}

rsh_check() { # rsh_check VAR HOST NAME RPATH LPATH
	local -n _rsh_c=$1
	local host=$2 name=$3 rpath=$4 lpath=$5 want got rc="" st out pid
	if [ ${#_rsh_c[@]} -gt 0 ] && ! command -v "${_rsh_c[0]}" >/dev/null; then
		echo "${0##*/}: $host: the remote shell ${_rsh_c[0]} (ZCB_RSH) is not a command here" >&2
		return 1
	fi
	want=$("$lpath" --version 2>/dev/null) || want="(none)"
	out=$(mktemp -d "${TMPDIR:-/tmp}/zcb-rsh.XXXXXX") || return 1
	RSH_TMP=$out
	rsh_exec "$1" "$rpath" --version </dev/null >"$out/o" 2>"$out/e" &
	pid=$!
	RSH_CHECK_PID=$pid
	for _ in $(seq 1 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null && rc=124
	wait "$pid"
	st=$?
	RSH_CHECK_PID=""
	[ "$rc" = 124 ] || rc=$st
	got=$(head -1 "$out/o")
	if [ $rc = 255 ] && rsh_is_ssh "${_rsh_c[@]}"; then
		echo "${0##*/}: $host: ssh failed: $(grep -v '^Warning: Permanently' "$out/e" | tail -1 | tr -d '\r')" >&2
	elif [ $rc = 124 ]; then
		echo "${0##*/}: $host: no answer within 60 s from ${_rsh_c[*]}" >&2
	elif [ $rc = 126 ] || [ $rc = 127 ]; then
		echo "${0##*/}: $host: no $name at $rpath there (install or build the same zcbench there, or name its path)" >&2
	elif ! [[ "$got" =~ ^[a-z0-9-]+\ zcbench\ [^\ ]+$ ]]; then
		echo "${0##*/}: $host: $rpath is not a zcbench $name with --version (it said: $(printf '%q' "${got:-$(tail -1 "$out/e")}"); here: ${want#* })" >&2
		rc=1
	elif [ "${got#* }" != "${want#* }" ]; then
		echo "${0##*/}: $host: $rpath is ${got#* }, here $lpath is ${want#* }: run the same build on both hosts" >&2
		rc=1
	fi
	rm -rf "$out"
	RSH_TMP=""
	[ $rc = 0 ]
}

rsh_quote() { # rsh_quote WORD...: one line, each word single-quoted
	local w out=""
	for w in "$@"; do
		out+="'${w//\'/\'\\\'\'}' "
	done
	printf '%s' "${out% }"
}

rsh_is_ssh() { [ $# -gt 0 ] && [ "${1##*/}" = ssh ]; }

rsh_run() { # rsh_run VAR CMD...: CMD via the prefix, in the foreground
	local -n _rsh_pre=$1
	shift
	if rsh_is_ssh "${_rsh_pre[@]}"; then
		"${_rsh_pre[@]}" "$(rsh_quote "$@")"
	else
		"${_rsh_pre[@]}" "$@"
	fi
}

# rsh_exec VAR CMD...: as rsh_run, the shell replaced by the remote shell
# (or by CMD): `rsh_exec ... &` makes $! the remote shell itself, so a
# signal to $! stops it, not only a subshell that would leave it running
rsh_exec() {
	local -n _rsh_px=$1
	shift
	if rsh_is_ssh "${_rsh_px[@]}"; then
		exec "${_rsh_px[@]}" "$(rsh_quote "$@")"
	fi
	exec "${_rsh_px[@]}" "$@"
}

rsh_start() { # rsh_start VAR LOG ERR CMD...: sets RSH_PID
	local var=$1 log=$2 err=$3
	shift 3
	local wrap=(sh -c 'echo "zcb-remote-pid $$" >&2; exec "$@"' zcb-remote "$@")
	if [ "$log" = "$err" ]; then
		rsh_exec "$var" "${wrap[@]}" </dev/null >"$log" 2>&1 &
	else
		rsh_exec "$var" "${wrap[@]}" </dev/null >"$log" 2>>"$err" &
	fi
	# shellcheck disable=SC2034 # read by the caller
	RSH_PID=$!
}

rsh_stop() { # rsh_stop VAR ERR PID NAME [always]
	local var=$1 err=$2 pid=$3 name=$4 always=${5:-} rpid=""
	# a command whose local end runs but that has not said its PID yet
	# (the login is under way): wait for it, 10 s at most, else it would
	# start after this and run on there
	for _ in $(seq 1 100); do
		rpid=$(sed -n 's/^zcb-remote-pid \([0-9][0-9]*\)$/\1/p' "$err" 2>/dev/null | head -1)
		{ [ -z "$rpid" ] && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; } || break
		sleep 0.1
	done
	if [ -n "$rpid" ] && { [ -n "$always" ] || kill -0 "$pid" 2>/dev/null; }; then
		# shellcheck disable=SC2016 # expanded by the sh on the other host
		rsh_run "$var" sh -c 'c=$(tr "\000" " " <"/proc/$1/cmdline" 2>/dev/null) || exit 0
			case "$c" in *"$2"*) kill -TERM "$1" ;; esac' zcb-stop "$rpid" "$name" \
			</dev/null >/dev/null 2>&1
	fi
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}
