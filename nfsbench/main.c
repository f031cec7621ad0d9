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
 * (results/SCHEMA.md, man nfsbench) define the tables it prints.
 */
#include "config.h"
#include "nfsbench.h"
#include "hostinfo.h"
#include "cli.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	.repeat = 1,
	.proto = "tcp",
};

static void usage(void)
{
	printf("usage: nfsbench [options] TARGET\n"
	       "  TARGET is nfs://server/export/file[?version=4&nfsport=N&mountport=N]\n"
	       "  (libnfs mode) or a file or directory under a mounted path.\n"
	       "  -r, --read              read the file (default)\n"
	       "  -w, --write             write (create) the file\n"
	       "  -s, --size LIST         request sizes: 4k,64k or 1k..1m (doubling)\n"
	       "                          [64k]; libnfs: the READ/WRITE count\n"
	       "  -n, --clients LIST      client processes: 1,8,48 or 1..32 [1]\n"
	       "      --qd N              libnfs: requests in flight per client [1]\n"
	       "      --async             libnfs: the async API even at qd 1\n"
	       "      --files shared|own  one file for all, or FILE.N each\n"
	       "                          [read: shared, write: own]\n"
	       "  -b, --bytes SIZE        write: bytes per client [64m];\n"
	       "                          read: at most this much [the file]\n"
	       "      --vers 3|4          libnfs: NFS version [the URL's, else 3]\n"
	       "      --mount DIR         mounted mode on DIR/nfsbench.dat\n"
	       "      --direct            mounted: O_DIRECT\n"
	       "      --drop-caches       drop the page cache before each sample (root)\n"
	       "      --rsize N, --wsize N  mounted: labels when mountinfo lacks them\n"
	       "      --verify            check read data against the write pattern\n"
	       "      --verify-file FILE  check read data against a local copy\n"
	       "      --seed N            data pattern seed\n"
	       "  -t, --timeout DUR       each RPC and setup step [10s]\n"
	       "      --max-time DUR      one sample at most [600s]\n"
	       "  -R, --repeat N          samples per case [1]\n"
	       "  -c                      client CPU with the default meter\n"
	       "      --cpu LIST          client meters: soak,procstat,rusage,perf\n"
	       "      --server-pid PID    server CPU: that process tree on this box\n"
	       "      --remote-cpu H[:P]  server CPU: `cyclesoak --serve` on the server\n"
	       "  -L, --label L           label of this run [kernel release]\n"
	       "  -J                      result document to stdout (text to stderr)\n"
	       "  -o, --output FILE       result document to FILE\n"
	       "  -v, -q                  more, less output\n"
	       "  -h, --help              this help\n");
}

enum {
	OPT_QD = 256,
	OPT_ASYNC,
	OPT_FILES,
	OPT_VERS,
	OPT_MOUNT,
	OPT_DIRECT,
	OPT_DROP,
	OPT_RSIZE,
	OPT_WSIZE,
	OPT_VERIFY,
	OPT_VERIFY_FILE,
	OPT_SEED,
	OPT_MAXTIME,
	OPT_CPU,
	OPT_SPID,
	OPT_RCPU,
};

