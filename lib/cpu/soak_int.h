/*
 * soak_int.h: what the soak client (soak.c), the host (soak_host.c), its
 * soakers (soak_soakers.c), its cgroup (soak_cg.c) and their common
 * helpers (soak_common.c) share; not for tools.
 */
#ifndef ZCB_SOAK_INT_H
#define ZCB_SOAK_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "soak.h"

#define SOAK_MAGIC    0x7a63736bu /* "zcsk" */
#define SOAK_HDR      4096	  /* shared header, then the slots */
#define SOAK_READY_MS 10000	  /* soakers must all run by then */
#define SOAK_PARK_MS  200	  /* pausing/resuming: wait this long for
				   * the soakers' acks (a starved one
				   * parks when it next runs) */

enum { SLOT_IDLE = 1, SLOT_CG = 2 }; /* slot flags: SCHED_IDLE, in cgroup */
enum { SLOT_STARTING = 0, SLOT_RUNNING = 1, SLOT_PARKED = 2 }; /* state */
enum { SOAK_FEAT_PAUSE = 1,	/* shm_hdr.features: what this host can do */
       SOAK_FEAT_PARKED_AT = 2 }; /* it keeps shm_hdr.parked_ns */

/* One byte a client sends the host, and the byte it answers. */
#define SOAK_CMD_PAUSE	'P' /* park the soakers while I hold this */
#define SOAK_CMD_RESUME 'R' /* I no longer need them parked */
#define SOAK_ACK_PAUSED 'p' /* the soakers are parked */
#define SOAK_ACK_RUNNING 'r' /* soakers run (or another client holds them) */

/* The counters' memory: this header, then one slot per soaker. */
struct shm_hdr {
	uint32_t magic;		       /* SOAK_MAGIC */
	uint32_t ncpu;		       /* soakers */
	int32_t host_pid;	       /* as the host sees itself */
	int32_t cpu_id[SOAK_MAX_CPUS]; /* CPU of each soaker */
	char note[256];		       /* regime, written before any hello */
	uint32_t features;	       /* SOAK_FEAT_*; 0 from older hosts */
	uint32_t park;		       /* futex: 1 = soakers must park */
	uint32_t gen;		       /* pause generation: odd while the
					* soakers are (being) parked; a
					* window that saw it change, or odd,
					* was not soaked */
	char kind[SOAK_KIND_LEN];      /* soak_kind name; "" = spin */
	uint64_t parked_ns;	       /* CLOCK_MONOTONIC ns when the
					* soakers last went from running to
					* parked (SOAK_FEAT_PARKED_AT) */
};

struct shm_slot {
	uint64_t count;	    /* loops done, written by its soaker */
	int32_t state;	    /* SLOT_*, or -errno */
	int32_t flags;	    /* SLOT_* */
	char pad[128 - 16]; /* own cache lines (and their pair) */
};

/* What the host sends each client that connects (with the memfd). */
struct hello {
	uint32_t magic; /* SOAK_MAGIC */
	int32_t status; /* 0 or -errno (then msg says why) */
	int32_t host_pid;
	uint32_t map_len; /* bytes of the counters' memory */
	char msg[200];	  /* why, when status < 0 */
};

/* The cgroup a soak host puts its soakers in (cpu.idle=1). */
struct soak_cg {
	char dir[512];	 /* made by us, "" = none */
	char procs[600]; /* dir/cgroup.procs, "" = none */
	char note[200];	 /* "cgroup v1 cpu.idle=1 (dir)" */
	char why[160];	 /* why there is none */
};

/*
 * Make <cpu hierarchy>/<own cgroup or root>/zcbench-soak-<owner> with
 * cpu.idle=1, v1 or v2, removing stale ones of dead owners first. On
 * failure cg->dir is "" and cg->why says why. System calls only (runs
 * after fork in the soak host).
 */
void soak_cg_setup(struct soak_cg *cg, pid_t owner);
/* rmdir it (its soakers must be reaped first). */
void soak_cg_remove(struct soak_cg *cg);
/*
 * The CPU cap on cgroup rel (or one above it, below the top) of the
 * hierarchy mounted at mnt: v1 cpu.cfs_quota_us > 0, v2 cpu.max not
 * "max". 1 with cap = "<its path>: <quota>/<period> us" (v2: "<quota>
 * <period> us"), or 0 with cap = "". Static buffers: not thread-safe.
 */
int soak_cg_cap(const char *mnt, const char *rel, int v2, char *cap,
		size_t len);

/* A host's soakers (soak_soakers.c). */
struct soak_set {
	struct shm_hdr *hdr;	/* the counters: CPUs, park, gen, note */
	struct shm_slot *slot;	/* one per soaker */
	struct soak_kind kind;	/* what they run */
	pid_t pid[SOAK_MAX_CPUS];
	int n;			/* started */
};

/*
 * Fork a soaker per CPU of hdr (in cg when it has one) and wait until
 * all run; writes the regime into hdr->note. 0, or -errno with err (the
 * soakers started so far are in pid[0..n), for soak_set_stop).
 */
int soak_set_start(struct soak_set *ss, struct soak_cg *cg, char *err,
		   size_t len);
/*
 * Park (1) or wake (0) every soaker and wait until they did (a starved
 * one acts when it next runs). gen turns odd before they are told to
 * park and even after they were woken, so a client window that saw it
 * odd or changing knows its soakers did not run throughout (soak_load).
 */
void soak_set_park(struct soak_set *ss, int park);
/* SIGKILL and reap every soaker, each first out of the idle regime
 * (SCHED_OTHER, out of the cgroup cgdir, "" none) so it can die on a
 * busy box. */
void soak_set_stop(struct soak_set *ss, const char *cgdir);

/*
 * When a pause of soak_pause is settled (CLOCK_MONOTONIC ns; 0: no wait):
 * settle_ns after the host parked the soakers where it keeps that time
 * (features), else settle_ns after now when this client's pause parked
 * them (it was not holding them already).
 */
uint64_t soak_settle_end(uint32_t features, uint64_t parked_ns,
			 int was_holding, uint64_t now, uint64_t settle_ns);

/* What soak.c and soak_host.c share (soak_common.c). */
/* The box's soak socket (soak_socket_path), or "" with why filled. */
const char *soak_socket_where(char *why, size_t len);
/* "<socket path>.<suffix>": the start lock, the alive lock. */
void soak_side_path(char *buf, size_t len, const char *suffix);
size_t soak_map_size(int ncpu);
/* The uid at the other end of a unix socket (SO_PEERCRED), or -1. */
int soak_peer_uid(int fd);
struct shm_slot *soak_slots(void *map);
int soak_unix_connect(const char *path);
/*
 * With the start lock held and no host answering: bind path, make the
 * counters and fork the host (double fork, in the caller's session).
 * 0 or -errno with err filled.
 */
int soak_host_spawn(const char *path, const int *ids, int n,
		    const struct soak_kind *kind, char *err, size_t len);

#endif
