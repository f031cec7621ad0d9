/*
 * netif.c: the facts of the network interface a run used (netif.h):
 * sysfs and /proc through a root prefix, the offloads, rings, channels
 * and firmware through the ethtool ioctl on the live system.
 */
#include "config.h"
#include "netif.h"
#include "hostinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int netif_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || isspace((unsigned char)s[i]) ||
		    !isprint((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The last part of the link root/path points to, or "" */
static void link_base(const char *root, const char *path, char *out, size_t len)
{
	char full[4096], tgt[4096], *b;
	ssize_t n;

	out[0] = 0;
	snprintf(full, sizeof(full), "%s%s", root, path);
	n = readlink(full, tgt, sizeof(tgt) - 1);
	if (n <= 0)
		return;
	tgt[n] = 0;
	b = strrchr(tgt, '/');
	b = b ? b + 1 : tgt;
	if (strlen(b) < len)
		memcpy(out, b, strlen(b) + 1);
}

/* An integer from root/sys/class/net/IF/file into o[key]; 0 if set. */
static int sys_int(json_t *o, const char *root, const char *ifname,
		   const char *file, const char *key)
{
	char path[512], buf[64], *end;
	long long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, file);
	if (host_read_file(root, path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -1;
	json_object_set_new(o, key, json_integer(v));
	return 0;
}

static void count_queues(json_t *o, const char *root, const char *ifname)
{
	char path[4096];
	struct dirent *e;
	int rx = 0, tx = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/queues", root,
		 ifname);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		rx += !strncmp(e->d_name, "rx-", 3);
		tx += !strncmp(e->d_name, "tx-", 3);
	}
	closedir(d);
	json_object_set_new(o, "rx_queues", json_integer(rx));
	json_object_set_new(o, "tx_queues", json_integer(tx));
}

/* Does name hold word, bounded by non-alphanumerics or the ends? */
static int has_word(const char *name, const char *word)
{
	size_t n = strlen(word);
	const char *p = name;

	if (!n)
		return 0;
	while ((p = strstr(p, word))) {
		int l = p == name || !isalnum((unsigned char)p[-1]);
		int r = !isalnum((unsigned char)p[n]);

		if (l && r)
			return 1;
		p++;
	}
	return 0;
}

static int add_irq(int *irqs, int n, int max, int irq)
{
	int i;

	for (i = 0; i < n; i++)
		if (irqs[i] == irq)
			return n;
	if (n >= max)
		return n;
	irqs[n] = irq;
	return n + 1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The device's msi_irqs directory: one entry per IRQ number. */
static int msi_irqs(const char *root, const char *ifname, int *irqs, int n,
		    int max)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device/msi_irqs",
		 root, ifname);
	d = opendir(path);
	if (!d)
		return n;
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			n = add_irq(irqs, n, max, atoi(e->d_name));
	closedir(d);
	return n;
}

int netif_irqs(const char *root, const char *ifname, const char *interrupts,
	       int *irqs, int max)
{
	static char buf[1 << 20];
	char dev[256], path[512];
	const char *p, *nl;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	link_base(root, path, dev, sizeof(dev));
	if (!interrupts) {
		if (host_read_file(root, "/proc/interrupts", buf,
				   sizeof(buf)) <= 0)
			buf[0] = 0;
		interrupts = buf;
	}
	for (p = interrupts; *p; p = nl + 1) {
		char line[4096], *end;
		long irq;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p + 1), p);
		irq = strtol(line, &end, 10);
		if (end == line || *end != ':' || irq < 0)
			continue;
		if (has_word(end, ifname) || has_word(end, dev))
			n = add_irq(irqs, n, max, (int)irq);
	}
	n = msi_irqs(root, ifname, irqs, n, max);
	qsort(irqs, (size_t)n, sizeof(*irqs), cmp_int);
	return n;
}

static void add_irq_facts(json_t *o, const char *root, const char *ifname)
{
	int irqs[NETIF_MAX_IRQS], n, i;
	json_t *a = json_array();

	n = netif_irqs(root, ifname, NULL, irqs, NETIF_MAX_IRQS);
	for (i = 0; i < n; i++) {
		char path[64], aff[256];
		json_t *e = json_pack("{s:i}", "irq", irqs[i]);

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
			 irqs[i]);
		if (host_read_file(root, path, aff, sizeof(aff)) > 0)
			json_object_set_new(e, "affinity", json_string(aff));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "irqs", a);
}

