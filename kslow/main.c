/*
 * kslow: a kernel regression of a known size, for the nightly's power
 * check (scripts/nightly-power --cap-by kernel) and anyone who wants to
 * see what a detector catches. The tasks of one cgroup (v2) find every
 * system call's CPU time longer by --slow PCT percent: at the call's
 * exit a BPF program (kslow.bpf.c) spins in the kernel for that share
 * of what the call ran. A user-space loop, such as the tools' box probe
 * (--probe), is not slowed; a busy loop beside the run (--cap-by cpu)
 * slows both. Runs until INT, TERM or HUP (or --duration), then says
 * what it did. See man/kslow.1.
 */
#include "config.h"
#include "kslow.h"

#include "cli.h"
#include "log.h"
#include "sig.h"

#include "kslow/kslow.skel.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

struct cfg {
	struct cli_common com;
	const char *cgroup;	/* --cgroup DIR */
	double slow;		/* --slow PCT */
	double max_spin;	/* --max-spin T, seconds */
	double duration;	/* --duration T; 0 = until a signal */
};

#define KO(f) offsetof(struct cfg, f)

static struct cfg cfg = { .slow = -1, .max_spin = 0.01 };

static const struct cli_set sets[] = {
	CLI_STRING('g', "cgroup", "DIR", KO(cgroup),
		   "the cgroup (v2) whose tasks are slowed (needed)"),
	CLI_VALUE('s', "slow", "PCT", CLI_DBL, KO(slow), 0, 1000,
		  "each system call's CPU time made PCT% longer\n"
		  "(needed; 11.1 takes 10% from a run all in calls)"),
	CLI_VALUE('m', "max-spin", "T", CLI_DUR, KO(max_spin), 1e-6, 1,
		  "the longest spin after one call (10ms)"),
	CLI_VALUE('d', "duration", "T", CLI_DUR, KO(duration), 0, 1e6,
		  "stop after T (default: at INT, TERM or HUP)"),
	{0},
};

CLI_TOOL(tool,
	 "usage: kslow --cgroup DIR --slow PCT [options]\n"
	 "A kernel made slower for one cgroup's tasks: every system call's "
	 "CPU time\n"
	 "grows by PCT%, spun in the kernel at its exit (BPF). Needs root "
	 "and BTF.\n",
	 0, .sets = sets);

/* The cgroup's v2 id (its file handle, as the kernel's
 * bpf_get_current_cgroup_id gives it) and its depth under the
 * hierarchy's root; dies naming what is wrong. */
static void cgroup_of(const char *dir, uint64_t *id, uint32_t *level)
{
	char path[PATH_MAX], *slash;
	struct {
		struct file_handle fh;
		uint64_t id;
	} h;
	struct statfs fs;
	int mnt;

	if (!realpath(dir, path))
		die_errno("--cgroup %s", dir);
	if (statfs(path, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)
		die_usage("--cgroup %s: not a cgroup v2 directory (the "
			  "unified hierarchy, e.g. /sys/fs/cgroup or "
			  "/sys/fs/cgroup/unified)", dir);
	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0) ||
	    h.fh.handle_bytes != sizeof(h.id))
		die_errno("--cgroup %s: its id", dir);
	memcpy(id, h.fh.f_handle, sizeof(*id));
	for (*level = 0; (slash = strrchr(path, '/')) && slash != path;
	     ++*level) {
		*slash = 0;
		if (statfs(path, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)
			break;
	}
}

static void parse_opts(int argc, char **argv)
{
	int ind = cli_parse(&tool, &cfg, &cfg.com, argc, argv);

	if (ind < argc)
		die_usage("unexpected argument \"%s\"", argv[ind]);
	if (!cfg.cgroup)
		die_usage("--cgroup DIR is needed: the cgroup to slow");
	if (cfg.slow < 0)
		die_usage("--slow PCT is needed: how much longer each call runs");
}

static struct kslow_bpf *attach(uint64_t id, uint32_t level)
{
	struct kslow_bpf *k = kslow_bpf__open();
	int r;

	if (!k)
		die_errno("cannot open the BPF program");
	k->rodata->cg_id = id;
	k->rodata->cg_level = level;
	k->rodata->share_ppm = (uint64_t)(cfg.slow / 100 * KS_PPM + 0.5);
	k->rodata->max_ns = (uint64_t)(cfg.max_spin * 1e9);
	r = kslow_bpf__load(k);
	if (r) {
		kslow_bpf__destroy(k);
		errno = -r;
		die_errno("cannot load the BPF program (root, BTF in "
			  "/sys/kernel/btf/vmlinux and bpf_loop, Linux 5.17 or "
			  "later, are needed)");
	}
	r = kslow_bpf__attach(k);
	if (r) {
		kslow_bpf__destroy(k);
		errno = -r;
		die_errno("cannot attach to sys_enter, sys_exit, sched_switch");
	}
	return k;
}

/* Until a signal or the duration ends. */
static void hold(void)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!sig_stop) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (cfg.duration > 0 &&
		    (double)(now.tv_sec - t0.tv_sec) +
				    (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >=
			    cfg.duration)
			break;
		usleep(20000);
	}
}

/* The counters of every CPU, summed. */
static int counted(struct kslow_bpf *k, struct ks_count *sum)
{
	int n = libbpf_num_possible_cpus(), i;
	struct ks_count *v;
	uint32_t zero = 0;

	memset(sum, 0, sizeof(*sum));
	if (n <= 0 || !(v = calloc((size_t)n, sizeof(*v))))
		return -1;
	if (bpf_map__lookup_elem(k->maps.counts, &zero, sizeof(zero), v,
				 (size_t)n * sizeof(*v), 0)) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++) {
		sum->calls += v[i].calls;
		sum->ran_ns += v[i].ran_ns;
		sum->spun_ns += v[i].spun_ns;
		sum->capped += v[i].capped;
	}
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	struct kslow_bpf *k;
	struct ks_count s;
	uint32_t level;
	uint64_t id;

	log_init(argv[0]);
	parse_opts(argc, argv);
	cgroup_of(cfg.cgroup, &id, &level);
	sig_install();
	k = attach(id, level);
	printf("kslow: slowing %s (cgroup id %llu, level %u): each system "
	       "call's CPU time +%.2f%%, at most %.0f us spun a call\n",
	       cfg.cgroup, (unsigned long long)id, level, cfg.slow,
	       cfg.max_spin * 1e6);
	fflush(stdout);
	hold();
	if (counted(k, &s)) {
		kslow_bpf__destroy(k);
		die("cannot read the BPF program's counters");
	}
	kslow_bpf__destroy(k);
	printf("kslow: %llu calls ran %.6f s of CPU; %.6f s spun after them "
	       "(%.2f%%); %llu spins cut at %.0f us\n",
	       s.calls, (double)s.ran_ns / 1e9, (double)s.spun_ns / 1e9,
	       s.ran_ns ? 100.0 * (double)s.spun_ns / (double)s.ran_ns : 0.0,
	       s.capped, cfg.max_spin * 1e6);
	return 0;
}
