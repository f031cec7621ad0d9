/*
 * test_profile.c: the profile meter's parts: the family rules (a case
 * per family), a canned /proc/kallsyms and canned samples through the
 * counts to shares and top symbols, the JSON of a profile and a peer's
 * malformed one, the metrics it adds, a profile that cannot run (one
 * line, the set goes on), and, where this box allows it, a live window.
 */
#include "config.h"
#include "cpujson.h"
#include "meter.h"
#include "profile.h"
#include "result.h"
#include "stats.h"
#include "t.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void families(void)
{
	static const struct {
		const char *sym;
		int fam;
	} c[] = {
		{ "_copy_to_iter", PROF_COPY },
		{ "_copy_from_iter", PROF_COPY },
		{ "copy_folio_from_iter_atomic", PROF_COPY },
		{ "copy_page_to_iter", PROF_COPY },
		{ "copy_user_enhanced_fast_string", PROF_COPY },
		{ "rep_movs_alternative", PROF_COPY },
		{ "memcpy_orig", PROF_COPY },
		{ "__memcpy", PROF_COPY },
		{ "copy_page", PROF_COPY },
		{ "csum_partial", PROF_CSUM },
		{ "csum_partial_copy_generic", PROF_CSUM },
		{ "filemap_read", PROF_PAGECACHE },
		{ "filemap_get_read_batch", PROF_PAGECACHE },
		{ "find_get_pages_contig", PROF_PAGECACHE },
		{ "folio_mark_accessed", PROF_PAGECACHE },
		{ "page_cache_ra_unbounded", PROF_PAGECACHE },
		{ "tcp_sendmsg_locked", PROF_STACK },
		{ "tcp_ack.isra.0", PROF_STACK },
		{ "ip_finish_output2", PROF_STACK },
		{ "__dev_queue_xmit", PROF_STACK },
		{ "net_rx_action", PROF_SOFTIRQ },
		{ "loopback_xmit", PROF_DRIVER },
		{ "__napi_poll", PROF_SOFTIRQ },
		{ "__do_softirq", PROF_SOFTIRQ },
		{ "napi_gro_receive", PROF_SOFTIRQ },
		{ "veth_xmit", PROF_DRIVER },
		{ "virtnet_poll", PROF_DRIVER },
		{ "mlx5e_xmit", PROF_DRIVER },
		{ "skb_release_data", PROF_STACK },
		{ "__schedule", PROF_SCHED },
		{ "finish_task_switch.isra.0", PROF_SCHED },
		{ "try_to_wake_up", PROF_SCHED },
		{ "entry_SYSCALL_64", PROF_SYSCALL },
		{ "do_syscall_64", PROF_SYSCALL },
		{ "syscall_exit_to_user_mode", PROF_SYSCALL },
		{ "irqentry_exit_to_user_mode", PROF_SYSCALL },
		{ "cpuidle_enter_state", PROF_IDLE },
		{ "default_idle", PROF_IDLE },
		{ "poll_idle", PROF_IDLE },
		{ "pv_native_safe_halt", PROF_IDLE },
		{ "do_idle", PROF_IDLE },
		{ "[user]", PROF_USER },
		{ "ext4_file_read_iter", PROF_OTHER },
		{ "_raw_spin_lock", PROF_OTHER },
	};
	size_t i;
	int f;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		f = prof_family_of(c[i].sym);
		if (f != c[i].fam)
			fprintf(stderr, "%s: %s, expected %s\n", c[i].sym,
				prof_family_name(f),
				prof_family_name(c[i].fam));
		T_CHECK(f == c[i].fam);
	}
	for (f = 0; f < PROF_NFAM; f++)
		T_CHECK(prof_family_find(prof_family_name(f)) == f);
	T_CHECK(prof_family_find("nope") == -1);
	T_STREQ(prof_family_name(PROF_COPY), "copy");
}

