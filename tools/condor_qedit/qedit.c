/*
 * qedit.c: condor_qedit once the arguments are read: refuse attributes
 * the configuration freezes, find the schedd, and set each attribute,
 * by job id or by constraint, with HTCondor's messages.
 *
 * HTCondor sets every attribute in one queue transaction; the schedd's
 * SetAttribute command takes one attribute, so an edit of several that
 * fails part way keeps what was set before the failure, and says so.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "qedit.h"
#include "tfmt.h"

/* HTCondor's three kinds of attributes a user may not set freely. */
static const char *qe_kind(const ks_config *cfg, const char *attr)
{
	static const struct {
		const char *kind;
		const char *knobs[2];
	} kinds[] = {
		{"immutable", {"IMMUTABLE_JOB_ATTRS", "SYSTEM_IMMUTABLE_JOB_ATTRS"}},
		{"protected", {"PROTECTED_JOB_ATTRS", "SYSTEM_PROTECTED_JOB_ATTRS"}},
		{"secure", {"SECURE_JOB_ATTRS", "SYSTEM_SECURE_JOB_ATTRS"}},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		for (int i = 0; i < 2; i++) {
			char *list = ks_config_get(cfg, kinds[k].knobs[i], NULL);
			bool in = list && qe_in_list(list, attr);
			free(list);
			if (in)
				return kinds[k].kind;
		}
	}
	return NULL;
}

struct qe_run {
	struct qe_opts *o;
	ks_conn *c;
	FILE *out, *err;
	bool set_any; /* some job has changed already */
};

int qe_set_attr(ks_conn *c, const char *ids, const char *constraint,
		const char *attr, const char *value, classad **result,
		struct ks_err *err)
{
	*result = NULL;
	classad *cmd = classad_new();
	classad_insert_string(cmd, "Op", "SetAttribute");
	if (ids)
		classad_insert_string(cmd, "ActionIds", ids);
	if (constraint && classad_insert_text(cmd, "ActionConstraint",
					      constraint, err)) {
		classad_free(cmd);
		return KS_EPARSE;
	}
	classad_insert_string(cmd, "Attribute", attr);
	classad_insert_string(cmd, "Value", *value ? value : "undefined");
	classad **reply = NULL;
	size_t n = 0;
	int rc = qt_call(c, KS_QMGMT_WRITE_CMD, &cmd, 1, &reply, &n, err);
	classad_free(cmd);
	if (rc == 0 && n) {
		*result = reply[0];
		reply[0] = NULL;
	} else if (rc == 0) {
		rc = ks_err_set(err, KS_EPROTO, 0, 0, 0,
				"the schedd's answer has no result ad");
	}
	ks_ads_free(reply, n);
	return rc;
}

/* One SetAttribute of an edit. */
static int qe_set(struct qe_run *r, const struct qe_edit *e, const char *ids,
		  const char *constraint, classad **result, struct ks_err *err)
{
	return qe_set_attr(r->c, ids, constraint, e->attr, e->value, result,
			   err);
}

