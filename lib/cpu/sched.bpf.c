// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * sched.bpf.c: the sched meter's BPF program. BTF-typed tracepoints
 * (tp_btf: no tracefs needed) feed each CPU's accounting (sched_acct.h)
 * in the map "cpus", indexed by CPU and mapped by the reader. Nothing
 * is sent to user space: the reader copies the counters when it wants.
 * The x86 vector programs are loaded only where the kernel has their
 * tracepoints (the loader checks the BTF first).
 *
 * A task's class: pid 0 is the idle task, a SCHED_IDLE task a soaker,
 * a process in "tracked" self or a peer (a fork of one is added), any
 * other task other. What "tracked" said of a process is kept in the
 * CPU's cache (sched_acct.h) under tracked_gen, which whoever changes
 * "tracked" moves on (the loader, on_newtask): a switch to a process
 * seen lately looks nothing up.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sched_kern.h"
#include "sched_acct.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct zs_cpu);
	__uint(max_entries, 1);	/* the possible CPUs, set at load */
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);	/* tgid */
	__type(value, __u32);	/* ZS_SELF or ZS_PEER */
	__uint(max_entries, 1024); /* SCHED_MAX_PIDS */
} tracked SEC(".maps");

/* The generation of "tracked": moved on after every change to it. */
volatile __u32 tracked_gen = 1;

/* The steal clock of the CPU task t is current on: what its runqueue
 * clock has taken out, up to its last update (at a switch, a tick); 0
 * without steal accounting, or where it cannot be reached. */
static __always_inline __u64 steal_of(struct task_struct *t)
{
	struct cfs_rq *q;
	struct rq *rq;

	if (!t || !bpf_core_field_exists(struct rq, prev_steal_time_rq) ||
	    !bpf_core_field_exists(struct cfs_rq, rq) ||
	    !bpf_core_field_exists(struct sched_entity, cfs_rq))
		return 0;
	q = t->se.cfs_rq;
	if (!q)
		return 0;
	rq = q->rq;
	return rq ? rq->prev_steal_time_rq : 0;
}

/* This CPU's accounting, the steal clock handed in for the event (t:
 * the task current, or about to be). A hardirq's program nested in a
 * softirq's may write it under that update: a newer reading, never an
 * older one. */
static __always_inline struct zs_cpu *this_cpu(struct task_struct *t)
{
	__u32 k = bpf_get_smp_processor_id();
	struct zs_cpu *c = bpf_map_lookup_elem(&cpus, &k);

	if (c)
		c->steal_in = steal_of(t);
	return c;
}

/* What task t has run since it was last switched in, by the kernel. */
static __always_inline __u64 ran_of(struct task_struct *t)
{
	__u64 s = t->se.sum_exec_runtime, p = t->se.prev_sum_exec_runtime;

	return s > p ? s - p : 0;
}

/* The same of the task the CPU last named current, read from its
 * address (it may have gone: its pid must still be the one named). */
static __always_inline __u64 old_ran(struct zs_cpu *c)
{
	struct task_struct *o = (struct task_struct *)c->cur_task;
	__u64 s = 0, p = 0;
	int pid = -1;

	if (!o || bpf_core_read(&pid, sizeof(pid), &o->pid) ||
	    (__u64)(__u32)pid != c->cur_pid ||
	    bpf_core_read(&s, sizeof(s), &o->se.sum_exec_runtime) ||
	    bpf_core_read(&p, sizeof(p), &o->se.prev_sum_exec_runtime))
		return ZS_NORAN;
	return s > p ? s - p : 0;
}

static __always_inline __u32 class_of(struct zs_cpu *c, struct task_struct *t);

/* Hand in the task current at an event (t): when it is not the one the
 * CPU names, a switch went unreported, and zs_missed needs its class,
 * its runtime and the old task's. */
static __always_inline void see_task(struct zs_cpu *c, struct task_struct *t)
{
	__u64 pid = (__u32)t->pid;

	c->pid_in = pid;
	if (pid == c->cur_pid || c->cur_pid == ZS_NOPID)
		return;
	c->cls_in = class_of(c, t);
	c->task_in = (__u64)t;
	c->ran_in = ran_of(t);
	c->old_ran_in = old_ran(c);
}

/* Task t's class, from CPU c's cache or else "tracked" (the generation
 * read first: a change after it files what was found under the older
 * one, looked up again next time). */
static __always_inline __u32 class_of(struct zs_cpu *c, struct task_struct *t)
{
	__u32 tgid, gen, cls, *v;

	if (!t)
		return ZS_OTHER;
	if (t->pid == 0)
		return ZS_IDLE;
	if (t->policy == SCHED_IDLE)
		return ZS_SOAKER;
	tgid = (__u32)t->tgid;
	gen = tracked_gen;
	cls = zs_cache_get(c, tgid, gen);
	if (cls < ZS_NCLASS)
		return cls;
	v = bpf_map_lookup_elem(&tracked, &tgid);
	cls = v && *v < ZS_NCLASS ? *v : ZS_OTHER;
	zs_cache_put(c, tgid, gen, cls);
	return cls;
}

