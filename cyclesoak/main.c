/*
 * cyclesoak: what the box's CPUs could not give to idle soakers. One
 * soaker per CPU counts the loops of a small memory-touching kernel; the
 * load is 1 - rate / the rate calibrated on the idle box. Modes:
 *
 *   cyclesoak                       System load every period
 *   cyclesoak [opts] -- CMD ARGS    every meter while CMD runs
 *   cyclesoak --calibrate           store the idle rates
 *   cyclesoak --serve               CPU windows for remote benchmarks
 *   cyclesoak --selftest            known loads and the meters' errors
 *
 * After Andrew Morton's cyclesoak (seed 001); see man cyclesoak.
 */
#include "config.h"
#include "cyclesoak.h"
#include "cli.h"
#include "log.h"
#include "remotecpu.h"
#include "sig.h"
#include "soak.h"
#include "units.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct cfg cfg = {
	.mode = CS_MONITOR,
	.period_s = 1.0,
	.count = 0,
	.rounds = 5,
	.round_s = 1.0,
	.tolerance_pct = 3.0,
	.bind = "127.0.0.1",
	.port = REMOTECPU_PORT,
	.max_clients = 64,
	.idle_s = 300,
	.max_window_s = 3600,
	.load_s = 2.0,
};

static void usage(void)
{
	printf("usage: cyclesoak [options]                 print System load every period\n"
	       "       cyclesoak [options] -- CMD [ARGS]   measure the box while CMD runs\n"
	       "       cyclesoak --calibrate [options]     store the idle soak rates\n"
	       "       cyclesoak --serve [options]         CPU windows for remote benchmarks\n"
	       "       cyclesoak --selftest [options]      known loads, each meter's error\n"
	       "\n"
	       "  -p, --period=S        monitor period (default 1s)\n"
	       "  -n, --count=N         monitor: stop after N periods (default: Ctrl-C)\n"
	       "      --cpus=LIST       CPUs to soak (default: the allowed online CPUs)\n"
	       "      --calib-file=F    calibration file (default\n"
	       "                        $XDG_STATE_HOME/zcbench/calibration.json)\n"
	       "      --cpu=LIST        meters: soak,procstat,rusage,perf\n"
	       "      --events=LIST     perf events (libpfm4 names; default task-clock,\n"
	       "                        context-switches,cpu-migrations,page-faults,\n"
	       "                        cycles,instructions)\n"
	       "      --rounds=N        calibration rounds (default 5)\n"
	       "      --round-time=S    length of each round (default 1s)\n"
	       "      --tolerance=PCT   rounds may disagree by this much (default 3)\n"
	       "      --force           store a calibration even when rounds disagree\n"
	       "      --soaker=KIND     calibrate: spin (default), pause, duty:PCT[/US]\n"
	       "      --bind=ADDR       serve on ADDR (default 127.0.0.1)\n"
	       "      --port=N          serve on port N (default 5555; 0 = any)\n"
	       "      --max-clients=N   serve at most N connections (default 64)\n"
	       "      --idle-timeout=S  serve: hang up on a client silent this long\n"
	       "                        with no window open (default 300s)\n"
	       "      --max-window=S    serve: close a window (or a SOAK off) held\n"
	       "                        longer (default 3600s)\n"
	       "      --host-details    serve: HOST and reports include the kernel\n"
	       "                        command line and memory size\n"
	       "      --duration=S      selftest: seconds per load (default 2s)\n"
	       "      --quick           selftest: skip the loopback stream part\n"
	       "  -J                    result document to stdout (text to stderr)\n"
	       "  -o, --output=FILE     result document to FILE\n"
	       "      --label=L         label of the result (default kernel release)\n"
	       "  -v, --verbose         more diagnostics;  -q, --quiet  fewer\n"
	       "  -h, --help            this help\n");
}

