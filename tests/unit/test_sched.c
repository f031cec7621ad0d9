/*
 * test_sched.c: the sched meter without the kernel. Canned event streams
 * drive the accounting the BPF program runs (sched_acct.h): idle entered
 * and left, an irq nested in a softirq, a CPU that never switches, a
 * span open when the counters are read, a soaker (SCHED_IDLE) current,
 * steal taken out of the spans, switches the kernel did not trace,
 * exits whose entries came before the meter, a hardirq whose program
 * runs inside the meter's own softirq update; then two readings through
 * sched_summarize to the figures, and the figures through JSON and back
 * (checked: they may come from a peer), the metrics and the lines; the
 * meter where it cannot run (not root: one line, the set goes on with
 * procstat) and, where this box lets BPF run, a live window.
 */
#include "config.h"
#include "cpujson.h"
#include "meter.h"
#include "result.h"
#include "schedcpu.h"
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS 1000000ull /* ns */

static struct zs_cpu fresh(zs_u64 t0)
{
	struct zs_cpu c;

	memset(&c, 0, sizeof(c));
	zs_init(&c, t0);
	return c;
}

/* A reading of c at now: a copy, its open span closed. */
static struct zs_cpu reading(const struct zs_cpu *c, zs_u64 now)
{
	struct zs_cpu r;

	T_ASSERT(zs_copy(&r, c, 1) == 0);
	zs_close(&r, now);
	return r;
}

/* Idle, then a task of ours, then idle again: each span to its class. */
static void idle_entered_and_left(void)
{
	struct zs_cpu c = fresh(0), r;

	zs_switch(&c, 10 * MS, ZS_IDLE, ZS_SELF); /* attached while idle */
	zs_switch(&c, 40 * MS, ZS_SELF, ZS_IDLE);
	zs_switch(&c, 70 * MS, ZS_IDLE, ZS_OTHER);
	zs_switch(&c, 80 * MS, ZS_OTHER, ZS_IDLE);
	r = reading(&c, 100 * MS);
	T_CHECK(r.task_ns[ZS_IDLE] == 10 * MS + 30 * MS + 20 * MS);
	T_CHECK(r.task_ns[ZS_SELF] == 30 * MS);
	T_CHECK(r.task_ns[ZS_OTHER] == 10 * MS);
	T_CHECK(r.switches == 4);
	T_CHECK(r.unknown_ns == 0 && r.odd == 0);
	T_CHECK(zs_total(&r) == 100 * MS);
	/* the state itself is not changed by a reading */
	T_CHECK(c.task_ns[ZS_IDLE] == 40 * MS && c.ts == 80 * MS);
}

/* A softirq (NET_RX) in our task, a hardirq inside it, then the timer
 * vector while idle. */
static void irq_nested_in_softirq(void)
{
	struct zs_cpu c = fresh(0), r;

	zs_switch(&c, 0, ZS_IDLE, ZS_SELF);
	zs_sirq_enter(&c, 10 * MS, 3, ZS_SELF);
	zs_irq_enter(&c, 12 * MS, ZS_HI_DEVICE, ZS_SELF);
	zs_irq_exit(&c, 13 * MS, ZS_HI_DEVICE, ZS_SELF);
	zs_sirq_exit(&c, 20 * MS, 3, ZS_SELF);
	zs_switch(&c, 30 * MS, ZS_SELF, ZS_IDLE);
	zs_irq_enter(&c, 40 * MS, ZS_HI_TIMER, ZS_IDLE);
	zs_irq_exit(&c, 41 * MS, ZS_HI_TIMER, ZS_IDLE);
	zs_sirq_enter(&c, 41 * MS, 1, ZS_IDLE);
	zs_sirq_exit(&c, 43 * MS, 1, ZS_IDLE);
	r = reading(&c, 50 * MS);
	T_CHECK(r.task_ns[ZS_SELF] == 10 * MS + 10 * MS);
	T_CHECK(r.vec_ns[3] == 9 * MS && r.vec_n[3] == 1);
	T_CHECK(r.sirq_ns[ZS_SELF] == 9 * MS);
	T_CHECK(r.hi_ns[ZS_HI_DEVICE] == 1 * MS && r.hi_n[ZS_HI_DEVICE] == 1);
	T_CHECK(r.hirq_ns[ZS_SELF] == 1 * MS);
	T_CHECK(r.hi_ns[ZS_HI_TIMER] == 1 * MS);
	T_CHECK(r.hirq_ns[ZS_IDLE] == 1 * MS);
	T_CHECK(r.vec_ns[1] == 2 * MS && r.sirq_ns[ZS_IDLE] == 2 * MS);
	T_CHECK(r.task_ns[ZS_IDLE] == 10 * MS + 7 * MS);
	T_CHECK(zs_total(&r) == 50 * MS && r.odd == 0);
}

/* A CPU spinning in one task the whole window: only timer ticks. The
 * first tick names the task current since the meter attached. */
