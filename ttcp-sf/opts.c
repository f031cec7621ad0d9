/*
 * opts.c: ttcp-sf's command line: the settings with their defaults,
 * ttcp's classic letters and the long options of the additions (the
 * common ones through lib/core/cli), checked together at the end.
 */
#include "config.h"
#include "flows.h"
#include "ival.h"
#include "log.h"
#include "rr.h"
#include "sock.h"
#include "ttcp.h"
#include "units.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>

/* A field of the settings, for the plain options' table. */
#define TO(f) offsetof(struct cfg, f)

#define CONF_REPEAT 10	/* --confidence without --repeat: at most */

static const char usage_text[] =
	"Usage: ttcp-sf -t [options] host   transmit to host\n"
	"       ttcp-sf -r [options] [host]  receive (host is ignored, as in ttcp)\n"
	"       ttcp-sf --method=help        the transfer methods and their probes\n"
	"\n";

/* The long-only options (the classic letters are their own). */
enum {
	O_SOURCE_SIZE = CLI_OPT_LONG,
	O_HOT,
	O_DURATION,
	O_CC,
	O_AFFINITY,
	O_BIND,
	O_TIMEOUT,
	O_REPORT_TIMEOUT,
	O_WAIT,
	O_NO_REPORT,
	O_REQUIRE_PEER,
	O_BIDIR,
	O_NODELAY,
	O_BUSY_POLL,
	O_CORK,
	O_THREADS,
	O_RR,
	O_CRR,
	O_RR_SIZE,
	O_BURST,
	O_RR_TIMEOUT,
	O_RATE,
	O_RATE_PER_FLOW,
};

