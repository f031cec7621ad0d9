/*
 * zcs: the zero-copy file server of Andrew Morton's zcs/zcc (2001),
 * wire-compatible with the original and serving many clients at once.
 *
 * Clients (zcc, ours or the original) squirt files at it in the stream of
 * lib/wire/zcwire.h; zcs receives them with a receive method of lib/xfer,
 * prints "N kbytes/sec" every period, aggregate and per client, and with
 * -c measures this box's CPU and reports it to the clients of ours that
 * ask (zcc -C). See man/zcs.1.
 */
#include "config.h"
#include "zcs.h"

#include "cli.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "units.h"
#include "zcwire.h"

#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static struct cfg cfg = {
	.bind = "*",
	.port = ZCW_PORT,
	.method = "read",
	.unit = 16384, /* the original receiver's 16 kbyte reads */
	.cpu = -1,
	.interval = 5.0,
	.max_conns = 1024,
	.lim = {ZCW_DEF_MAX_LOOPS, ZCW_DEF_MAX_FILES, ZCW_DEF_MAX_FILE_LEN},
	.idle_timeout = 30.0,
	.header_timeout = 20.0,
	.min_rate = 500,
	.max_per_client_lines = 16,
};

static void usage(void)
{
	printf("usage: zcs [options]\n"
	       "Receive the files zcc clients send; print kbytes/sec every period.\n"
	       "  -p, --port PORT        TCP port to listen on (%d; 0 picks one)\n"
	       "      --bind ADDR        address to listen on (* = any)\n"
	       "      --port-file FILE   write the port listened on to FILE\n"
	       "  -b, --bufsize SIZE     bytes per receive call (16k)\n"
	       "  -i SIZE                TCP receive buffer (SO_RCVBUF)\n"
	       "  -o SIZE                TCP send buffer (SO_SNDBUF)\n"
	       "  -B, --bind-cpu CPU     run on this CPU only\n"
	       "  -I, --interval SECS    seconds between rate lines (5)\n"
	       "      --method NAME      receive method: %s (read); help lists them\n"
	       "      --fork             a process per connection (the original's way)\n"
	       "      --max-conns N      connections at once (1024); more are turned away\n"
	       "      --max-loops N      refuse a loop count above N (%u)\n"
	       "      --max-files N      refuse a file count above N (%u)\n"
	       "      --max-file-len SIZE  refuse a file length above SIZE (1G)\n"
	       "      --idle-timeout SECS  close a connection silent this long (30)\n"
	       "      --header-timeout SECS  close one whose first file header is not\n"
	       "                         complete this long after connecting (20; 0 = none)\n"
	       "      --min-rate RATE    close one that sends fewer bytes/s over an\n"
	       "                         --idle-timeout period (500; 0 = none)\n"
	       "  -c                     measure this box's CPU (default meters) and\n"
	       "                         report it to clients that ask (zcc -C)\n"
	       "      --cpu=LIST         the same with meters soak,procstat,rusage,perf\n"
	       "  -J                     result document to stdout (rate lines to stderr)\n"
	       "      --output FILE      result document to FILE (-o is the send buffer)\n"
	       "      --label L          label of the result document\n"
	       "      --exit-after N     stop after N connections ended\n"
	       "  -v, -d                 more output (per-connection lines); -q less\n"
	       "  -h, --help             this text\n",
	       ZCW_PORT, xfer_names(XFER_RECV), ZCW_DEF_MAX_LOOPS,
	       ZCW_DEF_MAX_FILES);
}

enum {
	O_BIND = 256,
	O_PORT_FILE,
	O_METHOD,
	O_FORK,
	O_MAX_CONNS,
	O_MAX_LOOPS,
	O_MAX_FILES,
	O_MAX_FILE_LEN,
	O_IDLE,
	O_HEADER_TIMEOUT,
	O_MIN_RATE,
	O_CPU,
	O_OUTPUT,
	O_LABEL,
	O_EXIT_AFTER,
};

