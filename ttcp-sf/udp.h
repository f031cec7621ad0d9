/*
 * udp.h: -u, UDP streams in ttcp's framing (udp_xmit.c, udp_rcv.c): the
 * udp mode and part (mode.h). Its datagram counts are common figures of
 * a sample (ttcp.h), its part says the sample has them.
 */
#ifndef ZCB_TTCP_UDP_H
#define ZCB_TTCP_UDP_H

#include "mode.h"

struct rcv;
/* -r: one UDP stream sample (the udp mode's rcv). */
int udp_rcv_sample(struct rcv *r, const struct rcv_open *o, struct sample *s);

#endif
