/*
 * p9bench.h: what the parts of p9bench share: the settings, the I/O
 * backends (a 9P2000.L connection, or a mounted file system), the sweep
 * and the printers of the seed's tables.
 */
#ifndef ZCB_P9BENCH_H
#define ZCB_P9BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "cpuwin.h"
#include "ival.h"
#include "meter.h"
#include "mfile.h"
#include "p9.h"
#include "pattern.h"

#define MAX_SIZES 64		/* IO sizes in one sweep */
#define SIZE_MAX_IO ((size_t)-1) /* "max": msize - 24, once known */
#define OP_WRITE 1		/* cfg.ops_mask bits */
#define OP_READ 2
#define NPATHS 2		/* copy/direct, or buffered/odirect */

struct cfg {
	/* where */
	const char *server;	/* -s: HOST[:PORT] or unix:PATH */
	const char *aname;	/* -a: export to attach */
	const char *uname;	/* Tattach uname */
	uint32_t uid;		/* Tattach n_uname */
	int uid_set;		/* --uid given */
	uint32_t msize;		/* proposed */
	const char *mount;	/* --mount DIR: mounted mode */
	const char *file;	/* test file name (in the export or DIR) */
	/* what */
	int paths;		/* bit 0 copy/buffered, bit 1 direct/odirect */
	int ops_mask;		/* OP_WRITE | OP_READ */
	size_t sizes[MAX_SIZES]; /* IO sizes; SIZE_MAX_IO = msize - 24 */
	int nsizes;		/* 0: doubling min_size..max_size */
	size_t min_size, max_size; /* SIZE_MAX_IO = msize - 24 */
	uint64_t ops;		/* operations per sample */
	uint64_t total;		/* --total: bytes per sample instead */
	double duration;	/* --duration: seconds per sample instead */
	uint64_t file_size;	/* offsets wrap within this */
	int qd;			/* requests in flight */
	int repeat;		/* samples per case (cli.repeat, parsed) */
	int verify;		/* check read data against the pattern */
	int keep;		/* leave the test file */
	int no_create;		/* the test file must exist */
	double timeout;		/* seconds without progress = dead server */
	/* CPU */
	const char *remote_cpu; /* HOST[:PORT] of cyclesoak --serve */
	pid_t server_pid;	/* --server-pid: a local server process */
	/* the common options: -c, --cpu=LIST, --repeat, -J, -o, --label */
	struct cli_common cli;
};

/* A backend: how one sample's I/O is done. */
struct bench;
struct bk_ops {
	const char *mode;	/* "9p" or "mounted" (params.mode) */
	const char *path_name[NPATHS]; /* params.path of path 0 and 1 */
	const char *col_name[NPATHS];  /* table column of path 0 and 1 */
	/* connect/open, create and fill the test file; 0 or dies */
	void (*open)(struct bench *b);
	/* one sample: ops of size bytes (or until deadline) */
	int (*run)(struct bench *b, int write, size_t size, int path,
		   uint64_t ops, double deadline);
	void (*close)(struct bench *b);
};

extern const struct bk_ops bk_9p, bk_mounted;

/* One sample's raw figures. */
struct sample {
	uint64_t bytes, ops, msgs; /* moved (bytes: ctr_add, for -i); with
				    * --omit, after the sample's first T */
	double elapsed;		/* seconds (--omit: from T) */
	double omit_s;		/* --omit: when the measured part began
				 * (the window opened), 0 none */
	uint64_t omit_bytes, omit_ops, omit_msgs; /* and what came before */
	json_t *intervals;	/* -i: the run's (owned), or NULL */
	struct cpuwin_sample cpu; /* every side's CPU windows */
};

/*
 * A table cell: one (op, size, path) over its repeats. Paired runs (the
 * soak meter, lib/cpu/meter.h): the rate is pooled over the unmetered runs
 * only, a side's soak CPU over the metered runs, every other CPU figure
 * over the unmetered runs (the runs the rate describes).
 */
