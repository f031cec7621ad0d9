/*
 * nfsbench: NFS read and write throughput by request size, with many
 * clients, and the CPU it costs the client and the server.
 *
 *   nfsbench [options] nfs://server/export/file?version=4   (libnfs)
 *   nfsbench [options] /mnt/nfs/file | /mnt/nfs/dir          (mounted)
 *
 * libnfs mode needs no kernel client: the count of each READ/WRITE is the
 * request size on the wire, the rsize/wsize analogue (libnfs 4.0 has no
 * rsize option). Mounted mode reads files under a kernel NFS mount whose
 * rsize/wsize the mount options set (scripts/nfs-sweep remounts per size).
 * Clients are processes released together by a barrier. Seeds 001 and 002
 * (lib/doc/SCHEMA.md, man nfsbench) define the tables it prints.
 */
#include "config.h"
#include "nfsbench.h"
#include "hostinfo.h"
#include "cli.h"
#include "log.h"
#include "result.h"
#include "series.h"
#include "sig.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A field of the settings, for the plain options' table. */
#define NO(f) offsetof(struct cfg, f)

static struct cfg cfg = {
	.op = NFSIO_READ,
	.sizes = {65536},
	.nsizes = 1,
	.clients = {1},
	.nclients = 1,
	.qd = 1,
	.own_files = -1, /* read: shared, write: own */
	.seed = NFSIO_SEED,
	.timeout_ms = 10000,
	.max_time = 600,
	.cli = {.repeat = 1},
	.proto = "tcp",
};

static const char usage_text[] =
	"usage: nfsbench [options] TARGET\n"
	"  TARGET is nfs://server/export/file[?version=4&nfsport=N&mountport=N]\n"
	"  (libnfs mode) or a file or directory under a mounted path.\n";

/* The long-only options. */
enum {
	O_QD = CLI_OPT_LONG,
	O_ASYNC,
	O_FILES,
	O_VERS,
	O_MOUNT,
	O_DIRECT,
	O_DROP_CACHES,
	O_RSIZE,
	O_WSIZE,
	O_VERIFY,
	O_VERIFY_FILE,
	O_SEED,
	O_MAX_TIME,
	O_SERVER_PID,
	O_REMOTE_CPU,
};

/* "4k,64k" or "1k..1m" (doubling) into v; returns the count. */
static int parse_list(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		      int sizes, uint64_t *v)
{
	char buf[512], *tok, *save = NULL, *dots;
	uint64_t a, b;
	long l;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		dots = strstr(tok, "..");
		if (dots)
			*dots = 0;
		if (sizes ? units_parse_size(tok, &a)
			  : units_parse_long(tok, 1, (long)hi, &l))
			die_usage("%s: \"%s\" is not a %s", opt, tok,
				  sizes ? "size" : "number");
		if (!sizes)
			a = (uint64_t)l;
		b = a;
		if (dots &&
		    (sizes ? units_parse_size(dots + 2, &b)
			   : units_parse_long(dots + 2, 1, (long)hi, &l)))
			die_usage("%s: \"%s\" is not a %s", opt, dots + 2,
				  sizes ? "size" : "number");
		if (dots && !sizes)
			b = (uint64_t)l;
		if (a < lo || b > hi || b < a)
			die_usage("%s: %s is out of range (%llu to %llu)", opt,
				  tok, (unsigned long long)lo,
				  (unsigned long long)hi);
		for (; a <= b; a *= 2) {
			if (n == NB_MAX_LIST)
				die_usage("%s: at most %d values", opt,
					  NB_MAX_LIST);
			v[n++] = a;
			if (!dots)
				break;
		}
	}
	if (!n)
		die_usage("%s: empty list", opt);
	return n;
}

/* A whole number in [lo, hi]; else one line: not what (NULL: lo to hi). */
static long number(const char *opt, const char *arg, long lo, long hi,
		   const char *what)
{
	long l;

	if (units_parse_long(arg, lo, hi, &l)) {
		if (what)
			die_usage("%s: \"%s\" is not %s", opt, arg, what);
		die_usage("%s: \"%s\" is not %ld to %ld", opt, arg, lo, hi);
	}
	return l;
}

