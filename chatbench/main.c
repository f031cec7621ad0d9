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
#include "cli.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "units.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A field of the settings, for the plain options' table. */
#define CO(f) offsetof(struct cfg, f)

static const char usage_text[] =
	"usage: chatbench [options]              server and clients on this box\n"
	"       chatbench --server [options]     serve runs until a signal\n"
	"       chatbench --host HOST [options]  clients against a remote server\n"
	"\n";

/* The long-only options. */
enum {
	O_NODELAY = CLI_OPT_LONG,
	O_MODEL,
	O_SERVER,
	O_HOST,
	O_BIND,
	O_MAX_CONNS,
	O_FAULT,
};

static int port_set; /* -p given */

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

static void parse_size(struct cfg *c, const char *arg)
{
	uint64_t sz;

	if (units_parse_size(arg, &sz) || sz < CHAT_HDR || sz > CHAT_FRAME_MAX)
		die_usage(
			"--size %s: expected %d to %d bytes (the frame header is %d)",
			arg, CHAT_HDR, CHAT_FRAME_MAX, CHAT_HDR);
	c->size = (long)sz;
}

/* Every option, in the usage's order (the messages name the long
 * forms). */
static const struct cli_set sets[] = {
	{'r', "rooms", "N", CLI_LONG, CO(rooms), 1, CHAT_MAX_ROOMS,
	 "chat rooms (default 10)", "--rooms"},
	{'u', "users", "N", CLI_LONG, CO(users), 2, CHAT_MAX_USERS,
	 "users per room, one connection each (default 20)", "--users"},
	{'m', "messages", "N", CLI_LONG, CO(messages), 1, UINT32_MAX,
	 "messages each user sends (default 100)", "--messages"},
	CLI_TAKE('s', "size", "BYTES",
		 "bytes per message, 16-byte header included\n"
		 "(default 100, chat-1.0.1's)"),
	CLI_SWITCH(O_NODELAY, "nodelay", CO(nodelay),
		   "set TCP_NODELAY on every connection"),
	CLI_TAKE(O_MODEL, "model", "M",
		 "threads (chat-1.0.1: two threads per connection\n"
		 "on each side) or epoll (one event loop per side)"),
	CLI_SWITCH(O_SERVER, "server", CO(server), "be the server (chat_s)"),
	CLI_STRING(O_HOST, "host", "HOST", CO(host),
		   "the server to use (default: one in this process)"),
	CLI_TAKE('p', "port", "PORT",
		 "server port (default 9999; in-process: any free)"),
	CLI_STRING(O_BIND, "bind", "ADDR", CO(bind),
		   "server: address to listen on (default all)"),
	CLI_VALUE(O_MAX_CONNS, "max-conns", "N", CLI_LONG, CO(max_conns), 1,
		  1000000,
		  "server: connections held at once, more are turned\n"
		  "away (epoll 20000; threads 10000: 2 threads each)"),
	{'n', NULL, "N", CLI_INT, CO(cli.repeat), 1, 100000,
	 "runs, as --repeat (default 1; with --confidence\n"
	 "at most 30); N > 1 prints the seed's table",
	 "--repeat"},
	{'t', "timeout", "DUR", CLI_DUR, CO(timeout_s), 0, 86400,
	 "client: the run's limit (default 60 s + 1 s per\n"
	 "20000 messages); server: idle limit (120 s) of a\n"
	 "member, and of a control connection with no run",
	 "--timeout"},
	CLI_TAKE(O_FAULT, "fault", "F",
		 "testing aid: drop:K (user 0 of room 0 hangs up\n"
		 "after K messages), stall:K (server stops\n"
		 "relaying after K deliveries per room),\n"
		 "unpaired (--server: act as a server from\n"
		 "before paired runs)"),
	{0},
};

static void chat_option(void *p, int o, const char *arg)
{
	static const char *const models[] = {"threads", "epoll", NULL};
	struct cfg *c = p;

	switch (o) {
	case 's':
		parse_size(c, arg);
		break;
	case O_MODEL:
		c->model = cli_choice("--model", arg, models) ? CHAT_EPOLL
							       : CHAT_THREADS;
		break;
	case 'p':
		c->port = (int)cli_long("--port", arg, 0, 65535);
		port_set = 1;
		break;
	case O_FAULT:
		parse_fault(c, arg);
		break;
	}
}

CLI_TOOL(tool, usage_text,
	 CLI_BENCH | CLI_CONFIDENCE | CLI_OMIT | CLI_RERUNS,
	 .repeat_max = 100000,
	 .sets = sets, .option = chat_option);

/* Which options go with which side; the defaults that depend on them. */
static void check_opts(struct cfg *c, int argc, char **argv, int first)
{
	int repeat_set = c->cli.repeat > 0;

	if (c->server && (c->cli.interval > 0 || c->cli.json_stream))
		die_usage("-i and --json-stream: for the clients' side");
	if (first < argc)
		die_usage("unexpected argument \"%s\"", argv[first]);
	if (c->server && c->host)
		die_usage(
			"--server and --host: a server is told where to listen with --bind");
	if (!c->server && c->bind)
		die_usage("--bind is for --server");
	if (!c->server && c->max_conns)
		die_usage("--max-conns is for --server");
	if (c->server && repeat_set)
		die_usage("--repeat is for the client side");
	if (c->server && (c->cli.omit > 0 || c->cli.reruns_set ||
			  c->cli.disturbance_set))
		die_usage("--omit, --reruns and --disturbance are for the client side");
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
	if (!repeat_set)
		c->cli.repeat = c->cli.conf_level > 0 ? 30 : 1;
	if (c->cli.conf_level > 0 && c->cli.repeat < 2)
		die_usage("--confidence needs --repeat of at least 2");
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
		.cli = {.repeat = 0}, /* 0: not given (check_opts) */
		.drop_after = -1,
		.stall_after = -1,
	};
	char err[512];

	log_init(argv[0]);
	check_opts(&c, argc, argv, cli_parse(&tool, &c, &c.cli, argc, argv));
	if (!c.server &&
	    res_check_output(cli_doc_path(&c.cli), err, sizeof(err)))
		die("%s", err);
	sig_install();
	if (c.server)
		return do_server(&c);
	return do_client(&c, argc, argv);
}
