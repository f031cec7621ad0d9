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

/* --help: the synopsis (the rows and the common block follow). */
static const char usage_text[] =
	"usage: zcs [options]\n"
	"Receive the files zcc clients send; print kbytes/sec every period.\n";

/* The long-only options. */
enum {
	O_BIND = CLI_OPT_LONG,
	O_PORT_FILE,
	O_METHOD,
	O_FORK,
	O_MAX_CONNS,
	O_MAX_LOOPS,
	O_MAX_FILES,
	O_MAX_FILE_LEN,
	O_IDLE_TIMEOUT,
	O_HEADER_TIMEOUT,
	O_MIN_RATE,
	O_EXIT_AFTER,
};

/* The help that names the port, the methods and the limits' defaults
 * (fill_help before the parse). */
static char port_help[64], method_help[512], loops_help[64], files_help[64];

/* Every option, in the usage's order. */
static const struct cli_set sets[] = {
	CLI_VALUE('p', "port", "PORT", CLI_INT, ZO(port), 0, 65535, port_help),
	CLI_STRING(O_BIND, "bind", "ADDR", ZO(bind),
		   "address to listen on (* = any)"),
	CLI_STRING(O_PORT_FILE, "port-file", "FILE", ZO(port_file),
		   "write the port listened on to FILE"),
	CLI_VALUE('b', "bufsize", "SIZE", CLI_SIZE_T, ZO(unit), 1, 64 << 20,
		  "bytes per receive call (16k)"),
	CLI_VALUE('B', "bind-cpu", "CPU", CLI_INT, ZO(cpu), 0,
		  CPU_SETSIZE - 1, "run on this CPU only"),
	CLI_VALUE('I', "interval", "SECS", CLI_DUR, ZO(interval), 0, 86400,
		  "seconds between rate lines (5)"),
	CLI_TAKE(O_METHOD, "method", "NAME", method_help),
	CLI_SWITCH(O_FORK, "fork", ZO(fork_mode),
		   "a process per connection (the original's way)"),
	/* the connection's limits: how much a client may announce, and
	 * how slow it may be */
	CLI_VALUE(O_MAX_CONNS, "max-conns", "N", CLI_INT, ZO(max_conns), 1,
		  1 << 20, "connections at once (1024); more are turned away"),
	CLI_VALUE(O_MAX_LOOPS, "max-loops", "N", CLI_U32, ZO(lim.max_loops), 0,
		  UINT32_MAX, loops_help),
	CLI_VALUE(O_MAX_FILES, "max-files", "N", CLI_U32, ZO(lim.max_files), 0,
		  UINT32_MAX, files_help),
	CLI_TAKE(O_MAX_FILE_LEN, "max-file-len", "SIZE",
		 "refuse a file length above SIZE (1G)"),
	CLI_VALUE(O_IDLE_TIMEOUT, "idle-timeout", "SECS", CLI_DUR,
		  ZO(idle_timeout), 0, 86400,
		  "close a connection silent this long (30)"),
	CLI_TAKE(O_HEADER_TIMEOUT, "header-timeout", "SECS",
		 "close one whose first file header is not\n"
		 "complete this long after connecting (20; 0 = none)"),
	CLI_TAKE(O_MIN_RATE, "min-rate", "RATE",
		 "close one that sends fewer bytes/s over an\n"
		 "--idle-timeout period (500; 0 = none)"),
	CLI_VALUE(O_EXIT_AFTER, "exit-after", "N", CLI_LONG, ZO(exit_after), 1,
		  1e18, "stop after N connections ended"),
	CLI_TAKE('d', NULL, NULL, "as -v: more output (per-connection lines)"),
	CLI_HEAD("With -c or --cpu, zcs reports its CPU to the clients that ask "
		 "(zcc -C);\n"
		 "with -J the rate lines go to stderr."),
	{0},
};

static void fill_help(void)
{
	snprintf(port_help, sizeof(port_help),
		 "TCP port to listen on (%d; 0 picks one)", ZCW_PORT);
	snprintf(method_help, sizeof(method_help),
		 "receive method: %s\n(read); help lists them",
		 xfer_names(XFER_RECV));
	snprintf(loops_help, sizeof(loops_help),
		 "refuse a loop count above N (%u)", ZCW_DEF_MAX_LOOPS);
	snprintf(files_help, sizeof(files_help),
		 "refuse a file count above N (%u)", ZCW_DEF_MAX_FILES);
}

static void option(void *cfgp, int opt, const char *arg)
{
	struct cfg *c = cfgp;

	switch (opt) {
	case 'd':
		log_level++;
		break;
	case O_METHOD:
		method = arg;
		break;
	case O_MAX_FILE_LEN:
		c->lim.max_file_len =
			(uint32_t)cli_size("--max-file-len", arg, 0, UINT32_MAX);
		break;
	case O_HEADER_TIMEOUT: /* "0": none */
		c->header_timeout = strcmp(arg, "0") ?
			cli_duration("--header-timeout", arg, 0, 86400) : 0;
		break;
	case O_MIN_RATE:
		c->min_rate = (double)cli_size("--min-rate", arg, 0, 1ull << 40);
		break;
	}
}

CLI_TOOL(tool, usage_text, CLI_CPU | CLI_RESULT | CLI_SOCKBUF, .sets = sets,
	 .option = option);

static void parse_opts(int argc, char **argv)
{
	int ind;

	fill_help();
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
