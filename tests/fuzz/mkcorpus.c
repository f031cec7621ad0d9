/*
 * mkcorpus.c: writes the seed inputs of every fuzz target, built with the
 * library's own encoders where it has them, so the seeds follow the wire
 * formats: valid messages of every type, then the edge cases (truncated,
 * too long, out of range, bad magic). Each target's input layout is in
 * tests/fuzz/README.md. The checked-in corpus is these seeds plus what
 * libFuzzer found, minimised with -merge=1 (tests/fuzz/README.md).
 *
 * Usage: mkcorpus OUTDIR SRCDIR   (writes OUTDIR/NAME/seed-*; SRCDIR is
 * the source tree, for the reference result documents in results/seeds)
 */
#include "config.h"
#include "cpujson.h"
#include "chatframe.h"
#include "meter.h"
#include "p9.h"
#include "peerrep.h"
#include "ttcp.h"
#include "zcwire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *outdir;

/* A growing byte buffer. */
struct buf {
	uint8_t *b;
	size_t n, cap;
};

static void add(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->b = realloc(b->b, b->cap);
		if (!b->b)
			abort();
	}
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void add8(struct buf *b, uint8_t v)
{
	add(b, &v, 1);
}

static void adds(struct buf *b, const char *s)
{
	add(b, s, strlen(s));
}

