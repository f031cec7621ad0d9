/*
 * side.c: what each side of ttcp-sf is, below everything else it does:
 * its text stream (stdout, or stderr when stdout carries JSON), its end
 * on a signal (one line naming the phase, the document finished as
 * failed), who it is (host name and boot id, for same-box detection)
 * and its CPU window.
 */
#include "config.h"
#include "hostinfo.h"
#include "log.h"
#include "sig.h"
#include "ttcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *ttcp_out;
static struct res_doc *run_doc; /* out_doc's, for out_interrupted */

void side_doc(struct res_doc *d)
{
	run_doc = d;
}

void out_interrupted(const char *side, const char *phase, const char *detail)
{
	fprintf(ttcp_out, "ttcp-%s: interrupted by a signal (phase: %s)%s%s\n",
		side, phase, detail ? ": " : "", detail ? detail : "");
	fflush(ttcp_out);
	if (run_doc) {
		res_fail(run_doc, "stopped by signal %d (phase: %s)",
			 (int)sig_stop, phase);
		res_finish(run_doc);
	}
	exit(sig_exit_status());
}

void ctl_self(char *host, size_t hlen, char *boot, size_t blen)
{
	if (gethostname(host, hlen))
		snprintf(host, hlen, "?");
	host[hlen - 1] = '\0';
	if (host_read_file("", "/proc/sys/kernel/random/boot_id", boot,
			   blen) < 0)
		snprintf(boot, blen, "?");
}

void ttcp_cpu_open(const struct cfg *c, struct cpuwin *w)
{
	struct cpuwin_cfg wc = {
		.local = c->com.cpu,
		.local_list = c->com.cpu_list,
		.peer_side = "remote",
	};
	char err[512];

	if (cpuwin_open(w, &wc, err, sizeof(err)))
		die("%s", err);
}
