/*
 * xfer_cli.c: --method for a tool's option parser, resolved once to the
 * method's ops (mains only: like lib/core/cli, it exits on help or on a
 * name the table lacks).
 */
#include "config.h"
#include "log.h"
#include "xfer.h"

#include <stdlib.h>
#include <string.h>

const struct xfer_ops *xfer_cli_method(const char *opt, const char *name,
				       enum xfer_dir dir)
{
	const struct xfer_ops *ops;

	if (!strcmp(name, "help")) {
		xfer_print_table(stdout);
		exit(0);
	}
	ops = xfer_find(name, dir);
	if (!ops)
		die_usage("%s: \"%s\" is not a %s method (%s)", opt, name,
			  dir == XFER_SEND ? "send" : "receive",
			  xfer_names(dir));
	return ops;
}
