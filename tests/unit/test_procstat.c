/* test_procstat.c: /proc/stat parsing and deltas against fixtures. */
#include "config.h"
#include "procstat.h"
#include "t.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int main(void)
{
	struct procstat_snap a, b;
	struct cpu_sample s;
	char root[4200];

	snprintf(root, sizeof(root), "%s/proc-a", t_datadir());
	T_ASSERT(procstat_read(root, &a) == 0);
	snprintf(root, sizeof(root), "%s/proc-b", t_datadir());
	T_ASSERT(procstat_read(root, &b) == 0);
	T_CHECK(a.ncpu == 2 && b.ncpu == 2);
	T_CHECK(a.total[PS_USER] == 1000 && a.total[PS_SOFTIRQ] == 70);

	memset(&s, 0, sizeof(s));
	procstat_delta(&a, &b, &s);
	/* 2200 jiffies in total between the two */
	T_NEAR(s.user_pct, 600.0 / 2200 * 100, 1e-9);
	T_NEAR(s.sys_pct, 400.0 / 2200 * 100, 1e-9);
	T_NEAR(s.irq_pct, 20.0 / 2200 * 100, 1e-9);
	T_NEAR(s.softirq_pct, 80.0 / 2200 * 100, 1e-9);
	T_NEAR(s.steal_pct, 100.0 / 2200 * 100, 1e-9);
	T_NEAR(s.idle_pct, 1000.0 / 2200 * 100, 1e-9);
	T_NEAR(s.busy_pct, 1200.0 / 2200 * 100, 1e-9);
	T_CHECK(s.have_percpu && s.ncpu == 2);
	T_NEAR(s.percpu_busy[0], 100.0, 1e-9);
	T_NEAR(s.percpu_busy[1], 350.0 / 1350 * 100, 1e-9);

	/* plenty of busy ticks: usable, no note */
	s.ok = 1;
	T_NEAR(s.resolution_pct, 100.0 / 2200, 1e-9);
	T_CHECK(procstat_resolution(&s) == 0 && s.ok && !s.note[0]);
	s.ncpu = 2;
	s.elapsed_s = 11;
	T_NEAR(meter_cpu_s(&s), 1200.0 / 2200 * 2 * 11, 1e-9);

	/* a window with ticks but none of them busy: "under 10%", kept,
	 * but no figure per unit of work comes from it */
	T_ASSERT(procstat_parse("cpu  0 0 0 10 0 0 0 0\ncpu0 0 0 0 5 0 0 0 0\ncpu1 0 0 0 5 0 0 0 0\n", &a) == 0);
	T_ASSERT(procstat_parse("cpu  0 0 0 20 0 0 0 0\ncpu0 0 0 0 10 0 0 0 0\ncpu1 0 0 0 10 0 0 0 0\n", &b) == 0);
	memset(&s, 0, sizeof(s));
	procstat_delta(&a, &b, &s);
	s.ok = 1;
	s.elapsed_s = 0.05;
	T_NEAR(s.resolution_pct, 10.0, 1e-9);
	T_CHECK(procstat_resolution(&s) == 0 && s.ok && s.busy_pct == 0);
	T_STREQ(s.note, "below its resolution: not one busy tick of 10 in this window (under 10.0% of the box); no figure per unit of work; run longer (--duration)");
	T_CHECK(isnan(meter_cpu_s(&s)) && isnan(meter_service_demand(&s, 1e6)) &&
		isnan(meter_per_cpu_s(&s, 1e6)));

	/* a window without a single tick is not 100% busy (it read so
	 * once): it is unavailable, saying why */
	memset(&s, 0, sizeof(s));
	procstat_delta(&a, &a, &s);
	T_CHECK(s.busy_pct == 0 && s.resolution_pct == 0);
	s.ok = 1;
	s.elapsed_s = 0.002;
	T_CHECK(procstat_resolution(&s) == 1 && !s.ok);
	T_CHECK(strstr(s.why, "not one tick in a 0.002 s window") != NULL);

	/* one busy tick of ten: a figure, said to be coarse */
	T_ASSERT(procstat_parse("cpu  0 0 1 19 0 0 0 0\n", &b) == 0);
	memset(&s, 0, sizeof(s));
	procstat_delta(&a, &b, &s);
	s.ok = 1;
	s.ncpu = 2;
	s.elapsed_s = 0.05;
	T_NEAR(s.busy_pct, 10.0, 1e-9);
	T_CHECK(procstat_resolution(&s) == 0 && s.ok);
	T_STREQ(s.note, "coarse: 1 busy tick of 10 in this window, each 10.0% of the box; run longer (--duration)");
	T_NEAR(meter_cpu_s(&s), 0.01, 1e-9);

	T_CHECK(procstat_parse("garbage\n", &a) == -EINVAL);
	T_CHECK(procstat_parse("cpu  1 2\n", &a) == -EINVAL);
	T_CHECK(procstat_parse("cpu  1 2 3 4\n", &a) == 0);
	T_CHECK(procstat_read("/nonexistent", &a) == -ENOENT);
	/* the live file parses */
	T_CHECK(procstat_read("", &a) == 0 && a.ncpu >= 1);
	return t_done();
}
