/*
 * peerrep.h: the report one side of a run sends the other at the end: its
 * host facts and its CPU figures, so the starting side prints local and
 * remote CPU on one line (netperf's -c -C).
 *
 * Frame: "ZCBR" (4 bytes), u32 big-endian length, then that many bytes of
 * a JSON object {"host": {...}, "cpu": [cpu_sample...], ...}. The length
 * is checked against PEERREP_MAX before anything is allocated. This file
 * is the framing only; the CPU figures inside are lib/cpu/cpujson.h.
 */
#ifndef ZCB_PEERREP_H
#define ZCB_PEERREP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define PEERREP_MAGIC "ZCBR"
#define PEERREP_HDR 8
#define PEERREP_MAX (256 * 1024)

/* Build the frame of obj into a malloc'd buffer; returns its length. */
size_t peerrep_encode(json_t *obj, uint8_t **out);
/*
 * Decode from buf[0..len). Returns 1 with *out (new reference) and
 * *consumed set when a whole valid frame is there, 0 when more bytes are
 * needed, -EINVAL with err filled when the bytes are not a report.
 */
int peerrep_decode(const uint8_t *buf, size_t len, size_t *consumed,
		   json_t **out, char *err, size_t elen);
/* Send or receive one frame over fd with a timeout. 0 or -errno. */
int peerrep_send(int fd, json_t *obj, int timeout_ms);
int peerrep_recv(int fd, json_t **out, int timeout_ms, char *err,
		 size_t elen);

#endif
