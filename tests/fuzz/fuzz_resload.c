/* fuzz_resload.c: zcbreport's result-document loader (report/resload). */
#include "config.h"
#include "resload.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_set s;
	double *x = NULL;
	size_t n = 0, cap = 0, i, j;
	char buf[64];

	rl_init(&s);
	rl_add_buffer(&s, "fuzz", (const char *)data, size);
	/* a second copy exercises the unit vote between documents */
	rl_add_buffer(&s, "fuzz2", (const char *)data, size);
	rl_finish(&s);
	for (i = 0; i < s.ndocs; i++) {
		json_t *c;

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