static void never_switches(void)
{
	struct zs_cpu c = fresh(5 * MS), a, b;
	struct sched_summary s;
	double pc, busy;
	zs_u64 t;

	for (t = 9 * MS; t < 1000 * MS; t += 4 * MS) {
		if (t == 101 * MS)
			a = reading(&c, 100 * MS);
		zs_irq_enter(&c, t, ZS_HI_TIMER, ZS_OTHER);
		zs_irq_exit(&c, t + 20000, ZS_HI_TIMER, ZS_OTHER);
	}
	T_CHECK(c.cls == ZS_OTHER && c.unknown_ns == 0);
	b = reading(&c, 1100 * MS);
	/* a process told apart after it was switched in: the next tick
	 * names it, and the span back to the last event is its */
	c = fresh(0);
	zs_switch(&c, 0, ZS_IDLE, ZS_OTHER);
	zs_irq_enter(&c, 4 * MS, ZS_HI_TIMER, ZS_SELF);
	zs_irq_exit(&c, 5 * MS, ZS_HI_TIMER, ZS_SELF);
	T_CHECK(c.cls == ZS_SELF && c.task_ns[ZS_SELF] == 4 * MS);
	zs_irq_enter(&c, 6 * MS, ZS_HI_RESCHED, ZS_OTHER); /* not a tick */
	T_CHECK(c.cls == ZS_SELF);
	T_CHECK(b.switches == 0);
	busy = sched_summarize(&a, &b, 1, &s, &pc);
	T_NEAR(busy, 100, 1e-9);
	T_NEAR(pc, 100, 1e-9);
	T_NEAR(s.other_pct + s.hardirq_pct, 100, 1e-9);
	T_NEAR(s.hi_pct[ZS_HI_TIMER], 225 * 0.02 / 1000 * 100, 1e-9);
	T_CHECK(s.hi_n[ZS_HI_TIMER] == 225);
}

/* The counters read in the middle of an idle span and of a softirq: the
 * reader closes the span; the next reading continues from there. */
static void span_open_at_read(void)
{
	struct zs_cpu c = fresh(0), a, b;
	struct sched_summary s;
	double busy;

	zs_switch(&c, 0, ZS_OTHER, ZS_IDLE);
	a = reading(&c, 30 * MS); /* 30 ms into an idle span */
	T_CHECK(a.task_ns[ZS_IDLE] == 30 * MS);
	zs_switch(&c, 50 * MS, ZS_IDLE, ZS_PEER);
	zs_sirq_enter(&c, 60 * MS, 3, ZS_PEER);
	b = reading(&c, 70 * MS); /* 10 ms into NET_RX */
	busy = sched_summarize(&a, &b, 1, &s, NULL);
	/* the window: 20 ms idle, 10 ms peer, 10 ms NET_RX in the peer */
	T_NEAR(busy, 50, 1e-9);
	T_NEAR(s.idle_pct, 50, 1e-9);
	T_NEAR(s.peer_task_pct, 25, 1e-9);
	T_NEAR(s.peer_softirq_pct, 25, 1e-9);
	T_NEAR(s.peer_pct, 50, 1e-9);
	T_NEAR(s.vec_pct[3], 25, 1e-9);
	T_NEAR(s.softirq_pct, 25, 1e-9);
	/* a reading taken before the last event (clocks of two CPUs): the
	 * span is empty, never negative */
	b = reading(&c, 55 * MS);
	T_CHECK(zs_total(&b) == 60 * MS);
}

/* A soaker current: idle to this meter; its interrupts are busy. */
static void soaker_current(void)
{
	struct zs_cpu c = fresh(0), a, b;
	struct sched_summary s;
	double busy, pc;

	zs_switch(&c, 0, ZS_IDLE, ZS_SOAKER);
	a = reading(&c, 0);
	zs_irq_enter(&c, 50 * MS, ZS_HI_RESCHED, ZS_SOAKER);
	zs_irq_exit(&c, 51 * MS, ZS_HI_RESCHED, ZS_SOAKER);
	zs_sirq_enter(&c, 51 * MS, 7, ZS_SOAKER);
	zs_sirq_exit(&c, 52 * MS, 7, ZS_SOAKER);
	zs_switch(&c, 60 * MS, ZS_SOAKER, ZS_SELF);
	zs_switch(&c, 80 * MS, ZS_SELF, ZS_SOAKER);
	b = reading(&c, 100 * MS);
	busy = sched_summarize(&a, &b, 1, &s, &pc);
	T_NEAR(s.soaker_pct, 78, 1e-9);
	T_NEAR(s.idle_pct, 0, 1e-9);
	T_NEAR(busy, 22, 1e-9);
	T_NEAR(pc, 22, 1e-9);
	T_NEAR(s.self_pct, 20, 1e-9);
	T_NEAR(s.idle_softirq_pct, 1, 1e-9);
	T_NEAR(s.hardirq_pct, 1, 1e-9);
	T_NEAR(s.hi_pct[ZS_HI_RESCHED], 1, 1e-9);
	T_NEAR(s.vec_pct[7], 1, 1e-9);
}

