/*
 * sched_acct.h: the sched meter's accounting, once, for the BPF program
 * (lib/cpu/sched.bpf.c) and for user space (the reader in meter_sched.c
 * and tests/unit/test_sched.c, which drives it with canned events).
 *
 * Each CPU has one struct zs_cpu: what runs there now (the current
 * task's class, a softirq vector, a hardirq) and since when, and the
 * time each context has had. Every event charges the span since the
 * CPU's last event to the innermost context running (a hardirq, else a
 * softirq, else the task), then changes the context:
 *
 *   zs_switch      sched_switch: the next task's class is current
 *   zs_irq_enter   irq_handler_entry, or an x86 vector's entry (local
 *   zs_irq_exit    timer, reschedule, call function (single)) and exit
 *   zs_sirq_enter  softirq_entry/exit of a vector
 *   zs_sirq_exit
 *   zs_close       the reader: the span still open at now, charged to
 *                  what runs, on a copy (the state is not changed)
 *
 * Every event also hands in the task current (its pid): when it is not
 * the one the last switch named, the kernel switched without tracing it
 * (on this VM, no switch away from its agent's threads is ever traced;
 * the span would go to the agent until the next traced switch, an idle
 * box reading 10% busy). zs_missed splits the span by the kernel's own
 * runtime of the tasks, and counts it.
 *
 * A CPU's first event also names the task that was current before it
 * (sched_switch's prev, or current in an interrupt): the span since the
 * meter was attached is that task's. An exit with no entry seen (the
 * meter attached inside a handler) charges the span to that handler.
 *
 * Every program writes only its own CPU's struct, so the updates are
 * plain loads and stores, no locked instruction: the switch and hardirq
 * programs run with interrupts off and nothing of ours nests in them.
 * Softirq handlers, and so the softirq programs, run with interrupts on:
 * a hardirq's program can run in the middle of a softirq's update on the
 * same CPU. The softirq program marks its update (busy, set and cleared
 * by single stores around it, so an interrupt comes wholly before the
 * mark or inside it); a hardirq's program that finds the mark does not
 * touch the state and is only counted (nested): its span stays with the
 * update's, whose context it interrupted, so busy time loses nothing and
 * only its hardirq/softirq split moves. A hardirq's program that runs
 * after the softirq program read its clock but before the mark moves the
 * span's start past that time; the update then finds no span (the start
 * never goes back), so nothing is counted twice.
 *
 * A reader on another CPU copies a struct between two counts, seq_end
 * (first) and seq_begin (last): a copy with seq_end == seq_begin saw no
 * update in progress (zs_copy). The writer needs only compiler barriers
 * between them: x86 keeps stores in order (other architectures would need
 * a store barrier the BPF instruction set has no plain form of).
 *
 * The BPF program keeps, in each CPU's struct, the class of the processes
 * it looked up last (zs_cache_*: a slot per tgid modulo ZS_NCACHE),
 * valid while the generation of the set of processes told apart is the
 * one it was filed under: a switch to a task seen lately costs no hash
 * lookup.
 *
 * Steal. In a VM the hypervisor may run something else while a CPU of
 * ours has work: the clock moves on, but nothing of ours ran. A kernel
 * with paravirt steal accounting takes that time out of its task clock
 * (so out of a task's rusage) when it updates a runqueue's clock, at a
 * switch or a tick. Each program hands in that CPU's steal clock
 * (steal_in, the runqueue's prev_steal_time_rq; 0 where the kernel has
 * none) and every span gives up the steal seen since the last event,
 * as the kernel's task clock does: a switch's span, or the tick's and
 * then the span after it (steal_owed carries what a span was too short
 * to hold). Steal is nobody's and not busy.
 *
 * Time is in ns of CLOCK_MONOTONIC (bpf_ktime_get_ns). Plain C over one
 * struct: no helper calls, no loops, so the verifier takes it as is.
 */
#ifndef ZCB_SCHED_ACCT_H
#define ZCB_SCHED_ACCT_H

#ifdef __bpf__
#include <linux/types.h>
typedef __u64 zs_u64;
typedef __u32 zs_u32;
#define ZS_INLINE static __always_inline
#else
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint64_t zs_u64;
typedef uint32_t zs_u32;
#define ZS_INLINE static inline
#endif

