/*
 * cpujson.c: CPU samples as JSON and back: a result document's raw "cpu"
 * entries, the end-of-run peer report (lib/wire/peerrep frames it) and
 * the replies of cyclesoak --serve. Every field read from a peer is
 * checked for type and range, a meter's name against the meter table,
 * and every other string escaped (lib/core/esc) as it is decoded: no
 * printer of a peer's figures has to remember.
 */
#include "config.h"
#include "cpujson.h"
#include "esc.h"
#include "hostinfo.h"
#include "hostrun.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cpu_sample_to_json(const struct cpu_sample *s)
{
	json_t *j = json_pack("{s:s, s:b, s:s, s:o, s:i, s:o}", "meter",
			      s->meter, "ok", s->ok, "scope", s->scope,
			      "elapsed_s", num(s->elapsed_s), "ncpu", s->ncpu,
			      "busy_pct", num(s->busy_pct));
	const struct meter_ops *o = meter_find(s->meter);
	int i;

	if (!s->ok)
		json_object_set_new(j, "why", json_string(s->why));
	if (s->paused)
		json_object_set_new(j, "paused", json_true());
	if (s->note[0])
		json_object_set_new(j, "note", json_string(s->note));
	if (!strcmp(s->meter, "procstat")) {
		json_object_set_new(j, "user_pct", num(s->user_pct));
		json_object_set_new(j, "nice_pct", num(s->nice_pct));
		json_object_set_new(j, "sys_pct", num(s->sys_pct));
		json_object_set_new(j, "irq_pct", num(s->irq_pct));
		json_object_set_new(j, "softirq_pct", num(s->softirq_pct));
		json_object_set_new(j, "steal_pct", num(s->steal_pct));
		json_object_set_new(j, "iowait_pct", num(s->iowait_pct));
		json_object_set_new(j, "idle_pct", num(s->idle_pct));
		json_object_set_new(j, "resolution_pct",
				    num(s->resolution_pct));
	}
	if (s->utime_s > 0 || s->stime_s > 0 ||
	    (meter_flags_of(s->meter) & METER_PROCESS)) {
		json_object_set_new(j, "utime_s", num(s->utime_s));
		json_object_set_new(j, "stime_s", num(s->stime_s));
		json_object_set_new(j, "nvcsw", json_integer(s->nvcsw));
		json_object_set_new(j, "nivcsw", json_integer(s->nivcsw));
	}
	if (s->have_percpu) {
		json_t *a = json_array();

		for (i = 0; i < s->ncpu && i < METER_MAX_CPUS; i++)
			json_array_append_new(a, num(s->percpu_busy[i]));
		json_object_set_new(j, "percpu_busy_pct", a);
	}
	if (s->ok && o && o->to_json)
		json_object_set_new(j, o->json_key, o->to_json(s));
	if (s->ncounters) {
		json_t *c = json_object();

		for (i = 0; i < s->ncounters; i++) {
			const struct meter_counter *k = &s->ctr[i];

			json_object_set_new(
				c, k->name,
				k->ok ? json_pack("{s:b, s:o, s:o}", "ok", 1,
						  "value", num(k->value),
						  "per_sec", num(k->per_sec)) :
					json_pack("{s:b, s:s}", "ok", 0, "why",
						  k->why));
		}
		json_object_set_new(j, "counters", c);
	}
	return j;
}

