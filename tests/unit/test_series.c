/* test_series: lib/run/series.c, the one run engine, driven by a fake
 * tool whose runs return scripted rates and outcomes. */
#include "config.h"
#include "quiet.h"
#include "series.h"
#include "stats.h"
#include "t.h"

#define MAXR 64

struct fake {
	double rate[MAXR];	/* run seq's rate */
	int outcome[MAXR];	/* and outcome */
	struct series_run seen[MAXR];
	int more[MAXR];		/* done's more, per run */
	struct series_run done[MAXR]; /* done's run, per run */
	int prepared;		/* prepare calls */
	int n;			/* runs made */
	int pair_at;		/* seq at which to call series_pair_now, -1 */
	int stop_at;		/* seq at which to set the stop flag, -1 */
	struct series *s;
	volatile sig_atomic_t stop;
	int reverse_odd;	/* order: cells backwards on odd rounds */
};

static int f_prepare(void *ctx, const struct series_run *r, char *err,
		     size_t len)
{
	struct fake *f = ctx;

	(void)r, (void)err, (void)len;
	f->prepared++;
	return 0;
}

static int f_run(void *ctx, const struct series_run *r, double *rate,
		 char *err, size_t len)
{
	struct fake *f = ctx;

	T_ASSERT(f->n < MAXR);
	f->seen[f->n] = *r;
	*rate = f->rate[r->seq];
	if (f->pair_at == r->seq)
		series_pair_now(f->s, "soak");
	if (f->stop_at == r->seq)
		f->stop = 1;
	f->n++;
	if (f->outcome[r->seq] == SERIES_FAILED)
		snprintf(err, len, "run %d failed", r->seq);
	return f->outcome[r->seq];
}

static int f_done(void *ctx, const struct series_run *r, int more, char *err,
		  size_t len)
{
	struct fake *f = ctx;

	(void)err, (void)len;
	f->more[r->seq] = more;
	f->done[r->seq] = *r;
	return 0;
}

static int f_order(void *ctx, int rep, int k)
{
	struct fake *f = ctx;

	return f->reverse_odd && rep % 2 ? f->s->cfg.ncells - 1 - k : k;
}

static const struct series_ops ops = {
	.prepare = f_prepare, .run = f_run, .done = f_done, .order = f_order,
};

static void fake_init(struct fake *f, struct series *s, double rate)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < MAXR; i++)
		f->rate[i] = rate;
	f->pair_at = f->stop_at = -1;
	f->s = s;
}

static void start(struct series *s, struct fake *f, int ncells, int repeat,
		  int paired, double conf, int reruns)
{
	struct series_cfg c = {
		.ncells = ncells, .repeat = repeat, .paired = paired,
		.paired_by = paired ? "soak" : NULL, .conf_level = conf,
		.conf_width = 5, .reruns = reruns, .stop = &f->stop,
	};
	char err[128];

	T_ASSERT(!series_open(s, &c, err, sizeof(err)));
}

static void test_unpaired(void)
{
	struct series s;
	struct fake f;
	char err[128];
	const double *x;
	double hw;
	int n;

	fake_init(&f, &s, 100);
	f.rate[1] = 110;
	f.rate[2] = 90;
	start(&s, &f, 1, 3, 0, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 3 && f.prepared == 3 && !s.stopped);
	T_CHECK(f.seen[0].metered == 0 && f.seen[2].metered == 0);
	T_CHECK(f.seen[0].next_metered == 0 && f.seen[2].next_metered == -1);
	T_CHECK(f.seen[1].rep == 1 && f.seen[2].run == 2 && f.seen[2].seq == 2);
	T_CHECK(f.more[0] == 1 && f.more[1] == 1 && f.more[2] == 0);
	x = series_results(&s, 0, &n);
	T_CHECK(n == 3 && x[1] == 110);
	series_metered(&s, 0, &n);
	T_CHECK(n == 0);
	T_NEAR(series_median(&s, 0), 100, 1e-9);
	T_CHECK(series_confidence(&s, 0, &hw) == -1);
	T_CHECK(series_planned(&s) == 3);
	{
		struct stats_ratio r;
		char b[256];

		T_CHECK(series_perturbation(&s, 0, &r) == -1);
		T_STREQ(series_perturbation_note(&s, 0, b, sizeof(b)), "");
	}
	series_close(&s);
}

