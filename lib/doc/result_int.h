/* result_int.h: what result.c and result_summary.c share (not for tools). */
#ifndef ZCB_RESULT_INT_H
#define ZCB_RESULT_INT_H

#include <jansson.h>

struct res_doc {
	json_t *root; /* the document */
	char *output; /* where res_finish writes, or NULL */
};

#endif
