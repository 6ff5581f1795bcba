/*
 * qedit.h: condor_qedit, which changes attributes of queued jobs with
 * QMGMT_WRITE_CMD SetAttribute (docs/schedd.md).  The command line and
 * the messages are HTCondor's (src/condor_tools/qedit.cpp).  Internal
 * names carry the qe_ prefix; qe_main() is the entry point.
 */
#ifndef KS_QEDIT_H
#define KS_QEDIT_H

#include <stdbool.h>
#include <stdio.h>

#include "qtool.h"

struct qe_edit {
	char *attr, *value; /* owned */
};

struct qe_opts {
	const char *prog;
	const char *name, *pool;
	struct qt_idlist ids;   /* job and cluster ids */
	char **ands;            /* -constraint, -owner, owner (owned) */
	size_t nands;
	bool has_constraint;    /* an arbitrary -constraint was given */
	bool only_my_jobs;
	bool dry_run;
	struct qe_edit *edits;  /* in name order, one per attribute */
	size_t nedits;
};

/* Parses argv.  Returns -1 to go on, or the exit status (messages and
 * usage on out or err as HTCondor prints them). */
int qe_parse_args(int argc, const char *const *argv, struct qe_opts *o,
		  FILE *out, FILE *err);
void qe_opts_free(struct qe_opts *o);

/* The constraint naming the jobs when they are not all whole job ids
 * (HTCondor's makeJobidConstraint, then the other restrictions), or NULL
 * when the ids alone name them: a new string. */
char *qe_constraint(const struct qe_opts *o);

/* Is name one of the space- or comma-separated names of list? */
bool qe_in_list(const char *list, const char *name);

/* One SetAttribute on the schedd c is connected to (QMGMT_WRITE_CMD):
 * attr = value (ClassAd text; "" means undefined) for the jobs of ids
 * ("1.0,2": qt_idlist_text()) or of constraint (one of the two non-NULL).
 * condor_qedit and condor_prio edit jobs with it.  Returns 0 with
 * *result the schedd's result ad (new, classad_free()): TotalSuccess,
 * and job_<c>_<p> = 1 for each id set); or KS_EPARSE (bad constraint),
 * or qt_call()'s errors, with *result NULL. */
int qe_set_attr(ks_conn *c, const char *ids, const char *constraint,
		const char *attr, const char *value, classad **result,
		struct ks_err *err);

int qe_main(int argc, const char *const *argv, FILE *out, FILE *err);

#endif
