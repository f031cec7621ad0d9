/*
 * resparse.c: the loader's quick parse (res_int.h). jansson's own parse
 * reads a document a character at a time through its stream and
 * checks every byte as UTF-8; on a large compare that was most of the
 * time. This one builds the same tree with jansson's own calls, for
 * the documents the tools write: plain ASCII text whose strings use
 * the short escapes. Whatever it is not sure of (a \u escape, a byte
 * above 0x7e or below 0x20 in a string, a long integer, a real out of
 * range, any syntax error, a duplicate key) it leaves to json_loadb,
 * which then says why a document is refused in its own words: it never
 * accepts what json_loadb refuses, and what it accepts is the tree
 * json_loadb (JSON_REJECT_DUPLICATES) makes of it.
 */
#include "config.h"
#include "res_int.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QP_MAX_DEPTH 256 /* deeper: left to json_loadb (its limit 2048) */
#define QP_MAX_NUM   64	 /* a longer number: left to json_loadb */

struct qp {
	const char *p, *end;
	int depth;
	char *tmp; /* an escaped string's text (grown) */
	size_t tcap;
};

static json_t *qp_value(struct qp *q);

static void qp_ws(struct qp *q)
{
	while (q->p < q->end && (*q->p == ' ' || *q->p == '\n' ||
				 *q->p == '\t' || *q->p == '\r'))
		q->p++;
}

/* The one escape a quick string may have, or 0 (\u: not here). */
static char qp_unescape(char c)
{
	switch (c) {
	case '"':
	case '\\':
	case '/':
		return c;
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case 't':
		return '\t';
	default:
		return 0;
	}
}

/* A string at q->p (its opening quote): its text and length (in the
 * document, or unescaped into q->tmp), or NULL. */
static const char *qp_string(struct qp *q, size_t *len)
{
	const char *s = ++q->p, *p;
	size_t n = 0;
	int esc = 0;

	for (p = s; p < q->end && *p != '"'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c > 0x7e)
			return NULL;
		if (c == '\\') {
			if (++p == q->end || !qp_unescape(*p))
				return NULL;
			esc = 1;
		}
	}
	if (p == q->end)
		return NULL;
	q->p = p + 1;
	if (!esc) {
		*len = (size_t)(p - s);
		return s;
	}
	if (q->tcap < (size_t)(p - s) + 1) {
		q->tcap = (size_t)(p - s) + 1;
		free(q->tmp);
		q->tmp = malloc(q->tcap);
		if (!q->tmp)
			abort();
	}
	for (; s < p; s++)
		q->tmp[n++] = *s == '\\' ? qp_unescape(*++s) : *s;
	*len = n;
	return q->tmp;
}

static int is_digit(const struct qp *q, const char *p)
{
	return p < q->end && *p >= '0' && *p <= '9';
}

/* A number as json_loadb reads it: an integer when it has no fraction
 * or exponent (here up to 18 digits), else a real (strtod). */
static json_t *qp_number(struct qp *q)
{
	const char *s = q->p, *p = s + (*s == '-');
	char buf[QP_MAX_NUM];
	int real = 0;
	double d;

	if (!is_digit(q, p))
		return NULL;
	if (*p == '0')
		p++;
	else
		while (is_digit(q, p))
			p++;
	if (p < q->end && *p == '.') {
		real = 1;
		if (!is_digit(q, ++p))
			return NULL;
		while (is_digit(q, p))
			p++;
	}
	if (p < q->end && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		if (p < q->end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(q, p))
			return NULL;
		while (is_digit(q, p))
			p++;
	}
	if (p - s >= QP_MAX_NUM || (!real && p - s - (*s == '-') > 18))
		return NULL;
	q->p = p;
	if (!real) {
		json_int_t v = 0;

		for (p = s + (*s == '-'); p < q->p; p++)
			v = v * 10 + (*p - '0');
		return json_integer(*s == '-' ? -v : v);
	}
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	errno = 0;
	d = strtod(buf, NULL);
	if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
		return NULL;
	return json_real(d);
}

/* A word at q->p: true, false or null. */
static json_t *qp_word(struct qp *q)
{
	static const char *const w[] = {"true", "false", "null"};
	size_t i, l;

	for (i = 0; i < 3; i++) {
		l = strlen(w[i]);
		if ((size_t)(q->end - q->p) >= l && !memcmp(q->p, w[i], l)) {
			q->p += l;
			return i == 0	? json_true()
			       : i == 1 ? json_false()
					: json_null();
		}
	}
	return NULL;
}

/* The next structural character after blanks: c (taken), else 0. */
static int qp_take(struct qp *q, char c)
{
	qp_ws(q);
	if (q->p < q->end && *q->p == c) {
		q->p++;
		return 1;
	}
	return 0;
}

/* An object's members after its '{'; NULL (o freed) on doubt. */
static json_t *qp_object(struct qp *q, json_t *o)
{
	const char *k;
	char *copy;
	size_t len, before;
	json_t *v;

	if (qp_take(q, '}'))
		return o;
	do {
		qp_ws(q);
		if (q->p == q->end || *q->p != '"')
			break;
		k = qp_string(q, &len);
		if (!k || !qp_take(q, ':'))
			break;
		/* an escaped key is in q->tmp, which the value may reuse */
		copy = k == q->tmp ? strndup(k, len) : NULL;
		if (k == q->tmp && !copy)
			abort();
		v = qp_value(q);
		before = json_object_size(o);
		/* a key twice: json_loadb refuses it, and says so */
		if (!v ||
		    json_object_setn_new_nocheck(o, copy ? copy : k, len, v) ||
		    json_object_size(o) == before) {
			free(copy);
			break;
		}
		free(copy);
		if (qp_take(q, '}'))
			return o;
	} while (qp_take(q, ','));
	json_decref(o);
	return NULL;
}

/* An array's values after its '['; NULL (a freed) on doubt. */
static json_t *qp_array(struct qp *q, json_t *a)
{
	json_t *v;

	if (qp_take(q, ']'))
		return a;
	do {
		v = qp_value(q);
		if (!v || json_array_append_new(a, v))
			break;
		if (qp_take(q, ']'))
			return a;
	} while (qp_take(q, ','));
	json_decref(a);
	return NULL;
}

static json_t *qp_value(struct qp *q)
{
	const char *s;
	size_t len;
	json_t *v;

	qp_ws(q);
	if (q->p == q->end)
		return NULL;
	switch (*q->p) {
	case '{':
	case '[':
		if (q->depth == QP_MAX_DEPTH)
			return NULL;
		q->depth++;
		v = *q->p++ == '{' ? qp_object(q, json_object())
				   : qp_array(q, json_array());
		q->depth--;
		return v;
	case '"':
		s = qp_string(q, &len);
		return s ? json_stringn_nocheck(s, len) : NULL;
	default:
		if (*q->p == '-' || (*q->p >= '0' && *q->p <= '9'))
			return qp_number(q);
		return qp_word(q);
	}
}

json_t *res_parse_quick(const char *buf, size_t len)
{
	struct qp q = {.p = buf, .end = buf + len};
	json_t *root;

	/* json_loadb reads a real in the locale's decimal point */
	if (strcmp(localeconv()->decimal_point, "."))
		return NULL;
	qp_ws(&q);
	if (q.p == q.end || (*q.p != '{' && *q.p != '['))
		return NULL;
	root = qp_value(&q);
	qp_ws(&q);
	free(q.tmp);
	if (root && q.p != q.end) {
		json_decref(root);
		return NULL;
	}
	return root;
}