/* Paired: metered then unmetered (ABAB); the rate from the unmetered
 * runs, the perturbation from the pairs. */
static void test_paired(void)
{
	struct series s;
	struct stats_ratio r;
	struct fake f;
	char err[128], b[256];
	const double *x;
	int n, i;

	fake_init(&f, &s, 0);
	for (i = 0; i < 4; i++)
		f.rate[i] = i % 2 ? 100 : 50; /* metered runs at half speed */
	start(&s, &f, 1, 2, 1, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 4 && series_planned(&s) == 4);
	for (i = 0; i < 4; i++) {
		T_CHECK(f.seen[i].metered == !(i % 2));
		T_CHECK(f.seen[i].rep == i / 2);
		T_CHECK(f.seen[i].paired == 1);
		T_STREQ(f.seen[i].paired_by, "soak");
	}
	T_CHECK(f.seen[0].next_metered == 0 && f.seen[1].next_metered == 1);
	T_CHECK(f.seen[3].next_metered == -1);
	T_CHECK(f.more[3] == 0 && f.more[2] == 1);
	x = series_results(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 100 && x[1] == 100);
	x = series_metered(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 50);
	T_CHECK(series_perturbation(&s, 0, &r) == 0);
	T_NEAR(r.ratio, 0.5, 1e-9);
	T_CHECK(r.n == 2);
	T_CHECK(strstr(series_perturbation_note(&s, 0, b, sizeof(b)),
		       "0.50x") != NULL);
	series_close(&s);
}

/* --confidence: steady rates stop after 3 results; noisy ones use up
 * the repeats and say so. */
static void test_confidence(void)
{
	struct series s;
	struct fake f;
	char err[128];
	double hw;
	int i;

	fake_init(&f, &s, 100);
	start(&s, &f, 1, 10, 0, 95, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 3);
	T_CHECK(f.more[2] == 0);
	T_CHECK(series_confidence(&s, 0, &hw) == 1);
	T_NEAR(hw, 0, 1e-9);
	series_close(&s);

	fake_init(&f, &s, 0);
	for (i = 0; i < MAXR; i++)
		f.rate[i] = i % 2 ? 50 : 150;
	start(&s, &f, 1, 6, 0, 95, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 6);
	T_CHECK(series_confidence(&s, 0, &hw) == 0);
	T_CHECK(hw > 10);
	series_close(&s);

	/* paired: only the unmetered runs count, the pair ends whole */
	fake_init(&f, &s, 100);
	start(&s, &f, 1, 10, 1, 95, 0);
	for (i = 0; i < MAXR; i += 2)
		f.rate[i] = 30 + i; /* metered: noisy, not judged */
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 6);
	T_CHECK(f.more[5] == 0 && f.more[4] == 1);
	series_close(&s);
}

/* A sweep: each round visits every cell in the tool's order; a cell
 * that reached its confidence is left out of later rounds. */
static void test_sweep(void)
{
	struct series s;
	struct fake f;
	char err[128];
	int i, n;

	fake_init(&f, &s, 100);
	f.reverse_odd = 1;
	start(&s, &f, 3, 2, 0, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 6);
	{
		int want[] = {0, 1, 2, 2, 1, 0};

		for (i = 0; i < 6; i++)
			T_CHECK(f.seen[i].cell == want[i]);
	}
	T_CHECK(f.seen[3].rep == 1 && f.seen[3].run == 1);
	T_CHECK(f.more[4] == 1 && f.more[5] == 0);
	T_CHECK(f.seen[5].next_metered == -1);
	series_close(&s);

	/* cell 0 steady, cell 1 noisy: cell 0 stops at 3 results */
	fake_init(&f, &s, 0);
	start(&s, &f, 2, 5, 0, 95, 0);
	for (i = 0; i < MAXR; i++)
		f.rate[i] = 100;
	for (i = 1; i < 6; i += 2) /* cell 1's runs in rounds 0-2 */
		f.rate[i] = i % 4 == 1 ? 50 : 150;
	for (i = 6; i < MAXR; i++)
		f.rate[i] = i % 2 ? 40 : 160;
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	series_results(&s, 0, &n);
	T_CHECK(n == 3);
	series_results(&s, 1, &n);
	T_CHECK(n == 5);
	T_CHECK(f.n == 8);
	for (i = 6; i < 8; i++)
		T_CHECK(f.seen[i].cell == 1);
	series_close(&s);
}

