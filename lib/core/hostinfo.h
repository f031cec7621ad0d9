/* hostinfo.h: facts about the box, read through a root prefix for tests. */
#ifndef ZCB_HOSTINFO_H
#define ZCB_HOSTINFO_H

#include <jansson.h>
#include <sys/types.h>
#include <stddef.h>

#define HOST_MAX_CPUS 1024

struct hostinfo {
	char hostname[256];
	char kernel_release[128];	/* uname -r */
	char kernel_version[256];	/* uname -v */
	char machine[72];		/* uname -m */
	char cpu_model[256];
	int online_cpus;		/* count of /sys/.../cpu/online */
	char online_list[256];		/* "0-1" as the kernel wrote it */
	unsigned long long mem_bytes;	/* MemTotal */
	char cmdline[4096];
	json_t *sysctls;		/* {"net.core.rmem_max": "212992"...} */
};

/*
 * Root prefix for /proc and /sys ("" or NULL = the live system). Taken
 * from ZCB_PROC_ROOT when set, so integration tests can use fixtures.
 */
const char *host_root(void);

/* Read root/path into buf, NUL-terminated, trailing newline removed.
 * Returns bytes read or -errno. */
long host_read_file(const char *root, const char *path, char *buf,
		    size_t len);

/* Parse a kernel cpu list ("0-3,8,10-11") into a bitmap of max bits;
 * returns the count set, or -EINVAL. */
int host_parse_cpulist(const char *s, unsigned char *bitmap, int max);

/* Fill h; fields that cannot be read are left empty. 0 or -errno. */
int hostinfo_read(const char *root, struct hostinfo *h);
void hostinfo_free(struct hostinfo *h);
json_t *hostinfo_to_json(const struct hostinfo *h);

/* Online CPU count of the live box (sysconf fallback). */
int host_online_cpus(void);

/* The CPUs process pid (0: this one) may run on, as the kernel lists
 * them ("0", "0-1,3": its affinity, taskset's or --affinity's), from
 * root/proc/PID/status; NULL when it cannot be read. */
const char *host_cpus_allowed(const char *root, pid_t pid, char *buf,
			      size_t len);

#endif