static const struct option longopts[] = {
	{"port", required_argument, NULL, 'p'},
	{"bind", required_argument, NULL, O_BIND},
	{"port-file", required_argument, NULL, O_PORT_FILE},
	{"bufsize", required_argument, NULL, 'b'},
	{"bind-cpu", required_argument, NULL, 'B'},
	{"interval", required_argument, NULL, 'I'},
	{"method", required_argument, NULL, O_METHOD},
	{"fork", no_argument, NULL, O_FORK},
	{"max-conns", required_argument, NULL, O_MAX_CONNS},
	{"max-loops", required_argument, NULL, O_MAX_LOOPS},
	{"max-files", required_argument, NULL, O_MAX_FILES},
	{"max-file-len", required_argument, NULL, O_MAX_FILE_LEN},
	{"idle-timeout", required_argument, NULL, O_IDLE},
	{"header-timeout", required_argument, NULL, O_HEADER_TIMEOUT},
	{"min-rate", required_argument, NULL, O_MIN_RATE},
	{"cpu", optional_argument, NULL, O_CPU},
	{"output", required_argument, NULL, O_OUTPUT},
	{"label", required_argument, NULL, O_LABEL},
	{"exit-after", required_argument, NULL, O_EXIT_AFTER},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void parse_opts(int argc, char **argv)
{
	int o;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "p:b:i:o:B:I:cJvdqh", longopts,
				NULL)) != -1) {
		switch (o) {
		case 'p':
			cfg.port = (int)cli_long("-p", optarg, 0, 65535);
			break;
		case O_BIND:
			cfg.bind = optarg;
			break;
		case O_PORT_FILE:
			cfg.port_file = optarg;
			break;
		case 'b':
			cfg.unit = cli_size("-b", optarg, 1, 64 << 20);
			break;
		case 'i':
			cfg.rcvbuf = (int)cli_size("-i", optarg, 1, INT_MAX / 2);
			break;
		case 'o':
			cfg.sndbuf = (int)cli_size("-o", optarg, 1, INT_MAX / 2);
			break;
		case 'B':
			cfg.cpu = (int)cli_long("-B", optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'I':
			cfg.interval = cli_duration("-I", optarg, 0, 86400);
			break;
		case O_METHOD:
			cfg.method = optarg;
			break;
		case O_FORK:
			cfg.fork_mode = 1;
			break;
		case O_MAX_CONNS:
			cfg.max_conns =
				(int)cli_long("--max-conns", optarg, 1, 1 << 20);
			break;
		case O_MAX_LOOPS:
			cfg.lim.max_loops = (uint32_t)cli_long("--max-loops", optarg,
							  0, UINT32_MAX);
			break;
		case O_MAX_FILES:
			cfg.lim.max_files = (uint32_t)cli_long("--max-files", optarg,
							  0, UINT32_MAX);
			break;
		case O_MAX_FILE_LEN:
			cfg.lim.max_file_len = (uint32_t)cli_size(
				"--max-file-len", optarg, 0, UINT32_MAX);
			break;
		case O_IDLE:
			cfg.idle_timeout = cli_duration("--idle-timeout", optarg, 0, 86400);
			break;
		case O_HEADER_TIMEOUT:
			cfg.header_timeout =
				strcmp(optarg, "0")
					? cli_duration("--header-timeout",
						       optarg, 0, 86400)
					: 0; /* none */
			break;
		case O_MIN_RATE:
			cfg.min_rate = (double)cli_size("--min-rate", optarg, 0,
							1ull << 40);
			break;
		case 'c':
			cfg.measure = 1;
			break;
		case O_CPU:
			cfg.measure = 1;
			cfg.meters = optarg;
			break;
		case 'J':
			cfg.json_path = "-";
			break;
		case O_OUTPUT:
			cfg.json_path = optarg;
			break;
		case O_LABEL:
			cfg.label = optarg;
			break;
		case O_EXIT_AFTER:
			cfg.exit_after =
				cli_long("--exit-after", optarg, 1, LONG_MAX);
			break;
		case 'v':
		case 'd':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			cli_bad_option(argv);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument \"%s\"", argv[optind]);
	if (!strcmp(cfg.method, "help")) {
		xfer_print_table(stdout);
		exit(0);
	}
	if (!xfer_find(cfg.method, XFER_RECV))
		die_usage("--method: no receive method \"%s\" (%s)", cfg.method,
			  xfer_names(XFER_RECV));
	if (cfg.label && !cfg.json_path)
		log_warn(
			"--label without -J or --output: no document to label");
}

static void check_method(void)
{
	char why[256];

	if (xfer_probe(xfer_find(cfg.method, XFER_RECV), why, sizeof(why)))
		die("--method %s cannot run here: %s", cfg.method, why);
}

/* Enough descriptors for --max-conns (and each method's own). */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)cfg.max_conns * 4 + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < want)
		log_warn("only %llu file descriptors for --max-conns %d",
			 (unsigned long long)rl.rlim_cur, cfg.max_conns);
}

static void bind_cpu(void)
{
	cpu_set_t set;

	if (cfg.cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cfg.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die_errno("-B %d: cannot run on CPU %d", cfg.cpu, cfg.cpu);
}

int main(int argc, char **argv)
{
	struct server srv;
	char err[512];

	log_init(argv[0]);
	parse_opts(argc, argv);
	if (res_check_output(cfg.json_path, err, sizeof(err)))
		die("%s", err);
	check_method();
	sig_install();
	raise_fd_limit();
	bind_cpu();
	server_init(&srv, &cfg, argc, argv);
	if (cfg.fork_mode)
		serve_fork(&srv);
	else
		serve_epoll(&srv);
	return server_finish(&srv) ? 1 : 0;
}
