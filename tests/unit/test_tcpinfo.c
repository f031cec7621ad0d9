/* test_tcpinfo.c: TCP_INFO of a real loopback connection (the bytes
 * sent are acknowledged, an RTT and a window are there, nothing is
 * retransmitted on loopback), readings added over flows and differenced
 * over an interval, the JSON round trip and its refusals, the line. */
#include "config.h"
#include "sock.h"
#include "tcpinfo.h"
#include "t.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

static void real_socket(void)
{
	char err[256], buf[65536] = {0};
	int lfd, cfd, afd, bound = 0, udp;
	struct tcpinfo t, r;
	size_t sent = 0;

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 1, &bound, err,
			  sizeof(err));
	T_ASSERT(lfd >= 0);
	cfd = sock_connect("127.0.0.1", bound, SOCK_STREAM, 1000, err,
			   sizeof(err));
	T_ASSERT(cfd >= 0);
	afd = accept(lfd, NULL, NULL);
	T_ASSERT(afd >= 0);
	while (sent < 4 * sizeof(buf)) {
		T_ASSERT(sock_write_full(cfd, buf, sizeof(buf), 1000) ==
			 (ssize_t)sizeof(buf));
		T_ASSERT(sock_read_full(afd, buf, sizeof(buf), 1000) ==
			 (ssize_t)sizeof(buf));
		sent += sizeof(buf);
	}
	usleep(20000); /* the last ACK */
	T_ASSERT(tcpinfo_read(cfd, &t) == 0);
	/* the kernel counts the SYN's sequence number as acknowledged */
	T_CHECK(t.flows == 1 && t.bytes_acked == sent + 1 && t.cwnd > 0 &&
		t.mss > 0 && t.srtt_us > 0 && t.retrans == 0);
	T_CHECK(t.rwnd_limited_us <= t.busy_us &&
		t.sndbuf_limited_us <= t.busy_us);
	T_ASSERT(tcpinfo_read(afd, &r) == 0);
	T_CHECK(r.bytes_received == sent);
	close(cfd);
	close(afd);
	close(lfd);
	T_CHECK(tcpinfo_read(cfd, &t) == -EBADF);
	udp = socket(AF_INET, SOCK_DGRAM, 0);
	T_CHECK(tcpinfo_read(udp, &t) < 0);
	close(udp);
}

static void arithmetic(void)
{
	struct tcpinfo a = {.retrans = 2, .srtt_us = 100, .min_rtt_us = 50,
			    .cwnd = 10, .ssthresh = 20, .busy_us = 1000,
			    .rwnd_limited_us = 250, .pacing_rate = ~0ull,
			    .delivery_rate = 5, .bytes_acked = 100, .flows = 1};
	struct tcpinfo b = {.retrans = 3, .srtt_us = 300, .min_rtt_us = 40,
			    .cwnd = 30, .ssthresh = TCPINFO_INFINITE,
			    .busy_us = 3000, .rwnd_limited_us = 750,
			    .pacing_rate = 7, .delivery_rate = 6,
			    .bytes_acked = 300, .flows = 1};
	struct tcpinfo s = {0}, d;

	tcpinfo_add(&s, &a);
	T_CHECK(s.ssthresh == 20 && s.pacing_rate == ~0ull && s.flows == 1);
	tcpinfo_add(&s, &b);
	T_CHECK(s.retrans == 5 && s.srtt_us == 200 && s.min_rtt_us == 40 &&
		s.cwnd == 40 && s.ssthresh == TCPINFO_INFINITE &&
		s.delivery_rate == 11 && s.pacing_rate == ~0ull &&
		s.flows == 2);
	T_NEAR(tcpinfo_pct(&s, s.rwnd_limited_us), 25, 1e-9);
	/* an interval: counters differ, gauges are the later reading's */
	tcpinfo_delta(&d, &b, &a);
	T_CHECK(d.retrans == 1 && d.busy_us == 2000 && d.bytes_acked == 200 &&
		d.cwnd == 30 && d.srtt_us == 300);
	tcpinfo_delta(&d, &a, &b); /* a reset connection: never negative */
	T_CHECK(d.retrans == 0 && d.busy_us == 0);
	/* one connection after another (--crr): the window is their mean */
	memset(&s, 0, sizeof(s));
	tcpinfo_chain(&s, &a);
	tcpinfo_chain(&s, &b);
	T_CHECK(s.retrans == 5 && s.cwnd == 20 && s.srtt_us == 200 &&
		s.ssthresh == 20 && s.delivery_rate == 5 &&
		s.pacing_rate == ~0ull && s.flows == 2 && s.busy_us == 4000);
	T_CHECK(isnan(tcpinfo_pct(&(struct tcpinfo){0}, 0)));
}

static void json(void)
{
	struct tcpinfo a = {.retrans = 7, .bytes_retrans = 10136,
			    .srtt_us = 1200, .rttvar_us = 310, .min_rtt_us = 40,
			    .cwnd = 45, .ssthresh = TCPINFO_INFINITE,
			    .mss = 1448, .delivery_rate = 118200000,
			    .pacing_rate = 125000000, .busy_us = 2000000,
			    .sndbuf_limited_us = 62000, .bytes_acked = 1 << 30,
			    .flows = 1};
	struct tcpinfo back;
	char err[256], line[512];
	json_t *j = tcpinfo_json(&a);

	T_CHECK(json_is_null(json_object_get(j, "ssthresh")));
	T_NEAR(json_number_value(json_object_get(j, "sndbuf_limited_pct")), 3.1,
	       1e-9);
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == 0);
	T_CHECK(!memcmp(&a, &back, sizeof(a)));
	/* a limited time above the busy time, or a lie of a count */
	json_object_set_new(j, "rwnd_limited_us", json_integer(2000001));
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "rwnd_limited_us") != NULL);
	json_object_set_new(j, "rwnd_limited_us", json_integer(0));
	json_object_set_new(j, "retrans", json_integer(-1));
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == -EINVAL);
	json_object_set_new(j, "retrans", json_string("many"));
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == -EINVAL);
	json_object_set_new(j, "retrans", json_integer(7));
	json_object_set_new(j, "pacing_rate_MBps", json_real(1e12));
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "pacing_rate_MBps") != NULL);
	json_decref(j);
	j = json_integer(1);
	T_CHECK(tcpinfo_from_json(j, &back, err, sizeof(err)) == -EINVAL);
	json_decref(j);
	T_STREQ(tcpinfo_line(line, sizeof(line), &a, 1),
		"retr 7 cwnd 45 srtt 1.20 ms");
	T_STREQ(tcpinfo_line(line, sizeof(line), &a, 0),
		"retr 7 (10.1 KB) srtt 1.20 ms (rttvar 310 us) min rtt 40 us "
		"cwnd 45 ssthresh - delivery 118.2 MB/s pacing 125.0 MB/s busy "
		"2.00 s: rwnd-limited 0.0%, sndbuf-limited 3.1%");
}

int main(void)
{
	real_socket();
	arithmetic();
	json();
	return t_done();
}
