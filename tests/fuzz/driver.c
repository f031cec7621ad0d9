/*
 * driver.c: runs a libFuzzer-style target without libFuzzer, so every
 * build (gcc, ASan/UBSan) can run the fuzz targets in `make check`:
 * first every file of the target's corpus (tests/fuzz/corpus/NAME/),
 * then random mutations of them for ZCB_FUZZ_SECONDS (default 2) seconds.
 * With --enable-libfuzzer the targets link -fsanitize=fuzzer instead and
 * this file is not used. Usage: fuzz_NAME [corpus-dir | file...]
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SEEDS 256
#define MAX_LEN 65536

static uint8_t *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static int nseeds;

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	size_t n;

	if (!f || nseeds == MAX_SEEDS) {
		if (f)
			fclose(f);
		return;
	}
	b = malloc(MAX_LEN);
	n = fread(b, 1, MAX_LEN, f);
	fclose(f);
	seeds[nseeds] = b;
	seed_len[nseeds++] = n;
	LLVMFuzzerTestOneInput(b, n);
}

static void load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4096];

	if (!d) {
		load(dir);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		load(p);
	}
	closedir(d);
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t mutate(uint8_t *b, size_t n)
{
	int k, rounds = 1 + (int)(next() % 8);

	for (k = 0; k < rounds; k++) {
		size_t pos = n ? next() % n : 0;

		switch (next() % 7) {
		case 0: /* flip a bit */
			if (n)
				b[pos] ^= (uint8_t)(1u << (next() % 8));
			break;
		case 1: /* random byte */
			if (n)
				b[pos] = (uint8_t)next();
			break;
		case 2: /* interesting value */
			if (n) {
				static const uint8_t v[] = { 0, 1, 0x7f, 0x80,
							     0xff, 0xfe };
				b[pos] = v[next() % sizeof(v)];
			}
			break;
		case 3: /* truncate */
			n = pos;
			break;
		case 4: /* grow with random bytes */
			while (n < MAX_LEN && next() % 16)
				b[n++] = (uint8_t)next();
			break;
		case 5: /* 0xffffffff somewhere */
			if (n >= 4) {
				pos = next() % (n - 3);
				memset(b + pos, 0xff, 4);
			}
			break;
		default: /* duplicate a chunk */
			if (n && n < MAX_LEN / 2) {
				size_t l = 1 + next() % n;

				memcpy(b + n, b + (n - l), l);
				n += l;
			}
			break;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *secs = getenv("ZCB_FUZZ_SECONDS");
	double limit = secs ? atof(secs) : 2.0;
	uint8_t *buf = malloc(MAX_LEN);
	unsigned long runs = 0;
	time_t t0 = time(NULL);
	int i;

	for (i = 1; i < argc; i++)
		load_dir(argv[i]);
	rng ^= (uint64_t)t0;
	while (difftime(time(NULL), t0) < limit) {
		size_t n = 0;

		if (nseeds) {
			int s = (int)(next() % (uint64_t)nseeds);

			memcpy(buf, seeds[s], seed_len[s]);
			n = seed_len[s];
		}
		n = mutate(buf, n);
		LLVMFuzzerTestOneInput(buf, n);
		runs++;
	}
	printf("%d seeds, %lu mutated runs, no crash\n", nseeds, runs);
	for (i = 0; i < nseeds; i++)
		free(seeds[i]);
	free(buf);
	return 0;
}
