/* hostinfo.c: hostname, kernel, CPUs, memory, cmdline and net sysctls. */
#include "config.h"
#include "hostinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The sysctls a network result depends on; compare prints differences. */
static const char *const sysctl_names[] = {
	"net.core.rmem_default", "net.core.rmem_max",
	"net.core.wmem_default", "net.core.wmem_max",
	"net.core.optmem_max", "net.core.netdev_max_backlog",
	"net.core.somaxconn", "net.core.busy_poll", "net.core.busy_read",
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem",
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control",
	"net.ipv4.tcp_autocorking", "net.ipv4.tcp_timestamps",
	"net.ipv4.tcp_sack", "net.ipv4.tcp_window_scaling",
	"net.ipv4.tcp_no_metrics_save", "net.ipv4.udp_mem",
	"kernel.sched_autogroup_enabled", NULL
};

const char *host_root(void)
{
	const char *r = getenv("ZCB_PROC_ROOT");

	return r ? r : "";
}

long host_read_file(const char *root, const char *path, char *buf,
		    size_t len)
{
	char full[4096];
	ssize_t n, total = 0;
	int fd;

	if (!len)
		return -EINVAL;
	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
}

int host_parse_cpulist(const char *s, unsigned char *bitmap, int max)
{
	int count = 0;

	memset(bitmap, 0, (size_t)(max + 7) / 8);
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= max)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= max)
				return -EINVAL;
			s = end;
		}
		for (; a <= b; a++) {
			if (!(bitmap[a / 8] & (1u << (a % 8))))
				count++;
			bitmap[a / 8] |= (unsigned char)(1u << (a % 8));
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return count;
}

static void read_cpu_model(const char *root, struct hostinfo *h)
{
	static char buf[65536];
	const char *keys[] = { "model name", "Model", "cpu model",
			       "Processor", NULL };
	int k;

	if (host_read_file(root, "/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		return;
	for (k = 0; keys[k]; k++) {
		char *p = buf;

		while ((p = strstr(p, keys[k]))) {
			char *colon, *nl;

			if (p != buf && p[-1] != '\n') {
				p++;
				continue;
			}
			colon = strchr(p, ':');
			nl = strchr(p, '\n');
			if (!colon || (nl && colon > nl)) {
				p++;
				continue;
			}
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			snprintf(h->cpu_model, sizeof(h->cpu_model), "%.*s",
				 nl ? (int)(nl - colon) : (int)strlen(colon),
				 colon);
			return;
		}
	}
}

static void read_meminfo(const char *root, struct hostinfo *h)
{
	char buf[8192], *p;

	if (host_read_file(root, "/proc/meminfo", buf, sizeof(buf)) <= 0)
		return;
	p = strstr(buf, "MemTotal:");
	if (p)
		h->mem_bytes = strtoull(p + 9, NULL, 10) * 1024ull;
}

static void read_sysctls(const char *root, struct hostinfo *h)
{
	int i;

	h->sysctls = json_object();
	for (i = 0; sysctl_names[i]; i++) {
		char path[256], val[512], *c;
		size_t j;

		snprintf(path, sizeof(path), "/proc/sys/%s", sysctl_names[i]);
		for (j = strlen("/proc/sys/"); path[j]; j++)
			if (path[j] == '.')
				path[j] = '/';
		if (host_read_file(root, path, val, sizeof(val)) < 0)
			continue;
		for (c = val; *c; c++)
			if (*c == '\t')
				*c = ' ';
		json_object_set_new(h->sysctls, sysctl_names[i],
				    json_string(val));
	}
}

int hostinfo_read(const char *root, struct hostinfo *h)
{
	unsigned char bm[HOST_MAX_CPUS / 8];
	struct utsname u;
	int n;

	memset(h, 0, sizeof(*h));
	if (!root)
		root = host_root();
	host_read_file(root, "/proc/sys/kernel/hostname", h->hostname,
		       sizeof(h->hostname));
	host_read_file(root, "/proc/sys/kernel/osrelease", h->kernel_release,
		       sizeof(h->kernel_release));
	host_read_file(root, "/proc/sys/kernel/version", h->kernel_version,
		       sizeof(h->kernel_version));
	if (host_read_file(root, "/proc/sys/kernel/arch", h->machine,
			   sizeof(h->machine)) <= 0 &&
	    !*root && uname(&u) == 0)
		snprintf(h->machine, sizeof(h->machine), "%s", u.machine);
	read_cpu_model(root, h);
	if (host_read_file(root, "/sys/devices/system/cpu/online",
			   h->online_list, sizeof(h->online_list)) > 0) {
		n = host_parse_cpulist(h->online_list, bm, HOST_MAX_CPUS);
		h->online_cpus = n > 0 ? n : 0;
	}
	read_meminfo(root, h);
	host_read_file(root, "/proc/cmdline", h->cmdline, sizeof(h->cmdline));
	read_sysctls(root, h);
	return 0;
}

void hostinfo_free(struct hostinfo *h)
{
	json_decref(h->sysctls);
	h->sysctls = NULL;
}

json_t *hostinfo_to_json(const struct hostinfo *h)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:I, s:s, s:o}",
			 "hostname", h->hostname, "kernel_release",
			 h->kernel_release, "kernel_version",
			 h->kernel_version, "machine", h->machine,
			 "cpu_model", h->cpu_model, "online_cpus",
			 h->online_cpus, "online_list", h->online_list,
			 "mem_bytes", (json_int_t)h->mem_bytes, "cmdline",
			 h->cmdline, "sysctls",
			 h->sysctls ? json_deep_copy(h->sysctls) : json_object());
}

const char *host_cpus_allowed(const char *root, pid_t pid, char *buf,
			      size_t len)
{
	char path[64], st[8192], *p, *e;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	if (host_read_file(root ? root : host_root(), path, st, sizeof(st)) <= 0)
		return NULL;
	p = strstr(st, "\nCpus_allowed_list:");
	if (!p)
		return NULL;
	p += strlen("\nCpus_allowed_list:");
	p += strspn(p, " \t");
	e = p + strcspn(p, "\n");
	if (e == p)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(e - p), p);
	return buf;
}

int host_online_cpus(void)
{
	char buf[256];
	unsigned char bm[HOST_MAX_CPUS / 8];
	int n;

	if (host_read_file("", "/sys/devices/system/cpu/online", buf,
			   sizeof(buf)) > 0) {
		n = host_parse_cpulist(buf, bm, HOST_MAX_CPUS);
		if (n > 0)
			return n;
	}
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}
