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
#include "server.h"

#include "cli.h"
#include "log.h"
#include "sig.h"
#include "zcwire.h"

#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static struct cfg cfg = {
	.bind = "*",
	.port = ZCW_PORT,
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

static const char *method = "read"; /* --method, resolved after parsing */

/* --help: the tool's own options (the common block follows). */
static char usage_text[2048];
#define USAGE_FMT                                                              \
	"usage: zcs [options]\n"                                                \
	"Receive the files zcc clients send; print kbytes/sec every period.\n"  \
	"  -p, --port PORT        TCP port to listen on (%d; 0 picks one)\n"    \
	"      --bind ADDR        address to listen on (* = any)\n"             \
	"      --port-file FILE   write the port listened on to FILE\n"         \
	"  -b, --bufsize SIZE     bytes per receive call (16k)\n"               \
	"  -B, --bind-cpu CPU     run on this CPU only\n"                       \
	"  -I, --interval SECS    seconds between rate lines (5)\n"             \
	"      --method NAME      receive method: %s (read); help lists them\n" \
	"      --fork             a process per connection (the original's way)\n" \
	"      --max-conns N      connections at once (1024); more are turned away\n" \
	"      --max-loops N      refuse a loop count above N (%u)\n"           \
	"      --max-files N      refuse a file count above N (%u)\n"           \
	"      --max-file-len SIZE  refuse a file length above SIZE (1G)\n"     \
	"      --idle-timeout SECS  close a connection silent this long (30)\n" \
	"      --header-timeout SECS  close one whose first file header is not\n" \
	"                         complete this long after connecting (20; 0 = none)\n" \
	"      --min-rate RATE    close one that sends fewer bytes/s over an\n" \
	"                         --idle-timeout period (500; 0 = none)\n"      \
	"      --exit-after N     stop after N connections ended\n"             \
	"  -d                     as -v: more output (per-connection lines)\n"  \
	"With -c or --cpu, zcs reports its CPU to the clients that ask (zcc -C);\n" \
	"with -J the rate lines go to stderr.\n"

enum {
	O_BIND = CLI_OPT_TOOL,
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
	{"exit-after", required_argument, NULL, O_EXIT_AFTER},
	{NULL, 0, NULL, 0},
};

/* A count limit of the stream (--max-loops, --max-files). */
static uint32_t limit(const char *opt, const char *arg)
{
	return (uint32_t)cli_long(opt, arg, 0, UINT32_MAX);
}

/* The connection's limits: how much a client may announce, and how slow
 * it may be. 0 when opt is not one of them. */
static int limits(struct cfg *c, int opt, const char *arg)
{
	switch (opt) {
	case O_MAX_CONNS:
		c->max_conns = (int)cli_long("--max-conns", arg, 1, 1 << 20);
		return 1;
	case O_MAX_LOOPS:
		c->lim.max_loops = limit("--max-loops", arg);
		return 1;
	case O_MAX_FILES:
		c->lim.max_files = limit("--max-files", arg);
		return 1;
	case O_MAX_FILE_LEN:
		c->lim.max_file_len =
			(uint32_t)cli_size("--max-file-len", arg, 0, UINT32_MAX);
		return 1;
	case O_IDLE:
		c->idle_timeout = cli_duration("--idle-timeout", arg, 0, 86400);
		return 1;
	case O_HEADER_TIMEOUT: /* "0": none */
		c->header_timeout = strcmp(arg, "0") ?
			cli_duration("--header-timeout", arg, 0, 86400) : 0;
		return 1;
	case O_MIN_RATE:
		c->min_rate = (double)cli_size("--min-rate", arg, 0, 1ull << 40);
		return 1;
	}
	return 0;
}

static void option(void *cfgp, int opt, const char *arg)
{
	struct cfg *c = cfgp;

	if (limits(c, opt, arg))
		return;
	switch (opt) {
	case 'p':
		c->port = (int)cli_long("-p", arg, 0, 65535);
		break;
	case O_BIND:
		c->bind = arg;
		break;
	case O_PORT_FILE:
		c->port_file = arg;
		break;
	case 'b':
		c->unit = cli_size("-b", arg, 1, 64 << 20);
		break;
	case 'B':
		c->cpu = (int)cli_long("-B", arg, 0, CPU_SETSIZE - 1);
		break;
	case 'd':
		log_level++;
		break;
	case 'I':
		c->interval = cli_duration("-I", arg, 0, 86400);
		break;
	case O_METHOD:
		method = arg;
		break;
	case O_FORK:
		c->fork_mode = 1;
		break;
	case O_EXIT_AFTER:
		c->exit_after = cli_long("--exit-after", arg, 1, LONG_MAX);
		break;
	}
}

static const struct cli_tool tool = {
	.text = usage_text,
	.common = CLI_CPU | CLI_RESULT | CLI_SOCKBUF,
	.shortopts = "p:b:B:I:d",
	.longopts = longopts,
	.option = option,
};

static void parse_opts(int argc, char **argv)
{
	int ind;

	snprintf(usage_text, sizeof(usage_text), USAGE_FMT, ZCW_PORT,
		 xfer_names(XFER_RECV), ZCW_DEF_MAX_LOOPS, ZCW_DEF_MAX_FILES);
	ind = cli_parse(&tool, &cfg, &cfg.com, argc, argv);

	if (ind < argc)
		die_usage("unexpected argument \"%s\"", argv[ind]);
	cfg.ops = xfer_cli_method("--method", method, XFER_RECV);
	if (cfg.com.label && !cfg.com.json_stdout && !cfg.com.out)
		log_warn(
			"--label without -J or --output: no document to label");
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

int main(int argc, char **argv)
{
	struct res_doc *doc = NULL;
	struct server srv;
	char err[512];

	log_init(argv[0]);
	parse_opts(argc, argv);
	if (cli_result_path(&cfg.com))
		doc = cli_result_doc(&cfg.com, "zcs", argc, argv);
	if (xfer_probe(cfg.ops, err, sizeof(err)))
		die("--method %s cannot run here: %s", cfg.ops->name, err);
	sig_install();
	raise_fd_limit();
	if (cfg.cpu >= 0)
		cli_pin_cpu("-B", cfg.cpu);
	server_init(&srv, &cfg, doc);
	if (cfg.fork_mode)
		serve_fork(&srv);
	else
		serve_epoll(&srv);
	return server_finish(&srv) ? 1 : 0;
}
