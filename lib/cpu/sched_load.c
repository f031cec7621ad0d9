/*
 * sched_load.c: the sched meter's program in the kernel (schedcpu.h): load
 * it through its skeleton (built at make time from sched.bpf.c), size
 * its per-CPU map to the possible CPUs and map it, name the processes
 * to tell apart, attach what this kernel has, and read every CPU's
 * counters. libbpf's messages are kept for the error, never printed.
 */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "pidcpu.h"
#include "schedcpu.h"

#include "lib/cpu/sched.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

_Static_assert(sizeof(struct zs_cpu) % 64 == 0,
	       "a CPU's counters fill whole cache lines");

#define SCHED_COPY_TRIES 1000 /* copies of a CPU's counters, at most, for
				* one that no update overlapped */
#define SCHED_BTF "/sys/kernel/btf/vmlinux"

struct sched_probe {
	struct sched_bpf *skel;
	struct zs_cpu *map;	/* the map "cpus", mapped */
	size_t map_len;
	int ncpu;		/* possible CPUs: the map's entries */
	unsigned char online[HOST_MAX_CPUS / 8 + 1];
	unsigned traced;	/* bit k: hardirq kind k is traced */
	char note[256];		/* what is traced, what is missing */
};

/* libbpf's last message, for the error of a failed load. */
static char bpf_msg[256];

static int keep_msg(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(bpf_msg, sizeof(bpf_msg), fmt, ap);
	n = strlen(bpf_msg);
	while (n && (bpf_msg[n - 1] == '\n' || bpf_msg[n - 1] == ' '))
		bpf_msg[--n] = '\0';
	return 0;
}

/* The x86 vectors: programs loaded only where their tracepoint is. */
static const struct {
	int kind;		/* enum zs_hirq */
	const char *tp;		/* the BTF typedef of its entry */
} vectors[] = {
	{ZS_HI_TIMER, "btf_trace_local_timer_entry"},
	{ZS_HI_RESCHED, "btf_trace_reschedule_entry"},
	{ZS_HI_CALLFN, "btf_trace_call_function_entry"},
	{ZS_HI_CALLFN1, "btf_trace_call_function_single_entry"},
};

static void vector_progs(struct sched_bpf *s, int kind,
			 struct bpf_program **in, struct bpf_program **out)
{
	switch (kind) {
	case ZS_HI_TIMER:
		*in = s->progs.on_timer_entry, *out = s->progs.on_timer_exit;
		break;
	case ZS_HI_RESCHED:
		*in = s->progs.on_resched_entry;
		*out = s->progs.on_resched_exit;
		break;
	case ZS_HI_CALLFN:
		*in = s->progs.on_callfn_entry;
		*out = s->progs.on_callfn_exit;
		break;
	default:
		*in = s->progs.on_callfn1_entry;
		*out = s->progs.on_callfn1_exit;
	}
}

/* Load the vectors asked for (want: bit k for kind k) that this kernel
 * has a tracepoint for; the note says which are traced, which asked for
 * are missing, and how to ask when none was. */