/* Out of order, with data symbols and a module's, as the kernel has it. */
static const char kallsyms[] =
	"ffffffff81200000 T tcp_sendmsg\n"
	"ffffffff81100000 T _copy_to_iter\n"
	"ffffffff81180000 D some_data\n"
	"ffffffff81300000 t pv_native_safe_halt\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81110000 T csum_partial\n"
	"ffffffff81400000 b some_bss\n"
	"ffffffffc0001000 t loop_queue_rq	[loop]\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	fputs(text, f);
	fclose(f);
}

static void syms(const char *dir)
{
	char path[4200], err[256];
	struct prof_syms t;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	write_file(path, kallsyms);
	T_ASSERT(prof_syms_load(&t, path, err, sizeof(err)) == 0);
	T_CHECK(t.n == 6); /* D and b are not text */
	T_CHECK(prof_syms_find(&t, 0xffffffff80000000ull) == -1);
	T_STREQ(prof_syms_name(&t, prof_syms_find(&t, 0xffffffff81000000ull)),
		"_stext");
	T_STREQ(prof_syms_name(&t, prof_syms_find(&t, 0xffffffff81100010ull)),
		"_copy_to_iter");
	T_STREQ(prof_syms_name(&t, prof_syms_find(&t, 0xffffffff81200fffull)),
		"tcp_sendmsg");
	T_STREQ(prof_syms_name(&t, prof_syms_find(&t, 0xffffffffc0001004ull)),
		"loop_queue_rq");
	/* far past the last symbol: nobody's */
	T_CHECK(prof_syms_find(&t, 0xffffffffc8000000ull) == -1);
	prof_syms_free(&t);
	/* kptr_restrict: every address 0 */
	write_file(path, "0000000000000000 T _stext\n"
			 "0000000000000000 T tcp_sendmsg\n");
	T_CHECK(prof_syms_load(&t, path, err, sizeof(err)) == -EPERM);
	T_CHECK(strstr(err, "kptr_restrict") != NULL);
	snprintf(path, sizeof(path), "%s/none", dir);
	T_CHECK(prof_syms_load(&t, path, err, sizeof(err)) == -ENOENT);
}

/* Canned samples: 40 copy, 10 csum, 20 stack, 20 idle, 6 user, 4 not
 * in the table: shares and the top symbols, largest first. */
static void agg(const char *dir, struct prof_summary *s)
{
	char path[4200], err[256];
	struct prof_syms t;
	struct prof_agg a;
	int i;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	write_file(path, kallsyms);
	T_ASSERT(prof_syms_load(&t, path, err, sizeof(err)) == 0);
	T_ASSERT(prof_agg_init(&a, &t) == 0);
	prof_agg_add(&a, 0xffffffff81200000ull, 0, 1); /* reset drops it */
	prof_agg_reset(&a);
	/* the measuring process: 30 of the copies, 5 stack, the user 6 */
	for (i = 0; i < 40; i++)
		prof_agg_add(&a, 0xffffffff81100000ull + (uint64_t)i, 0,
			     i < 30);
	for (i = 0; i < 10; i++)
		prof_agg_add(&a, 0xffffffff81110008ull, 0, 0);
	for (i = 0; i < 20; i++)
		prof_agg_add(&a, 0xffffffff81200100ull, 0, i < 5);
	for (i = 0; i < 20; i++)
		prof_agg_add(&a, 0xffffffff81300001ull, 0, 0);
	for (i = 0; i < 6; i++)
		prof_agg_add(&a, 0x401000, 1, 1);
	for (i = 0; i < 4; i++)
		prof_agg_add(&a, 0x1000, 0, 0);
	memset(s, 0, sizeof(*s));
	prof_agg_summary(&a, s);
	T_CHECK(s->samples == 100);
	T_NEAR(s->fam_pct[PROF_COPY], 40, 1e-9);
	T_NEAR(s->fam_pct[PROF_CSUM], 10, 1e-9);
	T_NEAR(s->fam_pct[PROF_STACK], 20, 1e-9);
	T_NEAR(s->fam_pct[PROF_IDLE], 20, 1e-9);
	T_NEAR(s->fam_pct[PROF_USER], 6, 1e-9);
	T_NEAR(s->fam_pct[PROF_OTHER], 4, 1e-9);
	T_CHECK(s->self_samples == 41);
	T_NEAR(s->self_pct[PROF_COPY], 30, 1e-9);
	T_NEAR(s->self_pct[PROF_STACK], 5, 1e-9);
	T_NEAR(s->self_pct[PROF_USER], 6, 1e-9);
	T_NEAR(s->self_pct[PROF_CSUM], 0, 1e-9);
	T_CHECK(s->ntop == 6);
	T_STREQ(s->top[0].name, "_copy_to_iter");
	T_CHECK(s->top[0].family == PROF_COPY);
	T_STREQ(s->top[1].name, "tcp_sendmsg"); /* ties: address order */
	T_STREQ(s->top[2].name, "pv_native_safe_halt");
	T_STREQ(s->top[3].name, "csum_partial");
	T_STREQ(s->top[4].name, "[user]");
	T_STREQ(s->top[5].name, "[unknown]");
	snprintf(s->event, sizeof(s->event), "cpu-clock");
	s->freq = 999;
	prof_agg_free(&a);
	prof_syms_free(&t);
}