/* The classes of task, by what runs at a switch. */
enum zs_class {
	ZS_IDLE,		/* the idle task (pid 0) */
	ZS_SOAKER,		/* a SCHED_IDLE task (cyclesoak's soakers):
				 * idle, to this meter */
	ZS_SELF,		/* the measuring process and its children */
	ZS_PEER,		/* named peers (--cpu-pid) and their children */
	ZS_OTHER,		/* every other task */
	ZS_NCLASS,
	ZS_UNKNOWN = ZS_NCLASS	/* before the CPU's first event */
};

/* Softirq vectors, as the kernel numbers them (NR_SOFTIRQS). */
#define ZS_NVEC 10

/* Slots of a CPU's cache of classes (zs_cache_*; its index mask is 7). */
#define ZS_NCACHE 8

/* Hardirq kinds: a device's irq, and the x86 vectors that are traced. */
enum zs_hirq {
	ZS_HI_DEVICE,		/* irq_handler_entry/exit */
	ZS_HI_TIMER,		/* local_timer_entry/exit */
	ZS_HI_RESCHED,		/* reschedule_entry/exit (an IPI) */
	ZS_HI_CALLFN,		/* call_function_entry/exit (an IPI) */
	ZS_HI_CALLFN1,		/* call_function_single_entry/exit */
	ZS_NHI
};

struct zs_cpu {
	zs_u64 seq_end;		/* updates finished (read first) */
	zs_u64 ts;		/* the last event, ns; the span after it is
				 * open */
	zs_u32 cls;		/* the current task's enum zs_class */
	zs_u32 sirq;		/* softirq running: vector + 1, 0 none */
	zs_u32 hirq;		/* hardirq running: kind + 1, 0 none */
	zs_u32 busy;		/* 1 while a softirq program updates */
	zs_u64 task_ns[ZS_NCLASS]; /* task time by class */
	zs_u64 sirq_ns[ZS_NCLASS]; /* softirq time by the class current */
	zs_u64 hirq_ns[ZS_NCLASS]; /* hardirq time by the class current */
	zs_u64 unknown_ns;	/* before the first event (never, once the
				 * CPU had one) */
	zs_u64 vec_ns[ZS_NVEC];	/* softirq time by vector */
	zs_u64 vec_n[ZS_NVEC];	/* softirqs run by vector */
	zs_u64 hi_ns[ZS_NHI];	/* hardirq time by kind */
	zs_u64 hi_n[ZS_NHI];	/* hardirqs by kind */
	zs_u64 switches;	/* sched_switch events */
	zs_u64 odd;		/* events out of order: an exit without its
				 * entry, a switch inside a handler */
	zs_u64 nested;		/* hardirqs whose program ran inside this
				 * CPU's softirq update: left to its span */
	zs_u64 cache[ZS_NCACHE]; /* zs_cache_*: tgid << 32 | generation << 3
				 * | class; 0 empty */
	zs_u64 steal_in;	/* the kernel's steal clock of this CPU, ns,
				 * as the event's program read it (0: none) */
	zs_u64 steal_seen;	/* the steal clock at the last event taken
				 * (ZS_STEAL_UNSEEN before the first) */
	zs_u64 steal_owed;	/* steal seen, not yet taken from a span */
	zs_u64 steal_ns;	/* steal taken from spans: no context's */
	/* the task current (zs_missed), and what a program hands in */
	zs_u64 cur_pid;		/* its pid (ZS_NOPID: not known) */
	zs_u64 cur_task;	/* its task_struct, to read its runtime */
	zs_u64 cur_ns;		/* ns charged while it was current */
	zs_u64 missed;		/* switches the kernel did not report */
	zs_u64 pid_in;		/* the task current at the event */
	zs_u64 cls_in;		/* its class, task and runtime since it was */
	zs_u64 task_in;		/* switched in (set only when it is not */
	zs_u64 ran_in;		/* cur_pid) */
	zs_u64 old_ran_in;	/* cur_task's runtime since it was switched
				 * in (ZS_NORAN: not known) */
	zs_u64 next_pid_in;	/* sched_switch: next's pid and task */
	zs_u64 next_task_in;
	zs_u64 spare[3];	/* to 640 bytes: a CPU's counters share no
				 * cache line with another's */
	zs_u64 seq_begin;	/* updates started (read last) */
};

