/*
 * soak_soakers.c: a soak host's soakers (see soak.h): one process per
 * CPU, pinned, SCHED_IDLE and nice 19 (in the cpu.idle cgroup when there
 * is one), counting the loops of a small memory-touching kernel in its
 * own cache lines of the shared counters; parked on a futex while a
 * client holds them parked. Forked by the host (soak_host.c), so system
 * calls and static buffers only.
 */
#include "config.h"
#include "soak.h"
#include "soak_int.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SOAK_BUF  (256 * 1024) /* each soaker's buffer */
#define SOAK_STEP 4096	       /* bytes touched per counted loop */

static void futex_wait(uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake_all(uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/* Parked (an unmetered sample of a pair runs): sleep on the futex until
 * the host clears park, saying so in the slot both ways. */
static void soak_park(struct shm_slot *slot, uint32_t *park)
{
	__atomic_store_n(&slot->state, SLOT_PARKED, __ATOMIC_RELEASE);
	while (__atomic_load_n(park, __ATOMIC_ACQUIRE))
		futex_wait(park, 1);
	__atomic_store_n(&slot->state, SLOT_RUNNING, __ATOMIC_RELEASE);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* One counted step: a dependent chain over 64 cache lines of 4 KiB. */
static inline uint64_t soak_step(uint64_t *p, uint64_t x, int pause)
{
	size_t i;

	for (i = 0; i < SOAK_STEP / 8; i += 8) {
		x = x * 6364136223846793005ull + p[i];
		p[i] = x;
		if (pause)
			cpu_relax();
	}
	return x;
}

static void __attribute__((noreturn))
soak_loop(struct shm_slot *slot, uint32_t *park, uint64_t *buf,
	  const struct soak_kind *k)
{
	uint64_t n = 0, x = 1, slice = 0, period = 0, t0 = 0, now;
	struct timespec ts;
	size_t off = 0;

	if (k->duty_pct < 100) {
		period = (uint64_t)k->period_us * 1000;
		slice = period * (uint64_t)k->duty_pct / 100;
		t0 = clock_ns();
	}
	for (;;) {
		x = soak_step(buf + off / 8, x, k->pause);
		off = (off + SOAK_STEP) % SOAK_BUF;
		__atomic_store_n(&slot->count, ++n, __ATOMIC_RELAXED);
		/* a shared, read-mostly line: costs a load per loop */
		if (__atomic_load_n(park, __ATOMIC_RELAXED))
			soak_park(slot, park);
		if (!period || (n & 15))
			continue;
		now = clock_ns();
		if (now - t0 < slice)
			continue;
		/* the rest of this period asleep: the CPU idles */
		t0 += period * ((now - t0) / period + 1);
		ts.tv_sec = (time_t)(t0 / 1000000000ull);
		ts.tv_nsec = (long)(t0 % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void __attribute__((noreturn))
soaker_main(struct shm_slot *slot, uint32_t *park, int cpu, pid_t host,
	    const struct soak_kind *kind)
{
	cpu_set_t set;
	char name[16];
	uint64_t *buf;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != host)
		_exit(1);
	/* the host's descriptors are not ours: a soaker that outlives a
	 * SIGKILLed host (SCHED_IDLE, it dies only when it next runs) would
	 * keep its listening socket taking connects nobody accepts, and its
	 * .alive lock saying it lives */
	close_range(3, ~0u, 0);
	signal(SIGTERM, SIG_DFL);
	snprintf(name, sizeof(name), "zcb-soak/%d", cpu);
	prctl(PR_SET_NAME, name);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		__atomic_store_n(&slot->state, -errno, __ATOMIC_RELEASE);
		_exit(1);
	}
	/* the buffer first, at our parent's priority, and ready before the
	 * idle class: on a box kept busy by normal tasks an idle soaker (in
	 * the cpu.idle cgroup, SCHED_IDLE) may wait seconds for its next
	 * cycles, so the host moves it there (soak_set_start) */
	buf = mmap(NULL, SOAK_BUF, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		__atomic_store_n(&slot->state, -ENOMEM, __ATOMIC_RELEASE);
		_exit(1);
	}
	memset(buf, 1, SOAK_BUF);
	setpriority(PRIO_PROCESS, 0, 19);
	__atomic_store_n(&slot->state, SLOT_RUNNING, __ATOMIC_RELEASE);
	soak_loop(slot, park, buf, kind);
}

/* Write pid p into a cgroup's procs file: 1 when it took. */
static int write_pid(const char *procs, pid_t p)
{
	char pid[24];
	int fd = open(procs, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	snprintf(pid, sizeof(pid), "%d\n", (int)p);
	ok = write(fd, pid, strlen(pid)) > 0;
	close(fd);
	return ok;
}

/* A ready soaker into the idle regime, by the host: the cpu.idle cgroup
 * (cgprocs, when there is one) and SCHED_IDLE; what took. */
static int make_idle(pid_t p, const char *cgprocs)
{
	struct sched_param sp = {0};
	int flags = 0;

	if (cgprocs[0] && write_pid(cgprocs, p))
		flags |= SLOT_CG;
	if (!sched_setscheduler(p, SCHED_IDLE, &sp))
		flags |= SLOT_IDLE;
	return flags;
}

/* The regime every client sees in the header: how many soakers of which
 * kind, their scheduling class and cgroup (or why none). */
static void note(struct soak_set *ss, struct soak_cg *cg, int flags_all)
{
	struct shm_hdr *hdr = ss->hdr;

	snprintf(
		hdr->note, sizeof(hdr->note),
		"%d %.16s soakers (host pid %d), %s, %.160s", ss->n,
		ss->kind.name, (int)getpid(),
		flags_all & SLOT_IDLE ? "SCHED_IDLE nice 19"
				      : "nice 19 (SCHED_IDLE refused)",
		flags_all & SLOT_CG
			? cg->note
			: "no cpu.idle cgroup: in the caller's session (autogroup)");
	if (!(flags_all & SLOT_CG) && cg->dir[0] && cg->why[0] == 0)
		snprintf(cg->why, sizeof(cg->why), "joining it failed");
	if (!(flags_all & SLOT_CG) && cg->why[0]) {
		size_t n = strlen(hdr->note);

		snprintf(hdr->note + n, sizeof(hdr->note) - n, " (%s)",
			 cg->why);
	}
}

int soak_set_start(struct soak_set *ss, struct soak_cg *cg, char *err,
		   size_t len)
{
	struct shm_hdr *hdr = ss->hdr;
	pid_t me = getpid();
	int i, st, ready, flags_all = SLOT_IDLE | SLOT_CG;
	uint64_t t0 = clock_ns();

	for (i = 0; i < (int)hdr->ncpu; i++) {
		pid_t p = fork();

		if (p < 0) {
			st = -errno;
			snprintf(err, len, "fork of soaker: %s", strerror(-st));
			return st;
		}
		if (p == 0)
			soaker_main(&ss->slot[i], &hdr->park, hdr->cpu_id[i],
				    me, &ss->kind);
		ss->pid[ss->n++] = p;
	}
	do {
		ready = 0;
		for (i = 0; i < ss->n; i++) {
			st = __atomic_load_n(&ss->slot[i].state,
					     __ATOMIC_ACQUIRE);
			if (st < 0) {
				snprintf(err, len, "soaker for CPU %d: %s",
					 hdr->cpu_id[i], strerror(-st));
				return st;
			}
			ready += st == SLOT_RUNNING;
		}
		if (ready < ss->n)
			usleep(2000);
	} while (ready < ss->n && clock_ns() - t0 < SOAK_READY_MS * 1000000ull);
	if (ready < ss->n) {
		snprintf(err, len, "only %d of %d soakers started within %d s",
			 ready, ss->n, SOAK_READY_MS / 1000);
		return -ETIMEDOUT;
	}
	for (i = 0; i < ss->n; i++) {
		ss->slot[i].flags = make_idle(ss->pid[i], cg->procs);
		flags_all &= ss->slot[i].flags;
	}
	note(ss, cg, flags_all);
	return 0;
}

/* Wait until every soaker's state is want, or SOAK_PARK_MS passed (a
 * soaker starved by real work acts on park when it next runs). */
static void wait_slots(struct soak_set *ss, int want)
{
	uint64_t t0 = clock_ns();
	int i, done;

	do {
		for (i = done = 0; i < ss->n; i++)
			done += __atomic_load_n(&ss->slot[i].state,
						__ATOMIC_ACQUIRE) == want;
		if (done < ss->n)
			usleep(200);
	} while (done < ss->n && clock_ns() - t0 < SOAK_PARK_MS * 1000000ull);
}

void soak_set_park(struct soak_set *ss, int park)
{
	if (park) {
		__atomic_add_fetch(&ss->hdr->gen, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&ss->hdr->park, 1, __ATOMIC_SEQ_CST);
		wait_slots(ss, SLOT_PARKED);
	} else {
		__atomic_store_n(&ss->hdr->park, 0, __ATOMIC_SEQ_CST);
		futex_wake_all(&ss->hdr->park);
		wait_slots(ss, SLOT_RUNNING);
		__atomic_add_fetch(&ss->hdr->gen, 1, __ATOMIC_SEQ_CST);
	}
}

/* A soaker out of the idle regime before it is killed: a task dies only
 * when it next runs, and an idle one on a box busy with normal work may
 * wait seconds for that (nice 19 stays: weight enough to exit). */
static void make_normal(pid_t p, const char *cgdir)
{
	struct sched_param sp = {0};
	char procs[600];
	const char *e = strrchr(cgdir, '/');

	sched_setscheduler(p, SCHED_OTHER, &sp);
	if (!cgdir[0] || !e)
		return;
	snprintf(procs, sizeof(procs), "%.*s/cgroup.procs", (int)(e - cgdir),
		 cgdir);
	write_pid(procs, p); /* else it dies in the idle cgroup, later */
}

void soak_set_stop(struct soak_set *ss, const char *cgdir)
{
	int i;

	for (i = 0; i < ss->n; i++) {
		make_normal(ss->pid[i], cgdir);
		kill(ss->pid[i], SIGKILL);
	}
	for (i = 0; i < ss->n; i++)
		waitpid(ss->pid[i], NULL, 0);
	ss->n = 0;
}
