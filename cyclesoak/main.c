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

#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* A field of the settings, for the plain options' table. */
#define CS(f) offsetof(struct cfg, f)

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
	"\n";

/* The long-only options. */
enum {
	O_SERVE = CLI_OPT_LONG,
	O_SELFTEST,
	O_CPUS,
	O_CALIB_FILE,
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
	O_SERVE_ALLOW,
	O_DURATION,
	O_QUICK,
};

/* Which mode-bound options were given, for the checks at the end. */
static struct {
	int port, period, serve;
	long ncpus; /* the 2001 -N */
} given;

static void set_mode(struct cfg *c, enum cs_mode m, const char *opt)
{
	if (c->mode != CS_MONITOR && c->mode != m)
		die_usage("%s: only one of --calibrate, --serve, --selftest",
			  opt);
	c->mode = m;
}

/* The meters that expose what the kernel may refuse ("perf or
 * profile"), for --serve-allow's words. */
static const char *guarded_names(char *buf, size_t len)
{
	int i, n = 0, k = 0;

	for (i = 0; meter_table[i]; i++)
		n += meter_table[i]->exposes != NULL;
	buf[0] = '\0';
	for (i = 0; meter_table[i]; i++)
		if (meter_table[i]->exposes)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 !k++ ? "" : k == n ? " or " : ", ",
				 meter_table[i]->name);
	return buf;
}

/* --serve-allow=perf,profile: a bit per meter_table index. */
static unsigned serve_allow(const char *arg)
{
	char buf[256], names[128], *tok, *save = NULL;
	unsigned bits = 0;
	int i;

	if (strlen(arg) >= sizeof(buf))
		die_usage("--serve-allow: list too long");
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		i = meter_index(tok);
		if (i < 0 || !meter_table[i]->exposes)
			die_usage("--serve-allow: \"%s\" is not %s "
				  "(the other meters are always served)",
				  tok, guarded_names(names, sizeof(names)));
		bits |= 1u << i;
	}
	if (!bits)
		die_usage("--serve-allow: name %s (one or more)",
			  guarded_names(names, sizeof(names)));
	return bits;
}

/* Every option, in the usage's order; the values are shown after '='. */
static const struct cli_set sets[] = {
	/* the modes (the synopsis names them) and the 2001 letters (the
	 * note at the end) */
	CLI_TAKE('C', "calibrate", NULL, NULL),
	CLI_TAKE(O_SERVE, "serve", NULL, NULL),
	CLI_TAKE(O_SELFTEST, "selftest", NULL, NULL),
	CLI_TAKE('N', NULL, "N", NULL),
	CLI_TAKE('B', NULL, NULL, NULL),
	CLI_TAKE('p', "period", "=S", "monitor period (default 1s)"),
	CLI_VALUE('n', "count", "=N", CLI_LONG, CS(count), 1, 1e9,
		  "monitor: stop after N periods (default: Ctrl-C)"),
	CLI_STRING(O_CPUS, "cpus", "=LIST", CS(cpus),
		   "CPUs to soak (default: the allowed online CPUs)"),
	CLI_STRING(O_CALIB_FILE, "calib-file", "=F", CS(calib_file),
		   "calibration file (default\n"
		   "$XDG_STATE_HOME/zcbench/calibration.json)"),
	CLI_STRING(O_EVENTS, "events", "=LIST", CS(events),
		   "perf events (libpfm4 names; default task-clock,\n"
		   "context-switches,cpu-migrations,page-faults,\n"
		   "cycles,instructions)"),
	CLI_VALUE(O_ROUNDS, "rounds", "=N", CLI_INT, CS(rounds), 2, 1000,
		  "calibration rounds (default 5)"),
	CLI_VALUE(O_ROUND_TIME, "round-time", "=S", CLI_DUR, CS(round_s), 0.05,
		  86400, "length of each round (default 1s)"),
	CLI_VALUE(O_TOLERANCE, "tolerance", "=PCT", CLI_DBL, CS(tolerance_pct),
		  1e-9, 1e6, "rounds may disagree by this much (default 3)"),
	CLI_SWITCH(O_FORCE, "force", CS(force),
		   "store a calibration even when rounds disagree"),
	CLI_TAKE(O_SOAKER, "soaker", "=KIND",
		 "calibrate: spin (default), pause, duty:PCT[/US]"),
	CLI_STRING(O_BIND, "bind", "=ADDR", CS(bind),
		   "serve on ADDR (default 127.0.0.1)"), /* -B: the 2001 one */
	CLI_TAKE(O_PORT, "port", "=N", "serve on port N (default 5555; 0 = any)"),
	CLI_VALUE(O_MAX_CLIENTS, "max-clients", "=N", CLI_INT, CS(max_clients),
		  1, 4096, "serve at most N connections (default 64)"),
	CLI_TAKE(O_IDLE_TIMEOUT, "idle-timeout", "=S",
		 "serve: hang up on a client silent this long\n"
		 "with no window open, or taking none of its\n"
		 "replies this long (default 300s)"),
	CLI_TAKE(O_MAX_WINDOW, "max-window", "=S",
		 "serve: close a window (or a SOAK off) held\n"
		 "longer (default 3600s)"),
	CLI_TAKE(O_HOST_DETAILS, "host-details", NULL,
		 "serve: HOST and reports include the kernel\n"
		 "command line and memory size"),
	CLI_TAKE(O_SERVE_ALLOW, "serve-allow", "=LIST",
		 "serve: also serve these meters to clients:\n"
		 "perf (counters), profile (a kernel profile of\n"
		 "the whole box); refused without (man: SECURITY)"),
	CLI_VALUE(O_DURATION, "duration", "=S", CLI_DUR, CS(load_s), 0.2, 86400,
		  "selftest: seconds per load (default 2s)"),
	CLI_SWITCH(O_QUICK, "quick", CS(quick),
		   "selftest: skip the loopback stream part"),
	CLI_HEAD("The 2001 cyclesoak's options: -C is --calibrate, -p the period in\n"
		 "seconds, -N N soaks N CPUs (the first N allowed; --cpus=LIST names\n"
		 "them), -B is always on (soakers bound, each CPU's share shown)."),
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
	case 'C': /* --calibrate, and the 2001 -C */
		set_mode(c, CS_CALIBRATE, "--calibrate");
		break;
	case 'N': /* 2001: "Tell cyclesoak how many CPUs you have" */
		given.ncpus = cli_long("-N", arg, 1, CPU_SETSIZE);
		break;
	case 'B': /* 2001: bind each soaker, print per-CPU shares */
		log_info("-B: the soakers are always bound to their CPUs and "
			 "each CPU's free share is always shown");
		break;
	case O_SERVE:
		set_mode(c, CS_SERVE, "--serve");
		break;
	case O_SELFTEST:
		set_mode(c, CS_SELFTEST, "--selftest");
		break;
	case O_SOAKER:
		if (soak_kind_parse(arg, &k, err, sizeof(err)))
			die_usage("--soaker: %s", err);
		c->soaker = arg;
		break;
	case O_PORT:
		c->port = (int)cli_long("--port", arg, 0, 65535);
		given.port = 1;
		break;
	case O_IDLE_TIMEOUT:
		c->idle_s =
			cli_duration("--idle-timeout", arg, 1, 30 * 86400.0);
		given.serve = 1;
		break;
	case O_MAX_WINDOW:
		c->max_window_s =
			cli_duration("--max-window", arg, 1, 30 * 86400.0);
		given.serve = 1;
		break;
	case O_HOST_DETAILS:
		c->host_details = 1;
		given.serve = 1;
		break;
	case O_SERVE_ALLOW:
		c->serve_allow |= serve_allow(arg);
		given.serve = 1;
		break;
	}
}

