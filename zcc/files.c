/*
 * files.c: the files zcc sends, opened once for every run and connection:
 * regular files up to the protocol's 4 GiB - 1 each; the rest skipped
 * with a line saying why.
 */
#include "config.h"
#include "zcc.h"

#include "log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int files_open(struct fileset *fs, char **paths, int n, size_t bufsize)
{
	char err[512];
	struct stat st;
	int i;

	memset(fs, 0, sizeof(*fs));
	fs->src = calloc((size_t)n, sizeof(*fs->src));
	fs->len = calloc((size_t)n, sizeof(*fs->len));
	if (!fs->src || !fs->len)
		abort();
	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st)) {
			log_warn("skipping %s: %s", paths[i], strerror(errno));
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			log_info("skipping %s: not a regular file", paths[i]);
			continue;
		}
		if ((uint64_t)st.st_size > UINT32_MAX) {
			log_info(
				"skipping %s: %llu bytes, the protocol's lengths stop at 4 GiB - 1",
				paths[i], (unsigned long long)st.st_size);
			continue;
		}
		fs->src[fs->n].fd = -1;
		if (st.st_size &&
		    xfer_source_open(&fs->src[fs->n], paths[i], 0, bufsize, 0,
				     0, 0, NULL, err, sizeof(err))) {
			log_warn("skipping %s: %s", paths[i], err);
			continue;
		}
		fs->len[fs->n] = (uint64_t)st.st_size;
		fs->bytes += (uint64_t)st.st_size;
		fs->n++;
	}
	return fs->n;
}

void files_close(struct fileset *fs)
{
	int i;

	for (i = 0; i < fs->n; i++)
		if (fs->len[i])
			xfer_source_close(&fs->src[i]);
	free(fs->src);
	free(fs->len);
	memset(fs, 0, sizeof(*fs));
}
