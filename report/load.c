/*
 * load.c: the inputs of every zcbreport subcommand: each path (a file,
 * or every *.json under a directory) into a set of documents, each
 * refused file named on stderr with its reason (escaped), each wrong
 * summary warned about, and with -v what was skipped as read already.
 */
#include "config.h"
#include "esc.h"
#include "log.h"
#include "report.h"

void load_inputs(struct res_pool *s, char *const *paths, int n)
{
	char p[1024], w[2048];
	int i;
	size_t b;

	res_pool_init(s);
	for (i = 0; i < n; i++)
		res_pool_add_path(s, paths[i]);
	res_pool_finish(s);
	for (b = 0; b < s->nbad; b++)
		log_err("%s: %s", esc_text(p, sizeof(p), s->bad[b].path),
			esc_text(w, sizeof(w), s->bad[b].why));
	for (b = 0; b < s->nwarned; b++)
		log_warn("%s: %s", esc_text(p, sizeof(p), s->warned[b].path),
			 esc_text(w, sizeof(w), s->warned[b].why));
	for (b = 0; b < s->nskipped; b++)
		log_verbose("%s: skipped, %s",
			    esc_text(p, sizeof(p), s->skipped[b].path),
			    esc_text(w, sizeof(w), s->skipped[b].why));
}
