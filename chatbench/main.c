/*
 * chatbench: the chat-room small-message benchmark, after Bill Hartner's
 * chat-1.0.1 (chat_s / chat_c). R rooms of U users, one TCP connection per
 * user; every user sends M messages of S bytes; the server relays each to
 * the other U-1 users of the room. Throughput is the messages delivered
 * (R * U * M * (U-1)) per second of exchange; over --repeat N the tool
 * prints seed 004's table of Throughput, Real, System, User and CPU.
 *
 *   chatbench                      server and clients in one process
 *   chatbench --server [--port P]  a server that waits for run after run
 *   chatbench --host H [--port P]  clients against a server elsewhere
 */
#include "config.h"
#include "bench.h"
#include "clock.h"
#include "cli.h"
#include "log.h"
#include "sig.h"
#include "stats.h"
#include "units.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: chatbench [options]              server and clients on this box\n"
	"       chatbench --server [options]     serve runs until a signal\n"
	"       chatbench --host HOST [options]  clients against a remote server\n"
	"\n"
	"  -r, --rooms N        chat rooms (default 10)\n"
	"  -u, --users N        users per room, one connection each (default 20)\n"
	"  -m, --messages N     messages each user sends (default 100)\n"
	"  -s, --size BYTES     bytes per message, 16-byte header included\n"
	"                       (default 100, chat-1.0.1's)\n"
	"      --nodelay        set TCP_NODELAY on every connection\n"
	"      --model M        threads (chat-1.0.1: two threads per connection\n"
	"                       on each side) or epoll (one event loop per side)\n"
	"      --server         be the server (chat_s)\n"
	"      --host HOST      the server to use (default: one in this process)\n"
	"  -p, --port PORT      server port (default 9999; in-process: any free)\n"
	"      --bind ADDR      server: address to listen on (default all)\n"
	"      --max-conns N    server: connections held at once, more are turned\n"
	"                       away (epoll 20000; threads 10000: 2 threads each)\n"
	"  -c, --cpu[=LIST]     CPU meters (soak,procstat,rusage,perf)\n"
	"  -n, --repeat N       runs (default 1); N > 1 prints the seed's table\n"
	"      --confidence L,W repeat until the L% interval of the throughput\n"
	"                       is within W% (at most --repeat runs, default 30)\n"
	"  -t, --timeout DUR    client: the run's limit (default 60 s + 1 s per\n"
	"                       20000 messages); server: idle limit (120 s) of a\n"
	"                       member, and of a control connection with no run\n"
	"  -J                   result document to stdout (text to stderr)\n"
	"  -o, --output FILE    result document to FILE\n"
	"      --label L        label of the results (default: kernel release)\n"
	"      --fault F        testing aid: drop:K (user 0 of room 0 hangs up\n"
	"                       after K messages), stall:K (server stops\n"
	"                       relaying after K deliveries per room),\n"
	"                       unpaired (--server: act as a server from\n"
	"                       before paired runs)\n"
	"  -v, -q               more, less diagnostics\n"
	"  -h, --help           this text\n";

enum {
	O_NODELAY = 256,
	O_MODEL,
	O_SERVER,
	O_HOST,
	O_BIND,
	O_CONF,
	O_LABEL,
	O_FAULT,
	O_MAX_CONNS
};