static int has(json_t *sample, const char *name)
{
	return json_object_get(json_object_get(sample, "metrics"), name) !=
	       NULL;
}

/* The sample's JSON both ways, a hostile one refused, the metrics. */
static void outputs(const struct prof_summary *ps)
{
	struct cpu_sample s[2], b;
	struct res_doc *d = res_new("t", 0, NULL);
	json_t *j, *p;
	char err[256];

	memset(s, 0, sizeof(s));
	snprintf(s[0].meter, sizeof(s[0].meter), "profile");
	snprintf(s[1].meter, sizeof(s[1].meter), "procstat");
	s[0].ok = s[1].ok = 1;
	s[0].ncpu = s[1].ncpu = 2;
	s[0].elapsed_s = s[1].elapsed_s = 1;
	s[0].busy_pct = 80;
	s[1].busy_pct = 30;
	s[0].prof = *ps;
	j = cpu_sample_to_json(&s[0]);
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == 0);
	T_CHECK(b.prof.samples == 100 && b.prof.ntop == 6 &&
		b.prof.freq == 999);
	T_NEAR(b.prof.fam_pct[PROF_COPY], 40, 1e-9);
	T_STREQ(b.prof.top[3].name, "csum_partial");
	T_STREQ(b.prof.event, "cpu-clock");
	T_CHECK(b.prof.self_samples == 41);
	T_NEAR(b.prof.self_pct[PROF_COPY], 30, 1e-9);
	/* a peer's share out of range, a family we do not know */
	p = json_object_get(json_object_get(j, "profile"), "families");
	json_object_set_new(p, "copy", json_real(1e9));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_object_set_new(p, "copy", json_real(40));
	p = json_array_get(json_object_get(json_object_get(j, "profile"),
					   "top"), 0);
	json_object_set_new(p, "family", json_string("bogus"));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_decref(j);
	/* metrics: the families, plain even in the profiled (metered)
	 * run; procstat set aside there; the profile never primary */
	j = json_object();
	meter_add_metrics(d, j, "local", s, 2, 1024, 1);
	T_CHECK(has(j, "prof_local_copy_pct") && has(j, "prof_local_idle_pct"));
	T_CHECK(has(j, "prof_local_self_copy_pct"));
	T_CHECK(!has(j, "prof_local_self_idle_pct"));
	T_CHECK(!has(j, "metered_prof_local_copy_pct"));
	T_CHECK(!has(j, "cpu_local_profile_pct"));
	T_CHECK(has(j, "metered_cpu_local_pct"));
	T_NEAR(json_number_value(json_object_get(json_object_get(j, "metrics"),
						 "metered_cpu_local_pct")),
	       30, 1e-9);
	json_decref(j);
	res_free(d);
}

