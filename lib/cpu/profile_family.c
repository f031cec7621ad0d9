/*
 * profile_family.c: the families a kernel symbol is classed into, as one
 * table of shell patterns (fnmatch). The first rule that matches wins,
 * so narrow rules go before wide ones (csum_partial_copy_generic is a
 * checksum, copy_page_to_iter a copy). To extend: add a line, and a case
 * to tests/unit/test_profile.c.
 */
#include "config.h"
#include "profile.h"

#include <fnmatch.h>
#include <string.h>

static const struct {
	const char *name;
	const char *help;
} families[PROF_NFAM] = {
	[PROF_COPY] = { "copy", "copies between user, page cache and skbs" },
	[PROF_CSUM] = { "csum", "checksums (csum_*)" },
	[PROF_PAGECACHE] = { "pagecache", "page cache, folios, readahead" },
	[PROF_STACK] = { "stack", "TCP/IP, sockets, skbs, the device core" },
	[PROF_DRIVER] = { "driver", "device drivers: loopback, veth, NICs" },
	[PROF_SOFTIRQ] = { "softirq", "softirq and NAPI: net_rx_action, polls" },
	[PROF_SCHED] = { "sched", "scheduler, context switches, wake-ups" },
	[PROF_SYSCALL] = { "syscall", "system call and interrupt entry, exit" },
	[PROF_IDLE] = { "idle", "idle loops and halts" },
	[PROF_USER] = { "user", "user space" },
	[PROF_OTHER] = { "other", "the rest of the kernel" },
};