#ifdef __bpf__
#define ZS_BARRIER() asm volatile("" ::: "memory")
#else
#define ZS_BARRIER() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/*
 * An array index already checked against its bound, masked once more
 * (m: the bound's power of two, less 1) where the verifier can see it:
 * the compiler may otherwise index with a copy taken before the check,
 * which the verifier does not know to be bounded. The mask never changes
 * a checked index.
 */
#ifdef __bpf__
#define ZS_IDX(x, m)                                                         \
	({                                                                   \
		zs_u64 i_ = (x);                                             \
		asm volatile("%0 &= " #m : "+r"(i_));                        \
		i_;                                                          \
	})
#else
#define ZS_IDX(x, m) ((x) & (m))
#endif

#define ZS_STEAL_UNSEEN (~(zs_u64)0)
#define ZS_NOPID (~(zs_u64)0)
#define ZS_NORAN (~(zs_u64)0)

/* A CPU before any event: its spans count from t0, class unknown. */
ZS_INLINE void zs_init(struct zs_cpu *c, zs_u64 t0)
{
	c->ts = t0;
	c->cls = ZS_UNKNOWN;
	c->sirq = 0;
	c->hirq = 0;
	c->steal_seen = ZS_STEAL_UNSEEN;
	c->steal_owed = 0;
	c->cur_pid = ZS_NOPID;
	c->pid_in = ZS_NOPID;
	c->next_pid_in = ZS_NOPID;
}

/* A cache slot's word: the tgid, the generation (29 bits) and a class
 * (3 bits, 0 here). */
ZS_INLINE zs_u64 zs_cache_key(zs_u32 tgid, zs_u32 gen)
{
	return (zs_u64)tgid << 32 | (zs_u64)(gen & 0x1fffffff) << 3;
}

/* The class of process tgid filed on this CPU under generation gen, or
 * ZS_NCLASS when it is not there (another process in its slot, or an
 * older generation). */
ZS_INLINE zs_u32 zs_cache_get(const struct zs_cpu *c, zs_u32 tgid,
			      zs_u32 gen)
{
	zs_u64 e = c->cache[ZS_IDX(tgid, 7)];

	if ((e & ~(zs_u64)7) != zs_cache_key(tgid, gen))
		return ZS_NCLASS;
	return (zs_u32)(e & 7);
}

ZS_INLINE void zs_cache_put(struct zs_cpu *c, zs_u32 tgid, zs_u32 gen,
			    zs_u32 cls)
{
	c->cache[ZS_IDX(tgid, 7)] = zs_cache_key(tgid, gen) | (cls & 7);
}

/* Steal owed taken from a span of d ns: what is left of it. */
ZS_INLINE zs_u64 zs_unsteal(struct zs_cpu *c, zs_u64 d)
{
	zs_u64 k = d < c->steal_owed ? d : c->steal_owed;

	c->steal_owed -= k;
	c->steal_ns += k;
	return d - k;
}

/* The span since the last event, its start moved to now, less the steal
 * the kernel's clock has seen since the last event (owed until a span
 * holds it); none, and the start kept, when now is not past it (a
 * hardirq's program ran between this program's clock and its update).
 * The steal clock never goes back: a nested program's newer reading
 * taken first leaves the older one nothing. */
ZS_INLINE zs_u64 zs_span(struct zs_cpu *c, zs_u64 now)
{
	zs_u64 t = c->ts, in = c->steal_in;

	if (c->steal_seen == ZS_STEAL_UNSEEN) {
		c->steal_seen = in;
	} else if (in > c->steal_seen) {
		c->steal_owed += in - c->steal_seen;
		c->steal_seen = in;
	}
	if (now <= t)
		return 0;
	c->ts = now;
	return zs_unsteal(c, now - t);
}

/* Charge d ns to what runs: the hardirq, else the softirq, else the
 * task; cls is the class current (the first event names it). */
ZS_INLINE void zs_charge(struct zs_cpu *c, zs_u64 d, zs_u32 hirq,
			 zs_u32 sirq, zs_u32 cls)
{
	if (cls >= ZS_NCLASS) {
		c->unknown_ns += d;
		return;
	}
	c->cur_ns += d;
	if (hirq && hirq <= ZS_NHI) {
		c->hi_ns[ZS_IDX(hirq - 1, 7)] += d;
		c->hirq_ns[ZS_IDX(cls, 7)] += d;
	} else if (sirq && sirq <= ZS_NVEC) {
		c->vec_ns[ZS_IDX(sirq - 1, 15)] += d;
		c->sirq_ns[ZS_IDX(cls, 7)] += d;
	} else {
		c->task_ns[ZS_IDX(cls, 7)] += d;
	}
}

/* The task current at an event (pid_in) is not the one the last switch
 * named: a switch the kernel did not report (some kernels trace no
 * switch away from some tasks: a VM's agent's, seen here). The span
 * since the last event is split where that switch must have been: the
 * old task keeps what of its runtime since it was switched in (the
 * kernel's, old_ran_in) was not yet charged to it; without that, the
 * new task gets what it has run since it was switched in (ran_in). */
ZS_INLINE void zs_missed(struct zs_cpu *c, zs_u64 now)
{
	zs_u64 pid = c->pid_in, d, old;

	if (pid == ZS_NOPID || pid == c->cur_pid)
		return;
	if (c->cur_pid == ZS_NOPID) { /* the first event names it */
		c->cur_pid = pid;
		return;
	}
	c->missed++;
	d = zs_span(c, now);
	if (c->old_ran_in != ZS_NORAN)
		old = c->old_ran_in > c->cur_ns ? c->old_ran_in - c->cur_ns : 0;
	else
		old = d > c->ran_in ? d - c->ran_in : 0;
	if (old > d)
		old = d;
	zs_charge(c, old, c->hirq, c->sirq, c->cls);
	c->cls = c->cls_in < ZS_NCLASS ? (zs_u32)c->cls_in : ZS_OTHER;
	c->cur_pid = pid;
	c->cur_task = c->task_in;
	c->cur_ns = 0;
	zs_charge(c, d - old, c->hirq, c->sirq, c->cls);
}

/* An event begins: the first one names the current task's class, any
 * switch not reported is made good (zs_missed). The counts of updates
 * begun and ended fence the update for a reader. */
ZS_INLINE void zs_begin(struct zs_cpu *c, zs_u64 now, zs_u32 cur)
{
	c->seq_begin++;
	ZS_BARRIER();
	if (c->cls >= ZS_NCLASS && cur < ZS_NCLASS)
		c->cls = cur;
	zs_missed(c, now);
}

ZS_INLINE void zs_end(struct zs_cpu *c)
{
	ZS_BARRIER();
	c->seq_end++;
}

/* A softirq program's update begins (1) or has ended (0): one store, so
 * an interrupt falls wholly before the mark or after it. */
ZS_INLINE void zs_mark(struct zs_cpu *c, zs_u32 on)
{
	ZS_BARRIER();
	*(volatile zs_u32 *)&c->busy = on;
	ZS_BARRIER();
}

/* A hardirq's program inside this CPU's softirq update (interrupts are
 * on there): it leaves the state alone, and is counted. */
ZS_INLINE int zs_nested(struct zs_cpu *c)
{
	if (!c->busy)
		return 0;
	c->nested++;
	return 1;
}

/* sched_switch from a task of class prev to one of class next
 * (interrupts are off); next's pid and task handed in (next_*_in). */
ZS_INLINE void zs_switch(struct zs_cpu *c, zs_u64 now, zs_u32 prev,
			 zs_u32 next)
{
	zs_begin(c, now, prev);
	zs_charge(c, zs_span(c, now), c->hirq, c->sirq, c->cls);
	if (c->hirq || c->sirq) { /* no switch happens inside a handler */
		c->odd++;
		c->hirq = 0;
		c->sirq = 0;
	}
	c->cls = next < ZS_NCLASS ? next : ZS_OTHER;
	c->cur_pid = c->next_pid_in;
	c->cur_task = c->next_task_in;
	c->cur_ns = 0;
	c->switches++;
	zs_end(c);
}

/* A hardirq of kind (enum zs_hirq) begins; cur: the current task
 * (interrupts are off). */
ZS_INLINE void zs_irq_enter(struct zs_cpu *c, zs_u64 now, zs_u32 kind,
			    zs_u32 cur)
{
	if (kind >= ZS_NHI || zs_nested(c))
		return;
	zs_begin(c, now, cur);
	/* the tick names the current task afresh: it has run since the
	 * last switch, so a class learnt late (a process told apart after
	 * it was switched in) is right from here, back to that switch */
	if (kind == ZS_HI_TIMER && cur < ZS_NCLASS && !c->hirq && !c->sirq)
		c->cls = cur;
	zs_charge(c, zs_span(c, now), c->hirq, c->sirq, c->cls);
	if (c->hirq)
		c->odd++; /* hardirqs do not nest */
	c->hirq = kind + 1;
	c->hi_n[ZS_IDX(kind, 7)]++;
	zs_end(c);
}

ZS_INLINE void zs_irq_exit(struct zs_cpu *c, zs_u64 now, zs_u32 kind,
			   zs_u32 cur)
{
	zs_u32 h;

	if (kind >= ZS_NHI || zs_nested(c))
		return;
	zs_begin(c, now, cur);
	h = c->hirq;
	if (h != kind + 1) { /* its entry was not seen: the span was it */
		c->odd++;
		h = kind + 1;
	}
	zs_charge(c, zs_span(c, now), h, 0, c->cls);
	c->hirq = 0;
	zs_end(c);
}

/* A softirq of vector vec begins (from irq exit, or in ksoftirqd);
 * interrupts are on, so a hardirq's program may nest (zs_nested). */
ZS_INLINE void zs_sirq_enter(struct zs_cpu *c, zs_u64 now, zs_u32 vec,
			     zs_u32 cur)
{
	if (vec >= ZS_NVEC)
		return;
	zs_mark(c, 1);
	zs_begin(c, now, cur);
	zs_charge(c, zs_span(c, now), c->hirq, c->sirq, c->cls);
	if (c->sirq || c->hirq)
		c->odd++; /* softirqs do not nest, nor run in a hardirq */
	c->hirq = 0;
	c->sirq = vec + 1;
	c->vec_n[ZS_IDX(vec, 15)]++;
	zs_end(c);
	zs_mark(c, 0);
}

ZS_INLINE void zs_sirq_exit(struct zs_cpu *c, zs_u64 now, zs_u32 vec,
			    zs_u32 cur)
{
	zs_u32 s;

	if (vec >= ZS_NVEC)
		return;
	zs_mark(c, 1);
	zs_begin(c, now, cur);
	s = c->sirq;
	if (s != vec + 1 || c->hirq) {
		c->odd++;
		s = vec + 1;
	}
	zs_charge(c, zs_span(c, now), 0, s, c->cls);
	c->sirq = 0;
	c->hirq = 0;
	zs_end(c);
	zs_mark(c, 0);
}

#ifndef __bpf__
/*
 * The reader's side. zs_copy: a consistent copy of a CPU's struct that
 * another CPU updates (seq_end first, seq_begin last; 0, or -1 when
 * every try met an update in progress). zs_close: charge the span open
 * at now, on the copy.
 */
static inline int zs_copy(struct zs_cpu *dst, const volatile struct zs_cpu *src,
			  int tries)
{
	const volatile zs_u64 *s = (const volatile zs_u64 *)src;
	zs_u64 *d = (zs_u64 *)dst;
	size_t i, n = sizeof(*dst) / sizeof(zs_u64);

	memset(dst, 0, sizeof(*dst));
	/* every word an acquire load: each keeps the loads after it after
	 * it, so the last word (seq_begin) is read after all the data, as a
	 * fence would keep it, and ThreadSanitizer (which refuses fences)
	 * sees the order; free on x86 */
	while (tries-- > 0) {
		for (i = 0; i < n; i++)
			d[i] = __atomic_load_n(&s[i], __ATOMIC_ACQUIRE);
		if (dst->seq_begin == dst->seq_end)
			return 0;
	}
	return -1;
}

static inline void zs_close(struct zs_cpu *c, zs_u64 now)
{
	zs_u64 d = now > c->ts ? now - c->ts : 0;

	c->ts = now;
	zs_charge(c, zs_unsteal(c, d), c->hirq, c->sirq, c->cls);
}

/* All the time a CPU's struct has accounted, steal with it. */
static inline zs_u64 zs_total(const struct zs_cpu *c)
{
	zs_u64 t = c->unknown_ns + c->steal_ns;
	int i;

	for (i = 0; i < ZS_NCLASS; i++)
		t += c->task_ns[i] + c->sirq_ns[i] + c->hirq_ns[i];
	return t;
}
#endif

#endif
