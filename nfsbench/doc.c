/*
 * doc.c: what nfsbench puts in its result document: the target resolved
 * into mode, path and the labels of its cases (from mountinfo when
 * mounted), the run's config, each sample, and a warning when a request
 * size passes the server's limits.
 */
#include "config.h"
#include "nfsbench.h"
#include "hostinfo.h"
#include "log.h"
#include "result.h"
#include "series.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Resolve the target: mode, file path, and the labels of the case. */
void nb_target(struct cfg *c, struct res_doc *d)
{
	struct nfsio_mount m;
	struct stat sb;
	char dir[4096], *slash;

	if (c->mode_libnfs) {
		/* a bad URL is a failed run (with its document), not usage */
		if (nfsio_url_version(c->target) < 0)
			die("bad URL %s: version= must be 3 or 4", c->target);
		snprintf(c->path, sizeof(c->path), "%s", c->target);
		snprintf(c->vers_label, sizeof(c->vers_label), "%d",
			 c->vers ? c->vers : nfsio_url_version(c->target));
		return;
	}
	if (!stat(c->target, &sb) && S_ISDIR(sb.st_mode))
		snprintf(c->path, sizeof(c->path), "%s/nfsbench.dat",
			 c->target);
	else
		snprintf(c->path, sizeof(c->path), "%s", c->target);
	snprintf(dir, sizeof(dir), "%s", c->path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(c->vers_label, sizeof(c->vers_label), "-");
	if (nfsio_mount_of(NULL, dir, &m)) {
		res_warn(d, "cannot tell which mount holds %s", dir);
		return;
	}
	snprintf(c->fstype, sizeof(c->fstype), "%s", m.fstype);
	if (strncmp(m.fstype, "nfs", 3)) {
		res_warn(
			d,
			"%s is on %s (%s), not NFS: the figures are the local file system's",
			dir, m.fstype, m.mnt);
		log_verbose("%s is on %s (%s), not NFS", dir, m.fstype, m.mnt);
	} else
		log_verbose(
			"%s: %s mounted on %s, rsize %ld wsize %ld vers %s proto %s",
			dir, m.source, m.mnt, m.rsize, m.wsize, m.vers,
			m.proto);
	if (!c->rsize)
		c->rsize = m.rsize;
	if (!c->wsize)
		c->wsize = m.wsize;
	if (m.vers[0])
		snprintf(c->vers_label, sizeof(c->vers_label), "%s", m.vers);
	if (m.proto[0])
		snprintf(c->proto, sizeof(c->proto), "%s", m.proto);
	else if (strncmp(m.fstype, "nfs", 3))
		snprintf(c->proto, sizeof(c->proto), "-");
}

json_t *nb_config_json(const struct cfg *c)
{
	char cpus[256];
	json_t *j = json_pack(
		"{s:s, s:s, s:i, s:b, s:b, s:I, s:i, s:b, s:b, s:s, s:i, s:f, s:i, s:s, s:s, s:f, s:i, s:[ff]}",
		"target", c->path, "op",
		c->op == NFSIO_WRITE ? "write" : "read", "qd", c->qd, "async",
		c->async || c->qd > 1, "own_files", c->own_files, "bytes",
		(json_int_t)c->bytes, "timeout_ms", c->timeout_ms, "direct",
		c->direct, "drop_caches", c->drop_caches, "verify",
		c->verify == NFSIO_VERIFY_NONE	    ? "none"
		: c->verify == NFSIO_VERIFY_PATTERN ? "pattern"
						    : "file",
		"repeat", c->cli.repeat, "max_time_s", c->max_time,
		"server_pid", (int)c->server_pid, "libnfs_api",
		nfsio_libnfs_api(), "remote_cpu",
		c->remote_cpu ? c->remote_cpu : "", "omit_s", c->cli.omit,
		"reruns", c->cli.reruns, "disturbance", c->cli.steal_max,
		c->cli.outside_max);

	/* where the server may run (the nightly pins it) */
	if (c->server_pid > 0 &&
	    host_cpus_allowed(NULL, c->server_pid, cpus, sizeof(cpus)))
		json_object_set_new(j, "server_cpus_allowed", json_string(cpus));
	return j;
}

void nb_record(const struct cfg *c, struct res_doc *d,
	       const struct nb_sample *s, const struct series *ser,
	       const struct series_run *r, int outcome)
{
	json_t *params, *kase, *sample, *o;
	double mbps = s->elapsed_s > 0 ? s->bytes / s->elapsed_s / 1e6 : 0;
	long rsize = c->mode_libnfs ? (long)s->reqsize : c->rsize;
	long wsize = c->mode_libnfs ? (long)s->reqsize : c->wsize;

	params = json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:i, s:i, s:s}",
			   "op", c->op == NFSIO_WRITE ? "write" : "read",
			   "rsize", (int)rsize, "wsize", (int)wsize, "iosize",
			   (int)s->reqsize, "vers", c->vers_label, "proto",
			   c->proto, "clients", s->clients, "qd", c->qd, "mode",
			   c->mode_libnfs ? "libnfs" : "mounted");
	if (!c->mode_libnfs)
		json_object_set_new(params, "direct", json_boolean(c->direct));
	kase = res_case(d, params);
	sample = json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:I}", "bytes",
			   (json_int_t)s->bytes, "ops", (json_int_t)s->ops,
			   "short_ops", (json_int_t)s->short_ops, "elapsed_s",
			   s->elapsed_s, "client_min_s", s->min_client_s,
			   "client_max_s", s->max_client_s, "verified_bytes",
			   (json_int_t)s->verified);
	if (c->mode_libnfs)
		json_object_set_new(sample, "server_readmax",
				    json_integer((json_int_t)s->readmax));
	if (c->server_pid)
		json_object_set_new(sample, "same_box", json_true());
	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(d, "ops_per_s", "ops/s", RES_HIGHER, 1);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	res_sample_set(sample, "throughput_MBps", mbps);
	res_sample_set(sample, "ops_per_s",
		       s->elapsed_s > 0 ? s->ops / s->elapsed_s : 0);
	res_sample_set(sample, "elapsed_s", s->elapsed_s);
	/* service demand: this run's CPU over this run's bytes */
	cpuwin_add(d, sample, &s->cpu, (double)s->bytes);
	if (s->intervals)
		json_object_set(sample, "intervals", s->intervals);
	o = res_sample_omitted(sample, s->omit_s, "bytes", s->omit_bytes);
	if (o)
		json_object_set_new(o, "ops",
				    json_integer((json_int_t)s->omit_ops));
	series_quiet_doc(ser, r, &s->cpu.quiet, outcome, sample);
	if (s->cpu.paired)
		res_sample_pair(d, sample, s->pair, s->cpu.metered);
	res_sample(kase, sample);
}

void nb_check_limits(const struct cfg *c, struct res_doc *d,
		     const struct nb_sample *s)
{
	static int warned;

	if (warned || !c->mode_libnfs)
		return;
	if (c->op == NFSIO_READ && s->readmax && s->reqsize > s->readmax) {
		res_warn(
			d,
			"request size %zu exceeds the server's largest READ (%llu): replies are short",
			s->reqsize, (unsigned long long)s->readmax);
		warned = 1;
	}
	if (c->op == NFSIO_WRITE && s->writemax && s->reqsize > s->writemax) {
		res_warn(
			d,
			"request size %zu exceeds the server's largest WRITE (%llu)",
			s->reqsize, (unsigned long long)s->writemax);
		warned = 1;
	}
}
