/*
 * act.h: condor_rm, condor_hold and condor_release: one program (built
 * under each name, which picks the action, as HTCondor's rm.cpp does)
 * that sends the schedd ACT_ON_JOBS (docs/schedd.md) and reports each
 * job's result with HTCondor's messages.  Internal names carry the act_
 * prefix; act_main() is the entry point.
 */
#ifndef KS_ACT_H
#define KS_ACT_H

#include <stdbool.h>
#include <stdio.h>

#include "classad.h"
#include "qtool.h"

enum act_mode { ACT_REMOVE, ACT_REMOVE_X, ACT_HOLD, ACT_RELEASE };

/* How the jobs were named, which picks the words of the final message
 * (HTCondor's CONSTRAINT_TYPE). */
enum act_ctype { ACT_CT_NONE, ACT_CT_ALL, ACT_CT_CLUSTER, ACT_CT_USER,
		 ACT_CT_SIMPLE, ACT_CT_COMPLEX };

struct act_opts {
	const char *prog;
	enum act_mode mode;
	const char *name, *pool, *addr;
	const char *reason;        /* -reason, or NULL: the schedd's default */
	const char *subcode;       /* -subcode */
	bool dash_long, totals, held;
	struct qt_idlist ids;      /* "C.P" arguments */
	char *constraint;          /* -constraint, -all (owned) */
	enum act_ctype ctype;
	char *usercluster;         /* user and cluster arguments (owned) */
	enum act_ctype uctype;
	bool bad_arg;              /* an argument was reported as wrong */
};

/* The mode a program name asks for ("condor_hold" -> ACT_HOLD, looking
 * after the first '_'); false for a name that is none of them. */
bool act_mode_of(const char *prog, enum act_mode *mode);

/* Parses argv.  Returns -1 to go on, or the exit status (messages and
 * usage on err). */
int act_parse_args(int argc, const char *const *argv, struct act_opts *o,
		   FILE *out, FILE *err);
void act_opts_free(struct act_opts *o);
void act_usage(FILE *err, const struct act_opts *o);

/* The final constraint when jobs were named by constraint, user or
 * cluster (new string, or NULL), and the words naming them in the
 * message ("", " of user \"alice\"", " in cluster 3", " matching
 * constraint (...)", in *what, new). */
char *act_constraint(const struct act_opts *o, char **what);

/* "marked for removal" / "remove", "held" / "hold", "released" /
 * "release", "removed locally (remote state unknown)" / "remove". */
const char *act_word(enum act_mode mode, bool past);

/* The JobAction name sent for a mode ("Remove", "RemoveX", ...). */
const char *act_action_name(enum act_mode mode);

/* HTCondor's message for one job's result code (1 success, 2 not found,
 * 3 permission denied, 4 bad status, 5 already done, else no result):
 * "Job 1.0 marked for removal".  Returns a new string (free()); *ok is
 * whether it goes to stdout. */
char *act_result_message(enum act_mode mode, int cluster, int proc, int code,
			 bool *ok);

/* The per-job messages of an ActionIds answer, in the order asked for;
 * sets *had_error when none succeeded. */
void act_print_id_results(FILE *out, FILE *err, enum act_mode mode,
			  const classad *result, const struct qt_idlist *ids,
			  bool *had_error);

/* "N Succeeded, N Failed, ..." of -totals. */
void act_print_totals(FILE *out, const classad *result);

/* Whether an answer counts as done: some job was acted on. */
bool act_succeeded(const classad *result);

int act_main(int argc, const char *const *argv, FILE *out, FILE *err);

#endif
