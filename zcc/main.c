/*
 * zcc: the zero-copy file client of Andrew Morton's zcs/zcc (2001). It
 * squirts a set of files at a zcs -n times, by sendfile or any send method
 * of lib/xfer, over -P connections at once, and prints MB/s with this
 * box's CPU (-c) and, from a zcbench zcs, the server's (-C). Without -C
 * the bytes on the wire are exactly the original's. See man/zcc.1.
 *
 * The parts: main.c (options, the runs), files.c (the files), run.c (one
 * run over -P connections), out.c (what it prints and records).
 */
#include "config.h"
#include "zcc.h"

#include "log.h"
#include "series.h"
#include "sig.h"
#include "units.h"
#include "zcwire.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A field of the settings, for the plain options' table. */
#define ZO(f) offsetof(struct cfg, f)

#define MAX_RUNS 100000		/* --repeat */

static struct cfg cfg = {
	.com.repeat = 1,
	.port = ZCW_PORT,
	.loops = 1,
	.bufsize = 65536, /* the original's 64 kbyte chunks */
	.cpu = -1,
	.conns = 1,
	.timeout_ms = 30000,
};

/* --help: the synopsis (the rows and the common block follow). */
static const char usage_text[] =
	"usage: zcc [options] -s SERVER FILE...\n"
	"Send the files to a zcs, -n times, and print MB/s and CPU.\n";

/* What parsing needs beyond the settings. */
static struct {
	int S, w;		/* -S, -w: they pick a method */
	const char *method;	/* --method as given */
} opt;

enum { O_METHOD = CLI_OPT_LONG, O_TIMEOUT, O_RATE }; /* no short letter */

/* The help that names the port and the methods (parse_opts fills it). */
static char port_help[32], method_help[512];

/* Every option, in the usage's order. */
static const struct cli_set sets[] = {
	CLI_STRING('s', "server", "HOST", ZO(server),
		   "server to send to (required)"),
	CLI_VALUE('p', "port", "PORT", CLI_INT, ZO(port), 1, 65535, port_help),
	CLI_VALUE('n', "loops", "N", CLI_U32, ZO(loops), 0, UINT32_MAX,
		  "send the file set N times (1)"),
	CLI_VALUE('b', "bufsize", "SIZE", CLI_SIZE_T, ZO(bufsize), 1, 64 << 20,
		  "bytes per send call (64k)"),
	CLI_TAKE('S', NULL, NULL, "read + send instead of sendfile"),
	CLI_TAKE('w', NULL, NULL, "with -S: write instead of send"),
	CLI_TAKE(O_METHOD, "method", "NAME", method_help),
	CLI_SWITCH('k', NULL, ZO(cork), "TCP_CORK on the connection (checked)"),
	CLI_VALUE('B', "bind-cpu", "CPU", CLI_INT, ZO(cpu), 0,
		  CPU_SETSIZE - 1, "run on this CPU only"),
	CLI_VALUE('P', "parallel", "N", CLI_INT, ZO(conns), 1, 4096,
		  "N connections at once from this process (1)"),
	CLI_SWITCH('C', "remote-cpu", ZO(remote),
		   "ask the server for its CPU: zcbench zcs only\n"
		   "(sends a hello an original zcs cannot read)"),
	CLI_TAKE(O_TIMEOUT, "timeout", "SECS", "longest wait for progress (30)"),
	CLI_TAKE(O_RATE, "rate", "R",
		 "send at R bits/s in all (1G, 500M, 100mbit; iperf3's\n"
		 "-b, which is -b SIZE here): the kernel paces each\n"
		 "connection at R/P (SO_MAX_PACING_RATE)"),
	CLI_TAKE('d', NULL, NULL, "as -v: more output"),
	CLI_TAKE('N', NULL, "N", NULL), /* the original's CPU count: ignored */
	{0},
};

/* --rate R: bits/s as iperf3 and tc spell them, in bytes/s. */
static double rate_arg(const char *arg)
{
	double bits;
	int e = units_parse_rate(arg, &bits);

	if (e || bits < 8000)
		die_usage("--rate %s: %s (a rate of at least 8kbit/s: 1G, 500M, 100mbit, 125MB/s)",
			  arg, e == -ERANGE ? "too fast for any link" :
					      "not a rate");
	return bits / 8;
}

