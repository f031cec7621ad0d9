/*
 * ival.c: ttcp-sf's use of lib/cpu/ival (ttcp.h): the reporter is opened
 * at the first sample with the invocation's words, and kept to the end.
 * One sample runs at a time in a process.
 */
#include "config.h"
#include "ival.h"
#include "log.h"
#include "ttcp.h"

#include <stdio.h>

struct ival *ttcp_iv;

void ttcp_ival_start(const struct cfg *c, const char *side, int idx, int trans)
{
	static char label[16];
	struct ival_opts o = {
		.interval = c->com.interval,
		.json_stream = c->com.json_stream,
		.cpu = c->com.cpu,
		.label = label,
		.unit = trans ? "transactions" : "bytes",
		.out = ttcp_out,
	};
	char err[256];

	if (c->com.interval <= 0)
		return;
	snprintf(label, sizeof(label), "ttcp-%s", side);
	if (!ttcp_iv && ival_open(&ttcp_iv, &o, err, sizeof(err)))
		die("%s", err);
	if (ival_start(ttcp_iv, idx, NULL, err, sizeof(err)))
		die("%s", err);
}

void ttcp_ival_unit(int trans)
{
	ival_unit(ttcp_iv, trans ? "transactions" : "bytes");
}

json_t *ttcp_ival_stop(uint64_t final)
{
	return ival_stop(ttcp_iv, final);
}

void ttcp_ival_end(const struct cfg *c, struct res_doc *d)
{
	if (c->com.json_stream)
		ival_stream_end(stdout, d);
}