static bool qe_edit_one(struct qe_run *r, const struct qe_edit *e,
			const char *constraint)
{
	struct qe_opts *o = r->o;
	classad *res = NULL;
	struct ks_err err = {0};
	long long done = 0;
	if (!constraint) {
		char *ids = qt_idlist_text(&o->ids);
		int rc = qe_set(r, e, ids, NULL, &res, &err);
		free(ids);
		if (rc) {
			fprintf(r->err, "%s\n", err.msg);
			return false;
		}
		tf_ad_int(res, "TotalSuccess", &done);
		if (done > 0)
			r->set_any = true;
		for (size_t i = 0; i < o->ids.n; i++) {
			char attr[64];
			snprintf(attr, sizeof attr, "job_%d_%d", o->ids.v[i].cluster,
				 o->ids.v[i].proc);
			long long code = 0;
			if (!tf_ad_int(res, attr, &code))
				code = done >= (long long)o->ids.n ? 1 : 0;
			if (code != 1) {
				fprintf(r->err, "Failed to set attribute \"%s\" for job %d.%d.\n",
					e->attr, o->ids.v[i].cluster,
					o->ids.v[i].proc);
				classad_free(res);
				return false;
			}
		}
		done = (long long)o->ids.n;
	} else {
		int rc = qe_set(r, e, NULL, constraint, &res, &err);
		if (rc == 0)
			tf_ad_int(res, "TotalSuccess", &done);
		if (rc || done <= 0) {
			if (rc)
				fprintf(r->err, "%s\n", err.msg);
			fprintf(r->err, "Failed to set attribute \"%s\" by constraint: %s\n",
				e->attr, constraint);
			classad_free(res);
			return false;
		}
		r->set_any = true;
	}
	classad_free(res);
	fprintf(r->out, "Set attribute \"%s\" for %lld matching jobs.\n", e->attr,
		done);
	return true;
}

static int qe_run_edits(struct qe_run *r, const char *schedd_name)
{
	struct qe_opts *o = r->o;
	if (o->dry_run) {
		fprintf(r->err, "Error : SCHEDD %s does not support -dry-run\n",
			schedd_name);
		fprintf(r->err, "Queue transaction failed.  No attributes were set.\n");
		return 1;
	}
	char *constraint = qe_constraint(o);
	if (constraint && o->only_my_jobs) {
		/* -constraint alone: only the asker's own jobs */
		char *user = qt_conn_user(r->c);
		char *q = qt_quote(user);
		struct classad_buf b = {0};
		classad_buf_printf(&b, "(%s) && (Owner == %s)", constraint, q);
		free(constraint);
		constraint = b.data;
		free(q);
		free(user);
	}
	bool ok = true;
	for (size_t i = 0; ok && i < o->nedits; i++)
		ok = qe_edit_one(r, &o->edits[i], constraint);
	free(constraint);
	if (!ok) {
		fprintf(r->err, r->set_any
				? "Queue transaction failed.  Edits made before the failure stay.\n"
				: "Queue transaction failed.  No attributes were set.\n");
		return 1;
	}
	return 0;
}

int qe_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct qe_opts o;
	int rc = qe_parse_args(argc, argv, &o, out, err);
	if (rc >= 0) {
		qe_opts_free(&o);
		return rc;
	}
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(err, "ERROR: %s\n", e.msg);
		qe_opts_free(&o);
		return 1;
	}
	bool refused = false;
	for (size_t i = 0; i < o.nedits; i++) {
		const char *kind = qe_kind(cfg, o.edits[i].attr);
		/* queue super users may edit protected attributes */
		if (kind && strcmp(kind, "protected") != 0) {
			fprintf(err, "Update of %s attribute \"%s\" is not allowed.\n",
				kind, o.edits[i].attr);
			refused = true;
		}
	}
	if (refused) {
		fprintf(err, "Transaction failed.  No attributes were set.\n");
		ks_config_free(cfg);
		qe_opts_free(&o);
		return 1;
	}
	struct qt_schedd s;
	rc = qt_schedd_find(cfg, o.pool, o.name, &s, &e);
	if (rc) {
		if (!o.name)
			fprintf(err, "%s: ERROR: Can't find address of local schedd\n",
				o.prog);
		else
			fprintf(err, "%s: No such schedd named %s in %s pool\n", o.prog,
				o.name, o.pool ? o.pool : "local");
		ks_config_free(cfg);
		qe_opts_free(&o);
		return 1;
	}
	struct qe_run r = {&o, NULL, out, err, false};
	if (ks_conn_open(cfg, s.addr, 0, &r.c, &e) != 0) {
		fprintf(err, "Failed to connect to queue manager %s\n", s.addr);
		rc = 1;
	} else {
		rc = qe_run_edits(&r, s.name);
	}
	ks_conn_close(r.c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	qe_opts_free(&o);
	return rc;
}
