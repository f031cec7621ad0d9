/*
 * zcc: the zero-copy file client of Andrew Morton's zcs/zcc (2001). It
 * squirts a set of files at a zcs -n times, by sendfile or any send method
 * of lib/xfer, over -P connections at once, and prints MB/s with this
 * box's CPU (-c) and, from a zcbench zcs, the server's (-C). Without -C
 * the bytes on the wire are exactly the original's. See man/zcc.1.
 */
#include "config.h"
#include "zcc.h"

#include "hostinfo.h"
#include "cli.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "stats.h"
#include "units.h"
#include "zcwire.h"

#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct cfg cfg = {
	.port = ZCW_PORT,
	.loops = 1,
	.bufsize = 65536, /* the original's 64 kbyte chunks */
	.cpu = -1,
	.conns = 1,
	.repeat = 1,
	.timeout_ms = 30000,
};

static int opt_S, opt_w; /* -S, -w before they pick a method */
static FILE *out;	 /* human text: stdout, stderr with -J */

static void usage(void)
{
	printf("usage: zcc [options] -s SERVER FILE...\n"
	       "Send the files to a zcs, -n times, and print MB/s and CPU.\n"
	       "  -s, --server HOST      server to send to (required)\n"
	       "  -p, --port PORT        its port (%d)\n"
	       "  -n, --loops N          send the file set N times (1)\n"
	       "  -b, --bufsize SIZE     bytes per send call (64k)\n"
	       "  -S                     read + send instead of sendfile\n"
	       "  -w                     with -S: write instead of send\n"
	       "      --method NAME      send method: %s (sendfile); help lists them\n"
	       "  -k                     TCP_CORK on the connection (checked)\n"
	       "  -i SIZE                TCP receive buffer (SO_RCVBUF)\n"
	       "  -o SIZE                TCP send buffer (SO_SNDBUF)\n"
	       "  -B, --bind-cpu CPU     run on this CPU only\n"
	       "  -P, --parallel N       N connections at once from this process (1)\n"
	       "  -c                     measure this box's CPU (default meters)\n"
	       "      --cpu=LIST         the same with meters soak,procstat,rusage,perf\n"
	       "  -C, --remote-cpu       ask the server for its CPU: zcbench zcs only\n"
	       "                         (sends a hello an original zcs cannot read)\n"
	       "      --repeat N         N runs, one sample each (1)\n"
	       "      --timeout SECS     longest wait for progress (30)\n"
	       "  -J                     result document to stdout (text to stderr)\n"
	       "      --output FILE      result document to FILE (-o is the send buffer)\n"
	       "      --label L          label of the result document\n"
	       "  -v, -d                 more output; -q less\n"
	       "  -h, --help             this text\n",
	       ZCW_PORT, xfer_names(XFER_SEND));
}

enum { O_METHOD = 256, O_CPU, O_REPEAT, O_TIMEOUT, O_OUTPUT, O_LABEL };

