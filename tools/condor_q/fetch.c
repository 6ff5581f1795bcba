/*
 * fetch.c: where condor_q's jobs come from: a file of job ads (-jobads),
 * a job event log (-userlog, qt_userlog.c),
 * or the schedd (QUERY_JOB_ADS, docs/schedd.md), found through the
 * collector; the slot ads -better-analyze compares them with, and the
 * user priorities it may consider.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cq.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "qtool.h"

static void cq_no_collector(const struct cq_opts *o, const ks_config *cfg,
			    const char *why, FILE *err)
{
	char *host = o->pool ? ks_xstrdup(o->pool)
			     : ks_config_get(cfg, "COLLECTOR_HOST", NULL);
	fprintf(err, "Error: Couldn't contact the condor_collector on %s.\n",
		host ? host : "your central manager");
	if (!o->expert)
		fprintf(err, "\nExtra Info: %s.  Check that the collector is "
			"running and that this host may read from it "
			"(COLLECTOR_HOST, or -pool HOST to ask another).\n", why);
	free(host);
}

/* The schedd to ask, with HTCondor's messages when there is none. */
static int cq_locate(const struct cq_opts *o, const ks_config *cfg,
		     struct qt_schedd *s, FILE *err)
{
	struct ks_err e = {0};
	int rc = qt_schedd_find(cfg, o->pool, o->name, s, &e);
	if (rc == 0)
		return 0;
	if (rc != KS_ENOTFOUND) {
		cq_no_collector(o, cfg, e.msg, err);
		return 1;
	}
	if (o->name) {
		fprintf(err, "Error: Collector has no record of schedd/submitter\n");
		return 1;
	}
	fprintf(err, "Error: %s\n", e.msg);
	if (!o->expert)
		fprintf(err, "\nExtra Info: You probably saw this error because "
			"the condor_schedd is not running on the machine you are "
			"trying to query.  Start the pool (condor_master) and try "
			"again, or name a schedd with -name (condor_status "
			"-schedd lists them).\n");
	return 1;
}

bool cq_is_summary(const classad *ad)
{
	char *type = classad_eval_string_dup(ad, "MyType");
	bool summary = type && strcasecmp(type, "Summary") == 0;
	free(type);
	return summary;
}

int cq_sink_take(struct cq_sink *sink, classad *ad)
{
	if (cq_is_summary(ad)) {
		classad_free(sink->summary);
		sink->summary = ad;
		return 0;
	}
	return sink->job(ad, sink->arg);
}

static int cq_route_ad(classad *ad, void *arg)
{
	return cq_sink_take(arg, ad);
}

static int cq_fetch_schedd(const struct cq_opts *o, const struct tf_names *proj,
			   struct cq_sink *sink, FILE *err)
{
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(err, "ERROR: %s\n", e.msg);
		return 1;
	}
	struct qt_schedd s;
	if (cq_locate(o, cfg, &s, err)) {
		ks_config_free(cfg);
		return 1;
	}
	char *summary = qt_addr_summary(s.addr);
	struct classad_buf label = {0};
	classad_buf_printf(&label, "Schedd: %s : %s", s.name, summary);
	sink->label = label.data;
	free(summary);

	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, s.addr, 0, &c, &e);
	if (rc == 0) {
		sink->user = qt_conn_user(c);
		classad *q = classad_new();
		/* "only my jobs" is the schedd's to decide, as HTCondor's
		 * does: it knows who asks, and shows a queue superuser (a
		 * personal pool's user) every job */
		char *cons = cq_constraint(o);
		struct classad_buf req = {0};
		tf_buf_add(&req, cons ? cons : "true");
		free(cons);
		bool only_mine = o->my_jobs;
		ks_config_bool(cfg, "CONDOR_Q_ONLY_MY_JOBS", &only_mine);
		if (o->my_jobs && only_mine) {
			struct ks_err me = {0};
			classad_insert_text(q, "MyJobs", "Owner == Me", &me);
			classad_insert_string(q, "Me", sink->user);
		}
		struct ks_err pe = {0};
		if (classad_insert_text(q, "Requirements", tf_buf_str(&req), &pe)) {
			fprintf(err, "\n-- Parse error in constraint expression \"%s\"\n",
				o->user_constraint ? o->user_constraint
						   : tf_buf_str(&req));
			rc = 1;
		}
		tf_buf_free(&req);
		if (proj) {
			char *p = tf_names_join(proj);
			classad_insert_string(q, "Projection", p);
			free(p);
		}
		if (o->limit > 0)
			classad_insert_int(q, "LimitResults", o->limit);
		/* as HTCondor's: the schedd's clock in each job for -long
		 * (a listing saved for -jobads keeps its run times) */
		classad_insert_bool(q, "SendServerTime",
				    o->dash_long ||
					    (proj && tf_names_has(proj, "ServerTime")));
		if (rc == 0 && sink->record)
			rc = qt_stream_records(c, KS_QUERY_JOB_ADS, q,
					       sink->record, sink->arg, &e);
		else if (rc == 0)
			rc = qt_stream(c, KS_QUERY_JOB_ADS, q, cq_route_ad, sink,
				       &e);
		classad_free(q);
		if (rc < 0)
			fprintf(err, "\n-- Failed to fetch ads from: %s : %s\n%s\n",
				s.addr, s.machine ? s.machine : s.name, e.msg);
	} else {
		fprintf(err, "\n-- Failed to fetch ads from: %s : %s\n%s\n",
			s.addr, s.machine ? s.machine : s.name, e.msg);
	}
	ks_conn_close(c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	return rc == 0 ? 0 : 1;
}