/* An event with the steal clock at v (the BPF program hands it in). */
#define STEAL(c, v) ((c)->steal_in = (v))

/* Steal: the clock's first reading is the base; what it moved on by at
 * a switch comes out of the span that switch ends (the kernel takes it
 * out of the task's clock there); steal seen at the tick's exit, more
 * than the tick's own span, is owed to the span after it; an older
 * reading (a nested program's newer one came first) takes nothing back;
 * steal is neither busy nor anyone's, per CPU and on the box. */
static void steal(void)
{
	struct zs_cpu c = fresh(0), a, b;
	struct sched_summary s;
	double busy, pc;

	STEAL(&c, 500 * MS); /* since boot: not this window's */
	zs_switch(&c, 0, ZS_IDLE, ZS_SELF);
	a = reading(&c, 0);
	STEAL(&c, 510 * MS); /* 10 ms of self's 40 were stolen */
	zs_switch(&c, 40 * MS, ZS_SELF, ZS_OTHER);
	T_CHECK(c.task_ns[ZS_SELF] == 30 * MS && c.steal_ns == 10 * MS);
	STEAL(&c, 510 * MS);
	zs_irq_enter(&c, 50 * MS, ZS_HI_TIMER, ZS_OTHER);
	STEAL(&c, 515 * MS); /* the tick updated the clock: 5 ms more */
	zs_irq_exit(&c, 51 * MS, ZS_HI_TIMER, ZS_OTHER);
	T_CHECK(c.hirq_ns[ZS_OTHER] == 0 && c.steal_owed == 4 * MS);
	STEAL(&c, 512 * MS); /* older: nothing */
	zs_switch(&c, 60 * MS, ZS_OTHER, ZS_IDLE);
	T_CHECK(c.task_ns[ZS_OTHER] == 10 * MS + 5 * MS && c.steal_owed == 0);
	T_CHECK(c.steal_ns == 15 * MS && c.steal_seen == 515 * MS);
	b = reading(&c, 100 * MS);
	T_CHECK(zs_total(&b) == 100 * MS);
	busy = sched_summarize(&a, &b, 1, &s, &pc);
	T_NEAR(s.steal_pct, 15, 1e-9);
	T_NEAR(s.self_pct, 30, 1e-9);
	T_NEAR(s.other_pct, 15, 1e-9);
	T_NEAR(s.idle_pct, 40, 1e-9);
	T_NEAR(busy, 45, 1e-9);
	T_NEAR(pc, 45, 1e-9);
	T_NEAR(s.window_s, 0.1, 1e-12);
	/* a reading with steal owed gives it from the open span */
	c.steal_owed = 5 * MS;
	b = reading(&c, 200 * MS);
	T_CHECK(b.steal_ns == 20 * MS && b.task_ns[ZS_IDLE] == 40 * MS + 95 * MS);
}

/* What a program hands in: the task current at the event (pid, class,
 * its runtime since switched in) and the old task's runtime. */
static void task_in(struct zs_cpu *c, zs_u64 pid, zs_u32 cls, zs_u64 ran,
		    zs_u64 old_ran)
{
	c->pid_in = pid;
	c->cls_in = cls;
	c->task_in = 0x1000 + pid;
	c->ran_in = ran;
	c->old_ran_in = old_ran;
}

static void switch_to(struct zs_cpu *c, zs_u64 now, zs_u64 prev_pid,
		      zs_u32 prev, zs_u64 next_pid, zs_u32 next)
{
	task_in(c, prev_pid, prev, 0, ZS_NORAN);
	c->next_pid_in = next_pid;
	c->next_task_in = 0x1000 + next_pid;
	zs_switch(c, now, prev, next);
}

/* Switches the kernel did not trace (a VM's agent's, away from it):
 * the next event's current task is not the one named. The old task
 * keeps its runtime less what was charged to it already; without it,
 * the new task gets its own runtime since it was switched in. Noticed
 * at an interrupt (current is idle) or at the next traced switch (prev
 * is not the task named). */