static const struct {
	const char *pattern;
	int family;
} rules[] = {
	/* checksums first: csum_partial_copy_* is checksum work */
	{ "csum_*", PROF_CSUM },
	{ "__csum_*", PROF_CSUM },
	{ "ip_compute_csum", PROF_CSUM },
	{ "ip_fast_csum", PROF_CSUM },
	/* copies */
	{ "copy_user*", PROF_COPY },
	{ "__copy_user*", PROF_COPY },
	{ "rep_movs*", PROF_COPY },
	{ "rep_stos*", PROF_COPY },
	{ "memcpy*", PROF_COPY },
	{ "__memcpy*", PROF_COPY },
	{ "memmove*", PROF_COPY },
	{ "__memmove*", PROF_COPY },
	{ "copy_page*", PROF_COPY },
	{ "copy_mc_*", PROF_COPY },
	{ "copy_folio*", PROF_COPY },
	{ "_copy_to_iter*", PROF_COPY },
	{ "_copy_from_iter*", PROF_COPY },
	{ "copy_to_user*", PROF_COPY },
	{ "copy_from_user*", PROF_COPY },
	{ "_copy_to_user*", PROF_COPY },
	{ "_copy_from_user*", PROF_COPY },
	{ "raw_copy_*", PROF_COPY },
	{ "__arch_copy_*", PROF_COPY },
	{ "copy_*_iter*", PROF_COPY },
	{ "copyin*", PROF_COPY },
	{ "copyout*", PROF_COPY },
	{ "skb_copy_bits", PROF_COPY },
	/* idle before the scheduler: do_idle is no wake-up */
	{ "cpuidle*", PROF_IDLE },
	{ "default_idle*", PROF_IDLE },
	{ "poll_idle", PROF_IDLE },
	{ "native_safe_halt", PROF_IDLE },
	{ "pv_native_safe_halt", PROF_IDLE },
	{ "xen_safe_halt", PROF_IDLE },
	{ "kvm_wait", PROF_IDLE },
	{ "arch_cpu_idle*", PROF_IDLE },
	{ "do_idle", PROF_IDLE },
	{ "cpu_idle_poll*", PROF_IDLE },
	{ "cpu_startup_entry", PROF_IDLE },
	{ "intel_idle*", PROF_IDLE },
	{ "acpi_idle*", PROF_IDLE },
	{ "acpi_safe_halt", PROF_IDLE },
	{ "mwait_idle*", PROF_IDLE },
	{ "amd_e400_idle", PROF_IDLE },
	{ "halt", PROF_IDLE },
	{ "tick_nohz_idle_*", PROF_IDLE },
	/* page cache */
	{ "filemap_*", PROF_PAGECACHE },
	{ "__filemap_*", PROF_PAGECACHE },
	{ "find_get_page*", PROF_PAGECACHE },
	{ "find_lock_page*", PROF_PAGECACHE },
	{ "pagecache_*", PROF_PAGECACHE },
	{ "page_cache_*", PROF_PAGECACHE },
	{ "folio_*", PROF_PAGECACHE },
	{ "__folio_*", PROF_PAGECACHE },
	{ "*readahead*", PROF_PAGECACHE },
	{ "generic_file_read_iter", PROF_PAGECACHE },
	{ "generic_perform_write", PROF_PAGECACHE },
	{ "file_read_actor", PROF_PAGECACHE },
	{ "mark_page_accessed", PROF_PAGECACHE },
	{ "shmem_file_read_iter", PROF_PAGECACHE },
	{ "shmem_get_folio*", PROF_PAGECACHE },
	{ "xas_*", PROF_PAGECACHE },
	/* softirq and NAPI before the stack: napi_* is no device core */
	{ "net_rx_action", PROF_SOFTIRQ },
	{ "net_tx_action", PROF_SOFTIRQ },
	{ "napi_*", PROF_SOFTIRQ },
	{ "__napi_*", PROF_SOFTIRQ },
	{ "process_backlog", PROF_SOFTIRQ },
	{ "__do_softirq", PROF_SOFTIRQ },
	{ "handle_softirqs", PROF_SOFTIRQ },
	{ "do_softirq*", PROF_SOFTIRQ },
	{ "__local_bh_enable_ip", PROF_SOFTIRQ },
	{ "run_ksoftirqd", PROF_SOFTIRQ },
	{ "irq_exit*", PROF_SOFTIRQ },
	{ "gro_*", PROF_SOFTIRQ },
	{ "dev_gro_receive", PROF_SOFTIRQ },
	/* drivers: loopback, veth, virtio and the common NICs */
	{ "loopback_xmit", PROF_DRIVER },
	{ "veth_*", PROF_DRIVER },
	{ "virtnet_*", PROF_DRIVER },
	{ "virtqueue_*", PROF_DRIVER },
	{ "vring_*", PROF_DRIVER },
	{ "e1000*", PROF_DRIVER },
	{ "igb_*", PROF_DRIVER },
	{ "ixgbe_*", PROF_DRIVER },
	{ "i40e_*", PROF_DRIVER },
	{ "ice_*", PROF_DRIVER },
	{ "mlx4_*", PROF_DRIVER },
	{ "mlx5*", PROF_DRIVER },
	{ "bnxt_*", PROF_DRIVER },
	{ "ena_*", PROF_DRIVER },
	{ "gve_*", PROF_DRIVER },
	/* the network stack and the device core */
	{ "tcp_*", PROF_STACK },
	{ "__tcp_*", PROF_STACK },
	{ "tcp4_*", PROF_STACK },
	{ "tcp6_*", PROF_STACK },
	{ "udp_*", PROF_STACK },
	{ "__udp*", PROF_STACK },
	{ "ip_*", PROF_STACK },
	{ "__ip_*", PROF_STACK },
	{ "ip6_*", PROF_STACK },
	{ "ipv4_*", PROF_STACK },
	{ "ipv6_*", PROF_STACK },
	{ "inet_*", PROF_STACK },
	{ "__inet_*", PROF_STACK },
	{ "sock_*", PROF_STACK },
	{ "__sock_*", PROF_STACK },
	{ "sk_*", PROF_STACK },
	{ "__sk_*", PROF_STACK },
	{ "skb_*", PROF_STACK },
	{ "__skb_*", PROF_STACK },
	{ "*kfree_skb*", PROF_STACK },
	{ "consume_skb", PROF_STACK },
	{ "*alloc_skb*", PROF_STACK },
	{ "lock_sock*", PROF_STACK },
	{ "release_sock", PROF_STACK },
	{ "__release_sock", PROF_STACK },
	{ "dev_*", PROF_STACK },
	{ "__dev_*", PROF_STACK },
	{ "netif_*", PROF_STACK },
	{ "__netif_*", PROF_STACK },
	{ "nf_*", PROF_STACK },
	{ "neigh_*", PROF_STACK },
	{ "validate_xmit_*", PROF_STACK },
	{ "sch_direct_xmit", PROF_STACK },
	{ "pfifo_fast_*", PROF_STACK },
	{ "fq_codel_*", PROF_STACK },
	/* scheduler */
	{ "schedule*", PROF_SCHED },
	{ "__schedule", PROF_SCHED },
	{ "finish_task_switch*", PROF_SCHED },
	{ "__switch_to*", PROF_SCHED },
	{ "try_to_wake_up", PROF_SCHED },
	{ "ttwu_*", PROF_SCHED },
	{ "wake_up_*", PROF_SCHED },
	{ "__wake_up*", PROF_SCHED },
	{ "pick_next_*", PROF_SCHED },
	{ "enqueue_*", PROF_SCHED },
	{ "dequeue_*", PROF_SCHED },
	{ "update_curr*", PROF_SCHED },
	{ "update_load_avg", PROF_SCHED },
	{ "psi_*", PROF_SCHED },
	{ "select_task_rq*", PROF_SCHED },
	{ "sched_*", PROF_SCHED },
	{ "__sched_*", PROF_SCHED },
	/* syscall entry and exit */
	{ "entry_SYSCALL*", PROF_SYSCALL },
	{ "do_syscall_*", PROF_SYSCALL },
	{ "syscall_*", PROF_SYSCALL },
	{ "x64_sys_call", PROF_SYSCALL },
	{ "exit_to_user_mode*", PROF_SYSCALL },
	{ "irqentry_*", PROF_SYSCALL },
	{ "__x64_sys_*", PROF_SYSCALL },
	{ "__arm64_sys_*", PROF_SYSCALL },
	{ "el0_svc*", PROF_SYSCALL },
	{ "__fdget*", PROF_SYSCALL },
	{ "fdget*", PROF_SYSCALL },
	{ "fput", PROF_SYSCALL },
};

const char *prof_family_name(int fam)
{
	return fam >= 0 && fam < PROF_NFAM ? families[fam].name : "?";
}

const char *prof_family_help(int fam)
{
	return fam >= 0 && fam < PROF_NFAM ? families[fam].help : "?";
}

int prof_family_find(const char *name)
{
	int i;

	for (i = 0; i < PROF_NFAM; i++)
		if (!strcmp(families[i].name, name))
			return i;
	return -1;
}

int prof_family_of(const char *sym)
{
	char base[128];
	size_t i, n;

	if (!strcmp(sym, "[user]"))
		return PROF_USER;
	/* "copy_user_generic.cold", "tcp_sendmsg_locked.isra.0": the
	 * function the compiler split or specialised is the one classed */
	n = strcspn(sym, ".");
	if (n >= sizeof(base))
		n = sizeof(base) - 1;
	memcpy(base, sym, n);
	base[n] = '\0';
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!fnmatch(rules[i].pattern, base, 0))
			return rules[i].family;
	return PROF_OTHER;
}
