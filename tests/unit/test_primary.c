/* test_primary.c: lib/doc/primary: each tool's primary metrics and the
 * aliases of a figure (a meter's name inside the primary meter's). */
#include "config.h"
#include "primary.h"
#include "t.h"

int main(void)
{
	char b[256];

	/* ttcp-sf: the rate, the primary meter's service demand (never a
	 * named meter's), p99, the CPU-normalised rate, the copy share */
	T_CHECK(res_metric_primary("ttcp-sf", "throughput_MBps"));
	T_CHECK(res_metric_primary("ttcp-sf", "trans_per_s"));
	T_CHECK(res_metric_primary("ttcp-sf", "sd_local_us_per_kb"));
	T_CHECK(res_metric_primary("ttcp-sf", "sd_remote_us_per_tx"));
	T_CHECK(!res_metric_primary("ttcp-sf", "sd_local_procstat_us_per_kb"));
	T_CHECK(res_metric_primary("ttcp-sf", "lat_p99_us"));
	T_CHECK(!res_metric_primary("ttcp-sf", "lat_p999_us"));
	T_CHECK(res_metric_primary("ttcp-sf", "MB_per_cpu_s_local"));
	T_CHECK(res_metric_primary("ttcp-sf", "MB_per_cpu_s_remote"));
	T_CHECK(res_metric_primary("ttcp-sf", "trans_per_cpu_s_local"));
	T_CHECK(!res_metric_primary("ttcp-sf", "metered_MB_per_cpu_s_local"));
	T_CHECK(res_metric_primary("ttcp-sf", "prof_local_copy_pct"));
	T_CHECK(!res_metric_primary("ttcp-sf", "prof_local_self_copy_pct"));
	T_CHECK(!res_metric_primary("ttcp-sf", "cpu_local_pct"));
	T_CHECK(!res_metric_primary("ttcp-sf", "metered_throughput_MBps"));
	T_CHECK(!res_metric_primary("ttcp-sf", "elapsed_s"));
	/* chatbench: the rate and messages per CPU-second */
	T_CHECK(res_metric_primary("chatbench", "msgs_per_s"));
	T_CHECK(res_metric_primary("chatbench", "msgs_per_cpu_s_box"));
	T_CHECK(!res_metric_primary("chatbench", "cpu_box_pct"));
	T_CHECK(!res_metric_primary("chatbench", "real_s"));
	/* nfsbench: ops_per_s is throughput over a fixed size */
	T_CHECK(res_metric_primary("nfsbench", "throughput_MBps"));
	T_CHECK(!res_metric_primary("nfsbench", "ops_per_s"));
	T_CHECK(!res_metric_primary("cyclesoak", "cpu_box_pct"));
	/* a tool without a list: every metric */
	T_CHECK(res_metric_primary("newtool", "anything"));
	T_CHECK(res_primary_words("newtool", b, sizeof(b)) == NULL);
	T_CHECK(!strcmp(res_primary_words("cyclesoak", b, sizeof(b)),
			"none (context only)"));
	T_CHECK(!strncmp(res_primary_words("chatbench", b, sizeof(b)),
			 "msgs_per_s, *_per_cpu_s", 23));

	/* aliases: a meter's name cut out; none without one */
	T_CHECK(!strcmp(
		res_metric_alias_of("cpu_box_procstat_pct", b, sizeof(b)),
		"cpu_box_pct"));
	T_CHECK(!strcmp(
		res_metric_alias_of("sd_local_sched_us_per_kb", b, sizeof(b)),
		"sd_local_us_per_kb"));
	T_CHECK(!strcmp(res_metric_alias_of("metered_cpu_local_procstat_pct", b,
					    sizeof(b)),
			"metered_cpu_local_pct"));
	T_CHECK(res_metric_alias_of("cpu_box_pct", b, sizeof(b)) == NULL);
	T_CHECK(res_metric_alias_of("cpu_box_softirq_pct", b, sizeof(b)) ==
		NULL);
	T_CHECK(res_metric_alias_of("cpu_server_pid_pct", b, sizeof(b)) ==
		NULL);
	T_CHECK(res_metric_alias_of("throughput_MBps", b, sizeof(b)) == NULL);
	/* a service demand: its side's CPU-normalised rate, upside down */
	T_CHECK(!strcmp(res_metric_alias_of("sd_remote_us_per_kb", b, sizeof(b)),
			"MB_per_cpu_s_remote"));
	T_NEAR(res_metric_alias_k("sd_remote_us_per_kb"), 1024, 0);
	T_CHECK(!strcmp(res_metric_alias_of("sd_local_us_per_tx", b, sizeof(b)),
			"trans_per_cpu_s_local"));
	T_NEAR(res_metric_alias_k("sd_local_us_per_tx"), 1e6, 0);
	T_CHECK(!strcmp(res_metric_alias_of("metered_sd_box_us_per_kb", b,
					    sizeof(b)),
			"metered_MB_per_cpu_s_box"));
	T_NEAR(res_metric_alias_k("sd_local_sched_us_per_kb"), 0, 0);
	T_NEAR(res_metric_alias_k("cpu_box_procstat_pct"), 0, 0);
	T_CHECK(res_metric_alias_of("sd__us_per_kb", b, sizeof(b)) == NULL);
	T_CHECK(res_metric_alias_of("sd_local_us_per_kbx", b, sizeof(b)) ==
		NULL);
	/* a remote figure: the local one's name (the samples decide) */
	T_CHECK(!strcmp(res_metric_alias_of("MB_per_cpu_s_remote", b, sizeof(b)),
			"MB_per_cpu_s_local"));
	T_CHECK(!strcmp(res_metric_alias_of("cpu_remote_procstat_pct", b,
					    sizeof(b)),
			"cpu_remote_pct"));
	T_CHECK(res_metric_alias_of("sd_remotely_us", b, sizeof(b)) == NULL);
	T_CHECK(res_metric_alias_of("remote_x", b, sizeof(b)) == NULL);
	return t_done();
}