/* What is moved: the direction, sizes, clients, files and data. */
static int what_option(void *p, int o, const char *arg)
{
	static const char *const files[] = {"shared", "own", NULL};
	struct cfg *c = p;
	uint64_t v[NB_MAX_LIST], u;
	int i;

	switch (o) {
	case 'r':
	case 'w':
		c->op = o == 'w' ? NFSIO_WRITE : NFSIO_READ;
		return 1;
	case 's':
		c->nsizes = parse_list("--size", arg, 1, 64 << 20, 1, v);
		for (i = 0; i < c->nsizes; i++)
			c->sizes[i] = (size_t)v[i];
		return 1;
	case 'n':
		c->nclients =
			parse_list("--clients", arg, 1, NB_MAX_CLIENTS, 0, v);
		for (i = 0; i < c->nclients; i++)
			c->clients[i] = (int)v[i];
		return 1;
	case O_FILES:
		c->own_files = cli_choice("--files", arg, files);
		return 1;
	case 'b':
		if (units_parse_size(arg, &u) || !u)
			die_usage("--bytes: \"%s\" is not a size", arg);
		c->bytes = u;
		return 1;
	case O_VERIFY:
		c->verify = NFSIO_VERIFY_PATTERN;
		return 1;
	case O_VERIFY_FILE:
		c->verify = NFSIO_VERIFY_FILE;
		c->verify_file = arg;
		return 1;
	case O_SEED:
		c->seed = (uint64_t)number("--seed", arg, 1, 0x7fffffffL,
					   "a positive number");
		return 1;
	}
	return 0;
}

/* Every option, in the usage's order. */
static const struct cli_set sets[] = {
	CLI_TAKE('r', "read", NULL, "read the file (default)"),
	CLI_TAKE('w', "write", NULL, "write (create) the file"),
	CLI_TAKE('s', "size", "LIST",
		 "request sizes: 4k,64k or 1k..1m (doubling)\n"
		 "[64k]; libnfs: the READ/WRITE count"),
	CLI_TAKE('n', "clients", "LIST",
		 "client processes: 1,8,48 or 1..32 [1]"),
	CLI_TAKE(O_QD, "qd", "N", "libnfs: requests in flight per client [1]"),
	CLI_SWITCH(O_ASYNC, "async", NO(async),
		   "libnfs: the async API even at qd 1"),
	CLI_TAKE(O_FILES, "files", "shared|own",
		 "one file for all, or FILE.N each\n"
		 "[read: shared, write: own]"),
	CLI_TAKE('b', "bytes", "SIZE",
		 "write: bytes per client [64m];\n"
		 "read: at most this much [the file]"),
	CLI_TAKE(O_VERS, "vers", "3|4",
		 "libnfs: NFS version [the URL's, else 3]"),
	CLI_STRING(O_MOUNT, "mount", "DIR", NO(target),
		   "mounted mode on DIR/nfsbench.dat"),
	CLI_SWITCH(O_DIRECT, "direct", NO(direct), "mounted: O_DIRECT"),
	CLI_SWITCH(O_DROP_CACHES, "drop-caches", NO(drop_caches),
		   "drop the page cache before each sample (root)"),
	CLI_TAKE(O_RSIZE, "rsize", "N",
		 "mounted: the rsize label when mountinfo lacks it"),
	CLI_TAKE(O_WSIZE, "wsize", "N",
		 "mounted: the wsize label when mountinfo lacks it"),
	CLI_TAKE(O_VERIFY, "verify", NULL,
		 "check read data against the write pattern"),
	CLI_TAKE(O_VERIFY_FILE, "verify-file", "FILE",
		 "check read data against a local copy"),
	CLI_TAKE(O_SEED, "seed", "N", "data pattern seed"),
	CLI_TAKE('t', "timeout", "DUR", "each RPC and setup step [10s]"),
	CLI_VALUE(O_MAX_TIME, "max-time", "DUR", CLI_DUR, NO(max_time), 0,
		  86400, "one sample at most [600s]"),
	{'R', NULL, "N", CLI_INT, NO(cli.repeat), 1, 10000,
	 "samples per case, as --repeat [1]", "--repeat"},
	CLI_TAKE(O_SERVER_PID, "server-pid", "PID",
		 "server CPU: that process tree on this box"),
	CLI_STRING(O_REMOTE_CPU, "remote-cpu", "H[:P]", NO(remote_cpu),
		   "server CPU: `cyclesoak --serve` on the server"),
	{'L', NULL, "L", CLI_STR, NO(cli.label), 0, 0,
	 "label of this run, as --label", "--label"},
	CLI_HEAD("  (-c and --cpu measure the client)"),
	{0},
};

