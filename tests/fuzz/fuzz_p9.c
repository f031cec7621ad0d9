/*
 * fuzz_p9.c: the 9P2000.L client's receive side (p9bench/p9.c decoder,
 * p9bench/p9_client.c transport and metadata calls, p9bench/p9_io.c tagged I/O on
 * the copy and direct paths). Input: [mode][split][o1][o2][bytes].
 *   mode 0: the bytes are one reply for the decoders: p9_hdr, p9_decode
 *           and p9_iohdr (msize and the request from o1, o2).
 *   mode 1: the bytes are everything a server answers, sent in chunks
 *           (fz_split) over a socketpair while the client runs a whole
 *           session: Tversion (msize from o1 & 3), Tattach, three Twalks,
 *           Tlopen, Tgetattr, Tlcreate, p9_pread/p9_pwrite of 100 bytes
 *           (path o1 >> 2 & 1) and of several iomax (path o1 >> 3 & 1,
 *           o2 % 8 + 1 in flight), three tagged I/Os reaped in any order,
 *           Tclunk, Tremove, Tunlinkat. Nothing may crash, hang, read
 *           out of bounds or report more than was asked.
 */
#include "config.h"
#include "fz.h"
#include "p9.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

static const uint32_t msizes[4] = {8192, P9_MIN_MSIZE, 65536, 4096};

static void decoders(const uint8_t *data, size_t size, uint8_t o1, uint8_t o2)
{
	uint32_t msize = msizes[o1 & 3], hsize, count = 0, asked = o2 * 64u;
	uint8_t type, treq = o2 & 1 ? P9_TWRITE : P9_TREAD;
	struct p9_msg m;
	uint16_t tag;
	char err[256];

	if (p9_hdr(data, size, msize, &hsize, &type, &tag, err, sizeof(err)) ==
		    0 &&
	    (hsize < P9_HDRSZ || hsize > msize))
		__builtin_trap();
	if (p9_decode(data, size, msize, &m, err, sizeof(err)) == 0) {
		if (m.size != size || m.nwqid > P9_MAXWELEM || !(m.type & 1) ||
		    strnlen(m.version, sizeof(m.version)) == sizeof(m.version))
			__builtin_trap();
		if (m.type == P9_RREAD &&
		    (m.data < data || m.data + m.count > data + size))
			__builtin_trap();
	}
	if (size >= P9_RIOHDR &&
	    p9_iohdr(data, msize, treq, asked, &type, &tag, &count, err,
		     sizeof(err)) == 0 &&
	    type != P9_RLERROR && count > asked)
		__builtin_trap();
	if (p9_errno(count) > 0 || (size > 4 && !p9_type_name(data[4])[0]))
		__builtin_trap();
}

static void check(const struct p9_client *c)
{
	if (c->inflight < 0 || c->inflight > P9_MAXTAGS || c->roff > c->rlen ||
	    c->rlen > c->rcap || c->msize > c->o.msize ||
	    c->ndirect_reads < 0 || c->ndirect_reads > c->inflight)
		__builtin_trap();
}

/* An I/O's result: bytes moved (never more than asked) or -errno. */
static void io_result(int64_t r, size_t len)
{
	if (r > (int64_t)len || r < -4095)
		__builtin_trap();
}

static uint8_t buf[4 * 65536 + 64];

static void session(const uint8_t *data, size_t size, uint8_t split, uint8_t o1,
		    uint8_t o2)
{
	struct p9_opts o = {.msize = msizes[o1 & 3], .timeout_ms = 2000};
	const char *one[] = {"f"}, *three[] = {"a", "b", "c"};
	int pa = o1 >> 2 & 1, pb = o1 >> 3 & 1, qd = 1 + (o2 & 7), i;
	struct p9_client c;
	struct p9_done d;
	struct p9_attr a;
	struct p9_qid q[P9_MAXWELEM];
	struct fz_peer p;
	uint32_t iounit;
	size_t big;
	int fd;

	if (fz_peer_pair(&p, data, size, split, &fd))
		return;
	if (p9_client_init(&c, fd, "fuzz", &o)) {
		p9_close(&c);
		fz_peer_end(&p);
		return;
	}
	if (p9_version(&c) == 0 &&
	    (c.msize > o.msize || c.msize < P9_MIN_MSIZE ||
	     c.iomax != c.msize - P9_IOHDRSZ))
		__builtin_trap();
	check(&c);
	p9_attach(&c, 1, "u", "/", 0, q);
	p9_walk(&c, 1, 2, 1, one, q);
	p9_walk(&c, 1, 3, 0, NULL, NULL);
	p9_walk(&c, 1, 4, 3, three, q);
	p9_lopen(&c, 2, P9_DOTL_RDWR, q, &iounit);
	p9_getattr(&c, 2, P9_GETATTR_BASIC, &a);
	p9_lcreate(&c, 3, "new", P9_DOTL_CREATE | P9_DOTL_RDWR, 0644, 0, q,
		   &iounit);
	check(&c);
	big = 3 * (size_t)c.iomax + 5;
	io_result(p9_pread(&c, 2, buf, 100, 0, pa, 1), 100);
	check(&c);
	io_result(p9_pread(&c, 2, buf, big, 0, pb, qd), big);
	check(&c);
	io_result(p9_pwrite(&c, 2, buf, 100, 0, pa, 1), 100);
	check(&c);
	io_result(p9_pwrite(&c, 2, buf, 2 * (size_t)c.iomax, 0, pb, qd),
		  2 * (size_t)c.iomax);
	check(&c);
	if (!c.inflight && c.iomax >= 70 &&
	    !p9_io_submit(&c, 0, 2, buf, 50, 0, P9_DIRECT, 1) &&
	    !p9_io_submit(&c, 0, 2, buf + 64, 60, 0, P9_COPY, 2) &&
	    !p9_io_submit(&c, 1, 2, buf + 128, 70, 0, pa, 3))
		for (i = 0; i < 3 && !p9_io_reap(&c, &d); i++) {
			if (d.asked != 50 + 10 * (d.cookie - 1) ||
			    d.result > (int64_t)d.asked)
				__builtin_trap();
			check(&c);
		}
	check(&c);
	p9_clunk(&c, 3);
	p9_remove(&c, 4);
	p9_unlinkat(&c, 1, "new", 0);
	check(&c);
	p9_close(&c);
	fz_peer_end(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t mode, split, o1, o2;

	if (size < 4 || size > 1 << 20)
		return 0;
	mode = data[0];
	split = data[1];
	o1 = data[2];
	o2 = data[3];
	if (mode & 1)
		session(data + 4, size - 4, split, o1, o2);
	else
		decoders(data + 4, size - 4, o1, o2);
	return 0;
}
