# shellcheck shell=bash
# chatbench-lib.sh: helpers of the chatbench integration tests (sourced
# after lib.sh; B is the chatbench binary).

# start_server LOG ARGS...: a chatbench server on a free port (retried on
# EADDRINUSE); sets port and spid
start_server() {
	local log=$1
	shift
	for _ in 1 2 3 4 5; do
		port=$(zcb_free_port) || zcb_fail "no free port"
		"$B" --server --bind 127.0.0.1 --port "$port" "$@" >"$log" 2>&1 &
		spid=$!
		zcb_track $spid
		zcb_wait_port 127.0.0.1 "$port" 10 && kill -0 $spid 2>/dev/null && return 0
		grep -q 'in use' "$log" || zcb_fail "server did not listen: $(cat "$log")"
	done
	zcb_fail "no free port after 5 tries"
}