/* The perturbation line names the profiler, not soakers. */
static void notes(void)
{
	struct stats_ratio r = { .n = 3, .ratio = 0.8, .lo = 0.7, .hi = 0.9 };
	char b[256];

	meter_perturbation_by(b, sizeof(b), "profile", &r);
	T_STREQ(b, "profile run reached 0.80x (0.70-0.90, 3 pairs) of the unmetered rate; its profile describes that slower run");
	r.ratio = 1.01;
	meter_perturbation_by(b, sizeof(b), "profile", &r);
	T_CHECK(strstr(b, "within 5%: the profiler did not change") != NULL);
	meter_perturbation_by(b, sizeof(b), "soak", &r);
	T_CHECK(!strncmp(b, "soak run reached 1.01x", 22) &&
		strstr(b, "the soakers did not change") != NULL);
}

/* A box where the profile cannot run: a line, and the set goes on. */
static void unavailable(const char *dir)
{
	char path[4200], stat[4200], err[256];
	struct cpu_sample s[METER_MAX];
	struct meterset set;
	int i, n, found = 0;

	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", dir);
	write_file(path, "0000000000000000 T _stext\n");
	snprintf(stat, sizeof(stat), "%s/proc/stat", dir);
	write_file(stat, "cpu  1 0 1 10 0 0 0 0 0 0\ncpu0 1 0 1 10 0 0 0 0 0 0\n");
	setenv("ZCB_PROC_ROOT", dir, 1);
	T_ASSERT(meterset_open(&set, "profile", NULL, err, sizeof(err)) == 0);
	T_CHECK(set.n == 2 && !set.m[0] && set.m[1]);
	T_CHECK(strstr(set.why[0], "kptr_restrict") != NULL);
	meterset_start(&set);
	n = meterset_stop(&set, s);
	for (i = 0; i < n; i++)
		if (!strcmp(s[i].meter, "profile"))
			found = !s[i].ok && strstr(s[i].why, "kptr_restrict");
	T_CHECK(found);
	meterset_close(&set);
	unsetenv("ZCB_PROC_ROOT");
}

static void spin(double seconds)
{
	t_spin(CLOCK_MONOTONIC, seconds);
}

/* The real thing, where permitted: a spin shows up as user time. */
static int live(void)
{
	struct cpu_sample s;
	struct meter *m;
	char err[256];

	m = meter_open("profile", NULL, err, sizeof(err));
	if (!m) {
		printf("live profile skipped: %s\n", err);
		return 0;
	}
	T_ASSERT(meter_start(m) == 0);
	spin(0.3);
	T_CHECK(meter_stop(m, &s) == 0);
	T_CHECK(s.ok && s.prof.samples > 0);
	T_CHECK(s.prof.fam_pct[PROF_USER] > 0);
	T_CHECK(s.prof.self_samples > 0 && s.prof.self_pct[PROF_USER] > 0);
	printf("live: %s, %llu samples, user %.1f%% idle %.1f%%\n",
	       s.prof.event, (unsigned long long)s.prof.samples,
	       s.prof.fam_pct[PROF_USER], s.prof.fam_pct[PROF_IDLE]);
	/* paused: no samples, the sample says so */
	T_CHECK(m->ops->pause(m, 1, err, sizeof(err)) == 0);
	meter_start(m);
	meter_stop(m, &s);
	T_CHECK(!s.ok && s.paused);
	meter_close(m);
	return 1;
}

int main(void)
{
	char dir[] = "/tmp/zcb-test-profile-XXXXXX";
	struct prof_summary s;
	char path[4200];

	T_ASSERT(mkdtemp(dir));
	families();
	syms(dir);
	agg(dir, &s);
	outputs(&s);
	notes();
	unavailable(dir);
	live();
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/stat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
	printf("%d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}