static const struct option long_opts[] = {
	{"rooms", required_argument, NULL, 'r'},
	{"users", required_argument, NULL, 'u'},
	{"messages", required_argument, NULL, 'm'},
	{"size", required_argument, NULL, 's'},
	{"nodelay", no_argument, NULL, O_NODELAY},
	{"model", required_argument, NULL, O_MODEL},
	{"server", no_argument, NULL, O_SERVER},
	{"host", required_argument, NULL, O_HOST},
	{"port", required_argument, NULL, 'p'},
	{"bind", required_argument, NULL, O_BIND},
	{"cpu", optional_argument, NULL, 'c'},
	{"repeat", required_argument, NULL, 'n'},
	{"confidence", required_argument, NULL, O_CONF},
	{"timeout", required_argument, NULL, 't'},
	{"output", required_argument, NULL, 'o'},
	{"label", required_argument, NULL, O_LABEL},
	{"fault", required_argument, NULL, O_FAULT},
	{"max-conns", required_argument, NULL, O_MAX_CONNS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void parse_fault(struct cfg *c, const char *v)
{
	if (!strncmp(v, "drop:", 5))
		c->drop_after = cli_long("--fault drop:", v + 5, 0, 1L << 31);
	else if (!strncmp(v, "stall:", 6))
		c->stall_after = cli_long("--fault stall:", v + 6, 0, 1L << 40);
	else if (!strcmp(v, "unpaired"))
		c->unpaired = 1;
	else
		die_usage("--fault %s: expected drop:K, stall:K or unpaired",
			  v);
}

static void parse_opts(struct cfg *c, int argc, char **argv)
{
	uint64_t sz;
	int o, port_set = 0, repeat_set = 0;

	while ((o = getopt_long(argc, argv, "r:u:m:s:p:c::n:t:Jo:vqh",
				long_opts, NULL)) != -1) {
		switch (o) {
		case 'r':
			c->rooms = cli_long("--rooms", optarg, 1, CHAT_MAX_ROOMS);
			break;
		case 'u':
			c->users = cli_long("--users", optarg, 2, CHAT_MAX_USERS);
			break;
		case 'm':
			c->messages = cli_long("--messages", optarg, 1, UINT32_MAX);
			break;
		case 's':
			if (units_parse_size(optarg, &sz) || sz < CHAT_HDR ||
			    sz > CHAT_FRAME_MAX)
				die_usage(
					"--size %s: expected %d to %d bytes (the frame header is %d)",
					optarg, CHAT_HDR, CHAT_FRAME_MAX,
					CHAT_HDR);
			c->size = (long)sz;
			break;
		case O_NODELAY:
			c->nodelay = 1;
			break;
		case O_MODEL:
			if (!strcmp(optarg, "threads"))
				c->model = CHAT_THREADS;
			else if (!strcmp(optarg, "epoll"))
				c->model = CHAT_EPOLL;
			else
				die_usage(
					"--model %s: expected threads or epoll",
					optarg);
			break;
		case O_SERVER:
			c->server = 1;
			break;
		case O_HOST:
			c->host = optarg;
			break;
		case 'p':
			c->port = (int)cli_long("--port", optarg, 0, 65535);
			port_set = 1;
			break;
		case O_BIND:
			c->bind = optarg;
			break;
		case 'c':
			c->cpu = 1;
			c->cpu_list =
				optarg && *optarg == '=' ? optarg + 1 : optarg;
			break;
		case 'n':
			c->repeat = cli_long("--repeat", optarg, 1, 100000);
			repeat_set = 1;
			break;
		case O_CONF:
			cli_confidence("--confidence", optarg, &c->conf_level,
				       &c->conf_width);
			break;
		case 't':
			c->timeout_s = cli_duration("--timeout", optarg, 0, 86400);
			break;
		case 'J':
			c->json = 1;
			break;
		case 'o':
			c->output = optarg;
			break;
		case O_LABEL:
			c->label = optarg;
			break;
		case O_FAULT:
			parse_fault(c, optarg);
			break;
		case O_MAX_CONNS:
			c->max_conns =
				cli_long("--max-conns", optarg, 1, 1000000);
			break;
		case 'v':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			die_usage("try --help");
		}
	}
	if (optind < argc)
		die_usage("unexpected argument \"%s\"", argv[optind]);
	if (c->server && c->host)
		die_usage(
			"--server and --host: a server is told where to listen with --bind");
	if (!c->server && c->bind)
		die_usage("--bind is for --server");
	if (!c->server && c->max_conns)
		die_usage("--max-conns is for --server");
	if (c->server && repeat_set)
		die_usage("--repeat is for the client side");
	if (c->server && c->drop_after >= 0)
		die_usage("--fault drop: is for the client side");
	if (c->host && c->stall_after >= 0)
		die_usage(
			"--fault stall: is for a server (--server, or no --host)");
	if (!c->server && c->unpaired)
		die_usage("--fault unpaired is for --server");
	if ((c->server || c->host) && !port_set)
		c->port = CHAT_DEFAULT_PORT;
	if (c->rooms * c->users > 100000)
		die_usage(
			"--rooms %ld x --users %ld: at most 100000 connections",
			c->rooms, c->users);
	if (c->conf_level > 0 && !repeat_set)
		c->repeat = 30;
	if (c->conf_level > 0 && c->repeat < 2)
		die_usage("--confidence needs --repeat of at least 2");
}

/* 1000 connections need 2000 descriptors with the server in-process. */
static void raise_nofile(rlim_t need)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	if (!need) { /* a server: as many as allowed */
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
		return;
	}
	if (r.rlim_cur >= need)
		return;
	r.rlim_cur = need;
	if (r.rlim_max < need)
		r.rlim_max = need; /* works as root */
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		getrlimit(RLIMIT_NOFILE, &r);
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
		log_warn(
			"open file limit %llu is below the %llu this run needs",
			(unsigned long long)r.rlim_cur,
			(unsigned long long)need);
	}
}

