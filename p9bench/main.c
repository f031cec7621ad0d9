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
#include "log.h"
#include "result.h"
#include "sig.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	cfg->repeat = 1;
	cfg->timeout = 10;
	snprintf(file_buf, sizeof(file_buf), "p9bench.%d.dat", (int)getpid());
	cfg->file = file_buf;
}

static void usage(void)
{
	printf("usage: p9bench -s HOST[:PORT]|unix:PATH [-a EXPORT] [options]\n"
	       "       p9bench --mount DIR [--odirect[=both]] [options]\n"
	       "Seed 000's 9P2000.L IO-size sweep: write then read, copy path (No ZC)\n"
	       "and direct path (ZC), the seed's WRITE/READ tables plus ops/s and CPU.\n"
	       "\n"
	       "Where:\n"
	       "  -s, --server ADDR      9P server: HOST[:PORT] (TCP, port 564) or unix:PATH\n"
	       "  -a, --aname PATH       export to attach (default /)\n"
	       "      --uname NAME       Tattach uname (default: your user name)\n"
	       "      --uid N            Tattach n_uname (default: your uid)\n"
	       "  -m, --msize BYTES      msize to propose (default 65536)\n"
	       "      --mount DIR        mounted mode: pread/pwrite on DIR/FILE\n"
	       "      --odirect[=both]   mounted mode: O_DIRECT (both: buffered and O_DIRECT)\n"
	       "      --file NAME        test file (default p9bench.PID.dat, removed after)\n"
	       "      --keep             keep the test file\n"
	       "      --no-create        the test file must exist (read what is there)\n"
	       "What:\n"
	       "      --path copy|direct|both   payload path(s) (default both)\n"
	       "      --op write|read|both      (default both: write, then read)\n"
	       "      --sizes LIST       IO sizes, e.g. 1,32,64,4096 or max (= msize - 24)\n"
	       "      --min-size BYTES   doubling from (default 1)\n"
	       "      --max-size BYTES   doubling up to (default 4096; max = msize - 24)\n"
	       "  -n, --ops N            operations per size (default 1M, the seed's)\n"
	       "      --total BYTES      bytes per size instead of --ops\n"
	       "      --duration SECS    seconds per size and path instead of --ops\n"
	       "      --file-size BYTES  offsets wrap within this (default 64M)\n"
	       "      --qd N             requests in flight (default 1, max %d)\n"
	       "  -r, --repeat N         samples per case (default 1)\n"
	       "      --verify           check every byte read\n"
	       "      --timeout SECS     no progress this long = dead server (default 10)\n"
	       "CPU:\n"
	       "  -c                     measure CPU with the default meter\n"
	       "      --cpu=LIST         meters: soak,procstat,rusage,perf\n"
	       "      --remote-cpu HOST[:PORT]  the server host's CPU (cyclesoak --serve)\n"
	       "      --server-pid PID   CPU of a server process on this box\n"
	       "Output:\n"
	       "  -J                     result document to stdout (tables to stderr)\n"
	       "  -o FILE                result document to FILE\n"
	       "      --label L          label of the run (default: kernel release)\n"
	       "  -v / -q                more / less\n"
	       "  -h, --help             this text\n",
	       P9_MAXTAGS);
}

enum {
	O_UNAME = 256,
	O_UID,
	O_MOUNT,
	O_ODIRECT,
	O_FILE,
	O_KEEP,
	O_NOCREATE,
	O_PATH,
	O_OP,
	O_SIZES,
	O_MIN,
	O_MAX,
	O_TOTAL,
	O_DURATION,
	O_FSIZE,
	O_QD,
	O_VERIFY,
	O_TIMEOUT,
	O_CPU,
	O_REMOTE,
	O_SPID,
	O_LABEL,
};

