/* test_ttcpframe: ttcp-sf's frames and their one decoder (ttcp-sf/frame.c):
 * the -R/--bidir/-P setup frame, --rr's 20-byte setup frame, the hello and
 * the report, each built and read back, and each refusal naming its field. */
#include "config.h"
#include "frame.h"
#include "t.h"

#include <arpa/inet.h>
#include <errno.h>

static void dir_setups(void)
{
	struct dir_setup st = {.reverse = 1, .buflen = 8192, .nbuf = 10,
			       .flows = 4, .flow = 2, .hot = 1};
	struct dir_setup back;
	char why[256];
	json_t *j = dir_setup_build(&st);

	T_STREQ(json_string_value(json_object_get(j, "type")), DIR_SETUP_TYPE);
	T_STREQ(json_string_value(json_object_get(j, "direction")), "reverse");
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == 0);
	T_CHECK(back.reverse && !back.bidir && back.buflen == 8192 &&
		back.nbuf == 10 && back.flows == 4 && back.flow == 2 &&
		back.hot);
	/* a count that does not fit an int is refused, not narrowed */
	json_object_set_new(j, "flows", json_integer(4294967298ll));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "field \"flows\" out of range (1 to 1024)");
	json_object_set_new(j, "flows", json_integer(4));
	json_object_set_new(j, "flow", json_integer(4));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "field \"flow\" out of range (0 to 3)");
	json_object_set_new(j, "flow", json_integer(0));
	json_object_set_new(j, "direction", json_string("sideways"));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_CHECK(strstr(why, "direction") != NULL);
	json_object_set_new(j, "direction", json_string("forward"));
	json_object_set_new(j, "flows", json_integer(1));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "a forward stream of one flow needs no setup");
	json_object_set_new(j, "direction", json_string("bidir"));
	json_object_set_new(j, "nbuf", json_integer(0));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "neither \"nbuf\" nor \"duration\"");
	json_decref(j);
	/* --rate: the setup carries it; a hostile one is refused */
	st = (struct dir_setup){.bidir = 1, .buflen = 8192, .duration = 2,
				.flows = 2, .rate = 125e6,
				.rate_per_flow = 1};
	j = dir_setup_build(&st);
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == 0);
	T_CHECK(back.rate == 125e6 && back.rate_per_flow);
	json_object_set_new(j, "rate", json_real(-1));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	T_CHECK(strstr(why, "\"rate\"") != NULL);
	json_object_set_new(j, "rate", json_string("fast"));
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == -EINVAL);
	json_object_del(j, "rate"); /* no rate: rate_per_flow means nothing */
	T_CHECK(dir_setup_parse(j, &back, why, sizeof(why)) == 0);
	T_CHECK(back.rate == 0 && !back.rate_per_flow);
	json_decref(j);
	T_STREQ(dir_name(0, 1), "bidir");
	T_STREQ(dir_name(0, 0), "forward");
}

static void rr_setups(void)
{
	struct rr_setup su = {.kind = RR_TCP, .req = 100, .resp = 200,
			      .flows = 3, .flow = 1};
	struct rr_setup back;
	unsigned char b[RR_SETUP];
	char why[256];
	uint32_t be;

	rr_setup_put(b, &su);
	T_CHECK(!memcmp(b, RR_MAGIC, 6));
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == 0);
	T_CHECK(back.kind == RR_TCP && back.req == 100 && back.resp == 200 &&
		back.flows == 3 && back.flow == 1);
	T_STREQ(rr_name(back.kind), "tcp_rr");
	be = htonl(100000000u); /* past RR_MAX_SIZE */
	memcpy(b + 8, &be, 4);
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "request size 100000000 out of range (1 to 67108864)");
	su.kind = RR_UDP;
	su.flows = 2;
	rr_setup_put(b, &su);
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == -EINVAL);
	T_STREQ(why, "2 flows of udp_rr (-P is TCP_RR's only)");
	su.flows = 1;
	su.flow = 0;
	su.req = 70000; /* more than a datagram */
	rr_setup_put(b, &su);
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == -EINVAL);
	T_CHECK(strstr(why, "a datagram") != NULL);
	b[6] = 9;
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == -EINVAL);
	T_CHECK(strstr(why, "kind 9") != NULL);
	b[0] = 'X';
	T_CHECK(rr_setup_get(b, &back, NULL, 0) == -EINVAL);
	/* an end frame carries a count, not sizes */
	su = (struct rr_setup){.kind = RR_UDP_END, .req = 41, .flows = 1};
	rr_setup_put(b, &su);
	T_CHECK(rr_setup_get(b, &back, why, sizeof(why)) == 0 &&
		back.req == 41);
}