static void missed_switches(void)
{
	struct zs_cpu c = fresh(0), r;

	switch_to(&c, 0, 0, ZS_IDLE, 76, ZS_OTHER); /* the agent */
	task_in(&c, 76, ZS_OTHER, 0, ZS_NORAN);
	zs_irq_enter(&c, 1 * MS, ZS_HI_DEVICE, ZS_OTHER); /* its own */
	zs_irq_exit(&c, 2 * MS, ZS_HI_DEVICE, ZS_OTHER);
	T_CHECK(c.missed == 0 && c.cur_ns == 2 * MS);
	/* it ran 3 ms, then went to idle unseen; noticed at 50 ms */
	task_in(&c, 0, ZS_IDLE, 0, 3 * MS);
	zs_irq_enter(&c, 50 * MS, ZS_HI_DEVICE, ZS_IDLE);
	zs_irq_exit(&c, 51 * MS, ZS_HI_DEVICE, ZS_IDLE);
	T_CHECK(c.missed == 1 && c.cur_pid == 0 && c.cur_task == 0x1000);
	T_CHECK(c.task_ns[ZS_OTHER] == 1 * MS + 1 * MS);
	T_CHECK(c.hirq_ns[ZS_OTHER] == 1 * MS);
	T_CHECK(c.task_ns[ZS_IDLE] == 47 * MS && c.hirq_ns[ZS_IDLE] == 1 * MS);
	/* idle to the agent, traced; away to ours unseen, whose runtime
	 * says it has run 20 ms; the agent's cannot be read */
	switch_to(&c, 60 * MS, 0, ZS_IDLE, 76, ZS_OTHER);
	task_in(&c, 77, ZS_SELF, 20 * MS, ZS_NORAN);
	zs_sirq_enter(&c, 90 * MS, 1, ZS_SELF);
	zs_sirq_exit(&c, 91 * MS, 1, ZS_SELF);
	T_CHECK(c.missed == 2 && c.task_ns[ZS_OTHER] == 2 * MS + 10 * MS);
	T_CHECK(c.task_ns[ZS_SELF] == 20 * MS && c.sirq_ns[ZS_SELF] == 1 * MS);
	/* the agent again, and the traced switch away from ours names ours
	 * as prev: the agent had run 4 ms */
	switch_to(&c, 100 * MS, 77, ZS_SELF, 76, ZS_OTHER);
	c.old_ran_in = 4 * MS;
	task_in(&c, 77, ZS_SELF, 0, 4 * MS);
	c.next_pid_in = 0;
	zs_switch(&c, 110 * MS, ZS_SELF, ZS_IDLE);
	T_CHECK(c.missed == 3 && c.task_ns[ZS_OTHER] == 12 * MS + 4 * MS);
	T_CHECK(c.task_ns[ZS_SELF] == 29 * MS + 6 * MS);
	T_CHECK(c.cls == ZS_IDLE && c.cur_pid == 0);
	/* a runtime longer than the span gives the old task the span */
	task_in(&c, 5, ZS_OTHER, 0, 100 * MS);
	zs_irq_enter(&c, 120 * MS, ZS_HI_DEVICE, ZS_OTHER);
	T_CHECK(c.missed == 4 && c.task_ns[ZS_IDLE] == 56 * MS + 10 * MS);
	r = reading(&c, 130 * MS);
	T_CHECK(zs_total(&r) == 130 * MS);
}

/* Attached inside a softirq and a hardirq: their exits come first. A
 * switch inside a handler is counted odd and ends it. */
static void exits_before_entries(void)
{
	struct zs_cpu c = fresh(0), r;

	zs_irq_exit(&c, 2 * MS, ZS_HI_CALLFN, ZS_OTHER);
	T_CHECK(c.cls == ZS_OTHER);
	zs_sirq_exit(&c, 5 * MS, 9, ZS_OTHER);
	zs_sirq_enter(&c, 6 * MS, 3, ZS_OTHER);
	zs_switch(&c, 8 * MS, ZS_OTHER, ZS_IDLE);
	r = reading(&c, 10 * MS);
	T_CHECK(r.hi_ns[ZS_HI_CALLFN] == 2 * MS);
	T_CHECK(r.vec_ns[9] == 3 * MS);
	T_CHECK(r.vec_ns[3] == 2 * MS);
	T_CHECK(r.task_ns[ZS_OTHER] == 1 * MS);
	T_CHECK(r.task_ns[ZS_IDLE] == 2 * MS);
	T_CHECK(r.odd == 3); /* two exits without entry, one switch */
	T_CHECK(r.sirq == 0 && r.hirq == 0);
	/* an event never seen: the span before it stays unknown */
	c = fresh(0);
	r = reading(&c, 7 * MS);
	T_CHECK(r.unknown_ns == 7 * MS);
	/* out-of-range vectors and kinds are ignored */
	zs_sirq_enter(&c, 8 * MS, ZS_NVEC, ZS_SELF);
	zs_irq_enter(&c, 8 * MS, ZS_NHI, ZS_SELF);
	T_CHECK(c.seq_begin == 0 && c.cls == ZS_UNKNOWN);
}

/* A hardirq whose program runs inside this CPU's softirq update (the
 * softirq programs run with interrupts on): it leaves the state alone
 * and is counted; its time stays with the span the update opens. And
 * one that runs after the softirq program read its clock but before its
 * update began: the span's start never goes back, so nothing counts
 * twice. */
