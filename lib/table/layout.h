/*
 * layout.h: the seed mails' tables (results/seeds, README: the mailing-list post)
 * as named layouts, each owned here once: zcbreport prints them from
 * result files, and the tools print theirs by handing their own
 * document to the same layout (layout_print_doc), so a tool's table and
 * `zcbreport table --layout` of its document are the same text.
 *
 *   p9           seed 000: 9P WRITE/READ by IO size, No ZC vs ZC
 *   nfs-rsize    seed 001: NFS client and server by rsize/wsize
 *   ttcp-cpu     seed 001: ttcp-sf sending/receiving CPU
 *   nfs-clients  seed 002: NFS server with many clients
 *   chat         seed 004: chat Mean / Standard Deviation
 *   zc-vs-copy   copy against zero-copy (ttcp-sf, zcc): CPU and MB/s
 *   profile      where the CPU went: kernel profile families by method
 *                and size (ttcp-sf, zcc with --cpu=...,profile)
 */
#ifndef ZCB_LAYOUT_H
#define ZCB_LAYOUT_H

#include "resload.h"
#include "rsel.h"
#include "tbl.h"

#include <jansson.h>
#include <stdio.h>

struct layout_opts {
	FILE *out;	  /* where the tables go (NULL: stdout) */
	enum tbl_fmt fmt; /* text, Markdown or CSV */
	enum stat_kind stat;
	const char *const *where; /* PARAM=VALUE filters */
	size_t nwhere;
	int all; /* "all": every layout, a note for each one skipped */
};

/* The name of layout i (0, 1, ...), NULL after the last. */
const char *layout_name(size_t i);

/*
 * Print a named layout ("all": every one) of the set: 0 printed, 1
 * nothing to print (with all, a note says so for each layout; else
 * nothing is printed and the caller names the reason, layout_tool()),
 * -1 no layout of that name. With all, a profiled run's document (its
 * cases carry prof_local_copy_pct) is the profile layout's only, never
 * extra rows of a seed table; a layout named alone reads every document.
 */
int layout_print(const char *name, const struct res_pool *s,
		 const struct layout_opts *o);
/*
 * A tool's own table: the named layout of one document in memory (the
 * tool's res_json(), copied, not changed; a failed run's too, so an
 * interrupted run shows what it measured), as zcbreport prints it from
 * the file: 0 printed, 1 nothing to print.
 */
int layout_print_doc(const char *name, json_t *doc,
		     const struct layout_opts *o);
/* The tool whose documents a layout reads ("ttcp-sf or zcc"), or NULL. */
const char *layout_tool(const char *name);

#endif
