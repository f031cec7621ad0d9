/*
 * result_valid.c: is a JSON value a result document (lib/doc/SCHEMA.md)?
 * The schema version, the fields every document has, and each case's
 * params, samples and summary; shared by the loader (report/resload.c)
 * and the tests of the writer.
 */
#include "config.h"
#include "result.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int bad(char *err, size_t len, const char *fmt, const char *what)
{
	snprintf(err, len, fmt, what);
	return -EINVAL;
}

static int validate_case(json_t *c, size_t idx, char *err, size_t len)
{
	json_t *samples = json_object_get(c, "samples"), *s, *v;
	const char *name;
	char where[64];
	size_t i;

	snprintf(where, sizeof(where), "cases[%zu]", idx);
	if (!json_is_object(c))
		return bad(err, len, "%s is not an object", where);
	if (!json_is_object(json_object_get(c, "params")))
		return bad(err, len, "%s has no params object", where);
	if (!json_is_array(samples))
		return bad(err, len, "%s has no samples array", where);
	if (!json_is_object(json_object_get(c, "summary")))
		return bad(err, len, "%s has no summary object", where);
	json_array_foreach(samples, i, s)
	{
		json_t *m = json_object_get(s, "metrics");

		if (!json_is_object(m))
			return bad(err, len, "%s: a sample has no metrics",
				   where);
		json_object_foreach(m, name, v)
		{
			if (!json_is_number(v) && !json_is_null(v)) {
				snprintf(err, len,
					 "%s: metric %s is not a number", where,
					 name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int res_validate(json_t *doc, char *err, size_t len)
{
	static const char *const strs[] = {"tool",  "tool_version", "run_id",
					   "label", "started",	    "status",
					   NULL};
	const char *schema, *status, *name;
	json_t *cases, *metrics, *c, *m;
	size_t i;
	int r;

	if (!json_is_object(doc))
		return bad(err, len, "%s", "document is not a JSON object");
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema)
		return bad(err, len, "%s", "missing field: schema");
	if (strcmp(schema, RES_SCHEMA))
		return bad(err, len, "unsupported schema version \"%s\"",
			   schema);
	for (i = 0; strs[i]; i++)
		if (!json_is_string(json_object_get(doc, strs[i])))
			return bad(err, len, "missing or non-string field: %s",
				   strs[i]);
	status = json_string_value(json_object_get(doc, "status"));
	if (strcmp(status, "ok") && strcmp(status, "failed"))
		return bad(err, len, "status \"%s\" is neither ok nor failed",
			   status);
	if (!json_is_array(json_object_get(doc, "command")))
		return bad(err, len, "%s", "missing array: command");
	if (!json_is_object(json_object_get(doc, "host")))
		return bad(err, len, "%s", "missing object: host");
	if (!json_is_array(json_object_get(doc, "warnings")))
		return bad(err, len, "%s", "missing array: warnings");
	metrics = json_object_get(doc, "metrics");
	if (!json_is_object(metrics))
		return bad(err, len, "%s", "missing object: metrics");
	json_object_foreach(metrics, name, m)
	{
		const char *b = json_string_value(json_object_get(m, "better"));

		if (!json_is_string(json_object_get(m, "unit")))
			return bad(err, len, "metric %s has no unit", name);
		if (!b || (strcmp(b, "higher") && strcmp(b, "lower")))
			return bad(err, len,
				   "metric %s: better is not higher|lower",
				   name);
	}
	cases = json_object_get(doc, "cases");
	if (!json_is_array(cases))
		return bad(err, len, "%s", "missing array: cases");
	json_array_foreach(cases, i, c)
	{
		r = validate_case(c, i, err, len);
		if (r)
			return r;
	}
	return 0;
}
