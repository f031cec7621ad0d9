/*
 * fuzz_p9.c: the 9P2000.L reply decoder (lib/p9.c) on arbitrary bytes,
 * then the whole client receive path (lib/p9_client.c): the input is
 * what a server sends on a socketpair, and the client runs Tversion,
 * Tattach, Twalk, Tlopen, Tgetattr and reads/writes on both paths
 * against it. Nothing may crash, hang or read out of bounds.
 */
#include "config.h"
#include "p9.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSIZE 8192

static void decode(const uint8_t *data, size_t size)
{
	struct p9_msg m;
	char err[256];
	uint8_t type;
	uint16_t tag;
	uint32_t count;

	if (p9_decode(data, size, MSIZE, &m, err, sizeof(err)) == 0) {
		if (m.size != size || m.nwqid > P9_MAXWELEM)
			__builtin_trap();
		if (m.type == P9_RREAD &&
		    (m.data < data || m.data + m.count > data + size))
			__builtin_trap();
	}
	if (size >= P9_RIOHDR &&
	    p9_iohdr(data, MSIZE, P9_TREAD, 4000, &type, &tag, &count, err,
		     sizeof(err)) == 0 &&
	    type == P9_RREAD && count > 4000)
		__builtin_trap();
}

static void client(const uint8_t *data, size_t size)
{
	static uint8_t buf[3 * MSIZE];
	struct p9_opts o = {.msize = MSIZE, .timeout_ms = 1000};
	struct p9_client c;
	const char *name = "f";
	struct p9_attr a;
	int sv[2], path;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	if (write(sv[1], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	shutdown(sv[1], SHUT_WR);
	if (p9_client_init(&c, sv[0], "fuzz", &o) || p9_version(&c) ||
	    c.msize > MSIZE || c.iomax != c.msize - P9_IOHDRSZ)
		goto out;
	if (p9_attach(&c, 1, "u", "/", 0, NULL) ||
	    p9_walk(&c, 1, 2, 1, &name, NULL))
		goto out;
	p9_lopen(&c, 2, P9_DOTL_RDWR, NULL, NULL);
	p9_getattr(&c, 2, P9_GETATTR_BASIC, &a);
	for (path = 0; path < 2; path++) {
		if (p9_pread(&c, 2, buf, 100, 0, path, 1) < -1000 ||
		    p9_pread(&c, 2, buf, sizeof(buf), 0, path, 3) < -1000 ||
		    p9_pwrite(&c, 2, buf, 100, 0, path, 2) < -1000)
			break;
		if (c.inflight)
			break; /* a failed connection keeps its requests */
	}
out:
	p9_close(&c);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode(data, size);
	if (size <= 65536)
		client(data, size);
	return 0;
}
