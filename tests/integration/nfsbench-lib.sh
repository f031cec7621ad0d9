# shellcheck shell=bash
# nfsbench-lib.sh: what the nfsbench integration tests share (sourced):
# the built tool and a real nfs-ganesha started by scripts/peer-ganesha,
# stopped by PID (and its namespace removed) when the test exits.
source "$ZCB_SRCDIR/tests/integration/lib.sh"

NB=$(zcb_bin nfsbench) || zcb_skip "nfsbench is not built"
PG="$ZCB_SRCDIR/scripts/peer-ganesha"
zcb_need_cmd jq

nb_need_libnfs() {
	"$NB" "nfs://127.0.0.1/x/y" --max-time 0.1 -t 1 -q 2>&1 |
		grep -q "need libnfs" && zcb_skip "nfsbench built without libnfs"
	return 0
}

# nb_ganesha VERS: start a server; sets GSTATE GPID GURL GQUERY GEXPORT
nb_ganesha() {
	zcb_need_root
	zcb_need_cmd ganesha.nfsd "apt-get install nfs-ganesha nfs-ganesha-vfs"
	[ "$1" = 3 ] && zcb_need_cmd rpcbind
	GSTATE="$ZCB_TEST_TMP/ganesha-v$1"
	mkdir -p "$GSTATE"
	zcb_on_exit "$(printf '%q stop %q' "$PG" "$GSTATE")"
	if ! "$PG" start --vers "$1" --state "$GSTATE" >"$ZCB_TEST_TMP/pg.out" 2>&1; then
		cat "$ZCB_TEST_TMP/pg.out" >&2
		grep -q "libfsalvfs\|Can not load FSAL\|FSAL VFS" "$GSTATE/ganesha.log" 2>/dev/null &&
			zcb_skip "ganesha has no VFS FSAL (apt-get install nfs-ganesha-vfs)"
		zcb_fail "nfs-ganesha v$1 did not start"
	fi
	GPID=$("$PG" get "$GSTATE" PID)
	GURL=$("$PG" get "$GSTATE" URL)
	GQUERY=$("$PG" get "$GSTATE" QUERY)
	# shellcheck disable=SC2034 # for the tests that source this
	GEXPORT=$("$PG" get "$GSTATE" EXPORT)
	kill -0 "$GPID" 2>/dev/null || zcb_fail "ganesha PID $GPID is not running"
}

nb_url() { echo "$GURL/$1?$GQUERY"; }  # nb_url FILE
nb() { "$PG" exec "$GSTATE" "$NB" "$@"; } # nfsbench where the server is

# nb_doc_ok DOC: status ok and valid-looking
nb_doc_ok() {
	[ "$(zcb_json "$1" .status)" = ok ] ||
		zcb_fail "$1: status $(zcb_json "$1" .status): $(zcb_json "$1" .error)"
	[ "$(zcb_json "$1" .tool)" = nfsbench ] || zcb_fail "$1: tool is not nfsbench"
}

# nb_doc_failed DOC PATTERN: status failed, the error matches PATTERN
nb_doc_failed() {
	[ -f "$1" ] || zcb_fail "$1: no result document"
	[ "$(zcb_json "$1" .status)" = failed ] || zcb_fail "$1: status is not failed"
	zcb_json "$1" .error | grep -qE -- "$2" ||
		zcb_fail "$1: error \"$(zcb_json "$1" .error)\" does not match /$2/"
}