static const char *model_name(enum chat_model m)
{
	return m == CHAT_EPOLL ? "epoll" : "threads";
}

static int do_server(const struct cfg *c)
{
	struct chat_server_cfg sc = {
		.bind = c->bind ? c->bind : "*",
		.port = c->port,
		.model = c->model,
		.idle_timeout_s = c->timeout_s > 0 ? c->timeout_s : 120,
		.stall_after = c->stall_after,
		.cpu_list = c->cpu ? (c->cpu_list ? c->cpu_list
						  : meter_default_list(NULL))
				   : NULL,
		.unpaired = c->unpaired,
		.max_conns = (int)c->max_conns,
	};
	struct chat_server *s;
	char err[256];

	raise_nofile(0);
	s = chat_server_start(&sc, err, sizeof(err));
	if (!s)
		die("%s", err);
	printf("chatbench: serving on %s port %d (%s model); stop with Ctrl-C\n",
	       sc.bind, chat_server_port(s), model_name(c->model));
	fflush(stdout);
	while (!sig_stop)
		clock_sleep(0.5);
	printf("chatbench server: %llu runs served\n", chat_server_runs(s));
	chat_server_stop(s);
	return sig_exit_status() == 128 + SIGINT ||
			       sig_exit_status() == 128 + SIGTERM
		       ? 0
		       : sig_exit_status();
}

static json_t *params_json(const struct cfg *c)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:b, s:s}", "rooms",
			 (json_int_t)c->rooms, "users", (json_int_t)c->users,
			 "messages", (json_int_t)c->messages, "size",
			 (json_int_t)c->size, "nodelay", c->nodelay, "model",
			 model_name(c->model));
}

static void declare_metrics(struct res_doc *d)
{
	res_metric(d, "msgs_per_s", "msg/s", RES_HIGHER, 1);
	res_metric(d, "real_s", "s", RES_LOWER, 0);
	res_metric(d, "system_s", "s", RES_LOWER, 0);
	res_metric(d, "user_s", "s", RES_LOWER, 0);
	res_metric(d, "time_cpu_pct", "%", RES_LOWER, 0);
	res_metric(d, "exchange_s", "s", RES_LOWER, 0);
}

/* The throughput of the results: the unmetered runs (all when the runs
 * are not paired) into x; returns how many. */
static long results(const struct sample *s, long n, double *x)
{
	long i, k = 0;

	for (i = 0; i < n; i++)
		if (!s[i].metered)
			x[k++] = s[i].msgs_per_s;
	return k;
}

/* Stop repeating? With --confidence when the interval of the results is
 * tight enough. */