/* A disturbed run is made again, as the same kind, while the cell has
 * re-runs left; its rate never counts while it is re-made. */
static void test_disturbed(void)
{
	struct series s;
	struct fake f;
	char err[128];
	const double *x;
	int n;

	fake_init(&f, &s, 100);
	f.outcome[1] = SERIES_DISTURBED; /* the first unmetered run */
	f.rate[1] = 10;
	start(&s, &f, 1, 2, 1, 0, 1);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 5);
	T_CHECK(f.seen[2].metered == 0 && f.seen[2].rerun == 1);
	T_CHECK(f.seen[2].rep == 0 && f.seen[3].rerun == 0);
	T_CHECK(f.more[1] == 1);
	/* the tool learns the re-runs left before, and at done that the
	 * run is made again, as the same kind */
	T_CHECK(f.seen[1].reruns_left == 1 && f.seen[2].reruns_left == 0);
	T_CHECK(f.done[1].again == 1 && f.done[1].next_metered == 0);
	T_CHECK(f.done[2].again == 0 && f.done[0].again == 0);
	x = series_results(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 100);
	T_CHECK(s.cell[0].disturbed == 1 && s.cell[0].reruns == 1);
	series_close(&s);
	/* a disturbed metered run: the next is metered again */
	fake_init(&f, &s, 100);
	f.outcome[0] = SERIES_DISTURBED;
	start(&s, &f, 1, 1, 1, 0, 1);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 3 && f.seen[1].metered == 1);
	T_CHECK(f.done[0].again && f.done[0].next_metered == 1);
	T_CHECK(f.done[1].next_metered == 0);
	series_close(&s);

	/* no re-runs left: the disturbed run counts (the tool marked it) */
	fake_init(&f, &s, 100);
	f.outcome[0] = f.outcome[1] = SERIES_DISTURBED;
	f.rate[1] = 10;
	start(&s, &f, 1, 2, 0, 0, 1);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 3);
	x = series_results(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 10);
	T_CHECK(s.cell[0].disturbed == 2);
	series_close(&s);
}

/* series_quiet: a run past the limits is disturbed, and what comes of
 * it is said; series_quiet_doc marks it in its sample. */
static void test_quiet(void)
{
	struct series_cfg c = { .ncells = 1, .repeat = 1, .reruns = 1,
				.steal_max = 2, .outside_max = 5 };
	struct series_run r = { .reruns_left = 1 };
	struct quiet_sample q = { .ok = 1, .steal_pct = 0.5,
				  .outside_pct = 4, .from = "procstat" };
	struct series s;
	char err[128], why[256];
	json_t *j = json_object(), *d;

	T_ASSERT(!series_open(&s, &c, err, sizeof(err)));
	T_CHECK(series_quiet(&s, &r, &q, why, sizeof(why)) == SERIES_OK);
	T_STREQ(why, "");
	series_quiet_doc(&s, &r, &q, SERIES_OK, j);
	T_CHECK(json_object_get(j, "quiet") && !json_object_get(j, "disturbed"));
	q.outside_pct = 30;
	T_CHECK(series_quiet(&s, &r, &q, why, sizeof(why)) == SERIES_DISTURBED);
	T_CHECK(strstr(why, "30.0% of the box > 5%") && strstr(why, "made again"));
	series_quiet_doc(&s, &r, &q, SERIES_DISTURBED, j);
	d = json_object_get(j, "disturbed");
	T_CHECK(json_is_true(json_object_get(d, "rerun")));
	T_NEAR(json_number_value(json_object_get(d, "outside_pct")), 30, 0);
	r.reruns_left = 0;
	q.outside_pct = 1;
	q.steal_pct = 3;
	T_CHECK(series_quiet(&s, &r, &q, why, sizeof(why)) == SERIES_DISTURBED);
	T_CHECK(strstr(why, "steal 3.0%") && strstr(why, "it stands"));
	series_quiet_doc(&s, &r, &q, SERIES_DISTURBED, j);
	T_CHECK(json_is_false(json_object_get(json_object_get(j, "disturbed"),
					      "rerun")));
	json_decref(j);
	series_close(&s);
}

