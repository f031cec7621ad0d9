/*
 * sched_nobpf.c: the sched meter's loader in a build without BPF
 * (./configure --with-bpf=no, or auto without libbpf, bpftool or
 * clang): it says so, and the meter set goes on with procstat.
 */
#include "config.h"
#include "schedcpu.h"

#include <errno.h>
#include <stdio.h>

int sched_probe_open(struct sched_probe **pp, const struct sched_probe_cfg *c,
		     char *err, size_t len)
{
	(void)c;
	*pp = NULL;
	snprintf(err, len,
		 "this build has no BPF (configure --with-bpf=yes needs libbpf-dev, bpftool and clang)");
	return -ENOSYS;
}

const char *sched_probe_traced(const struct sched_probe *p)
{
	(void)p;
	return "";
}

unsigned sched_probe_traced_mask(const struct sched_probe *p)
{
	(void)p;
	return 0;
}

int sched_probe_ncpu(const struct sched_probe *p)
{
	(void)p;
	return 0;
}

int sched_probe_read(struct sched_probe *p, struct zs_cpu *out)
{
	(void)p, (void)out;
	return -ENOSYS;
}

int sched_probe_peer(struct sched_probe *p, pid_t pid, char *err,
		     size_t len)
{
	(void)p, (void)pid;
	snprintf(err, len, "this build has no BPF");
	return -ENOSYS;
}

void sched_probe_close(struct sched_probe *p)
{
	(void)p;
}
