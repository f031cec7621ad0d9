/* test_peerrep.c: the peer report frame: round trip and hostile bytes. */
#include "config.h"
#include "cpujson.h"
#include "peerrep.h"
#include "t.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct cpu_sample in[2], out[4];
	uint8_t *b, bad[16];
	size_t n, used;
	json_t *rep, *got;
	char err[256];
	int sv[2];

	memset(in, 0, sizeof(in));
	snprintf(in[0].meter, sizeof(in[0].meter), "procstat");
	in[0].ok = 1;
	in[0].ncpu = 2;
	in[0].busy_pct = 37.5;
	in[0].elapsed_s = 2.0;
	in[0].softirq_pct = 4.25;
	snprintf(in[1].meter, sizeof(in[1].meter), "soak");
	snprintf(in[1].why, sizeof(in[1].why), "not calibrated");

	rep = cpujson_report(in, 2);
	n = peerrep_encode(rep, &b);
	T_CHECK(!memcmp(b, "ZCBR", 4));
	/* every prefix asks for more, the whole decodes */
	for (size_t k = 0; k < n; k++)
		T_CHECK(peerrep_decode(b, k, &used, &got, err, sizeof(err)) == 0);
	T_ASSERT(peerrep_decode(b, n, &used, &got, err, sizeof(err)) == 1);
	T_CHECK(used == n);
	T_CHECK(cpujson_from_report(got, out, 4, err, sizeof(err)) == 2);
	T_STREQ(out[0].meter, "procstat");
	T_NEAR(out[0].busy_pct, 37.5, 1e-12);
	T_NEAR(out[0].softirq_pct, 4.25, 1e-12);
	T_CHECK(!out[1].ok);
	T_STREQ(out[1].why, "not calibrated");
	T_CHECK(cpujson_from_report(got, out, 1, err, sizeof(err)) == -EINVAL);
	json_decref(got);

	/* over a socket */
	T_ASSERT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	T_CHECK(peerrep_send(sv[0], rep, 1000) == 0);
	T_CHECK(peerrep_recv(sv[1], &got, 1000, err, sizeof(err)) == 0);
	json_decref(got);
	/* silence times out, closing says so */
	T_CHECK(peerrep_recv(sv[1], &got, 100, err, sizeof(err)) == -ETIMEDOUT);
	close(sv[0]);
	T_CHECK(peerrep_recv(sv[1], &got, 100, err, sizeof(err)) < 0);
	close(sv[1]);
	free(b);
	json_decref(rep);

	/* hostile frames */
	memcpy(bad, "ZCBR\xff\xff\xff\xff", 8);
	T_CHECK(peerrep_decode(bad, 8, &used, &got, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "out of range") != NULL);
	memcpy(bad, "ZCBR\0\0\0\0", 8);
	T_CHECK(peerrep_decode(bad, 8, &used, &got, err, sizeof(err)) == -EINVAL);
	memcpy(bad, "HTTP/1.1", 8);
	T_CHECK(peerrep_decode(bad, 8, &used, &got, err, sizeof(err)) == -EINVAL);
	T_CHECK(peerrep_decode(bad, 2, &used, &got, err, sizeof(err)) == -EINVAL);
	memcpy(bad, "ZCBR\0\0\0\3[1]", 11);
	T_CHECK(peerrep_decode(bad, 11, &used, &got, err, sizeof(err)) == -EINVAL);
	memcpy(bad, "ZCBR\0\0\0\3{x}", 11);
	T_CHECK(peerrep_decode(bad, 11, &used, &got, err, sizeof(err)) == -EINVAL);
	/* jansson quotes the bad token: the error shows it escaped (a stray
	 * connection's bytes reached the receiver's terminal raw) */
	memcpy(bad, "ZCBR\0\0\0\3\x1b]0", 11);
	T_CHECK(peerrep_decode(bad, 11, &used, &got, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "not JSON") && strstr(err, "\\x1b") &&
		!strchr(err, '\x1b'));
	/* a report whose figures are absurd */
	got = json_loads("{\"cpu\":[{\"meter\":\"soak\",\"ok\":true,\"ncpu\":2,"
			 "\"busy_pct\":900,\"elapsed_s\":1}]}", 0, NULL);
	T_CHECK(cpujson_from_report(got, out, 4, err, sizeof(err)) == -EINVAL);
	json_decref(got);
	return t_done();
}