enum {
	O_CALIBRATE = 256,
	O_SERVE,
	O_SELFTEST,
	O_CPUS,
	O_CALIB_FILE,
	O_CPU,
	O_EVENTS,
	O_ROUNDS,
	O_ROUND_TIME,
	O_TOLERANCE,
	O_FORCE,
	O_SOAKER,
	O_BIND,
	O_PORT,
	O_MAX_CLIENTS,
	O_IDLE_TIMEOUT,
	O_MAX_WINDOW,
	O_HOST_DETAILS,
	O_DURATION,
	O_QUICK,
	O_LABEL,
};

static const struct option opts[] = {
	{"period", required_argument, NULL, 'p'},
	{"count", required_argument, NULL, 'n'},
	{"calibrate", no_argument, NULL, O_CALIBRATE},
	{"serve", no_argument, NULL, O_SERVE},
	{"selftest", no_argument, NULL, O_SELFTEST},
	{"cpus", required_argument, NULL, O_CPUS},
	{"calib-file", required_argument, NULL, O_CALIB_FILE},
	{"cpu", required_argument, NULL, O_CPU},
	{"events", required_argument, NULL, O_EVENTS},
	{"rounds", required_argument, NULL, O_ROUNDS},
	{"round-time", required_argument, NULL, O_ROUND_TIME},
	{"tolerance", required_argument, NULL, O_TOLERANCE},
	{"force", no_argument, NULL, O_FORCE},
	{"soaker", required_argument, NULL, O_SOAKER},
	{"bind", required_argument, NULL, O_BIND},
	{"port", required_argument, NULL, O_PORT},
	{"max-clients", required_argument, NULL, O_MAX_CLIENTS},
	{"idle-timeout", required_argument, NULL, O_IDLE_TIMEOUT},
	{"max-window", required_argument, NULL, O_MAX_WINDOW},
	{"host-details", no_argument, NULL, O_HOST_DETAILS},
	{"duration", required_argument, NULL, O_DURATION},
	{"quick", no_argument, NULL, O_QUICK},
	{"output", required_argument, NULL, 'o'},
	{"label", required_argument, NULL, O_LABEL},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void set_mode(enum cs_mode m, const char *opt)
{
	if (cfg.mode != CS_MONITOR && cfg.mode != m)
		die_usage("%s: only one of --calibrate, --serve, --selftest",
			  opt);
	cfg.mode = m;
}

static void parse_opts(int argc, char **argv)
{
	int o, setport = 0, setperiod = 0, setserve = 0;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "+:p:n:Jo:vqh", opts, NULL)) !=
	       -1) {
		switch (o) {
		case 'p':
			cfg.period_s = cli_duration("-p", optarg, 0.01, 86400);
			setperiod = 1;
			break;
		case 'n':
			cfg.count = cli_long("-n", optarg, 1, 1000000000);
			break;
		case O_CALIBRATE:
			set_mode(CS_CALIBRATE, "--calibrate");
			break;
		case O_SERVE:
			set_mode(CS_SERVE, "--serve");
			break;
		case O_SELFTEST:
			set_mode(CS_SELFTEST, "--selftest");
			break;
		case O_CPUS:
			cfg.cpus = optarg;
			break;
		case O_CALIB_FILE:
			cfg.calib_file = optarg;
			break;
		case O_CPU:
			cfg.meters = optarg;
			break;
		case O_EVENTS:
			cfg.events = optarg;
			break;
		case O_ROUNDS:
			cfg.rounds = (int)cli_long("--rounds", optarg, 2, 1000);
			break;
		case O_ROUND_TIME:
			cfg.round_s = cli_duration("--round-time", optarg, 0.05, 86400);
			break;
		case O_TOLERANCE:
			cfg.tolerance_pct =
				cli_double("--tolerance", optarg, 1e-9, 1e6);
			break;
		case O_FORCE:
			cfg.force = 1;
			break;
		case O_SOAKER: {
			struct soak_kind k;
			char err[200];

			if (soak_kind_parse(optarg, &k, err, sizeof(err)))
				die_usage("--soaker: %s", err);
			cfg.soaker = optarg;
			break;
		}
		case O_BIND:
			cfg.bind = optarg;
			break;
		case O_PORT:
			cfg.port = (int)cli_long("--port", optarg, 0, 65535);
			setport = 1;
			break;
		case O_MAX_CLIENTS:
			cfg.max_clients =
				(int)cli_long("--max-clients", optarg, 1, 4096);
			break;
		case O_IDLE_TIMEOUT:
			cfg.idle_s = cli_duration("--idle-timeout", optarg, 1,
						  30 * 86400.0);
			setserve = 1;
			break;
		case O_MAX_WINDOW:
			cfg.max_window_s = cli_duration("--max-window", optarg,
							1, 30 * 86400.0);
			setserve = 1;
			break;
		case O_HOST_DETAILS:
			cfg.host_details = 1;
			setserve = 1;
			break;
		case O_DURATION:
			cfg.load_s = cli_duration("--duration", optarg, 0.2, 86400);
			break;
		case O_QUICK:
			cfg.quick = 1;
			break;
		case 'J':
			cfg.json_out = "-";
			break;
		case 'o':
			cfg.json_out = optarg;
			break;
		case O_LABEL:
			cfg.label = optarg;
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
		case ':':
			die_usage("%s: needs a value", argv[optind - 1]);
		default:
			cli_bad_option(argv);
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			die_usage(
				"unexpected argument \"%s\" (a command goes after --)",
				argv[optind]);
		if (cfg.mode != CS_MONITOR)
			die_usage(
				"a command (after --) only runs without --calibrate, --serve, --selftest");
		cfg.mode = CS_RUN;
		cfg.cmd = argv + optind;
	} else if (optind > 0 && !strcmp(argv[optind - 1], "--")) {
		die_usage("--: no command given");
	}
	if (setport && cfg.mode != CS_SERVE)
		die_usage("--port: only with --serve");
	if (setserve && cfg.mode != CS_SERVE)
		die_usage("--idle-timeout, --max-window, --host-details: only with --serve");
	if (setperiod && cfg.mode != CS_MONITOR)
		die_usage("-p: only when monitoring (no mode, no command)");
	if (cfg.json_out && (cfg.mode == CS_SERVE || cfg.mode == CS_CALIBRATE))
		die_usage("-J/-o: not with --serve or --calibrate");
	if (cfg.force && cfg.mode != CS_CALIBRATE)
		die_usage("--force: only with --calibrate");
	if (cfg.soaker && cfg.mode != CS_CALIBRATE)
		die_usage("--soaker: only with --calibrate (the calibration keeps it)");
}

