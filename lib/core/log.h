/* log.h: diagnostics to stderr, with the program's name; die for mains. */
#ifndef ZCB_LOG_H
#define ZCB_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_ERROR = -2, /* errors: shown at every level */
	LOG_QUIET = -1, /* -q: errors only */
	LOG_NORMAL = 0, /* warnings and notes */
	LOG_VERBOSE = 1, /* -v */
	LOG_DEBUG = 2, /* -vv */
};

extern int log_level;		/* current verbosity, LOG_NORMAL by default */
extern const char *log_prog;	/* prefix of every line */

void log_init(const char *argv0);
/* One line "PROG: KIND<message>" when level is at most log_level; kind
 * is "" or a word such as "warning: ". The macros below name the kinds. */
void log_line(int level, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Exit 1 after printing; die_errno appends strerror(errno). Mains only. */
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Exit 2: bad usage, the message names the wrong option or value. */
void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Hook run by die() before exiting (flush a failed result document). */
void log_set_die_hook(void (*hook)(const char *msg));

#define log_msg(level, ...) log_line(level, "", __VA_ARGS__)
#define log_warn(...) log_line(LOG_NORMAL, "warning: ", __VA_ARGS__)
#define log_err(...) log_line(LOG_ERROR, "error: ", __VA_ARGS__)
#define log_info(...) log_msg(LOG_NORMAL, __VA_ARGS__)
#define log_verbose(...) log_msg(LOG_VERBOSE, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
