/* test_cpuwin.c: one run's CPU windows: this box and a server process,
 * the side each lands on, and the errors that name what failed. Pairing
 * with soak is tested with live soakers in test_soak and soak-pairs.sh. */
#include "config.h"
#include "cpuwin.h"
#include "result.h"
#include "t.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

static int has(json_t *sample, const char *name)
{
	return json_object_get(json_object_get(sample, "metrics"), name) !=
	       NULL;
}

static void spin(void)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < 20000000ul; i++)
		x += i;
	(void)x; /* clang: a compound assignment alone is "set but not used" */
}

int main(void)
{
	struct cpuwin_cfg c = { .local = 1, .local_list = "procstat",
				.server_pid = getpid() };
	struct res_doc *d = res_new("t", 0, NULL);
	struct cpuwin_sample s;
	struct cpuwin w;
	char err[512], names[64];
	json_t *j;

	T_ASSERT(cpuwin_open(&w, &c, err, sizeof(err)) == 0);
	T_CHECK(!cpuwin_paired(&w));
	T_STREQ(cpuwin_local_names(&w, names, sizeof(names)), "procstat");
	T_CHECK(cpuwin_metered(&w, 0, err, sizeof(err)) == 0); /* no-op */
	T_CHECK(cpuwin_start(&w, err, sizeof(err)) == 0);
	spin();
	t_spin(CLOCK_PROCESS_CPUTIME_ID, 0.2); /* ticks for the quiet check */
	T_CHECK(cpuwin_stop(&w, &s, err, sizeof(err)) == 0);
	T_CHECK(s.nlocal == 1 && s.local[0].ok);
	T_CHECK(s.have_server && s.server.ok);
	T_STREQ(s.server.meter, "pid");
	T_CHECK(!s.metered && !s.paired);
	j = json_object();
	cpuwin_add(d, j, &s, 4096);
	T_CHECK(has(j, "cpu_local_procstat_pct") && has(j, "cpu_local_pct"));
	T_CHECK(has(j, "cpu_server_pid_pct") && has(j, "sd_server_us_per_kb"));
	T_CHECK(json_is_array(json_object_get(json_object_get(j, "cpu"),
					      "server")));
	json_decref(j);
	/* every window says whether the box was quiet; the server process
	 * (this one, here) is the run's, counted once in self and once as
	 * the server */
	T_CHECK(s.quiet.ok && s.quiet.self_pct > 0);
	T_CHECK(s.quiet.run_pct > 0);
	j = json_object();
	cpuwin_add_quiet(j, &s);
	T_CHECK(json_is_number(json_object_get(json_object_get(j, "quiet"),
					       "steal_pct")));
	json_decref(j);
	cpuwin_close(&w);
	/* without a meter too */
	{
		struct cpuwin_cfg none = { 0 };

		T_ASSERT(cpuwin_open(&w, &none, err, sizeof(err)) == 0);
		T_CHECK(cpuwin_start(&w, err, sizeof(err)) == 0);
		t_spin(CLOCK_PROCESS_CPUTIME_ID, 0.2);
		T_CHECK(cpuwin_stop(&w, &s, err, sizeof(err)) == 0);
		T_CHECK(s.nlocal == 0 && s.quiet.ok && s.quiet.self_pct > 0);
		cpuwin_close(&w);
	}

	/* the tool's own peer (a chatbench server): its pairing makes the
	 * runs go in pairs, its figures land on its side */
	{
		struct cpuwin_cfg pc = {.local = 1, .local_list = "procstat",
					.local_side = "box",
					.peer_side = "server"};
		struct cpu_sample peer = {.ok = 1, .busy_pct = 25, .ncpu = 2,
					  .elapsed_s = 1};

		snprintf(peer.meter, sizeof(peer.meter), "procstat");
		T_ASSERT(cpuwin_open(&w, &pc, err, sizeof(err)) == 0);
		T_CHECK(!cpuwin_paired(&w) && !cpuwin_paired_by(&w));
		cpuwin_peer_pairs(&w, 1);
		T_CHECK(cpuwin_paired(&w) && w.peer_paired && !w.local_paired);
		T_STREQ(cpuwin_paired_by(&w), "soak");
		T_CHECK(cpuwin_metered(&w, 0, err, sizeof(err)) == 0);
		T_CHECK(cpuwin_start(&w, err, sizeof(err)) == 0);
		/* a window of 10 of /proc/stat's ticks at least (one without
		 * a tick is below procstat's resolution, and not a figure) */
		usleep(50000);
		T_CHECK(cpuwin_stop(&w, &s, err, sizeof(err)) == 0);
		T_CHECK(s.paired && !s.metered && s.npeer == 0);
		cpuwin_peer_figures(&s, &peer, 1);
		T_CHECK(s.npeer == 1);
		j = json_object();
		cpuwin_add_side(d, j, &s, CPUWIN_LOCAL, 0);
		T_CHECK(has(j, "cpu_box_procstat_pct") && !has(j, "cpu_server_pct"));
		cpuwin_add_side(d, j, &s, CPUWIN_PEER, 0);
		T_CHECK(has(j, "cpu_server_procstat_pct") &&
			has(j, "cpu_server_pct"));
		json_decref(j);
		cpuwin_close(&w);
	}

	/* the pid figures as the remote side's first (nfsbench) */
	c.local = 0;
	c.server_side = "remote";
	T_ASSERT(cpuwin_open(&w, &c, err, sizeof(err)) == 0);
	T_STREQ(cpuwin_local_names(&w, names, sizeof(names)), "");
	T_CHECK(cpuwin_start(&w, err, sizeof(err)) == 0);
	T_CHECK(cpuwin_stop(&w, &s, err, sizeof(err)) == 0);
	T_CHECK(s.nremote == 1 && !s.have_server && s.nlocal == 0);
	j = json_object();
	cpuwin_add(d, j, &s, 0);
	T_CHECK(has(j, "cpu_remote_pid_pct") && has(j, "cpu_remote_pct"));
	json_decref(j);
	cpuwin_close(&w);

	/* errors name what failed */
	c.server_pid = 0x3ffffff0;
	T_CHECK(cpuwin_open(&w, &c, err, sizeof(err)) == -ESRCH);
	T_CHECK(strstr(err, "--server-pid") != NULL);
	c.server_pid = 0;
	c.remote = "127.0.0.1:1";
	c.timeout_ms = 2000;
	T_CHECK(cpuwin_open(&w, &c, err, sizeof(err)) < 0);
	T_CHECK(strstr(err, "cyclesoak --serve") != NULL);
	c.remote = NULL;
	c.local = 1;
	c.local_list = "bogus";
	T_CHECK(cpuwin_open(&w, &c, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "bogus") != NULL);
	res_free(d);
	return t_done();
}