static void hardirq_in_own_update(void)
{
	struct zs_cpu c = fresh(0), r, was;

	zs_switch(&c, 0, ZS_IDLE, ZS_SELF);
	/* softirq_entry's program at 10 ms, interrupted mid-update */
	zs_mark(&c, 1);
	c.seq_begin++;
	was = c;
	zs_irq_enter(&c, 11 * MS, ZS_HI_DEVICE, ZS_SELF);
	zs_irq_exit(&c, 12 * MS, ZS_HI_DEVICE, ZS_SELF);
	T_CHECK(c.ts == was.ts && c.hirq == 0 && c.hi_n[ZS_HI_DEVICE] == 0);
	T_CHECK(c.task_ns[ZS_SELF] == 0 && c.hi_ns[ZS_HI_DEVICE] == 0);
	T_CHECK(c.seq_begin == was.seq_begin && c.seq_end == was.seq_end);
	T_CHECK(c.nested == 2);
	c.seq_begin--; /* the update as the program makes it */
	zs_mark(&c, 0);
	zs_sirq_enter(&c, 10 * MS, 3, ZS_SELF);
	zs_sirq_exit(&c, 20 * MS, 3, ZS_SELF);
	r = reading(&c, 30 * MS);
	T_CHECK(r.task_ns[ZS_SELF] == 20 * MS && r.vec_ns[3] == 10 * MS);
	T_CHECK(zs_total(&r) == 30 * MS && r.odd == 0);
	/* softirq_exit's program read 40 ms; a hardirq's ran at 41-42 ms
	 * before that update began */
	c = fresh(0);
	zs_switch(&c, 0, ZS_IDLE, ZS_SELF);
	zs_sirq_enter(&c, 30 * MS, 3, ZS_SELF);
	zs_irq_enter(&c, 41 * MS, ZS_HI_DEVICE, ZS_SELF);
	zs_irq_exit(&c, 42 * MS, ZS_HI_DEVICE, ZS_SELF);
	zs_sirq_exit(&c, 40 * MS, 3, ZS_SELF);
	T_CHECK(c.ts == 42 * MS && c.sirq == 0);
	r = reading(&c, 50 * MS);
	T_CHECK(r.vec_ns[3] == 11 * MS && r.hi_ns[ZS_HI_DEVICE] == 1 * MS);
	T_CHECK(r.task_ns[ZS_SELF] == 30 * MS + 8 * MS);
	T_CHECK(zs_total(&r) == 50 * MS && r.nested == 0);
}

/* The CPU's cache of classes: a process found under the generation it
 * was filed with; gone when the generation moves on or another process
 * takes its slot. */
static void class_cache(void)
{
	struct zs_cpu c = fresh(0);

	T_CHECK(zs_cache_get(&c, 1234, 1) == ZS_NCLASS);
	zs_cache_put(&c, 1234, 5, ZS_SELF);
	T_CHECK(zs_cache_get(&c, 1234, 5) == ZS_SELF);
	T_CHECK(zs_cache_get(&c, 1234, 6) == ZS_NCLASS);
	T_CHECK(zs_cache_get(&c, 1234 + ZS_NCACHE, 5) == ZS_NCLASS);
	zs_cache_put(&c, 1235, 5, ZS_PEER);
	T_CHECK(zs_cache_get(&c, 1234, 5) == ZS_SELF);
	T_CHECK(zs_cache_get(&c, 1235, 5) == ZS_PEER);
	zs_cache_put(&c, 1234 + ZS_NCACHE, 5, ZS_OTHER);
	T_CHECK(zs_cache_get(&c, 1234, 5) == ZS_NCLASS);
	T_CHECK(zs_cache_get(&c, 1234 + ZS_NCACHE, 5) == ZS_OTHER);
	/* the largest tgid and generation keep their class */
	zs_cache_put(&c, 0xffffffffu, 0x1fffffffu, ZS_PEER);
	T_CHECK(zs_cache_get(&c, 0xffffffffu, 0x1fffffffu) == ZS_PEER);
	T_CHECK(zs_cache_get(&c, 0x7fffffffu, 0x1fffffffu) == ZS_NCLASS);
}

/* A copy taken while an update is in progress is refused. */
static void copy_in_progress(void)
{
	struct zs_cpu c = fresh(0), r;

	zs_switch(&c, 1 * MS, ZS_IDLE, ZS_SELF);
	T_CHECK(zs_copy(&r, &c, 3) == 0);
	c.seq_begin++; /* a writer started */
	T_CHECK(zs_copy(&r, &c, 3) == -1);
	c.seq_end++;
	T_CHECK(zs_copy(&r, &c, 3) == 0);
}

/* Two CPUs: one idle, one half busy in our task: 25% of the box. */
static void two_cpus(void)
{
	struct zs_cpu c[2] = {fresh(0), fresh(0)}, a[2], b[2];
	struct sched_summary s;
	double pc[2], busy;

	zs_switch(&c[0], 0, ZS_OTHER, ZS_IDLE);
	zs_switch(&c[1], 0, ZS_OTHER, ZS_IDLE);
	a[0] = reading(&c[0], 0);
	a[1] = reading(&c[1], 0);
	zs_switch(&c[1], 10 * MS, ZS_IDLE, ZS_SELF);
	zs_switch(&c[1], 60 * MS, ZS_SELF, ZS_IDLE);
	b[0] = reading(&c[0], 100 * MS);
	b[1] = reading(&c[1], 100 * MS);
	busy = sched_summarize(a, b, 2, &s, pc);
	T_NEAR(busy, 25, 1e-9);
	T_NEAR(pc[0], 0, 1e-9);
	T_NEAR(pc[1], 50, 1e-9);
	T_NEAR(s.self_pct, 25, 1e-9);
	T_CHECK(s.switches == 2);
	T_CHECK(sched_events(&s) == 2);
}

