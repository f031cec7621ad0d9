/* log.c: one place that writes diagnostics, so every tool looks alike. */
#include "config.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int log_level = LOG_NORMAL;
const char *log_prog = "zcbench";
static void (*die_hook)(const char *msg);

void log_init(const char *argv0)
{
	const char *s = argv0 ? strrchr(argv0, '/') : NULL;

	log_prog = s ? s + 1 : (argv0 ? argv0 : "zcbench");
}

void log_set_die_hook(void (*hook)(const char *msg))
{
	die_hook = hook;
}

void log_line(int level, const char *kind, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s%s\n", log_prog, kind, buf);
}

static void __attribute__((noreturn))
vdie(int code, const char *fmt, va_list ap, int with_errno)
{
	char buf[1024];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (with_errno && n >= 0 && (size_t)n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ": %s", strerror(errno));
	fprintf(stderr, "%s: %s\n", log_prog, buf);
	if (die_hook) {
		void (*h)(const char *) = die_hook;

		die_hook = NULL; /* no recursion if the hook dies */
		h(buf);
	}
	exit(code);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(1, fmt, ap, 0);
}

void die_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	errno = e;
	vdie(1, fmt, ap, 1);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(2, fmt, ap, 0);
}
