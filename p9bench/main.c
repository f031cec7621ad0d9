/*
 * p9bench: seed 000's 9P2000.L IO-size sweep. For IO sizes doubling from
 * 1 to a maximum it writes then reads a fixed number of operations per
 * size through its own 9P2000.L client, on the copy path ("No ZC") and
 * the direct path ("ZC", the userspace analogue of v9fs zero-copy), and
 * prints the seed's WRITE and READ tables plus ops/s and CPU. With
 * --mount DIR it runs the same sweep with pread/pwrite on a mounted file
 * system (v9fs in a guest), buffered or O_DIRECT.
 *
 *   p9bench -s 127.0.0.1:564 -a /export --ops 10000 -c
 *   p9bench --mount /mnt/9p --odirect=both --ops 10000
 */
#include "config.h"
#include "p9bench.h"
#include "cli.h"
#include "hostinfo.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "units.h"

#include <errno.h>
#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A field of the settings, for the plain options' table. */
#define PO(f) offsetof(struct cfg, f)

static char file_buf[64]; /* default test file name */

static void cfg_defaults(struct cfg *cfg)
{
	struct passwd *pw = getpwuid(geteuid());

	memset(cfg, 0, sizeof(*cfg));
	cfg->aname = "/";
	cfg->uname = pw ? pw->pw_name : "";
	cfg->uid = (uint32_t)geteuid();
	cfg->msize = 65536; /* what diodcat proposes */
	cfg->paths = 3;	    /* copy and direct */
	cfg->ops_mask = OP_WRITE | OP_READ;
	cfg->ops = 1 << 20; /* the seed's 1M per size */
	cfg->file_size = 64 << 20;
	cfg->qd = 1;
	cfg->cli.repeat = 1;
	cfg->timeout = 10;
	snprintf(file_buf, sizeof(file_buf), "p9bench.%d.dat", (int)getpid());
	cfg->file = file_buf;
}

#define STR_(x) #x
#define STR(x)	STR_(x)

static const char usage_text[] =
	"usage: p9bench -s HOST[:PORT]|unix:PATH [-a EXPORT] [options]\n"
	"       p9bench --mount DIR [--odirect[=both]] [options]\n"
	"Seed 000's 9P2000.L IO-size sweep: write then read, copy path (No ZC)\n"
	"and direct path (ZC), the seed's WRITE/READ tables plus ops/s and CPU.\n"
	"\n";

/* The long-only options. */
enum {
	O_UNAME = CLI_OPT_LONG,
	O_UID,
	O_MOUNT,
	O_ODIRECT,
	O_FILE,
	O_KEEP,
	O_NO_CREATE,
	O_PATH,
	O_OP,
	O_SIZES,
	O_MIN_SIZE,
	O_MAX_SIZE,
	O_TOTAL,
	O_DURATION,
	O_FILE_SIZE,
	O_QD,
	O_VERIFY,
	O_TIMEOUT,
	O_REMOTE_CPU,
	O_SERVER_PID,
};

/* What the options said that the checks at the end resolve. */
static struct {
	size_t min, max; /* --min-size, --max-size */
	int sizes;	 /* --sizes given */
	int odirect;	 /* -1 none, 1 O_DIRECT, 2 both */
	int paths;	 /* --path: 0 none, else 1, 2 or 3 */
	int count;	 /* how many of --ops, --total, --duration */
} given = {1, 4096, 0, -1, 0, 0};

static size_t io_size(const char *opt, const char *s)
{
	if (!strcmp(s, "max"))
		return SIZE_MAX_IO;
	return (size_t)cli_size(opt, s, 1, P9_MAX_MSIZE);
}

static void parse_sizes(struct cfg *cfg, const char *list)
{
	char buf[1024], *tok, *save = NULL;

	if (strlen(list) >= sizeof(buf))
		die_usage("--sizes: list too long");
	snprintf(buf, sizeof(buf), "%s", list);
	cfg->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg->nsizes == MAX_SIZES)
			die_usage("--sizes: more than %d sizes", MAX_SIZES);
		cfg->sizes[cfg->nsizes++] = io_size("--sizes", tok);
	}
	if (!cfg->nsizes)
		die_usage("--sizes: empty list");
}

