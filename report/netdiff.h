/* netdiff.h: a host's interface and CPU power facts as field/value pairs
 * for compare's host diff (hostdiff.c). */
#ifndef ZCB_NETDIFF_H
#define ZCB_NETDIFF_H

#include <jansson.h>

typedef void (*netdiff_add_fn)(json_t *out, const char *field,
			       const char *value);

/* Call add(out, field, value) for each interface fact ("iface gro",
 * "iface mtu", ...) and CPU power fact of host that the document holds
 * (a document without them adds nothing); side ("" or "peer ") goes
 * before each field. */
void netdiff_facts(json_t *host, const char *side, json_t *out,
		   netdiff_add_fn add);

#define NETDIFF_MAX_CPUS 1024 /* CPUs counted in the softirq line */

struct res_sel;
/* One line per side (when its documents have them): the CPU with the most
 * NET_RX + NET_TX + TIMER softirqs during the runs, for this host and
 * the peer, e.g. "host cpu1 7000/70/10   peer cpu0 2392/0/6". */
void netdiff_print_softirqs(const struct res_sel *base, const struct res_sel *new);

#endif
