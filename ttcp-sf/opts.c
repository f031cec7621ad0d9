/*
 * opts.c: ttcp-sf's command line: ttcp's classic letters plus the long
 * options of the additions, checked together at the end.
 */
#include "config.h"
#include "cli.h"
#include "log.h"
#include "sock.h"
#include "ttcp.h"
#include "units.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"Usage: ttcp-sf -t [options] host   transmit to host\n"
	"       ttcp-sf -r [options] [host]  receive (host is ignored, as in ttcp)\n"
	"       ttcp-sf --method=help        the transfer methods and their probes\n"
	"\n"
	"Classic ttcp options:\n"
	"  -l N      length of each read/write buffer (default 8192)\n"
	"  -n N      number of buffers to send (default 2048)\n"
	"  -p N      port (default 5001)\n"
	"  -u        UDP (4-byte start/end datagrams; losses counted)\n"
	"  -s        source/sink data (the default; accepted for ttcp)\n"
	"  -b N      socket buffer size (SO_SNDBUF/SO_RCVBUF)\n"
	"  -D        TCP_NODELAY\n"
	"  -A N      align the buffer to N bytes; -O N: start N bytes after\n"
	"  -T        touch every byte sent or received\n"
	"  -f X      rate unit: k m g (Kbit Mbit Gbit), K M G (KB MB GB), a auto\n"
	"  -c        measure CPU with the default meter (soak when calibrated,\n"
	"            else procstat); --cpu=LIST chooses (soak,procstat,rusage,perf)\n"
	"  -v / -q   more / less output\n"
	"Additions:\n"
	"  -m, --method M       send method (-t) or receive method (-r); help lists\n"
	"  -F, --file FILE      send from FILE instead of a temp pattern file\n"
	"      --source-size N  size of the temp source (default: the transfer,\n"
	"                       at least 32 MiB, at most 256 MiB)\n"
	"      --hot            copy methods send a cache-hot buffer, not the file\n"
	"      --duration T     send for T (e.g. 10s) instead of -n buffers\n"
	"      --cc NAME        congestion control (default cubic when available)\n"
	"      --affinity CPU   pin this side to CPU\n"
	"      --repeat N       N samples (-t drives; the receiver follows)\n"
	"      --confidence L,W repeat until the L% interval is within W% (max\n"
	"                       --repeat, default 10)\n"
	"  -V, --verify         receiver: check the pattern (or the byte count)\n"
	"  -J                   result document to stdout (text to stderr)\n"
	"  -o, --output FILE    result document to FILE\n"
	"      --label L        label of the result (default the kernel release)\n"
	"      --bind ADDR      receiver: listen address (default all)\n"
	"      --timeout T      longest wait for progress (default 30s)\n"
	"      --report-timeout T  the end-of-run exchange (default 5s)\n"
	"      --wait T         receiver: wait for the transmitter at most T\n"
	"      --no-report      act as a plain ttcp (no end-of-run exchange)\n"
	"      --require-peer   fail unless the other end is ttcp-sf and confirms\n"
	"                       the bytes (a vanished peer is then an error)\n"
	"  -h, --help\n";

void usage(FILE *f)
{
	fputs(usage_text, f);
}

enum {
	OPT_SOURCE_SIZE = 256, OPT_HOT, OPT_DURATION, OPT_CC, OPT_AFFINITY,
	OPT_REPEAT, OPT_CONFIDENCE, OPT_LABEL, OPT_BIND, OPT_TIMEOUT,
	OPT_REPORT_TIMEOUT, OPT_WAIT, OPT_NO_REPORT, OPT_CPU, OPT_REQUIRE_PEER
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "file", required_argument, NULL, 'F' },
	{ "source-size", required_argument, NULL, OPT_SOURCE_SIZE },
	{ "hot", no_argument, NULL, OPT_HOT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "cc", required_argument, NULL, OPT_CC },
	{ "affinity", required_argument, NULL, OPT_AFFINITY },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "verify", no_argument, NULL, 'V' },
	{ "output", required_argument, NULL, 'o' },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "report-timeout", required_argument, NULL, OPT_REPORT_TIMEOUT },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "no-report", no_argument, NULL, OPT_NO_REPORT },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "require-peer", no_argument, NULL, OPT_REQUIRE_PEER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