static const struct option longopts[] = {
	{"server", required_argument, NULL, 's'},
	{"aname", required_argument, NULL, 'a'},
	{"uname", required_argument, NULL, O_UNAME},
	{"uid", required_argument, NULL, O_UID},
	{"msize", required_argument, NULL, 'm'},
	{"mount", required_argument, NULL, O_MOUNT},
	{"odirect", optional_argument, NULL, O_ODIRECT},
	{"file", required_argument, NULL, O_FILE},
	{"keep", no_argument, NULL, O_KEEP},
	{"no-create", no_argument, NULL, O_NOCREATE},
	{"path", required_argument, NULL, O_PATH},
	{"op", required_argument, NULL, O_OP},
	{"sizes", required_argument, NULL, O_SIZES},
	{"min-size", required_argument, NULL, O_MIN},
	{"max-size", required_argument, NULL, O_MAX},
	{"ops", required_argument, NULL, 'n'},
	{"total", required_argument, NULL, O_TOTAL},
	{"duration", required_argument, NULL, O_DURATION},
	{"file-size", required_argument, NULL, O_FSIZE},
	{"qd", required_argument, NULL, O_QD},
	{"repeat", required_argument, NULL, 'r'},
	{"verify", no_argument, NULL, O_VERIFY},
	{"timeout", required_argument, NULL, O_TIMEOUT},
	{"cpu", optional_argument, NULL, O_CPU},
	{"remote-cpu", required_argument, NULL, O_REMOTE},
	{"server-pid", required_argument, NULL, O_SPID},
	{"label", required_argument, NULL, O_LABEL},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

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

static void parse_opts(struct cfg *cfg, int argc, char **argv)
{
	size_t min = 1, max = 4096;
	int c, sizes = 0, odirect = -1, paths = 0, count = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:a:m:n:r:cJo:vqh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			cfg->server = optarg;
			break;
		case 'a':
			cfg->aname = optarg;
			break;
		case O_UNAME:
			cfg->uname = optarg;
			break;
		case O_UID:
			cfg->uid = (uint32_t)cli_long("--uid", optarg, 0,
						      0xfffffffeL);
			cfg->uid_set = 1;
			break;
		case 'm':
			cfg->msize = (uint32_t)cli_size(
				"--msize", optarg, P9_MIN_MSIZE, P9_MAX_MSIZE);
			break;
		case O_MOUNT:
			cfg->mount = optarg;
			break;
		case O_ODIRECT:
			odirect = !optarg		    ? 1
				  : !strcmp(optarg, "both") ? 2
							    : -2;
			if (odirect == -2)
				die_usage("--odirect: '%s' is not 'both'",
					  optarg);
			break;
		case O_FILE:
			cfg->file = optarg;
			break;
		case O_KEEP:
			cfg->keep = 1;
			break;
		case O_NOCREATE:
			cfg->no_create = 1;
			break;
		case O_PATH:
			paths = pick("--path", optarg, "copy", "direct");
			break;
		case O_OP:
			cfg->ops_mask = pick("--op", optarg, "write", "read");
			break;
		case O_SIZES:
			parse_sizes(cfg, optarg);
			sizes = 1;
			break;
		case O_MIN:
			min = io_size("--min-size", optarg);
			break;
		case O_MAX:
			max = io_size("--max-size", optarg);
			break;
		case 'n':
			cfg->ops = cli_size("--ops", optarg, 1, 1ull << 40);
			count++;
			break;
		case O_TOTAL:
			cfg->total = cli_size("--total", optarg, 1, 1ull << 50);
			count++;
			break;
		case O_DURATION:
			if (units_parse_duration(optarg, &cfg->duration) ||
			    cfg->duration <= 0)
				die_usage("--duration: '%s' is not a duration",
					  optarg);
			count++;
			break;
		case O_FSIZE:
			cfg->file_size =
				cli_size("--file-size", optarg, 1, 1ull << 50);
			break;
		case O_QD:
			cfg->qd = (int)cli_long("--qd", optarg, 1, P9_MAXTAGS);
			break;
		case 'r':
			cfg->repeat =
				(int)cli_long("--repeat", optarg, 1, 1000);
			break;
		case O_VERIFY:
			cfg->verify = 1;
			break;
		case O_TIMEOUT:
			if (units_parse_duration(optarg, &cfg->timeout) ||
			    cfg->timeout < 0.01)
				die_usage(
					"--timeout: '%s' is not a duration >= 10ms",
					optarg);
			break;
		case 'c':
			cfg->cpu = 1;
			break;
		case O_CPU:
			cfg->cpu = 1;
			cfg->cpu_list = optarg;
			break;
		case O_REMOTE:
			cfg->remote_cpu = optarg;
			break;
		case O_SPID:
			cfg->server_pid = (pid_t)cli_long(
				"--server-pid", optarg, 1, 0x7fffffffL);
			break;
		case 'J':
			cfg->json = 1;
			break;
		case 'o':
			cfg->out = optarg;
			break;
		case O_LABEL:
			cfg->label = optarg;
			break;
		case 'v':
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
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!cfg->server == !cfg->mount)
		die_usage(
			"give either -s/--server (9P) or --mount DIR (mounted)");
	if (count > 1)
		die_usage("--ops, --total and --duration exclude each other");
	if (cfg->mount) {
		if (paths)
			die_usage(
				"--path selects 9P payload paths; with --mount use --odirect");
		cfg->paths = odirect < 0 ? 1 : odirect == 1 ? 2 : 3;
		if (cfg->qd > 1)
			die_usage(
				"--qd > 1 needs the 9P mode (--mount does one call at a time)");
		if (cfg->verify && (cfg->paths & 2))
			die_usage(
				"--verify needs buffered I/O (O_DIRECT writes use an aligned buffer)");
	} else {
		if (odirect >= 0)
			die_usage("--odirect needs --mount DIR");
		cfg->paths = paths ? paths : 3;
	}
	if (!sizes) {
		cfg->min_size = min;
		cfg->max_size = max;
		if (min == SIZE_MAX_IO || (max != SIZE_MAX_IO && min > max))
			die_usage("--min-size must not exceed --max-size");
		if (cfg->mount && max == SIZE_MAX_IO)
			die_usage(
				"IO size 'max' (msize - 24) needs the 9P mode");
	}
	if (cfg->mount)
		for (c = 0; c < cfg->nsizes; c++)
			if (cfg->sizes[c] == SIZE_MAX_IO)
				die_usage(
					"IO size 'max' (msize - 24) needs the 9P mode");
	if (strchr(cfg->file, '/') || !strcmp(cfg->file, ".") ||
	    !strcmp(cfg->file, "..") || !cfg->file[0])
		die_usage("--file: '%s' must be a plain name", cfg->file);
	if (cfg->json && cfg->out)
		die_usage("-J and -o exclude each other");
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
	parse_opts(&cfg, argc, argv);
	if (!cfg.json && res_check_output(cfg.out, err, sizeof(err)))
		die("%s", err);
	sig_install();
	txt = cfg.json ? stderr : stdout;

	doc = res_new("p9bench", argc, argv);
	if (cfg.label)
		res_set_label(doc, cfg.label);
	res_set_output(doc, cfg.json ? "-" : cfg.out);
	b.cfg = &cfg;
	b.bk = cfg.mount ? &bk_mounted : &bk_9p;
	b.c.fd = -1;
	b.bk->open(&b);
	res_set(doc, "config",
		json_pack("{s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:f, s:i, s:b, s:s, s:i}",
			  "mode", b.bk->mode, "where", b.where, "file",
			  cfg.file, "msize",
			  (int)(b.bk == &bk_9p ? b.c.msize : 0), "file_size",
			  (json_int_t)cfg.file_size, "ops",
			  (json_int_t)(cfg.total || cfg.duration ? 0 : cfg.ops),
			  "total", (json_int_t)cfg.total, "duration",
			  cfg.duration, "qd", cfg.qd, "verify", cfg.verify,
			  "uname", cfg.uname, "uid", (int)cfg.uid));

	r = sweep_run(&b, doc);
	b.bk->close(&b);
	if (r == -EINTR) {
		res_fail(doc, "interrupted by signal %d", (int)sig_stop);
		log_err("interrupted by signal %d", (int)sig_stop);
	}
	table_print(txt, &b, doc);
	wfail = res_finish(doc) != 0;
	table_summary(txt, &b, r ? "interrupted" : "done");
	res_free(doc);
	sweep_free(&b);
	free(b.src);
	free(b.dst);
	return r == -EINTR ? sig_exit_status() : wfail;
}
