/*
 * xfer_table.c: the transfer-method table, one line a method (its ops
 * are defined in lib/xfer/xfer_NAME.c), and the lookups over it: by name,
 * the probes, `--method=help` and the names for usage messages (all, or
 * those with some flags).
 */
#include "config.h"
#include "xfer_int.h"

#include <string.h>

/* Sends first, then receives; --method=help lists them in this order. */
#define XFER_METHODS(M)                                                      \
	M(xfer_write_ops)      /* xfer_write.c */                            \
	M(xfer_send_ops)       /* xfer_write.c */                            \
	M(xfer_sendfile_ops)   /* xfer_sendfile.c */                         \
	M(xfer_splice_ops)     /* xfer_splice.c */                           \
	M(xfer_mmap_ops)       /* xfer_mmap.c */                             \
	M(xfer_msgzc_ops)      /* xfer_msgzc.c */                            \
	M(xfer_uring_ops)      /* xfer_uring.c */                            \
	M(xfer_uringzc_ops)    /* xfer_uring.c */                            \
	M(xfer_read_ops)       /* xfer_read.c */                             \
	M(xfer_trunc_ops)      /* xfer_read.c */                             \
	M(xfer_splice_rx_ops)  /* xfer_splice.c */                           \
	M(xfer_zcrx_ops)       /* xfer_zcrx.c */

#define XFER_DECLARE(ops) extern const struct xfer_ops ops;
#define XFER_ENTRY(ops) &ops,
XFER_METHODS(XFER_DECLARE)

const struct xfer_ops *const xfer_table[] = { XFER_METHODS(XFER_ENTRY) NULL };

const struct xfer_ops *xfer_find(const char *name, enum xfer_dir dir)
{
	int i;

	for (i = 0; xfer_table[i]; i++)
		if (xfer_table[i]->dir == dir &&
		    !strcmp(xfer_table[i]->name, name))
			return xfer_table[i];
	return NULL;
}

int xfer_probe(const struct xfer_ops *ops, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return ops->probe ? ops->probe(why, len) : 0;
}

void xfer_print_table(FILE *f)
{
	char why[256];
	int d, i, r;

	for (d = XFER_SEND; d <= XFER_RECV; d++) {
		fprintf(f, "%s methods:\n",
			d == XFER_SEND ? "send (-t)" : "receive (-r)");
		for (i = 0; xfer_table[i]; i++) {
			const struct xfer_ops *o = xfer_table[i];

			if ((int)o->dir != d)
				continue;
			r = xfer_probe(o, why, sizeof(why));
			fprintf(f, "  %-16s %-5s %s\n", o->name,
				r ? "NO" : "ok", o->help);
			if (why[0])
				fprintf(f, "  %-16s       %s: %s\n", "",
					r ? "unavailable" : "note", why);
		}
	}
}

const char *xfer_names(enum xfer_dir dir)
{
	static char buf[2][256];
	char *b = buf[dir == XFER_RECV];
	size_t n = 0;
	int i;

	b[0] = '\0';
	for (i = 0; xfer_table[i]; i++)
		if (xfer_table[i]->dir == dir)
			n += (size_t)snprintf(b + n, sizeof(buf[0]) - n, "%s%s",
					      n ? "," : "",
					      xfer_table[i]->name);
	return b;
}

/* Method i is of direction dir (or XFER_EITHER) and has all of flags. */
static int listed(int i, unsigned flags, int dir)
{
	return (dir == XFER_EITHER || (int)xfer_table[i]->dir == dir) &&
	       (xfer_table[i]->flags & flags) == flags;
}

const char *xfer_list(unsigned flags, int dir, const char *conj, char *buf,
		      size_t len)
{
	size_t used = 0;
	int i, n = 0, k = 0;

	for (i = 0; xfer_table[i]; i++)
		n += listed(i, flags, dir);
	if (len)
		buf[0] = '\0';
	for (i = 0; xfer_table[i] && used < len; i++) {
		if (!listed(i, flags, dir))
			continue;
		if (k && k + 1 == n) /* the last of several */
			used += (size_t)snprintf(buf + used, len - used,
						 " %s %s", conj,
						 xfer_table[i]->name);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 k ? ", " : "",
						 xfer_table[i]->name);
		k++;
	}
	return buf;
}
