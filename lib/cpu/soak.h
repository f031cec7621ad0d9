/*
 * soak.h: cyclesoak's soakers, the one soaker set a box shares, and the
 * calibration they are measured against.
 *
 * One soaker per CPU of the allowed set, pinned, SCHED_IDLE and nice 19,
 * in a cgroup with cpu.idle=1 where the kernel offers one, each walking a
 * buffer and bumping its own cache-line-padded counter. Load on a CPU =
 * 1 - soaked rate / calibrated idle rate.
 *
 * A box runs ONE soaker set, whoever asks: the first process to open a
 * window starts a soak host (a double-forked child in the caller's
 * session) listening on a unix socket (root: SOAK_SOCKET; another user:
 * in a 0700 directory of its own, $XDG_RUNTIME_DIR or /tmp/zcbench-UID,
 * or, when someone else made that first, zcbench/soak in the user's
 * state directory, checked before use; tests: $ZCB_SOAK_SOCKET). Host
 * and clients check each other's uid (SO_PEERCRED), so nobody else can
 * feed or read them; later openers, in this process or any other,
 * connect to it and receive the counters' memfd over SCM_RIGHTS. Each
 * client snapshots the counters at the start and the end of its own
 * window. The host stops its soakers and removes its cgroup when its
 * last client disconnects, on SIGTERM, or when it dies (the soakers have
 * PR_SET_PDEATHSIG). A filesystem socket
 * (not an abstract one) so processes in other network namespaces of the
 * same box share the set too.
 */
#ifndef ZCB_SOAK_H
#define ZCB_SOAK_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "meter.h"

#define SOAK_MAX_CPUS	  METER_MAX_CPUS
#define SOAK_SOCKET	  "/run/zcbench-soak.sock" /* root's; see above */
#define SOAK_CALIB_SCHEMA "zcbench-soak-calibration/1"
#define SOAK_STALE_RATIO 1.05 /* a soaker this much faster than its
				 * calibration: the calibration is wrong */

struct hostinfo;

/*
 * How a soaker soaks (cyclesoak --soaker=KIND; the calibration stores it
 * and every later soaker set of that calibration runs it):
 *   spin          a SCHED_IDLE loop over a 256 KiB buffer (the default)
 *   pause         the same with a pause (x86) / yield (arm64) per step
 *   duty:P[/T]    spin P% of every T microseconds (default 10000), sleep
 *                 the rest: an idle CPU part of the time, and a load
 *                 sampled in the soaking part (calibrated the same way)
 */
#define SOAK_KIND_LEN 32
struct soak_kind {
	char name[SOAK_KIND_LEN]; /* canonical: "spin", "duty:50/10000" */
	int pause;		  /* a pause instruction per step */
	int duty_pct;		  /* 1..100 (100: never sleeps) */
	int period_us;		  /* duty period */
};
/* Parse KIND (NULL or "" = spin). 0 or -EINVAL with err naming it. */
int soak_kind_parse(const char *s, struct soak_kind *k, char *err,
		    size_t len);

/* Calibration: idle rates per CPU and what box they were made on. */
struct soak_calib {
	int ncpu;		    /* CPUs calibrated */
	int cpu_id[SOAK_MAX_CPUS];  /* their numbers */
	double rate[SOAK_MAX_CPUS]; /* loops per second, idle box */
	double spread_pct;	    /* largest round-to-round difference */
	int rounds;		    /* rounds averaged */
	double round_s;		    /* length of one round */
	int online_cpus;	    /* of the box when made */
	char kernel_release[128];   /* uname -r when made */
	char cpu_model[256];
	char made[40];	/* ISO 8601 UTC */
	char note[256]; /* the soakers' regime (cgroup...) */
	char soaker[SOAK_KIND_LEN]; /* the soaker kind calibrated */
};

/* The state file: override, else $XDG_STATE_HOME/zcbench/calibration.json
 * (~/.local/state/zcbench/). 0 or -ENAMETOOLONG. */
int soak_calib_path(const char *override, char *buf, size_t len);
/* 0, -ENOENT (no calibration yet) or -EINVAL/-errno with err filled. */
int soak_calib_load(const char *path, struct soak_calib *c, char *err,
		    size_t len);
/* Atomic write, making the directory. 0 or -errno with err filled. */
int soak_calib_save(const char *path, const struct soak_calib *c, char *err,
		    size_t len);
json_t *soak_calib_to_json(const struct soak_calib *c);
int soak_calib_from_json(json_t *j, struct soak_calib *c, char *err,
			 size_t len);