static void option(void *cfgp, int o, const char *arg)
{
	struct cfg *c = cfgp;

	switch (o) {
	case 'S':
		opt.S = 1;
		break;
	case 'w':
		opt.w = 1;
		break;
	case O_METHOD:
		opt.method = arg;
		break;
	case 'N':
		log_info("-N: ignored, CPUs are counted from /sys");
		break;
	case O_TIMEOUT:
		c->timeout_ms =
			(int)(cli_duration("--timeout", arg, 0, 86400) * 1000 +
			      0.5);
		break;
	case 'd':
		log_level++;
		break;
	case O_RATE:
		c->rate = rate_arg(arg);
		break;
	}
}

CLI_TOOL(tool, usage_text,
	 CLI_CPU | CLI_REPEAT | CLI_RESULT | CLI_SOCKBUF | CLI_INTERVAL |
		 CLI_OMIT | CLI_RERUNS,
	 .repeat_max = MAX_RUNS, .sets = sets, .option = option);

/* -S, -w and --method: one send method, resolved now. */
static const struct xfer_ops *pick_method(void)
{
	if (opt.method && !strcmp(opt.method, "help"))
		xfer_cli_method("--method", opt.method, XFER_SEND); /* exits */
	if (opt.method && opt.S)
		die_usage(
			"-S and --method: pick one (-S is --method=send, -S -w is --method=write)");
	if (opt.w && !opt.S && !opt.method)
		die_usage("-w: only with -S (write instead of send)");
	if (!opt.method)
		opt.method = opt.S ? (opt.w ? "write" : "send") : "sendfile";
	return xfer_cli_method("--method", opt.method, XFER_SEND);
}

/* Returns the index of the first file. */
static int parse_opts(int argc, char **argv)
{
	int ind;

	snprintf(port_help, sizeof(port_help), "its port (%d)", ZCW_PORT);
	snprintf(method_help, sizeof(method_help),
		 "send method: %s\n(sendfile); help lists them",
		 xfer_names(XFER_SEND));
	ind = cli_parse(&tool, &cfg, &cfg.com, argc, argv);
	cfg.ops = pick_method();
	if (!cfg.server)
		die_usage("-s SERVER: which zcs to send to");
	if (ind >= argc)
		die_usage("no files to send (zcc -s SERVER FILE...)");
	return ind;
}

/* --interval: the reporter of the runs' payload (after out_doc: zcc_out). */
static void open_ival(void)
{
	char err[256];

	if (ival_open_for(&cfg.iv, cfg.com.interval, cfg.com.json_stream,
			  cfg.com.cpu, "zcc", "bytes", zcc_out, err, sizeof(err)))
		die("%s", err);
}

/* The runs of one invocation. */
struct runs {
	struct res_doc *doc;
	json_t *kase;		/* the case, from the first run */
	struct fileset fs;
	struct cpuwin w;	/* this box's CPU window */
	struct series ser;	/* which run comes next, and their rates */
	int told;		/* an older zcs's pairing: said */
};

/* Before run r: park or wake this box's soakers. */
static int prepare_run(void *ctx, const struct series_run *sr, char *err,
		       size_t len)
{
	struct runs *rs = ctx;

	return sr->paired && cpuwin_metered(&rs->w, sr->metered, err, len);
}

