/*
 * t.h: the unit-test helpers. Each test program is one module's tests;
 * T_CHECK records a failure and goes on, T_ASSERT stops the program.
 * Exit 0 pass, 1 fail, 77 skip (automake's convention).
 */
#ifndef ZCB_T_H
#define ZCB_T_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int t_failures;
static int t_checks;

#define T_CHECK(cond)                                                        \
	do {                                                                 \
		t_checks++;                                                  \
		if (!(cond)) {                                               \
			t_failures++;                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n",         \
				__FILE__, __LINE__, #cond);                  \
		}                                                            \
	} while (0)

#define T_ASSERT(cond)                                                       \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: assertion failed: %s\n",     \
				__FILE__, __LINE__, #cond);                  \
			exit(1);                                             \
		}                                                            \
	} while (0)

#define T_NEAR(a, b, tol)                                                    \
	do {                                                                 \
		double t_a_ = (a), t_b_ = (b);                               \
		t_checks++;                                                  \
		if (!(fabs(t_a_ - t_b_) <= (tol))) {                         \
			t_failures++;                                        \
			fprintf(stderr,                                      \
				"%s:%d: %s = %.9g, expected %.9g +- %g\n",   \
				__FILE__, __LINE__, #a, t_a_, t_b_,          \
				(double)(tol));                              \
		}                                                            \
	} while (0)

#define T_STREQ(a, b)                                                        \
	do {                                                                 \
		const char *t_a_ = (a), *t_b_ = (b);                         \
		t_checks++;                                                  \
		if (!t_a_ || !t_b_ || strcmp(t_a_, t_b_)) {                  \
			t_failures++;                                        \
			fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, t_a_ ? t_a_ : "(null)", \
				t_b_ ? t_b_ : "(null)");                     \
		}                                                            \
	} while (0)

#define T_SKIP(why)                                                          \
	do {                                                                 \
		printf("SKIP: %s\n", why);                                   \
		exit(77);                                                    \
	} while (0)

/* Burn CPU until clk (CLOCK_MONOTONIC: wall time; a CPU-time clock: the
 * process's or thread's own, which a busy box cannot shorten) has moved
 * by seconds. */
static inline void t_spin(clockid_t clk, double seconds)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(clk, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(clk, &b);
	} while ((double)(b.tv_sec - a.tv_sec) +
			 (double)(b.tv_nsec - a.tv_nsec) / 1e9 <
		 seconds);
	(void)x;
}

static inline int t_done(void)
{
	printf("%d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}

/* The source tree's tests/data directory (for fixtures). */
static inline const char *t_datadir(void)
{
	const char *s = getenv("ZCB_SRCDIR");
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/tests/data", s ? s : ZCB_SRCDIR);
	return buf;
}

/* A seeded generator for tests of statistics (xorshift64): the same
 * draws on every run. t_unif in (0, 1), t_gauss standard normal. */
static unsigned long long t_rng = 0x2545f4914f6cdd1dull;

static inline double t_unif(void)
{
	t_rng ^= t_rng << 13;
	t_rng ^= t_rng >> 7;
	t_rng ^= t_rng << 17;
	return ((double)(t_rng >> 11) + 0.5) / 9007199254740992.0;
}

static inline double t_gauss(void)
{
	double u = t_unif();

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * t_unif());
}

#endif
