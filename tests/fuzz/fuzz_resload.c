/*
 * fuzz_resload.c: the reading of result documents: the loader and
 * validator (lib/doc/resload.c, lib/doc/result.c res_validate) and what
 * the tables do with what they let through: the case accessors, every
 * seed layout (layout_print "all", lib/table) and zcbreport's generic
 * table (grid_print). Input: [mode][opts][a document]. mode & 1: the
 * document is added twice (the unit vote between documents); mode & 2:
 * print every layout; mode & 4: print the generic table (opts & 1: +-
 * stddev, opts >> 1 % 3: text, markdown or CSV, opts >> 3 % 4: the
 * statistic; opts & 0x80: one column per value of "size"). Printing goes
 * to /dev/null; nothing may crash. And lib/table/esc: escaped document
 * text needs no escaping again (no control character, all UTF-8) and
 * fits its buffer. The loader's quick parse (lib/doc/resparse.c)
 * takes nothing json_loadb refuses, and makes json_loadb's tree.
 */
#include "config.h"
#include "esc.h"
#include "fz.h"
#include "report.h"
#include "res_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_esc(const char *s)
{
	char small[7], *d = esc_dup(s);

	if (esc_needed(d))
		__builtin_trap();
	esc_text(small, sizeof(small), s);
	if (strlen(small) >= sizeof(small) || esc_needed(small) ||
	    strncmp(small, d, strlen(small)))
		__builtin_trap();
	free(d);
}

/* The quick parse against json_loadb. */
static void check_quick(const char *data, size_t size)
{
	json_t *q = res_parse_quick(data, size), *j;
	const size_t f = JSON_COMPACT | JSON_REAL_PRECISION(17);
	json_error_t je;
	char *a, *b;

	if (!q)
		return;
	j = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		__builtin_trap();
	a = json_dumps(q, f);
	b = json_dumps(j, f);
	if (!a || !b || strcmp(a, b) || !json_equal(q, j))
		__builtin_trap();
	free(a);
	free(b);
	json_decref(q);
	json_decref(j);
}

/* Run the printers into /dev/null. */
static void print(const struct res_pool *s, uint8_t mode, uint8_t opts)
{
	static const char *none[RPT_MAX_WHERE]; /* no --where, as main's */
	struct layout_opts lo = {.out = fz_null(),
				 .fmt = (enum tbl_fmt)(opts >> 1 & 3) % 3,
				 .where = none,
				 .stat = (enum stat_kind)(opts >> 3 & 3),
				 .all = 1};
	struct grid_opts g = {.show_sd = opts & 1,
			      .cols = opts & 0x80 ? "size" : NULL};

	if (mode & 2)
		layout_print("all", s, &lo);
	if (mode & 4) {
		if (g.cols) { /* --cols takes exactly one metric */
			g.metrics[0] = "mbps";
			g.nmetrics = 1;
		}
		grid_print(s, &lo, &g);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_pool s;
	double *x = NULL;
	size_t n = 0, cap = 0, i, j;
	uint8_t mode, opts;
	char buf[64];
	int copies;

	if (size < 2)
		return 0;
	mode = data[0];
	opts = data[1];
	data += 2;
	size -= 2;
	copies = 1 + (mode & 1);
	if (size < 4096) {
		char *text = strndup((const char *)data, size);

		if (!text)
			abort();
		check_esc(text);
		free(text);
	}
	check_quick((const char *)data, size);
	res_pool_init(&s);
	res_pool_add_buffer(&s, "fuzz", (const char *)data, size);
	if (copies == 2)
		res_pool_add_buffer(&s, "fuzz2", (const char *)data, size);
	res_pool_finish(&s);
	if (s.nbad > (size_t)copies || s.ndocs + s.nbad != (size_t)copies)
		__builtin_trap();
	for (i = 0; i < s.ndocs; i++) {
		json_t *c;

		if (!json_is_object(s.docs[i].root))
			__builtin_trap();
		check_esc(s.docs[i].label);
		json_array_foreach(json_object_get(s.docs[i].root, "cases"), j,
				   c)
		{
			const char *k;
			json_t *v;

			json_object_foreach(json_object_get(c, "params"), k, v)
			{
				res_param_str(json_object_get(c, "params"), k,
					     buf, sizeof(buf));
				res_param_num(json_object_get(c, "params"), k);
			}
			json_object_foreach(
				json_object_get(s.docs[i].root, "metrics"), k,
				v)
			{
				n = 0;
				res_case_values(c, k, &x, &n, &cap);
				if (n > cap)
					__builtin_trap();
				res_case_has(c, k);
				res_pool_unit(&s, k);
				res_pool_better(&s, k);
				res_pool_is_rate(&s, k);
			}
		}
	}
	if (s.ndocs && (mode & 6))
		print(&s, mode, opts);
	free(x);
	res_pool_free(&s);
	return 0;
}
