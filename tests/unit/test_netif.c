/* test_netif.c: an interface's facts and IRQs from a fixture root. */
#include "config.h"
#include "netif.h"
#include "t.h"

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
	char root[4200], err[128];
	json_t *f, *irqs;

	snprintf(root, sizeof(root), "%s/net-a", t_datadir());
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
	return t_done();
}
