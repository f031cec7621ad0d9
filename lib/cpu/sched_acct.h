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
	zs_u64 spare[2];	/* to 512 bytes: a CPU's counters share no
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

/* A CPU before any event: its spans count from t0, class unknown. */
ZS_INLINE void zs_init(struct zs_cpu *c, zs_u64 t0)
{
	c->ts = t0;
	c->cls = ZS_UNKNOWN;
	c->sirq = 0;
	c->hirq = 0;
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

/* The span since the last event, its start moved to now; none, and the
 * start kept, when now is not past it (a hardirq's program ran between
 * this program's clock and its update). */
ZS_INLINE zs_u64 zs_span(struct zs_cpu *c, zs_u64 now)
{
	zs_u64 t = c->ts;

	if (now <= t)
		return 0;
	c->ts = now;
	return now - t;
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

/* An event begins: the first one names the current task's class. The
 * counts of updates begun and ended fence the update for a reader. */
ZS_INLINE void zs_begin(struct zs_cpu *c, zs_u32 cur)
{
	c->seq_begin++;
	ZS_BARRIER();
	if (c->cls >= ZS_NCLASS && cur < ZS_NCLASS)
		c->cls = cur;
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
 * (interrupts are off). */
ZS_INLINE void zs_switch(struct zs_cpu *c, zs_u64 now, zs_u32 prev,
			 zs_u32 next)
{
	zs_begin(c, prev);
	zs_charge(c, zs_span(c, now), c->hirq, c->sirq, c->cls);
	if (c->hirq || c->sirq) { /* no switch happens inside a handler */
		c->odd++;
		c->hirq = 0;
		c->sirq = 0;
	}
	c->cls = next < ZS_NCLASS ? next : ZS_OTHER;
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
	zs_begin(c, cur);
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
	zs_begin(c, cur);
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
	zs_begin(c, cur);
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
	zs_begin(c, cur);
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
	zs_charge(c, d, c->hirq, c->sirq, c->cls);
}

/* All the time a CPU's struct has accounted. */
static inline zs_u64 zs_total(const struct zs_cpu *c)
{
	zs_u64 t = c->unknown_ns;
	int i;

	for (i = 0; i < ZS_NCLASS; i++)
		t += c->task_ns[i] + c->sirq_ns[i] + c->hirq_ns[i];
	return t;
}
#endif

#endif