/* cfg.probe_ms: a probe before each run, into the sample's document;
 * none without it; a bad length refused */
static void test_probe(void)
{
	struct series_cfg c = { .ncells = 1, .repeat = 1, .probe_ms = 300000 };
	struct series_run r = { 0 };
	struct quiet_sample q = { .ok = 1, .from = "procstat" };
	struct series s;
	struct fake f;
	char err[128] = "";
	json_t *j = json_object(), *p;

	T_CHECK(series_open(&s, &c, err, sizeof(err)) == -1);
	T_CHECK(strstr(err, "a probe of 300000 ms") != NULL);
	fake_init(&f, &s, 100);
	start(&s, &f, 1, 2, 0, 0, 0);
	series_quiet_doc(&s, &r, &q, SERIES_OK, j);
	T_CHECK(!json_object_get(j, "probe"));
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(s.probe.ncpu == 0);
	series_close(&s);

	fake_init(&f, &s, 100);
	c.probe_ms = 3;
	c.repeat = 2;
	c.stop = &f.stop;
	T_ASSERT(!series_open(&s, &c, err, sizeof(err)));
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 2);
	T_CHECK(s.probe.ncpu >= 1 && s.probe.ms >= 3 && s.probe.mops > 0);
	series_quiet_doc(&s, &r, &q, SERIES_OK, j);
	p = json_object_get(j, "probe");
	T_CHECK(json_number_value(json_object_get(p, "Mops")) > 0);
	T_CHECK(json_number_value(json_object_get(p, "ms")) >= 3);
	json_decref(j);
	series_close(&s);
}

static void test_stop_and_fail(void)
{
	struct series s;
	struct fake f;
	char err[128] = "";
	int n;

	fake_init(&f, &s, 100);
	f.stop_at = 1;
	start(&s, &f, 1, 5, 1, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 2 && s.stopped && !s.failed);
	T_CHECK(f.more[1] == 0);
	series_results(&s, 0, &n);
	T_CHECK(n == 1);
	series_close(&s);

	fake_init(&f, &s, 100);
	f.outcome[2] = SERIES_FAILED;
	start(&s, &f, 1, 5, 0, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == -1);
	T_STREQ(err, "run 2 failed");
	T_CHECK(f.n == 3 && s.stopped && s.failed);
	series_results(&s, 0, &n);
	T_CHECK(n == 2);
	series_close(&s);

	{
		struct series_cfg c = {.ncells = 0, .repeat = 1};

		T_CHECK(series_open(&s, &c, err, sizeof(err)) == -1);
		T_CHECK(strstr(err, "0 cells") != NULL);
	}
}

/* zcc: run 0 learns that the server soaks; the runs go in pairs from
 * then on, run 0 the metered run of pair 0. */
static void test_pair_now(void)
{
	struct series s;
	struct fake f;
	char err[128];
	const double *x;
	int n;

	fake_init(&f, &s, 100);
	f.rate[0] = f.rate[2] = 60;
	f.pair_at = 0;
	start(&s, &f, 1, 2, 0, 0, 0);
	T_CHECK(series_run(&s, &ops, &f, err, sizeof(err)) == 0);
	T_CHECK(f.n == 4 && series_planned(&s) == 4);
	T_CHECK(f.seen[0].paired == 0 && f.seen[1].paired == 1);
	T_CHECK(f.seen[1].metered == 0 && f.seen[2].metered == 1);
	x = series_results(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 100 && x[1] == 100);
	x = series_metered(&s, 0, &n);
	T_CHECK(n == 2 && x[0] == 60);
	series_close(&s);
}

int main(void)
{
	test_unpaired();
	test_paired();
	test_confidence();
	test_sweep();
	test_disturbed();
	test_quiet();
	test_probe();
	test_stop_and_fail();
	test_pair_now();
	printf("test_series: %d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}