static double getnum(json_t *j, const char *k)
{
	json_t *v = json_object_get(j, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A string from a peer, escaped (cut short at a whole character). */
static void getstr(json_t *j, const char *k, char *buf, size_t len)
{
	esc_text(buf, len, json_string_value(json_object_get(j, k)));
}

int cpu_sample_from_json(json_t *j, struct cpu_sample *s, char *err,
			 size_t len)
{
	const struct meter_ops *o;
	json_t *a, *c, *v;
	const char *name;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "meter")) ||
	    !json_is_boolean(json_object_get(j, "ok"))) {
		snprintf(err, len, "CPU report entry lacks meter or ok");
		return -EINVAL;
	}
	name = json_string_value(json_object_get(j, "meter"));
	if (!meter_find(name)) {
		char shown[64], names[160];

		snprintf(err, len,
			 "CPU report names an unknown meter \"%s\" (%s)",
			 esc_text(shown, sizeof(shown), name),
			 meter_names(names, sizeof(names), ", "));
		return -EINVAL;
	}
	snprintf(s->meter, sizeof(s->meter), "%s", name);
	getstr(j, "why", s->why, sizeof(s->why));
	getstr(j, "scope", s->scope, sizeof(s->scope));
	getstr(j, "note", s->note, sizeof(s->note));
	s->ok = json_is_true(json_object_get(j, "ok"));
	s->paused = !s->ok && json_is_true(json_object_get(j, "paused"));
	s->elapsed_s = getnum(j, "elapsed_s");
	s->busy_pct = getnum(j, "busy_pct");
	v = json_object_get(j, "ncpu");
	s->ncpu = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	if (s->ok && (!isfinite(s->busy_pct) || s->busy_pct < 0 ||
		      s->busy_pct > 100.5 || s->ncpu < 1 || s->ncpu > 65536 ||
		      !(s->elapsed_s >= 0))) {
		snprintf(err, len, "CPU report for %s has values out of range",
			 s->meter);
		return -EINVAL;
	}
	s->user_pct = getnum(j, "user_pct");
	s->nice_pct = getnum(j, "nice_pct");
	s->sys_pct = getnum(j, "sys_pct");
	s->irq_pct = getnum(j, "irq_pct");
	s->softirq_pct = getnum(j, "softirq_pct");
	s->steal_pct = getnum(j, "steal_pct");
	s->iowait_pct = getnum(j, "iowait_pct");
	s->idle_pct = getnum(j, "idle_pct");
	s->resolution_pct = getnum(j, "resolution_pct");
	if (!(s->resolution_pct >= 0 && s->resolution_pct <= 100))
		s->resolution_pct = 0; /* absent (an older peer) or wrong */
	s->utime_s = getnum(j, "utime_s");
	o = meter_find(s->meter);
	if (s->ok && o && o->from_json &&
	    o->from_json(json_object_get(j, o->json_key), s, err, len))
		return -EINVAL;
	s->stime_s = getnum(j, "stime_s");
	a = json_object_get(j, "percpu_busy_pct");
	if (json_is_array(a)) {
		s->have_percpu = 1;
		json_array_foreach(a, i, v)
		{
			if (i >= METER_MAX_CPUS)
				break;
			s->percpu_busy[i] = json_is_number(v) ?
						    json_number_value(v) :
						    NAN;
		}
	}
	c = json_object_get(j, "counters");
	json_object_foreach(c, name, v)
	{
		struct meter_counter *k;

		if (s->ncounters >= METER_MAX_COUNTERS)
			break;
		k = &s->ctr[s->ncounters++];
		esc_text(k->name, sizeof(k->name), name);
		k->ok = json_is_true(json_object_get(v, "ok"));
		k->value = getnum(v, "value");
		k->per_sec = getnum(v, "per_sec");
		getstr(v, "why", k->why, sizeof(k->why));
	}
	return 0;
}

json_t *cpujson_report(const struct cpu_sample *s, int n)
{
	struct hostinfo h;
	json_t *cpu = json_array(), *o;
	int i;

	hostinfo_read(NULL, &h);
	for (i = 0; i < n; i++)
		json_array_append_new(cpu, cpu_sample_to_json(&s[i]));
	o = json_pack("{s:o, s:o}", "host", hostinfo_to_json(&h), "cpu", cpu);
	hostrun_add(json_object_get(o, "host"));
	hostinfo_free(&h);
	return o;
}

int cpujson_from_report(json_t *rep, struct cpu_sample *s, int max, char *err,
		size_t elen)
{
	json_t *a = json_object_get(rep, "cpu"), *e;
	size_t i;
	int r;

	if (!json_is_array(a)) {
		snprintf(err, elen, "peer report: no cpu array");
		return -EINVAL;
	}
	if (json_array_size(a) > (size_t)max) {
		snprintf(err, elen, "peer report: %zu meters, at most %d",
			 json_array_size(a), max);
		return -EINVAL;
	}
	json_array_foreach(a, i, e)
	{
		r = cpu_sample_from_json(e, &s[i], err, elen);
		if (r)
			return r;
	}
	return (int)json_array_size(a);
}

void meter_add_raw(json_t *sample, const char *side,
		   const struct cpu_sample *s, int n)
{
	json_t *cpu = json_object_get(sample, "cpu"), *a = json_array();
	int i;

	if (!cpu) {
		cpu = json_object();
		json_object_set_new(sample, "cpu", cpu);
	}
	for (i = 0; i < n; i++)
		json_array_append_new(a, cpu_sample_to_json(&s[i]));
	json_object_set_new(cpu, side, a);
}
