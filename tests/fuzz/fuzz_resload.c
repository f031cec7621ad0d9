/* fuzz_resload.c: zcbreport's result-document loader (report/resload)
 * and its escaper of document text (report/esc): whatever it is given,
 * the escaped text needs no escaping again (no control character, all
 * UTF-8) and fits its buffer. */
#include "config.h"
#include "esc.h"
#include "resload.h"

#include <stdint.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_set s;
	double *x = NULL;
	size_t n = 0, cap = 0, i, j;
	char buf[64];

	if (size < 4096) {
		char *text = strndup((const char *)data, size);

		if (!text)
			abort();
		check_esc(text);
		free(text);
	}
	rl_init(&s);
	rl_add_buffer(&s, "fuzz", (const char *)data, size);
	/* a second copy exercises the unit vote between documents */
	rl_add_buffer(&s, "fuzz2", (const char *)data, size);
	rl_finish(&s);
	for (i = 0; i < s.ndocs; i++) {
		json_t *c;

		check_esc(s.docs[i].label);
		json_array_foreach(json_object_get(s.docs[i].root, "cases"), j,
				   c)
		{
			const char *k;
			json_t *v;

			json_object_foreach(json_object_get(c, "params"), k, v)
				rl_param_str(json_object_get(c, "params"), k,
					     buf, sizeof(buf));
			json_object_foreach(
				json_object_get(s.docs[i].root, "metrics"), k,
				v)
			{
				rl_case_values(c, k, &x, &n, &cap);
				rl_case_has(c, k);
			}
		}
	}
	if (s.nbad > 2 || s.ndocs + s.nbad != 2)
		__builtin_trap();
	free(x);
	rl_free(&s);
	return 0;
}
