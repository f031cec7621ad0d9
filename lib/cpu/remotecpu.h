/*
 * remotecpu.h: the client of `cyclesoak --serve`, so a benchmark can
 * measure the CPU of a host whose server is not ours (an NFS or 9P
 * server). A line protocol over TCP; see man/cyclesoak.1 and
 * cyclesoak/serve.c for the server side.
 */
#ifndef ZCB_REMOTECPU_H
#define ZCB_REMOTECPU_H

#include <jansson.h>
#include <stddef.h>

#include "meter.h"

#define REMOTECPU_PORT 5555	/* cyclesoak --serve default port */

struct remotecpu;

/* Connect to "host[:port]" with a timeout. NULL with err filled. */
struct remotecpu *remotecpu_open(const char *hostport, int timeout_ms,
				 char *err, size_t len);
/* Open a window on the server (its own meters: soak if calibrated, else
 * procstat; meters NULL = the server's default). 0 or -errno. */
int remotecpu_start(struct remotecpu *r, const char *meters, char *err,
		    size_t len);
/* Does a window with these meters (NULL = the server's default) measure
 * with soak, so the runs must be paired (lib/cpu/meter.h)? */
int remotecpu_paired(const struct remotecpu *r, const char *meters);
/* Paired runs: before a run, park (metered 0) or wake (1) the server
 * box's soakers. 0 or -errno with err (an older server answers ERR). */
int remotecpu_soak(struct remotecpu *r, int metered, char *err, size_t len);
/* Close the window: fills out[0..max), returns n or -errno. */
int remotecpu_stop(struct remotecpu *r, struct cpu_sample *out, int max,
		   char *err, size_t len);
/* The open window so far (the window stays open): like stop. */
int remotecpu_report(struct remotecpu *r, struct cpu_sample *out, int max,
		     char *err, size_t len);
/* The server's stored calibration (new reference), or NULL with err. */
json_t *remotecpu_calib(struct remotecpu *r, char *err, size_t len);
/* The server's host facts (new reference), or NULL. */
json_t *remotecpu_host(struct remotecpu *r);
void remotecpu_close(struct remotecpu *r);

#endif