/* Every option, in the usage's order. */
static const struct cli_set sets[] = {
	CLI_HEAD("Classic ttcp options:"),
	CLI_TAKE('t', NULL, NULL, NULL), /* the synopsis names -t and -r */
	CLI_TAKE('r', NULL, NULL, NULL),
	CLI_VALUE('l', NULL, "N", CLI_SIZE_T, TO(buflen), 1, 64 << 20,
		  "length of each read/write buffer (default 8192)"),
	CLI_TAKE('n', NULL, "N", "number of buffers to send (default 2048)"),
	CLI_VALUE('p', NULL, "N", CLI_INT, TO(port), 0, 65535,
		  "port (default 5001)"),
	CLI_SWITCH('u', NULL, TO(udp),
		   "UDP (4-byte start/end datagrams; losses counted)"),
	CLI_TAKE('s', NULL, NULL,
		 "source/sink data (the default; accepted for ttcp)"),
	CLI_TAKE('b', NULL, "N", "socket buffer size (SO_SNDBUF/SO_RCVBUF)"),
	CLI_SWITCH('D', NULL, TO(nodelay), "TCP_NODELAY"),
	CLI_VALUE('A', NULL, "N", CLI_SIZE_T, TO(align), 1, 1 << 24,
		  "align the buffer to N bytes"),
	CLI_VALUE('O', NULL, "N", CLI_SIZE_T, TO(offset), 0, 1 << 24,
		  "start N bytes after (the -A alignment)"),
	CLI_SWITCH('T', NULL, TO(touch), "touch every byte sent or received"),
	CLI_TAKE('f', NULL, "X",
		 "rate unit: k m g (Kbit Mbit Gbit), K M G (KB MB GB),\n"
		 "a auto"),
	CLI_HEAD("Additions:"),
	CLI_TAKE('m', "method", "M",
		 "send method (-t) or receive method (-r); help lists"),
	CLI_STRING('F', "file", "FILE", TO(file),
		   "send from FILE instead of a temp pattern file"),
	CLI_VALUE(O_SOURCE_SIZE, "source-size", "N", CLI_SIZE, TO(source_size), 1,
		  1ull << 40,
		  "size of the temp source (default: the transfer,\n"
		  "at least 32 MiB, at most 256 MiB)"),
	CLI_SWITCH(O_HOT, "hot", TO(hot),
		   "copy methods send a cache-hot buffer, not the file"),
	CLI_VALUE(O_DURATION, "duration", "T", CLI_DUR, TO(duration), 0, 86400,
		  "send for T (e.g. 10s) instead of -n buffers"),
	CLI_STRING(O_CC, "cc", "NAME", TO(cc),
		   "congestion control (default cubic when available)"),
	CLI_VALUE(O_AFFINITY, "affinity", "CPU", CLI_INT, TO(affinity), 0, 4095,
		  "pin this side to CPU"),
	CLI_SWITCH('V', "verify", TO(verify),
		   "receiver: check the pattern (or the byte count)"),
	CLI_STRING(O_BIND, "bind", "ADDR", TO(bind),
		   "receiver: listen address (default all)"),
	CLI_VALUE(O_TIMEOUT, "timeout", "T", CLI_MS, TO(timeout_ms), 0, 86400,
		  "longest wait for progress (default 30s)"),
	CLI_VALUE(O_REPORT_TIMEOUT, "report-timeout", "T", CLI_MS, TO(report_ms), 0,
		  86400, "the end-of-run exchange (default 5s)"),
	CLI_VALUE(O_WAIT, "wait", "T", CLI_MS, TO(wait_ms), 0, 86400,
		  "receiver: wait for the transmitter at most T"),
	CLI_TAKE(O_NO_REPORT, "no-report", NULL,
		 "act as a plain ttcp (no end-of-run exchange)"),
	CLI_SWITCH(O_REQUIRE_PEER, "require-peer", TO(require_peer),
		   "fail unless the other end is ttcp-sf and confirms\n"
		   "the bytes (a vanished peer is then an error)"),
	CLI_HEAD("Direction (-t; any ttcp-sf receiver follows, a plain ttcp "
		 "cannot):"),
	CLI_SWITCH('R', "reverse", TO(reverse),
		   "the receiver sends and this side receives (-m then\n"
		   "names the receive method)"),
	CLI_SWITCH(O_BIDIR, "bidir", TO(bidir),
		   "both send at once on the connection, each reported"),
	CLI_HEAD("Latency knobs (both sides):"),
	CLI_SWITCH(O_NODELAY, "nodelay", TO(nodelay), "TCP_NODELAY (ttcp's -D)"),
	CLI_VALUE(O_BUSY_POLL, "busy-poll", "US", CLI_INT, TO(busy_poll), 1, 1000000,
		  "SO_BUSY_POLL: busy-wait up to US microseconds for\n"
		  "packets on a blocking receive"),
	CLI_SWITCH(O_CORK, "cork", TO(cork),
		   "-t: TCP_CORK on the data socket (whole frames only;\n"
		   "sendfile's partner); the end's half-close flushes"),
	CLI_HEAD("Many flows (-t; the receiver follows):"),
	CLI_VALUE('P', NULL, "N", CLI_INT, TO(flows), 1, 1L << 30,
		  "N connections per sample (at most 1024), per-flow\n"
		  "rates, their sum and Jain's fairness; -n and -l are\n"
		  "per flow; with --rr, N request/response flows"),
	CLI_VALUE(O_THREADS, "threads", "T", CLI_INT, TO(threads), 1, TTCP_FLOWS_MAX,
		  "drive them from T epoll threads (default 1; both\n"
		  "sides take it)"),
	CLI_HEAD("Pacing (-t; the receiver learns the rate):"),
	CLI_TAKE(O_RATE, "rate", "R",
		 "send at R bits/s (iperf3's -b: 1G, 500M, 100mbit;\n"
		 "125MB/s in bytes): the kernel paces TCP\n"
		 "(SO_MAX_PACING_RATE), a token bucket paces UDP;\n"
		 "with -P, R is the sum of the flows"),
	CLI_SWITCH(O_RATE_PER_FLOW, "rate-per-flow", TO(rate_per_flow),
		   "-P: R is each flow's (the sum is N times R)"),
	CLI_HEAD("Request/response (-t; any -r answers what it asks, -r --rr "
		 "only that):"),
	CLI_TAKE(O_RR, "rr", NULL,
		 "TCP_RR transactions (with -u: UDP_RR); -n counts\n"
		 "transactions (default 10000), or --duration"),
	CLI_TAKE(O_CRR, "crr", NULL,
		 "TCP_CRR: a new connection per transaction"),
	CLI_TAKE(O_RR_SIZE, "rr-size", "R[,S]",
		 "request and response bytes (default 1,1)"),
	CLI_TAKE(O_BURST, "burst", "N",
		 "-t: N transactions in flight (TCP_RR; default 1)"),
	CLI_TAKE(O_RR_TIMEOUT, "rr-timeout", "T",
		 "-t -u: a request unanswered after T is lost\n"
		 "(default 200ms)"),
	CLI_HEAD("--repeat and --confidence: -t drives, the receiver follows; "
		 "--confidence\n"
		 "without --repeat takes at most 10 samples."),
	{0},
};