/* ZCB_SCHED_VECTORS: none by default, all, or a list; a word that is
 * not a vector is refused by name. */
static void vectors_setting(void)
{
	char err[256] = "";
	unsigned m = 7;

	T_CHECK(sched_vectors_parse(NULL, &m, err, sizeof(err)) == 0 && !m);
	T_CHECK(sched_vectors_parse("none", &m, err, sizeof(err)) == 0 && !m);
	T_CHECK(sched_vectors_parse("all", &m, err, sizeof(err)) == 0);
	T_CHECK(m == (1u << ZS_HI_TIMER | 1u << ZS_HI_RESCHED |
		      1u << ZS_HI_CALLFN | 1u << ZS_HI_CALLFN1));
	T_CHECK(sched_vectors_parse("local_timer,reschedule", &m, err,
				    sizeof(err)) == 0);
	T_CHECK(m == (1u << ZS_HI_TIMER | 1u << ZS_HI_RESCHED));
	T_CHECK(sched_vectors_parse("local_timer,nmi", &m, err, sizeof(err)) ==
		-EINVAL);
	T_CHECK(strstr(err, "ZCB_SCHED_VECTORS") && strstr(err, "\"nmi\""));
	T_CHECK(sched_vectors_parse("device", &m, err, sizeof(err)) == -EINVAL);
}

static void names(void)
{
	T_STREQ(sched_vec_name(3), "NET_RX");
	T_STREQ(sched_vec_name(9), "RCU");
	T_CHECK(sched_vec_name(10) == NULL);
	T_CHECK(sched_vec_find("NET_TX") == 2);
	T_CHECK(sched_vec_find("net_tx") == -1);
	T_STREQ(sched_hirq_name(ZS_HI_TIMER), "local_timer");
	T_CHECK(sched_hirq_find("call_function_single") == ZS_HI_CALLFN1);
	T_CHECK(sched_hirq_find("nmi") == -1);
}

static int has(json_t *sample, const char *name)
{
	return json_object_get(json_object_get(sample, "metrics"), name) !=
	       NULL;
}

static double metric(json_t *sample, const char *name)
{
	return json_number_value(
		json_object_get(json_object_get(sample, "metrics"), name));
}

static struct cpu_sample canned(void)
{
	struct cpu_sample s;

	memset(&s, 0, sizeof(s));
	snprintf(s.meter, sizeof(s.meter), "sched");
	s.ok = 1;
	s.ncpu = 2;
	s.elapsed_s = 1;
	s.busy_pct = 40;
	s.sched.self_pct = 20;
	s.sched.self_task_pct = 15;
	s.sched.self_softirq_pct = 5;
	s.sched.peer_pct = 10;
	s.sched.peer_task_pct = 10;
	s.sched.other_pct = 6;
	s.sched.hardirq_pct = 3;
	s.sched.idle_softirq_pct = 1;
	s.sched.softirq_pct = 6;
	s.sched.idle_pct = 55;
	s.sched.soaker_pct = 5;
	s.sched.steal_pct = 0.5;
	s.sched.vec_pct[3] = 5.5;
	s.sched.vec_n[3] = 1234;
	s.sched.vec_pct[9] = 0.5;
	s.sched.vec_n[9] = 7;
	s.sched.traced = 1u << ZS_HI_DEVICE | 1u << ZS_HI_TIMER;
	s.sched.hi_pct[ZS_HI_TIMER] = 2;
	s.sched.hi_n[ZS_HI_TIMER] = 1000;
	s.sched.switches = 4321;
	s.sched.missed = 12;
	s.sched.npeers = 1;
	return s;
}

/* The sample's JSON both ways, a hostile one refused, the metrics, the
 * lines. */