static int enough(const struct cfg *c, const struct sample *s, long n)
{
	double x[n > 0 ? n : 1];
	long k = results(s, n, x);

	if (c->conf_level <= 0 || k < 3)
		return 0;
	return stats_confidence_reached(x, (size_t)k, c->conf_level,
					c->conf_width);
}

static void summary(FILE *f, const struct cfg *c, const struct sample *s,
		    long n, const char *where, int paired)
{
	double x[n > 0 ? n : 1], m;
	struct stats_ratio pr;
	char note[256];
	long k = results(s, n, x);

	if (paired) {
		chat_perturbation(s, n, &pr);
		if (pr.n) {
			meter_perturbation_note(note, sizeof(note), &pr);
			fprintf(f, "chatbench: perturbation: %s\n", note);
		}
	}
	if (!k)
		return;
	m = stats_mean(x, (size_t)k);
	fprintf(f,
		"chatbench: %ld %srun%s of %ld rooms x %ld users x %ld messages of %ld bytes (%s%s, %s): %.0f msg/s",
		k, paired ? "unmetered " : "", k == 1 ? "" : "s", c->rooms,
		c->users, c->messages, c->size, model_name(c->model),
		c->nodelay ? ", nodelay" : "", where, m);
	if (k > 1)
		fprintf(f, " mean, sd %.1f%%",
			100 * stats_stddev(x, (size_t)k) / m);
	if (paired)
		fprintf(f, "; soak CPU from the metered runs");
	fputc('\n', f);
}

/*
 * Paired runs with a server from before them: it cannot park its
 * soakers, so its side runs unpaired, and an unmetered run whose server
 * soakers ran is slowed by them.
 */
static void check_server(FILE *out, struct res_doc *doc, struct measure *m,
			 const struct sample *s, long i, int *told)
{
	if (!s->paired || !s->nsrv || measure_server_pairs(m))
		return;
	if (!(*told)++) {
		fprintf(out,
			"chatbench: the server is a chatbench from before paired runs: it cannot park its soakers, its side runs unpaired\n");
		res_warn(
			doc,
			"the server is a chatbench from before paired runs: its side runs unpaired");
	}
	if (!s->metered && meter_soak_ran(s->srv, s->nsrv)) {
		fprintf(out,
			"chatbench: the server's soakers ran during unmetered run %ld: that rate is perturbed\n",
			i);
		res_warn(
			doc,
			"the server's soakers ran during unmetered run %ld: that rate is perturbed (a chatbench server of this version parks them)",
			i);
	}
}

