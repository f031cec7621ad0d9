# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
# zcb-paths.sh: where a zcbench script finds the tools, the other scripts
# and its data, whether it runs from a source tree or installed. Sourced
# by every script that needs one of them (it sets variables and defines
# one function; it runs nothing).
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
