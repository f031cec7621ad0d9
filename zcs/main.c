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
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* A field of the settings, for the plain options' table. */
#define ZO(f) offsetof(struct cfg, f)

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

/* the long options, as "name=c" (c: the letter option() gets) */
static const char longs[] =
	"port=p: bind=N: port-file=P: bufsize=b: bind-cpu=B: interval=I: "
	"method=m: fork=F max-conns=C: max-loops=L: max-files=f: "
	"max-file-len=l: idle-timeout=t: header-timeout=T: min-rate=r: "
	"exit-after=x:";

/* The options that only store a value. */
static const struct cli_set sets[] = {
	{'p', NULL, NULL, CLI_INT, ZO(port), 0, 65535, NULL, "-p"},
	{'b', NULL, NULL, CLI_SIZE_T, ZO(unit), 1, 64 << 20, NULL, "-b"},
	{.opt = 'N', .kind = CLI_STR, .off = ZO(bind), .name = "--bind"},
	{.opt = 'P', .kind = CLI_STR, .off = ZO(port_file), .name = "--port-file"},
	{'B', NULL, NULL, CLI_INT, ZO(cpu), 0, CPU_SETSIZE - 1, NULL, "-B"},
	{'I', NULL, NULL, CLI_DUR, ZO(interval), 0, 86400, NULL, "-I"},
	{.opt = 'F', .kind = CLI_FLAG, .off = ZO(fork_mode), .name = "--fork"},
	{'x', NULL, NULL, CLI_LONG, ZO(exit_after), 1, 1e18, NULL, "--exit-after"},
	/* the connection's limits: how much a client may announce, and
	 * how slow it may be */
	{'C', NULL, NULL, CLI_INT, ZO(max_conns), 1, 1 << 20, NULL, "--max-conns"},
	{'L', NULL, NULL, CLI_U32, ZO(lim.max_loops), 0, UINT32_MAX, NULL, "--max-loops"},
	{'f', NULL, NULL, CLI_U32, ZO(lim.max_files), 0, UINT32_MAX, NULL, "--max-files"},
	{'t', NULL, NULL, CLI_DUR, ZO(idle_timeout), 0, 86400, NULL, "--idle-timeout"},
	{0},
};

static void option(void *cfgp, int opt, const char *arg)
{
	struct cfg *c = cfgp;

	switch (opt) {
	case 'd':
		log_level++;
		break;
	case 'm': /* --method */
		method = arg;
		break;
	case 'l': /* --max-file-len */
		c->lim.max_file_len =
			(uint32_t)cli_size("--max-file-len", arg, 0, UINT32_MAX);
		break;
	case 'T': /* --header-timeout; "0": none */
		c->header_timeout = strcmp(arg, "0") ?
			cli_duration("--header-timeout", arg, 0, 86400) : 0;
		break;
	case 'r': /* --min-rate */
		c->min_rate = (double)cli_size("--min-rate", arg, 0, 1ull << 40);
		break;
	}
}

CLI_TOOL(tool, usage_text, CLI_CPU | CLI_RESULT | CLI_SOCKBUF, .shortopts = "p:b:B:I:d",
	 .longs = longs, .sets = sets, .option = option);

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
