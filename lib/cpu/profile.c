/*
 * profile.c: the sampler behind the profile meter. One perf event per
 * online CPU (system-wide: every task, the kernel and idle), sampling
 * the instruction pointer at a fixed frequency: the hardware cycles
 * event where the machine has a PMU, else the cpu-clock software event
 * (a virtual machine without a virtual PMU). Each event has a small
 * ring; during a window a thread drains the rings every DRAIN_MS into
 * the counts of a struct prof_agg, so a window of any length needs no
 * more memory. Samples a full ring dropped are counted as lost.
 */
#include "config.h"
#include "hostinfo.h"
#include "meter.h"
#include "profile.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 16	/* data pages per CPU: 64 KiB, 4 s at 1 kHz */
#define DRAIN_MS 100	/* the drain thread's longest sleep */

struct prof_ring {
	int fd;
	void *base;		/* the control page, then the data */
	size_t data_size;
};

struct prof_sampler {
	int n;			/* CPUs sampled */
	struct prof_ring ring[METER_MAX_CPUS];
	size_t page;
	struct prof_agg *agg;
	uint32_t self;		/* our pid: samples of the measuring tool */
	const char *event;	/* "cycles" or "cpu-clock" */
	pthread_t thread;
	int running;		/* a window is on: the thread runs */
	int stop;		/* set to end the thread */
};

static int open_one(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(__NR_perf_event_open, a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static void attr_for(struct perf_event_attr *a, int hw, int freq)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = (uint64_t)freq;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a->disabled = 1;
	a->exclude_hv = 1;
	a->wakeup_watermark = RING_PAGES * 4096 / 4;
	a->watermark = 1;
}

static const char *why_errno(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "not permitted (kernel.perf_event_paranoid; not root?)";
	case ENOENT:
	case ENOSYS:
	case EOPNOTSUPP:
		return "no perf support in this kernel";
	default:
		return strerror(e);
	}
}

/* Open the event on every CPU, cycles first unless there is no PMU. */
static int open_events(struct prof_sampler *p, int freq, char *err,
		       size_t len)
{
	struct perf_event_attr a;
	int hw, c, fd, e = 0;

	for (hw = 1; hw >= 0; hw--) {
		attr_for(&a, hw, freq);
		for (c = 0; c < p->n; c++) {
			fd = open_one(&a, c);
			if (fd < 0)
				break;
			p->ring[c].fd = fd;
		}
		if (c == p->n) {
			p->event = hw ? "cycles" : "cpu-clock";
			return 0;
		}
		e = errno;
		while (c > 0)
			close(p->ring[--c].fd);
		if (e == EACCES || e == EPERM)
			break; /* cpu-clock would be refused as well */
	}
	snprintf(err, len, "perf_event_open (cpu-clock, every CPU): %s",
		 why_errno(e));
	return -e;
}

static int map_rings(struct prof_sampler *p, char *err, size_t len)
{
	int c;

	for (c = 0; c < p->n; c++) {
		struct prof_ring *r = &p->ring[c];

		r->data_size = RING_PAGES * p->page;
		r->base = mmap(NULL, (RING_PAGES + 1) * p->page,
			       PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (r->base == MAP_FAILED) {
			r->base = NULL;
			snprintf(err, len, "perf ring of CPU %d: %s", c,
				 strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/* Copy n bytes at offset off of a ring's data, across its end. */
static void ring_copy(const struct prof_ring *r, uint64_t off, void *dst,
		      size_t n)
{
	const char *data = (const char *)r->base + getpagesize();
	size_t at = (size_t)(off % r->data_size), first = r->data_size - at;

	if (first >= n) {
		memcpy(dst, data + at, n);
	} else {
		memcpy(dst, data + at, first);
		memcpy((char *)dst + first, data, n - first);
	}
}

/* Everything in one ring into the agg. */
static void drain_ring(struct prof_sampler *p, struct prof_ring *r)
{
	struct perf_event_mmap_page *mp = r->base;
	struct perf_event_header h;
	uint64_t head, tail, v[2];
	uint32_t pt[2];

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	while (tail < head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break; /* never seen; do not loop on it */
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 16) {
			/* ip, then pid and tid */
			ring_copy(r, tail + sizeof(h), v, 8);
			ring_copy(r, tail + sizeof(h) + 8, pt, 8);
			prof_agg_add(p->agg, v[0],
				     (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
					     PERF_RECORD_MISC_USER,
				     pt[0] == p->self);
		} else if (h.type == PERF_RECORD_LOST &&
			   h.size >= sizeof(h) + 16) {
			ring_copy(r, tail + sizeof(h), v, 16);
			p->agg->lost += v[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
}

static void drain_all(struct prof_sampler *p)
{
	int c;

	for (c = 0; c < p->n; c++)
		drain_ring(p, &p->ring[c]);
}

static void *drain_thread(void *arg)
{
	struct prof_sampler *p = arg;
	struct pollfd pfd[METER_MAX_CPUS];
	int c;

	for (c = 0; c < p->n; c++) {
		pfd[c].fd = p->ring[c].fd;
		pfd[c].events = POLLIN;
	}
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		poll(pfd, (nfds_t)p->n, DRAIN_MS);
		drain_all(p);
	}
	return NULL;
}

int prof_sampler_open(struct prof_sampler **ps, int freq,
		      struct prof_agg *agg, char *err, size_t len)
{
	struct prof_sampler *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return -ENOMEM;
	p->agg = agg;
	p->self = (uint32_t)getpid();
	p->page = (size_t)getpagesize();
	p->n = host_online_cpus();
	if (p->n > METER_MAX_CPUS)
		p->n = METER_MAX_CPUS;
	r = open_events(p, freq, err, len);
	if (r) {
		free(p);
		return r;
	}
	r = map_rings(p, err, len);
	if (r) {
		prof_sampler_close(p);
		return r;
	}
	*ps = p;
	return 0;
}

const char *prof_sampler_event(const struct prof_sampler *ps)
{
	return ps->event;
}

int prof_sampler_start(struct prof_sampler *p)
{
	sigset_t all, old;
	int c, r;

	if (p->running)
		prof_sampler_stop(p);
	drain_all(p); /* anything left over is not this window's */
	prof_agg_reset(p->agg);
	p->stop = 0;
	/* the thread takes no signal: a SIGINT must interrupt the tool's
	 * own blocking calls, not land here */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&p->thread, NULL, drain_thread, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return -EAGAIN;
	p->running = 1;
	for (c = 0; c < p->n; c++)
		ioctl(p->ring[c].fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

int prof_sampler_stop(struct prof_sampler *p)
{
	int c;

	if (!p->running)
		return 0;
	for (c = 0; c < p->n; c++)
		ioctl(p->ring[c].fd, PERF_EVENT_IOC_DISABLE, 0);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	p->running = 0;
	drain_all(p);
	return 0;
}

void prof_sampler_close(struct prof_sampler *p)
{
	int c;

	if (!p)
		return;
	prof_sampler_stop(p);
	for (c = 0; c < p->n; c++) {
		if (p->ring[c].base)
			munmap(p->ring[c].base, (RING_PAGES + 1) * p->page);
		close(p->ring[c].fd);
	}
	free(p);
}