/* Run r: the run, what it printed and recorded, its rate. */
static int one_run(void *ctx, const struct series_run *sr, double *mbps,
		   char *err, size_t len)
{
	struct runs *rs = ctx;
	struct zcw_run run = {0};
	struct cpuwin_sample cs;
	struct run_result r;
	int k = sr->seq, paired, outcome, again;
	char why[300];
	json_t *j;

	/* the first run is metered, paired or not: a zcs that measures
	 * with soak says so only in its answer */
	run.said = cfg.remote;
	run.soak = cpuwin_paired(&rs->w);
	run.metered = !k || sr->metered;
	run.pair = (uint32_t)sr->rep;
	if (ival_start(cfg.iv, k, NULL, err, len))
		return SERIES_FAILED;
	if (run_once(&cfg, &rs->fs, zcw_run_flags(&run), &rs->w, &cs, &r)) {
		snprintf(err, len, "%s", r.err);
		return SERIES_FAILED;
	}
	/* the intervals count the omitted part too */
	r.intervals = ival_stop(cfg.iv, r.payload + r.omit_payload);
	if (!k && !sr->paired && r.rem.soak) {
		series_pair_now(&rs->ser, meter_pairer());
		fprintf(zcc_out,
			"zcc: the server measures with soak: runs go in pairs, metered (this one), then unmetered (the rate)\n");
	}
	paired = rs->ser.cfg.paired;
	cs.paired = paired;
	cs.metered = paired && run.metered;
	if (!rs->kase)
		rs->kase = out_case(rs->doc, &cfg, &rs->fs, &r);
	if (r.warn[0])
		res_warn(rs->doc, "%s", r.warn);
	/* a zcs on this box that said its own CPU is the run's */
	if (out_same_box(r.rem.host) && isfinite(r.rem.self_cpu_s))
		quiet_add_run_s(&cs.quiet, r.rem.self_cpu_s);
	outcome = series_quiet(&rs->ser, sr, &cs.quiet, why, sizeof(why));
	again = outcome == SERIES_DISTURBED && sr->reruns_left > 0;
	out_run(&cfg, k,
		series_planned(&rs->ser) + rs->ser.cell[0].reruns + again, &r,
		&cs, (int)run.pair, cpuwin_paired_by(&rs->w));
	if (outcome == SERIES_DISTURBED)
		fprintf(zcc_out, "zcc: run %d disturbed: %s\n", k + 1, why);
	out_server_pairing(rs->doc, &cfg, k, &r, &cs, &rs->told);
	j = out_sample(rs->doc, &cfg, &r, &cs, (int)run.pair);
	series_quiet_doc(&rs->ser, sr, &cs.quiet, outcome, j);
	res_sample(rs->kase, j);
	*mbps = r.elapsed_s > 0 ? (double)r.payload / r.elapsed_s / 1e6 : 0;
	run_result_free(&r);
	return outcome;
}

static const struct series_ops zcc_runs = {
	.prepare = prepare_run,
	.run = one_run,
};

/* The series of runs: --repeat results, in pairs when a meter here
 * perturbs (or, found in run 0, the server's). */
static void open_series(struct runs *rs)
{
	struct series_cfg sc = {
		.ncells = 1,
		.paired = cpuwin_paired(&rs->w),
		.paired_by = cpuwin_paired_by(&rs->w),
		.stop = &sig_stop,
	};
	char err[256];

	series_cfg_cli(&sc, &cfg.com);
	if (series_open(&rs->ser, &sc, err, sizeof(err)))
		die("%s", err);
}

int main(int argc, char **argv)
{
	struct cpuwin_cfg wc = {0};
	struct runs rs = {0};
	const char *by;
	char err[512];
	int ind, wfail;

	log_init(argv[0]);
	ind = parse_opts(argc, argv);
	rs.doc = out_doc(&cfg, argc, argv);
	if (xfer_probe(cfg.ops, err, sizeof(err)))
		die("--method %s cannot run here: %s", cfg.ops->name, err);
	sig_install();
	if (cfg.cpu >= 0)
		cli_pin_cpu("-B", cfg.cpu);
	if (!files_open(&rs.fs, argv + ind, argc - ind, cfg.bufsize))
		die_usage("no regular files to send");
	wc.local = cfg.com.cpu;
	wc.local_list = cfg.com.cpu_list;
	if (cpuwin_open(&rs.w, &wc, err, sizeof(err)))
		die("%s", err);
	open_series(&rs);
	open_ival();
	out_start(&cfg, &rs.fs, &rs.w, rs.ser.cfg.paired);
	if (series_run(&rs.ser, &zcc_runs, &rs, err, sizeof(err)))
		die("%s", err);
	if (sig_stop)
		res_warn(rs.doc, "interrupted after %d of %d runs", rs.ser.seq,
			 series_planned(&rs.ser));
	by = cpuwin_paired_by(&rs.w);
	out_summary(&cfg, &rs.ser,
		    !rs.ser.cfg.paired ? NULL : by ? by : meter_pairer());
	if (cfg.com.json_stream)
		ival_stream_end(stdout, rs.doc);
	wfail = res_finish(rs.doc) != 0;
	ival_close(cfg.iv);
	res_free(rs.doc);
	series_close(&rs.ser);
	cpuwin_close(&rs.w);
	files_close(&rs.fs);
	return sig_stop ? sig_exit_status() : wfail;
}
