/* test_ival.c: lib/cpu/ival's interval reports from a fake counter on a
 * fake clock: how many intervals, their counts and rates, the last
 * partial one, the lines and the --json-stream objects; a sum of
 * counters (and ctr_sum); the words of each unit; and the real thread. */
#include "config.h"
#include "ctr.h"
#include "ival.h"
#include "t.h"

#include <errno.h>
#include <unistd.h>

static double fake_t;
static double fake_now(void)
{
	return fake_t;
}

static double num(json_t *a, size_t i, const char *key)
{
	return json_number_value(json_object_get(json_array_get(a, i), key));
}

/* bytes: boundaries at 0.1 and 0.2 s, stop at 0.25 s */
static void test_bytes(void)
{
	struct ival_opts o = {.interval = 0.1,
			      .json_stream = 1,
			      .label = "tool-t",
			      .unit = "bytes",
			      .now = fake_now,
			      .manual = 1};
	char *text = NULL, *js = NULL, err[256];
	size_t tn = 0, jn = 0;
	uint64_t ctr = 500; /* counted before the data: not an interval's */
	struct ival *iv;
	json_t *l;

	o.out = open_memstream(&text, &tn);
	o.stream = open_memstream(&js, &jn);
	T_ASSERT(o.out && o.stream);
	T_ASSERT(ival_open(&iv, &o, err, sizeof(err)) == 0 && iv);
	T_ASSERT(ival_start(iv, 3, NULL, err, sizeof(err)) == 0);
	fake_t = 10;
	T_CHECK(ival_tick(iv) == 0); /* nothing watched yet */
	ival_watch(iv, &ctr);
	fake_t = 10.05;
	ctr_add(&ctr, 1000);
	T_CHECK(ival_tick(iv) == 0); /* before the first boundary */
	fake_t = 10.1;
	ctr_add(&ctr, 1000000 - 1000);
	T_CHECK(ival_tick(iv) == 1);
	fake_t = 10.15;
	T_CHECK(ival_tick(iv) == 0);
	fake_t = 10.2;
	ctr_add(&ctr, 2000000);
	T_CHECK(ival_tick(iv) == 1);
	fake_t = 10.25;
	ctr_add(&ctr, 500000);
	ival_watch(iv, NULL);
	l = ival_stop(iv, ctr);
	T_ASSERT(l && json_array_size(l) == 3);
	T_NEAR(num(l, 0, "bytes"), 1e6, 0);
	T_NEAR(num(l, 1, "bytes"), 2e6, 0);
	T_NEAR(num(l, 2, "bytes"), 5e5, 0); /* the partial one */
	T_NEAR(num(l, 0, "MBps"), 10, 1e-6);
	T_NEAR(num(l, 1, "MBps"), 20, 1e-6);
	T_NEAR(num(l, 2, "MBps"), 10, 1e-6); /* 0.5 MB in 0.05 s */
	T_NEAR(num(l, 2, "start"), 0.2, 1e-9);
	T_NEAR(num(l, 2, "end"), 0.25, 1e-9);
	T_NEAR(num(l, 0, "sample"), 3, 0);
	T_CHECK(!json_object_get(json_array_get(l, 0), "cpu_box_pct"));
	fflush(o.out);
	fflush(o.stream);
	T_CHECK(strstr(text, "tool-t: [  0.00-  0.10 s]      1000000 bytes"
			     "       10.0 MB/s\n") == text);
	T_CHECK(strstr(text, "tool-t: [  0.20-  0.25 s]       500000 bytes"
			     "       10.0 MB/s\n") != NULL);
	T_CHECK(strncmp(js, "{\"event\": \"interval\", \"data\": {", 31) == 0 ||
		strncmp(js, "{\"event\":\"interval\",\"data\":{", 27) == 0);
	T_CHECK(strchr(js, '\n') && strstr(js, "\"MBps\""));
	json_decref(l);
	ival_close(iv);
	fclose(o.out);
	fclose(o.stream);
	free(text);
	free(js);
}

