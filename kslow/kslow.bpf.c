// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * kslow.bpf.c: a kernel regression of a known size for one cgroup's
 * tasks (kslow.h). BTF-typed tracepoints (tp_btf: no tracefs needed):
 * sys_enter starts a call's clock, sched_switch stops and restarts it
 * while the thread is off the CPU, sys_exit spins for share x the CPU
 * time the call ran (at most max_ns) with bpf_loop, reading the clock.
 * The spin is kernel time of the calling task, as a slower kernel path
 * would be: CPU meters see it as system time.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kslow.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct;

const volatile __u64 cg_id;	/* the cgroup (v2 id) */
const volatile __u32 cg_level;	/* its depth under the root */
const volatile __u64 share_ppm;	/* the spin per ns run, ppm */
const volatile __u64 max_ns;	/* the longest spin */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct ks_count);
	__uint(max_entries, 1);
} counts SEC(".maps");

/* each thread's clock, in the task itself (task storage: no hashing,
 * no lock, gone with the thread) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ks_thread);
} inside SEC(".maps");

static __always_inline int in_cgroup(void)
{
	return bpf_get_current_ancestor_cgroup_id(cg_level) == cg_id;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_enter, void *regs, long id)
{
	struct ks_thread *t;

	if (!in_cgroup())
		return 0;
	t = bpf_task_storage_get(&inside, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (t) {
		t->in = 1;
		t->ran_ns = 0;
		t->on_ns = bpf_ktime_get_ns();
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, int preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct ks_thread *t = bpf_task_storage_get(&inside, prev, 0, 0);
	__u64 now = 0;

	if (t && t->in) {
		now = bpf_ktime_get_ns();
		t->ran_ns += now - t->on_ns;
	}
	t = bpf_task_storage_get(&inside, next, 0, 0);
	if (t && t->in)
		t->on_ns = now ? now : bpf_ktime_get_ns();
	return 0;
}

static long spin(__u64 i, void *ctx)
{
	return bpf_ktime_get_ns() >= *(__u64 *)ctx; /* 1 stops the loop */
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_exit, void *regs, long ret)
{
	struct ks_thread *t;
	__u64 now, ran, d, until;
	struct ks_count *c;
	__u32 zero = 0;

	t = bpf_task_storage_get(&inside, bpf_get_current_task_btf(), 0, 0);
	if (!t || !t->in)
		return 0;
	now = bpf_ktime_get_ns();
	ran = t->ran_ns + (now - t->on_ns);
	t->in = 0;
	c = bpf_map_lookup_elem(&counts, &zero);
	if (!c)
		return 0;
	d = ran * share_ppm / KS_PPM;
	if (d > max_ns) {
		d = max_ns;
		c->capped++;
	}
	until = now + d;
	if (d)
		bpf_loop(1 << 23, spin, &until, 0);
	c->calls++;
	c->ran_ns += ran;
	c->spun_ns += bpf_ktime_get_ns() - now;
	return 0;
}
