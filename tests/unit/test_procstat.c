/* test_procstat.c: /proc/stat parsing and deltas against fixtures. */
#include "config.h"
#include "procstat.h"
#include "t.h"

#include <errno.h>

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

	T_CHECK(procstat_parse("garbage\n", &a) == -EINVAL);
	T_CHECK(procstat_parse("cpu  1 2\n", &a) == -EINVAL);
	T_CHECK(procstat_parse("cpu  1 2 3 4\n", &a) == 0);
	T_CHECK(procstat_read("/nonexistent", &a) == -ENOENT);
	/* the live file parses */
	T_CHECK(procstat_read("", &a) == 0 && a.ncpu >= 1);
	return t_done();
}
