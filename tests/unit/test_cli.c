/* test_cli.c: option values parse, or exit 2 naming the option. */
#include "config.h"
#include "cli.h"
#include "result.h"
#include "t.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run f in a child with stderr to a pipe; return its exit status and
 * what it printed. */
static int child(void (*f)(void), char *msg, size_t len)
{
	int p[2], st = 0;
	ssize_t n;
	pid_t pid;

	T_ASSERT(pipe(p) == 0);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (!pid) {
		dup2(p[1], 2);
		f();
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void bad_long(void) { cli_long("--rooms", "ten", 1, 100); }
static void big_long(void) { cli_long("--rooms", "101", 1, 100); }
static void bad_size(void) { cli_size("-l", "32q", 1, 1 << 20); }
static void bad_dur(void) { cli_duration("--duration", "0", 0, 60); }
static void long_dur(void) { cli_duration("--duration", "2m", 0, 60); }
static void bad_double(void) { cli_double("--alpha", "2", 1e-9, 0.5); }
static void bad_conf(void)
{
	double l, w;

	cli_confidence("--confidence", "40,5", &l, &w);
}
static void short_dur(void) { cli_duration("-p", "1ms", 0.01, 60); }

/* A made-up tool for the common option set: -l N and --rooms N of its
 * own, -o its own (as zcs's socket buffer) unless ZOPT. */
struct fake {
	long l, rooms, o;
};

/* the long-only options of the made-up tools */
enum { F_ROOMS = CLI_OPT_LONG, F_FLAG, F_DIRECT, F_OTHER };

static void fake_opt(void *cfg, int opt, const char *arg)
{
	struct fake *f = cfg;

	if (opt == 'l')
		f->l = cli_long("-l", arg, 1, 100);
	else if (opt == 'o')
		f->o = cli_long("-o", arg, 1, 1 << 20);
	else if (opt == F_ROOMS)
		f->rooms = cli_long("--rooms", arg, 1, 10);
}

static const struct cli_set fake_rows[] = {
	CLI_TAKE('l', NULL, "N", "length"),
	CLI_TAKE(F_ROOMS, "rooms", "N", "rooms"),
	{0},
};

static const struct cli_tool fake_tool = {
	.text = "usage: fake [options] HOST\n",
	.common = CLI_CPU | CLI_REPEAT | CLI_CONFIDENCE | CLI_RESULT |
		  CLI_RESULT_O,
	.repeat_max = 50,
	.sets = fake_rows,
	.option = fake_opt,
};

/* zcs-like: -o is the tool's own, the document only through --output */
static const struct cli_set zcs_rows[] = {
	CLI_TAKE('l', NULL, "N", "length"),
	CLI_TAKE('o', NULL, "N", "its own -o"),
	CLI_TAKE(F_ROOMS, "rooms", "N", "rooms"),
	{0},
};

static const struct cli_tool zcs_like = {
	.text = "usage: zcs-like\n",
	.common = CLI_CPU | CLI_RESULT,
	.sets = zcs_rows,
	.option = fake_opt,
};

/* zcs and zcc: -i and -o are the socket buffers, the common set's */
static const struct cli_tool sockbuf_tool = {
	.text = "usage: zcc-like\n",
	.common = CLI_CPU | CLI_RESULT | CLI_SOCKBUF,
	.sets = fake_rows,
	.option = fake_opt,
};

static int parse(const struct cli_tool *t, struct fake *f,
		 struct cli_common *c, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "fake";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(f, 0, sizeof(*f));
	memset(c, 0, sizeof(*c));
	c->repeat = 3; /* the tool's default survives */
	optind = 0;
	return cli_parse(t, f, c, argc, argv);
}

static void bad_repeat(void)
{
	static const char *const a[] = { "--repeat", "51", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void unknown(void)
{
	static const char *const a[] = { "-x", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void unknown_long(void)
{
	static const char *const a[] = { "--nonsense", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void value_to_flag(void)
{
	static const char *const a[] = { "--verbose=3", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void both_outputs(void)
{
	static const char *const a[] = { "-J", "--output", "x.json", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void clash(void)
{
	static const struct cli_set rows[] = { CLI_TAKE('c', NULL, NULL, "c"),
					       {0} };
	static const struct cli_tool bad = { .text = "", .common = CLI_CPU,
					     .sets = rows,
					     .option = fake_opt };
	static const char *const a[] = { NULL };
	struct fake f;
	struct cli_common c;

	parse(&bad, &f, &c, a);
}

static void bad_sockbuf(void)
{
	static const char *const a[] = { "-i", "0", NULL };
	struct fake f;
	struct cli_common c;

	parse(&sockbuf_tool, &f, &c, a);
}

static void sockbufs(void)
{
	static const char *const a[] = { "-i", "64k", "-o", "1m", "--output",
					  "d.json", NULL };
	struct cli_common c;
	struct fake f;
	char msg[512];
	char *buf = NULL;
	size_t len = 0;
	FILE *u;

	parse(&sockbuf_tool, &f, &c, a);
	T_CHECK(c.rcvbuf == 65536 && c.sndbuf == 1 << 20 && f.o == 0);
	T_STREQ(c.out, "d.json");
	T_CHECK(child(bad_sockbuf, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-i: \"0\"") != NULL);
	u = open_memstream(&buf, &len);
	cli_usage(&sockbuf_tool, u);
	fclose(u);
	T_CHECK(strstr(buf, "-i SIZE") && strstr(buf, "-o SIZE"));
	T_CHECK(!strstr(buf, "-o FILE"));
	free(buf);
}

/* -i, --interval and --json-stream (CLI_INTERVAL): -i is the interval,
 * or with CLI_SOCKBUF the socket's and --interval the interval */
static const struct cli_tool ival_tool = {
	.text = "usage: ival\n",
	.common = CLI_CPU | CLI_RESULT | CLI_INTERVAL,
	.sets = fake_rows,
	.option = fake_opt,
};
static const struct cli_tool ival_sockbuf = {
	.text = "usage: ival-zcc\n",
	.common = CLI_CPU | CLI_RESULT | CLI_SOCKBUF | CLI_INTERVAL,
	.option = fake_opt,
};

static void stream_and_J(void)
{
	static const char *const a[] = { "--json-stream", "-J", NULL };
	struct cli_common c;
	struct fake f;

	parse(&ival_tool, &f, &c, a);
}

static void short_interval(void)
{
	static const char *const a[] = { "-i", "5ms", NULL };
	struct cli_common c;
	struct fake f;

	parse(&ival_tool, &f, &c, a);
}

static void intervals(void)
{
	static const char *const a[] = { "-i", "250ms", "-l", "3", NULL };
	static const char *const b[] = { "--json-stream", NULL };
	static const char *const d[] = { "-i", "64k", "--interval", "2",
					  "--json-stream", NULL };
	struct cli_common c;
	struct fake f;
	char msg[512], *buf = NULL;
	size_t len = 0;
	FILE *u;

	parse(&ival_tool, &f, &c, a);
	T_NEAR(c.interval, 0.25, 1e-12);
	T_CHECK(!c.json_stream && f.l == 3);
	parse(&ival_tool, &f, &c, b);
	T_CHECK(c.json_stream && c.interval == 1); /* 1 s unless given */
	parse(&ival_sockbuf, &f, &c, d);
	T_CHECK(c.rcvbuf == 65536 && c.interval == 2 && c.json_stream);
	T_CHECK(child(stream_and_J, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--json-stream and -J: both want stdout") != NULL);
	T_CHECK(child(short_interval, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-i: \"5ms\"") != NULL);
	u = open_memstream(&buf, &len);
	cli_usage(&ival_tool, u);
	fclose(u);
	T_CHECK(strstr(buf, "  -i, --interval T") && strstr(buf, "--json-stream"));
	free(buf);
	buf = NULL;
	u = open_memstream(&buf, &len);
	cli_usage(&ival_sockbuf, u);
	fclose(u);
	T_CHECK(!strstr(buf, "-i, --interval") && strstr(buf, "      --interval T"));
	T_CHECK(strstr(buf, "-i SIZE") != NULL);
	free(buf);
}

static void cpu_apart(void)
{
	static const char *const a[] = { "--cpu", "soak,procstat", "host",
					  NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void common_set(void)
{
	static const char *const a1[] = { "-c", "-l", "7", "--rooms=4",
					   "--repeat", "9", "-o", "r.json",
					   "--label", "k1", "-v", "host", NULL };
	static const char *const a2[] = { "--cpu=soak", "--confidence",
					   "99,2", "-J", NULL };
	static const char *const a3[] = { "--cpu", "-o", "4096", "--output",
					   "d.json", NULL };
	struct cli_common c;
	struct fake f;
	char msg[512];
	int i;

	i = parse(&fake_tool, &f, &c, a1);
	T_CHECK(i == 12);
	T_CHECK(c.cpu && !c.cpu_list && c.repeat == 9);
	T_CHECK(f.l == 7 && f.rooms == 4);
	T_STREQ(c.out, "r.json");
	T_STREQ(c.label, "k1");
	T_CHECK(!c.json_stdout && c.conf_level == 0);
	parse(&fake_tool, &f, &c, a2);
	T_CHECK(c.cpu && c.cpu_list && !strcmp(c.cpu_list, "soak"));
	T_CHECK(c.repeat == 3); /* untouched: the tool's default */
	T_NEAR(c.conf_level, 99, 1e-9);
	T_NEAR(c.conf_width, 2, 1e-9);
	T_CHECK(c.json_stdout);
	/* zcs keeps its -o; the document goes to --output */
	parse(&zcs_like, &f, &c, a3);
	T_CHECK(f.o == 4096 && c.cpu);
	T_STREQ(c.out, "d.json");
	T_CHECK(child(bad_repeat, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--repeat") && strstr(msg, "51"));
	T_CHECK(child(unknown, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-x: unknown option") != NULL);
	T_CHECK(child(unknown_long, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--nonsense: unknown option, or an ambiguous") != NULL);
	T_CHECK(child(value_to_flag, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--verbose=3: unknown option, or one that takes "
			    "no value") != NULL);
	T_CHECK(child(both_outputs, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-J and --output") != NULL);
	T_CHECK(child(cpu_apart, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--cpu=soak,procstat") != NULL);
	T_CHECK(child(clash, msg, sizeof(msg)) == 1);
	T_CHECK(strstr(msg, "-c is both common and the tool's") != NULL);
}

/* The document the common options ask for: where it goes, its label. */
static void result_doc(void)
{
	static const char *const a1[] = { "-J", "--label", "k2", NULL };
	static const char *const a2[] = { "--output", "/dev/null", NULL };
	static char *argv[] = { "fake", NULL };
	struct cli_common c;
	struct res_doc *d;
	struct fake f;

	parse(&fake_tool, &f, &c, a1);
	T_STREQ(cli_result_path(&c), "-");
	d = cli_result_doc(&c, "fake", 1, argv);
	T_STREQ(res_label(d), "k2");
	res_free(d);
	parse(&fake_tool, &f, &c, a2);
	T_STREQ(cli_result_path(&c), "/dev/null");
	memset(&c, 0, sizeof(c));
	T_CHECK(cli_result_path(&c) == NULL);
}

/* cyclesoak-like: a leading '+' stops at the command; -J's document
 * path and text stream */
static void stop_at_command(void)
{
	static const struct cli_tool cs_like = {
		.text = "usage: cs-like [options] -- CMD\n",
		.common = CLI_METERS | CLI_RESULT | CLI_RESULT_O,
		.stop = 1,
		.sets = fake_rows,
		.option = fake_opt,
	};
	static const char *const a[] = { "-l", "3", "-J", "--", "cmd", "-v",
					  NULL };
	static const char *const b[] = { "-o", "x.json", "cmd", "-l", "4",
					  NULL };
	struct cli_common c;
	struct fake f;
	int i;

	i = parse(&cs_like, &f, &c, a);
	T_CHECK(i == 5 && f.l == 3 && c.json_stdout);
	T_STREQ(cli_doc_path(&c), "-");
	T_CHECK(cli_text(&c) == stderr);
	i = parse(&cs_like, &f, &c, b);
	T_CHECK(i == 3 && f.l == 0);
	T_STREQ(cli_doc_path(&c), "x.json");
	T_CHECK(cli_text(&c) == stdout);
	c.out = NULL;
	T_CHECK(cli_doc_path(&c) == NULL);
}

/* long options from the rows: a letter's long form, long-only ones with
 * a value, none, or an optional one */
struct spec {
	long rooms, len;
	int flag, opt_given;
	const char *opt;
};

static void spec_opt(void *cfg, int opt, const char *arg)
{
	struct spec *sp = cfg;

	if (opt == 'l')
		sp->len = cli_long("-l", arg, 1, 100);
	else if (opt == F_ROOMS)
		sp->rooms = cli_long("--rooms", arg, 1, 10);
	else if (opt == F_FLAG)
		sp->flag = 1;
	else if (opt == F_DIRECT) {
		sp->opt_given = 1;
		sp->opt = arg;
	}
}

static const struct cli_set spec_rows[] = {
	CLI_TAKE('l', "length", "N", "length"),
	CLI_TAKE(F_ROOMS, "rooms", "N", "rooms"),
	CLI_TAKE(F_FLAG, "flag", NULL, "a flag"),
	CLI_TAKE(F_DIRECT, "direct", "[=both]", "an optional value"),
	{0},
};

static const struct cli_tool spec_tool = {
	.text = "usage: spec\n",
	.common = CLI_CPU | CLI_RESULT,
	.sets = spec_rows,
	.option = spec_opt,
};

static int parse_spec(const struct cli_tool *t, struct spec *sp,
		      const char *const *args)
{
	char *argv[32];
	int argc = 0;
	struct cli_common c = { 0 };

	argv[argc++] = "spec";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(sp, 0, sizeof(*sp));
	optind = 0;
	return cli_parse(t, sp, &c, argc, argv);
}

/* A tool whose rows are wrong (the tool's bug, exit 1): the row. */
static const struct cli_set *bad_rows;

static void bad_table(void)
{
	const struct cli_tool bad = { .text = "", .common = CLI_RESULT,
				      .sets = bad_rows, .option = spec_opt };
	static const char *const a[] = { NULL };
	struct spec sp;

	parse_spec(&bad, &sp, a);
}

static void spec_unknown(void)
{
	static const char *const a[] = { "-R", "3", NULL };
	struct spec sp;

	parse_spec(&spec_tool, &sp, a);
}

static void long_spec(void)
{
	static const char *const a[] = { "--length=7", "--rooms", "4",
					  "--flag", "--direct", "-c", NULL };
	static const char *const b[] = { "-l", "9", "--direct=both", NULL };
	struct spec sp;
	char msg[512];

	T_CHECK(parse_spec(&spec_tool, &sp, a) == 7);
	T_CHECK(sp.len == 7 && sp.rooms == 4 && sp.flag);
	T_CHECK(sp.opt_given && !sp.opt);
	parse_spec(&spec_tool, &sp, b);
	T_CHECK(sp.len == 9 && sp.opt && !strcmp(sp.opt, "both"));
	/* a long-only option's letter is not a short option */
	T_CHECK(child(spec_unknown, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-R") != NULL);
}

/* Rows that cannot be: each dies naming what is wrong (exit 1). */
static void bad_tables(void)
{
	static const struct cli_set common_letter[] = {
		CLI_SWITCH('J', "verify", 0, "a common letter"), {0} };
	static const struct cli_set common_name[] = {
		CLI_TAKE(F_ROOMS, "label", "L", "a common name"), {0} };
	static const struct cli_set no_name[] = {
		CLI_TAKE(F_ROOMS, NULL, "N", "long-only, no long name"), {0} };
	static const struct cli_set not_letter[] = {
		CLI_TAKE('-', NULL, NULL, "not a letter"), {0} };
	static const struct cli_set twice[] = {
		CLI_TAKE('l', "length", "N", "once"),
		CLI_TAKE(F_ROOMS, "length", "N", "twice"), {0} };
	static const struct cli_set no_arg[] = {
		CLI_VALUE('n', NULL, NULL, CLI_INT, 0, 1, 9, "no value name"),
		{0} };
	static const struct {
		const struct cli_set *rows;
		const char *says;
	} bad[] = {
		{ common_letter, "-J is both common and the tool's" },
		{ common_name, "--label is both common and the tool's" },
		{ no_name, "needs its long name" },
		{ not_letter, "option 45: a letter, or CLI_OPT_LONG and up" },
		{ twice, "--length is two rows" },
		{ no_arg, "-n stores a value: its row names it (.arg)" },
	};
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bad_rows = bad[i].rows;
		T_CHECK(child(bad_table, msg, sizeof(msg)) == 1);
		T_CHECK(strstr(msg, bad[i].says) != NULL);
	}
}

/* option groups (.take) tried in order before option(); cli_choice */
static int take_len(void *cfg, int opt, const char *arg)
{
	if (opt != 'l')
		return 0;
	((struct spec *)cfg)->len = cli_long("-l", arg, 1, 100);
	return 1;
}

static int take_rooms(void *cfg, int opt, const char *arg)
{
	static const char *const sizes[] = {"one", "two", "three", NULL};

	if (opt != F_ROOMS)
		return 0;
	((struct spec *)cfg)->rooms = 1 + cli_choice("--rooms", arg, sizes);
	return 1;
}

static const struct cli_tool take_tool = {
	.text = "usage: take\n",
	.common = CLI_RESULT,
	.sets = spec_rows,
	.take = {take_len, take_rooms},
	.option = spec_opt,
};

static void bad_choice(void)
{
	static const char *const a[] = {"--rooms", "four", NULL};
	struct spec sp;

	parse_spec(&take_tool, &sp, a);
}

static void groups(void)
{
	static const char *const a[] = {"-l", "5", "--rooms", "three",
					"--flag", NULL};
	struct spec sp;
	char msg[512];

	T_CHECK(parse_spec(&take_tool, &sp, a) == 6);
	/* spec_opt would have set len and rooms itself: the groups did */
	T_CHECK(sp.len == 5 && sp.rooms == 3 && sp.flag);
	T_CHECK(child(bad_choice, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--rooms: \"four\" is not one, two or three") !=
		NULL);
}

/* --profile[=FREQ]: the profile meter joins the list, once */
static void bad_profile(void)
{
	static const char *const a[] = { "--profile=0", NULL };
	struct fake f;
	struct cli_common c;

	parse(&fake_tool, &f, &c, a);
}

static void profile_opt(void)
{
	static const char *const a[] = { "--profile", NULL };
	static const char *const b[] = { "--profile=250", "--cpu=soak", NULL };
	static const char *const d[] = { "--cpu=procstat,profile",
					  "--profile", NULL };
	struct cli_common c;
	struct fake f;
	char msg[512];

	unsetenv("ZCB_PROFILE_FREQ");
	parse(&fake_tool, &f, &c, a);
	T_CHECK(c.cpu && c.profile);
	T_STREQ(c.cpu_list, "procstat,profile");
	T_CHECK(getenv("ZCB_PROFILE_FREQ") == NULL);
	parse(&fake_tool, &f, &c, b);
	T_STREQ(c.cpu_list, "soak,profile");
	T_STREQ(getenv("ZCB_PROFILE_FREQ"), "250");
	parse(&fake_tool, &f, &c, d);
	T_STREQ(c.cpu_list, "procstat,profile");
	T_CHECK(child(bad_profile, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--profile: \"0\"") != NULL);
	unsetenv("ZCB_PROFILE_FREQ");
}

/* The plain options as data: every kind stored in its field, a number
 * checked against its row's range, the row's name in the message; a
 * group and option() never see a row's option. */
struct plain {
	const char *s;
	int flag, i, ms;
	long l;
	uint32_t u;
	uint64_t big;
	size_t len;
	double dur, dbl;
	int other;
};

#define PL(f) offsetof(struct plain, f)
enum { P_LONG = CLI_OPT_LONG, P_U32, P_BIG, P_DUR, P_DBL, P_MS, P_OTHER };
static const struct cli_set plain_sets[] = {
	CLI_STRING('s', NULL, "S", PL(s), "a string"),
	CLI_SWITCH('f', "flag", PL(flag), "a flag"),
	CLI_VALUE('i', NULL, "N", CLI_INT, PL(i), 1, 10, "an int"),
	CLI_VALUE(P_LONG, "long", "N", CLI_LONG, PL(l), -5, 1e12, "a long"),
	CLI_VALUE(P_U32, "u32", "N", CLI_U32, PL(u), 0, UINT32_MAX, "a u32"),
	CLI_VALUE(P_BIG, "big", "SIZE", CLI_SIZE, PL(big), 1, 1ull << 50,
		  "a size"),
	CLI_VALUE('b', NULL, "SIZE", CLI_SIZE_T, PL(len), 1, 64 << 20,
		  "a length"),
	CLI_VALUE(P_DUR, "dur", "T", CLI_DUR, PL(dur), 0.01, 60, "seconds"),
	CLI_VALUE(P_DBL, "dbl", "X", CLI_DBL, PL(dbl), 0, 1, "a number"),
	CLI_VALUE(P_MS, "ms", "T", CLI_MS, PL(ms), 0, 60, "milliseconds"),
	CLI_TAKE(P_OTHER, "other", NULL, "option() takes it"),
	{0},
};

static void plain_other(void *cfg, int opt, const char *arg)
{
	(void)arg;
	((struct plain *)cfg)->other = opt;
}

CLI_TOOL(plain_tool, "usage: plain\n", CLI_RESULT, .sets = plain_sets,
	 .option = plain_other);

static int parse_plain(struct plain *pl, const char *const *args)
{
	struct cli_common c;
	char *argv[32];
	int argc = 0;

	argv[argc++] = "plain";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(pl, 0, sizeof(*pl));
	memset(&c, 0, sizeof(c));
	optind = 0;
	return cli_parse(&plain_tool, pl, &c, argc, argv);
}

static void plain_big_int(void)
{
	static const char *const a[] = {"-i", "11", NULL};
	struct plain pl;

	parse_plain(&pl, a);
}

static void plain_bad_ms(void)
{
	static const char *const a[] = {"--ms", "2m", NULL};
	struct plain pl;

	parse_plain(&pl, a);
}

static void plain_options(void)
{
	static const char *const a[] = {
		"-s", "host", "--flag", "-i", "7", "--long", "-3",
		"--u32", "4000000000", "--big", "1t", "-b", "64k",
		"--dur", "250ms", "--dbl", "0.5", "--ms", "1.5", "--other",
		NULL};
	struct plain pl;
	char msg[512];

	T_CHECK(parse_plain(&pl, a) == 21); /* argv[0] and 20 */
	T_STREQ(pl.s, "host");
	T_CHECK(pl.flag == 1 && pl.i == 7 && pl.l == -3);
	T_CHECK(pl.u == 4000000000u && pl.big == 1ull << 40);
	T_CHECK(pl.len == 65536);
	T_NEAR(pl.dur, 0.25, 1e-12);
	T_NEAR(pl.dbl, 0.5, 0);
	T_CHECK(pl.ms == 1500);
	T_CHECK(pl.other == P_OTHER); /* a CLI_OWN row: option() had it */
	T_CHECK(child(plain_big_int, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-i") && strstr(msg, "1..10"));
	T_CHECK(child(plain_bad_ms, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--ms") != NULL);
}

static void help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cli_usage(&fake_tool, f);
	fclose(f);
	T_CHECK(strstr(buf, "usage: fake") == buf);
	T_CHECK(strstr(buf, "Common options:") != NULL);
	T_CHECK(strstr(buf, "--confidence") && strstr(buf, "-o FILE"));
	free(buf);
	f = open_memstream(&buf, &len);
	cli_usage(&zcs_like, f);
	fclose(f);
	T_CHECK(!strstr(buf, "-o FILE") && strstr(buf, "--output FILE"));
	T_CHECK(!strstr(buf, "--repeat") && !strstr(buf, "--confidence"));
	free(buf);
}

/* The usage is made from the rows: the preamble, each row's line(s) in
 * the table's order with its headings, a row without help left out (and
 * still taken), then the common block, also made from rows. */
struct gen {
	int hidden, quick;
	const char *period, *name;
};

#define GO(f) offsetof(struct gen, f)
enum { G_QUICK = CLI_OPT_LONG, G_NAME };

static const struct cli_set gen_rows[] = {
	CLI_HEAD("Where:"),
	CLI_STRING('p', "period", "=S", GO(period), "monitor period"),
	CLI_STRING(G_NAME, "a-rather-long-option-name", "NAME", GO(name),
		   "too wide for the column:\nhelp after two blanks"),
	CLI_HEAD("What:"),
	CLI_SWITCH('x', NULL, GO(hidden), NULL),
	CLI_SWITCH(G_QUICK, "quick", GO(quick), "skip\nthe slow part"),
	CLI_TAKE('d', NULL, "[=LEVEL]", "an optional value"),
	CLI_HEAD("A note at the end."),
	{0},
};

static void gen_opt(void *cfg, int opt, const char *arg)
{
	(void)cfg;
	(void)opt;
	(void)arg;
}

CLI_TOOL(gen_tool, "usage: gen [options]\n\n", CLI_RESULT, .sets = gen_rows,
	 .option = gen_opt);

static void generated_usage(void)
{
	static const char want[] =
		"usage: gen [options]\n"
		"\n"
		"Where:\n"
		"  -p, --period=S        monitor period\n"
		"      --a-rather-long-option-name NAME  too wide for the column:\n"
		"                        help after two blanks\n"
		"What:\n"
		"      --quick           skip\n"
		"                        the slow part\n"
		"  -d[=LEVEL]            an optional value\n"
		"A note at the end.\n"
		"\n"
		"Common options:\n"
		"  -J                    result document to stdout (text to stderr)\n"
		"      --output FILE     result document to FILE (a failed run's goes\n"
		"                        to FILE.failed when FILE holds a good one)\n"
		"      --label L         what runs are compared by (default: the\n"
		"                        kernel release)\n"
		"  -v, --verbose         more output; -q, --quiet: less\n"
		"  -h, --help            this help\n"
		"      --version         \"NAME zcbench VERSION\" (scripts check that\n"
		"                        both hosts run the same)\n";
	static const char *const a[] = { "-x", "--quick", "--period", "2",
					  "--a-rather-long-option-name=n",
					  NULL };
	struct cli_common c;
	struct gen g;
	char *argv[16], *buf = NULL;
	size_t len = 0;
	int argc = 0, i;
	FILE *f;

	f = open_memstream(&buf, &len);
	cli_usage(&gen_tool, f);
	fclose(f);
	T_STREQ(buf, want);
	free(buf);
	/* the hidden row, the long-only ones and a letter's long form */
	argv[argc++] = "gen";
	for (i = 0; a[i]; i++)
		argv[argc++] = (char *)a[i];
	argv[argc] = NULL;
	memset(&g, 0, sizeof(g));
	memset(&c, 0, sizeof(c));
	optind = 0;
	T_CHECK(cli_parse(&gen_tool, &g, &c, argc, argv) == argc);
	T_CHECK(g.hidden && g.quick);
	T_STREQ(g.period, "2");
	T_STREQ(g.name, "n");
}

/* A row's message name, its value for getopt and its line. */
static void row_parts(void)
{
	static const struct cli_set r[] = {
		CLI_TAKE('l', "length", "N", "h"),
		CLI_TAKE(G_QUICK, "quick", NULL, "h"),
		{'n', NULL, "N", CLI_INT, 0, 1, 2, "h", "--repeat"},
		CLI_TAKE(G_NAME, "name", "[=X]", NULL),
	};
	char nm[32], *buf = NULL;
	size_t len = 0;
	FILE *f;

	T_STREQ(cli_set_name(&r[0], nm, sizeof(nm)), "-l");
	T_STREQ(cli_set_name(&r[1], nm, sizeof(nm)), "--quick");
	T_STREQ(cli_set_name(&r[2], nm, sizeof(nm)), "--repeat");
	T_CHECK(cli_set_has_arg(&r[0]) == required_argument);
	T_CHECK(cli_set_has_arg(&r[1]) == no_argument);
	T_CHECK(cli_set_has_arg(&r[3]) == optional_argument);
	f = open_memstream(&buf, &len);
	cli_set_usage(&r[0], 0, f);	/* the letter not shown */
	cli_set_usage(&r[3], 0, f);	/* no help: nothing */
	fclose(f);
	T_STREQ(buf, "      --length N        h\n");
	free(buf);
}

/* --omit, --reruns and --disturbance (issue 26): the tools that measure
 * a rate take them from the common block, with their defaults */
static const struct cli_tool quiet_tool = {
	.text = "usage: quiet\n",
	.common = CLI_REPEAT | CLI_OMIT | CLI_RERUNS,
	.sets = fake_rows,
	.option = fake_opt,
};

static void bad_omit(void)
{
	static const char *const a[] = { "--omit", "-1", NULL };
	struct fake f;
	struct cli_common c;

	parse(&quiet_tool, &f, &c, a);
}

static void bad_disturbance(void)
{
	static const char *const a[] = { "--disturbance", "2,101", NULL };
	struct fake f;
	struct cli_common c;

	parse(&quiet_tool, &f, &c, a);
}

static void bad_env_reruns(void)
{
	static const char *const a[] = { NULL };
	struct fake f;
	struct cli_common c;

	setenv("ZCB_RERUNS", "many", 1);
	parse(&quiet_tool, &f, &c, a);
}

static void quiet_options(void)
{
	static const char *const a1[] = { "--omit", "500ms", "--reruns", "3",
					   "--disturbance", "1.5,10", NULL };
	static const char *const a2[] = { "--omit", "0", "--disturbance", "4",
					   NULL };
	static const char *const none[] = { NULL };
	struct cli_common c;
	struct fake f;
	char msg[512], *buf;
	size_t len;
	FILE *m;

	unsetenv("ZCB_RERUNS");
	parse(&quiet_tool, &f, &c, a1);
	T_NEAR(c.omit, 0.5, 1e-12);
	T_CHECK(c.reruns == 3);
	T_NEAR(c.steal_max, 1.5, 1e-12);
	T_NEAR(c.outside_max, 10, 1e-12);
	parse(&quiet_tool, &f, &c, a2);
	T_CHECK(c.omit == 0 && c.reruns == CLI_RERUNS_DEFAULT);
	T_NEAR(c.steal_max, 4, 1e-12);
	T_NEAR(c.outside_max, 5, 1e-12); /* O's default */
	parse(&quiet_tool, &f, &c, none);
	T_CHECK(c.reruns == CLI_RERUNS_DEFAULT && c.omit == 0);
	T_NEAR(c.steal_max, 2, 1e-12);
	T_NEAR(c.outside_max, 5, 1e-12);
	/* the environment's default, below a given --reruns */
	setenv("ZCB_RERUNS", "0", 1);
	parse(&quiet_tool, &f, &c, none);
	T_CHECK(c.reruns == 0);
	parse(&quiet_tool, &f, &c, a1);
	T_CHECK(c.reruns == 3);
	unsetenv("ZCB_RERUNS");
	/* a tool without them has none */
	parse(&fake_tool, &f, &c, none);
	T_CHECK(c.reruns == 0 && c.steal_max == 0);
	T_CHECK(child(bad_omit, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--omit") && strstr(msg, "-1"));
	T_CHECK(child(bad_disturbance, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--disturbance") && strstr(msg, "2,101"));
	T_CHECK(child(bad_env_reruns, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "ZCB_RERUNS=many") != NULL);
	m = open_memstream(&buf, &len);
	cli_usage(&quiet_tool, m);
	fclose(m);
	T_CHECK(strstr(buf, "      --omit T") && strstr(buf, "      --reruns N") &&
		strstr(buf, "      --disturbance S[,O]"));
	free(buf);
	m = open_memstream(&buf, &len);
	cli_usage(&fake_tool, m);
	fclose(m);
	T_CHECK(!strstr(buf, "--omit") && !strstr(buf, "--reruns"));
	free(buf);
}

int main(void)
{
	common_set();
	quiet_options();
	sockbufs();
	intervals();
	result_doc();
	stop_at_command();
	long_spec();
	bad_tables();
	generated_usage();
	row_parts();
	groups();
	profile_opt();
	plain_options();
	help_text();
	char msg[512];

	T_CHECK(cli_long("--rooms", "10", 1, 100) == 10);
	T_CHECK(cli_size("-l", "32k", 1, 1 << 20) == 32768);
	T_NEAR(cli_duration("--duration", "250ms", 0, 60), 0.25, 1e-12);

	T_NEAR(cli_double("--alpha", "0.05", 1e-9, 0.5), 0.05, 0);
	{
		double l = 0, w = 0;

		cli_confidence("--confidence", "99,2", &l, &w);
		T_CHECK(l == 99 && w == 2);
		cli_confidence("--confidence", "95", &l, &w);
		T_CHECK(l == 95 && w == 5);
	}
	T_CHECK(child(bad_double, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--alpha: \"2\"") != NULL);
	T_CHECK(child(bad_conf, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "LEVEL,WIDTH") != NULL);
	T_CHECK(child(bad_long, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--rooms") && strstr(msg, "\"ten\""));
	T_CHECK(child(big_long, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "1..100") != NULL);
	T_CHECK(child(bad_size, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-l: \"32q\" is not a size") != NULL);
	T_CHECK(child(bad_dur, msg, sizeof(msg)) == 2);
	T_CHECK(child(long_dur, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--duration") != NULL);
	T_CHECK(child(short_dur, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "0.01s..60s") != NULL);
	return t_done();
}
