/*
 * about.c: what zcs says about itself (in its answer to a client's hello
 * and in its result document) and the names of how a connection ended:
 * what conn.c and server.c both need, so neither includes the other.
 */
#include "config.h"
#include "zcs.h"

json_t *zcs_about(const struct cfg *cfg)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:I}", "tool", "zcs",
			 "tool_version", PACKAGE_VERSION, "recv_method",
			 cfg->ops->name, "mode", cfg->fork_mode ? "fork" : "epoll",
			 "measures_cpu", cfg->com.cpu, "unit",
			 (json_int_t)cfg->unit);
}

const char *zcs_result_name(int r)
{
	static const char *const names[] = {
		[CR_ACTIVE] = "active",		  [CR_OK] = "ok",
		[CR_REFUSED] = "refused",	  [CR_SHORT] = "short",
		[CR_TIMEOUT] = "timeout",	  [CR_ERROR] = "error",
		[CR_INTERRUPTED] = "interrupted",
	};

	return r >= 0 && r <= CR_INTERRUPTED ? names[r] : "?";
}
