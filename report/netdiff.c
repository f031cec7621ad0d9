/*
 * netdiff.c: the facts that explain a network result (the interface the
 * traffic used: driver, firmware, speed, MTU, offloads, rings, queues,
 * IRQ affinity, NUMA node; the CPU's governor, range, SMT, irqbalance),
 * as field/value pairs for compare's host diff, so "iface gro  on ->
 * off" is printed when one run had GRO off. The interface's name is not
 * a fact to compare (two hosts name theirs differently). Also the
 * busiest CPU for softirqs during each side's runs.
 */
#include "config.h"
#include "netdiff.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

/* A JSON scalar as text: on/off for booleans. */
static const char *val_text(json_t *v, char *buf, size_t len)
{
	if (json_is_true(v))
		return "on";
	if (json_is_false(v))
		return "off";
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	return NULL;
}

/* Every scalar of obj as "PREFIX KEY"; skip names keys left out. */
static void add_scalars(json_t *obj, const char *prefix, json_t *out,
			netdiff_add_fn add, const char *const *skip)
{
	const char *k, *s;
	char field[160], buf[64];
	json_t *v;
	int i, skipped;

	json_object_foreach(obj, k, v)
	{
		for (skipped = 0, i = 0; skip && skip[i]; i++)
			skipped |= !strcmp(skip[i], k);
		s = skipped ? NULL : val_text(v, buf, sizeof(buf));
		if (!s)
			continue;
		snprintf(field, sizeof(field), "%s %s", prefix, k);
		add(out, field, s);
	}
}

/* The IRQs' affinity in order, e.g. "0 1 0-1": where interrupts go. */
static void add_affinity(json_t *iface, const char *side, json_t *out,
			 netdiff_add_fn add)
{
	json_t *irqs = json_object_get(iface, "irqs"), *e;
	char buf[1024] = "", field[64];
	size_t i;

	if (!json_array_size(irqs))
		return;
	json_array_foreach(irqs, i, e)
	{
		const char *a =
			json_string_value(json_object_get(e, "affinity"));

		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", a ? a : "?");
	}
	snprintf(field, sizeof(field), "%siface irq affinity", side);
	add(out, field, buf);
}

void netdiff_facts(json_t *host, const char *side, json_t *out,
		   netdiff_add_fn add)
{
	static const char *const skip[] = {"name", "operstate", NULL};
	static const char *const parts[][2] = {
		{"offloads", "iface"},
		{"rings", "iface ring"},
		{"channels", "iface channels"},
	};
	json_t *iface = json_object_get(host, "iface");
	char buf[64], pre[64];
	size_t i;

	if (json_is_object(iface)) {
		snprintf(pre, sizeof(pre), "%siface", side);
		add_scalars(iface, pre, out, add, skip);
		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			snprintf(pre, sizeof(pre), "%s%s", side, parts[i][1]);
			add_scalars(json_object_get(iface, parts[i][0]), pre,
				    out, add, NULL);
		}
		snprintf(pre, sizeof(pre), "%siface irqs", side);
		snprintf(buf, sizeof(buf), "%zu",
			 json_array_size(json_object_get(iface, "irqs")));
		add(out, pre, buf);
		add_affinity(iface, side, out, add);
	}
	snprintf(pre, sizeof(pre), "%scpu", side);
	add_scalars(json_object_get(host, "cpu_power"), pre, out, add, NULL);
}

/* Add host's per-CPU softirqs of the run into sum (NET_RX, NET_TX, TIMER
 * rows, columns as "cpus" says); 0 if it had none. */
static int softirq_add(json_t *host, json_int_t sum[][3], int max)
{
	static const char *const rows[3] = {"NET_RX", "NET_TX", "TIMER"};
	json_t *s = json_object_get(host, "softirqs"), *cpus, *c;
	size_t i;
	int r;

	cpus = json_object_get(s, "cpus");
	if (!json_array_size(cpus))
		return 0;
	json_array_foreach(cpus, i, c)
	{
		json_int_t cpu = json_integer_value(c);

		if (cpu < 0 || cpu >= max)
			continue;
		for (r = 0; r < 3; r++)
			sum[cpu][r] += json_integer_value(
				json_array_get(json_object_get(s, rows[r]), i));
	}
	return 1;
}

/* "cpuN RX/TX/TIMER" for the busiest CPU of one side's documents. */
static int busiest_text(const struct res_sel *sel, const char *key, char *buf,
			size_t len)
{
	static json_int_t sum[NETDIFF_MAX_CPUS][3];
	int i, b = 0, any = 0;
	size_t d;

	memset(sum, 0, sizeof(sum));
	for (d = 0; d < sel->n; d++)
		any |= softirq_add(json_object_get(sel->v[d].doc->root, key),
				   sum, NETDIFF_MAX_CPUS);
	if (!any)
		return 0;
	for (i = 1; i < NETDIFF_MAX_CPUS; i++)
		if (sum[i][0] + sum[i][1] + sum[i][2] >
		    sum[b][0] + sum[b][1] + sum[b][2])
			b = i;
	snprintf(buf, len, "%s cpu%d %lld/%lld/%lld", key, b,
		 (long long)sum[b][0], (long long)sum[b][1],
		 (long long)sum[b][2]);
	return 1;
}

void netdiff_print_softirqs(const struct res_sel *base, const struct res_sel *new)
{
	const struct res_sel *side[2] = {base, new};
	const char *name[2] = {"base", "new"};
	char h[96], p[96];
	int s, n = 0;

	for (s = 0; s < 2; s++) {
		int a = busiest_text(side[s], "host", h, sizeof(h));
		int b = busiest_text(side[s], "peer", p, sizeof(p));

		if (!a && !b)
			continue;
		if (!n++)
			printf("Softirqs during the runs, the busiest CPU "
			       "(NET_RX/NET_TX/TIMER on it, summed):\n");
		printf("  %-5s %s%s%s\n", name[s], a ? h : "",
		       a && b ? "   " : "", b ? p : "");
	}
	if (n)
		printf("\n");
}