static void outputs(void)
{
	struct cpu_sample s = canned(), b;
	struct res_doc *d = res_new("t", 0, NULL);
	json_t *j, *x;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	j = cpu_sample_to_json(&s);
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == 0);
	T_NEAR(b.sched.self_pct, 20, 1e-9);
	T_NEAR(b.sched.self_softirq_pct, 5, 1e-9);
	T_NEAR(b.sched.peer_pct, 10, 1e-9);
	T_NEAR(b.sched.soaker_pct, 5, 1e-9);
	T_NEAR(b.sched.steal_pct, 0.5, 1e-9);
	T_NEAR(b.sched.vec_pct[3], 5.5, 1e-9);
	T_CHECK(b.sched.vec_n[3] == 1234 && b.sched.vec_n[9] == 7);
	T_CHECK(b.sched.traced == s.sched.traced);
	T_CHECK(b.sched.hi_n[ZS_HI_TIMER] == 1000);
	T_CHECK(b.sched.switches == 4321 && b.sched.npeers == 1);
	T_CHECK(b.sched.missed == 12);
	/* the kinds not traced are not in the document */
	x = json_object_get(json_object_get(j, "sched"), "hardirq");
	T_CHECK(json_object_size(x) == 2 && json_object_get(x, "local_timer"));
	/* from a peer: a share out of range, a vector we do not know, a
	 * negative count, a figure missing */
	x = json_object_get(j, "sched");
	json_object_set_new(x, "self_pct", json_real(1e9));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "sched") != NULL);
	json_object_set_new(x, "self_pct", json_real(20));
	json_object_set_new(json_object_get(x, "softirq"), "BOGUS",
			    json_pack("{s:f, s:i}", "pct", 1.0, "count", 1));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_object_del(json_object_get(x, "softirq"), "BOGUS");
	json_object_set_new(json_object_get(json_object_get(x, "softirq"),
					    "NET_RX"),
			    "count", json_integer(-1));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_object_set_new(json_object_get(json_object_get(x, "softirq"),
					    "NET_RX"),
			    "count", json_integer(1));
	json_object_set_new(x, "missed", json_integer(-3));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_object_set_new(x, "missed", json_integer(3));
	/* steal: out of range refused; absent (an older peer) is none */
	json_object_set_new(x, "steal_pct", json_real(-1));
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_object_del(x, "steal_pct");
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == 0);
	T_NEAR(b.sched.steal_pct, 0, 1e-9);
	json_object_del(x, "peer_pct");
	T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == -EINVAL);
	json_decref(j);
	/* metrics: the shares and every vector; stored as metered_ in a run
	 * slowed by soakers; sched is the primary when first */
	j = json_object();
	meter_add_metrics(d, j, "local", &s, 1, 0, 0);
	T_NEAR(metric(j, "cpu_local_sched_pct"), 40, 1e-9);
	T_NEAR(metric(j, "cpu_local_pct"), 40, 1e-9);
	T_NEAR(metric(j, "sched_local_self_pct"), 20, 1e-9);
	T_NEAR(metric(j, "sched_local_peer_pct"), 10, 1e-9);
	T_NEAR(metric(j, "sched_local_steal_pct"), 0.5, 1e-9);
	T_NEAR(metric(j, "sched_local_softirq_net_rx_pct"), 5.5, 1e-9);
	T_CHECK(has(j, "sched_local_softirq_rcu_pct"));
	T_NEAR(metric(j, "sched_local_hardirq_local_timer_pct"), 2, 1e-9);
	T_CHECK(!has(j, "sched_local_hardirq_reschedule_pct"));
	json_decref(j);
	j = json_object();
	meter_add_metrics(d, j, "remote", &s, 1, 0, 1);
	T_CHECK(has(j, "metered_sched_remote_self_pct"));
	T_CHECK(!has(j, "sched_remote_self_pct"));
	json_decref(j);
	/* the lines: the shares, the vectors that ran, the note */
	snprintf(s.note, sizeof(s.note), "traced: sched_switch");
	f = open_memstream(&buf, &len);
	meter_print(f, "local", &s, 1, 0);
	fclose(f);
	T_CHECK(strstr(buf, "sched     40.0% of 2 CPUs") != NULL);
	T_CHECK(strstr(buf, "self 20.0% (task 15.0, softirq 5.0)") != NULL);
	T_CHECK(strstr(buf, "NET_RX 5.50% (1234)") != NULL);
	T_CHECK(strstr(buf, "HI ") == NULL);
	T_CHECK(strstr(buf, "local_timer 2.00% (1000)") != NULL);
	T_CHECK(strstr(buf, "note: traced: sched_switch") != NULL);
	T_CHECK(strstr(buf, "steal 0.5% (not busy)") != NULL);
	free(buf);
	res_free(d);
}

/* Not root: the meter says why in one line, and the set goes on with
 * procstat (a child that gives up root for it). */
static void not_permitted(void)
{
	struct cpu_sample s[METER_MAX];
	struct meterset set;
	char err[256];
	int st, ok = 1, n;
	pid_t p;

	if (geteuid() != 0)
		return; /* then the live window below shows it */
	p = fork();
	T_ASSERT(p >= 0);
	if (p == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(77);
		if (meterset_open(&set, "sched", NULL, err, sizeof(err)))
			_exit(1);
		ok = set.n == 2 && !set.m[0] && set.m[1] &&
		     (strstr(set.why[0], "not permitted") ||
		      strstr(set.why[0], "no BPF") ||
		      strstr(set.why[0], "no BTF"));
		if (!ok)
			fprintf(stderr, "why: %s\n", set.why[0]);
		meterset_start(&set);
		usleep(50000); /* ticks for procstat (none: not a figure) */
		n = meterset_stop(&set, s);
		ok = ok && n == 2 && !s[0].ok && s[0].why[0] && s[1].ok;
		meterset_close(&set);
		_exit(ok ? 0 : 1);
	}
	T_ASSERT(waitpid(p, &st, 0) == p);
	T_CHECK(WIFEXITED(st) &&
		(WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 77));
}

/* A kernel without BTF (a root prefix without /sys/kernel/btf): one
 * line, the set goes on with procstat. */