/* .stop: at CMD, whose options are its own */
CLI_TOOL(tool, usage_text, CLI_METERS | CLI_RESULT | CLI_RESULT_O, .stop = 1,
	 .sets = sets, .option = cs_option);

/*
 * The 2001 -N N: soak N CPUs, the first N this process may use (the
 * original forked N soakers). More than it may use, or with --cpus
 * (which names them), is refused naming --cpus.
 */
static void legacy_ncpus(struct cfg *c)
{
	static char list[CPU_SETSIZE * 6];
	cpu_set_t set;
	long n = 0;
	int cpu;

	if (!given.ncpus)
		return;
	if (c->cpus)
		die_usage("-N: not with --cpus (--cpus names the CPUs to soak)");
	if (sched_getaffinity(0, sizeof(set), &set))
		die_errno("sched_getaffinity");
	if (given.ncpus > CPU_COUNT(&set))
		die_usage("-N %ld: this process may use %d CPUs; the soakers "
			  "go on every allowed CPU by default, or on those "
			  "--cpus=LIST names",
			  given.ncpus, CPU_COUNT(&set));
	list[0] = 0;
	for (cpu = 0; cpu < CPU_SETSIZE && n < given.ncpus; cpu++)
		if (CPU_ISSET(cpu, &set))
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%d", n++ ? "," : "", cpu);
	c->cpus = list;
	log_verbose("-N %ld: soaking CPUs %s", given.ncpus, list);
}

/* -- CMD ARGS, and which options go with which mode. */
static void check_opts(struct cfg *c, int argc, char **argv, int first)
{
	char why[256];

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
		die_usage("--idle-timeout, --max-window, --host-details, "
			  "--serve-allow: only with --serve");
	if (c->mode == CS_SERVE && c->cli.cpu_list &&
	    cs_serve_allowed(c, c->cli.cpu_list, why, sizeof(why)))
		die_usage("--cpu=%s: %s", c->cli.cpu_list, why);
	if (given.period && c->mode != CS_MONITOR)
		die_usage("-p: only when monitoring (no mode, no command)");
	if (cli_doc_path(&c->cli) &&
	    (c->mode == CS_SERVE || c->mode == CS_CALIBRATE))
		die_usage("-J/-o: not with --serve or --calibrate");
	if (c->force && c->mode != CS_CALIBRATE)
		die_usage("--force: only with --calibrate");
	if (c->soaker && c->mode != CS_CALIBRATE)
		die_usage("--soaker: only with --calibrate (the calibration keeps it)");
	legacy_ncpus(c);
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
