/*
 * conn.h: one zcs connection (conn.c): header words through the
 * lib/wire/zcwire decoder, file bytes through the receive method, the
 * answer to a hello and the CPU report. Both modes drive it.
 */
#ifndef ZCB_ZCS_CONN_H
#define ZCB_ZCS_CONN_H

#include "zcs.h"

struct conn;

enum conn_step {
	CS_MORE,  /* wait for the socket to be readable */
	CS_HELLO, /* a hello came: answer it with conn_answer() */
	CS_DONE,  /* stream complete */
	CS_FAIL,  /* ended; slot->result and slot->err say why */
};

struct conn *conn_new(const struct cfg *cfg, int fd, struct slot *s, char *err,
		      size_t len);
/* Read what is there, up to a fair budget. */
enum conn_step conn_service(struct conn *c);
int conn_fd(const struct conn *c);
/* After CS_HELLO: the client wants a CPU report (ZCW_F_CPU). */
int conn_wants_cpu(const struct conn *c);
/* After CS_HELLO: the run its hello announced (said 0: an older zcc). */
const struct zcw_run *conn_run(const struct conn *c);
/*
 * Answer the hello: grant the CPU report when cpu (this box is measured
 * for the connection), say ZCW_F_SOAK when soak (it is measured with the
 * soak meter). CS_HELLO, or CS_FAIL (slot->err says why).
 */
enum conn_step conn_answer(struct conn *c, int cpu, int soak);
/* After the answer: a CPU report is owed at the end. */
int conn_asks_cpu(const struct conn *c);
double conn_last(const struct conn *c); /* monotonic time of last byte */
/*
 * The limits a slow client meets, checked every tick: no byte for
 * --idle-timeout, the first file header not complete --header-timeout
 * after accept, fewer than --min-rate bytes/s over an --idle-timeout
 * period (a byte every few seconds holds a slot no longer). CS_MORE, or
 * CS_FAIL with the slot's result (timeout) and err set.
 */
enum conn_step conn_check(struct conn *c, double now);
/* Send the CPU report (peerrep frame) for this connection: the
 * window's samples, and cpu_s, this process's CPU-seconds over it (a
 * client on this box counts them as its run's: lib/cpu/quiet.h).
 * 0 or -errno. */
int conn_send_report(struct conn *c, const struct cpu_sample *s, int n,
		     double window_s, int nconns, double cpu_s);
void conn_free(struct conn *c); /* closes the socket */

#endif
