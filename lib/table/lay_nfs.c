/*
 * lay_nfs.c: seeds 001 and 002's NFS tables, one shape: rows keyed by
 * label and rsize/wsize (seed 001, "NFS/UDP client results" and
 * "server results") or by the client count (seed 002, "NFS/TCP server,
 * many clients"), a throughput column and a CPU column, a title "NFS/
 * PROTO ..." (the proto upper-cased) and the measured-runs note. A run
 * without CPU figures still gets seed 001's client table (CPU "-"); a
 * measured run of many clients adds the clients' own CPU to seed 002's.
 */
#include "config.h"
#include "lay_int.h"

#include <string.h>

/* What tells the NFS tables apart. */
struct nfs_tab {
	lay_fmt tput_fmt;	   /* mbyte/sec or MB/sec */
	const char *cpu_metric[2]; /* the CPU columns' (the second: when
				    * a case has it) */
	lay_fmt cpu_fmt;
	const char *what; /* title after "NFS/PROTO " */
};

static void nfs_row(struct lay *l, const struct res_group *g)
{
	static const char *const what[2] = {"CPU", "client CPU"};
	const struct nfs_tab *a = l->t->arg;
	struct res_pcase **cs = g->cases;
	size_t row = lay_row(l, g), n = g->n, k, cpu = 0;
	char b[64];

	lay_figure(b, sizeof(b), l, cs, n, "throughput_MBps", NULL, NULL,
		   a->tput_fmt);
	lay_set(l, row, 0, b);
	for (k = 0; k < 2 && lay_shown(l, 1 + k); k++) {
		lay_figure(b, sizeof(b), l, cs, n, a->cpu_metric[k], NULL, NULL,
			   a->cpu_fmt);
		lay_set(l, row, 1 + k, b);
		cpu += res_cell_cases(cs, n, a->cpu_metric[k], NULL, NULL, NULL);
	}
	/* a perturbation is about the CPU: the rate carries it only when
	 * the row has no CPU */
	lay_mark(l, row, 0, cs, n, "throughput_MBps", NULL, NULL,
		 cpu ? FN_SOAKED : FN_ANY);
	for (k = 0; k < 2 && lay_shown(l, 1 + k); k++)
		lay_mark(l, row, 1 + k, cs, n, a->cpu_metric[k], NULL, NULL,
			 FN_ANY);
	fn_source(&l->fn, "rates", cs, n, "throughput_MBps", NULL, NULL);
	for (k = 0; k < 2 && lay_shown(l, 1 + k); k++)
		fn_source(&l->fn, what[k], cs, n, a->cpu_metric[k], NULL, NULL);
}

/* "NFS/UDP client results": the proto when every case has the same. */
static void nfs_title(const struct lay *l, char *buf, size_t len)
{
	const struct nfs_tab *a = l->t->arg;
	const char *proto;
	char pbuf[64];
	size_t k;

	proto = lay_common_param(l, "proto", pbuf, sizeof(pbuf));
	if (proto && !strcmp(proto, "-"))
		proto = NULL; /* mounted, not NFS */
	snprintf(buf, len, "NFS%s%s %s", proto ? "/" : "", proto ? proto : "",
		 a->what);
	for (k = 0; buf[k] && buf[k] != ' '; k++)
		if (buf[k] >= 'a' && buf[k] <= 'z')
			buf[k] = (char)(buf[k] - 32);
}

static const char *const rsize_need[] = {"rsize", NULL};
static const char *const rsize_fixed[] = {"label", "rsize", "wsize", NULL};
static const char *const rsize_excl[] = {"rsize", "wsize", NULL};
static const char *const tput_needm[] = {"throughput_MBps", NULL};
static const char *const client_needm[] = {"throughput_MBps", "cpu_local_pct",
					   NULL};
static const char *const server_needm[] = {"throughput_MBps", "cpu_remote_pct",
					   NULL};
static const struct lay_col rsize_cols[] = {
	{.head = "mbyte/sec", .al = AL_RIGHT},
	{.head = "CPU", .al = AL_RIGHT},
	{.head = NULL},
};
static const struct nfs_tab client = {
	fmt_1f, {"cpu_local_pct"}, fmt_pct1, "client results"};
static const struct nfs_tab server = {
	fmt_1f, {"cpu_remote_pct"}, fmt_pct1, "server results"};

#define NFS_RSIZE(needm, tab, sidename, alone)                                 \
	{                                                                      \
		.tool = "nfsbench", .need = rsize_need, .need_metrics = needm, \
		.fixed = rsize_fixed, .excl = rsize_excl, .key_cols = 1,       \
		.key_left = 1, .cols = rsize_cols, .row = nfs_row,             \
		.title_fn = nfs_title, .underline = '=', .side = sidename,     \
		.fallback = alone, .arg = &tab,                                \
	}

/* seed 001: the client table (cases with client CPU), the server table
 * (with server CPU); when neither printed, the client table of every
 * case, CPU "-" */
static const struct lay_table nfs_client =
	NFS_RSIZE(client_needm, client, "local", 0);
static const struct lay_table nfs_server =
	NFS_RSIZE(server_needm, server, "remote", 0);
static const struct lay_table nfs_nocpu =
	NFS_RSIZE(tput_needm, client, "local", 1);

const struct layout lay_nfs_rsize = {
	"nfs-rsize",
	"nfsbench",
	"NFS client and server by rsize/wsize (seed 001)",
	(const struct lay_table *const[]){&nfs_client, &nfs_server, &nfs_nocpu,
					  NULL},
};

/* seed 002: many NFS clients against one server (and, measured, the
 * clients' own CPU) */
static const char *const clients_need[] = {"clients", NULL};
static const char *const clients_fixed[] = {"label", "clients", NULL};
static const char *const clients_excl[] = {"clients", NULL};
static const struct lay_col clients_cols[] = {
	{.head = "MB/sec", .al = AL_RIGHT},
	{.head = "server CPU", .al = AL_RIGHT},
	{.head = "client CPU", .al = AL_RIGHT, .if_metric = "cpu_local_pct"},
	{.head = NULL},
};
static const struct nfs_tab clients = {fmt_trim1,
				       {"cpu_remote_pct", "cpu_local_pct"},
				       fmt_pct_trim,
				       "server, many clients"};
static const struct lay_table nfs_clients = {
	.tool = "nfsbench",
	.need = clients_need,
	.need_metrics = tput_needm,
	.fixed = clients_fixed,
	.excl = clients_excl,
	.key_cols = 1,
	.key_left = 1,
	.cols = clients_cols,
	.row = nfs_row,
	.title_fn = nfs_title,
	.underline = '=',
	.side = "remote",
	.arg = &clients,
};

const struct layout lay_nfs_clients = {
	"nfs-clients",
	"nfsbench",
	"NFS server with many clients (seed 002)",
	(const struct lay_table *const[]){&nfs_clients, NULL},
};