static int extra_calls;
/* What a runner adds to each interval: a key, a suffix and a line. */
static void extra(void *arg, const char *label, double secs, json_t *j,
		  char *suffix, size_t slen, char *lines, size_t llen)
{
	extra_calls++;
	json_object_set_new(j, "mine", json_real(secs));
	snprintf(suffix, slen, "  +%s", (const char *)arg);
	snprintf(lines, llen, "%s:   more\n", label);
}

/* ival_extra: every interval from then, the last one too; then gone */
static void test_extra(void)
{
	struct ival_opts o = {.interval = 1, .label = "e", .unit = "bytes",
			      .now = fake_now, .manual = 1};
	char *text = NULL, err[256];
	size_t tn = 0;
	uint64_t ctr = 0;
	struct ival *iv;
	json_t *l;

	o.out = open_memstream(&text, &tn);
	T_ASSERT(o.out && !ival_open(&iv, &o, err, sizeof(err)));
	T_ASSERT(!ival_start(iv, 0, NULL, err, sizeof(err)));
	fake_t = 0;
	ival_watch(iv, &ctr);
	ival_extra(iv, extra, "x");
	fake_t = 1;
	ctr_add(&ctr, 1000000);
	T_CHECK(ival_tick(iv) == 1);
	fake_t = 1.5;
	ival_watch(iv, NULL);
	l = ival_stop(iv, ctr);
	T_CHECK(extra_calls == 2 && json_array_size(l) == 2);
	T_NEAR(num(l, 0, "mine"), 1, 1e-9);
	T_NEAR(num(l, 1, "mine"), 0.5, 1e-9);
	json_decref(l);
	fflush(o.out);
	T_CHECK(strstr(text, "e: [  0.00-  1.00 s]      1000000 bytes"
			     "        1.0 MB/s  +x\ne:   more\n") == text);
	/* the next sample: not any more */
	T_ASSERT(!ival_start(iv, 1, NULL, err, sizeof(err)));
	ival_watch(iv, &ctr);
	fake_t = 2.5;
	l = ival_stop(iv, ctr + 5);
	T_CHECK(extra_calls == 2);
	json_decref(l);
	ival_close(iv);
	fclose(o.out);
	free(text);
}

static uint64_t two[2];
static uint64_t sum_two(void *arg)
{
	(void)arg;
	return ctr_read(&two[0]) + ctr_read(&two[1]);
}

/* messages, counted by two counters: their sum; a label per sample */
static void test_sum_and_words(void)
{
	struct ival_opts o = {.interval = 1,
			      .label = "x",
			      .unit = "messages",
			      .now = fake_now,
			      .manual = 1};
	char *text = NULL, err[256];
	size_t tn = 0;
	struct ival *iv;
	json_t *l;

	o.out = open_memstream(&text, &tn);
	T_ASSERT(o.out);
	T_ASSERT(ival_open(&iv, &o, err, sizeof(err)) == 0);
	T_ASSERT(ival_start(iv, 0, "chat run 1", err, sizeof(err)) == 0);
	fake_t = 0;
	ival_watch_fn(iv, sum_two, NULL);
	fake_t = 1;
	ctr_add(&two[0], 30);
	ctr_add(&two[1], 70);
	T_CHECK(ival_tick(iv) == 1);
	fake_t = 1.5; /* nothing more: the last interval is empty */
	ival_watch_fn(iv, NULL, NULL);
	l = ival_stop(iv, 100);
	T_ASSERT(l && json_array_size(l) == 2);
	T_NEAR(num(l, 0, "messages"), 100, 0);
	T_NEAR(num(l, 0, "msgs_per_s"), 100, 1e-9);
	T_NEAR(num(l, 1, "messages"), 0, 0);
	fflush(o.out);
	T_CHECK(strstr(text, "chat run 1: [  0.00-  1.00 s]          100 msgs"
			     "      100.0 msg/s\n") == text);
	json_decref(l);
	/* a second sample starts afresh */
	T_ASSERT(ival_start(iv, 1, NULL, err, sizeof(err)) == 0);
	l = ival_stop(iv, 0); /* never watched: no interval */
	T_CHECK(l && json_array_size(l) == 0);
	json_decref(l);
	/* a third counts transactions: the unit a receiver learned */
	T_CHECK(ival_unit(iv, "no-such-unit") == -EINVAL);
	T_CHECK(ival_unit(NULL, "bytes") == 0);
	T_CHECK(ival_unit(iv, "transactions") == 0);
	T_ASSERT(ival_start(iv, 2, NULL, err, sizeof(err)) == 0);
	fake_t = 2;
	ival_watch_fn(iv, sum_two, NULL);
	fake_t = 3;
	ctr_add(&two[0], 5);
	T_CHECK(ival_tick(iv) == 1);
	ival_watch_fn(iv, NULL, NULL);
	l = ival_stop(iv, 105);
	T_NEAR(num(l, 0, "transactions"), 5, 0);
	T_NEAR(num(l, 0, "trans_per_s"), 5, 1e-9);
	json_decref(l);
	ival_close(iv);
	fclose(o.out);
	free(text);
}

