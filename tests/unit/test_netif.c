/*
 * test_netif.c: an interface's facts and IRQs from a fixture root. The
 * fixture's files are in tests/data/net-a; its two symlinks (the
 * interface's device, the device's driver) are made here in a temporary
 * root, since a dist tarball does not keep symlinks.
 */
#include "config.h"
#include "netif.h"
#include "t.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

static char troot[4096];

/* troot/rel -> target ("%D/..." in target: the data directory's net-a) */
static void t_link(const char *data, const char *target, const char *rel)
{
	char t[8192], l[8192];

	if (!strncmp(target, "%D", 2))
		snprintf(t, sizeof(t), "%s%s", data, target + 2);
	else
		snprintf(t, sizeof(t), "%s", target);
	snprintf(l, sizeof(l), "%s%s", troot, rel);
	T_ASSERT(symlink(t, l) == 0);
}

static void t_dir(const char *rel)
{
	char l[8192];

	snprintf(l, sizeof(l), "%s%s", troot, rel);
	T_ASSERT(mkdir(l, 0700) == 0);
}

/* The fixture root: data's files, and the symlinks sysfs has. */
static void make_root(const char *data)
{
	static const char *const dirs[] = {
		"/sys", "/sys/class", "/sys/class/net", "/sys/class/net/eth9",
		"/sys/devices", "/sys/devices/pci0000:00",
		"/sys/devices/pci0000:00/0000:00:03.0", NULL
	};
	const char *eth = "/sys/class/net/eth9", *dev =
		"/sys/devices/pci0000:00/0000:00:03.0";
	static const char *const files[] = { "mtu", "speed", "operstate",
					     "queues", NULL };
	char a[512], b[512];
	int i;

	snprintf(troot, sizeof(troot), "%s/zcb-netif.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	T_ASSERT(mkdtemp(troot));
	for (i = 0; dirs[i]; i++)
		t_dir(dirs[i]);
	t_link(data, "%D/proc", "/proc");
	for (i = 0; files[i]; i++) {
		snprintf(a, sizeof(a), "%%D%s/%s", eth, files[i]);
		snprintf(b, sizeof(b), "%s/%s", eth, files[i]);
		t_link(data, a, b);
	}
	snprintf(a, sizeof(a), "%%D%s/numa_node", dev);
	snprintf(b, sizeof(b), "%s/numa_node", dev);
	t_link(data, a, b);
	snprintf(a, sizeof(a), "%%D%s/msi_irqs", dev);
	snprintf(b, sizeof(b), "%s/msi_irqs", dev);
	t_link(data, a, b);
	snprintf(b, sizeof(b), "%s/device", eth);
	t_link(data, "../../../devices/pci0000:00/0000:00:03.0", b);
	snprintf(b, sizeof(b), "%s/driver", dev);
	t_link(data, "../../../bus/pci/drivers/ixgbe", b);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static long long num(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

static void test_irqs(const char *root)
{
	static const char text[] = "           CPU0       CPU1\n"
				   " 30:   1  2  PCI-MSI  virtio3-input.0\n"
				   " 31:   1  2  PCI-MSI  virtio3-output.0\n"
				   " 32:   1  2  PCI-MSI  virtio31-input.0\n"
				   " 33:   1  2  PCI-MSI  eth9\n"
				   "NMI:   0  0  Non-maskable interrupts\n";
	int irqs[8], n;

	/* eth9's rows and its device's msi_irqs; not eth90's, not xeth9's */
	n = netif_irqs(root, "eth9", NULL, irqs, 8);
	T_CHECK(n == 3);
	T_CHECK(n == 3 && irqs[0] == 40 && irqs[1] == 41 && irqs[2] == 44);
	/* a given text; the name as a word only */
	n = netif_irqs(root, "eth9", text, irqs, 8);
	T_CHECK(n == 4 && irqs[0] == 33 && irqs[1] == 40);
	n = netif_irqs("/nonexistent", "virtio3", text, irqs, 8);
	T_CHECK(n == 2 && irqs[0] == 30 && irqs[1] == 31);
	/* at most max */
	T_CHECK(netif_irqs(root, "eth9", NULL, irqs, 1) == 1);
}

int main(void)
{
	char data[4200], err[128];
	const char *root = troot;
	json_t *f, *irqs;

	snprintf(data, sizeof(data), "%s/net-a", t_datadir());
	make_root(data);
	f = netif_facts(root, "eth9", err, sizeof(err));
	T_ASSERT(f);
	T_STREQ(str(f, "name"), "eth9");
	T_STREQ(str(f, "driver"), "ixgbe");
	T_STREQ(str(f, "operstate"), "up");
	T_CHECK(num(f, "mtu") == 9000);
	T_CHECK(num(f, "speed_mbps") == 25000);
	T_CHECK(num(f, "numa_node") == 1);
	T_CHECK(num(f, "rx_queues") == 2);
	T_CHECK(num(f, "tx_queues") == 3);
	/* ethtool is asked only of the live system */
	T_CHECK(!json_object_get(f, "offloads"));
	irqs = json_object_get(f, "irqs");
	T_ASSERT(json_array_size(irqs) == 3);
	T_CHECK(num(json_array_get(irqs, 0), "irq") == 40);
	T_STREQ(str(json_array_get(irqs, 0), "affinity"), "0");
	T_STREQ(str(json_array_get(irqs, 1), "affinity"), "1");
	T_CHECK(!json_object_get(json_array_get(irqs, 2), "affinity"));
	json_decref(f);

	T_CHECK(!netif_facts(root, "eth8", err, sizeof(err)));
	T_STREQ(err, "no interface eth8");
	T_CHECK(!netif_facts(root, "../../x", err, sizeof(err)));
	T_CHECK(!netif_name_ok(""));
	T_CHECK(!netif_name_ok("a/b"));
	T_CHECK(!netif_name_ok("a b"));
	T_CHECK(!netif_name_ok("0123456789abcdef"));
	T_CHECK(netif_name_ok("veth0"));
	test_irqs(root);

	/* the live loopback: ethtool answers for lo too */
	f = netif_facts("", "lo", err, sizeof(err));
	T_ASSERT(f);
	T_CHECK(num(f, "mtu") > 0);
	T_CHECK(json_is_object(json_object_get(f, "offloads")));
	json_decref(f);
	nftw(troot, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return t_done();
}