static void hellos(void)
{
	uint64_t counts[2] = {5, 7};
	struct ctl_hello h = {.buflen = 8192, .bytes = 12, .sample = 3,
			      .more = 1, .soak = 1, .soak_next = 0,
			      .rr_kind = 0, .nflows = 2, .flow_count = counts};
	struct ctl_hello back;
	char err[256], why[64];
	json_t *j;

	snprintf(h.method, sizeof(h.method), "sendfile");
	snprintf(h.source, sizeof(h.source), "file");
	snprintf(h.proto, sizeof(h.proto), "tcp");
	snprintf(h.hostname, sizeof(h.hostname), "a");
	snprintf(h.boot_id, sizeof(h.boot_id), "b");
	j = ctl_hello_build(&h);
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == 0);
	T_STREQ(back.method, "sendfile");
	T_CHECK(back.sample == 3 && back.more == 1 && back.soak == 1 &&
		back.soak_next == 0 && back.nflows == 2 &&
		back.flow_count[1] == 7);
	T_CHECK(ctl_flows_match(back.flow_count, back.nflows, counts, 2, why,
				sizeof(why)));
	counts[1] = 8;
	T_CHECK(!ctl_flows_match(back.flow_count, back.nflows, counts, 2, why,
				 sizeof(why)));
	T_STREQ(why, "flow 2: 7 here, 8 there");
	ctl_hello_free(&back);
	/* a hello must say whether another sample follows, and name its box */
	json_object_set_new(j, "more", json_integer(1));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "field \"more\" missing or not a boolean");
	ctl_hello_free(&back);
	json_object_set_new(j, "more", json_true());
	json_object_del(j, "boot_id");
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "field \"boot_id\" missing or not a short string");
	ctl_hello_free(&back);
	json_object_set_new(j, "boot_id", json_string("b"));
	/* a peer's method is one of lib/xfer's, escaped when named */
	json_object_set_new(j, "method", json_string("w\x1b[31m"));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strchr(err, '\x1b') == NULL && strstr(err, "method") != NULL);
	ctl_hello_free(&back);
	json_object_set_new(j, "method", json_string("write"));
	json_object_set_new(j, "sample", json_integer(TTCP_MAX_SAMPLES));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "sample") != NULL);
	ctl_hello_free(&back);
	json_decref(j);
	/* --rate: the target and who paced it, both or the hello is bad */
	h.rate = 625e6;
	h.paced_by = PACED_APP;
	j = ctl_hello_build(&h);
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.rate == 625e6 && back.paced_by == PACED_APP);
	ctl_hello_free(&back);
	json_object_set_new(j, "paced_by", json_string("magic\x1b"));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "paced_by") != NULL && !strchr(err, '\x1b'));
	ctl_hello_free(&back);
	json_object_set_new(j, "rate", json_real(1e300));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	ctl_hello_free(&back);
	json_decref(j);
	/* issue 26: a deciding hello, --omit and the sender's own CPU */
	h.decide = 1;
	h.omit_s = 2;
	h.self_cpu_s = 1.25;
	j = ctl_hello_build(&h);
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.decide == 1 && back.omit_s == 2 && back.self_cpu_s == 1.25);
	ctl_hello_free(&back);
	json_object_set_new(j, "omit_s", json_real(3601));
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "omit_s") != NULL);
	ctl_hello_free(&back);
	json_object_del(j, "omit_s");
	json_object_del(j, "decide");
	json_object_del(j, "self_cpu_s");
	T_CHECK(ctl_hello_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.decide == 0 && back.omit_s == 0 && isnan(back.self_cpu_s));
	ctl_hello_free(&back);
	json_decref(j);
}

/* The next frame after a deciding hello's report. */
static void nexts(void)
{
	struct ctl_next n = {.more = 1, .soak_next = 1, .rerun = 1,
			     .steal_pct = 0.5, .outside_pct = 30,
			     .steal_max = 2, .outside_max = 5};
	struct ctl_next back;
	char err[256];
	json_t *j = ctl_next_build(&n);

	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.more == 1 && back.soak_next == 1 && back.rerun == 1 &&
		back.outside_pct == 30 && back.outside_max == 5);
	json_object_set_new(j, "outside_pct", json_real(101));
	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "outside_pct") != NULL);
	json_object_set_new(j, "outside_pct", json_null()); /* not known */
	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(isnan(back.outside_pct));
	json_object_del(j, "more");
	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "field \"more\" missing or not a boolean");
	json_decref(j);
	n = (struct ctl_next){.more = 0, .soak_next = -1};
	j = ctl_next_build(&n);
	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(!back.more && back.soak_next == -1 && !back.rerun);
	json_object_set_new(j, "type", json_string("ttcp-sf-hello/1"));
	T_CHECK(ctl_next_parse(j, &back, err, sizeof(err)) == -EINVAL);
	json_decref(j);
}

