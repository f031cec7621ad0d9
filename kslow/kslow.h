/*
 * kslow.h: what kslow's BPF program (kslow.bpf.c) and its loader
 * (main.c) share. kslow makes the kernel slower for the tasks of one
 * cgroup, as a kernel regression would: at each system call's exit it
 * spins, in the kernel, for a set share of the CPU time that call ran
 * (its on-CPU time from entry to exit, the time it was switched out
 * left out). A user-space loop that makes no call is not slowed, and
 * neither is any task outside the cgroup.
 */
#ifndef ZCB_KSLOW_H
#define ZCB_KSLOW_H

/* Each CPU's counters (a per-CPU array of one): the calls slowed, the
 * CPU time they ran and the time spun after them, in ns, and how many
 * spins the cap cut short. */
struct ks_count {
	unsigned long long calls;
	unsigned long long ran_ns;
	unsigned long long spun_ns;
	unsigned long long capped;
};

/* A thread of the cgroup (task storage): inside a call or not, when it
 * was last switched in and what it has run since the call's entry. */
struct ks_thread {
	unsigned long long on_ns;
	unsigned long long ran_ns;
	unsigned int in;
};

#define KS_PPM 1000000ull	/* the share is in parts per million */

#endif
