/*
 * tf_int.h: what the files of libks_tfmt share among themselves.
 */
#ifndef KS_TF_INT_H
#define KS_TF_INT_H

#include "tfmt.h"

/* The job columns' custom functions (tf_render_job.c), or NULL. */
const struct tf_custom *tf_job_custom_find(const char *name);

#endif