/* What parsing needs beyond the settings. */
static struct {
	int have_dir;		/* 1: -t, 2: -r (3: both, refused) */
	int have_n;		/* -n given */
	const char *method;	/* -m as given, resolved at the end */
	int have_rr_opts;	/* --rr-size, --burst or --rr-timeout given */
} given;

/* --rr-size REQ[,RESP]: one size for both when RESP is left out. */
static void rr_sizes(struct cfg *c, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char req[64];

	if (!comma) {
		c->rr_req = (uint32_t)cli_size("--rr-size", arg, 1, RR_MAX_SIZE);
		c->rr_resp = c->rr_req;
		return;
	}
	if ((size_t)(comma - arg) >= sizeof(req))
		die_usage("--rr-size: \"%s\" is not REQ[,RESP]", arg);
	snprintf(req, sizeof(req), "%.*s", (int)(comma - arg), arg);
	c->rr_req = (uint32_t)cli_size("--rr-size", req, 1, RR_MAX_SIZE);
	c->rr_resp = (uint32_t)cli_size("--rr-size", comma + 1, 1,
					RR_MAX_SIZE);
}

/* --rr, --crr and the settings of their transactions. 0 when opt is
 * not one. */
static int rr_option(void *cfg, int opt, const char *arg)
{
	struct cfg *c = cfg;

	switch (opt) {
	case O_RR: c->rr = c->rr ? c->rr : RR_TCP; return 1;
	case O_CRR: c->rr = RR_CRR; return 1;
	case O_RR_SIZE: rr_sizes(c, arg); break;
	case O_BURST:
		c->burst = (int)cli_long("--burst", arg, 1, RR_BURST_MAX);
		break;
	case O_RR_TIMEOUT:
		c->rr_timeout_ms = (int)(cli_duration("--rr-timeout", arg, 0,
						      86400) * 1000);
		if (c->rr_timeout_ms < 1)
			die_usage("--rr-timeout %s: at least 1ms", arg);
		break;
	default: return 0;
	}
	given.have_rr_opts = 1;
	return 1;
}

/* --rate R: bits per second as iperf3 and tc spell them, kept in
 * bytes per second. */
static void rate_arg(struct cfg *c, const char *arg)
{
	double bits;
	int e = units_parse_rate(arg, &bits);

	if (e)
		die_usage("--rate %s: %s (a rate: 1G, 500M, 100mbit, 125MB/s)",
			  arg, e == -ERANGE ? "too fast for any link" :
					      "not a rate above 0");
	if (bits < 8000)
		die_usage("--rate %s: at least 8kbit/s (1000 bytes a second)",
			  arg);
	c->rate = bits / 8;
}

/* The side, ttcp's letters that do more than store, and the method. */
static void option(void *cfg, int opt, const char *arg)
{
	struct cfg *c = cfg;

	switch (opt) {
	case 't': c->trans = 1; given.have_dir |= 1; break;
	case 'r': c->trans = 0; given.have_dir |= 2; break;
	case 'n':
		c->nbuf = cli_long("-n", arg, 1, 1L << 40);
		given.have_n = 1;
		break;
	case 's': break; /* sink/source: what we always do */
	case 'b': c->sockbuf = (int)cli_size("-b", arg, 1, 1 << 30); break;
	case 'f':
		if (strlen(arg) != 1 || !units_rate_valid(arg[0]))
			die_usage("-f: \"%s\" is not a unit (k m g K M G a)",
				  arg);
		c->fmt = arg[0];
		break;
	case 'm': given.method = arg; break;
	case O_NO_REPORT: c->report = 0; break;
	case O_RATE: rate_arg(c, arg); break;
	}
}

CLI_TOOL(tool, usage_text,
	 CLI_BENCH | CLI_CONFIDENCE | CLI_OMIT | CLI_RERUNS,
	 .repeat_max = TTCP_MAX_SAMPLES, .sets = sets, .take = {rr_option},
	 .option = option);

static void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->buflen = 8192;	/* ttcp's default */
	c->nbuf = 2048;		/* ttcp's default */
	c->port = TTCP_PORT;
	c->fmt = 'K';		/* ttcp prints KB/sec */
	c->affinity = -1;
	c->timeout_ms = 30000;
	c->report_ms = 5000;
	c->report = 1;
	c->rr_req = c->rr_resp = 1;	/* netperf's TCP_RR default */
	c->burst = 1;
	c->flows = 1;
	c->threads = 1;
	c->rr_timeout_ms = 200;
}