static const struct option long_opts[] = {
	{"read", no_argument, NULL, 'r'},
	{"write", no_argument, NULL, 'w'},
	{"size", required_argument, NULL, 's'},
	{"clients", required_argument, NULL, 'n'},
	{"qd", required_argument, NULL, OPT_QD},
	{"async", no_argument, NULL, OPT_ASYNC},
	{"files", required_argument, NULL, OPT_FILES},
	{"bytes", required_argument, NULL, 'b'},
	{"vers", required_argument, NULL, OPT_VERS},
	{"mount", required_argument, NULL, OPT_MOUNT},
	{"direct", no_argument, NULL, OPT_DIRECT},
	{"drop-caches", no_argument, NULL, OPT_DROP},
	{"rsize", required_argument, NULL, OPT_RSIZE},
	{"wsize", required_argument, NULL, OPT_WSIZE},
	{"verify", no_argument, NULL, OPT_VERIFY},
	{"verify-file", required_argument, NULL, OPT_VERIFY_FILE},
	{"seed", required_argument, NULL, OPT_SEED},
	{"timeout", required_argument, NULL, 't'},
	{"max-time", required_argument, NULL, OPT_MAXTIME},
	{"repeat", required_argument, NULL, 'R'},
	{"cpu", required_argument, NULL, OPT_CPU},
	{"server-pid", required_argument, NULL, OPT_SPID},
	{"remote-cpu", required_argument, NULL, OPT_RCPU},
	{"label", required_argument, NULL, 'L'},
	{"output", required_argument, NULL, 'o'},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
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

static void parse_opts(struct cfg *c, int argc, char **argv)
{
	uint64_t v[NB_MAX_LIST], u;
	long l;
	int o, i;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "rws:n:b:t:R:cL:Jo:vqh", long_opts,
				NULL)) != -1) {
		switch (o) {
		case 'r':
			c->op = NFSIO_READ;
			break;
		case 'w':
			c->op = NFSIO_WRITE;
			break;
		case 's':
			c->nsizes =
				parse_list("--size", optarg, 1, 64 << 20, 1, v);
			for (i = 0; i < c->nsizes; i++)
				c->sizes[i] = (size_t)v[i];
			break;
		case 'n':
			c->nclients = parse_list("--clients", optarg, 1,
						 NB_MAX_CLIENTS, 0, v);
			for (i = 0; i < c->nclients; i++)
				c->clients[i] = (int)v[i];
			break;
		case OPT_QD:
			if (units_parse_long(optarg, 1, NFSIO_MAX_QD, &l))
				die_usage("--qd: \"%s\" is not 1 to %d", optarg,
					  NFSIO_MAX_QD);
			c->qd = (int)l;
			break;
		case OPT_ASYNC:
			c->async = 1;
			break;
		case OPT_FILES:
			if (strcmp(optarg, "shared") && strcmp(optarg, "own"))
				die_usage(
					"--files: \"%s\" is not shared or own",
					optarg);
			c->own_files = !strcmp(optarg, "own");
			break;
		case 'b':
			if (units_parse_size(optarg, &u) || !u)
				die_usage("--bytes: \"%s\" is not a size",
					  optarg);
			c->bytes = u;
			break;
		case OPT_VERS:
			if (strcmp(optarg, "3") && strcmp(optarg, "4"))
				die_usage("--vers: \"%s\" is not 3 or 4",
					  optarg);
			c->vers = atoi(optarg);
			break;
		case OPT_MOUNT:
			c->target = optarg;
			break;
		case OPT_DIRECT:
			c->direct = 1;
			break;
		case OPT_DROP:
			c->drop_caches = 1;
			break;
		case OPT_RSIZE:
		case OPT_WSIZE:
			if (units_parse_long(optarg, 1, 1L << 30, &l))
				die_usage("--%s: \"%s\" is not a size",
					  o == OPT_RSIZE ? "rsize" : "wsize",
					  optarg);
			*(o == OPT_RSIZE ? &c->rsize : &c->wsize) = l;
			break;
		case OPT_VERIFY:
			c->verify = NFSIO_VERIFY_PATTERN;
			break;
		case OPT_VERIFY_FILE:
			c->verify = NFSIO_VERIFY_FILE;
			c->verify_file = optarg;
			break;
		case OPT_SEED:
			if (units_parse_long(optarg, 1, 0x7fffffffL, &l))
				die_usage(
					"--seed: \"%s\" is not a positive number",
					optarg);
			c->seed = (uint64_t)l;
			break;
		case 't':
			c->timeout_ms = (int)ceil(
				cli_duration("--timeout", optarg, 0, 86400) * 1000);
			break;
		case OPT_MAXTIME:
			c->max_time = cli_duration("--max-time", optarg, 0, 86400);
			break;
		case 'R':
			if (units_parse_long(optarg, 1, 10000, &l))
				die_usage("--repeat: \"%s\" is not 1 to 10000",
					  optarg);
			c->repeat = (int)l;
			break;
		case 'c':
			c->cpu = "";
			break;
		case OPT_CPU:
			c->cpu = optarg;
			break;
		case OPT_SPID:
			if (units_parse_long(optarg, 1, 0x3fffffff, &l))
				die_usage("--server-pid: \"%s\" is not a PID",
					  optarg);
			c->server_pid = (pid_t)l;
			break;
		case OPT_RCPU:
			c->remote_cpu = optarg;
			break;
		case 'L':
			c->label = optarg;
			break;
		case 'J':
			c->json_out = "-";
			break;
		case 'o':
			c->json_out = optarg;
			break;
		case 'v':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			c->quiet = 1;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			cli_bad_option(argv);
		}
	}
	if (optind < argc) {
		if (c->target)
			die_usage(
				"give the target once (--mount or an argument)");
		c->target = argv[optind++];
	}
	if (optind < argc)
		die_usage("unexpected argument \"%s\"", argv[optind]);
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
}