struct cq_filtered {
	const classad_expr *c;
	struct cq_sink *sink;
};

static int cq_take_if(classad *ad, void *arg)
{
	struct cq_filtered *f = arg;
	if (!tf_constraint_true(ad, f->c)) {
		classad_free(ad);
		return 0;
	}
	return f->sink->job(ad, f->sink->arg);
}

static int cq_fetch_userlog(const char *path, const classad_expr *c,
			    struct cq_sink *sink, FILE *err)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		fprintf(err, "\nCan't open user log: %s\n", path);
		return 1;
	}
	struct cq_filtered filter = {c, sink};
	int rc = qt_userlog_each(f, path, cq_take_if, &filter, err);
	fclose(f);
	return rc;
}

int cq_fetch(const struct cq_opts *o, const struct tf_names *proj,
	     struct cq_sink *sink, FILE *err)
{
	if (!o->jobads && !o->userlog)
		return cq_fetch_schedd(o, proj, sink, err);
	struct classad_buf label = {0};
	classad_buf_printf(&label, "%s: %s", o->jobads ? "Jobads" : "Userlog",
			   o->jobads ? o->jobads : o->userlog);
	sink->label = label.data;
	char *cons = cq_constraint(o);
	classad_expr *c = NULL;
	if (cons) {
		c = classad_parse_expr(cons, strlen(cons), NULL);
		if (!c) {
			fprintf(err, "Invalid constraint: %s\n", cons);
			free(cons);
			return 1;
		}
	}
	free(cons);
	int rc = o->jobads ? tf_read_ads(o->jobads, o->jobads_format, true, c,
					 cq_route_ad, sink, "-jobads", err)
			   : cq_fetch_userlog(o->userlog, c, sink, err);
	classad_expr_free(c);
	return rc;
}

/* ---- slots for -better-analyze ---------------------------------------- */

struct cq_slots {
	classad **v;
	size_t n;
};

static int cq_keep_slot(classad *ad, void *arg)
{
	struct cq_slots *s = arg;
	s->v = ks_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = ad;
	return 0;
}

int cq_fetch_slots(const struct cq_opts *o, classad ***slots, size_t *n,
		   FILE *err)
{
	struct cq_slots s = {0};
	classad_expr *c = NULL;
	if (o->mconstraint) {
		c = classad_parse_expr(o->mconstraint, strlen(o->mconstraint),
				       NULL);
		if (!c) {
			fprintf(err, "Error: invalid -mconstraint: %s\n",
				o->mconstraint);
			return 1;
		}
	}
	int rc = 0;
	if (o->slotads) {
		rc = tf_read_ads(o->slotads, o->slotads_format, false, c,
				 cq_keep_slot, &s, "-slotads", err);
	} else {
		struct ks_err e = {0};
		ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
		if (!cfg) {
			fprintf(err, "ERROR: %s\n", e.msg);
			classad_expr_free(c);
			return 1;
		}
		classad *q = classad_new();
		classad_insert_string(q, "MyType", "Query");
		classad_insert_string(q, "TargetType", "Machine");
		if (c)
			classad_insert(q, "Requirements", classad_expr_ref(c));
		else
			classad_insert_bool(q, "Requirements", true);
		classad **ads = NULL;
		size_t nads = 0;
		rc = ks_collector_query(cfg, o->pool, KS_QUERY_STARTD_ADS, q,
					&ads, &nads, &e);
		classad_free(q);
		if (rc) {
			cq_no_collector(o, cfg, e.msg, err);
			rc = 1;
		} else {
			s.v = ads;
			s.n = nads;
		}
		ks_config_free(cfg);
	}
	classad_expr_free(c);
	*slots = s.v;
	*n = s.n;
	return rc;
}

/* ---- user priorities for the analysis ------------------------------------- */

static void cq_prio_set(struct cq_prios *p, size_t id, const char *name,
			const double *prio)
{
	if (id >= p->n) {
		p->v = ks_xrealloc(p->v, (id + 1) * sizeof *p->v);
		memset(p->v + p->n, 0, (id + 1 - p->n) * sizeof *p->v);
		p->n = id + 1;
	}
	if (name) {
		free(p->v[id].name);
		p->v[id].name = ks_xstrdup(name);
	}
	if (prio)
		p->v[id].prio = *prio;
}

