/*
 * resdir.c: the loader's files and directories (resload.h): every
 * *.json under a directory in name order, following symbolic links,
 * each file and directory read once (known by device and inode), and a
 * file found in a walk read only when it is a regular file.
 */
#include "config.h"
#include "res_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RL_MAX_DEPTH 32 /* directory recursion limit (a backstop) */

/* The identity of a file or directory: "dev:ino". */
static void id_key(char *buf, size_t len, const struct stat *st)
{
	snprintf(buf, len, "%llx:%llx", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino);
}

/* The path a file or directory was first read under, or NULL. */
static const char *seen_as(struct rl_set *s, const char *id)
{
	return json_string_value(json_object_get(s->seen, id));
}

/* Read one file, unless it was read already under another name. In a
 * directory walk (walk) only a regular file is read, and never waited
 * for: what was a file when listed may be a FIFO by now. */
static int add_file(struct rl_set *s, const char *path, int walk)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | (walk ? O_NONBLOCK : 0));
	char id[64], *buf;
	struct stat st;
	size_t got;
	FILE *f;
	int r;

	if (fd < 0) {
		r = -errno;
		add_bad(s, path, "cannot open: %s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st)) {
		r = -errno;
		close(fd);
		add_bad(s, path, "cannot stat: %s", strerror(-r));
		return r;
	}
	if (walk && !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, path, "the same file as %s", seen_as(s, id));
		close(fd);
		return -EEXIST;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(path));
	if (st.st_size > (off_t)RL_MAX_FILE) {
		close(fd);
		add_bad(s, path, "larger than %u MiB", RL_MAX_FILE >> 20);
		return -EINVAL;
	}
	f = fdopen(fd, "rb");
	if (!f)
		abort();
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	got = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		add_bad(s, path, "read error");
		fclose(f);
		free(buf);
		return -EIO;
	}
	fclose(f);
	r = rl_add_buffer(s, path, buf, got);
	free(buf);
	return r;
}

static int is_json_name(const char *n)
{
	size_t l = strlen(n);

	return n[0] != '.' && l > 5 && !strcmp(n + l - 5, ".json");
}

/* Every *.json under dir, once: a directory already walked (another name
 * for it, or a symlink back to one being walked) is skipped. */
static size_t add_dir(struct rl_set *s, const char *dir, int depth)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent **ents;
	size_t added = 0;
	struct stat st;
	char id[64];
	int n, i;

	if (fd < 0 || fstat(fd, &st)) {
		add_bad(s, dir, "cannot read directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, dir, "%s %s",
			    json_object_get(s->walking, id)
				    ? "a symlink loop back to"
				    : "the same directory as",
			    seen_as(s, id));
		close(fd);
		return 0;
	}
	if (depth > RL_MAX_DEPTH) {
		add_bad(s, dir, "directories nested too deep");
		close(fd);
		return 0;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(dir));
	n = scandirat(fd, ".", &ents, NULL, alphasort);
	close(fd);
	if (n < 0) {
		add_bad(s, dir, "cannot read directory: %s", strerror(errno));
		return 0;
	}
	json_object_set_new(s->walking, id, json_true());
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char p[4096];

		if (name[0] != '.' &&
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, name) <
			    sizeof(p) &&
		    !stat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				added += add_dir(s, p, depth + 1);
			else if (S_ISREG(st.st_mode) && is_json_name(name))
				added += add_file(s, p, 1) == 0;
		}
		free(ents[i]);
	}
	free(ents);
	json_object_del(s->walking, id);
	return added;
}

size_t rl_add_path(struct rl_set *s, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		add_bad(s, path, "cannot open: %s", strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return add_dir(s, path, 0);
	return add_file(s, path, 0) == 0;
}