static void reports(void)
{
	struct cpu_sample cpu = {.ok = 1, .busy_pct = 42, .ncpu = 2,
				 .elapsed_s = 1};
	struct ctl_report r = {.bytes = 99, .calls = 3, .lost = -1,
			       .zc_copied_pct = NAN, .elapsed_s = 0.5};
	struct ctl_report back;
	char err[256];
	json_t *j;

	snprintf(cpu.meter, sizeof(cpu.meter), "procstat");
	snprintf(cpu.scope, sizeof(cpu.scope), "box");
	snprintf(r.recv_method, sizeof(r.recv_method), "read");
	snprintf(r.hostname, sizeof(r.hostname), "h");
	j = ctl_report_build(&r, &cpu, 1);
	T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.bytes == 99 && back.ncpu == 1 &&
		back.cpu[0].busy_pct == 42);
	T_STREQ(back.recv_method, "read");
	T_CHECK(back.omit_s == 0 && back.omit_bytes == 0 &&
		back.self_cpu_s == 0);
	ctl_report_free(&back);
	json_decref(j);
	/* what the receiver left out, and its own CPU */
	r.omit_s = 0.5;
	r.omit_bytes = 40;
	r.self_cpu_s = 0.25;
	j = ctl_report_build(&r, &cpu, 1);
	T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == 0);
	T_CHECK(back.omit_s == 0.5 && back.omit_bytes == 40 &&
		back.self_cpu_s == 0.25);
	ctl_report_free(&back);
	json_object_set_new(j, "omit_bytes", json_integer(100));
	T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "omit_bytes") != NULL);
	ctl_report_free(&back);
	json_object_set_new(j, "bytes", json_integer(-1));
	T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "bytes") != NULL);
	ctl_report_free(&back);
	json_decref(j);
	{
		/* the flows' TCP facts come back, each checked */
		struct tcpinfo t[2] = {
			{.retrans = 3, .srtt_us = 90, .cwnd = 10,
			 .ssthresh = TCPINFO_INFINITE, .busy_us = 100,
			 .sndbuf_limited_us = 50, .pacing_rate = ~0ull,
			 .flows = 1},
			{.retrans = 4, .cwnd = 12, .ssthresh = 7,
			 .delivery_rate = 125000000, .flows = 1}};

		r.ntcp = 2;
		r.tcp = t;
		j = ctl_report_build(&r, &cpu, 1);
		T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == 0);
		T_CHECK(back.ntcp == 2 && !memcmp(back.tcp, t, sizeof(t)));
		ctl_report_free(&back);
		json_object_set_new(json_array_get(json_object_get(j, "tcp"), 1),
				    "sndbuf_limited_us", json_integer(1));
		T_CHECK(ctl_report_parse(j, &back, err, sizeof(err)) == -EINVAL);
		T_STREQ(err, "field \"tcp\": flow 2: TCP facts: field \"sndbuf_limited_us\" out of range (0 to 0)");
		ctl_report_free(&back);
		json_decref(j);
	}
}

/* A frame that is no object, of another type, or with a bad "type":
 * each parser says which, in its own words. */
static void types(void)
{
	struct ctl_hello h;
	struct ctl_report r;
	struct ctl_next n;
	json_t *a = json_array(), *o = json_pack("{s:s}", "type", "other"),
	       *bad = json_pack("{s:i}", "type", 7);
	char err[256];

	err[0] = 0;
	T_CHECK(ctl_hello_parse(a, &h, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "hello is not an object");
	err[0] = 0;
	T_CHECK(ctl_hello_parse(o, &h, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "not a ttcp-sf hello");
	err[0] = 0;
	T_CHECK(ctl_report_parse(a, &r, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "not a ttcp-sf report");
	ctl_report_free(&r);
	err[0] = 0;
	T_CHECK(ctl_report_parse(o, &r, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "not a ttcp-sf report");
	ctl_report_free(&r);
	err[0] = 0;
	T_CHECK(ctl_next_parse(a, &n, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "not a ttcp-sf next frame");
	err[0] = 0;
	T_CHECK(ctl_next_parse(o, &n, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "not a ttcp-sf next frame");
	/* a "type" that is no string: the field's fault, said as such */
	err[0] = 0;
	T_CHECK(ctl_hello_parse(bad, &h, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "field \"type\" missing or not a short string");
	err[0] = 0;
	T_CHECK(ctl_next_parse(bad, &n, err, sizeof(err)) == -EINVAL);
	T_STREQ(err, "field \"type\" missing or not a short string");
	json_decref(a);
	json_decref(o);
	json_decref(bad);
}

int main(void)
{
	dir_setups();
	rr_setups();
	hellos();
	nexts();
	reports();
	types();
	return t_done();
}