static const struct option longopts[] = {
	{"server", required_argument, NULL, 's'},
	{"port", required_argument, NULL, 'p'},
	{"loops", required_argument, NULL, 'n'},
	{"bufsize", required_argument, NULL, 'b'},
	{"method", required_argument, NULL, O_METHOD},
	{"bind-cpu", required_argument, NULL, 'B'},
	{"parallel", required_argument, NULL, 'P'},
	{"cpu", optional_argument, NULL, O_CPU},
	{"remote-cpu", no_argument, NULL, 'C'},
	{"repeat", required_argument, NULL, O_REPEAT},
	{"timeout", required_argument, NULL, O_TIMEOUT},
	{"output", required_argument, NULL, O_OUTPUT},
	{"label", required_argument, NULL, O_LABEL},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void pick_method(void)
{
	if (cfg.method && !strcmp(cfg.method, "help")) {
		xfer_print_table(stdout);
		exit(0);
	}
	if (cfg.method && opt_S)
		die_usage(
			"-S and --method: pick one (-S is --method=send, -S -w is --method=write)");
	if (opt_w && !opt_S && !cfg.method)
		die_usage("-w: only with -S (write instead of send)");
	if (!cfg.method)
		cfg.method = opt_S ? (opt_w ? "write" : "send") : "sendfile";
	if (!xfer_find(cfg.method, XFER_SEND))
		die_usage("--method: no send method \"%s\" (%s)", cfg.method,
			  xfer_names(XFER_SEND));
}

static void parse_opts(int argc, char **argv)
{
	double t;
	int o;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "s:p:n:b:SwkN:i:o:B:P:cCJvdqh",
				longopts, NULL)) != -1) {
		switch (o) {
		case 's':
			cfg.server = optarg;
			break;
		case 'p':
			cfg.port = (int)cli_long("-p", optarg, 1, 65535);
			break;
		case 'n':
			cfg.loops = (uint32_t)cli_long("-n", optarg, 0, UINT32_MAX);
			break;
		case 'b':
			cfg.bufsize = cli_size("-b", optarg, 1, 64 << 20);
			break;
		case 'S':
			opt_S = 1;
			break;
		case 'w':
			opt_w = 1;
			break;
		case 'k':
			cfg.cork = 1;
			break;
		case 'N':
			log_info("-N: ignored, CPUs are counted from /sys");
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
		case 'P':
			cfg.conns = (int)cli_long("-P", optarg, 1, 4096);
			break;
		case 'c':
			cfg.measure = 1;
			break;
		case O_CPU:
			cfg.measure = 1;
			cfg.meters = optarg;
			break;
		case 'C':
			cfg.remote = 1;
			break;
		case O_METHOD:
			cfg.method = optarg;
			break;
		case O_REPEAT:
			cfg.repeat = (int)cli_long("--repeat", optarg, 1, 100000);
			break;
		case O_TIMEOUT:
			if (units_parse_duration(optarg, &t) || t <= 0 ||
			    t > 86400)
				die_usage(
					"--timeout: \"%s\" is not a duration in (0, 1d]",
					optarg);
			cfg.timeout_ms = (int)(t * 1000 + 0.5);
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
	pick_method();
	if (!cfg.server)
		die_usage("-s SERVER: which zcs to send to");
	if (optind >= argc)
		die_usage("no files to send (zcc -s SERVER FILE...)");
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

static int same_box(json_t *peer_host)
{
	char me[256] = "";
	const char *them =
		json_string_value(json_object_get(peer_host, "hostname"));

	gethostname(me, sizeof(me) - 1);
	return them && !strcmp(them, me);
}

/* What the runs so far measured: unmetered runs (the results) and,
 * paired, the metered partner of each (same index = same pair). */
struct rates {
	double *mbps;	 /* unmetered (or unpaired) runs */
	double *metered; /* metered run of pair k */
	int n, nm;
};

/* The kind of run, when paired: before its figures. */
static void print_kind(const struct cpuwin_sample *cs, int pair)
{
	if (!cs->paired)
		return;
	fprintf(out,
		cs->metered
			? "pair %d, metered run: soakers on (its CPU is the soak figure; its rate is not the result)\n"
			: "pair %d, unmetered run: soakers parked (this rate is the result)\n",
		pair + 1);
}

static void print_run(int k, int nruns, const struct run_result *r,
		      const struct cpuwin_sample *cs)
{
	fprintf(out,
		"run %d/%d: %.1f MB/s  %llu bytes in %.3f s (%llu header bytes, %d connection%s)\n",
		k + 1, nruns,
		r->elapsed_s > 0 ? (double)r->payload / r->elapsed_s / 1e6 : 0,
		(unsigned long long)r->payload, r->elapsed_s,
		(unsigned long long)r->header, cfg.conns,
		cfg.conns == 1 ? "" : "s");
	if (cs->nlocal)
		meter_print(out, "local", cs->local, cs->nlocal,
			    (double)r->payload);
	if (r->rem.n) {
		meter_print(out, "remote", r->rem.cpu, r->rem.n,
			    (double)r->payload);
		if (same_box(r->rem.host))
			fprintf(out,
				"  (same box: local and remote are the same CPUs)\n");
	} else if (cfg.remote && !r->rem.cpu_granted) {
		fprintf(out,
			"  cpu remote unavailable: the server does not measure CPU (start zcs with -c)\n");
	}
}

/* One run's sample; CPU and bytes of the same run (service demand). */
static json_t *sample_of(struct res_doc *doc, const struct run_result *r,
			 const struct cpuwin_sample *cs, int pair)
{
	json_t *s = json_pack("{s:I, s:I, s:f, s:i, s:I}", "bytes",
			      (json_int_t)r->payload, "header_bytes",
			      (json_int_t)r->header, "elapsed_s", r->elapsed_s,
			      "connections", cfg.conns, "calls",
			      (json_int_t)r->calls);

	res_sample_set(
		s, "throughput_MBps",
		r->elapsed_s > 0 ? (double)r->payload / r->elapsed_s / 1e6 : 0);
	res_sample_set(s, "elapsed_s", r->elapsed_s);
	cpuwin_add(doc, s, cs, (double)r->payload);
	if (r->rem.n) {
		meter_add_metrics(doc, s, "remote", r->rem.cpu, r->rem.n,
				  (double)r->payload, cs->metered);
		meter_add_raw(s, "remote", r->rem.cpu, r->rem.n);
		json_object_set_new(s, "same_box",
				    json_boolean(same_box(r->rem.host)));
		json_object_set_new(s, "server_payload_bytes",
				    json_integer((json_int_t)r->rem.payload));
		json_object_set_new(s, "server_window_s",
				    json_real(r->rem.window_s));
	}
	if (r->counters)
		json_object_set(s, "counters", r->counters);
	if (cs->paired) /* last: renames this run's own figures */
		res_sample_pair(doc, s, pair, cs->metered);
	return s;
}

/* The closing lines: with pairs what the soakers did to the rate, then
 * the one-line summary every tool ends with. */
static void summary(const struct rates *rt, int paired)
{
	double lo = rt->n ? rt->mbps[0] : 0, hi = lo;
	struct stats_ratio pr;
	char note[256];
	int i;

	for (i = 1; i < rt->n; i++) {
		lo = rt->mbps[i] < lo ? rt->mbps[i] : lo;
		hi = rt->mbps[i] > hi ? rt->mbps[i] : hi;
	}
	if (paired && rt->nm && rt->n) {
		stats_ratio_paired(rt->metered, rt->mbps,
				   (size_t)(rt->nm < rt->n ? rt->nm : rt->n),
				   &pr);
		meter_perturbation_note(note, sizeof(note), &pr);
		fprintf(out, "zcc: perturbation: %s\n", note);
	}
	fprintf(out,
		"zcc: %d %srun%s of %s to %s:%d: %.1f MB/s median (min %.1f, max %.1f)%s\n",
		rt->n, paired ? "unmetered " : "", rt->n == 1 ? "" : "s",
		cfg.method, cfg.server, cfg.port,
		rt->n ? stats_median(rt->mbps, (size_t)rt->n) : 0, lo, hi,
		paired ? "; soak CPU from the metered runs" : "");
}

/*
 * Paired runs with an older zcs (it did not take the run's kind): its
 * side runs unpaired, and its soakers slowed an unmetered run if they
 * ran in it.
 */
static void check_server_pairing(struct res_doc *doc, int k,
				 const struct run_result *r,
				 const struct cpuwin_sample *cs, int *told)
{
	if (!cs->paired || !cfg.remote || r->rem.run_granted)
		return;
	if (!(*told)++) {
		fprintf(out,
			"zcc: the server is a zcs from before paired runs: it cannot park its soakers, its side runs unpaired\n");
		res_warn(
			doc,
			"the server is a zcs from before paired runs: its side runs unpaired");
	}
	if (!cs->metered && meter_soak_ran(r->rem.cpu, r->rem.n)) {
		fprintf(out,
			"zcc: the server's soakers ran during unmetered run %d: that rate is perturbed\n",
			k + 1);
		res_warn(
			doc,
			"the server's soakers ran during unmetered run %d: that rate is perturbed (a zcs of this version parks them)",
			k + 1);
	}
}

int main(int argc, char **argv)
{
	struct cpuwin_cfg wc = {0};
	struct cpuwin_sample cs;
	struct run_result r;
	struct fileset fs;
	struct cpuwin w;
	struct res_doc *doc;
	struct zcw_run run = {0};
	struct rates rt = {0};
	json_t *kase = NULL;
	char err[512], why[256];
	int k, paired, told = 0, wfail;
	double mbps;

	log_init(argv[0]);
	parse_opts(argc, argv);
	if (res_check_output(cfg.json_path, err, sizeof(err)))
		die("%s", err);
	out = cfg.json_path && !strcmp(cfg.json_path, "-") ? stderr : stdout;
	doc = res_new("zcc", argc, argv);
	if (cfg.label)
		res_set_label(doc, cfg.label);
	if (cfg.json_path)
		res_set_output(doc, cfg.json_path);
	res_metric(doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(doc, "elapsed_s", "s", RES_LOWER, 0);
	if (xfer_probe(xfer_find(cfg.method, XFER_SEND), why, sizeof(why)))
		die("--method %s cannot run here: %s", cfg.method, why);
	sig_install();
	bind_cpu();
	if (!files_open(&fs, argv + optind, argc - optind, cfg.bufsize))
		die_usage("no regular files to send");
	wc.local = cfg.measure;
	wc.local_list = cfg.meters;
	if (cpuwin_open(&w, &wc, err, sizeof(err)))
		die("%s", err);
	paired = cpuwin_paired(&w);
	rt.mbps = calloc((size_t)cfg.repeat, sizeof(double));
	rt.metered = calloc((size_t)cfg.repeat, sizeof(double));
	if (!rt.mbps || !rt.metered)
		abort();
	fprintf(out,
		"zcc: %s to %s:%d, %d file%s (%llu bytes) x %u loops, %d connection%s\n",
		cfg.method, cfg.server, cfg.port, fs.n, fs.n == 1 ? "" : "s",
		(unsigned long long)fs.bytes, cfg.loops, cfg.conns,
		cfg.conns == 1 ? "" : "s");
	if (cfg.measure)
		fprintf(out, "zcc: CPU meters: %s%s\n",
			cpuwin_local_names(&w, why, sizeof(why)),
			paired ? "; soak runs in pairs: metered, then unmetered (the rate)"
			       : "");
	for (k = 0; k < meter_runs(paired, cfg.repeat) && !sig_stop; k++) {
		/* the first run is metered, paired or not: a zcs that
		 * measures with soak says so only in its answer */
		run.said = cfg.remote;
		run.soak = cpuwin_paired(&w);
		run.metered = !k || meter_run_metered(paired, k);
		run.pair = (uint32_t)(paired ? k / 2 : k);
		if (paired && cpuwin_metered(&w, run.metered, err, sizeof(err)))
			die("--cpu: %s", err);
		if (run_once(&cfg, &fs, zcw_run_flags(&run), &w, &cs, &r))
			die("%s", r.err);
		if (!k && !paired && r.rem.soak) {
			paired = 1;
			fprintf(out,
				"zcc: the server measures with soak: runs go in pairs, metered (this one), then unmetered (the rate)\n");
		}
		cs.paired = paired;
		cs.metered = paired && run.metered;
		if (!kase) {
			kase = res_case(
				doc,
				json_pack("{s:s, s:s, s:i, s:I, s:i}", "method",
					  cfg.method, "recv_method",
					  r.rem.recv_method[0]
						  ? r.rem.recv_method
						  : "unknown",
					  "files", fs.n, "bytes_per_loop",
					  (json_int_t)fs.bytes, "connections",
					  cfg.conns));
			if (r.rem.host)
				res_set_peer(doc, json_incref(r.rem.host));
		}
		if (r.warn[0])
			res_warn(doc, "%s", r.warn);
		print_kind(&cs, (int)run.pair);
		print_run(k, meter_runs(paired, cfg.repeat), &r, &cs);
		check_server_pairing(doc, k, &r, &cs, &told);
		res_sample(kase, sample_of(doc, &r, &cs, (int)run.pair));
		mbps = r.elapsed_s > 0 ? (double)r.payload / r.elapsed_s / 1e6
				       : 0;
		if (cs.metered)
			rt.metered[rt.nm++] = mbps;
		else
			rt.mbps[rt.n++] = mbps;
		run_result_free(&r);
	}
	if (sig_stop)
		res_warn(doc, "interrupted after %d of %d runs", k,
			 meter_runs(paired, cfg.repeat));
	summary(&rt, paired);
	wfail = res_finish(doc) != 0;
	res_free(doc);
	cpuwin_close(&w);
	files_close(&fs);
	free(rt.mbps);
	free(rt.metered);
	return sig_stop ? sig_exit_status() : wfail;
}
