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

struct task_struct {
	int pid;		/* 0: the idle task of a CPU */
	int tgid;		/* the process */
	unsigned int policy;	/* SCHED_NORMAL, SCHED_IDLE, ... */
} __attribute__((preserve_access_index));

#endif