static int pick(const char *opt, const char *s, const char *a, const char *b)
{
	if (!strcmp(s, a))
		return 1;
	if (!strcmp(s, b))
		return 2;
	if (!strcmp(s, "both"))
		return 3;
	die_usage("%s: '%s' is not %s, %s or both", opt, s, a, b);
}

/* A duration option in the seed's wording: 'X' is not a duration. */
static double duration(const char *opt, const char *s, double min)
{
	double v;

	if (units_parse_duration(s, &v) || v <= 0 || v < min)
		die_usage(min > 0 ? "%s: '%s' is not a duration >= 10ms"
				  : "%s: '%s' is not a duration",
			  opt, s);
	return v;
}

/* Every option, in the usage's order. */
static const struct cli_set sets[] = {
	CLI_HEAD("Where:"),
	CLI_STRING('s', "server", "ADDR", PO(server),
		   "9P server: HOST[:PORT] (TCP, port 564) or unix:PATH"),
	CLI_STRING('a', "aname", "PATH", PO(aname),
		   "export to attach (default /)"),
	CLI_STRING(O_UNAME, "uname", "NAME", PO(uname),
		   "Tattach uname (default: your user name)"),
	CLI_TAKE(O_UID, "uid", "N", "Tattach n_uname (default: your uid)"),
	CLI_TAKE('m', "msize", "BYTES", "msize to propose (default 65536)"),
	CLI_STRING(O_MOUNT, "mount", "DIR", PO(mount),
		   "mounted mode: pread/pwrite on DIR/FILE"),
	CLI_TAKE(O_ODIRECT, "odirect", "[=both]",
		 "mounted mode: O_DIRECT (both: buffered and O_DIRECT)"),
	CLI_STRING(O_FILE, "file", "NAME", PO(file),
		   "test file (default p9bench.PID.dat, removed after)"),
	CLI_SWITCH(O_KEEP, "keep", PO(keep), "keep the test file"),
	CLI_SWITCH(O_NO_CREATE, "no-create", PO(no_create),
		   "the test file must exist (read what is there)"),
	CLI_HEAD("What:"),
	CLI_TAKE(O_PATH, "path", "copy|direct|both",
		 "payload path(s) (default both)"),
	CLI_TAKE(O_OP, "op", "write|read|both",
		 "(default both: write, then read)"),
	CLI_TAKE(O_SIZES, "sizes", "LIST",
		 "IO sizes, e.g. 1,32,64,4096 or max (= msize - 24)"),
	CLI_TAKE(O_MIN_SIZE, "min-size", "BYTES", "doubling from (default 1)"),
	CLI_TAKE(O_MAX_SIZE, "max-size", "BYTES",
		 "doubling up to (default 4096; max = msize - 24)"),
	CLI_TAKE('n', "ops", "N", "operations per size (default 1M, the seed's)"),
	CLI_TAKE(O_TOTAL, "total", "BYTES", "bytes per size instead of --ops"),
	CLI_TAKE(O_DURATION, "duration", "SECS",
		 "seconds per size and path instead of --ops"),
	CLI_VALUE(O_FILE_SIZE, "file-size", "BYTES", CLI_SIZE, PO(file_size), 1,
		  1ull << 50, "offsets wrap within this (default 64M)"),
	CLI_VALUE(O_QD, "qd", "N", CLI_INT, PO(qd), 1, P9_MAXTAGS,
		  "requests in flight (default 1, max " STR(P9_MAXTAGS) ")"),
	{'r', NULL, "N", CLI_INT, PO(cli.repeat), 1, 1000,
	 "samples per case, as --repeat (default 1)", "--repeat"},
	CLI_SWITCH(O_VERIFY, "verify", PO(verify), "check every byte read"),
	CLI_TAKE(O_TIMEOUT, "timeout", "SECS",
		 "no progress this long = dead server (default 10)"),
	CLI_HEAD("CPU:"),
	CLI_STRING(O_REMOTE_CPU, "remote-cpu", "HOST[:PORT]", PO(remote_cpu),
		   "the server host's CPU (cyclesoak --serve)"),
	CLI_VALUE(O_SERVER_PID, "server-pid", "PID", CLI_INT, PO(server_pid), 1,
		  0x7fffffff, "CPU of a server process on this box"),
	{0},
};