/* no -i: no reporter, and every call takes it; a unit it doesn't know */
static void test_off_and_bad(void)
{
	struct ival_opts o = {.interval = 0, .unit = "bytes", .out = stderr};
	struct ival *iv = (struct ival *)&o;
	char err[256] = "";
	uint64_t c = 0;

	T_CHECK(ival_open(&iv, &o, err, sizeof(err)) == 0 && !iv);
	T_CHECK(ival_start(iv, 0, NULL, err, sizeof(err)) == 0);
	ival_watch(iv, &c);
	T_CHECK(ival_tick(iv) == 0);
	T_CHECK(ival_stop(iv, 1) == NULL);
	ival_close(iv);
	o.interval = 1;
	o.unit = "furlongs";
	T_CHECK(ival_open(&iv, &o, err, sizeof(err)) == -EINVAL && !iv);
	T_CHECK(strstr(err, "furlongs") != NULL);
}

/* the thread on the real clock: intervals of 0.05 s over >= 0.3 s (at
 * least 2, with slack for a busy box), adding up to the total */
static void test_thread(void)
{
	struct ival_opts o = {.interval = 0.05, .label = "t", .unit = "ops"};
	char *text = NULL, err[256];
	size_t tn = 0, i;
	uint64_t c = 0, sum = 0;
	struct ival *iv;
	json_t *l;
	int k;

	o.out = open_memstream(&text, &tn);
	T_ASSERT(o.out);
	T_ASSERT(ival_open(&iv, &o, err, sizeof(err)) == 0);
	T_ASSERT(ival_start(iv, 0, NULL, err, sizeof(err)) == 0);
	ival_watch(iv, &c);
	for (k = 0; k < 30; k++) {
		ctr_add(&c, 7);
		usleep(10000);
	}
	ival_watch(iv, NULL);
	l = ival_stop(iv, c);
	T_ASSERT(l);
	T_CHECK(json_array_size(l) >= 2);
	for (i = 0; i < json_array_size(l); i++)
		sum += (uint64_t)num(l, i, "ops");
	T_CHECK(sum == 210);
	json_decref(l);
	ival_close(iv);
	fclose(o.out);
	free(text);
}

/* ctr_sum: one field of each element of an array */
static void test_ctr_sum(void)
{
	struct {
		uint64_t pad, c;
	} a[3] = {{9, 1}, {9, 20}, {9, 300}};

	T_CHECK(ctr_sum(&a[0].c, 3, sizeof(a[0])) == 321);
	T_CHECK(ctr_sum(&a[1].c, 0, sizeof(a[0])) == 0);
}

int main(void)
{
	test_ctr_sum();
	test_bytes();
	test_sum_and_words();
	test_extra();
	test_off_and_bad();
	test_thread();
	return t_done();
}
