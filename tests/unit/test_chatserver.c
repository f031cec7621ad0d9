/* test_chatserver.c: chatbench's in-process server between runs:
 * chat_server_wait_idle waits while a connection is open (a run's
 * connections still being closed) and returns once none is, in both
 * models. A connection the test holds open stays open whatever the
 * box's speed, so no verdict here depends on timing. */
#include "config.h"
#include "chat.h"
#include "clock.h"
#include "t.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static int dial(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_model(enum chat_model model)
{
	struct chat_server_cfg c = {.bind = "127.0.0.1", .model = model,
				    .quiet = 1, .idle_timeout_s = 600,
				    .stall_after = -1};
	struct chat_server *s;
	char err[256];
	uint64_t end;
	int fd;

	s = chat_server_start(&c, err, sizeof(err));
	T_ASSERT(s);
	T_CHECK(chat_server_wait_idle(s, 0) == 0);
	fd = dial(chat_server_port(s));
	T_ASSERT(fd >= 0);
	/* the server counts it once it has accepted it */
	end = clock_ns() + 30000000000ull;
	while (chat_server_conns(s) < 1 && clock_ns() < end)
		clock_sleep(0.001);
	T_ASSERT(chat_server_conns(s) == 1);
	/* held open: still there when the wait gives up */
	T_CHECK(chat_server_wait_idle(s, 0.05) == 1);
	close(fd);
	/* closed: the wait returns as soon as the server has dealt with it */
	T_CHECK(chat_server_wait_idle(s, 30) == 0);
	chat_server_stop(s);
}

int main(void)
{
	test_model(CHAT_THREADS);
	test_model(CHAT_EPOLL);
	return t_done();
}