/*
 * Compare with the running box: 0 when it matches, 1 with warn filled
 * ("calibration made on kernel A, running B"; CPU count or model).
 */
int soak_calib_check(const struct soak_calib *c, const struct hostinfo *h,
		     char *warn, size_t len);
/* The rate calibrated for CPU number cpu, or 0 when there is none. */
double soak_calib_rate(const struct soak_calib *c, int cpu);
/*
 * For tools: the warning to put in a result document (res_warn) when the
 * soak meter's calibration was made on another kernel or CPU set, else
 * NULL. calib_file NULL = the default state file. Static buffer.
 */
const char *soak_calibration_warning(const char *calib_file);

/* A client's view of the box's soaker set. */
struct soak_client {
	int fd;	   /* to the soak host; -1 = closed */
	void *map; /* the counters, read-only */
	size_t map_len;
	int ncpu;		   /* soakers */
	int cpu_id[SOAK_MAX_CPUS]; /* CPU of each */
	pid_t host_pid;
	int started_host; /* 1: this open started the host */
	int can_pause;	  /* the host parks soakers on request */
	char kind[SOAK_KIND_LEN]; /* what its soakers run */
	int holding;	  /* we asked it to park them */
	char note[256];	  /* regime: cgroup, SCHED_IDLE... */
};

struct soak_snap {
	double t;     /* clock_now() of the reading */
	uint32_t gen; /* the host's pause generation (odd: parked) */
	int n;
	uint64_t count[SOAK_MAX_CPUS];
};

/*
 * Join the box's soaker set, starting it when none runs. cpus: a CPU
 * list to soak ("0-1"), NULL = the allowed online CPUs; when a set
 * already runs it must cover these and run kind (NULL = spin). Waits
 * until every soaker runs. 0 or -errno with err filled.
 */
int soak_join(struct soak_client *c, const char *cpus, const char *kind,
	      char *err, size_t len);
/*
 * Park the box's soakers (pause 1) until this client resumes them or
 * leaves, or let them run again (pause 0); parked while ANY client holds
 * them. For the unmetered run of a pair: the soakers cost the run nothing
 * (they sleep on a futex), and every window on the box that overlaps the
 * pause reads as not soaked (soak_load). 0 or -errno with err filled
 * (-EOPNOTSUPP: the running host is from an older zcbench).
 */
int soak_pause(struct soak_client *c, int pause, char *err, size_t len);
/*
 * The settle: a pause returns only once the soakers have been parked this
 * long (from when the host parked them, so a second client's pause of
 * soakers parked a while ago waits only what is left; from the request
 * with an older host). Right after the soakers, a VM's host keeps its
 * vCPUs awake for a while (KVM halt polling, the host CPUs' idle states),
 * and a run in that while is faster than on a box where no soakers ran:
 * the unmetered run of a pair would be flattered. $ZCB_SOAK_SETTLE (a
 * duration, 0 to SOAK_SETTLE_MAX_S; units as units_parse_duration takes)
 * or SOAK_SETTLE_S. 0, or -EINVAL with err naming the setting.
 */
#define SOAK_SETTLE_ENV "ZCB_SOAK_SETTLE"
#define SOAK_SETTLE_S 0.5
#define SOAK_SETTLE_MAX_S 60.0
int soak_settle_time(double *seconds, char *err, size_t len);
/* Read the counters; -EPIPE when the host died. */
int soak_read(const struct soak_client *c, struct soak_snap *s);
void soak_leave(struct soak_client *c);
/* Loops per second of each soaker between two readings. */
void soak_rates(const struct soak_snap *a, const struct soak_snap *b,
		double *rate);
/*
 * Fill a cpu_sample (meter "soak", scope "box") from two readings:
 * per-CPU busy = 100 * (1 - rate / calibrated), clamped to [0, 100], box
 * = their mean; out->note says so when a soaker ran faster than
 * SOAK_STALE_RATIO x its calibrated idle rate (a calibration made on a
 * busy box). 0, -ENOENT when a soaked CPU has no calibration, or
 * -EAGAIN with out->paused set when the soakers were parked during any of
 * the window (an unmetered sample: no soak figure, by design).
 */
int soak_load(const struct soak_calib *cal, const struct soak_client *c,
	      const struct soak_snap *a, const struct soak_snap *b,
	      struct cpu_sample *out);
/* Is a soak host running on this box now (any namespace)? */
int soak_host_alive(void);
/* The socket path in use ($ZCB_SOAK_SOCKET or the default); "" when the
 * user's private directory is unsafe (soak_join says why). */
const char *soak_socket_path(void);

#endif
