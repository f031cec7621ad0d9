# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
# zcb-paths.sh: where a zcbench script finds the tools, the other scripts
# and its data, whether it runs from a source tree or installed, and the
# temporary results directory of a driver given no --out. Sourced by
# every script that needs one of them (it sets variables and defines
# functions; it runs nothing).
#
#   zcb_libexec   the scripts' directory: scripts/ in a source tree,
#                 $(pkglibexecdir) (/usr/libexec/zcbench) installed
#   zcb_top       the source tree; empty when installed
#   zcb_parts     the main job's parts: scripts/main.d, $(pkgdatadir)/main.d
#   zcb_seeds     the seeds' documents: results/seeds, $(pkgdatadir)/seeds
#   zcb_results   where runs go unless told: results/ of the source tree;
#                 installed, $ZCB_RESULTS, else /var/lib/zcbench when the
#                 caller may write there (root, the zcbench user), else
#                 ${XDG_DATA_HOME:-~/.local/share}/zcbench
#   zcb_tool NAME [BUILDDIR]
#                 prints the path of a tool (cyclesoak, ttcp-sf, zcs, zcc,
#                 chatbench, p9bench, nfsbench, zcbreport). With BUILDDIR
#                 (a --build option) only there. Else $ZCB_BUILDDIR if set,
#                 then the source tree's build/ or, installed, the
#                 directory the package put the tools in, then PATH.
#                 Returns 1 (saying nothing) when there is none.
#   zcb_tmp_out VAR PROG [SUBDIR]
#                 a driver's results directory when it was given no --out
#                 (VAR empty): a new one under TMPDIR (PROG.XXXXXX) into
#                 VAR, exported as ZCB_TMP_OUT, so that the same driver run
#                 again with --out DIR (--netns execs itself inside a pair
#                 of namespaces) knows DIR as temporary too; 1 when none
#                 could be made. SUBDIR: where in it the results go (the
#                 client's documents; a server's own are not results).
#                 What it made is cleaned up by:
#   zcb_tmp_exit PROG STATUS
#                 from the driver's EXIT trap: a temporary directory (as
#                 above) that the driver did not name (zcb_tmp_named) is
#                 removed when it holds no result document of a run that
#                 ended well (status "ok"; the document of the run a
#                 signal stopped alone is not kept), else kept and named
#                 on stderr ("PROG: stopped (exit STATUS): the results so
#                 far are kept in DIR"); nothing otherwise
#   zcb_tmp_named the driver has said where its results are
#   zcb_pin_plan  where a part's two sides run (issue 26: quieter
#                 samples): ZCB_PIN_A, the side that starts (transmitter,
#                 client), and ZCB_PIN_B, the side that waits (receiver,
#                 server): the first and the last CPU this process may
#                 run on, or ZCB_PIN="A,B" as given; ZCB_PIN_WHY says so
#                 in words. With one CPU, ZCB_PIN=off or no taskset both
#                 are empty (nothing is pinned) and ZCB_PIN_WHY says why.
#                 1 for a ZCB_PIN that is not two CPU numbers.
#   zcb_pin_say PART A B
#                 the part's line of it: "PART: pinned: A on CPU n, B on
#                 CPU m" (A, B: its sides' names), or ZCB_PIN_WHY
#   zcb_pinned CPUS CMD...
#                 CMD on CPUS (taskset -c), or as it is when CPUS is
#                 empty
#   zcb_pin_pid CPU PID
#                 every thread of running process PID on CPU (taskset
#                 -a races a server's threads: one that ends between
#                 its list and its call fails it); a thread that ended
#                 meanwhile is no failure, and a second pass takes the
#                 threads made meanwhile (a new thread inherits the
#                 mask of the one that made it). 1 when PID cannot be
#                 pinned
#
# `make install` writes the two relative paths below into the installed
# copy (from this file's directory to $(bindir) and to $(pkgdatadir));
# empty, as here, means a source tree. Relative, so an installed tree
# still works when moved (DESTDIR, dpkg --root, dpkg -x).
zcb_rel_bindir=
zcb_rel_datadir=

zcb_libexec=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -z "$zcb_rel_datadir" ]; then
	zcb_top=$(cd "$zcb_libexec/.." && pwd)
	zcb_bindir=""
	zcb_parts="$zcb_top/scripts/main.d"
	zcb_seeds="$zcb_top/results/seeds"
	zcb_results="$zcb_top/results"
else
	zcb_top=""
	zcb_bindir=$(cd "$zcb_libexec/$zcb_rel_bindir" 2>/dev/null && pwd)
	zcb_parts=$(cd "$zcb_libexec/$zcb_rel_datadir" 2>/dev/null && pwd)/main.d
	zcb_seeds="${zcb_parts%/main.d}/seeds"
	if [ -n "${ZCB_RESULTS:-}" ]; then
		zcb_results=$ZCB_RESULTS
	elif [ -d /var/lib/zcbench ] && [ -w /var/lib/zcbench ]; then
		zcb_results=/var/lib/zcbench
	else
		zcb_results="${XDG_DATA_HOME:-${HOME:-/nonexistent}/.local/share}/zcbench"
	fi
fi