/* Resolve the target: mode, file path, and the labels of the case. */
static void do_target(struct cfg *c, struct res_doc *d)
{
	struct nfsio_mount m;
	struct stat sb;
	char dir[4096], *slash;

	if (c->mode_libnfs) {
		/* a bad URL is a failed run (with its document), not usage */
		if (nfsio_url_version(c->target) < 0)
			die("bad URL %s: version= must be 3 or 4", c->target);
		snprintf(c->path, sizeof(c->path), "%s", c->target);
		snprintf(c->vers_label, sizeof(c->vers_label), "%d",
			 c->vers ? c->vers : nfsio_url_version(c->target));
		return;
	}
	if (!stat(c->target, &sb) && S_ISDIR(sb.st_mode))
		snprintf(c->path, sizeof(c->path), "%s/nfsbench.dat",
			 c->target);
	else
		snprintf(c->path, sizeof(c->path), "%s", c->target);
	snprintf(dir, sizeof(dir), "%s", c->path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(c->vers_label, sizeof(c->vers_label), "-");
	if (nfsio_mount_of(NULL, dir, &m)) {
		res_warn(d, "cannot tell which mount holds %s", dir);
		return;
	}
	snprintf(c->fstype, sizeof(c->fstype), "%s", m.fstype);
	if (strncmp(m.fstype, "nfs", 3)) {
		res_warn(
			d,
			"%s is on %s (%s), not NFS: the figures are the local file system's",
			dir, m.fstype, m.mnt);
		log_verbose("%s is on %s (%s), not NFS", dir, m.fstype, m.mnt);
	} else
		log_verbose(
			"%s: %s mounted on %s, rsize %ld wsize %ld vers %s proto %s",
			dir, m.source, m.mnt, m.rsize, m.wsize, m.vers,
			m.proto);
	if (!c->rsize)
		c->rsize = m.rsize;
	if (!c->wsize)
		c->wsize = m.wsize;
	if (m.vers[0])
		snprintf(c->vers_label, sizeof(c->vers_label), "%s", m.vers);
	if (m.proto[0])
		snprintf(c->proto, sizeof(c->proto), "%s", m.proto);
	else if (strncmp(m.fstype, "nfs", 3))
		snprintf(c->proto, sizeof(c->proto), "-");
}

static json_t *config_json(const struct cfg *c)
{
	return json_pack(
		"{s:s, s:s, s:i, s:b, s:b, s:I, s:i, s:b, s:b, s:s, s:i, s:f, s:i, s:s, s:s}",
		"target", c->path, "op",
		c->op == NFSIO_WRITE ? "write" : "read", "qd", c->qd, "async",
		c->async || c->qd > 1, "own_files", c->own_files, "bytes",
		(json_int_t)c->bytes, "timeout_ms", c->timeout_ms, "direct",
		c->direct, "drop_caches", c->drop_caches, "verify",
		c->verify == NFSIO_VERIFY_NONE	    ? "none"
		: c->verify == NFSIO_VERIFY_PATTERN ? "pattern"
						    : "file",
		"repeat", c->repeat, "max_time_s", c->max_time, "server_pid",
		(int)c->server_pid, "libnfs_api", nfsio_libnfs_api(),
		"remote_cpu", c->remote_cpu ? c->remote_cpu : "");
}

static void record(const struct cfg *c, struct res_doc *d,
		   const struct nb_sample *s)
{
	json_t *params, *kase, *sample;
	double mbps = s->elapsed_s > 0 ? s->bytes / s->elapsed_s / 1e6 : 0;
	long rsize = c->mode_libnfs ? (long)s->reqsize : c->rsize;
	long wsize = c->mode_libnfs ? (long)s->reqsize : c->wsize;

	params = json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:i, s:i, s:s}",
			   "op", c->op == NFSIO_WRITE ? "write" : "read",
			   "rsize", (int)rsize, "wsize", (int)wsize, "iosize",
			   (int)s->reqsize, "vers", c->vers_label, "proto",
			   c->proto, "clients", s->clients, "qd", c->qd, "mode",
			   c->mode_libnfs ? "libnfs" : "mounted");
	if (!c->mode_libnfs)
		json_object_set_new(params, "direct", json_boolean(c->direct));
	kase = res_case(d, params);
	sample = json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:I}", "bytes",
			   (json_int_t)s->bytes, "ops", (json_int_t)s->ops,
			   "short_ops", (json_int_t)s->short_ops, "elapsed_s",
			   s->elapsed_s, "client_min_s", s->min_client_s,
			   "client_max_s", s->max_client_s, "verified_bytes",
			   (json_int_t)s->verified);
	if (c->mode_libnfs)
		json_object_set_new(sample, "server_readmax",
				    json_integer((json_int_t)s->readmax));
	if (c->server_pid)
		json_object_set_new(sample, "same_box", json_true());
	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(d, "ops_per_s", "ops/s", RES_HIGHER, 1);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	res_sample_set(sample, "throughput_MBps", mbps);
	res_sample_set(sample, "ops_per_s",
		       s->elapsed_s > 0 ? s->ops / s->elapsed_s : 0);
	res_sample_set(sample, "elapsed_s", s->elapsed_s);
	/* service demand: this run's CPU over this run's bytes */
	cpuwin_add(d, sample, &s->cpu, (double)s->bytes);
	if (s->cpu.paired)
		res_sample_pair(d, sample, s->pair, s->cpu.metered);
	res_sample(kase, sample);
}