/* One "AttrN = value" line of condor_userprio -l: the records' Name and
 * Priority; other lines are none of the analysis' business. */
static void cq_prio_line(struct cq_prios *p, const char *line)
{
	line += strspn(line, " \t");
	size_t alen = strcspn(line, "0123456789 \t=");
	const char *d = line + alen;
	if (!isdigit((unsigned char)*d))
		return;
	char *end;
	long id = strtol(d, &end, 10);
	end += strspn(end, " \t");
	if (id <= 0 || *end != '=')
		return;
	const char *v = end + 1;
	v += strspn(v, " \t");
	size_t vlen = strcspn(v, "\r\n");
	while (vlen && isspace((unsigned char)v[vlen - 1]))
		vlen--;
	if (alen == 4 && strncmp(line, "Name", 4) == 0) {
		char *name = vlen >= 2 && v[0] == '"'
				     ? ks_xstrndup(v + 1, vlen - 2)
				     : ks_xstrndup(v, vlen);
		cq_prio_set(p, (size_t)id, name, NULL);
		free(name);
	} else if (alen == 8 && strncmp(line, "Priority", 8) == 0) {
		double prio = atof(v);
		cq_prio_set(p, (size_t)id, NULL, &prio);
	}
}

static int cq_prios_of_file(const char *path, struct cq_prios *p, FILE *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(err, "Can't open file of user priorities: %s\n", path);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0)
		cq_prio_line(p, line);
	free(line);
	fclose(f);
	return 0;
}

/* GET_PRIORITY of the pool's negotiator: Name1, Priority1, ... */
static int cq_prios_of_negotiator(const struct cq_opts *o,
				  const ks_config *cfg, struct cq_prios *p,
				  FILE *err)
{
	struct ks_err e = {0};
	char *addr = ks_negotiator_addr(cfg, o->pool, NULL, &e);
	if (!addr) {
		fprintf(err, "Error: Could not connect to negotiator (%s)\n",
			e.code == KS_ENOTFOUND ? "none in the collector" : e.msg);
		return 1;
	}
	ks_conn *c = NULL;
	int got = 0;
	bool more = false;
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_conn_open(cfg, addr, 0, &c, &e);
	if (rc == 0)
		rc = ks_conn_send(c, KS_GET_PRIORITY, NULL, 0, 0, &e);
	if (rc == 0)
		rc = ks_conn_recv(c, &got, &ads, &n, &more, &e);
	ks_conn_close(c);
	if (rc || got != KS_REPLY_OK || n < 1) {
		fprintf(err, "Error:  Could not get priorities from negotiator "
			     "(%s)%s%s\n", addr, rc ? ": " : "", rc ? e.msg : "");
		ks_ads_free(ads, n);
		free(addr);
		return 1;
	}
	free(addr);
	for (size_t id = 1;; id++) {
		char an[32], ap[32];
		snprintf(an, sizeof an, "Name%zu", id);
		snprintf(ap, sizeof ap, "Priority%zu", id);
		char *name = NULL;
		double prio = 0;
		if (!classad_eval_string(ads[0], an, NULL, &name) ||
		    !classad_eval_real(ads[0], ap, NULL, &prio)) {
			free(name);
			break;
		}
		cq_prio_set(p, id, name, &prio);
		free(name);
	}
	ks_ads_free(ads, n);
	return 0;
}

int cq_fetch_prios(const struct cq_opts *o, struct cq_prios *p, FILE *err)
{
	memset(p, 0, sizeof *p);
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg && !o->userprios) {
		fprintf(err, "ERROR: %s\n", e.msg);
		return 1;
	}
	p->preemption_req = cfg ? ks_config_get(cfg, "PREEMPTION_REQUIREMENTS",
						NULL)
				: NULL;
	if (!p->preemption_req || !*p->preemption_req) {
		free(p->preemption_req);
		p->preemption_req = ks_xstrdup("False");
	}
	classad_expr *x = classad_parse_expr(p->preemption_req,
					     strlen(p->preemption_req), NULL);
	if (!x) {
		fprintf(err, "\nError:  Failed parse of PREEMPTION_REQUIREMENTS "
			     "expression: \n\t%s\n", p->preemption_req);
		ks_config_free(cfg);
		cq_prios_free(p);
		return 1;
	}
	classad_expr_free(x);
	int rc = o->userprios ? cq_prios_of_file(o->userprios, p, err)
			      : cq_prios_of_negotiator(o, cfg, p, err);
	ks_config_free(cfg);
	if (rc)
		cq_prios_free(p);
	return rc;
}

void cq_prios_free(struct cq_prios *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].name);
	free(p->v);
	free(p->preemption_req);
	memset(p, 0, sizeof *p);
}
