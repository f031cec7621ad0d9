/*
 * layout.c: the seed layouts (layout.h): their list, and printing one,
 * all, or one of a document in memory. Each layout's tables are
 * descriptors in its family's file (lay_p9.c, lay_nfs.c, lay_ttcp.c,
 * lay_chat.c), printed by the driver (lay_drv.c).
 */
#include "config.h"
#include "lay_int.h"

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
static int print_layout(const struct layout *y, const struct rl_set *s,
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

int layout_print(const char *name, const struct rl_set *s,
		 const struct layout_opts *lo)
{
	struct layout_opts oo = *lo, *o = &oo;
	int all = !strcmp(name, "all"), i, printed = 0, r;
	char line[160];

	if (!o->out)
		o->out = stdout;
	for (i = 0; layouts[i]; i++) {
		if (!all && strcmp(name, layouts[i]->name))
			continue;
		if (!all)
			return print_layout(layouts[i], s, o);
		if (i)
			fputc('\n', o->out);
		snprintf(line, sizeof(line), "--- %s: %s", layouts[i]->name,
			 layouts[i]->what);
		tbl_note(o->out, o->fmt, line);
		fputc('\n', o->out);
		r = print_layout(layouts[i], s, o);
		if (r) {
			snprintf(line, sizeof(line),
				 "(skipped: no %s results for this layout)",
				 layouts[i]->tool);
			tbl_note(o->out, o->fmt, line);
		}
		printed += !r;
	}
	return all ? !printed : -1;
}

int layout_print_doc(const char *name, json_t *doc, const struct layout_opts *o)
{
	struct rl_set s;
	int r = 1;

	rl_init(&s);
	if (!rl_add_json(&s, "-", doc, RL_KEEP_FAILED)) {
		rl_finish(&s);
		r = layout_print(name, &s, o);
	}
	rl_free(&s);
	return r;
}