/* The side, its host and its method. */
static void check_side(struct cfg *c, int argc, char **argv, int ind)
{
	enum xfer_dir dir = c->trans && !c->reverse ? XFER_SEND : XFER_RECV;

	if (given.method && !strcmp(given.method, "help"))
		xfer_cli_method("-m", given.method, dir); /* exits */
	if (given.have_dir == 3)
		die_usage("-t and -r: choose one side");
	if (!given.have_dir)
		die_usage("-t or -r: say which side this is (see --help)");
	if (c->trans && !c->port)
		die_usage("-p 0: the transmitter needs the receiver's port");
	if (c->trans) {
		if (ind != argc - 1)
			die_usage("-t needs exactly one host (the receiver)");
		c->host = argv[ind];
	} else if (ind < argc - 1) {
		die_usage("-r takes at most one (ignored) host");
	}
	c->ops = xfer_cli_method("-m", given.method ? given.method :
				 dir == XFER_SEND ? "write" : "read", dir);
	c->method_default = !given.method;
}

/* UDP: a method that moves datagrams, and a size IP carries. */
static void check_udp(const struct cfg *c)
{
	char m[256];

	if (!c->udp)
		return;
	if (!(c->ops->flags & XFER_DGRAM))
		die_usage("-m %s: UDP moves datagrams with %s only",
			  c->ops->name,
			  xfer_list(XFER_DGRAM, c->ops->dir, "or", m, sizeof(m)));
	if (c->buflen < TTCP_UDP_HDR)
		die_usage("-l %zu: UDP datagrams need at least %d bytes",
			  c->buflen, TTCP_UDP_HDR);
	if (c->buflen > 65507)
		die_usage("-l %zu: a UDP datagram holds at most 65507 bytes",
			  c->buflen);
}

/* -P: a ceiling, and the file descriptors for it (raised to the hard
 * limit if that is enough), refused up front naming the limit. */
static void check_fds(int flows)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)flows + 64; /* listeners, meters, reports */

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur >= need)
		return;
	if (rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return;
	}
	die_usage("-P %d: needs %llu file descriptors, the limit (ulimit -n) is %llu",
		  flows, (unsigned long long)need,
		  (unsigned long long)rl.rlim_max);
}

/* -P and --threads against the rest; -P's methods work on non-blocking
 * sockets. */
static void check_flows(const struct cfg *c)
{
	const char *m = c->ops->name;
	int nonblock = !!(c->ops->flags & XFER_NONBLOCK);
	char ok[256];

	if (c->flows > TTCP_FLOWS_MAX)
		die_usage("-P %d: at most %d flows (the limit of this build)",
			  c->flows, TTCP_FLOWS_MAX);
	if (c->threads > 1 && c->trans && c->flows == 1)
		die_usage("--threads %d: for -P", c->threads);
	if (c->trans && c->threads > c->flows)
		die_usage("--threads %d: more threads than the %d flows",
			  c->threads, c->flows);
	if (c->flows == 1)
		return;
	if (!c->trans)
		die_usage("-P: give it to -t (the receiver follows)");
	if (c->udp || c->bidir || c->rr == RR_CRR)
		die_usage("-P %d: TCP streams (-R too) and --rr only (not -u, --bidir or --crr yet)",
			  c->flows);
	if (c->burst > 1)
		die_usage("-P and --burst: one transaction per flow in flight");
	if (c->reverse && !nonblock)
		die_usage("-m %s: -P -R receives with %s (non-blocking sockets)",
			  m, xfer_list(XFER_NONBLOCK, XFER_RECV, "or", ok,
				       sizeof(ok)));
	if (!c->rr && !c->reverse && !nonblock)
		die_usage("-m %s: -P drives %s (non-blocking sockets)", m,
			  xfer_list(XFER_NONBLOCK, XFER_SEND, "and", ok,
				    sizeof(ok)));
	if (!c->report)
		die_usage("-P and --no-report: the receiver learns the flows from ttcp-sf's setup frames");
	check_fds(c->flows);
}

/* -R and --bidir: -t only, TCP streams only. */
static void check_dir(const struct cfg *c)
{
	if (!c->reverse && !c->bidir)
		return;
	if (c->reverse && c->bidir)
		die_usage("-R and --bidir: choose one (--bidir sends both ways)");
	if (!c->trans)
		die_usage("%s: give it to -t (the receiver follows)",
			  c->reverse ? "-R" : "--bidir");
	if (c->udp || c->rr)
		die_usage("%s: TCP streams only (not -u, --rr or --crr)",
			  c->reverse ? "-R" : "--bidir");
	if (!c->report)
		die_usage("%s and --no-report: the receiver learns the direction from ttcp-sf's setup frame",
			  c->reverse ? "-R" : "--bidir");
	if (c->reverse && (c->file || c->source_size))
		die_usage("-R: -F and --source-size are the sending side's (the receiver sends a temp pattern file, or with --hot a cache-hot buffer)");
}