/* How: queue depth, protocol version, timeouts, the server's pid. */
static void nb_option(void *p, int o, const char *arg)
{
	static const char *const vers[] = {"3", "4", NULL};
	struct cfg *c = p;

	switch (o) {
	case O_QD:
		c->qd = (int)number("--qd", arg, 1, NFSIO_MAX_QD, NULL);
		break;
	case O_VERS:
		c->vers = 3 + cli_choice("--vers", arg, vers);
		break;
	case O_RSIZE:
	case O_WSIZE:
		*(o == O_RSIZE ? &c->rsize : &c->wsize) =
			number(o == O_RSIZE ? "--rsize" : "--wsize", arg, 1,
			       1L << 30, "a size");
		break;
	case 't':
		c->timeout_ms = (int)ceil(
			cli_duration("--timeout", arg, 0, 86400) * 1000);
		break;
	case O_SERVER_PID:
		c->server_pid = (pid_t)number("--server-pid", arg, 1,
					      0x3fffffff, "a PID");
		break;
	}
}

CLI_TOOL(tool, usage_text, CLI_BENCH | CLI_OMIT | CLI_RERUNS,
	 .repeat_max = 10000, .sets = sets,
	 .take = {what_option}, .option = nb_option);

/* -i and --json-stream: the reporter (its lines with the text). */
static void check_ival(struct cfg *c)
{
	char err[256];

	if (ival_open_for(&c->iv, c->cli.interval, c->cli.json_stream, c->cli.cpu,
			  "nfsbench", "bytes",
			  c->cli.json_stream ? stderr : cli_text(&c->cli), err,
			  sizeof(err)))
		die("%s", err);
}

/* The target, the mode it implies and what goes with which mode. */
static void check_opts(struct cfg *c, int argc, char **argv, int first)
{
	if (first < argc) {
		if (c->target)
			die_usage(
				"give the target once (--mount or an argument)");
		c->target = argv[first++];
	}
	if (first < argc)
		die_usage("unexpected argument \"%s\"", argv[first]);
	if (!c->target)
		die_usage("no target: an nfs:// URL or a path (see --help)");
	c->mode_libnfs = nfsio_is_url(c->target);
	if (c->own_files < 0)
		c->own_files = c->op == NFSIO_WRITE;
	if (c->op == NFSIO_WRITE && !c->bytes)
		c->bytes = 64 << 20;
	if (c->mode_libnfs && (c->direct || c->rsize || c->wsize))
		die_usage(
			"--direct, --rsize and --wsize are for mounted mode; a URL's request size is --size");
	if (!c->mode_libnfs && (c->qd > 1 || c->async || c->vers))
		die_usage(
			"--qd, --async and --vers are for libnfs mode (nfs:// URLs)");
	if (c->verify && c->op == NFSIO_WRITE)
		die_usage(
			"--verify checks reads: write, then read with --verify");
	if (c->drop_caches && geteuid() != 0)
		die_usage("--drop-caches needs root");
	if (c->mode_libnfs && !nfsio_have_libnfs())
		die_usage(
			"nfs:// URLs need libnfs, which this build lacks (configure --with-libnfs)");
	c->json_out = cli_doc_path(&c->cli);
	c->quiet = log_level == LOG_QUIET;
	check_ival(c);
}

static void fail(struct res_doc *d, const char *err)
{
	nb_kill_clients();
	if (sig_stop) {
		res_fail(d, "%s", err);
		res_finish(d);
		log_err("%s", err);
		exit(sig_exit_status());
	}
	die("%s", err);
}

/* The fastest unmetered (or unpaired) run so far, for the last line. */
struct best {
	int n; /* such runs */
	double mbps;
	size_t size;
	int clients;
};

/* What the runs share: the series' context. */
struct runs {
	const struct cfg *c;
	struct res_doc *d;
	struct cpuwin *w;
	struct series *ser;
	struct best best;
};

/* Run r of cell (size i, clients j): measure, record, print; its rate. */
static int one_run(void *ctx, const struct series_run *r, double *mbps,
		   char *err, size_t len)
{
	struct runs *rs = ctx;
	const struct cfg *c = rs->c;
	size_t size = c->sizes[r->cell / c->nclients];
	int clients = c->clients[r->cell % c->nclients];
	struct best *b = &rs->best;
	struct nb_sample s;
	char why[300];
	int outcome;

	if (ival_start(c->iv, r->rep, NULL, err, len))
		fail(rs->d, err);
	if (nb_run_sample(c, size, clients, rs->w, r->metered, &s, err, len))
		fail(rs->d, err);
	/* the intervals count the omitted part too */
	s.intervals = ival_stop(c->iv, s.bytes + s.omit_bytes);
	s.pair = r->rep;
	outcome = series_quiet(rs->ser, r, &s.cpu.quiet, why, sizeof(why));
	if (outcome == SERIES_DISTURBED)
		log_verbose("sample %d disturbed: %s", r->seq + 1, why);
	nb_check_limits(c, rs->d, &s);
	nb_record(c, rs->d, &s, rs->ser, r, outcome);
	json_decref(s.intervals);
	nb_print_sample(c, &s, r->rep);
	*mbps = s.elapsed_s > 0 ? s.bytes / s.elapsed_s / 1e6 : 0;
	if (s.cpu.metered || (outcome == SERIES_DISTURBED && r->reruns_left > 0))
		return outcome; /* its rate is not a result */
	if (!b->n++ || *mbps > b->mbps) {
		b->mbps = *mbps;
		b->size = s.reqsize;
		b->clients = s.clients;
	}
	return outcome;
}

