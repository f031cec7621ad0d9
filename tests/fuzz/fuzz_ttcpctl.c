/* fuzz_ttcpctl.c: ttcp-sf's end-of-run exchange (ttcp-sf/ctl.c): a
 * peerrep frame holding the transmitter's hello or the receiver's report. */
#include "config.h"
#include "peerrep.h"
#include "ttcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctl_report rep;
	struct ctl_hello h;
	char err[256];
	size_t used;
	json_t *j = NULL;

	if (peerrep_decode(data, size, &used, &j, err, sizeof(err)) == 1) {
		if (used > size)
			__builtin_trap();
		err[0] = '\0';
		ctl_hello_parse(j, &h, err, sizeof(err));
		err[0] = '\0';
		if (!ctl_report_parse(j, &rep, err, sizeof(err)))
			ctl_report_free(&rep);
		json_decref(j);
	}
	return 0;
}
