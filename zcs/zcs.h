/*
 * zcs.h: what every part of the zcs server shares: the settings, a
 * connection's slot and how it ended, and what zcs says about itself
 * (about.c). The parts: main.c (options), conn.c (one connection,
 * conn.h), server.c (what both modes share, server.h), epoll.c and
 * fork.c (the two modes).
 */
#ifndef ZCB_ZCS_H
#define ZCB_ZCS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "meter.h"
#include "xfer.h"
#include "zcwire.h"

struct cfg {
	struct cli_common com;	  /* -c, --cpu, -J, --output, --label,
				   * -i, -o: SO_RCVBUF/SNDBUF (lib/core/cli) */
	const char *bind;	  /* --bind: address ("*" = any) */
	int port;		  /* -p: 2222, 0 = pick one */
	const char *port_file;	  /* --port-file: bound port to it */
	const struct xfer_ops *ops; /* --method: receive method of lib/xfer */
	size_t unit;		  /* -b: bytes per receive call */
	int cpu;		  /* -B: CPU to run on, -1 = any */
	double interval;	  /* -I: seconds between rate lines */
	int fork_mode;		  /* --fork: a process per connection */
	int max_conns;		  /* --max-conns: connections at once */
	struct zcw_limits lim;	  /* --max-loops/-files/-file-len */
	double idle_timeout;	  /* --idle-timeout: seconds */
	double header_timeout;	  /* --header-timeout: first file header
				   * due this long after accept, 0 = none */
	double min_rate;	  /* --min-rate: bytes/s over each
				   * --idle-timeout period, 0 = none */
	long exit_after;	  /* --exit-after: stop after N connections */
	int max_per_client_lines; /* rate lines per period (-v: all) */
};

enum conn_result {
	CR_ACTIVE,	/* still streaming */
	CR_OK,		/* the whole stream arrived */
	CR_REFUSED,	/* a header beyond the limits */
	CR_SHORT,	/* the client closed before the end */
	CR_TIMEOUT,	/* idle longer than --idle-timeout */
	CR_ERROR,	/* a socket or method error */
	CR_INTERRUPTED, /* zcs was stopped */
};

/* One connection's figures. In --fork mode the slots live in memory
 * shared with the children, which update their own. */
struct slot {
	int used;	       /* 1: a connection owns it */
	pid_t pid;	       /* --fork: the child serving it */
	char peer[64];	       /* "1.2.3.4:5678" */
	double t_start, t_end; /* accept, end (monotonic seconds) */
	uint64_t payload;      /* file bytes received */
	uint64_t header;       /* protocol bytes received (hello included) */
	uint64_t files;	       /* whole files received */
	uint32_t loops;	       /* loop count announced */
	uint64_t printed;      /* payload + header at the last rate line */
	int result;	       /* enum conn_result */
	int hello;	       /* 1: the client was ours and said hello */
	int cpu_sent;	       /* 1: a CPU report went to the client */
	int paired;	       /* 1: one run of a metered/unmetered pair */
	int metered;	       /* paired: the soakers ran (else parked) */
	uint32_t pair;	       /* paired: which pair, from the hello */
	char err[256];	       /* why it ended badly */
};

/* about.c: what zcs says about itself in its answer to a hello and in
 * its document; the name of a connection's result ("ok", "short" ...). */
json_t *zcs_about(const struct cfg *cfg);
const char *zcs_result_name(int r);

#endif
