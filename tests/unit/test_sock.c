/* test_sock.c: address parsing, loopback listen/connect, timed I/O. */
#include "config.h"
#include "sock.h"
#include "t.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	char host[64], err[256], buf[16];
	int port, lfd, cfd, afd, bound = 0;

	T_CHECK(sock_split_hostport("example:123", host, sizeof(host), &port,
				    9) == 0);
	T_STREQ(host, "example");
	T_CHECK(port == 123);
	T_CHECK(sock_split_hostport("127.0.0.1", host, sizeof(host), &port,
				    9) == 0 && port == 9);
	T_CHECK(sock_split_hostport("[::1]:80", host, sizeof(host), &port, 9) ==
		0);
	T_STREQ(host, "::1");
	T_CHECK(port == 80);
	T_CHECK(sock_split_hostport("::1", host, sizeof(host), &port, 9) == 0);
	T_STREQ(host, "::1");
	T_CHECK(sock_split_hostport("h:99999", host, sizeof(host), &port, 9) ==
		-EINVAL);
	T_CHECK(sock_split_hostport("h:x", host, sizeof(host), &port, 9) ==
		-EINVAL);

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &bound, err,
			  sizeof(err));
	T_ASSERT(lfd >= 0);
	T_CHECK(bound > 0);
	cfd = sock_connect("127.0.0.1", bound, SOCK_STREAM, 1000, err,
			   sizeof(err));
	T_ASSERT(cfd >= 0);
	afd = accept(lfd, NULL, NULL);
	T_ASSERT(afd >= 0);
	T_CHECK(sock_write_full(cfd, "hello", 5, 1000) == 5);
	T_CHECK(sock_read_full(afd, buf, 5, 1000) == 5);
	T_CHECK(!memcmp(buf, "hello", 5));
	T_CHECK(sock_read_full(afd, buf, 5, 100) == -ETIMEDOUT);
	T_CHECK(sock_set_nodelay(cfd, 1) == 0);
	T_CHECK(sock_set_bufs(cfd, 65536, 65536) == 0);
	if (sock_cc_available("cubic"))
		T_CHECK(sock_set_cc(cfd, "cubic") == 0);
	T_CHECK(sock_set_cc(cfd, "no-such-cc") < 0);
	close(cfd);
	T_CHECK(sock_read_full(afd, buf, 5, 1000) == 0); /* EOF */
	close(afd);
	close(lfd);
	/* refused: nobody listens any more */
	cfd = sock_connect("127.0.0.1", bound, SOCK_STREAM, 1000, err,
			   sizeof(err));
	T_CHECK(cfd == -ECONNREFUSED);
	T_CHECK(strstr(err, "refused") != NULL);
	return t_done();
}
