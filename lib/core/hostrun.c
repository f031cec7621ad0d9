/*
 * hostrun.c: what the box did during a run (hostrun.h): softirqs per
 * CPU, interface byte and packet counts, the used interface's interrupts
 * and facts, and the CPU's power facts, as deltas between a start
 * snapshot (the raw text of /proc/softirqs, /proc/net/dev and
 * /proc/interrupts) and the end.
 */
#include "config.h"
#include "hostrun.h"
#include "hostinfo.h"
#include "netif.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TEXT      (8 << 20) /* the most of a /proc file kept */
#define NETDEV_FIELDS 16	/* counters on a /proc/net/dev line */

static struct {
	char *softirqs, *netdev, *interrupts; /* start texts, or NULL */
	char iface[64];			      /* set by the tool, or "" */
} run;

/* The whole of root/path, malloc'd and NUL-terminated, or NULL. */
static char *read_text(const char *root, const char *path)
{
	char full[4096], *buf = NULL, *nb;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd;

	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			nb = cap <= MAX_TEXT ? realloc(buf, cap + 1) : NULL;
			if (!nb)
				break;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf)
		buf[len] = 0;
	return buf;
}

void hostrun_begin(void)
{
	const char *root = host_root();

	free(run.softirqs);
	free(run.netdev);
	free(run.interrupts);
	run.softirqs = read_text(root, "/proc/softirqs");
	run.netdev = read_text(root, "/proc/net/dev");
	run.interrupts = read_text(root, "/proc/interrupts");
}

void hostrun_set_iface(const char *ifname)
{
	snprintf(run.iface, sizeof(run.iface), "%s", ifname ? ifname : "");
}

/* The CPU numbers of the header line ("CPU0 CPU1 ..."); their count. */
static int cpu_header(const char *text, int *cpus, int max)
{
	const char *p = text;
	int n = 0;

	while (*p && *p != '\n' && n < max) {
		char *end;
		long c;

		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "CPU", 3))
			break;
		c = strtol(p + 3, &end, 10);
		if (end == p + 3 || c < 0)
			break;
		cpus[n++] = (int)c;
		p = end;
	}
	return n;
}

/* The counts of the row "LABEL:" (up to n); how many were read, or -1. */
static int row_counts(const char *text, const char *label,
		      unsigned long long *v, int n)
{
	size_t ll = strlen(label);
	const char *p = text;
	int i;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, label, ll) || p[ll] != ':')
			continue;
		p += ll + 1;
		for (i = 0; i < n; i++) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!isdigit((unsigned char)*p))
				break;
			v[i] = strtoull(p, &end, 10);
			p = end;
		}
		return i;
	}
	return -1;
}

/* b - a per CPU as an array (a missing or smaller start counts as 0). */
static json_t *delta_row(const char *a, const char *b, const char *label,
			 int ncpu, unsigned long long *d)
{
	unsigned long long va[HOST_MAX_CPUS], vb[HOST_MAX_CPUS];
	json_t *arr;
	int na, nb, i;

	nb = row_counts(b, label, vb, ncpu);
	if (nb < 0)
		return NULL;
	na = a ? row_counts(a, label, va, ncpu) : -1;
	arr = json_array();
	for (i = 0; i < nb; i++) {
		d[i] = i < na && va[i] <= vb[i] ? vb[i] - va[i]
		       : i < na			? 0
						: vb[i];
		json_array_append_new(arr, json_integer((json_int_t)d[i]));
	}
	for (; i < ncpu; i++)
		d[i] = 0;
	return arr;
}

static int busiest(const unsigned long long *v, int n)
{
	int i, b = 0;

	for (i = 1; i < n; i++)
		if (v[i] > v[b])
			b = i;
	return b;
}

json_t *hostrun_softirqs(const char *a, const char *b)
{
	static const char *const rows[] = {"NET_RX", "NET_TX", "TIMER"};
	unsigned long long d[HOST_MAX_CPUS], tot[HOST_MAX_CPUS] = {0};
	unsigned long long net[HOST_MAX_CPUS] = {0};
	int cpus[HOST_MAX_CPUS], acpus[HOST_MAX_CPUS], n, i, r;
	json_t *o, *c;

	n = b ? cpu_header(b, cpus, HOST_MAX_CPUS) : 0;
	if (n <= 0)
		return NULL;
	if (a && (cpu_header(a, acpus, HOST_MAX_CPUS) != n ||
		  memcmp(acpus, cpus, sizeof(int) * (size_t)n)))
		a = NULL; /* CPUs came or went: totals since boot */
	o = json_object();
	c = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(c, json_integer(cpus[i]));
	json_object_set_new(o, "cpus", c);
	for (r = 0; r < 3; r++) {
		json_t *arr = delta_row(a, b, rows[r], n, d);

		if (!arr)
			continue;
		json_object_set_new(o, rows[r], arr);
		for (i = 0; i < n; i++) {
			tot[i] += d[i];
			net[i] += r < 2 ? d[i] : 0;
		}
	}
	json_object_set_new(o, "busiest_cpu",
			    json_integer(cpus[busiest(tot, n)]));
	json_object_set_new(o, "busiest_net",
			    json_integer(cpus[busiest(net, n)]));
	if (!a)
		json_object_set_new(o, "since_boot", json_true());
	return o;
}