static int pick_vectors(struct sched_probe *p, unsigned want, char *err,
			size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct bpf_program *in, *out;
	char miss[160] = "";
	size_t i, off = 0;
	int have, asked;

	if (!btf) {
		snprintf(err, len, "cannot read the kernel's BTF (%s): %s",
			 SCHED_BTF, strerror(errno));
		return -ENOENT;
	}
	p->traced = 1u << ZS_HI_DEVICE;
	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		asked = !!(want & (1u << vectors[i].kind));
		have = asked && btf__find_by_name_kind(btf, vectors[i].tp,
						       BTF_KIND_TYPEDEF) >= 0;
		vector_progs(p->skel, vectors[i].kind, &in, &out);
		bpf_program__set_autoload(in, have);
		bpf_program__set_autoload(out, have);
		if (have)
			p->traced |= 1u << vectors[i].kind;
		else if (asked && off < sizeof(miss))
			off += (size_t)snprintf(miss + off, sizeof(miss) - off,
						"%s%s", off ? ", " : "",
						sched_hirq_name(vectors[i].kind));
	}
	btf__free(btf);
	snprintf(p->note, sizeof(p->note),
		 "traced: sched_switch, irq_handler, softirq%s%s%s%s%s%s",
		 p->traced & (1u << ZS_HI_TIMER) ? ", local_timer" : "",
		 p->traced & (1u << ZS_HI_RESCHED) ? ", reschedule" : "",
		 p->traced & (1u << ZS_HI_CALLFN) ? ", call_function" : "",
		 p->traced & (1u << ZS_HI_CALLFN1) ? ", call_function_single"
						   : "",
		 want ? "" : "; not the x86 vectors (" SCHED_VECTORS_ENV "=all)",
		 miss[0] ? "; this kernel has no tracepoint for " : "");
	if (miss[0])
		snprintf(p->note + strlen(p->note),
			 sizeof(p->note) - strlen(p->note), "%s", miss);
	return 0;
}

/* libbpf's answer r to a load or an attach: 0, or err says why not.
 * -EPERM is BPF not permitted; -EACCES too, but for root it is the
 * verifier's no. */
static int load_error(int r, char *err, size_t len)
{
	if (!r)
		return 0;
	if (r == -EPERM || (r == -EACCES && geteuid() != 0)) {
		snprintf(err, len,
			 "BPF not permitted (needs root, or CAP_BPF and CAP_PERFMON)%s%.150s",
			 bpf_msg[0] ? ": " : "", bpf_msg);
		return -EPERM;
	}
	snprintf(err, len, "the kernel refused the BPF program: %s%s%.150s",
		 strerror(-r), bpf_msg[0] ? "; libbpf: " : "", bpf_msg);
	return r;
}

static int online(const struct sched_probe *p, int cpu)
{
	return cpu < HOST_MAX_CPUS && (p->online[cpu / 8] & (1u << (cpu % 8)));
}

/* Map the counters and start every online CPU's spans now. */
static int map_cpus(struct sched_probe *p, char *err, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	char list[1024];
	zs_u64 now;
	int i;

	if (host_read_file("", "/sys/devices/system/cpu/online", list,
			   sizeof(list)) <= 0 ||
	    host_parse_cpulist(list, p->online, HOST_MAX_CPUS) <= 0)
		snprintf(list, sizeof(list), "0-%d", host_online_cpus() - 1),
			host_parse_cpulist(list, p->online, HOST_MAX_CPUS);
	p->map_len = sizeof(struct zs_cpu) * (size_t)p->ncpu;
	p->map_len = (p->map_len + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
	p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      bpf_map__fd(p->skel->maps.cpus), 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		snprintf(err, len, "cannot map the BPF counters: %s",
			 strerror(errno));
		return -errno;
	}
	now = clock_ns();
	for (i = 0; i < p->ncpu; i++)
		zs_init(&p->map[i], online(p, i) ? now : 0);
	return 0;
}

/* Tell a process tree apart as cls (its live children now; the BPF
 * program adds those it forks later). */
