/* fuzz_peerrep.c: the end-of-run peer report decoder (lib/peerrep). */
#include "config.h"
#include "peerrep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpu_sample s[METER_MAX];
	char err[256];
	size_t used;
	json_t *j = NULL;

	if (peerrep_decode(data, size, &used, &j, err, sizeof(err)) == 1) {
		if (used > size)
			__builtin_trap();
		peerrep_cpu(j, s, METER_MAX, err, sizeof(err));
		json_decref(j);
	}
	return 0;
}
