/* test_hostrun.c: softirq, interface and IRQ deltas from canned /proc
 * texts, the CPU's power facts and the whole host section from a
 * fixture root. */
#include "config.h"
#include "hostrun.h"
#include "t.h"

#include <stdlib.h>

static const char sirq_a[] = "                    CPU0       CPU1       \n"
			     "          HI:          0          0\n"
			     "       TIMER:        100        200\n"
			     "      NET_TX:         10         20\n"
			     "      NET_RX:       1000       2000\n";
static const char sirq_b[] = "                    CPU0       CPU1       \n"
			     "          HI:          5          0\n"
			     "       TIMER:        150        210\n"
			     "      NET_TX:         11         90\n"
			     "      NET_RX:       1001       9000\n";
static const char dev_a[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:  500 5 0 0 0 0 0 0  500 5 0 0 0 0 0 0\n"
	"  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n"
	"  eth1: 7 1 0 0 0 0 0 0 7 1 0 0 0 0 0 0\n";
static const char dev_b[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:  600 6 0 0 0 0 0 0  600 6 0 0 0 0 0 0\n"
	"  eth0: 91000 70 0 0 0 0 0 0 2100 21 0 0 0 0 0 0\n"
	"  eth1: 7 1 0 0 0 0 0 0 7 1 0 0 0 0 0 0\n"
	"  veth9:1 1 0 0 0 0 0 0 1 1 0 0 0 0 0 0\n";
static const char int_a[] = "           CPU0       CPU1\n"
			    " 40:        100        200  PCI-MSIX eth9-0\n"
			    " 41:         10         20  PCI-MSIX eth9-1\n";
static const char int_b[] = "           CPU0       CPU1\n"
			    " 40:        150        200  PCI-MSIX eth9-0\n"
			    " 41:         10         27  PCI-MSIX eth9-1\n";

static long long at(json_t *a, size_t i)
{
	return json_integer_value(json_array_get(a, i));
}

static long long num(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

static void test_softirqs(void)
{
	json_t *s = hostrun_softirqs(sirq_a, sirq_b);
	static const char three_cpus[] = "   CPU0 CPU1 CPU3\n"
					 " NET_RX: 1 2 3\n";

	T_ASSERT(s);
	T_CHECK(at(json_object_get(s, "cpus"), 1) == 1);
	T_CHECK(at(json_object_get(s, "NET_RX"), 0) == 1);
	T_CHECK(at(json_object_get(s, "NET_RX"), 1) == 7000);
	T_CHECK(at(json_object_get(s, "NET_TX"), 1) == 70);
	T_CHECK(at(json_object_get(s, "TIMER"), 0) == 50);
	T_CHECK(!json_object_get(s, "HI"));
	T_CHECK(num(s, "busiest_cpu") == 1);
	T_CHECK(num(s, "busiest_net") == 1);
	T_CHECK(!json_object_get(s, "since_boot"));
	json_decref(s);
	/* other CPUs at the end: counts since boot, said so */
	s = hostrun_softirqs(sirq_a, three_cpus);
	T_ASSERT(s);
	T_CHECK(at(json_object_get(s, "cpus"), 2) == 3);
	T_CHECK(at(json_object_get(s, "NET_RX"), 2) == 3);
	T_CHECK(json_is_true(json_object_get(s, "since_boot")));
	json_decref(s);
	T_CHECK(!hostrun_softirqs(sirq_a, "garbage\n"));
	T_CHECK(!hostrun_softirqs(sirq_a, NULL));
}

static void test_netdev(void)
{
	json_t *d = hostrun_netdev(dev_a, dev_b), *e;

	T_ASSERT(d);
	T_CHECK(json_object_size(d) == 3); /* eth1 did not move */
	e = json_object_get(d, "eth0");
	T_CHECK(num(e, "rx_bytes") == 90000);
	T_CHECK(num(e, "rx_packets") == 60);
	T_CHECK(num(e, "tx_bytes") == 100);
	T_CHECK(num(e, "tx_packets") == 1);
	T_CHECK(num(json_object_get(d, "lo"), "tx_bytes") == 100);
	/* new at the end (no space after the colon): counted from zero */
	T_CHECK(num(json_object_get(d, "veth9"), "rx_bytes") == 1);
	T_STREQ(hostrun_busiest_iface(d), "eth0");
	json_decref(d);
	d = hostrun_netdev(dev_b, dev_b);
	T_CHECK(json_object_size(d) == 0);
	T_CHECK(hostrun_busiest_iface(d) == NULL);
	json_decref(d);
}

static void test_irq_counts(void)
{
	int irqs[] = {40, 41, 99};
	json_t *a = hostrun_irq_counts(int_a, int_b, irqs, 3);

	T_ASSERT(json_array_size(a) == 2); /* 99 is not there */
	T_CHECK(num(json_array_get(a, 0), "irq") == 40);
	T_CHECK(at(json_object_get(json_array_get(a, 0), "counts"), 0) == 50);
	T_CHECK(at(json_object_get(json_array_get(a, 1), "counts"), 1) == 7);
	json_decref(a);
}

static void test_fixture_host(const char *root)
{
	json_t *p = hostrun_cpu_power(root), *h, *f;

	T_STREQ(json_string_value(json_object_get(p, "governor")),
		"performance,powersave");
	T_CHECK(num(p, "min_khz") == 800000);
	T_CHECK(num(p, "max_khz") == 3500000);
	T_STREQ(json_string_value(json_object_get(p, "smt")), "on");
	T_CHECK(json_is_true(json_object_get(p, "irqbalance")));
	json_decref(p);

	/* the whole section: nothing moved, so ZCB_IFACE names it */
	setenv("ZCB_PROC_ROOT", root, 1);
	setenv("ZCB_IFACE", "eth9", 1);
	hostrun_begin();
	h = json_object();
	hostrun_add(h);
	f = json_object_get(h, "iface");
	T_CHECK(num(f, "mtu") == 9000);
	T_CHECK(json_array_size(json_object_get(f, "irq_counts")) == 2);
	T_STREQ(json_string_value(json_object_get(h, "iface_rule")),
		"ZCB_IFACE");
	T_CHECK(json_object_size(json_object_get(h, "net_dev")) == 0);
	T_CHECK(at(json_object_get(json_object_get(h, "softirqs"), "NET_RX"),
		   0) == 0);
	json_decref(h);
	/* a name that is no interface: said so, no facts */
	setenv("ZCB_IFACE", "eth8", 1);
	h = json_object();
	hostrun_add(h);
	T_CHECK(!json_object_get(h, "iface"));
	T_STREQ(json_string_value(json_object_get(h, "iface_error")),
		"no interface eth8");
	json_decref(h);
	/* the tool's own name wins over ZCB_IFACE */
	hostrun_set_iface("eth9");
	h = json_object();
	hostrun_add(h);
	T_STREQ(json_string_value(json_object_get(h, "iface_rule")),
		"named by the tool");
	json_decref(h);
	unsetenv("ZCB_IFACE");
	unsetenv("ZCB_PROC_ROOT");
}

int main(void)
{
	char root[4200];

	snprintf(root, sizeof(root), "%s/net-a", t_datadir());
	test_softirqs();
	test_netdev();
	test_irq_counts();
	test_fixture_host(root);
	return t_done();
}
