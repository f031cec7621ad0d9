/*
 * layout.c: the seed layouts (layout.h): their list, and printing one,
 * all (the profiled runs in the profile layout only), or one of a
 * document in memory. Each layout's tables are
 * descriptors in its family's file (lay_p9.c, lay_nfs.c, lay_ttcp.c,
 * lay_chat.c), printed by the driver (lay_drv.c).
 */
#include "config.h"
#include "lay_int.h"

#include <stdlib.h>
#include <string.h>

static const struct layout *const layouts[] = {
	&lay_p9,   &lay_nfs_rsize,  &lay_ttcp_cpu, &lay_nfs_clients,
	&lay_chat, &lay_zc_vs_copy, &lay_profile, NULL,
};

const char *layout_name(size_t i)
{
	return i < sizeof(layouts) / sizeof(layouts[0]) && layouts[i]
		       ? layouts[i]->name
		       : NULL;
}

/* A layout's tables in order; 0 when one printed. */
static int print_layout(const struct layout *y, const struct res_pool *s,
			const struct layout_opts *o)
{
	int printed = 0, i;

	for (i = 0; y->tables[i]; i++)
		if (!y->tables[i]->fallback || !printed)
			printed |=
				!lay_table_print(y->tables[i], s, o, printed);
	return !printed;
}

const char *layout_tool(const char *name)
{
	int i;

	for (i = 0; layouts[i]; i++)
		if (!strcmp(name, layouts[i]->name))
			return layouts[i]->tool;
	return NULL;
}

/* Whether a document is a profiled run's (its cases carry the profile
 * meter's shares). */
static int profiled(const struct res_pdoc *d)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(d->root, "cases"), i, c)
	{
		if (res_case_has(c, "prof_local_copy_pct"))
			return 1;
	}
	return 0;
}

/*
 * The set the seed layouts of "all" read: s without its profiled runs
 * (a view: the documents are s's, free only view->docs). Those are the
 * profile layout's; as extra rows of a seed table their metered runs
 * would pool with the experiment's own (the main job keeps them apart).
 */
static void seed_view(const struct res_pool *s, struct res_pool *view)
{
	size_t i;

	*view = *s;
	view->docs = calloc(s->ndocs + 1, sizeof(*view->docs));
	if (!view->docs)
		abort();
	view->ndocs = view->capdocs = 0;
	for (i = 0; i < s->ndocs; i++)
		if (!profiled(&s->docs[i]))
			view->docs[view->ndocs++] = s->docs[i];
}

int layout_print(const char *name, const struct res_pool *s,
		 const struct layout_opts *lo)
{
	struct layout_opts oo = *lo, *o = &oo;
	int all = !strcmp(name, "all"), i, printed = 0, r;
	struct res_pool seed;
	char line[160];

	if (!o->out)
		o->out = stdout;
	if (!all) {
		for (i = 0; layouts[i]; i++)
			if (!strcmp(name, layouts[i]->name))
				return print_layout(layouts[i], s, o);
		return -1;
	}
	seed_view(s, &seed);
	for (i = 0; layouts[i]; i++) {
		if (i)
			fputc('\n', o->out);
		snprintf(line, sizeof(line), "--- %s: %s", layouts[i]->name,
			 layouts[i]->what);
		tbl_note(o->out, o->fmt, line);
		fputc('\n', o->out);
		r = print_layout(layouts[i],
				 layouts[i] == &lay_profile ? s : &seed, o);
		if (r) {
			snprintf(line, sizeof(line),
				 "(skipped: no %s results for this layout)",
				 layouts[i]->tool);
			tbl_note(o->out, o->fmt, line);
		}
		printed += !r;
	}
	free(seed.docs);
	return !printed;
}

int layout_print_doc(const char *name, json_t *doc, const struct layout_opts *o)
{
	struct res_pool s;
	int r = 1;

	res_pool_init(&s);
	if (!res_pool_add_json(&s, "-", doc, RL_KEEP_FAILED)) {
		res_pool_finish(&s);
		r = layout_print(name, &s, o);
	}
	res_pool_free(&s);
	return r;
}