/* This CPU's accounting at an interrupt's event, the current task handed
 * in (see_task). */
static __always_inline struct zs_cpu *cur_cpu(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct zs_cpu *c = this_cpu(t);

	if (c && t)
		see_task(c, t);
	return c;
}

/* The current task's class, looked up only while the CPU's is not
 * known yet (its first event). */
static __always_inline __u32 cur_class(struct zs_cpu *c)
{
	if (c->cls < ZS_NCLASS)
		return c->cls;
	return class_of(c, bpf_get_current_task_btf());
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, int preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct zs_cpu *c = this_cpu(next);
	__u32 pc;

	if (!c || !prev || !next)
		return 0;
	see_task(c, prev);
	/* prev's class is the CPU's, once known and prev is its task */
	pc = c->cls < ZS_NCLASS && c->pid_in == c->cur_pid ? c->cls :
							      class_of(c, prev);
	c->next_pid_in = (__u32)next->pid;
	c->next_task_in = (__u64)next;
	zs_switch(c, bpf_ktime_get_ns(), pc, class_of(c, next));
	return 0;
}

/* A new process whose parent is told apart is told apart too: named in
 * copy_process, before it can ever run. */
SEC("tp_btf/task_newtask")
int BPF_PROG(on_newtask, struct task_struct *child, unsigned long flags)
{
	struct task_struct *parent = bpf_get_current_task_btf();
	__u32 pt = (__u32)parent->tgid, ct = (__u32)child->tgid, *cls;

	if (pt == ct)
		return 0; /* a thread */
	cls = bpf_map_lookup_elem(&tracked, &pt);
	if (cls && !bpf_map_update_elem(&tracked, &ct, cls, BPF_NOEXIST))
		__sync_fetch_and_add(&tracked_gen, 1);
	return 0;
}

/* An interrupt's entry or exit in a CPU's accounting: zs_irq_enter,
 * zs_irq_exit, zs_sirq_enter or zs_sirq_exit (what: a kind, a vector). */
typedef void (*irq_event)(struct zs_cpu *c, __u64 now, __u32 what,
			  __u32 cur);

/* Event ev of what on this CPU, at the current task's class; 0. */
static __always_inline int cpu_event(irq_event ev, __u32 what)
{
	struct zs_cpu *c = cur_cpu();

	if (c)
		ev(c, bpf_ktime_get_ns(), what, cur_class(c));
	return 0;
}

/*
 * A pair of programs for a hardirq's entry and exit tracepoints
 * (<tp>_entry, <tp>_exit), named on_<name>_entry and on_<name>_exit (the
 * loader picks the x86 vectors' by those names).
 */
#define HARDIRQ_PROGS(tp, name, kind)                                        \
	SEC("tp_btf/" #tp "_entry")                                          \
	int BPF_PROG(on_##name##_entry, int arg)                             \
	{                                                                    \
		return cpu_event(zs_irq_enter, kind);                        \
	}                                                                    \
	SEC("tp_btf/" #tp "_exit")                                           \
	int BPF_PROG(on_##name##_exit, int arg)                              \
	{                                                                    \
		return cpu_event(zs_irq_exit, kind);                         \
	}

HARDIRQ_PROGS(irq_handler, irq, ZS_HI_DEVICE)

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_sirq_entry, unsigned int vec)
{
	return cpu_event(zs_sirq_enter, vec);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_sirq_exit, unsigned int vec)
{
	return cpu_event(zs_sirq_exit, vec);
}

/* x86 irq_vectors: the local timer and the IPIs */
/* the tick: the current task's class looked up afresh (zs_irq_enter) */
SEC("tp_btf/local_timer_entry")
int BPF_PROG(on_timer_entry, int vector)
{
	struct zs_cpu *c = cur_cpu();

	if (c)
		zs_irq_enter(c, bpf_ktime_get_ns(), ZS_HI_TIMER,
			     class_of(c, bpf_get_current_task_btf()));
	return 0;
}

SEC("tp_btf/local_timer_exit")
int BPF_PROG(on_timer_exit, int vector)
{
	return cpu_event(zs_irq_exit, ZS_HI_TIMER);
}

HARDIRQ_PROGS(reschedule, resched, ZS_HI_RESCHED)
HARDIRQ_PROGS(call_function, callfn, ZS_HI_CALLFN)
HARDIRQ_PROGS(call_function_single, callfn1, ZS_HI_CALLFN1)