static int do_client(const struct cfg *c, int argc, char **argv)
{
	struct res_doc *doc = res_new("chatbench", argc, argv);
	FILE *out = c->json ? stderr : stdout;
	struct chat_run_cfg rc = {
		.host = c->host ? c->host : "127.0.0.1",
		.port = c->port,
		.rooms = (uint32_t)c->rooms,
		.users = (uint32_t)c->users,
		.messages = (uint32_t)c->messages,
		.size = (uint32_t)c->size,
		.nodelay = c->nodelay,
		.model = c->model,
		.drop_after = c->drop_after,
		.interrupt = &sig_stop,
	};
	struct chat_server *srv = NULL;
	struct sample *s;
	struct measure *m;
	char err[512], where[300], names[128];
	json_t *kase;
	long n = 0, nruns, k;
	int status = 0, paired, metered, told = 0;

	res_set_label(doc, c->label);
	if (c->json || c->output)
		res_set_output(doc, c->json ? "-" : c->output);
	rc.timeout_s =
		c->timeout_s > 0 ? c->timeout_s : chat_default_timeout(&rc);
	raise_nofile((rlim_t)(c->rooms * c->users * (c->host ? 1 : 2) + 256));
	if (!c->host) {
		struct chat_server_cfg sc = {
			.bind = "127.0.0.1",
			.port = c->port,
			.model = c->model,
			.idle_timeout_s = rc.timeout_s,
			.stall_after = c->stall_after,
			.quiet = 1,
			.max_conns = (int)(c->rooms * c->users + 16),
		};

		srv = chat_server_start(&sc, err, sizeof(err));
		if (!srv)
			die("in-process server: %s", err);
		rc.port = chat_server_port(srv);
		snprintf(where, sizeof(where), "server in-process");
	} else {
		snprintf(where, sizeof(where), "server %s:%d", c->host,
			 c->port);
	}
	res_set(doc, "config",
		json_pack("{s:s, s:s, s:i, s:f, s:I}", "server",
			  c->host ? "remote" : "in-process", "host", rc.host,
			  "port", rc.port, "timeout_s", rc.timeout_s,
			  "connections", (json_int_t)(c->rooms * c->users)));
	declare_metrics(doc);
	kase = res_case(doc, params_json(c));
	m = measure_open(c, rc.host, rc.port, err, sizeof(err));
	if (!m)
		die("%s", err);
	paired = measure_paired(m);
	nruns = meter_runs(paired, (int)c->repeat);
	s = calloc((size_t)nruns, sizeof(*s));
	if (!s)
		abort();
	if (paired)
		fprintf(out,
			"chatbench: the soak meter (%s) runs in pairs: metered, then unmetered (the rate)\n",
			measure_soak_sides(m, names, sizeof(names)));
	log_verbose(
		"%ld rooms x %ld users = %ld connections, %llu messages per run, timeout %.0f s",
		c->rooms, c->users, c->rooms * c->users,
		(unsigned long long)(c->rooms * c->users * c->messages *
				     (c->users - 1)),
		rc.timeout_s);
	while (n < nruns && !sig_stop) {
		metered = meter_run_metered(paired, (int)n);
		if (measure_run(m, &rc, &s[n], metered,
				n + 1 < nruns
					? meter_run_metered(paired, (int)n + 1)
					: -1)) {
			log_err("run %ld: %s", n + 1, s[n].run.err);
			res_fail(doc, "run %ld (%s): %s", n + 1, where,
				 s[n].run.err);
			status = 1;
			break;
		}
		s[n].pair = paired ? (int)n / 2 : (int)n;
		print_run(out, &s[n], n + 1, nruns);
		check_server(out, doc, m, &s[n], n + 1, &told);
		fflush(out);
		sample_to_doc(doc, kase, &s[n], !c->host);
		n++;
		if (!metered && enough(c, s, n))
			break;
	}
	if (n > 1)
		print_table(out, doc, s, n);
	if (c->conf_level > 0 && n > 1) {
		double x[n];
		int ok = enough(c, s, n);

		k = results(s, n, x);
		fprintf(out, "confidence %.0f%% +-%.1f%% %s after %ld %s\n",
			c->conf_level, c->conf_width / 2,
			ok ? "reached" : "NOT reached", k,
			paired ? "pairs" : "runs");
		if (!ok)
			res_warn(
				doc,
				"confidence %.0f%%,%.1f%% not reached after %ld %s",
				c->conf_level, c->conf_width, k,
				paired ? "pairs" : "runs");
	}
	if (sig_stop) {
		res_fail(doc, "interrupted by a signal after %ld runs", n);
		status = sig_exit_status();
	}
	if (n)
		summary(out, c, s, n, where, paired);
	measure_close(m);
	chat_server_stop(srv);
	if (res_finish(doc))
		status = 1;
	res_free(doc);
	free(s);
	return status;
}

int main(int argc, char **argv)
{
	struct cfg c = {
		.rooms = 10,
		.users = 20,
		.messages = 100,
		.size = 100,
		.model = CHAT_THREADS,
		.port = 0,
		.repeat = 1,
		.drop_after = -1,
		.stall_after = -1,
	};
	char err[512];

	log_init(argv[0]);
	parse_opts(&c, argc, argv);
	if (!c.server && !c.json &&
	    res_check_output(c.output, err, sizeof(err)))
		die("%s", err);
	sig_install();
	if (c.server)
		return do_server(&c);
	return do_client(&c, argc, argv);
}