void cs_meter_opts(const struct cfg *c, struct meter_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->calib_file = c->calib_file;
	o->cpus = c->cpus;
	o->perf_events = c->events;
}

struct res_doc *cs_doc(const struct cfg *c)
{
	struct res_doc *d;

	if (!c->json_out)
		return NULL;
	d = res_new("cyclesoak", c->argc, c->argv);
	res_set_label(d, c->label);
	res_set_output(d, c->json_out);
	return d;
}

const char *cs_soaker(const struct cfg *c)
{
	static struct soak_calib cal;
	char path[4096], err[256];

	if (soak_calib_path(c->calib_file, path, sizeof(path)) ||
	    soak_calib_load(path, &cal, err, sizeof(err)))
		return "spin";
	return cal.soaker;
}

void cs_warn_calibration(const struct cfg *c, struct res_doc *d,
			 const char *list)
{
	const char *w;

	if (!list || !strstr(list, "soak"))
		return;
	w = soak_calibration_warning(c->calib_file);
	if (!w)
		return;
	log_warn("%s", w);
	if (d)
		res_warn(d, "%s", w);
}

int main(int argc, char **argv)
{
	char err[512];

	log_init(argv[0]);
	cfg.argc = argc;
	cfg.argv = argv;
	parse_opts(argc, argv);
	if (res_check_output(cfg.json_out, err, sizeof(err)))
		die("%s", err);
	sig_install();
	switch (cfg.mode) {
	case CS_CALIBRATE:
		return do_calibrate(&cfg);
	case CS_SERVE:
		return do_serve(&cfg);
	case CS_SELFTEST:
		return do_selftest(&cfg);
	case CS_RUN:
		return do_run(&cfg);
	case CS_MONITOR:
		break;
	}
	return do_monitor(&cfg);
}
