/*
 * sched_kern.h: the few kernel types the sched BPF program reads, by
 * hand, for CO-RE: preserve_access_index makes every field access a
 * relocation that libbpf fixes against the running kernel's BTF at load
 * time, so the program builds without the build host's BTF (no
 * vmlinux.h) and runs on any kernel that has BTF.
 */
#ifndef ZCB_SCHED_KERN_H
#define ZCB_SCHED_KERN_H

#ifndef SCHED_IDLE
#define SCHED_IDLE 5		/* the policy of the soakers */
#endif

/* A CPU's runqueue: the steal its clock has taken out (ns), with
 * CONFIG_PARAVIRT_TIME_ACCOUNTING; reached from a task on it, through
 * its CFS runqueue (CONFIG_FAIR_GROUP_SCHED: there is no per-CPU
 * symbol to read without CONFIG_KALLSYMS_ALL). Each field is checked
 * for at load (CO-RE). */
struct rq {
	unsigned long long prev_steal_time_rq;
} __attribute__((preserve_access_index));

struct cfs_rq {
	struct rq *rq;
} __attribute__((preserve_access_index));

/* A task's runtime (the kernel's: steal out), and what it was when the
 * task was last switched in. */
struct sched_entity {
	struct cfs_rq *cfs_rq;
	unsigned long long sum_exec_runtime;
	unsigned long long prev_sum_exec_runtime;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;		/* 0: the idle task of a CPU */
	int tgid;		/* the process */
	unsigned int policy;	/* SCHED_NORMAL, SCHED_IDLE, ... */
	struct sched_entity se;
} __attribute__((preserve_access_index));

#endif