struct cell {
	int n;			 /* unmetered (or unpaired) samples */
	double bytes, secs, ops; /* pooled over those */
	double cpu_sum, remote_sum, server_sum; /* each side's primary */
	int cpu_n, remote_n, server_n;
	double mbps_min, mbps_max;
};

struct bench {
	struct cfg *cfg;
	const struct bk_ops *bk;
	struct p9_client c;	/* 9p mode */
	uint32_t rootfid, fid;	/* 9p mode */
	struct mfile mf;	/* mounted mode: the file, buffered and
				 * O_DIRECT */
	int created;		/* 9p mode: we made the test file */
	int verify_ok;		/* file content is our pattern */
	char where[512];	/* "9P server 127.0.0.1:564" or the dir */
	uint64_t region_max;	/* bytes of the file the sweep uses */
	uint8_t *src;		/* the pattern from offset 0 (bench_src) */
	size_t src_len;
	uint8_t *dst;		/* read buffers: qd slots of slot_len */
	size_t slot_len;
	size_t size_max;	/* largest IO size in the sweep */
	const char *phase;	/* for error messages */
	struct sample s;	/* the sample being taken */
	double omit_until;	/* --omit: the clock at which the measured
				 * part begins (0: begun, or none) */
	void (*omit_begin)(struct bench *b); /* and what opens it (sweep.c:
				 * the CPU window) */
	struct cpuwin *w;	/* the windows the sweep opened */
	struct ival *iv;	/* -i's reporter, NULL = none */
	uint64_t verify_bad;	/* bytes that did not match */
	char cpu_meter[16];	/* the local meter the table shows */
	char remote_meter[16];	/* the remote one */
	int same_box;		/* --remote-cpu answered from this host */
	int paired;		/* soak on some side: runs in pairs */
	const char *paired_by;	/* by "soak" or "profile" (cpuwin) */
	struct cell cells[2][MAX_SIZES][NPATHS]; /* [op][size][path] */
};

/* The pattern every file we write holds (lib/core/pattern.h): a byte
 * counter of period 251, so b->src from off % 251 holds the bytes at off
 * for as long as any write (bench_src). */
extern const struct pattern bench_pattern;
static inline uint8_t *bench_src(const struct bench *b, uint64_t off)
{
	return b->src + off % bench_pattern.period;
}
/* Region of the file a sample of ops x size uses (a multiple of size). */
uint64_t bench_region(const struct cfg *cfg, size_t size);
/*
 * --omit, at a backend's check: once b->omit_until is past, the measured
 * part begins: what the sample moved so far is set aside (b->s.omit_*),
 * the clock starts again (*t0), a --duration deadline moves to the
 * duration after it, and b->omit_begin opens the windows. A count
 * (--ops, --total) is not lengthened: the work before T is not counted.
 */
void bench_omit_check(struct bench *b, double *t0, double *deadline);
/* After the run: the counts of the measured part only. */
void bench_omit_end(struct bench *b, size_t size);
/* Make b->src (the pattern from 0, a period more than the largest
 * write) and b->dst. */
void bench_buffers(struct bench *b, size_t align);

/* sweep.c */
int sweep_run(struct bench *b, struct res_doc *doc);

/* table.c: the notes, then seed 000's tables of the document (the p9
 * layout of lib/table, as zcbreport prints it) */
struct res_doc;
void table_print(FILE *f, const struct bench *b, struct res_doc *doc);
const char *table_rate(double bytes_per_s, char *buf, size_t len);
const char *table_total(double bytes, char *buf, size_t len);
void table_note(FILE *f, const struct bench *b);
/* The closing one-line summary. */
void table_summary(FILE *f, const struct bench *b, const char *status);
/* A cell's perturbation (metered / unmetered rate over its pairs): 1 and
 * r filled when it has a complete pair, else 0. */

#endif
