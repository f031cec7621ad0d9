/*
 * hostrun.h: what the box did during a run, for the result's host
 * section (lib/doc/SCHEMA.md): per-CPU NET_RX, NET_TX and TIMER softirqs
 * from /proc/softirqs, the bytes and packets of every interface that
 * moved from /proc/net/dev, the interrupts of the interface the traffic
 * used from /proc/interrupts, that interface's facts (netif.h), and the
 * CPU's power facts (frequency governor and range, SMT, irqbalance).
 *
 * One start snapshot per process: hostrun_begin() (res_new calls it),
 * then hostrun_add() at the end adds the deltas since then. Everything is
 * read through host_root(), so fixtures stand in for /proc and /sys.
 */
#ifndef ZCB_HOSTRUN_H
#define ZCB_HOSTRUN_H

#include <jansson.h>
#include <stddef.h>

/* Take the process's start snapshot (a later call starts it again). */
void hostrun_begin(void);

/*
 * Name the interface the traffic used (a tool that knows it). Without
 * it, ZCB_IFACE names it, else the one that moved the most bytes during
 * the run (loopback included: a loopback run used lo).
 */
void hostrun_set_iface(const char *ifname);

/*
 * Add to host (an object as hostinfo_to_json makes): "cpu_power",
 * "cpus_allowed" (this process's affinity, host_cpus_allowed),
 * "iface" (facts and, with a start snapshot, "irq_counts"), "iface_rule",
 * and with a start snapshot "softirqs" and "net_dev".
 */
void hostrun_add(json_t *host);

/* The parts, on the texts of the files (a = start, b = end). */

/* {"cpus": [0, 1], "NET_RX": [..], "NET_TX": [..], "TIMER": [..],
 *  "busiest_cpu": N, "busiest_net": N}; NULL when b has no CPU header. */
json_t *hostrun_softirqs(const char *a, const char *b);
/* {ifname: {rx_bytes, rx_packets, tx_bytes, tx_packets}} for each
 * interface of b whose counters moved since a. */
json_t *hostrun_netdev(const char *a, const char *b);
/* The interface of a hostrun_netdev() object with the most bytes, or
 * NULL. */
const char *hostrun_busiest_iface(json_t *netdev);
/* [{"irq": N, "counts": [per CPU]}] for the given IRQs. */
json_t *hostrun_irq_counts(const char *a, const char *b, const int *irqs,
			   int n);
/* {"governor", "min_khz", "max_khz", "smt", "irqbalance"}, each where
 * known; root as host_root(). */
json_t *hostrun_cpu_power(const char *root);

#endif