/* --rr, --crr and their settings against the rest: its requests and
 * responses move by the plain calls. */
static void check_rr(struct cfg *c)
{
	char plain[128];

	if (!c->rr) {
		if (given.have_rr_opts)
			die_usage("--rr-size, --burst and --rr-timeout need --rr or --crr");
		return;
	}
	if (c->rr == RR_CRR && c->udp)
		die_usage("--crr and -u: TCP_CRR is TCP (UDP_RR is -u --rr)");
	if (given.method && !(c->ops->flags & XFER_PLAIN))
		die_usage("-m %s: --rr moves its requests and responses with %s (no other method yet)",
			  given.method, xfer_list(XFER_PLAIN, XFER_EITHER, "and",
						  plain, sizeof(plain)));
	if (c->verify || c->file || c->hot || c->source_size)
		die_usage("-V, -F, --hot and --source-size are for streams, not --rr");
	if (!c->trans && given.have_rr_opts)
		die_usage("--rr-size, --burst, --rr-timeout: give them to -t (its setup frame tells the receiver)");
	if (c->burst > 1 && (c->udp || c->rr == RR_CRR))
		die_usage("--burst %d: TCP_RR only (UDP_RR and TCP_CRR run one transaction at a time)",
			  c->burst);
	if (c->udp && (c->rr_req > RR_UDP_MAX || c->rr_resp > RR_UDP_MAX))
		die_usage("--rr-size %u,%u: a UDP datagram holds at most %d bytes",
			  c->rr_req, c->rr_resp, RR_UDP_MAX);
	if (!given.have_n)
		c->nbuf = 10000;
}

/* --rate: the sending side's, for streams. */
static void check_rate(const struct cfg *c)
{
	if (c->rate_per_flow && !c->rate)
		die_usage("--rate-per-flow: with --rate R (R is then each flow's)");
	if (c->rate_per_flow && c->flows == 1)
		die_usage("--rate-per-flow: for -P (one flow has the whole rate)");
	if (!c->rate)
		return;
	if (!c->trans)
		die_usage("--rate: give it to -t (the receiver learns it from the setup frame or the hello)");
	if (c->rr)
		die_usage("--rate: for streams (--rr and --crr run as fast as their answers come)");
}

void parse_opts(struct cfg *c, int argc, char **argv)
{
	int ind;

	cfg_defaults(c);
	memset(&given, 0, sizeof(given));
	ind = cli_parse(&tool, c, &c->com, argc, argv);
	check_side(c, argc, argv, ind);
	check_dir(c);
	check_flows(c);
	if (c->cork && (c->rr || c->udp || !c->trans))
		die_usage("--cork: for -t TCP streams (a corked request waits 200 ms)");
	if (!c->rr)
		check_udp(c);
	check_rr(c);
	check_rate(c);
	if (c->duration > 0 && given.have_n)
		die_usage("--duration and -n: choose one");
	if (c->com.omit > 0 && (c->udp || c->rr || c->reverse || c->bidir ||
				c->flows > 1))
		die_usage("--omit: TCP streams only (not -u, --rr, --crr, -R, --bidir or -P yet)");
	if (c->align && (c->align & (c->align - 1)))
		die_usage("-A %zu: not a power of two", c->align);
	if (!c->trans && (c->file || c->hot || c->source_size || c->duration))
		die_usage("-F, --hot, --source-size and --duration are for -t");
	if (c->file && c->source_size)
		die_usage("-F and --source-size: the file has its own size");
	if (c->trans && c->verify && !c->reverse && !c->bidir)
		die_usage("-V is for the receiving side (-r, or -t with -R or --bidir)");
	if (!c->com.repeat)
		c->com.repeat = c->com.conf_level > 0 ? CONF_REPEAT : 1;
	if (c->com.conf_level > 0 && c->com.repeat < 3)
		die_usage("--confidence needs --repeat of at least 3");
	if (!c->trans && c->com.repeat > 1)
		log_verbose("--repeat on the receiver is ignored: the transmitter says when it is done");
	if (c->require_peer && !c->report)
		die_usage("--require-peer and --no-report contradict each other");
	if (c->cc && !c->udp && !sock_cc_available(c->cc))
		die_usage("--cc %s: not in net.ipv4.tcp_available_congestion_control",
			  c->cc);
}