/* Where, beyond the plain ones: who attaches, the msize, O_DIRECT. */
static int where_option(void *p, int opt, const char *arg)
{
	struct cfg *cfg = p;

	switch (opt) {
	case O_UID:
		cfg->uid = (uint32_t)cli_long("--uid", arg, 0, 0xfffffffeL);
		cfg->uid_set = 1;
		return 1;
	case 'm':
		cfg->msize = (uint32_t)cli_size("--msize", arg, P9_MIN_MSIZE,
						P9_MAX_MSIZE);
		return 1;
	case O_ODIRECT:
		if (arg && strcmp(arg, "both"))
			die_usage("--odirect: '%s' is not 'both'", arg);
		given.odirect = arg ? 2 : 1;
		return 1;
	}
	return 0;
}

static void p9_option(void *p, int opt, const char *arg)
{
	struct cfg *cfg = p;

	switch (opt) {
	case O_PATH:
		given.paths = pick("--path", arg, "copy", "direct");
		break;
	case O_OP:
		cfg->ops_mask = pick("--op", arg, "write", "read");
		break;
	case O_SIZES:
		parse_sizes(cfg, arg);
		given.sizes = 1;
		break;
	case O_MIN_SIZE:
		given.min = io_size("--min-size", arg);
		break;
	case O_MAX_SIZE:
		given.max = io_size("--max-size", arg);
		break;
	case 'n':
		cfg->ops = cli_size("--ops", arg, 1, 1ull << 40);
		given.count++;
		break;
	case O_TOTAL:
		cfg->total = cli_size("--total", arg, 1, 1ull << 50);
		given.count++;
		break;
	case O_DURATION:
		cfg->duration = duration("--duration", arg, 0);
		given.count++;
		break;
	case O_TIMEOUT:
		cfg->timeout = duration("--timeout", arg, 0.01);
		break;
	}
}

CLI_TOOL(tool, usage_text, CLI_BENCH | CLI_OMIT | CLI_RERUNS,
	 .repeat_max = 1000, .sets = sets,
	 .take = {where_option}, .option = p9_option);

/* The mounted mode's paths are buffered/O_DIRECT, the 9P mode's
 * copy/direct; neither takes the other's options. */
static void check_mode(struct cfg *cfg)
{
	if (!cfg->server == !cfg->mount)
		die_usage(
			"give either -s/--server (9P) or --mount DIR (mounted)");
	if (!cfg->mount) {
		if (given.odirect >= 0)
			die_usage("--odirect needs --mount DIR");
		cfg->paths = given.paths ? given.paths : 3;
		return;
	}
	if (given.paths)
		die_usage(
			"--path selects 9P payload paths; with --mount use --odirect");
	cfg->paths = given.odirect < 0 ? 1 : given.odirect == 1 ? 2 : 3;
	if (cfg->qd > 1)
		die_usage(
			"--qd > 1 needs the 9P mode (--mount does one call at a time)");
	if (cfg->verify && (cfg->paths & 2))
		die_usage(
			"--verify needs buffered I/O (O_DIRECT writes use an aligned buffer)");
}

