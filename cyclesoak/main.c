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

#include <stddef.h>
#include <stdio.h>
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

static const char usage_text[] =
	"usage: cyclesoak [options]                 print System load every period\n"
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
	"      --quick           selftest: skip the loopback stream part\n";

static const char longs[] =
	"period=p: count=n: calibrate=C serve=S selftest=T cpus=U: "
	"calib-file=F: events=E: rounds=R: round-time=W: tolerance=L: "
	"force=f soaker=K: bind=B: port=P: max-clients=M: "
	"idle-timeout=I: max-window=X: host-details=H duration=d: "
	"quick=Q";

/* Which mode-bound options were given, for the checks at the end. */
static struct {
	int port, period, serve;
} given;

static void set_mode(struct cfg *c, enum cs_mode m, const char *opt)
{
	if (c->mode != CS_MONITOR && c->mode != m)
		die_usage("%s: only one of --calibrate, --serve, --selftest",
			  opt);
	c->mode = m;
}

#define CS(f) offsetof(struct cfg, f)
/* The options that only store a value. */
static const struct cli_set sets[] = {
	{'n', CLI_LONG, CS(count), 1, 1e9, "-n"},
	{'U', CLI_STR, CS(cpus), 0, 0, "--cpus"},
	{'F', CLI_STR, CS(calib_file), 0, 0, "--calib-file"},
	{'E', CLI_STR, CS(events), 0, 0, "--events"},
	{'R', CLI_INT, CS(rounds), 2, 1000, "--rounds"},
	{'W', CLI_DUR, CS(round_s), 0.05, 86400, "--round-time"},
	{'L', CLI_DBL, CS(tolerance_pct), 1e-9, 1e6, "--tolerance"},
	{'f', CLI_FLAG, CS(force), 0, 0, "--force"},
	{'B', CLI_STR, CS(bind), 0, 0, "--bind"},
	{'M', CLI_INT, CS(max_clients), 1, 4096, "--max-clients"},
	{'d', CLI_DUR, CS(load_s), 0.2, 86400, "--duration"},
	{'Q', CLI_FLAG, CS(quick), 0, 0, "--quick"},
	{0},
};

/* The modes, and the options whose use the checks at the end follow. */
static void cs_option(void *p, int opt, const char *arg)
{
	struct cfg *c = p;
	struct soak_kind k;
	char err[200];

	switch (opt) {
	case 'p':
		c->period_s = cli_duration("-p", arg, 0.01, 86400);
		given.period = 1;
		break;
	case 'C': /* --calibrate */
		set_mode(c, CS_CALIBRATE, "--calibrate");
		break;
	case 'S': /* --serve */
		set_mode(c, CS_SERVE, "--serve");
		break;
	case 'T': /* --selftest */
		set_mode(c, CS_SELFTEST, "--selftest");
		break;
	case 'K': /* --soaker */
		if (soak_kind_parse(arg, &k, err, sizeof(err)))
			die_usage("--soaker: %s", err);
		c->soaker = arg;
		break;
	case 'P': /* --port */
		c->port = (int)cli_long("--port", arg, 0, 65535);
		given.port = 1;
		break;
	case 'I': /* --idle-timeout */
		c->idle_s =
			cli_duration("--idle-timeout", arg, 1, 30 * 86400.0);
		given.serve = 1;
		break;
	case 'X': /* --max-window */
		c->max_window_s =
			cli_duration("--max-window", arg, 1, 30 * 86400.0);
		given.serve = 1;
		break;
	case 'H': /* --host-details */
		c->host_details = 1;
		given.serve = 1;
		break;
	}
}

static const struct cli_tool tool = {
	.text = usage_text,
	.common = CLI_METERS | CLI_RESULT | CLI_RESULT_O,
	.shortopts = "+p:n:", /* stop at CMD: its options are its own */
	.longs = longs,
	.sets = sets,
	.option = cs_option,
};

/* -- CMD ARGS, and which options go with which mode. */
static void check_opts(struct cfg *c, int argc, char **argv, int first)
{
	if (first < argc) {
		if (strcmp(argv[first - 1], "--"))
			die_usage(
				"unexpected argument \"%s\" (a command goes after --)",
				argv[first]);
		if (c->mode != CS_MONITOR)
			die_usage(
				"a command (after --) only runs without --calibrate, --serve, --selftest");
		c->mode = CS_RUN;
		c->cmd = argv + first;
	} else if (first > 0 && !strcmp(argv[first - 1], "--")) {
		die_usage("--: no command given");
	}
	if (given.port && c->mode != CS_SERVE)
		die_usage("--port: only with --serve");
	if (given.serve && c->mode != CS_SERVE)
		die_usage("--idle-timeout, --max-window, --host-details: only with --serve");
	if (given.period && c->mode != CS_MONITOR)
		die_usage("-p: only when monitoring (no mode, no command)");
	if (cli_doc_path(&c->cli) &&
	    (c->mode == CS_SERVE || c->mode == CS_CALIBRATE))
		die_usage("-J/-o: not with --serve or --calibrate");
	if (c->force && c->mode != CS_CALIBRATE)
		die_usage("--force: only with --calibrate");
	if (c->soaker && c->mode != CS_CALIBRATE)
		die_usage("--soaker: only with --calibrate (the calibration keeps it)");
}

int main(int argc, char **argv)
{
	char err[512];

	log_init(argv[0]);
	cfg.argc = argc;
	cfg.argv = argv;
	check_opts(&cfg, argc, argv,
		   cli_parse(&tool, &cfg, &cfg.cli, argc, argv));
	if (res_check_output(cli_doc_path(&cfg.cli), err, sizeof(err)))
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
