/* fuzz_soakproto.c: the cyclesoak --serve line decoder (lib/soakproto):
 * the byte stream split into lines, each parsed as a command and as a
 * reply, in one piece and in two. */
#include "config.h"
#include "soakproto.h"

#include <stdint.h>
#include <string.h>

static void on_line(void *arg, const char *line, int too_long)
{
	struct soakproto_req r;
	const char *p;

	(*(int *)arg)++;
	if (too_long)
		return;
	if (strlen(line) >= SOAKPROTO_LINE_MAX)
		__builtin_trap();
	soakproto_parse(line, &r);
	if (r.cmd == SP_START && strlen(r.arg) >= sizeof(r.arg))
		__builtin_trap();
	if (soakproto_reply(line, &p) >= 0 &&
	    (p < line || p > line + strlen(line)))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct soakproto_in in;
	int a = 0, b = 0;
	size_t cut = size ? data[0] % (size + 1) : 0;

	memset(&in, 0, sizeof(in));
	soakproto_feed(&in, (const char *)data, size, on_line, &a);
	memset(&in, 0, sizeof(in));
	soakproto_feed(&in, (const char *)data, cut, on_line, &b);
	soakproto_feed(&in, (const char *)data + cut, size - cut, on_line, &b);
	if (a != b)
		__builtin_trap(); /* splitting must not change the lines */
	return 0;
}