static void check_opts(struct cfg *cfg, int argc, char **argv, int first)
{
	int i;

	if (first < argc)
		die_usage("unexpected argument '%s'", argv[first]);
	check_mode(cfg);
	if (given.count > 1)
		die_usage("--ops, --total and --duration exclude each other");
	if (!given.sizes) {
		cfg->min_size = given.min;
		cfg->max_size = given.max;
		if (given.min == SIZE_MAX_IO ||
		    (given.max != SIZE_MAX_IO && given.min > given.max))
			die_usage("--min-size must not exceed --max-size");
		if (cfg->mount && given.max == SIZE_MAX_IO)
			die_usage(
				"IO size 'max' (msize - 24) needs the 9P mode");
	}
	for (i = 0; cfg->mount && i < cfg->nsizes; i++)
		if (cfg->sizes[i] == SIZE_MAX_IO)
			die_usage(
				"IO size 'max' (msize - 24) needs the 9P mode");
	if (strchr(cfg->file, '/') || !strcmp(cfg->file, ".") ||
	    !strcmp(cfg->file, "..") || !cfg->file[0])
		die_usage("--file: '%s' must be a plain name", cfg->file);
	cfg->repeat = cfg->cli.repeat;
}

/* --server-pid: where the server may run (the nightly pins it). */
static void server_cpus(struct res_doc *doc, pid_t pid)
{
	char cpus[256];
	json_t *c = json_object_get(res_json(doc), "config");

	if (pid > 0 && host_cpus_allowed(NULL, pid, cpus, sizeof(cpus)))
		json_object_set_new(c, "server_cpus_allowed", json_string(cpus));
}

/* -i: the reporter of each run's bytes, its lines on txt. */
static struct ival *open_ival(const struct cfg *cfg, FILE *txt)
{
	struct ival *iv;
	char err[256];

	if (ival_open_for(&iv, cfg->cli.interval, cfg->cli.json_stream, cfg->cli.cpu,
			  "p9bench", "bytes", txt, err, sizeof(err)))
		die("%s", err);
	return iv;
}

int main(int argc, char **argv)
{
	static struct bench b;
	struct cfg cfg;
	struct res_doc *doc;
	char err[512];
	FILE *txt;
	int r, wfail;

	log_init(argv[0]);
	cfg_defaults(&cfg);
	check_opts(&cfg, argc, argv,
		   cli_parse(&tool, &cfg, &cfg.cli, argc, argv));
	if (res_check_output(cli_doc_path(&cfg.cli), err, sizeof(err)))
		die("%s", err);
	sig_install();
	txt = cfg.cli.json_stream ? stderr : cli_text(&cfg.cli);
	b.iv = open_ival(&cfg, txt);

	doc = res_new("p9bench", argc, argv);
	if (cfg.cli.label)
		res_set_label(doc, cfg.cli.label);
	res_set_output(doc, cli_doc_path(&cfg.cli));
	b.cfg = &cfg;
	b.bk = cfg.mount ? &bk_mounted : &bk_9p;
	b.c.fd = -1;
	b.bk->open(&b);
	res_set(doc, "config",
		json_pack(
			"{s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:f, s:i, s:b, s:s, s:i, s:f, s:i, s:[ff]}",
			"mode", b.bk->mode, "where", b.where, "file", cfg.file,
			"msize", (int)(b.bk == &bk_9p ? b.c.msize : 0),
			"file_size", (json_int_t)cfg.file_size, "ops",
			(json_int_t)(cfg.total || cfg.duration ? 0 : cfg.ops),
			"total", (json_int_t)cfg.total, "duration",
			cfg.duration, "qd", cfg.qd, "verify", cfg.verify,
			"uname", cfg.uname, "uid", (int)cfg.uid, "omit_s",
			cfg.cli.omit, "reruns", cfg.cli.reruns, "disturbance",
			cfg.cli.steal_max, cfg.cli.outside_max));
	server_cpus(doc, cfg.server_pid);

	r = sweep_run(&b, doc);
	b.bk->close(&b);
	if (r == -EINTR) {
		res_fail(doc, "interrupted by signal %d", (int)sig_stop);
		log_err("interrupted by signal %d", (int)sig_stop);
	}
	table_print(txt, &b, doc);
	if (cfg.cli.json_stream)
		ival_stream_end(stdout, doc);
	wfail = res_finish(doc) != 0;
	ival_close(b.iv);
	table_summary(txt, &b, r ? "interrupted" : "done");
	res_free(doc);
	free(b.src);
	free(b.dst);
	return r == -EINTR ? sig_exit_status() : wfail;
}