/* The counters of interface name in a /proc/net/dev text; 0 if found. */
static int netdev_row(const char *text, const char *name, unsigned long long *v)
{
	char label[80];

	snprintf(label, sizeof(label), "%s", name);
	return row_counts(text, label, v, NETDEV_FIELDS) >= 10 ? 0 : -1;
}

/* The next interface name of a /proc/net/dev text from *p, or 0. */
static int netdev_next(const char **p, char *name, size_t len)
{
	while (**p) {
		const char *l = *p, *colon, *nl = strchr(l, '\n');

		*p = nl ? nl + 1 : l + strlen(l);
		colon = memchr(l, ':', (size_t)(*p - l));
		if (!colon || strchr("|", *l))
			continue;
		while (*l == ' ')
			l++;
		if (colon <= l || (size_t)(colon - l) >= len)
			continue;
		snprintf(name, len, "%.*s", (int)(colon - l), l);
		return 1;
	}
	return 0;
}

json_t *hostrun_netdev(const char *a, const char *b)
{
	unsigned long long va[NETDEV_FIELDS], vb[NETDEV_FIELDS], d[4];
	static const int col[4] = {0, 1, 8, 9};
	static const char *const key[4] = {"rx_bytes", "rx_packets", "tx_bytes",
					   "tx_packets"};
	json_t *o = json_object();
	const char *p = b;
	char name[64];
	int k;

	while (b && netdev_next(&p, name, sizeof(name))) {
		json_t *e;

		if (netdev_row(b, name, vb))
			continue;
		if (!a || netdev_row(a, name, va))
			memset(va, 0, sizeof(va));
		for (k = 0; k < 4; k++)
			d[k] = vb[col[k]] >= va[col[k]]
				       ? vb[col[k]] - va[col[k]]
				       : 0;
		if (!(d[0] | d[1] | d[2] | d[3]))
			continue;
		e = json_object();
		for (k = 0; k < 4; k++)
			json_object_set_new(e, key[k],
					    json_integer((json_int_t)d[k]));
		json_object_set_new(o, name, e);
	}
	return o;
}

const char *hostrun_busiest_iface(json_t *netdev)
{
	const char *name, *best = NULL;
	json_int_t most = -1;
	json_t *v;

	json_object_foreach(netdev, name, v)
	{
		json_int_t b =
			json_integer_value(json_object_get(v, "rx_bytes")) +
			json_integer_value(json_object_get(v, "tx_bytes"));

		if (b > most) {
			most = b;
			best = name;
		}
	}
	return best;
}

json_t *hostrun_irq_counts(const char *a, const char *b, const int *irqs, int n)
{
	unsigned long long d[HOST_MAX_CPUS];
	int cpus[HOST_MAX_CPUS], ncpu, i;
	json_t *out = json_array();

	ncpu = b ? cpu_header(b, cpus, HOST_MAX_CPUS) : 0;
	for (i = 0; i < n && ncpu > 0; i++) {
		char label[16];
		json_t *arr;

		snprintf(label, sizeof(label), "%d", irqs[i]);
		arr = delta_row(a, b, label, ncpu, d);
		if (arr)
			json_array_append_new(out, json_pack("{s:i, s:o}",
							     "irq", irqs[i],
							     "counts", arr));
	}
	return out;
}

/* Is a process named irqbalance running (root/proc/PID/comm)? */
static int irqbalance_runs(const char *root)
{
	char path[4096], comm[64];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		found = host_read_file(root, path, comm, sizeof(comm)) > 0 &&
			!strcmp(comm, "irqbalance");
	}
	closedir(d);
	return found;
}

/* Every online CPU's governor (distinct ones, joined by ','), the lowest
 * minimum and the highest maximum frequency. */
