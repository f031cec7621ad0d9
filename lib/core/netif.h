/*
 * netif.h: the facts of one network interface that explain a result: the
 * driver and firmware, link speed, MTU, offloads, rings, queues and the
 * interface's IRQs with their affinity (lib/doc/SCHEMA.md, "host.iface").
 *
 * What sysfs and procfs say is read through a root prefix (hostinfo.h's
 * host_root()), so tests use fixtures; what only ethtool says (offloads,
 * rings, channels, firmware) is asked of the live kernel by ioctl, and
 * only when the root is the live system.
 */
#ifndef ZCB_NETIF_H
#define ZCB_NETIF_H

#include <jansson.h>
#include <stddef.h>

#define NETIF_MAX_IRQS 256 /* IRQs kept per interface */

/*
 * The IRQ numbers that belong to ifname: /proc/interrupts rows whose
 * name holds ifname or its device's name (virtio0, a PCI address) as a
 * word, and the device's msi_irqs. interrupts is /proc/interrupts' text
 * (NULL: read it through root). Returns the count (at most max), sorted.
 */
int netif_irqs(const char *root, const char *ifname, const char *interrupts,
	       int *irqs, int max);

/*
 * The facts of ifname as an object: "name", "driver", "firmware",
 * "bus", "mtu", "speed_mbps", "operstate", "numa_node", "rx_queues",
 * "tx_queues", "offloads" {tso, gso, gro, lro, rx_csum, tx_csum, sg},
 * "rings" {rx, tx, rx_max, tx_max}, "channels" {rx, tx, combined},
 * "irqs" [{irq, affinity}]. A fact that cannot be read is left out.
 * Returns NULL (err filled) only when ifname is not an interface.
 */
json_t *netif_facts(const char *root, const char *ifname, char *err,
		    size_t elen);

/* A name fit to be an interface's (1-15 bytes, no '/', no space). */
int netif_name_ok(const char *s);

#endif