/* One ethtool command on ifname; 0 or -errno. */
static int ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static void add_drvinfo(json_t *o, int fd, const char *ifname)
{
	struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};

	if (ethtool(fd, ifname, &di))
		return;
	json_object_set_new(o, "driver", json_string(di.driver));
	if (di.fw_version[0])
		json_object_set_new(o, "firmware", json_string(di.fw_version));
	if (di.bus_info[0])
		json_object_set_new(o, "bus", json_string(di.bus_info));
}

static void add_offloads(json_t *o, int fd, const char *ifname)
{
	static const struct {
		const char *name;
		__u32 cmd, mask; /* mask 0: the value is a boolean */
	} off[] = {
		{"tso", ETHTOOL_GTSO, 0},
		{"gso", ETHTOOL_GGSO, 0},
		{"gro", ETHTOOL_GGRO, 0},
		{"lro", ETHTOOL_GFLAGS, ETH_FLAG_LRO},
		{"rx_csum", ETHTOOL_GRXCSUM, 0},
		{"tx_csum", ETHTOOL_GTXCSUM, 0},
		{"sg", ETHTOOL_GSG, 0},
	};
	json_t *a = json_object();
	size_t i;

	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		struct ethtool_value v = {.cmd = off[i].cmd};

		if (ethtool(fd, ifname, &v))
			continue;
		json_object_set_new(a, off[i].name,
				    json_boolean(off[i].mask
							 ? v.data & off[i].mask
							 : v.data));
	}
	json_object_set_new(o, "offloads", a);
}

static void add_rings(json_t *o, int fd, const char *ifname)
{
	struct ethtool_ringparam r = {.cmd = ETHTOOL_GRINGPARAM};
	struct ethtool_channels c = {.cmd = ETHTOOL_GCHANNELS};

	if (!ethtool(fd, ifname, &r))
		json_object_set_new(o, "rings",
				    json_pack("{s:i, s:i, s:i, s:i}", "rx",
					      (int)r.rx_pending, "tx",
					      (int)r.tx_pending, "rx_max",
					      (int)r.rx_max_pending, "tx_max",
					      (int)r.tx_max_pending));
	if (!ethtool(fd, ifname, &c))
		json_object_set_new(o, "channels",
				    json_pack("{s:i, s:i, s:i}", "rx",
					      (int)c.rx_count, "tx",
					      (int)c.tx_count, "combined",
					      (int)c.combined_count));
}

static void add_ethtool(json_t *o, const char *ifname)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	add_drvinfo(o, fd, ifname);
	add_offloads(o, fd, ifname);
	add_rings(o, fd, ifname);
	close(fd);
}

static void add_sysfs(json_t *o, const char *root, const char *ifname)
{
	char path[512], val[256];

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", ifname);
	link_base(root, path, val, sizeof(val));
	if (val[0] && !json_object_get(o, "driver"))
		json_object_set_new(o, "driver", json_string(val));
	sys_int(o, root, ifname, "mtu", "mtu");
	sys_int(o, root, ifname, "speed", "speed_mbps");
	sys_int(o, root, ifname, "device/numa_node", "numa_node");
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", ifname);
	if (host_read_file(root, path, val, sizeof(val)) > 0)
		json_object_set_new(o, "operstate", json_string(val));
	count_queues(o, root, ifname);
	add_irq_facts(o, root, ifname);
}

json_t *netif_facts(const char *root, const char *ifname, char *err,
		    size_t elen)
{
	char path[512], val[64];
	json_t *o;

	if (!root)
		root = host_root();
	if (!netif_name_ok(ifname)) {
		snprintf(err, elen, "not an interface name");
		return NULL;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
	if (host_read_file(root, path, val, sizeof(val)) <= 0) {
		snprintf(err, elen, "no interface %s", ifname);
		return NULL;
	}
	o = json_pack("{s:s}", "name", ifname);
	if (!*root)
		add_ethtool(o, ifname);
	add_sysfs(o, root, ifname);
	return o;
}