void parse_opts(struct cfg *c, int argc, char **argv)
{
	int o, have_dir = 0, have_n = 0, methods_help = 0;

	opterr = 0; /* one line of our own per bad option */

	while ((o = getopt_long(argc, argv, ":trl:n:p:usb:DA:O:Tf:cvqm:F:VJo:h",
				longopts, NULL)) != -1) {
		switch (o) {
		case 't': c->trans = 1; have_dir |= 1; break;
		case 'r': c->trans = 0; have_dir |= 2; break;
		case 'l': c->buflen = cli_size("-l", optarg, 1, 64 << 20); break;
		case 'n': c->nbuf = cli_long("-n", optarg, 1, 1L << 40); have_n = 1; break;
		case 'p': c->port = (int)cli_long("-p", optarg, 0, 65535); break;
		case 'u': c->udp = 1; break;
		case 's': break; /* sink/source: what we always do */
		case 'b': c->sockbuf = (int)cli_size("-b", optarg, 1, 1 << 30); break;
		case 'D': c->nodelay = 1; break;
		case 'A': c->align = cli_size("-A", optarg, 1, 1 << 24); break;
		case 'O': c->offset = cli_size("-O", optarg, 0, 1 << 24); break;
		case 'T': c->touch = 1; break;
		case 'f':
			if (strlen(optarg) != 1 || !units_rate_valid(optarg[0]))
				die_usage("-f: \"%s\" is not a unit (k m g K M G a)",
					  optarg);
			c->fmt = optarg[0];
			break;
		case 'c': c->cpu = 1; break;
		case OPT_CPU: c->cpu = 1; c->cpu_list = optarg; break;
		case 'v': log_level++; break;
		case 'q': log_level = LOG_QUIET; break;
		case 'm':
			c->method = optarg;
			if (!strcmp(optarg, "help"))
				methods_help = 1;
			break;
		case 'F': c->file = optarg; break;
		case OPT_SOURCE_SIZE:
			c->source_size = cli_size("--source-size", optarg, 1,
						  1ull << 40);
			break;
		case OPT_HOT: c->hot = 1; break;
		case OPT_DURATION: c->duration = cli_duration("--duration", optarg, 0, 86400); break;
		case OPT_CC: c->cc = optarg; break;
		case OPT_AFFINITY:
			c->affinity = (int)cli_long("--affinity", optarg, 0, 4095);
			break;
		case OPT_REPEAT:
			c->repeat = (int)cli_long("--repeat", optarg, 1,
						  TTCP_MAX_SAMPLES);
			break;
		case OPT_CONFIDENCE:
			cli_confidence("--confidence", optarg, &c->conf_level,
				       &c->conf_width);
			break;
		case 'V': c->verify = 1; break;
		case 'J': c->json_stdout = 1; break;
		case 'o': c->out = optarg; break;
		case OPT_LABEL: c->label = optarg; break;
		case OPT_BIND: c->bind = optarg; break;
		case OPT_TIMEOUT:
			c->timeout_ms = (int)(cli_duration("--timeout", optarg, 0, 86400) * 1000);
			break;
		case OPT_REPORT_TIMEOUT:
			c->report_ms = (int)(cli_duration("--report-timeout", optarg, 0, 86400) *
					     1000);
			break;
		case OPT_WAIT:
			c->wait_ms = (int)(cli_duration("--wait", optarg, 0, 86400) * 1000);
			break;
		case OPT_NO_REPORT: c->report = 0; break;
		case OPT_REQUIRE_PEER: c->require_peer = 1; break;
		case 'h': usage(stdout); exit(0);
		case ':':
			die_usage("%s needs a value", argv[optind - 1]);
		default:
			if (optopt)
				die_usage("unknown option -%c (see --help)",
					  optopt);
			die_usage("unknown option %s (see --help)",
				  argv[optind - 1]);
		}
	}
	if (methods_help) {
		xfer_print_table(stdout);
		exit(0);
	}
	/* combinations */
	if (have_dir == 3)
		die_usage("-t and -r: choose one side");
	if (!have_dir)
		die_usage("-t or -r: say which side this is (see --help)");
	if (c->trans && !c->port)
		die_usage("-p 0: the transmitter needs the receiver's port");
	if (c->trans) {
		if (optind != argc - 1)
			die_usage("-t needs exactly one host (the receiver)");
		c->host = argv[optind];
	} else if (optind < argc - 1) {
		die_usage("-r takes at most one (ignored) host");
	}
	if (!c->method)
		c->method = c->trans ? "write" : "read";
	if (!xfer_find(c->method, c->trans ? XFER_SEND : XFER_RECV))
		die_usage("-m: \"%s\" is not a %s method (%s)", c->method,
			  c->trans ? "send" : "receive",
			  xfer_names(c->trans ? XFER_SEND : XFER_RECV));
	if (c->udp && strcmp(c->method, c->trans ? "write" : "read") &&
	    strcmp(c->method, "send"))
		die_usage("-m %s: UDP moves datagrams with %s only", c->method,
			  c->trans ? "write or send" : "read");
	if (c->udp && c->buflen < TTCP_UDP_HDR)
		die_usage("-l %zu: UDP datagrams need at least %d bytes",
			  c->buflen, TTCP_UDP_HDR);
	if (c->udp && c->buflen > 65507)
		die_usage("-l %zu: a UDP datagram holds at most 65507 bytes",
			  c->buflen);
	if (c->duration > 0 && have_n)
		die_usage("--duration and -n: choose one");
	if (c->align && (c->align & (c->align - 1)))
		die_usage("-A %zu: not a power of two", c->align);
	if (!c->trans && (c->file || c->hot || c->source_size || c->duration))
		die_usage("-F, --hot, --source-size and --duration are for -t");
	if (c->file && c->source_size)
		die_usage("-F and --source-size: the file has its own size");
	if (c->trans && c->verify)
		die_usage("-V is for the receiver (-r)");
	if (c->conf_level > 0 && !c->repeat)
		c->repeat = 10;
	if (!c->repeat)
		c->repeat = 1;
	if (c->conf_level > 0 && c->repeat < 3)
		die_usage("--confidence needs --repeat of at least 3");
	if (!c->trans && c->repeat > 1)
		log_verbose("--repeat on the receiver is ignored: the transmitter says when it is done");
	if (c->require_peer && !c->report)
		die_usage("--require-peer and --no-report contradict each other");
	if (c->json_stdout && c->out)
		die_usage("-J and -o: choose one");
	if (c->cc && !c->udp && !sock_cc_available(c->cc))
		die_usage("--cc %s: not in net.ipv4.tcp_available_congestion_control",
			  c->cc);
}