static void addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct buf *b, const char *fmt, ...)
{
	char t[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	add(b, t, (size_t)n);
}

static void reset(struct buf *b)
{
	b->n = 0;
}

/* Write OUTDIR/target/seed-name. */
static void put(const char *target, const char *name, const struct buf *b)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/seed-%s", outdir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->b, 1, b->n, f) != b->n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* [mode][split] then the bytes of a stream. */
static void put_ms(const char *target, const char *name, uint8_t mode,
		   uint8_t split, const struct buf *s)
{
	struct buf b = {0};

	add8(&b, mode);
	add8(&b, split);
	add(&b, s->b, s->n);
	put(target, name, &b);
	free(b.b);
}

/* ---- peer reports (peerrep, ttcpctl) ---- */

static void add_frame(struct buf *b, json_t *j)
{
	uint8_t *f;
	size_t n = peerrep_encode(j, &f);

	add(b, f, n);
	free(f);
	json_decref(j);
}

/* A sample's head: its meter, scope and busy figure over 2.5 s of 2 CPUs. */
static void sample(struct cpu_sample *s, const char *meter, const char *scope,
		   double busy)
{
	snprintf(s->meter, sizeof(s->meter), "%s", meter);
	s->ok = 1;
	snprintf(s->scope, sizeof(s->scope), "%s", scope);
	s->ncpu = 2;
	s->busy_pct = busy;
	s->elapsed_s = 2.5;
}

/* One sample of each meter, as real ones look. */
static int samples(struct cpu_sample *s)
{
	memset(s, 0, sizeof(*s) * 5);
	sample(&s[0], "soak", "box", 50.0);
	s[0].have_percpu = 1;
	s[0].percpu_busy[0] = 99.5;
	s[0].percpu_busy[1] = 0.5;
	snprintf(s[0].note, sizeof(s[0].note), "2 soakers, cgroup v1");
	sample(&s[1], "procstat", "box", 49.9);
	s[1].user_pct = 40;
	s[1].sys_pct = 8;
	s[1].softirq_pct = 1.9;
	s[1].idle_pct = 50.1;
	sample(&s[2], "rusage", "process", 49.0);
	s[2].utime_s = 2.4;
	s[2].stime_s = 0.05;
	s[2].nvcsw = 12;
	sample(&s[3], "perf", "process", 49.0);
	s[3].ncounters = 2;
	snprintf(s[3].ctr[0].name, sizeof(s[3].ctr[0].name), "task-clock");
	s[3].ctr[0].ok = 1;
	s[3].ctr[0].value = 2.45e9;
	s[3].ctr[0].per_sec = 9.8e8;
	snprintf(s[3].ctr[1].name, sizeof(s[3].ctr[1].name), "cycles");
	snprintf(s[3].ctr[1].why, sizeof(s[3].ctr[1].why), "no PMU");
	sample(&s[4], "sched", "box", 51.3);
	s[4].sched.self_pct = s[4].sched.self_task_pct = 49.9;
	s[4].sched.other_pct = 1.3;
	s[4].sched.idle_pct = 48.1;
	s[4].sched.steal_pct = 0.6;
	s[4].sched.vec_pct[3] = 0.4;
	s[4].sched.vec_n[3] = 120;
	s[4].sched.traced = 1u << ZS_HI_DEVICE;
	s[4].sched.switches = 174;
	s[4].sched.missed = 5;
	snprintf(s[4].note, sizeof(s[4].note), "traced: sched_switch");
	return 5;
}

static json_t *host(void)
{
	return json_pack("{s:s, s:s, s:i}", "hostname", "vm", "kernel_release",
			 "6.1.0", "online_cpus", 2);
}

static json_t *report(const struct cpu_sample *s, int n)
{
	json_t *cpu = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(cpu, cpu_sample_to_json(&s[i]));
	return json_pack("{s:o, s:o}", "host", host(), "cpu", cpu);
}

static json_t *ttcp_hello(int more)
{
	struct ctl_hello h = {
		.buflen = 32768, .bytes = 655360000, .sample = 0, .more = more};

	snprintf(h.method, sizeof(h.method), "sendfile");
	snprintf(h.source, sizeof(h.source), "file");
	snprintf(h.proto, sizeof(h.proto), "tcp");
	snprintf(h.hostname, sizeof(h.hostname), "vm");
	snprintf(h.boot_id, sizeof(h.boot_id),
		 "0f3c2a8e-8d5e-4a4b-9a43-2b1b5e6c7d8e");
	return ctl_hello_build(&h);
}

static json_t *ttcp_report(const struct cpu_sample *s, int n, int udp)
{
	json_t *j = report(s, n);

	json_object_set_new(j, "type", json_string("ttcp-sf-report/1"));
	json_object_set_new(j, "recv_method", json_string("read"));
	json_object_set_new(j, "hostname", json_string("vm"));
	json_object_set_new(j, "boot_id", json_string("0f3c2a8e"));
	json_object_set_new(j, "bytes", json_integer(655360000));
	json_object_set_new(j, "calls", json_integer(20000));
	json_object_set_new(j, "bad_bytes", json_integer(0));
	json_object_set_new(j, "verified", json_true());
	json_object_set_new(j, "elapsed_s", json_real(0.25));
	json_object_set_new(j, "dgrams", json_integer(udp ? 20000 : 0));
	json_object_set_new(j, "lost", udp ? json_integer(3) : json_null());
	json_object_set_new(j, "zc_copied_pct",
			    udp ? json_null() : json_real(100.0));
	return j;
}

static void gen_peerrep(void)
{
	static const char *const bad_json[] = {
		"[1,2]",
		"{\"cpu\":",
		"{\"cpu\":[{\"meter\":\"x\"}]}",
		("{\"cpu\":[{\"meter\":\"soak\",\"ok\":true,\"ncpu\":0,"
		 "\"busy_pct\":150,\"elapsed_s\":-1}]}"),
		"{\"cpu\":[1,2,3,4,5]}",
		"{\"a\":1,\"a\":2}"};
	struct cpu_sample s[5];
	struct buf b = {0}, f = {0};
	int n = samples(s), m;
	size_t i;

	for (m = 0; m < 2; m++) {
		const char *T = m ? "1" : "0";
		char name[64];

		reset(&b);
		add_frame(&b, report(s, n));
		snprintf(name, sizeof(name), "report-%s", T);
		put_ms("peerrep", name, (uint8_t)m, 0, &b);
		snprintf(name, sizeof(name), "report-split-%s", T);
		put_ms("peerrep", name, (uint8_t)m, 3, &b);
		reset(&b);
		add_frame(&b, ttcp_hello(1));
		add_frame(&b, ttcp_report(s, 2, 0));
		add_frame(&b, ttcp_report(s + 2, 2, 1));
		snprintf(name, sizeof(name), "ttcp-%s", T);
		put_ms("peerrep", name, (uint8_t)m, 7, &b);
		b.n -= 5; /* the last frame cut short */
		snprintf(name, sizeof(name), "truncated-%s", T);
		put_ms("peerrep", name, (uint8_t)m, 12, &b);
	}
	for (i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++) {
		char name[32];
		uint32_t be = htonl((uint32_t)strlen(bad_json[i]));

		reset(&b);
		adds(&b, "ZCBR");
		add(&b, &be, 4);
		adds(&b, bad_json[i]);
		snprintf(name, sizeof(name), "bad-%zu", i);
		put_ms("peerrep", name, (uint8_t)(i & 1), 0, &b);
	}
	/* regression: strings cut inside a UTF-8 sequence (lib/cpu/meter.c) */
	reset(&b);
	{
		json_t *j = report(s, 0), *c;

		c = json_pack("{s:s, s:b, s:s}", "meter",
			      "abcdefghijklmn\xc3\xa9", "ok", 0, "why", "x");
		json_object_set_new(
			c, "counters",
			json_pack(
				"{s:{s:b, s:f}}",
				"ccccccccccccccccccccccccccccccccccccccccccccc"
				"cccccccccccccccc\xe2\x82\xac",
				"ok", 1, "value", 1.0));
		json_array_append_new(json_object_get(j, "cpu"), c);
		add_frame(&b, j);
	}
	put_ms("peerrep", "regress-utf8-cut", 0, 0, &b);
	reset(&b);
	adds(&b, "ZCBR\xff\xff\xff\xff");
	put_ms("peerrep", "huge", 0, 0, &b);
	reset(&b);
	add(&b, "ZCBR\0\0\0\0", 8);
	put_ms("peerrep", "empty", 1, 0, &b);
	reset(&b);
	adds(&b, "GET / HTTP/1.0\r\n\r\n");
	put_ms("peerrep", "http", 1, 0, &b);
	free(b.b);
	free(f.b);
}

static void gen_ttcpctl(void)
{
	struct cpu_sample s[5];
	struct buf b = {0};
	int n = samples(s);
	json_t *j;

	reset(&b);
	add_frame(&b, ttcp_hello(0));
	put_ms("ttcpctl", "hello", 0, 0, &b);
	reset(&b);
	add_frame(&b, ttcp_report(s, n, 0));
	put_ms("ttcpctl", "report", 0, 0, &b);
	reset(&b);
	add_frame(&b, ttcp_report(s, 1, 1));
	put_ms("ttcpctl", "report-udp", 1, 5, &b);
	reset(&b);
	add_frame(&b, ttcp_hello(1));
	add_frame(&b, ttcp_report(s + 1, 1, 0));
	put_ms("ttcpctl", "exchange", 1, 9, &b);
	reset(&b);
	j = ttcp_hello(0); /* --rate 1G, paced by the kernel */
	json_object_set_new(j, "rate", json_real(125e6));
	json_object_set_new(j, "paced_by", json_string("kernel"));
	add_frame(&b, j);
	put_ms("ttcpctl", "hello-rate", 0, 0, &b);
	reset(&b);
	j = ttcp_report(s, 1, 0); /* two flows' TCP facts */
	{
		struct tcpinfo t = {.retrans = 12, .bytes_retrans = 17376,
				    .srtt_us = 1200, .rttvar_us = 310,
				    .min_rtt_us = 40, .cwnd = 45,
				    .ssthresh = 30, .mss = 1448,
				    .delivery_rate = 118200000,
				    .pacing_rate = ~0ull, .busy_us = 2000000,
				    .rwnd_limited_us = 10000,
				    .sndbuf_limited_us = 62000,
				    .bytes_acked = 250000001,
				    .rcv_rtt_us = 900, .flows = 1};
		json_t *a = json_array();

		json_array_append_new(a, tcpinfo_json(&t));
		t.ssthresh = TCPINFO_INFINITE;
		json_array_append_new(a, tcpinfo_json(&t));
		json_object_set_new(j, "tcp", a);
	}
	add_frame(&b, j);
	put_ms("ttcpctl", "report-tcp", 0, 0, &b);
	reset(&b);
	j = ttcp_hello(0);
	json_object_set_new(j, "sample", json_integer(99999));
	add_frame(&b, j);
	put_ms("ttcpctl", "bad-sample", 0, 0, &b);
	reset(&b);
	j = ttcp_report(s, 1, 0);
	json_object_set_new(j, "elapsed_s", json_real(1e9));
	json_object_set_new(j, "bytes", json_integer(-1));
	add_frame(&b, j);
	put_ms("ttcpctl", "bad-report", 0, 0, &b);
	reset(&b);
	{ /* -P 4 -R, and --bidir by duration: the setup frames */
		struct dir_setup st = {.reverse = 1, .buflen = 8192,
				       .nbuf = 2048, .flows = 4, .flow = 3};

		add_frame(&b, dir_setup_build(&st));
		st = (struct dir_setup){.bidir = 1, .buflen = 65536,
					.duration = 2.5, .hot = 1, .flows = 1};
		add_frame(&b, dir_setup_build(&st));
		/* -P 2 -R --rate 1G --rate-per-flow */
		st = (struct dir_setup){.reverse = 1, .buflen = 32768,
					.duration = 2, .flows = 2, .flow = 1,
					.rate = 125e6, .rate_per_flow = 1};
		add_frame(&b, dir_setup_build(&st));
	}
	put_ms("ttcpctl", "setup", 0, 0, &b);
	reset(&b);
	{ /* --rr -P 2, --crr's end, UDP_RR's with its count */
		struct rr_setup su[] = {
			{.kind = RR_TCP, .req = 1, .resp = 1, .flows = 2},
			{.kind = RR_CRR_END, .req = 0, .resp = 0, .flows = 1},
			{.kind = RR_UDP, .req = 1400, .resp = 64, .flows = 1},
			{.kind = RR_UDP_END, .req = 41, .resp = 0, .flows = 1},
		};
		unsigned char f[RR_SETUP];
		size_t i;

		for (i = 0; i < sizeof(su) / sizeof(su[0]); i++) {
			rr_setup_put(f, &su[i]);
			add(&b, f, sizeof(f));
		}
	}
	put_ms("ttcpctl", "rr-setup", 2, 0, &b);
	free(b.b);
}

/* ---- cyclesoak --serve (soakproto) ---- */

/* A report line's JSON: {"host":..., "cpu":[...], "window":1, ...}. */
static void add_report_line(struct buf *b, const struct cpu_sample *s, int n,
			    int with_host)
{
	json_t *j = report(s, n);
	char *t;

	if (!with_host)
		json_object_del(j, "host");
	json_object_set_new(j, "window", json_integer(1));
	json_object_set_new(j, "elapsed_s", json_real(2.5));
	t = json_dumps(j, JSON_COMPACT);
	addf(b, "OK %s\n", t);
	free(t);
	json_decref(j);
}

static void gen_soakproto(void)
{
	struct cpu_sample s[5];
	struct buf b = {0};
	int n = samples(s), i;

	adds(&b, "HELLO\nPING\nSTART soak,procstat\nREPORT\nSTOP\n"
		 "CALIB\nHOST\nQUIT\n");
	put_ms("soakproto", "session", 0, 0, &b);
	put_ms("soakproto", "session-split", 0, 2, &b);
	reset(&b);
	adds(&b, "FROB\n\x01\x02\r\n   \nSTART ;;\nSTOP x\nstart\tSOAK\n"
		 "ping \r\nSTART " /* an argument of 300 letters */);
	for (i = 0; i < 300; i++)
		adds(&b, "a");
	adds(&b, "\n");
	put_ms("soakproto", "bad", 0, 5, &b);
	reset(&b);
	for (i = 0; i < 5000; i++)
		adds(&b, "A");
	adds(&b, "\nPING\n");
	put_ms("soakproto", "longline", 0, 12, &b);
	reset(&b);
	adds(&b, "OK zcbench-soak/1 host=vm cpus=2 default=soak\nERR no window "
		 "open\nOK\nERR\nOKAY\n");
	put_ms("soakproto", "replies", 0, 0, &b);

	/* what a server answers the client's sequence */
	reset(&b);
	adds(&b, "OK zcbench-soak/1 host=vm cpus=2 default=soak\nOK 1\n");
	add_report_line(&b, s, n, 1); /* REPORT */
	add_report_line(&b, s, n, 1); /* STOP */
	adds(&b, "OK 2\n");	      /* START soak,procstat */
	adds(&b, "OK {\"soak\":{\"rate\":1234.5,\"cpus\":2}}\n"); /* CALIB */
	add_report_line(&b, s, 1, 1);				  /* STOP */
	put_ms("soakproto", "client", 1, 0, &b);
	put_ms("soakproto", "client-split", 1, 4, &b);
	reset(&b);
	adds(&b, "OK zcbench-soak/1 host=vm cpus=2 default=procstat\nOK 1\n");
	add_report_line(&b, s + 1, 1, 0);	/* REPORT */
	add_report_line(&b, s + 1, 1, 0);	/* STOP */
	adds(&b, "ERR unknown meter soak\n");	/* START soak,procstat */
	adds(&b, "OK {\"hostname\":\"vm\"}\n"); /* HOST */
	adds(&b, "ERR not calibrated\n");	/* CALIB */
	adds(&b, "ERR no window open\n");	/* STOP */
	put_ms("soakproto", "client-errors", 1, 9, &b);
	reset(&b);
	adds(&b, "OK zcbench-soak/2\n");
	put_ms("soakproto", "client-version", 1, 0, &b);
	reset(&b);
	adds(&b, "OK zcbench-soak/1\nOK 1\nOK [1]\nOK {\"cpu\":[{}]}\nOK 2\n"
		 "OK null\nOK {\n");
	put_ms("soakproto", "client-badjson", 1, 1, &b);
	free(b.b);
}

/* ---- chatbench frames (chatframe) ---- */

static void add_msg(struct buf *b, uint32_t size, uint16_t room,
		    uint16_t sender, uint32_t seq)
{
	uint8_t f[CHAT_FRAME_MAX];

	chatframe_msg(f, size, room, sender, seq);
	add(b, f, size);
}

static void add_simple(struct buf *b, enum chat_type t, uint16_t room,
		       uint16_t sender)
{
	uint8_t f[CHAT_HDR];

	chatframe_simple(f, t, room, sender);
	add(b, f, sizeof(f));
}

static void add_join(struct buf *b, uint16_t room, uint16_t sender,
		     uint32_t rooms, uint32_t users, uint32_t messages,
		     uint32_t size, uint32_t flags)
{
	struct chat_join j = {.token = 0x1122334455667788ull,
			      .rooms = rooms,
			      .users = users,
			      .messages = messages,
			      .size = size,
			      .flags = flags};
	uint8_t f[CHAT_JOIN_LEN];

	chatframe_join(f, room, sender, &j);
	add(b, f, sizeof(f));
}

static void add_abort(struct buf *b, uint16_t room, uint16_t sender,
		      const char *why)
{
	uint8_t f[CHAT_HDR + CHAT_REASON_MAX];

	add(b, f, chatframe_abort(f, room, sender, why));
}

/* mode 0: the receiver's shape [size u16][users][messages][user][room] */
static void rx_shape(struct buf *b, uint16_t size, uint8_t users,
		     uint8_t messages, uint8_t user, uint8_t room)
{
	add8(b, (uint8_t)(size >> 8));
	add8(b, (uint8_t)size);
	add8(b, (uint8_t)(users - 2));
	add8(b, (uint8_t)(messages - 1));
	add8(b, user);
	add8(b, room);
}

/* modes 1, 2: a record sending f to connection conn */
static void rec(struct buf *b, int conn, const struct buf *f)
{
	if (f->n <= 256) {
		add8(b, (uint8_t)conn);
		add8(b, (uint8_t)(f->n - 1));
	} else {
		add8(b, (uint8_t)(conn | 2 << 2));
		add8(b, (uint8_t)(f->n >> 8));
		add8(b, (uint8_t)f->n);
	}
	add(b, f->b, f->n);
}

static void rec_close(struct buf *b, int conn)
{
	add8(b, (uint8_t)(conn | 3 << 2));
}

static void rec_join(struct buf *b, int conn, uint16_t room, uint16_t user,
		     uint32_t rooms, uint32_t users, uint32_t messages,
		     uint32_t size, uint32_t flags)
{
	struct buf f = {0};

	add_join(&f, room, user, rooms, users, messages, size, flags);
	rec(b, conn, &f);
	free(f.b);
}

static void rec_msg(struct buf *b, int conn, uint32_t size, uint16_t room,
		    uint16_t sender, uint32_t seq)
{
	struct buf f = {0};

	add_msg(&f, size, room, sender, seq);
	rec(b, conn, &f);
	free(f.b);
}

static void rec_simple(struct buf *b, int conn, enum chat_type t)
{
	struct buf f = {0};

	add_simple(&f, t, 0, 0);
	rec(b, conn, &f);
	free(f.b);
}

/* A STATS frame with a run kind (paired runs) on connection conn. */
static void rec_stats(struct buf *b, int conn, enum chat_type t,
		      enum chat_run_kind kind)
{
	struct buf f = {0};
	uint8_t h[CHAT_HDR];

	chatframe_stats(h, t, kind);
	add(&f, h, sizeof(h));
	rec(b, conn, &f);
	free(f.b);
}

static void gen_chat_rx(void)
{
	struct buf b = {0};

	rx_shape(&b, 100, 3, 3, 0, 1);
	add_simple(&b, CHAT_READY, 1, 0);
	add_msg(&b, 100, 1, 1, 0);
	add_msg(&b, 100, 1, 2, 0);
	add_msg(&b, 100, 1, 1, 1);
	add_msg(&b, 100, 1, 2, 1);
	add_msg(&b, 100, 1, 2, 2);
	add_msg(&b, 100, 1, 1, 2);
	put_ms("chatframe", "rx-run", 0, 0, &b);
	put_ms("chatframe", "rx-run-split", 0, 6, &b);
	add_abort(&b, 1, 2,
		  "room 1 user 2 (127.0.0.1:4000) disconnected "
		  "mid-run after sending 2 of 3 messages");
	put_ms("chatframe", "rx-abort", 0, 11, &b);
	reset(&b);
	rx_shape(&b, 16, 2, 1, 1, 0);
	add_simple(&b, CHAT_READY, 0, 1);
	add_msg(&b, 16, 0, 0, 0);
	add_msg(&b, 16, 0, 0, 1);  /* seq beyond the run */
	add_msg(&b, 16, 0, 1, 0);  /* its own */
	add_msg(&b, 16, 3, 0, 0);  /* another room */
	add_msg(&b, 100, 0, 0, 0); /* another size */
	put_ms("chatframe", "rx-wrong", 0, 1, &b);
	reset(&b);
	rx_shape(&b, 100, 2, 2, 0, 0);
	add_join(&b, 0, 1, 1, 2, 2, 100, CHAT_JOIN_NODELAY);
	add_join(&b, 0, 0, 0, 0, 0, 0, CHAT_JOIN_CTRL);
	add_join(&b, 5, 9, 2, 3, 0, 8, 0x80);
	add_simple(&b, CHAT_STATS_START, 0, 0);
	add_simple(&b, CHAT_STATS_STOP, 0, 0);
	add_abort(&b, 0, 0,
		  "\x01"
		  "bad\xff");
	put_ms("chatframe", "rx-types", 0, 2, &b);
	reset(&b);
	rx_shape(&b, 100, 2, 2, 0, 0);
	adds(&b, "CH\x01\x01\xff\xff\xff\xff");
	put_ms("chatframe", "rx-huge", 0, 0, &b);
	reset(&b);
	rx_shape(&b, 100, 2, 2, 0, 0);
	adds(&b, "CH\x02\x01");
	put_ms("chatframe", "rx-version", 0, 0, &b);
	reset(&b);
	rx_shape(&b, 100, 2, 2, 0, 0);
	adds(&b, "GET / HTTP/1.0\r\n\r\n");
	put_ms("chatframe", "rx-http", 0, 0, &b);
	free(b.b);
}

static void gen_chat_server(void)
{
	struct buf b = {0};
	int m, u, q;

	for (m = 1; m <= 2; m++) {
		const char *model = m == 1 ? "epoll" : "threads";
		char name[64];

		/* a whole run: 2 users, 2 messages of 20 bytes */
		reset(&b);
		rec_join(&b, 0, 0, 0, 1, 2, 2, 20, 0);
		rec_join(&b, 1, 0, 1, 1, 2, 2, 20, CHAT_JOIN_NODELAY);
		for (q = 0; q < 2; q++)
			for (u = 0; u < 2; u++)
				rec_msg(&b, u, 20, 0, (uint16_t)u, (uint32_t)q);
		rec_close(&b, 0);
		rec_close(&b, 1);
		snprintf(name, sizeof(name), "server-run-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		/* one leaves early: the other gets ABORT */
		reset(&b);
		rec_join(&b, 0, 1, 0, 2, 3, 1, 64, 0);
		rec_join(&b, 1, 1, 1, 2, 3, 1, 64, 0);
		rec_join(&b, 2, 1, 2, 2, 3, 1, 64, 0);
		rec_msg(&b, 0, 64, 1, 0, 0);
		rec_close(&b, 0);
		rec_msg(&b, 1, 64, 1, 1, 0);
		snprintf(name, sizeof(name), "server-leave-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		/* the control connection: a CPU window */
		reset(&b);
		rec_join(&b, 3, 0, 0, 0, 0, 0, 0, CHAT_JOIN_CTRL);
		rec_simple(&b, 3, CHAT_STATS_START);
		rec_simple(&b, 3, CHAT_STATS_STOP);
		rec_simple(&b, 3, CHAT_STATS_STOP);
		snprintf(name, sizeof(name), "server-ctrl-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		/* paired runs: the probe, then metered, unmetered, metered */
		reset(&b);
		rec_join(&b, 3, 0, 0, 0, 0, 0, 0, CHAT_JOIN_CTRL);
		rec_stats(&b, 3, CHAT_STATS_START, CHAT_RUN_UNSAID);
		rec_stats(&b, 3, CHAT_STATS_STOP, CHAT_RUN_UNSAID);
		rec_stats(&b, 3, CHAT_STATS_START, CHAT_RUN_METERED);
		rec_stats(&b, 3, CHAT_STATS_STOP, CHAT_RUN_UNMETERED);
		rec_stats(&b, 3, CHAT_STATS_START, CHAT_RUN_UNMETERED);
		rec_stats(&b, 3, CHAT_STATS_STOP, CHAT_RUN_METERED);
		rec_stats(&b, 3, CHAT_STATS_START, 7); /* unknown: unsaid */
		rec_stats(&b, 3, CHAT_STATS_STOP, CHAT_RUN_UNSAID);
		snprintf(name, sizeof(name), "server-ctrl-pairs-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		/* misbehaving members */
		reset(&b);
		rec_join(&b, 0, 0, 0, 1, 2, 2, 20, 0);
		rec_msg(&b, 0, 20, 0, 0, 0);	       /* before READY */
		rec_join(&b, 1, 0, 0, 1, 2, 2, 20, 0); /* taken slot */
		rec_join(&b, 2, 0, 1, 1, 3, 2, 20, 0); /* other shape */
		rec_join(&b, 3, 0, 1, 1, 1, 2, 20, 0); /* one user */
		snprintf(name, sizeof(name), "server-bad-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		reset(&b);
		rec_join(&b, 0, 0, 0, 1, 2, 2, 20, 0);
		rec_join(&b, 1, 0, 1, 1, 2, 2, 20, 0);
		rec_msg(&b, 0, 20, 0, 0, 1); /* wrong seq */
		rec_msg(&b, 1, 20, 0, 0, 0); /* as another user */
		snprintf(name, sizeof(name), "server-wrong-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		reset(&b);
		{
			struct buf f = {0};

			adds(&f, "GET / HTTP/1.0\r\n\r\n");
			rec(&b, 0, &f);
			free(f.b);
		}
		rec_join(&b, 1, 0, 0, 1, 2, 1, 300, 0);
		rec_join(&b, 2, 0, 1, 1, 2, 1, 300, 0);
		rec_msg(&b, 1, 300, 0, 0, 0);
		snprintf(name, sizeof(name), "server-misc-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
		/* 100 messages each in one go: more than the threads model's
		 * log holds, more than one epoll batch */
		reset(&b);
		rec_join(&b, 0, 0, 0, 1, 2, 100, 16, 0);
		rec_join(&b, 1, 0, 1, 1, 2, 100, 16, 0);
		for (u = 0; u < 2; u++) {
			struct buf f = {0};

			for (q = 0; q < 100; q++)
				add_msg(&f, 16, 0, (uint16_t)u, (uint32_t)q);
			rec(&b, u, &f);
			free(f.b);
		}
		snprintf(name, sizeof(name), "server-many-%s", model);
		put_ms("chatframe", name, (uint8_t)m, 0, &b);
	}
	free(b.b);
}

/* mode 3: [shape][size-16], per connection [len u16][what it gets] */
static void add_script(struct buf *b, const struct buf *s)
{
	add8(b, (uint8_t)(s->n >> 8));
	add8(b, (uint8_t)s->n);
	add(b, s->b, s->n);
}

static void gen_chat_client(void)
{
	struct buf b = {0}, s0 = {0}, s1 = {0};
	int model;

	for (model = 0; model < 2; model++) {
		char name[64];

		/* 1 room, 2 users, 2 messages of 20 bytes: all delivered */
		reset(&b);
		reset(&s0);
		reset(&s1);
		add8(&b, (uint8_t)(1 << 2 | model << 4));
		add8(&b, 4);
		add_simple(&s0, CHAT_READY, 0, 0);
		add_msg(&s0, 20, 0, 1, 0);
		add_msg(&s0, 20, 0, 1, 1);
		add_simple(&s1, CHAT_READY, 0, 1);
		add_msg(&s1, 20, 0, 0, 0);
		add_msg(&s1, 20, 0, 0, 1);
		add_script(&b, &s0);
		add_script(&b, &s1);
		snprintf(name, sizeof(name), "client-run-%s",
			 model ? "epoll" : "threads");
		put_ms("chatframe", name, 3, 0, &b);
		snprintf(name, sizeof(name), "client-run-split-%s",
			 model ? "epoll" : "threads");
		put_ms("chatframe", name, 3, 3, &b);
		/* the room broken up */
		reset(&b);
		reset(&s1);
		add8(&b, (uint8_t)(1 << 2 | model << 4 | 1 << 5));
		add8(&b, 4);
		add_simple(&s1, CHAT_READY, 0, 1);
		add_abort(&s1, 0, 0, "room 0 user 0 disconnected");
		add_script(&b, &s0);
		add_script(&b, &s1);
		snprintf(name, sizeof(name), "client-abort-%s",
			 model ? "epoll" : "threads");
		put_ms("chatframe", name, 3, 0, &b);
		/* one message too many, and a wrong one */
		reset(&b);
		reset(&s1);
		add8(&b, (uint8_t)(model << 4));
		add8(&b, 0);
		add_simple(&s1, CHAT_READY, 0, 1);
		add_msg(&s1, 16, 0, 0, 0);
		add_msg(&s1, 16, 0, 0, 1);
		reset(&s0);
		add_simple(&s0, CHAT_READY, 0, 0);
		add_msg(&s0, 16, 0, 1, 0);
		add_msg(&s0, 16, 0, 0, 0);
		add_script(&b, &s0);
		add_script(&b, &s1);
		snprintf(name, sizeof(name), "client-wrong-%s",
			 model ? "epoll" : "threads");
		put_ms("chatframe", name, 3, 0, &b);
	}
	free(b.b);
	free(s0.b);
	free(s1.b);
}

/* ---- 9P replies (p9) ---- */

static void le16(struct buf *b, uint16_t v)
{
	add8(b, (uint8_t)v);
	add8(b, (uint8_t)(v >> 8));
}

static void le32(struct buf *b, uint32_t v)
{
	le16(b, (uint16_t)v);
	le16(b, (uint16_t)(v >> 16));
}

static void le64(struct buf *b, uint64_t v)
{
	le32(b, (uint32_t)v);
	le32(b, (uint32_t)(v >> 32));
}

/* A reply: size[4] type[1] tag[2] then body. */
static void r9(struct buf *b, uint8_t type, uint16_t tag,
	       const struct buf *body)
{
	le32(b, (uint32_t)(P9_HDRSZ + body->n));
	add8(b, type);
	le16(b, tag);
	add(b, body->b, body->n);
}

static void qid(struct buf *b, uint8_t type, uint64_t path)
{
	add8(b, type);
	le32(b, 1);
	le64(b, path);
}

static void rversion(struct buf *b, uint32_t msize, const char *v)
{
	struct buf x = {0};

	le32(&x, msize);
	le16(&x, (uint16_t)strlen(v));
	adds(&x, v);
	r9(b, P9_RVERSION, P9_NOTAG, &x);
	free(x.b);
}

static void rqid(struct buf *b, uint8_t type, int iounit)
{
	struct buf x = {0};

	qid(&x, 0, 42);
	if (iounit >= 0)
		le32(&x, (uint32_t)iounit);
	r9(b, type, 0, &x);
	free(x.b);
}

static void rwalk(struct buf *b, uint16_t n)
{
	struct buf x = {0};
	uint16_t i;

	le16(&x, n);
	for (i = 0; i < n; i++)
		qid(&x, i + 1 < n ? 0x80 : 0, 100 + i);
	r9(b, P9_RWALK, 0, &x);
	free(x.b);
}

static void rgetattr(struct buf *b)
{
	struct buf x = {0};
	int i;

	le64(&x, P9_GETATTR_BASIC);
	qid(&x, 0, 42);
	le32(&x, 0100644);
	le32(&x, 0);
	le32(&x, 0);
	for (i = 0; i < 15; i++) /* nlink .. data_version */
		le64(&x, i == 2 ? 1 << 20 : 1);
	r9(b, P9_RGETATTR, 0, &x);
	free(x.b);
}

static void rempty(struct buf *b, uint8_t type, uint16_t tag)
{
	struct buf x = {0};

	r9(b, type, tag, &x);
}

static void rlerror(struct buf *b, uint16_t tag, uint32_t ecode)
{
	struct buf x = {0};

	le32(&x, ecode);
	r9(b, P9_RLERROR, tag, &x);
	free(x.b);
}

static void rread(struct buf *b, uint16_t tag, uint32_t count)
{
	struct buf x = {0};
	uint32_t i;

	le32(&x, count);
	for (i = 0; i < count; i++)
		add8(&x, (uint8_t)('a' + i % 26));
	r9(b, P9_RREAD, tag, &x);
	free(x.b);
}

static void rwrite(struct buf *b, uint16_t tag, uint32_t count)
{
	struct buf x = {0};

	le32(&x, count);
	r9(b, P9_RWRITE, tag, &x);
	free(x.b);
}

/* The whole session of fuzz_p9 mode 1 answered well (qd 1, msize m). */
static void p9_session(struct buf *b, uint32_t m, int short_reads)
{
	uint32_t io = m - P9_IOHDRSZ, k;

	rversion(b, m, P9_VERSION);
	rqid(b, P9_RATTACH, -1);
	rwalk(b, 1);
	rwalk(b, 0);
	rwalk(b, 3);
	rqid(b, P9_RLOPEN, 0);
	rgetattr(b);
	rqid(b, P9_RLCREATE, (int)io);
	rread(b, 0, 100); /* pread 100 */
	if (short_reads) {
		rread(b, 0, 10); /* end of file at 10 */
	} else {
		for (k = 0; k < 3; k++)
			rread(b, 0, io);
		rread(b, 0, 5);
	}
	rwrite(b, 0, 100);			 /* pwrite 100 */
	rwrite(b, 0, io);			 /* pwrite 2 iomax */
	rwrite(b, 0, short_reads ? io / 2 : io); /* short: again */
	if (short_reads)
		rwrite(b, 0, io - io / 2);
	rread(b, 1, 60); /* the three tagged, reordered */
	rwrite(b, 2, 70);
	rread(b, 0, 50);
	rempty(b, P9_RCLUNK, 0);
	rempty(b, P9_RREMOVE, 0);
	rempty(b, P9_RUNLINKAT, 0);
}

/* [mode][split][o1][o2] then the stream */
static void put_p9_like(const char *target, const char *name, uint8_t mode,
			uint8_t split, uint8_t o1, uint8_t o2,
			const struct buf *s)
{
	struct buf b = {0};

	add8(&b, mode);
	add8(&b, split);
	add8(&b, o1);
	add8(&b, o2);
	add(&b, s->b, s->n);
	put(target, name, &b);
	free(b.b);
}

static void put_p9(const char *name, uint8_t mode, uint8_t split, uint8_t o1,
		   uint8_t o2, const struct buf *s)
{
	put_p9_like("p9", name, mode, split, o1, o2, s);
}

static void gen_p9(void)
{
	struct buf b = {0};
	int path;

	for (path = 0; path < 2; path++) {
		char name[64];

		reset(&b);
		p9_session(&b, 8192, 0);
		snprintf(name, sizeof(name), "session-%s",
			 path ? "direct" : "copy");
		put_p9(name, 1, 0, (uint8_t)(path << 2 | path << 3), 0, &b);
		snprintf(name, sizeof(name), "session-split-%s",
			 path ? "direct" : "copy");
		put_p9(name, 1, 5, (uint8_t)(path << 2 | path << 3), 0, &b);
		reset(&b);
		p9_session(&b, 512, 1);
		snprintf(name, sizeof(name), "session-small-%s",
			 path ? "direct" : "copy");
		put_p9(name, 1, 10, (uint8_t)(1 | path << 2 | path << 3), 0,
		       &b);
	}
	reset(&b);
	rversion(&b, 8192, P9_VERSION);
	rqid(&b, P9_RATTACH, -1);
	rwalk(&b, 0); /* a partial walk: ENOENT */
	rlerror(&b, 0, 2);
	rlerror(&b, 0, 13);
	rgetattr(&b);
	rlerror(&b, 0, 17);
	rlerror(&b, 0, 5);     /* pread: EIO */
	rlerror(&b, 0, 99999); /* not an errno */
	put_p9("rlerror", 1, 0, 0, 0, &b);
	reset(&b);
	rversion(&b, 1 << 20, P9_VERSION);
	put_p9("msize-too-big", 1, 0, 0, 0, &b);
	reset(&b);
	rversion(&b, 8192, "9P2000.u");
	put_p9("dialect", 1, 0, 0, 0, &b);
	reset(&b);
	le32(&b, 0xffffffffu);
	add8(&b, P9_RREAD);
	le16(&b, 0);
	le32(&b, 0);
	put_p9("huge-size", 1, 0, 0, 0, &b);
	/* mode 0: single replies for the decoders */
	reset(&b);
	rgetattr(&b);
	put_p9("dec-getattr", 0, 0, 0, 0, &b);
	reset(&b);
	rread(&b, 7, 100);
	put_p9("dec-rread", 0, 0, 0, 2, &b);
	reset(&b);
	rwrite(&b, 3, 100);
	put_p9("dec-rwrite", 0, 0, 0, 3, &b);
	reset(&b);
	rwalk(&b, 17);
	put_p9("dec-walk17", 0, 0, 0, 0, &b);
	reset(&b);
	rversion(&b, 65536, P9_VERSION);
	put_p9("dec-version", 0, 0, 2, 0, &b);
	free(b.b);
}

/* ---- the zcs stream (zcwire) ---- */

static void be32(struct buf *b, uint32_t v)
{
	uint8_t w[4];

	zcw_put_u32(w, v);
	add(b, w, 4);
}

/* nloops loops of nfiles files of len bytes each. */
static void zstream(struct buf *b, uint32_t nloops, uint32_t nfiles,
		    uint32_t len)
{
	uint32_t l, f, i;

	be32(b, nloops);
	for (l = 0; l < nloops; l++) {
		be32(b, nfiles);
		for (f = 0; f < nfiles; f++) {
			be32(b, len);
			for (i = 0; i < len; i++)
				add8(b, (uint8_t)i);
		}
	}
}

static void put_zc(const char *name, uint8_t mode, uint8_t split, uint8_t o1,
		   uint8_t o2, const struct buf *s)
{
	put_p9_like("zcwire", name, mode, split, o1, o2, s);
}

static void gen_zcwire(void)
{
	uint8_t h[ZCW_HELLO_LEN];
	struct buf b = {0};
	int m;

	for (m = 0; m < 2; m++) {
		char name[64];
		const char *M = m ? "conn" : "dec";

		reset(&b);
		zstream(&b, 2, 2, 3);
		snprintf(name, sizeof(name), "%s-golden", M);
		put_zc(name, (uint8_t)m, 0, 0x80, 0, &b);
		snprintf(name, sizeof(name), "%s-golden-tight", M);
		put_zc(name, (uint8_t)m, 2, 0x0a, 0x04, &b);
		reset(&b);
		add(&b, h, zcw_hello_encode(h, ZCW_F_CPU));
		zstream(&b, 1, 3, 1000);
		snprintf(name, sizeof(name), "%s-hello", M);
		put_zc(name, (uint8_t)m, 9, 0x80 | 0x40, 0x80 | 0x20, &b);
		snprintf(name, sizeof(name), "%s-hello-splice", M);
		put_zc(name, (uint8_t)m, 7, 0x80 | 0x40 | 2, 0x80 | 0x30, &b);
		snprintf(name, sizeof(name), "%s-hello-trunc", M);
		put_zc(name, (uint8_t)m, 12, 0x80 | 1, 0x80 | 0x10, &b);
		reset(&b); /* paired runs: an unmetered run, zcc soaks */
		add(&b, h,
		    zcw_hello_encode(h, ZCW_F_CPU | ZCW_F_RUN | ZCW_F_SOAK |
						3u << ZCW_PAIR_SHIFT));
		zstream(&b, 1, 2, 100);
		snprintf(name, sizeof(name), "%s-hello-unmetered", M);
		put_zc(name, (uint8_t)m, 3, 0x80 | 0x40, 0x80 | 0x20, &b);
		reset(&b); /* a metered run; this box soaks (o1 & 0x20) */
		add(&b, h,
		    zcw_hello_encode(h, ZCW_F_CPU | ZCW_F_RUN | ZCW_F_METERED));
		zstream(&b, 1, 2, 100);
		snprintf(name, sizeof(name), "%s-hello-metered", M);
		put_zc(name, (uint8_t)m, 3, 0x80 | 0x40 | 0x20, 0x80 | 0x20,
		       &b);
		reset(&b);
		zstream(&b, 0, 0, 0);
		add8(&b, 'x'); /* bytes after the end */
		snprintf(name, sizeof(name), "%s-trailing", M);
		put_zc(name, (uint8_t)m, 0, 0x80, 0, &b);
		reset(&b);
		zstream(&b, 1, 1, 8);
		b.n -= 6; /* cut inside the file */
		snprintf(name, sizeof(name), "%s-short", M);
		put_zc(name, (uint8_t)m, 1, 0x80, 0, &b);
		reset(&b);
		be32(&b, 1);
		be32(&b, 1);
		be32(&b, 0xffffffffu);
		snprintf(name, sizeof(name), "%s-huge-len", M);
		put_zc(name, (uint8_t)m, 0, 0x80, 0, &b);
		reset(&b);
		be32(&b, 0xffffffffu);
		snprintf(name, sizeof(name), "%s-huge-loops", M);
		put_zc(name, (uint8_t)m, 0, 0x80, 0, &b);
		reset(&b);
		be32(&b, ZCW_MAGIC);
		be32(&b, 0);
		be32(&b, 0);
		snprintf(name, sizeof(name), "%s-hello-v0", M);
		put_zc(name, (uint8_t)m, 0, 0x80, 0x80, &b);
		reset(&b);
		be32(&b, 2);
		be32(&b, 9); /* files over the tight limit */
		snprintf(name, sizeof(name), "%s-files", M);
		put_zc(name, (uint8_t)m, 0, 0x01, 0x03, &b);
	}
	free(b.b);
}

/* ---- result documents (resload) ---- */

static int read_file(const char *path, struct buf *b)
{
	char chunk[8192];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		add(b, chunk, n);
	fclose(f);
	return 0;
}

static void gen_resload(const char *srcdir)
{
	static const char *const seeds[] = {
		"000a-p9-iosize",	    "001a-nfs-client-zc",
		"001c-nfs-server-zc",	    "001e-ttcp-zerocopy",
		"002a-nfs-clients-vanilla", "004a-chat-pre2"};
	static const char *const small[][2] = {
		{"minimal",
		 "{\"schema\":\"zcbench-result/1\",\"tool\":\"x\","
		 "\"tool_version\":\"1\",\"run_id\":\"0\",\"label\":\"l\","
		 "\"started\":\"t\",\"status\":\"ok\",\"command\":[],"
		 "\"host\":{},\"warnings\":[],\"metrics\":{\"a\":{\"unit\":"
		 "\"s\",\"better\":\"lower\"}},\"cases\":[{\"params\":"
		 "{\"n\":1.5,\"b\":true,\"z\":null,\"o\":{},\"size\":4096},"
		 "\"samples\":[{\"metrics\":{\"a\":1}},{\"metrics\":"
		 "{\"a\":null}}],\"summary\":{}}]}"},
		{"failed", "{\"schema\":\"zcbench-result/1\",\"tool\":\"x\","
			   "\"status\":\"failed\",\"error\":\"bind: in use\"}"},
		{"schema2", "{\"schema\":\"zcbench-result/2\"}"},
		{"truncated",
		 "{\"schema\": \"zcbench-result/1\", \"cases\": ["},
		{"array", "[{\"schema\":\"zcbench-result/1\"}]"},
	};
	char path[4096], name[64];
	struct buf b = {0}, d = {0};
	size_t i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		reset(&d);
		snprintf(path, sizeof(path), "%s/results/seeds/%s.json", srcdir,
			 seeds[i]);
		if (read_file(path, &d)) {
			perror(path);
			exit(1);
		}
		/* every layout and the generic table, text and CSV, +- sd */
		snprintf(name, sizeof(name), "%s", seeds[i]);
		put_ms("resload", name, 6, (uint8_t)(i & 1 ? 1 | 2 << 1 : 0),
		       &d);
	}
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		reset(&d);
		adds(&d, small[i][1]);
		put_ms("resload", small[i][0], (uint8_t)(i ? 1 : 7), 0x80, &d);
	}
	free(b.b);
	free(d.b);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkcorpus OUTDIR SRCDIR\n");
		return 2;
	}
	outdir = argv[1];
	if (mkdir(outdir, 0755) && errno != EEXIST) {
		perror(outdir);
		return 1;
	}
	gen_peerrep();
	gen_ttcpctl();
	gen_soakproto();
	gen_chat_rx();
	gen_chat_server();
	gen_chat_client();
	gen_p9();
	gen_zcwire();
	gen_resload(argv[2]);
	return 0;
}