static void check_limits(const struct cfg *c, struct res_doc *d,
			 const struct nb_sample *s)
{
	static int warned;

	if (warned || !c->mode_libnfs)
		return;
	if (c->op == NFSIO_READ && s->readmax && s->reqsize > s->readmax) {
		res_warn(
			d,
			"request size %zu exceeds the server's largest READ (%llu): replies are short",
			s->reqsize, (unsigned long long)s->readmax);
		warned = 1;
	}
	if (c->op == NFSIO_WRITE && s->writemax && s->reqsize > s->writemax) {
		res_warn(
			d,
			"request size %zu exceeds the server's largest WRITE (%llu)",
			s->reqsize, (unsigned long long)s->writemax);
		warned = 1;
	}
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

/* One run of a case: measure, record, print; metered only when paired. */
static void one_run(const struct cfg *c, struct res_doc *d, struct cpuwin *w,
		    size_t size, int clients, int rep, int metered,
		    struct best *b)
{
	struct nb_sample s;
	char err[1024];
	double mbps;

	if (nb_run_sample(c, size, clients, w, metered, &s, err, sizeof(err)))
		fail(d, err);
	s.pair = rep;
	check_limits(c, d, &s);
	record(c, d, &s);
	nb_print_sample(c, &s, rep);
	if (s.cpu.metered)
		return; /* its rate is not a result */
	mbps = s.elapsed_s > 0 ? s.bytes / s.elapsed_s / 1e6 : 0;
	if (!b->n++ || mbps > b->mbps) {
		b->mbps = mbps;
		b->size = s.reqsize;
		b->clients = s.clients;
	}
}

/* "client soak,procstat, server pid and soak (cyclesoak --serve)" */
static void meters_line(FILE *f, const struct cfg *c, struct cpuwin *w)
{
	char names[64];

	fprintf(f,
		"nfsbench: CPU meters: client %s, server %s%s%s; soak runs in pairs: metered, then unmetered (the rate)\n",
		w->have_local ? cpuwin_local_names(w, names, sizeof(names))
			      : "-",
		c->server_pid ? "pid" : "",
		c->server_pid && c->remote_cpu ? " and " : "",
		w->remote_paired ? "soak (cyclesoak --serve)"
		: c->remote_cpu	 ? "cyclesoak --serve"
		: c->server_pid	 ? ""
				 : "-");
}

/*
 * The order runs go in: for each repeat, each request size, each client
 * count, one sample; paired (the soak meter on some side), each sample is
 * two runs back to back, metered then unmetered (pair = the repeat), so a
 * case's runs alternate MUMU... (ABAB), each pair's runs close in time.
 */
int main(int argc, char **argv)
{
	struct cfg *c = &cfg;
	struct best best = {0};
	struct res_doc *d;
	struct cpuwin *w;
	char err[1024];
	int rep, i, j, run, paired;
	FILE *f;

	log_init(argv[0]);
	parse_opts(c, argc, argv);
	if (res_check_output(c->json_out, err, sizeof(err)))
		die("%s", err);
	sig_install();
	d = res_new("nfsbench", argc, argv);
	if (c->label)
		res_set_label(d, c->label);
	res_set_output(d, c->json_out);
	do_target(c, d);
	res_set(d, "config", config_json(c));
	w = nb_cpu_open(c);
	if (w) {
		json_t *peer = cpuwin_peer(w);

		if (peer)
			res_set_peer(d, peer);
	}
	paired = w && cpuwin_paired(w);
	f = c->json_out && !strcmp(c->json_out, "-") ? stderr : stdout;
	if (paired && !c->quiet)
		meters_line(f, c, w);
	for (rep = 0; rep < c->repeat; rep++)
		for (i = 0; i < c->nsizes; i++)
			for (j = 0; j < c->nclients; j++)
				for (run = 0; run < meter_runs(paired, 1);
				     run++)
					one_run(c, d, w, c->sizes[i],
						c->clients[j], rep,
						meter_run_metered(paired, run),
						&best);
	nb_cpu_close(w);
	nb_print_perturbation(c, d);
	nb_print_tables(c, d);
	if (res_finish(d))
		return 1;
	if (!c->quiet)
		fprintf(f,
			"nfsbench: ok, %s %s %s%s, %d sample%s%s, best %.1f MB/s (%zu B x %d client%s)\n",
			c->mode_libnfs ? "libnfs" : "mounted",
			c->op == NFSIO_WRITE ? "write" : "read",
			strcmp(c->vers_label, "-") ? "NFSv" : "on ",
			strcmp(c->vers_label, "-") ? c->vers_label : c->fstype,
			best.n, best.n == 1 ? "" : "s",
			paired ? " (unmetered runs; as many metered)" : "",
			best.mbps, best.size, best.clients,
			best.clients == 1 ? "" : "s");
	res_free(d);
	return 0;
}