static void add_cpufreq(json_t *o, const char *root)
{
	unsigned char bm[HOST_MAX_CPUS / 8];
	char buf[256], gov[256] = "", path[128];
	long long lo = -1, hi = -1, v;
	int c;

	if (host_read_file(root, "/sys/devices/system/cpu/online", buf,
			   sizeof(buf)) <= 0 ||
	    host_parse_cpulist(buf, bm, HOST_MAX_CPUS) <= 0)
		return;
	for (c = 0; c < HOST_MAX_CPUS; c++) {
		const char *dir = "/sys/devices/system/cpu/cpu";

		if (!(bm[c / 8] & (1u << (c % 8))))
			continue;
		snprintf(path, sizeof(path), "%s%d/cpufreq/scaling_governor",
			 dir, c);
		if (host_read_file(root, path, buf, sizeof(buf)) > 0 &&
		    !strstr(gov, buf) && strlen(gov) + strlen(buf) + 2 < 256)
			snprintf(gov + strlen(gov), sizeof(gov) - strlen(gov),
				 "%s%s", gov[0] ? "," : "", buf);
		snprintf(path, sizeof(path), "%s%d/cpufreq/scaling_min_freq",
			 dir, c);
		if (host_read_file(root, path, buf, sizeof(buf)) > 0 &&
		    (v = atoll(buf)) > 0 && (lo < 0 || v < lo))
			lo = v;
		snprintf(path, sizeof(path), "%s%d/cpufreq/scaling_max_freq",
			 dir, c);
		if (host_read_file(root, path, buf, sizeof(buf)) > 0 &&
		    (v = atoll(buf)) > hi)
			hi = v;
	}
	if (gov[0])
		json_object_set_new(o, "governor", json_string(gov));
	if (lo > 0)
		json_object_set_new(o, "min_khz", json_integer(lo));
	if (hi > 0)
		json_object_set_new(o, "max_khz", json_integer(hi));
}

json_t *hostrun_cpu_power(const char *root)
{
	json_t *o = json_object();
	char buf[64];
	int irqb;

	if (!root)
		root = host_root();
	add_cpufreq(o, root);
	if (host_read_file(root, "/sys/devices/system/cpu/smt/control", buf,
			   sizeof(buf)) > 0)
		json_object_set_new(o, "smt", json_string(buf));
	irqb = irqbalance_runs(root);
	if (irqb >= 0)
		json_object_set_new(o, "irqbalance", json_boolean(irqb));
	return o;
}

/* The interface the traffic used, and the rule that chose it. */
static const char *pick_iface(json_t *netdev, const char **rule)
{
	const char *env = getenv("ZCB_IFACE");

	if (run.iface[0]) {
		*rule = "named by the tool";
		return run.iface;
	}
	if (env && *env) {
		*rule = "ZCB_IFACE";
		return env;
	}
	*rule = "most bytes during the run";
	return netdev ? hostrun_busiest_iface(netdev) : NULL;
}

static void add_iface(json_t *host, const char *root, json_t *netdev,
		      const char *ints)
{
	const char *rule, *name = pick_iface(netdev, &rule);
	int irqs[NETIF_MAX_IRQS], n;
	char err[128];
	json_t *f;

	if (!name)
		return;
	f = netif_facts(root, name, err, sizeof(err));
	if (!f) {
		json_object_set_new(host, "iface_error", json_string(err));
		return;
	}
	if (run.interrupts && ints) {
		n = netif_irqs(root, name, ints, irqs, NETIF_MAX_IRQS);
		json_object_set_new(
			f, "irq_counts",
			hostrun_irq_counts(run.interrupts, ints, irqs, n));
	}
	json_object_set_new(host, "iface", f);
	json_object_set_new(host, "iface_rule", json_string(rule));
}

void hostrun_add(json_t *host)
{
	const char *root = host_root();
	char *sirq = NULL, *ndev = NULL, *ints = NULL;
	json_t *netdev = NULL, *s;

	char cpus[256];

	if (!json_is_object(host))
		return;
	json_object_set_new(host, "cpu_power", hostrun_cpu_power(root));
	/* where this process may run: a pinned side says so */
	if (host_cpus_allowed(root, 0, cpus, sizeof(cpus)))
		json_object_set_new(host, "cpus_allowed", json_string(cpus));
	if (run.netdev) {
		ndev = read_text(root, "/proc/net/dev");
		netdev = hostrun_netdev(run.netdev, ndev);
		json_object_set(host, "net_dev", netdev);
	}
	if (run.softirqs) {
		sirq = read_text(root, "/proc/softirqs");
		s = hostrun_softirqs(run.softirqs, sirq);
		if (s)
			json_object_set_new(host, "softirqs", s);
	}
	if (run.interrupts)
		ints = read_text(root, "/proc/interrupts");
	add_iface(host, root, netdev, ints);
	json_decref(netdev);
	free(sirq);
	free(ndev);
	free(ints);
}
