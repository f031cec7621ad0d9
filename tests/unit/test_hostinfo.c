/* test_hostinfo.c: host facts from a fixture root, and cpu lists. */
#include "config.h"
#include "hostinfo.h"
#include "t.h"

#include <errno.h>
#include <sched.h>
#include <unistd.h>

int main(void)
{
	struct hostinfo h;
	unsigned char bm[16];
	char root[4200];
	json_t *j;

	snprintf(root, sizeof(root), "%s/proc-a", t_datadir());
	T_ASSERT(hostinfo_read(root, &h) == 0);
	T_STREQ(h.hostname, "fixturehost");
	T_STREQ(h.kernel_release, "6.1.0-fixture");
	T_STREQ(h.kernel_version, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0");
	T_STREQ(h.machine, "x86_64");
	T_STREQ(h.cpu_model, "Intel(R) Xeon(R) Fixture CPU @ 2.00GHz");
	T_CHECK(h.online_cpus == 5);
	T_STREQ(h.online_list, "0-3,6");
	T_CHECK(h.mem_bytes == 24576000ull * 1024);
	T_STREQ(h.cmdline, "BOOT_IMAGE=/vmlinuz root=/dev/vda1 mitigations=off");
	T_STREQ(json_string_value(json_object_get(h.sysctls, "net.core.rmem_max")),
		"212992");
	T_STREQ(json_string_value(json_object_get(h.sysctls, "net.ipv4.tcp_rmem")),
		"4096 131072 6291456");
	T_CHECK(json_object_get(h.sysctls, "net.core.wmem_max") == NULL);
	j = hostinfo_to_json(&h);
	T_CHECK(json_integer_value(json_object_get(j, "online_cpus")) == 5);
	T_STREQ(json_string_value(json_object_get(j, "hostname")), "fixturehost");
	json_decref(j);
	hostinfo_free(&h);

	/* a root with nothing in it: empty fields, no crash */
	T_ASSERT(hostinfo_read("/nonexistent-root", &h) == 0);
	T_STREQ(h.hostname, "");
	T_CHECK(h.online_cpus == 0);
	hostinfo_free(&h);

	T_CHECK(host_parse_cpulist("0-3,8,10-11", bm, 128) == 7);
	T_CHECK(bm[1] & (1 << 0));
	T_CHECK(host_parse_cpulist("0", bm, 128) == 1);
	T_CHECK(host_parse_cpulist("3-1", bm, 128) == -EINVAL);
	T_CHECK(host_parse_cpulist("0-200", bm, 128) == -EINVAL);
	T_CHECK(host_parse_cpulist("a", bm, 128) == -EINVAL);
	T_CHECK(host_online_cpus() >= 1);

	/* where this process may run (issue 26: the nightly pins its
	 * sides and the documents say where): this process, pinned to one
	 * of its CPUs, says that one */
	{
		char cpus[64], want[16];
		cpu_set_t set, one;
		int cpu = 0;

		T_ASSERT(host_cpus_allowed("", 0, cpus, sizeof(cpus)) != NULL);
		T_ASSERT(!sched_getaffinity(0, sizeof(set), &set));
		while (!CPU_ISSET(cpu, &set))
			cpu++;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		T_ASSERT(!sched_setaffinity(0, sizeof(one), &one));
		snprintf(want, sizeof(want), "%d", cpu);
		T_STREQ(host_cpus_allowed("", 0, cpus, sizeof(cpus)), want);
		T_STREQ(host_cpus_allowed("", getpid(), cpus, sizeof(cpus)), want);
		T_ASSERT(!sched_setaffinity(0, sizeof(set), &set));
		T_CHECK(host_cpus_allowed("/nonexistent-root", 0, cpus,
					  sizeof(cpus)) == NULL);
	}

	/* the live box */
	T_ASSERT(hostinfo_read("", &h) == 0);
	T_CHECK(h.kernel_release[0] != '\0');
	T_CHECK(h.online_cpus >= 1);
	hostinfo_free(&h);
	return t_done();
}
