/*
 * plotwords.c: what a plot says in words, for a mailing list: a metric
 * key as a phrase with its unit ("Read throughput (MB/s)", "CPU load,
 * local (% of all CPUs)"), a param as an axis ("IO size (bytes)",
 * "Clients"), and a line's name from its key values ("6.18, sendfile",
 * "48 clients"). Keys it does not know are shown as they are.
 */
#include "config.h"
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key, *words;
} metric_words[] = {
	{"throughput_MBps", "throughput"},
	{"ops_per_s", "operations"},
	{"msgs_per_s", "messages"},
	{"trans_per_s", "transactions"},
	{"elapsed_s", "elapsed time"},
	{"real_s", "real time"},
	{"system_s", "system time"},
	{"user_s", "user time"},
	{"time_cpu_pct", "CPU, time(1)'s (user + system) / real"},
	{"zc_copied_pct", "zero-copy sends copied"},
	{"exchange_s", "exchange time"},
};

/* "cpu_local_pct" -> "CPU load, local"; "sd_remote_us_per_kb" ->
 * "service demand, remote"; 0 when m is neither. */
static int side_words(const char *m, char *buf, size_t len)
{
	const char *what, *rest;
	char side[64];
	size_t n;

	if (!strncmp(m, "cpu_", 4)) {
		what = "CPU load";
		rest = m + 4;
	} else if (!strncmp(m, "sd_", 3)) {
		what = "service demand";
		rest = m + 3;
	} else {
		return 0;
	}
	n = strcspn(rest, "_");
	if (!n || n >= sizeof(side))
		return 0;
	memcpy(side, rest, n);
	side[n] = 0;
	rest += n;
	if (!strcmp(rest, "_pct") || !strcmp(rest, "_us_per_kb"))
		snprintf(buf, len, "%s, %s", what, side);
	else if (!strcmp(rest, "_softirq_pct"))
		snprintf(buf, len, "softirq CPU, %s", side);
	else
		snprintf(buf, len, "%s, %s (%.*s meter)", what, side,
			 (int)strcspn(rest + 1, "_"), rest + 1);
	return 1;
}

void pw_metric(const char *metric, const char *op, char *buf, size_t len)
{
	char w[160] = "";
	const char *m = metric;
	int metered = !strncmp(m, "metered_", 8);
	size_t i;

	if (metered)
		m += 8;
	for (i = 0; i < sizeof(metric_words) / sizeof(metric_words[0]); i++)
		if (!strcmp(metric_words[i].key, m))
			snprintf(w, sizeof(w), "%s", metric_words[i].words);
	if (!w[0] && !side_words(m, w, sizeof(w)))
		snprintf(w, sizeof(w), "%s", m);
	/* "Read throughput": the op when every case shares one */
	if (op && !strcmp(m, "throughput_MBps"))
		snprintf(buf, len, "%c%s %s%s", op[0] & ~0x20, op + 1, w,
			 metered ? ", metered runs" : "");
	else
		snprintf(buf, len, "%c%s%s",
			 w[0] >= 'a' && w[0] <= 'z' ? w[0] & ~0x20 : w[0],
			 w + 1, metered ? ", metered runs" : "");
}

void pw_metric_label(const char *metric, const char *op, const char *unit,
		     char *buf, size_t len)
{
	char w[256];

	pw_metric(metric, op, w, sizeof(w));
	if (!unit || !*unit)
		snprintf(buf, len, "%s", w);
	else if (!strcmp(unit, "%") && !strncmp(metric, "cpu_", 4))
		snprintf(buf, len, "%s (%% of all CPUs)", w);
	else
		snprintf(buf, len, "%s (%s)", w, unit);
}

static const struct {
	const char *key, *axis, *legend; /* legend: before the value */
	int size; /* bytes or counts that double: a log2 axis */
} param_words[] = {
	{"size", "I/O size (bytes)", "size", 1},
	{"iosize", "IO size (bytes)", "IO size", 1},
	{"rsize", "NFS rsize (bytes)", "rsize", 1},
	{"wsize", "NFS wsize (bytes)", "wsize", 1},
	{"msize", "9P msize (bytes)", "msize", 1},
	{"bytes_per_loop", "Bytes per loop", "bytes per loop", 1},
	{"total_bytes", "Bytes in all", "bytes", 1},
	{"clients", "Clients", NULL, 1},
	{"users", "Users", NULL, 1},
	{"rooms", "Rooms", NULL, 1},
	{"connections", "Connections", NULL, 1},
	{"qd", "Queue depth", "queue depth", 0},
};
#define NPARAM (sizeof(param_words) / sizeof(param_words[0]))

const char *pw_axis(const char *param, const char *tool)
{
	size_t i;

	if (!strcmp(param, "size") && tool && !strcmp(tool, "chatbench"))
		return "Message size (bytes)";
	if (!strcmp(param, "size") && tool && !strcmp(tool, "ttcp-sf"))
		return "Buffer size per call (bytes)";
	for (i = 0; i < NPARAM; i++)
		if (!strcmp(param_words[i].key, param))
			return param_words[i].axis;
	return param;
}

int pw_size_param(const char *param)
{
	size_t i;

	for (i = 0; i < NPARAM; i++)
		if (!strcmp(param_words[i].key, param))
			return param_words[i].size;
	return 0;
}

void pw_legend(const char *key, const char *value, char *buf, size_t len)
{
	char *end;
	double v = strtod(value, &end);
	size_t i;

	if (!strcmp(value, "yes") || !strcmp(value, "no")) {
		snprintf(buf, len, "%s%s", *value == 'n' ? "no " : "", key);
		return;
	}
	if (!strcmp(key, "label") || !strcmp(key, "tool")) {
		snprintf(buf, len, "%s", value);
		return;
	}
	for (i = 0; i < NPARAM; i++) {
		if (strcmp(param_words[i].key, key))
			continue;
		if (param_words[i].legend)
			snprintf(buf, len, "%s %s", param_words[i].legend,
				 value);
		else /* "48 clients", "1 client" */
			snprintf(buf, len, "%s %.*s", value,
				 (int)strlen(key) - (*end == 0 && v == 1), key);
		return;
	}
	if (*value && *end) /* a word: "sendfile", "read", "direct" */
		snprintf(buf, len, "%s", value);
	else
		snprintf(buf, len, "%s %s", key, value);
}