static const struct series_ops nb_runs = {.run = one_run};

/*
 * The order runs go in: for each repeat, each request size, each client
 * count (a cell each), one sample; paired (the soak meter on some side),
 * each sample is two runs back to back, metered then unmetered (pair =
 * the repeat), so a case's runs alternate MUMU... (ABAB), each pair's
 * runs close in time.
 */
static void run_series(struct runs *rs)
{
	const struct cfg *c = rs->c;
	struct series_cfg sc = {
		.ncells = c->nsizes * c->nclients,
		.paired = cpuwin_paired(rs->w),
		.paired_by = cpuwin_paired_by(rs->w),
	};
	struct series ser;
	char err[1024];

	series_cfg_cli(&sc, &c->cli);
	if (series_open(&ser, &sc, err, sizeof(err)))
		die("%s", err);
	rs->ser = &ser;
	if (series_run(&ser, &nb_runs, rs, err, sizeof(err)))
		fail(rs->d, err);
	series_close(&ser);
}

/* "client soak,procstat, server pid and soak (cyclesoak --serve)" */
static void meters_line(FILE *f, const struct cfg *c, struct cpuwin *w)
{
	char names[64];

	fprintf(f,
		"nfsbench: CPU meters: client %s, server %s%s%s; %s\n",
		w->have_local ? cpuwin_local_names(w, names, sizeof(names))
			      : "-",
		c->server_pid ? "pid" : "",
		c->server_pid && c->remote_cpu ? " and " : "",
		w->remote_paired ? "soak (cyclesoak --serve)"
		: c->remote_cpu	 ? "cyclesoak --serve"
		: c->server_pid	 ? ""
				 : "-",
		meter_pairs_words(cpuwin_paired_by(w)));
}

int main(int argc, char **argv)
{
	struct cfg *c = &cfg;
	struct runs rs = {.c = &cfg};
	struct res_doc *d;
	struct cpuwin *w;
	char err[1024];
	int paired;
	FILE *f;

	log_init(argv[0]);
	check_opts(c, argc, argv, cli_parse(&tool, c, &c->cli, argc, argv));
	if (res_check_output(c->json_out, err, sizeof(err)))
		die("%s", err);
	sig_install();
	d = res_new("nfsbench", argc, argv);
	if (c->cli.label)
		res_set_label(d, c->cli.label);
	res_set_output(d, c->json_out);
	nb_target(c, d);
	res_set(d, "config", nb_config_json(c));
	w = nb_cpu_open(c);
	{
		json_t *peer = cpuwin_peer(w);

		if (peer)
			res_set_peer(d, peer);
	}
	paired = cpuwin_paired(w);
	f = c->cli.json_stream ? stderr : cli_text(&c->cli);
	if (paired && !c->quiet)
		meters_line(f, c, w);
	rs.d = d;
	rs.w = w;
	run_series(&rs);
	nb_cpu_close(w);
	nb_print_perturbation(c, d);
	nb_print_tables(c, d);
	if (c->cli.json_stream)
		ival_stream_end(stdout, d);
	ival_close(c->iv);
	if (res_finish(d))
		return 1;
	if (!c->quiet)
		fprintf(f,
			"nfsbench: ok, %s %s %s%s, %d sample%s%s, best %.1f MB/s (%zu B x %d client%s)\n",
			c->mode_libnfs ? "libnfs" : "mounted",
			c->op == NFSIO_WRITE ? "write" : "read",
			strcmp(c->vers_label, "-") ? "NFSv" : "on ",
			strcmp(c->vers_label, "-") ? c->vers_label : c->fstype,
			rs.best.n, rs.best.n == 1 ? "" : "s",
			paired ? " (unmetered runs; as many metered)" : "",
			rs.best.mbps, rs.best.size, rs.best.clients,
			rs.best.clients == 1 ? "" : "s");
	res_free(d);
	return 0;
}