static void no_btf(void)
{
	char dir[] = "/tmp/zcb-sched.XXXXXX", path[128], err[256];
	struct meterset set;
	FILE *f;

	T_ASSERT(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	T_ASSERT(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/proc/stat", dir);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("cpu  1 0 1 10 0 0 0 0 0 0\ncpu0 1 0 1 10 0 0 0 0 0 0\n", f);
	fclose(f);
	setenv("ZCB_PROC_ROOT", dir, 1);
	T_ASSERT(meterset_open(&set, "sched", NULL, err, sizeof(err)) == 0);
	T_CHECK(set.n == 2 && !set.m[0] && set.m[1]);
	T_CHECK(strstr(set.why[0], "no BTF") || strstr(set.why[0], "no BPF"));
	meterset_close(&set);
	unsetenv("ZCB_PROC_ROOT");
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

/* Where BPF runs: a process that ran as "other" (every CPU it ran on has
 * its class cached), then named a peer: the next window counts it as
 * the peer. The child spins and sleeps by turns, so it switches in again
 * and again. */
static void late_peer(void)
{
	struct meter_opts o = {0};
	struct cpu_sample s;
	struct meter *m;
	char err[256];
	pid_t p;
	int st;

	p = fork();
	T_ASSERT(p >= 0);
	if (p == 0) {
		for (;;) {
			t_spin(CLOCK_THREAD_CPUTIME_ID, 0.001);
			usleep(1000);
		}
	}
	m = meter_open("sched", &o, err, sizeof(err));
	T_ASSERT(m);
	T_CHECK(meter_start(m) == 0);
	usleep(200000);
	T_CHECK(meter_stop(m, &s) == 0);
	T_CHECK(s.ok && s.sched.peer_pct == 0);
	T_CHECK(m->ops->peer(m, p, err, sizeof(err)) == 0);
	T_CHECK(meter_start(m) == 0);
	usleep(300000);
	T_CHECK(meter_stop(m, &s) == 0);
	T_CHECK(s.ok && s.sched.peer_task_pct > 0);
	meter_close(m);
	kill(p, SIGKILL);
	T_CHECK(waitpid(p, &st, 0) == p);
}

/* Where BPF runs: a window of this process spinning. Its figures add up
 * and it is self; no speed is judged. */
static void live(void)
{
	struct meter_opts o = {0};
	struct cpu_sample s;
	struct meter *m;
	char err[256];
	double sum;

	m = meter_open("sched", &o, err, sizeof(err));
	if (!m) {
		printf("live window skipped: %s\n", err);
		return;
	}
	T_CHECK(meter_start(m) == 0);
	t_spin(CLOCK_THREAD_CPUTIME_ID, 0.2);
	T_CHECK(meter_stop(m, &s) == 0);
	T_CHECK(s.ok && s.ncpu >= 1 && s.have_percpu);
	T_CHECK(s.busy_pct > 0 && s.busy_pct <= 100);
	T_CHECK(s.sched.self_task_pct > 0);
	T_CHECK(s.sched.switches > 0);
	sum = s.sched.self_pct + s.sched.peer_pct + s.sched.other_pct +
	      s.sched.idle_softirq_pct + s.sched.hardirq_pct;
	T_NEAR(sum, s.busy_pct, 1e-6);
	T_NEAR(s.busy_pct + s.sched.idle_pct + s.sched.soaker_pct +
		       s.sched.unknown_pct + s.sched.steal_pct,
	       100, 1e-6);
	T_CHECK(strstr(s.note, "sched_switch") != NULL);
	/* the x86 vectors only when asked */
	T_CHECK(s.sched.traced == 1u << ZS_HI_DEVICE);
	T_CHECK(strstr(s.note, "not the x86 vectors") != NULL);
	meter_close(m);
	setenv(SCHED_VECTORS_ENV, "local_timer", 1);
	m = meter_open("sched", &o, err, sizeof(err));
	T_ASSERT(m);
	T_CHECK(meter_start(m) == 0 && meter_stop(m, &s) == 0);
	T_CHECK(s.ok && (strstr(s.note, "local_timer") ||
			 strstr(s.note, "no tracepoint for")));
	T_CHECK(!(s.sched.traced & (1u << ZS_HI_RESCHED)));
	meter_close(m);
	setenv(SCHED_VECTORS_ENV, "bogus", 1);
	T_CHECK(meter_open("sched", &o, err, sizeof(err)) == NULL);
	T_CHECK(strstr(err, "bogus") != NULL);
	unsetenv(SCHED_VECTORS_ENV);
	late_peer();
}

int main(void)
{
	idle_entered_and_left();
	irq_nested_in_softirq();
	never_switches();
	span_open_at_read();
	soaker_current();
	steal();
	missed_switches();
	exits_before_entries();
	hardirq_in_own_update();
	class_cache();
	copy_in_progress();
	two_cpus();
	names();
	vectors_setting();
	outputs();
	not_permitted();
	no_btf();
	live();
	return t_done();
}