zcb_secs() { # zcb_secs T: a time (S, Ns, Nm or Nh) in seconds, or nothing (status 1)
	local v=$1 mul=1
	case "$v" in
	*h) v=${v%h} mul=3600 ;;
	*m) v=${v%m} mul=60 ;;
	*s) v=${v%s} ;;
	esac
	[[ "$v" =~ ^[0-9]{1,7}$ ]] && echo $((10#$v * mul))
}
zcb_tool() { # zcb_tool NAME [BUILDDIR]
	local name=$1 dir=${2:-} sub=$1 c
	[ "$name" = zcbreport ] && sub=report
	local cands=()
	if [ -n "$dir" ]; then
		cands=("$dir/$sub/$name" "$dir/$name")
	else
		[ -n "${ZCB_BUILDDIR:-}" ] && cands+=("$ZCB_BUILDDIR/$sub/$name")
		[ -n "$zcb_top" ] && cands+=("$zcb_top/build/$sub/$name")
		[ -n "$zcb_bindir" ] && cands+=("$zcb_bindir/$name")
		c=$(command -v "$name" 2>/dev/null) && cands+=("$c")
	fi
	for c in "${cands[@]}"; do
		[ -f "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

zcb_tmp_made="" zcb_tmp_sub="" # this driver's temporary results, if any
zcb_tmp_out() { # zcb_tmp_out VAR PROG [SUBDIR]
	local -n _zcb_out=$1
	if [ -z "$_zcb_out" ]; then
		_zcb_out=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX") || return 1
		export ZCB_TMP_OUT=$_zcb_out
	fi
	[ "$_zcb_out" != "${ZCB_TMP_OUT:-}" ] || zcb_tmp_made=$_zcb_out
	zcb_tmp_sub=${3:-}
	return 0
}

zcb_tmp_named() { zcb_tmp_made=""; }

zcb_pin_plan() {
	local list lo hi zcb_ranges=() zcb_cpus=()
	ZCB_PIN_A="" ZCB_PIN_B=""
	case "${ZCB_PIN:-}" in
	off)
		ZCB_PIN_WHY="not pinned (ZCB_PIN=off)"
		return 0 ;;
	"") ;;
	*)
		[[ "$ZCB_PIN" =~ ^([0-9]+),([0-9]+)$ ]] || {
			echo "ZCB_PIN=$(printf '%q' "$ZCB_PIN"): two CPU numbers, A,B (or off)" >&2
			return 1
		}
		ZCB_PIN_A=${BASH_REMATCH[1]} ZCB_PIN_B=${BASH_REMATCH[2]}
		ZCB_PIN_WHY="the starting side on CPU $ZCB_PIN_A, the waiting side on CPU $ZCB_PIN_B (ZCB_PIN)"
		return 0 ;;
	esac
	if ! command -v taskset >/dev/null; then
		ZCB_PIN_WHY="not pinned: no taskset here (util-linux)"
		return 0
	fi
	list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)
	IFS=, read -r -a zcb_ranges <<<"$list"
	for lo in "${zcb_ranges[@]}"; do
		hi=${lo#*-} lo=${lo%-*}
		[[ "$lo$hi" =~ ^[0-9]+$ ]] || continue
		zcb_cpus+=("$lo")
		[ "$hi" != "$lo" ] && zcb_cpus+=("$hi")
	done
	if [ ${#zcb_cpus[@]} -lt 2 ]; then
		ZCB_PIN_WHY="one CPU here (${list:-?}): the sides are not pinned"
		return 0
	fi
	ZCB_PIN_A=${zcb_cpus[0]} ZCB_PIN_B=${zcb_cpus[${#zcb_cpus[@]} - 1]}
	ZCB_PIN_WHY="the starting side on CPU $ZCB_PIN_A, the waiting side on CPU $ZCB_PIN_B"
}

zcb_pin_say() { # zcb_pin_say PART A B
	if [ -n "$ZCB_PIN_A" ]; then
		echo "$1: pinned: $2 on CPU $ZCB_PIN_A, $3 on CPU $ZCB_PIN_B"
	else
		echo "$1: $ZCB_PIN_WHY"
	fi
}

zcb_pinned() { # zcb_pinned CPUS CMD...
	local zcb_on=$1
	shift
	if [ -n "$zcb_on" ]; then
		taskset -c "$zcb_on" "$@"
	else
		"$@"
	fi
}

zcb_pin_pid() { # zcb_pin_pid CPU PID
	local t
	for _ in 1 2; do
		taskset -c -p "$1" "$2" >/dev/null 2>&1 || return 1
		for t in /proc/"$2"/task/*; do
			t=${t##*/}
			taskset -c -p "$1" "$t" >/dev/null 2>&1 ||
				[ ! -d "/proc/$2/task/$t" ] || return 1
		done
	done
}

zcb_tmp_exit() { # zcb_tmp_exit PROG STATUS
	local d=$zcb_tmp_made
	zcb_tmp_made=""
	[ -n "$d" ] && [ -d "$d" ] || return 0
	# a run that ended well (status "ok", as res_write lays it out):
	# the record of the run a signal stopped alone is not worth keeping
	if find "$d/$zcb_tmp_sub" -name '*.json' -type f \
		-exec grep -qx '  "status": "ok",\{0,1\}' {} \; -print 2>/dev/null | grep -q .; then
		echo "$1: stopped (exit $2): the results so far are kept in $d" >&2
	else
		rm -rf "$d"
	fi
}
