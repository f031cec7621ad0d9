/*
 * mode.c: the tables of ttcp-sf's modes and parts (mode.h), and a
 * sample's parts.
 */
#include "config.h"
#include "mode.h"

#include <stdlib.h>
#include <string.h>

/* -P first (it runs a stream, -R or --rr over many flows), then the
 * workloads that change what one connection carries, the stream last. */
const struct ttcp_mode *const ttcp_modes[] = {
	&ttcp_flows_mode, &ttcp_rr_mode, &ttcp_dir_mode, &ttcp_udp_mode,
	&ttcp_stream_mode, NULL,
};

const struct ttcp_part *const ttcp_parts[] = {
	&rr_part, &flows_part, &dir_part, &udp_part, &rate_part, &tcp_part,
	NULL,
};

const struct ttcp_mode *ttcp_xmit_mode(const struct cfg *c)
{
	int i;

	for (i = 0; ttcp_modes[i]; i++)
		if (ttcp_modes[i]->xmit_match && ttcp_modes[i]->xmit_match(c))
			return ttcp_modes[i];
	return &ttcp_stream_mode;
}

const struct ttcp_mode *ttcp_rcv_mode(const struct cfg *c,
				      const struct rcv_open *o)
{
	int i;

	for (i = 0; ttcp_modes[i]; i++)
		if (ttcp_modes[i]->rcv_match && ttcp_modes[i]->rcv_match(c, o))
			return ttcp_modes[i];
	return &ttcp_stream_mode;
}

static int index_of(const struct ttcp_part *p)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (ttcp_parts[i] == p)
			return i;
	abort(); /* a part not in the table */
}

void *sample_add(struct sample *s, const struct ttcp_part *p)
{
	int i = index_of(p);

	if (!s->part[i]) {
		s->part[i] = calloc(1, p->size ? p->size : 1);
		if (!s->part[i])
			abort();
	}
	return s->part[i];
}

void *sample_part(const struct sample *s, const struct ttcp_part *p)
{
	return s->part[index_of(p)];
}

void sample_drop(struct sample *s, const struct ttcp_part *p)
{
	int i = index_of(p);

	if (!s->part[i])
		return;
	if (p->free)
		p->free(s->part[i]);
	free(s->part[i]);
	s->part[i] = NULL;
}

const struct ttcp_part *sample_trans_part(const struct sample *s)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->counts_trans)
			return ttcp_parts[i];
	return NULL;
}

uint64_t sample_count(const struct sample *s)
{
	const struct ttcp_part *t = sample_trans_part(s);

	return t ? t->count(s) : s->bytes;
}

double sample_rate(const struct sample *s)
{
	double n = (double)sample_count(s);

	if (s->elapsed_s <= 0)
		return 0;
	return sample_trans_part(s) ? n / s->elapsed_s : n / s->elapsed_s / 1e6;
}

int sample_reverse(const struct sample *s)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->reverse &&
		    ttcp_parts[i]->reverse(s))
			return 1;
	return 0;
}

void sample_free(struct sample *s)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++) {
		if (!s->part[i])
			continue;
		if (ttcp_parts[i]->free)
			ttcp_parts[i]->free(s->part[i]);
		free(s->part[i]);
		s->part[i] = NULL;
	}
	json_decref(s->counters);
	s->counters = NULL;
	json_decref(s->intervals);
	s->intervals = NULL;
}
