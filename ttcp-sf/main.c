/*
 * ttcp-sf: ttcp with every transfer method of lib/xfer (write, sendfile,
 * splice, MSG_ZEROCOPY, io_uring ...), CPU measured on both ends.
 *
 *   receiver:     ttcp-sf -r -c [-m read|trunc|splice|zerocopy-receive]
 *   transmitter:  ttcp-sf -t -c [-m sendfile ...] -l 32768 receiver_host
 *
 * The wire is ttcp's, so either end works against a plain ttcp; when both
 * ends are ttcp-sf they meet again after the data (frame.c) so the
 * transmitter prints local and remote CPU and service demand on one line.
 * See man/ttcp-sf.1.
 *
 * The parts: opts.c (the command line), the sides xmit.c (-t: the
 * series of samples, the exchange) and rcv.c with rcv_accept.c (-r: who
 * may connect, what a connection opens with, the exchange), the modes
 * and parts as tables (mode.h, mode.c) and each mode's room: stream.c,
 * udp_xmit.c and udp_rcv.c (-u), rr*.c (--rr, --crr), dir.c (-R,
 * --bidir), flows*.c (-P); what the sides share: frame.c (every frame and
 * its decoder), conn.c (connections, socket options, the peek), side.c
 * (text, a signal's end, identity, CPU window), out.c (what both sides
 * print and record), ival.c (-i, --json-stream), bound.c (--duration's
 * hard stop).
 */
#include "config.h"
#include "log.h"
#include "sig.h"
#include "ival.h"
#include "ttcp.h"

int main(int argc, char **argv)
{
	struct res_doc *d;
	struct cfg c;
	int r;

	log_init(argv[0]);
	parse_opts(&c, argc, argv);
	sig_install();
	d = out_doc(&c, argc, argv);
	if (c.affinity >= 0)
		cli_pin_cpu("--affinity", c.affinity);
	r = c.trans ? do_transmit(&c, d) : do_receive(&c, d);
	if (sig_stop) {
		res_fail(d, "stopped by signal %d", (int)sig_stop);
		res_finish(d);
		return sig_exit_status();
	}
	ttcp_ival_end(&c, d);
	if (res_finish(d))
		return 1;
	return r ? 1 : 0;
}
