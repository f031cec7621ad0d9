/*
 * test_resparse.c: the loader's quick parse (lib/doc/resparse.c)
 * against json_loadb: a document it takes is the tree json_loadb makes
 * of it (the same text when dumped, kinds of number included); what it
 * is unsure of (\u escapes, non-ASCII, a long integer, an overflowing
 * real, a duplicate key, bad syntax) it leaves to json_loadb, and it
 * never takes what json_loadb refuses. Also over a realistic document
 * with single bytes changed, deterministically.
 */
#include "config.h"
#include "res_int.h"
#include "t.h"

#include <jansson.h>

#define DUMP (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))

/* 1 when the quick parse took text, as json_loadb would have. */
static int took(const char *text, size_t len)
{
	json_t *q = res_parse_quick(text, len), *j;
	json_error_t je;
	char *a, *b;
	int same;

	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!q) {
		json_decref(j);
		return 0;
	}
	T_ASSERT(j); /* never takes what json_loadb refuses */
	a = json_dumps(q, DUMP);
	b = json_dumps(j, DUMP);
	same = a && b && !strcmp(a, b) && json_equal(q, j);
	if (!same)
		fprintf(stderr, "quick %s\nloadb %s\n", a, b);
	T_CHECK(same);
	free(a);
	free(b);
	json_decref(q);
	json_decref(j);
	return 1;
}

static int takes(const char *text)
{
	return took(text, strlen(text));
}

static void test_taken(void)
{
	T_CHECK(takes("{}"));
	T_CHECK(takes(" [ ] \n"));
	T_CHECK(takes("{\"a\":1,\"b\":-0,\"c\":[true,false,null],\"d\":{}}"));
	T_CHECK(takes("[0, -1, 123456789012345678, -123456789012345678]"));
	T_CHECK(takes("[1.5, -0.0, 1e3, 1E-3, 2.5e+10, 1e-400, 0.1]"));
	T_CHECK(takes("[3.141592653589793238462643383279]"));
	T_CHECK(takes("{\"k\\\"e\\\\y\":\"a\\/b\\b\\f\\n\\r\\t\"}"));
	T_CHECK(takes("{\"x\\n\":{\"x\\t\":[\"\\\"\"]},\"y\":\"~\"}"));
	T_CHECK(takes("{\"b\":1,\"a\":2,\"c\":{\"z\":1,\"y\":2}}")); /* order */
	T_CHECK(takes("\t{\r\n\"a\" :\t[ 1 , 2 ] }\n"));
}

static void test_left(void)
{
	/* json_loadb takes these, in its own way or not at all */
	T_CHECK(!takes("{\"a\":\"\\u00e9\"}"));
	T_CHECK(!takes("{\"a\":\"\xc3\xa9\"}"));
	T_CHECK(!takes("[1234567890123456789]"));
	T_CHECK(!takes("[99999999999999999999]"));
	T_CHECK(!takes("[1e400]"));
	T_CHECK(!takes("[-1e400]"));
	T_CHECK(!takes("{\"a\":1,\"a\":2}"));
	T_CHECK(!takes("{\"a\\n\":1,\"a\\n\":2}"));
	/* refused by json_loadb too */
	T_CHECK(!takes(""));
	T_CHECK(!takes("1"));
	T_CHECK(!takes("\"s\""));
	T_CHECK(!takes("{\"a\":01}"));
	T_CHECK(!takes("[1.]"));
	T_CHECK(!takes("[.5]"));
	T_CHECK(!takes("[1e]"));
	T_CHECK(!takes("[-]"));
	T_CHECK(!takes("[+1]"));
	T_CHECK(!takes("[1,]"));
	T_CHECK(!takes("{\"a\":1,}"));
	T_CHECK(!takes("{\"a\" 1}"));
	T_CHECK(!takes("{a:1}"));
	T_CHECK(!takes("[truex]"));
	T_CHECK(!takes("[tru]"));
	T_CHECK(!takes("[\"a\tb\"]"));
	T_CHECK(!takes("[\"\\x\"]"));
	T_CHECK(!takes("[\"abc"));
	T_CHECK(!takes("{} {}"));
	T_CHECK(!takes("[1] x"));
	T_CHECK(!takes("[[[[1]]]"));
	T_CHECK(!took("[1,\0 2]", 6));
}

/* n arrays one in another. */
static int nested(int n)
{
	char *s = malloc(2 * (size_t)n + 1);
	int i, r;

	T_ASSERT(s);
	for (i = 0; i < n; i++) {
		s[i] = '[';
		s[2 * n - 1 - i] = ']';
	}
	s[2 * n] = '\0';
	r = takes(s);
	free(s);
	return r;
}

/* Deeper than the quick parse goes (256): left to json_loadb. */
static void test_deep(void)
{
	T_CHECK(nested(256));
	T_CHECK(!nested(257));
	T_CHECK(!nested(5000)); /* json_loadb refuses it */
}

/* A document as ttcp-sf writes one, each byte changed in turn to one
 * of a few characters that matter to a parser. */
static void test_mutations(void)
{
	static const char doc[] =
		"{\"schema\":\"zcbench-result/1\",\"tool\":\"ttcp-sf\","
		"\"host\":{\"online_cpus\":2,\"sysctls\":{\"a.b\":\"1 2\"}},"
		"\"cases\":[{\"params\":{\"size\":8192,\"m\":\"w\\tx\"},"
		"\"samples\":[{\"metrics\":{\"t\":1000.25,\"c\":-1.5e-3}}],"
		"\"summary\":{\"t\":{\"n\":1,\"sd\":null,\"ok\":true}}}]}";
	static const char subst[] = "\"\\{}[],:0-.eE9 \x01\xc3tnu";
	char buf[sizeof(doc)];
	size_t i, k, taken = 0, n = 0;

	T_CHECK(takes(doc));
	for (i = 0; i + 1 < sizeof(doc); i++)
		for (k = 0; k + 1 < sizeof(subst); k++) {
			memcpy(buf, doc, sizeof(doc));
			buf[i] = subst[k];
			taken += took(buf, sizeof(doc) - 1);
			n++;
			taken += took(buf, i); /* cut short there */
			n++;
		}
	/* most changes still parse; none may differ from json_loadb */
	T_CHECK(taken > n / 10);
}

int main(void)
{
	test_taken();
	test_left();
	test_deep();
	test_mutations();
	return t_done();
}
