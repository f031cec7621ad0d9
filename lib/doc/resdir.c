/*
 * resdir.c: the loader's files and directories (resload.h): every
 * *.json under a directory in name order, following symbolic links,
 * each file and directory read once (known by device and inode), and a
 * file found in a walk read only when it is a regular file. Files are
 * read in walk order and parsed and judged in batches by a thread per
 * CPU (jansson's parse is most of a large compare's time), then kept in
 * walk order: the documents, and the refusals, come out as one thread
 * would have made them.
 */
#include "config.h"
#include "res_int.h"

#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RL_MAX_DEPTH 32 /* directory recursion limit (a backstop) */
#define RL_BATCH     256 /* files read before a batch is parsed */
#define RL_THREADS   8	 /* parsing threads at most */

/* One file of a batch: its bytes, or why it could not be read; after
 * the parse, its document or why it was refused. */
struct res_job {
	char *path;
	char *buf; /* NULL: refused before the parse (msg says why) */
	size_t len;
	json_t *root; /* parsed and judged: keep it */
	char msg[1024];
	char warn[1100];
};

/* A walk: the set, and the batch read but not parsed yet. */
struct walk {
	struct res_pool *s;
	struct res_job job[RL_BATCH];
	size_t n;
	size_t next; /* the parsing threads' next job (atomic) */
};

static void flush(struct walk *w);

/* A file or directory refused: in walk order with the parsed ones. */
static void __attribute__((format(printf, 3, 4)))
w_bad(struct walk *w, const char *path, const char *fmt, ...)
{
	struct res_job *j;
	va_list ap;

	if (w->n == RL_BATCH)
		flush(w);
	j = &w->job[w->n++];
	j->buf = NULL;
	j->len = 0;
	j->root = NULL;
	j->warn[0] = '\0';
	j->path = strdup(path);
	if (!j->path)
		abort();
	va_start(ap, fmt);
	vsnprintf(j->msg, sizeof(j->msg), fmt, ap);
	va_end(ap);
}

/* Parse and judge one job (any thread). */
static void parse_job(struct res_job *j)
{
	j->root = res_load(j->buf, j->len, j->msg, sizeof(j->msg), j->warn,
			  sizeof(j->warn));
	free(j->buf);
	j->buf = NULL;
}

static void *parser(void *arg)
{
	struct walk *w = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->n)
		if (w->job[i].buf)
			parse_job(&w->job[i]);
	return NULL;
}

/* Parse the batch (a thread per CPU, this one included), then keep or
 * refuse each file in walk order. */
static void flush(struct walk *w)
{
	pthread_t t[RL_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = 0, want = cpus < 1 ? 1 : cpus > RL_THREADS ? RL_THREADS
							    : (int)cpus;
	size_t i;

	w->next = 0;
	while (nt < want - 1 && (size_t)nt + 1 < w->n &&
	       !pthread_create(&t[nt], NULL, parser, w))
		nt++;
	parser(w);
	while (nt > 0)
		pthread_join(t[--nt], NULL);
	for (i = 0; i < w->n; i++) {
		struct res_job *j = &w->job[i];

		if (j->root)
			res_keep(w->s, j->path, j->root, j->warn);
		else
			add_bad(w->s, j->path, "%s", j->msg);
		free(j->path);
	}
	w->n = 0;
}

/* The identity of a file or directory: "dev:ino". */
static void id_key(char *buf, size_t len, const struct stat *st)
{
	snprintf(buf, len, "%llx:%llx", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino);
}

/* The path a file or directory was first read under, or NULL. */
static const char *seen_as(struct res_pool *s, const char *id)
{
	return json_string_value(json_object_get(s->seen, id));
}

/* Read one file into the batch, unless it was read already under
 * another name. In a directory walk (walk) only a regular file is read,
 * and never waited for: what was a file when listed may be a FIFO by
 * now. */
static void add_file(struct walk *w, const char *path, int walk)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | (walk ? O_NONBLOCK : 0));
	struct res_pool *s = w->s;
	struct res_job *j;
	char id[64], *buf;
	struct stat st;
	size_t got;
	FILE *f;

	if (fd < 0 || fstat(fd, &st)) {
		w_bad(w, path, "cannot %s: %s", fd < 0 ? "open" : "stat",
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (walk && !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, path, "the same file as %s", seen_as(s, id));
		close(fd);
		return;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(path));
	if (st.st_size > (off_t)RL_MAX_FILE) {
		close(fd);
		w_bad(w, path, "larger than %u MiB", RL_MAX_FILE >> 20);
		return;
	}
	f = fdopen(fd, "rb");
	buf = malloc((size_t)st.st_size + 1);
	if (!f || !buf)
		abort();
	got = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		w_bad(w, path, "read error");
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	if (w->n == RL_BATCH)
		flush(w);
	j = &w->job[w->n++];
	j->path = strdup(path);
	if (!j->path)
		abort();
	j->buf = buf;
	j->len = got;
	j->root = NULL;
	j->warn[0] = '\0';
}

static int is_json_name(const char *n)
{
	size_t l = strlen(n);

	return n[0] != '.' && l > 5 && !strcmp(n + l - 5, ".json");
}

/* Every *.json under dir, once: a directory already walked (another name
 * for it, or a symlink back to one being walked) is skipped. */
static void add_dir(struct walk *w, const char *dir, int depth)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct res_pool *s = w->s;
	struct dirent **ents;
	struct stat st;
	char id[64];
	int n, i;

	if (fd < 0 || fstat(fd, &st)) {
		w_bad(w, dir, "cannot read directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, dir, "%s %s",
			    json_object_get(s->walking, id)
				    ? "a symlink loop back to"
				    : "the same directory as",
			    seen_as(s, id));
		close(fd);
		return;
	}
	if (depth > RL_MAX_DEPTH) {
		w_bad(w, dir, "directories nested too deep");
		close(fd);
		return;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(dir));
	n = scandirat(fd, ".", &ents, NULL, alphasort);
	close(fd);
	if (n < 0) {
		w_bad(w, dir, "cannot read directory: %s", strerror(errno));
		return;
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
				add_dir(w, p, depth + 1);
			else if (S_ISREG(st.st_mode) && is_json_name(name))
				add_file(w, p, 1);
		}
		free(ents[i]);
	}
	free(ents);
	json_object_del(s->walking, id);
}

size_t res_pool_add_path(struct res_pool *s, const char *path)
{
	struct walk *w = malloc(sizeof(*w));
	size_t before = s->ndocs;
	struct stat st;

	if (!w)
		abort();
	w->s = s;
	w->n = 0;
	if (stat(path, &st))
		w_bad(w, path, "cannot open: %s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		add_dir(w, path, 0);
	else
		add_file(w, path, 0);
	flush(w);
	free(w);
	return s->ndocs - before;
}