static int track(struct sched_probe *p, pid_t pid, zs_u32 cls, char *err,
		 size_t len)
{
	int fd = bpf_map__fd(p->skel->maps.tracked), n, i;
	pid_t kids[SCHED_MAX_PIDS];
	__u32 k = (__u32)pid;

	if (kill(pid, 0) && errno == ESRCH) {
		snprintf(err, len, "process %d does not exist", (int)pid);
		return -ESRCH;
	}
	if (bpf_map_update_elem(fd, &k, &cls, BPF_ANY)) {
		snprintf(err, len, "process %d: more than %d processes named",
			 (int)pid, SCHED_MAX_PIDS);
		return -ENOSPC;
	}
	n = pidcpu_descendants(NULL, pid, kids, SCHED_MAX_PIDS / 2);
	for (i = 0; i < n; i++) {
		k = (__u32)kids[i];
		bpf_map_update_elem(fd, &k, &cls, BPF_NOEXIST);
	}
	/* every CPU's cache of classes is stale from here */
	__atomic_fetch_add(&p->skel->data->tracked_gen, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Run on every online CPU once, so each has switched since attach and
 * its class is known (a CPU that never switches names its task at its
 * first interrupt otherwise). */
static void visit_cpus(struct sched_probe *p)
{
	cpu_set_t was, one;
	int i;

	if (sched_getaffinity(0, sizeof(was), &was))
		return;
	for (i = 0; i < p->ncpu && i < CPU_SETSIZE; i++) {
		if (!online(p, i))
			continue;
		CPU_ZERO(&one);
		CPU_SET(i, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			sched_yield();
	}
	sched_setaffinity(0, sizeof(was), &was);
}

int sched_probe_open(struct sched_probe **pp, const struct sched_probe_cfg *c,
		     char *err, size_t len)
{
	struct sched_probe *p;
	char btf[4096];
	int r, i;

	*pp = NULL;
	/* under the root prefix, as /proc and /sys are read (tests) */
	snprintf(btf, sizeof(btf), "%s%s", host_root(), SCHED_BTF);
	if (access(btf, R_OK)) {
		snprintf(err, len,
			 "no BTF: %s is missing (a kernel without CONFIG_DEBUG_INFO_BTF)",
			 SCHED_BTF);
		return -ENOENT;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	libbpf_set_print(keep_msg);
	bpf_msg[0] = '\0';
	p->ncpu = libbpf_num_possible_cpus();
	p->skel = sched_bpf__open();
	if (!p->skel || p->ncpu <= 0) {
		r = errno ? -errno : -EINVAL;
		snprintf(err, len, "cannot open the BPF program: %s%s%.150s",
			 strerror(-r), bpf_msg[0] ? ": " : "", bpf_msg);
		goto fail;
	}
	r = pick_vectors(p, c->vectors, err, len);
	if (!r)
		r = bpf_map__set_max_entries(p->skel->maps.cpus,
					     (__u32)p->ncpu);
	if (!r)
		r = load_error(sched_bpf__load(p->skel), err, len);
	if (!r)
		r = map_cpus(p, err, len);
	if (!r)
		r = track(p, c->self ? c->self : getpid(), ZS_SELF, err, len);
	for (i = 0; !r && i < c->npeers; i++)
		r = track(p, c->peers[i], ZS_PEER, err, len);
	if (!r)
		r = load_error(sched_bpf__attach(p->skel), err, len);
	if (r)
		goto fail;
	visit_cpus(p);
	*pp = p;
	return 0;
fail:
	sched_probe_close(p);
	return r;
}

const char *sched_probe_traced(const struct sched_probe *p)
{
	return p->note;
}

unsigned sched_probe_traced_mask(const struct sched_probe *p)
{
	return p->traced;
}

int sched_probe_ncpu(const struct sched_probe *p)
{
	return p->ncpu;
}

int sched_probe_read(struct sched_probe *p, struct zs_cpu *out)
{
	int i;

	for (i = 0; i < p->ncpu; i++) {
		if (!online(p, i)) {
			memset(&out[i], 0, sizeof(out[i]));
			continue;
		}
		if (zs_copy(&out[i], &p->map[i], SCHED_COPY_TRIES))
			return -EAGAIN;
		zs_close(&out[i], clock_ns());
	}
	return 0;
}

int sched_probe_peer(struct sched_probe *p, pid_t pid, char *err,
		     size_t len)
{
	return track(p, pid, ZS_PEER, err, len);
}

void sched_probe_close(struct sched_probe *p)
{
	if (!p)
		return;
	if (p->skel)
		sched_bpf__detach(p->skel);
	if (p->map)
		munmap(p->map, p->map_len);
	sched_bpf__destroy(p->skel);
	free(p);
}
