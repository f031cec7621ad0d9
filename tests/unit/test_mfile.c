/*
 * test_mfile.c: a file made, filled with a pattern, read back at an
 * offset, buffered and (where the file system has it) O_DIRECT; a file
 * it made is removed on request and one it found is not; errors name
 * the path.
 */
#include "config.h"
#include "mfile.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct pattern pat = {PATTERN_COUNT, 0, 251};

static void test_fill_and_read(const char *dir)
{
	struct mfile f;
	char path[512], err[4300];
	uint8_t *buf;
	struct stat st;
	int r;

	snprintf(path, sizeof(path), "%s/f", dir);
	T_ASSERT(posix_memalign((void **)&buf, MFILE_ALIGN, 8192) == 0);
	T_CHECK(mfile_open(&f, path,
			   MFILE_READ | MFILE_WRITE | MFILE_CREATE |
				   MFILE_BUFFERED,
			   err, sizeof(err)) == 0);
	T_CHECK(f.created && f.size == 0 && f.fd >= 0 && f.dfd < 0);
	T_CHECK(mfile_fill(&f, &pat, 3 * 1048576 + 100, err, sizeof(err)) == 0);
	T_CHECK(mfile_io(&f, 0, 0, buf, 4096, 1048576 + 7, err, sizeof(err)) ==
		4096);
	T_CHECK(pattern_check(&pat, buf, 1048576 + 7, 4096) == -1);
	/* short at the end of the file */
	T_CHECK(mfile_io(&f, 0, 0, buf, 4096, 3 * 1048576, err, sizeof(err)) ==
		100);
	T_CHECK(mfile_close(&f, 0, err, sizeof(err)) == 0);
	T_CHECK(stat(path, &st) == 0 && st.st_size == 3 * 1048576 + 100);

	/* found, not made: kept even when asked to remove */
	T_CHECK(mfile_open(&f, path, MFILE_READ | MFILE_CREATE | MFILE_BUFFERED,
			   err, sizeof(err)) == 0);
	T_CHECK(!f.created && f.size == 3 * 1048576 + 100);
	r = mfile_open(&f, path, MFILE_READ | MFILE_DIRECT, err, sizeof(err));
	if (r == 0) {
		T_CHECK(f.dfd >= 0 && f.fd < 0);
		T_CHECK(mfile_io(&f, 0, 1, buf, 8192, 4096, err, sizeof(err)) ==
			8192);
		T_CHECK(pattern_check(&pat, buf, 4096, 8192) == -1);
	} else {
		T_CHECK(strstr(err, "O_DIRECT open of") != NULL);
		printf("no O_DIRECT here: %s\n", err);
	}
	T_CHECK(mfile_close(&f, 1, err, sizeof(err)) == 0);
	T_CHECK(access(path, F_OK) == 0);

	/* emptied, then removed because it was made here */
	unlink(path);
	T_CHECK(mfile_open(&f, path,
			   MFILE_WRITE | MFILE_CREATE | MFILE_TRUNC |
				   MFILE_BUFFERED,
			   err, sizeof(err)) == 0);
	T_CHECK(mfile_io(&f, 1, 0, buf, 10, 0, err, sizeof(err)) == 10);
	T_CHECK(mfile_sync(&f, err, sizeof(err)) == 0);
	T_CHECK(mfile_close(&f, 1, err, sizeof(err)) == 0);
	T_CHECK(access(path, F_OK) != 0);
	free(buf);
}

static void test_errors(const char *dir)
{
	struct mfile f;
	char path[512], err[4300];
	uint8_t b[16];

	snprintf(path, sizeof(path), "%s/nope", dir);
	T_CHECK(mfile_open(&f, path, MFILE_READ | MFILE_BUFFERED, err,
			   sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "open ") && strstr(err, "nope: No such file"));
	T_CHECK(f.fd < 0 && f.dfd < 0);
	/* a read on a write-only descriptor names the call and offset */
	T_CHECK(mfile_open(&f, path,
			   MFILE_WRITE | MFILE_CREATE | MFILE_BUFFERED, err,
			   sizeof(err)) == 0);
	T_CHECK(mfile_io(&f, 0, 0, b, sizeof(b), 12, err, sizeof(err)) ==
		-EBADF);
	T_CHECK(strstr(err, "pread 16 bytes at offset 12 of ") != NULL);
	T_CHECK(mfile_close(&f, 1, err, sizeof(err)) == 0);
}

int main(void)
{
	char dir[] = "/tmp/test_mfile.XXXXXX";

	T_ASSERT(mkdtemp(dir));
	test_fill_and_read(dir);
	test_errors(dir);
	rmdir(dir);
	return t_done();
}
