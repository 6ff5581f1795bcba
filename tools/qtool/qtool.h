/*
 * qtool.h: what the job queue tools share (libks_qtool): reading job ids
 * and user names from a command line, finding the schedd through the
 * collector, and talking to it (one command and its answer, or a
 * streamed query).  condor_q, condor_rm/hold/release, condor_qedit and
 * condor_history use it; docs/schedd.md is the protocol.  Names carry
 * the qt_ prefix.
 */
#ifndef KS_QTOOL_H
#define KS_QTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "classad.h"
#include "config.h"
#include "ks_client.h"
#include "ks_err.h"
#include "ks_version.h"

/* What -version prints, as kestrel's daemons advertise themselves. */
#define QT_VERSION KS_CONDOR_VERSION_LINES

/* ---- job ids (qt_ids.c) ------------------------------------------------ */

/* condor_q's and condor_history's reading of an argument: "C", "C." and
 * "C.P" (P may be negative) are job ids, *proc -1 for a whole cluster;
 * anything else is a user name.  Returns true for a job id. */
bool qt_q_id(const char *s, int *cluster, int *proc);

/* How condor_rm, condor_hold, condor_release and condor_qedit read an
 * argument that is not a flag. */
enum qt_act_arg {
	QT_ARG_USER,        /* a user name */
	QT_ARG_CLUSTER,     /* "C", C > 0 */
	QT_ARG_JOB,         /* "C.P" */
	QT_ARG_BAD_CLUSTER, /* a number, but not a cluster: "0" */
	QT_ARG_BAD_PROC,    /* "C.P" with P out of range */
};
enum qt_act_arg qt_act_id(const char *s, int *cluster, int *proc);

/* A list of "C.P" job ids and "C" clusters, as ActionIds carries them. */
struct qt_idlist {
	struct { int cluster, proc; } *v; /* proc -1: the whole cluster */
	size_t n;
};
void qt_idlist_add(struct qt_idlist *l, int cluster, int proc);
/* "1.0,2,3.1": a new string (free()). */
char *qt_idlist_text(const struct qt_idlist *l);
void qt_idlist_free(struct qt_idlist *l);

/* A ClassAd string literal of s ("\"alice\""): a new string (free()). */
char *qt_quote(const char *s);

/* A query's constraint from the tools' terms as HTCondor's query builder
 * joins them: the ANDed terms, then the ORed ones, each group in
 * parentheses ("( (a) && (b) ) && ( (c) || (d) )").  New string (free()),
 * or NULL when there are none. */
char *qt_constraint(char *const *ands, size_t nands, char *const *ors,
		    size_t nors);

/* ---- the user and the schedd (qt_schedd.c) ----------------------------- */

/* The login name of the user running the tool: a new string (free()). */
char *qt_user_name(void);

struct qt_schedd {
	char *name;    /* as advertised */
	char *addr;    /* its sinful string */
	char *machine; /* may be NULL */
};
void qt_schedd_free(struct qt_schedd *s);

/* Finds a schedd as ks_schedd_addr() does (with name, the collector's
 * schedd of that Name; without, this host's: SCHEDD_ADDRESS_FILE, else
 * the collector's ad named ks_daemon_name(cfg, "SCHEDD", NULL)), and then as
 * HTCondor's users expect: a bare host name matches "host.domain", and
 * without a name the only schedd of a pool is this host's.  Returns 0
 * and *out (free with qt_schedd_free()); KS_ENOTFOUND with err "Can't
 * find address for schedd NAME"; or the collector's error (KS_ECONNECT,
 * ...) with err saying which collector. */
int qt_schedd_find(const ks_config *cfg, const char *pool, const char *name,
		   struct qt_schedd *out, struct ks_err *err);

/* "<1.2.3.4:9618?...>" for "<1.2.3.4:9618?sock=x>", as HTCondor's headers
 * shorten an address: a new string (free()). */
char *qt_addr_summary(const char *addr);

/* ---- talking to the schedd (qt_call.c) --------------------------------- */

/* The user part of the identity c was authenticated as ("alice"), or
 * qt_user_name() for an unauthenticated connection: a new string. */
char *qt_conn_user(const ks_conn *c);

/* Sends one command with n ads and reads the one message of its answer:
 * *reply (new, ks_ads_free()) holds its ads.  An error answer returns
 * KS_EPERM (denied) or KS_EPROTO with err holding its ErrorString. */
int qt_call(ks_conn *c, int code, classad *const *ads, size_t n,
	    classad ***reply, size_t *nreply, struct ks_err *err);

/* Sends a query and hands every ad of the streamed answer to each(),
 * which owns it and returns 0 to go on (else the query is abandoned:
 * KS_ECANCELED).  Errors as qt_call(). */
int qt_stream(ks_conn *c, int code, const classad *query,
	      int (*each)(classad *ad, void *arg), void *arg,
	      struct ks_err *err);

/* The jobs of a job event log as HTCondor's userlog_to_classads() makes
 * them for condor_q -userlog and condor_history -userlog (qt_userlog.c):
 * an ad per job submitted in the log f (named path), from its events,
 * each handed (new) to each() in job id order.  Returns 0, or 1 when
 * each() did not return 0 or the log could not be read (a message on
 * err). */
int qt_userlog_each(FILE *f, const char *path,
		    int (*each)(classad *ad, void *arg), void *arg, FILE *err);

/* qt_stream() handing each() the records of the answer unparsed (the
 * record is the callback's only while it runs). */
int qt_stream_records(ks_conn *c, int code, const classad *query,
		      ks_wire_record_fn each, void *arg, struct ks_err *err);

#endif
