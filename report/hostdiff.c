/*
 * hostdiff.c: the host facts that differ between the two sides of a
 * comparison (kernel release and version, cmdline, CPU model and count,
 * memory, every recorded sysctl), printed above compare's tables,
 * escaped (esc.h): a host's facts come from the document. A fact that
 * is empty or absent is "unknown": two unknown kernels are not "same".
 */
#include "config.h"
#include "esc.h"
#include "netdiff.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

static void fact_add(json_t *out, const char *field, const char *value)
{
	json_t *set = json_object_get(out, field);

	if (!set) {
		set = json_object();
		json_object_set_new(out, field, set);
	}
	json_object_set_new(set, value, json_true());
}

/* Host facts of one side as field -> set of distinct values. A
 * document's cases come one after another: its facts are read once. */
static json_t *host_facts(const struct res_sel *sel)
{
	static const char *const fields[] = {
		"kernel_release", "kernel_version", "cmdline", "cpu_model",
		"online_cpus",	  "mem_bytes",	    NULL};
	json_t *out = json_object(), *h, *v;
	const char *name, *s;
	char buf[256], key[300];
	size_t i;
	int f;

	for (i = 0; i < sel->n; i++) {
		if (i && sel->v[i].doc == sel->v[i - 1].doc)
			continue; /* the same facts into the same sets */
		h = json_object_get(sel->v[i].doc->root, "host");
		for (f = 0; fields[f]; f++) {
			s = res_param_str(h, fields[f], buf, sizeof(buf));
			fact_add(out, fields[f], s && *s ? s : "unknown");
		}
		json_object_foreach(json_object_get(h, "sysctls"), name, v)
		{
			snprintf(key, sizeof(key), "sysctl %s", name);
			fact_add(out, key,
				 json_is_string(v) ? json_string_value(v)
						   : "?");
		}
		netdiff_facts(h, "", out, fact_add);
		netdiff_facts(json_object_get(sel->v[i].doc->root, "peer"),
			      "peer ", out, fact_add);
	}
	return out;
}

static void values_text(json_t *set, char *buf, size_t len)
{
	const char *k;
	json_t *v;

	buf[0] = 0;
	if (!set) {
		snprintf(buf, len, "(absent)");
		return;
	}
	json_object_foreach(set, k, v)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 buf[0] ? " | " : "", k);
}

/* Append name to a ", " list. */
static void list_add(char *buf, size_t len, const char *name)
{
	char e[256];

	snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		 buf[0] ? ", " : "", esc_text(e, sizeof(e), name));
}

size_t host_diff_each(const struct res_sel *base, const struct res_sel *new,
		      void (*fact)(void *ctx, const char *name, const char *a,
				   const char *b),
		      void *ctx, char *unknown, size_t ulen)
{
	json_t *a = host_facts(base), *b = host_facts(new), *all, *v;
	const char *k;
	char x[1024], y[1024], ek[256], ex[4096], ey[4096];
	size_t n = 0;

	if (ulen)
		unknown[0] = 0;
	all = json_deep_copy(a);
	json_object_update_missing(all, b);
	json_object_foreach(all, k, v)
	{
		json_t *va = json_object_get(a, k), *vb = json_object_get(b, k);

		if (va && vb && json_equal(va, vb) && json_object_size(va) == 1) {
			if (json_object_get(va, "unknown") && ulen)
				list_add(unknown, ulen, k);
			continue;
		}
		n++;
		values_text(va, x, sizeof(x));
		values_text(vb, y, sizeof(y));
		fact(ctx, esc_text(ek, sizeof(ek), k),
		     esc_text(ex, sizeof(ex), x), esc_text(ey, sizeof(ey), y));
	}
	json_decref(a);
	json_decref(b);
	json_decref(all);
	return n;
}

/* print_host_diff's line of a fact that differs (the first: a head). */
static void print_fact(void *ctx, const char *name, const char *a,
		       const char *b)
{
	int *n = ctx;

	if (!(*n)++)
		printf("Host differences (base -> new):\n");
	printf("  %-34s %s -> %s\n", name, a, b);
}

/* Facts not recorded on either side are "unknown", never "same". */
void print_host_diff(const struct res_sel *base, const struct res_sel *new)
{
	json_t *a = host_facts(base);
	char unk[1024] = "";
	int n = 0;

	host_diff_each(base, new, print_fact, &n, unk, sizeof(unk));
	if (unk[0])
		printf("Hosts: unknown on both sides (not recorded): %s\n", unk);
	if (!n && !json_object_get(json_object_get(a, "kernel_release"),
				   "unknown") &&
	    !json_object_get(json_object_get(a, "cmdline"), "unknown") &&
	    !json_object_get(json_object_get(a, "cpu_model"), "unknown"))
		printf("Hosts: same kernel, cmdline, CPU and sysctls on both "
		       "sides\n");
	else if (!n)
		printf("Hosts: the recorded facts are the same on both sides\n");
	printf("\n");
	netdiff_print_softirqs(base, new);
	json_decref(a);
}
