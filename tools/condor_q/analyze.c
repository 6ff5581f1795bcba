/*
 * analyze.c: condor_q -better-analyze: why a job does not run.
 *
 * For each job: its Requirements, split into the clauses joined by &&
 * and || (numbered in the order HTCondor numbers them: operands before
 * their operator), the job's attributes those clauses read, how many
 * slots each clause matches (an && step whose count one operand already
 * shows is left out, as HTCondor does), and the totals of slots that
 * reject the job, that the job rejects, that run other jobs and that
 * are willing to run it.  The texts and widths are HTCondor 25's
 * (src/condor_q.V6/jobmatch.cpp, src/condor_utils/expr_analyze.cpp);
 * kestrel prints the Requirements on one line where HTCondor wraps it,
 * and leaves out the drained-slot counts.  With user priorities
 * (-better-analyze:priority, -userprios) the summary considers them, as
 * HTCondor's: a slot claimed by another user is one the job could
 * preempt, or one it could not.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cq.h"
#include "ks_mem.h"

enum { CQ_LEAF = 0, CQ_OR = 2, CQ_AND = 3 };

struct cq_sub {
	char *text;       /* a leaf's clause, or the operator's whole text */
	classad_expr *e;  /* text parsed (NULL: did not parse) */
	int op;
	int left, right;  /* operands, replaced by what they stand for */
	int eff;          /* the step this one is the same as, or -1 */
	bool dont_care;   /* shown by another step */
	bool constant;    /* reads nothing of the slot */
	bool hard;        /* a constant's value */
	int count;        /* slots it matches */
};

struct cq_subs {
	struct cq_sub *v;
	size_t n;
};

/* Where the last top-level op ("&&" or "||") is in s[0..len), or -1;
 * *ternary is set when a top-level '?' makes the text one clause. */
static long cq_top_op(const char *s, size_t len, const char *op,
		      bool *ternary)
{
	int depth = 0;
	long last = -1;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '"' || c == '\'') {
			for (i++; i < len && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}')
			depth--;
		else if (depth == 0 && c == '?' && (i + 1 >= len || s[i + 1] != ':'))
			*ternary = true;
		else if (depth == 0 && i + 1 < len && c == op[0] && s[i + 1] == op[1])
			last = (long)i++;
	}
	return last;
}

/* Does a '(' at s[0] close at s[len-1]? */
static bool cq_wrapped(const char *s, size_t len)
{
	if (len < 2 || s[0] != '(' || s[len - 1] != ')')
		return false;
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '"' || c == '\'') {
			for (i++; i < len && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0 && i + 1 < len)
			return false;
	}
	return true;
}

static int cq_add(struct cq_subs *t, const char *s, size_t len, int op,
		  int left, int right)
{
	t->v = ks_xrealloc(t->v, (t->n + 1) * sizeof *t->v);
	struct cq_sub *x = &t->v[t->n];
	memset(x, 0, sizeof *x);
	x->text = ks_xstrndup(s, len);
	x->e = classad_parse_expr(s, len, NULL);
	x->op = op;
	x->left = left;
	x->right = right;
	x->eff = -1;
	return (int)t->n++;
}

/* Splits an expression into steps; returns the index of its own. */
static int cq_split(struct cq_subs *t, const char *s, size_t len, int depth)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (depth > 64)
		return cq_add(t, s, len, CQ_LEAF, -1, -1);
	bool ternary = false;
	long at = cq_top_op(s, len, "||", &ternary);
	int op = CQ_OR;
	if (!ternary && at < 0) {
		at = cq_top_op(s, len, "&&", &ternary);
		op = CQ_AND;
	}
	if (ternary || at < 0) {
		if (!ternary && cq_wrapped(s, len))
			return cq_split(t, s + 1, len - 2, depth + 1);
		return cq_add(t, s, len, CQ_LEAF, -1, -1);
	}
	/* a && b && c is (a && b) && c: split at the last one */
	int l = cq_split(t, s, (size_t)at, depth + 1);
	int r = cq_split(t, s + at + 2, len - (size_t)at - 2, depth + 1);
	return cq_add(t, s, len, op, l, r);
}

static void cq_subs_free(struct cq_subs *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].text);
		classad_expr_free(t->v[i].e);
	}
	free(t->v);
}

/* HTCondor's step labels: "[N]" cut or padded to width + 2. */
static void cq_step(struct classad_buf *out, size_t i, int width)
{
	char buf[32];
	snprintf(buf, sizeof buf, "[%zu]      ", i);
	buf[width + 2] = '\0';
	tf_buf_add(out, buf);
}

static void cq_label(struct classad_buf *out, const struct cq_sub *x)
{
	if (x->op == CQ_LEAF)
		tf_buf_add(out, x->text);
	else
		classad_buf_printf(out, "[%d] %s [%d]", x->left,
				   x->op == CQ_AND ? "&&" : "||", x->right);
}

static bool cq_true(const classad_value *v)
{
	bool b = false;
	return classad_value_bool(v, &b) && b;
}

struct cq_refs {
	const classad *job;
	struct tf_names *mine, *theirs;
};

static void cq_ref(const char *name, void *arg)
{
	struct cq_refs *r = arg;
	if (strcasecmp(name, "Requirements") == 0)
		return;
	if (classad_lookup(r->job, name))
		tf_names_add(r->mine, name);
	else if (r->theirs)
		tf_names_add(r->theirs, name);
}

/* TARGET.x names in an expression's text. */
static void cq_target_refs(const char *s, struct tf_names *out)
{
	for (const char *p = s; (p = strchr(p, '.')) != NULL; p++) {
		if (p - s < 6 || strncasecmp(p - 6, "TARGET", 6) != 0 ||
		    (p - s > 6 && (isalnum((unsigned char)p[-7]) || p[-7] == '_')))
			continue;
		const char *e = p + 1;
		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		if (e > p + 1) {
			char *name = ks_xstrndup(p + 1, (size_t)(e - p - 1));
			tf_names_add(out, name);
			free(name);
		}
	}
}

static bool cq_constant(const struct cq_sub *x, const classad *job)
{
	struct tf_names target = {0};
	cq_target_refs(x->text, &target);
	bool scoped = target.n > 0;
	tf_names_clear(&target);
	if (!x->e || scoped)
		return false;
	struct tf_names mine = {0}, theirs = {0};
	struct cq_refs r = {job, &mine, &theirs};
	classad_expr_each_ref(x->e, cq_ref, &r);
	bool constant = theirs.n == 0;
	tf_names_clear(&mine);
	tf_names_clear(&theirs);
	return constant;
}

static bool cq_is_slot_type(const classad *slot, const char *attr)
{
	bool b = false;
	return tf_ad_bool(slot, attr, &b) && b;
}

/* The slots the analysis counts: with partitionable slots in the pool,
 * their dynamic slots are left out (HTCondor's p-slot mode). */
static bool cq_counted(classad *const *slots, size_t n, size_t i)
{
	static const char dyn[] = "DynamicSlot";
	if (!cq_is_slot_type(slots[i], dyn))
		return true;
	for (size_t k = 0; k < n; k++)
		if (cq_is_slot_type(slots[k], "PartitionableSlot"))
			return false;
	return true;
}

/* An operand that cannot change its operator's result, and everything
 * under it. */
static void cq_irrelevant(struct cq_subs *t, int k, int depth)
{
	if (k < 0 || depth > 64)
		return;
	t->v[k].dont_care = true;
	if (t->v[k].op != CQ_LEAF) {
		cq_irrelevant(t, t->v[k].left, depth + 1);
		cq_irrelevant(t, t->v[k].right, depth + 1);
	}
}

/* HTCondor's AnalyzeRequirementsForEachTarget: counts and prunes each
 * step, operands before their operator. */
static void cq_count_steps(struct cq_subs *t, const classad *job,
			   classad *const *slots, size_t nslots,
			   const bool *use)
{
	classad_match *m = classad_match_new(job, NULL, NULL);
	for (size_t ix = 0; ix < t->n; ix++) {
		struct cq_sub *x = &t->v[ix];
		if (x->constant)
			continue;
		int l = x->left, r = x->right;
		int all = 0;
		for (size_t k = 0; k < nslots; k++)
			all += use[k];
		if (x->op != CQ_LEAF) {
			int eff = -1, prune = -1;
			int cl = t->v[l].count, cr = t->v[r].count;
			if (x->op == CQ_AND) {
				if (cl == 0)
					eff = l;
				else if (cr == 0)
					eff = r;
			} else if (cl == all) {
				eff = l, prune = r;
			} else if (cr == all) {
				eff = r, prune = l;
			} else if (cl == 0 && cr != 0) {
				eff = r, prune = l;
			} else if (cl != 0 && cr == 0) {
				eff = l, prune = r;
			}
			if (prune >= 0)
				cq_irrelevant(t, prune, 0);
			if (eff >= 0) {
				while (t->v[eff].eff >= 0)
					eff = t->v[eff].eff;
				x->eff = eff;
			} else {
				if (t->v[l].eff >= 0)
					x->left = t->v[l].eff;
				if (t->v[r].eff >= 0)
					x->right = t->v[r].eff;
			}
		}
		x->count = 0;
		for (size_t k = 0; k < nslots && x->e; k++) {
			if (!use[k])
				continue;
			classad_value v = CLASSAD_VALUE_INIT;
			classad_match_set(m, job, slots[k]);
			classad_match_eval(m, CLASSAD_LEFT, x->e, &v);
			x->count += cq_true(&v);
			classad_value_clear(&v);
		}
		if (x->op == CQ_AND) {
			int eff = -1;
			if (t->v[l].count == x->count) {
				eff = l;
				if (t->v[r].count > x->count)
					t->v[r].dont_care = true;
			} else if (t->v[r].count == x->count) {
				eff = r;
				if (t->v[l].count > x->count)
					t->v[l].dont_care = true;
			}
			if (eff >= 0) {
				while (t->v[eff].eff >= 0)
					eff = t->v[eff].eff;
				x->eff = eff;
			} else {
				if (t->v[l].eff >= 0)
					x->left = t->v[l].eff;
				if (t->v[r].eff >= 0)
					x->right = t->v[r].eff;
			}
		}
	}
	classad_match_free(m);
}

/* The job's own attributes the Requirements read, and, against a single
 * slot, that slot's. */
static void cq_print_attrs(struct classad_buf *out, const classad *job,
			   const classad_expr *req, const char *req_text,
			   classad *const *slots, size_t nslots, const char *id)
{
	struct tf_names mine = {0}, theirs = {0};
	struct cq_refs r = {job, &mine, &theirs};
	classad_expr_each_ref(req, cq_ref, &r);
	cq_target_refs(req_text, &theirs);
	classad_buf_printf(out, "Job %s defines the following attributes:\n\n", id);
	for (size_t i = 0; i < mine.n; i++) {
		char *raw = classad_expr_unparse(classad_lookup(job, mine.v[i]), true);
		classad_buf_printf(out, "    %s = %s%s\n", mine.v[i], raw,
				   strcmp(mine.v[i], "RequestDisk") == 0 ? " (kb)"
				   : strcmp(mine.v[i], "RequestMemory") == 0 ? " (mb)"
									     : "");
		free(raw);
	}
	if (nslots == 1) {
		struct classad_buf a = {0};
		for (size_t i = 0; i < theirs.n; i++) {
			if (!classad_lookup(slots[0], theirs.v[i]))
				continue;
			classad_value v = CLASSAD_VALUE_INIT;
			classad_eval_attr(slots[0], theirs.v[i], NULL, &v);
			char *val = classad_value_unparse(&v, true);
			classad_buf_printf(&a, "    TARGET.%s = %s%s\n", theirs.v[i], val,
					   strcmp(theirs.v[i], "Disk") == 0 ? " (kb)"
					   : strcmp(theirs.v[i], "Memory") == 0 ? " (mb)"
										: "");
			free(val);
			classad_value_clear(&v);
		}
		if (a.len) {
			char *name = classad_eval_string_dup(slots[0], "Name");
			classad_buf_printf(out, "\n%s has the following attributes:\n\n%s",
					   name ? name : "Target", tf_buf_str(&a));
			free(name);
		}
		tf_buf_free(&a);
	}
	tf_buf_addc(out, '\n');
	tf_names_clear(&mine);
	tf_names_clear(&theirs);
}

static void cq_requirements(struct classad_buf *out, const classad *job,
			    classad *const *slots, size_t nslots,
			    const bool *use, const char *id)
{
	const classad_expr *req = classad_lookup(job, "Requirements");
	if (!req)
		return;
	char *text = classad_expr_unparse(req, false);
	classad_buf_printf(out, "The Requirements expression for job %s is\n\n    %s\n\n",
			   id, text);
	struct cq_subs t = {0};
	cq_split(&t, text, strlen(text), 0);
	for (size_t i = 0; i < t.n; i++) {
		tf_buf_add(out, "    ");
		cq_step(out, i, 4);
		tf_buf_add(out, " : ");
		cq_label(out, &t.v[i]);
		tf_buf_addc(out, '\n');
	}
	tf_buf_addc(out, '\n');
	cq_print_attrs(out, job, req, text, slots, nslots, id);

	for (size_t i = 0; i < t.n; i++) {
		struct cq_sub *x = &t.v[i];
		if (x->op == CQ_LEAF)
			x->constant = cq_constant(x, job);
		else
			x->constant = t.v[x->left].constant && t.v[x->right].constant;
		if (x->constant && x->e) {
			classad_value v = CLASSAD_VALUE_INIT;
			classad_eval_expr(job, x->e, NULL, &v);
			x->hard = cq_true(&v);
			classad_value_clear(&v);
		}
	}
	cq_count_steps(&t, job, slots, nslots, use);
	classad_buf_printf(out, "The Requirements expression for job %s reduces to these conditions:\n\n",
			   id);
	tf_buf_add(out, "        Slots\nStep   Matched  Condition\n"
			"----- --------- ---------\n");
	for (size_t i = 0; i < t.n; i++) {
		struct cq_sub *x = &t.v[i];
		if (x->eff >= 0 || x->dont_care)
			continue;
		cq_step(out, i, 3);
		if (x->constant)
			classad_buf_printf(out, " %9s  ", x->hard ? "always" : "never");
		else
			classad_buf_printf(out, " %9d  ", x->count);
		cq_label(out, x);
		tf_buf_addc(out, '\n');
	}
	cq_subs_free(&t);
	free(text);
}

struct cq_tally {
	int total, machines, req_reject, off_reject, offline, running,
	    running_yours, available, job_matches, both;
	/* considering user priority: claimed slots the job cannot preempt,
	 * for the user's priority, or for PREEMPTION_REQUIREMENTS */
	int prio_cond, preempt_req;
	bool prio;        /* priorities are considered */
	char *submitter;  /* the job's, when it has a priority (owned) */
	double submitter_prio;
};

/* HTCondor's tests of a claimed slot (MY) for the job (TARGET): the
 * claiming user's priority worse than the job's submitter's by more
 * than PriorityDelta (0.5), the slot ranking the job at least as high
 * as its current one, and PREEMPTION_REQUIREMENTS. */
struct cq_preempt {
	classad_expr *prio, *rank, *req;
};

static bool cq_slot_true(classad_match *m, const classad_expr *e)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_match_eval(m, CLASSAD_RIGHT, e, &v);
	bool yes = cq_true(&v);
	classad_value_clear(&v);
	return yes;
}

/* PREEMPTION_REQUIREMENTS blocks the preemption only when it is false
 * (undefined lets it through, as HTCondor's analysis takes it). */
static bool cq_slot_false(classad_match *m, const classad_expr *e)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_match_eval(m, CLASSAD_RIGHT, e, &v);
	bool b = true;
	bool no = classad_value_bool(&v, &b) && !b;
	classad_value_clear(&v);
	return no;
}

/* A claimed slot of another user: one the job may preempt counts as
 * willing to run it (HTCondor's order of tests). */
static void cq_tally_claimed(struct cq_tally *a, classad_match *m,
			     const struct cq_preempt *pe)
{
	if (!cq_slot_true(m, pe->prio)) {
		a->prio_cond++;
		return;
	}
	if (cq_slot_true(m, pe->rank) && pe->req &&
	    cq_slot_false(m, pe->req)) {
		a->preempt_req++;
		return;
	}
	a->available++;
}

static double cq_prio_of(const struct cq_prios *p, const char *name,
			 bool *found)
{
	*found = false;
	for (size_t i = 0; p && name && i < p->n; i++)
		if (p->v[i].name && strcmp(p->v[i].name, name) == 0) {
			*found = true;
			return p->v[i].prio;
		}
	return 0;
}

static void cq_tally(struct cq_tally *a, const classad *job_in,
		     classad *const *slots, size_t nslots, const bool *use,
		     const struct cq_prios *prios, const struct cq_preempt *pe)
{
	char *user = classad_eval_string_dup(job_in, "User");
	/* the job's submitter's priority goes into its copy as
	 * SubmittorPrio, as HTCondor's analysis sets it */
	classad *copy = NULL;
	const classad *job = job_in;
	a->prio = prios != NULL;
	if (prios) {
		bool found = false;
		double prio = cq_prio_of(prios, user, &found);
		if (found) {
			copy = classad_copy(job_in);
			classad_insert_real(copy, "SubmittorPrio", prio);
			job = copy;
			a->submitter = ks_xstrdup(user);
			a->submitter_prio = prio;
		}
	}
	struct tf_names machines = {0};
	classad_match *m = classad_match_new(job, NULL, NULL);
	for (size_t k = 0; k < nslots; k++) {
		char *mach = classad_eval_string_dup(slots[k], "Machine");
		if (!mach)
			mach = classad_eval_string_dup(slots[k], "Name");
		if (mach && !tf_names_has(&machines, mach))
			tf_names_add(&machines, mach);
		free(mach);
		if (!use[k])
			continue;
		a->total++;
		classad_match_set(m, job, slots[k]);
		if (!classad_match_right_matches_left(m)) {
			a->req_reject++;
			continue;
		}
		a->job_matches++;
		if (!classad_match_left_matches_right(m)) {
			a->off_reject++;
			continue;
		}
		a->both++;
		if (cq_is_slot_type(slots[k], "Offline"))
			a->offline++;
		char *remote = classad_eval_string_dup(slots[k], "RemoteUser");
		if (!remote) {
			a->available++;
		} else {
			a->running++;
			bool found = false;
			double rprio = cq_prio_of(prios, remote, &found);
			if (user && strcmp(user, remote) == 0) {
				a->running_yours++;
			} else if (a->submitter) {
				/* the claiming user's priority, in a copy of
				 * the slot, as HTCondor's analysis puts it */
				classad *slot = classad_copy(slots[k]);
				if (found)
					classad_insert_real(slot, "RemoteUserPrio",
							    rprio);
				classad_match_set(m, job, slot);
				cq_tally_claimed(a, m, pe);
				classad_match_set(m, NULL, NULL);
				classad_free(slot);
			}
		}
		free(remote);
	}
	a->machines = (int)machines.n;
	classad_match_free(m);
	tf_names_clear(&machines);
	classad_free(copy);
	free(user);
}

static void cq_totals(struct classad_buf *out, const struct cq_tally *a,
		      int cluster, int proc)
{
	if (a->submitter)
		classad_buf_printf(out, "Submittor %s has a priority of %.3f\n",
				   a->submitter, a->submitter_prio);
	classad_buf_printf(out, "\n%03d.%03d:  Run analysis summary %s user priority.  Of %d slots on %d machines,\n",
			   cluster, proc, a->prio ? "considering" : "ignoring",
			   a->total, a->machines);
	classad_buf_printf(out, "  %5d slots are rejected by your job's requirements\n",
			   a->req_reject);
	classad_buf_printf(out, "  %5d slots reject your job because of their own requirements\n",
			   a->off_reject);
	if (a->prio) {
		/* HTCondor's lines, its blank line after the offline one
		 * included */
		classad_buf_printf(out, "  %5d slots match and are already running one of your jobs\n",
				   a->running_yours);
		classad_buf_printf(out, "  %5d slots match but are serving users with a better priority in the pool\n",
				   a->prio_cond);
		classad_buf_printf(out, "  %5d slots match but will not currently preempt their existing job\n",
				   a->preempt_req);
		classad_buf_printf(out, "  %5d slots match but are currently offline\n\n",
				   a->offline);
		classad_buf_printf(out, "  %5d slots match and are willing to run your job\n",
				   a->available);
	}
	if (!a->prio && a->running_yours)
		classad_buf_printf(out, "  %5d slots match and are already running your jobs\n",
				   a->running_yours);
	if (!a->prio && a->running)
		classad_buf_printf(out, "  %5d slots match but are serving other users\n",
				   a->running - a->running_yours);
	if (!a->prio && a->offline > 0)
		classad_buf_printf(out, "  %5d slots match but are currently offline\n",
				   a->offline);
	if (!a->prio)
		classad_buf_printf(out, "  %5d slots match and are willing to run your job\n",
				   a->available);
	if (!a->job_matches || !a->both) {
		tf_buf_add(out, "\nWARNING:  Be advised:\n");
		if (!a->job_matches)
			tf_buf_add(out, "   No machines matched the job's constraints\n");
		else
			tf_buf_add(out, "   Job did not match any machines' constraints\n"
					"   To see why, pick a machine that you think should match and add\n"
					"     -reverse -machine <name>\n"
					"   to your query.\n");
	}
}

/* What the job's state says before any slot is looked at. */
static char *cq_job_status(const classad *job)
{
	long long st = 0, cool = 0, now = 0;
	tf_ad_int(job, "JobStatus", &st);
	tf_ad_int(job, "JobCoolDownExpiration", &cool);
	if (!tf_ad_int(job, "ServerTime", &now))
		now = (long long)time(NULL);
	struct classad_buf b = {0};
	if (st == 2 || st == 6 || st == 7)
		tf_buf_add(&b, "Job is running.");
	if (st == 5) {
		tf_buf_add(&b, "Job is held.");
		char *why = classad_eval_string_dup(job, "HoldReason");
		if (why && *why)
			classad_buf_printf(&b, "\n\nHold reason: %s", why);
		free(why);
	}
	if (st == 3)
		tf_buf_add(&b, "Job is removed.");
	if (st == 4)
		tf_buf_add(&b, "Job is completed.");
	if (st == 1 && cool > now)
		tf_buf_add(&b, "Job is in cool down.");
	return b.data;
}

static const char *cq_universe_warning(const classad *job)
{
	long long u = 0;
	tf_ad_int(job, "JobUniverse", &u);
	switch (u) {
	case 5: case 10: case 11: case 13:
		return "";
	case 9: {
		char *res = classad_eval_string_dup(job, "GridResource");
		bool mm = res && strstr(res, "$$");
		free(res);
		return mm ? "" : "\nWARNING: Analysis is only meaningful for Grid universe jobs using matchmaking.\n";
	}
	case 8:
		return "\nWARNING: Analysis is meaningless for MPI universe jobs.\n";
	case 7: case 12:
		return "\nWARNING: Analysis is not complete for Scheduler or Local universe jobs.\n";
	default:
		return "\nWARNING: Job universe unknown.  Analysis may not be meaningful.\n";
	}
}

/* t as ctime() gives it, without its newline. */
static void cq_ctime(struct classad_buf *out, long long t)
{
	time_t tt = (time_t)t;
	char buf[64];
	struct tm tm;
	if (!localtime_r(&tt, &tm) ||
	    !strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, sizeof buf, "%lld", t);
	tf_buf_add(out, buf);
}

/* When the job was last matched, or last refused a match and why (the
 * negotiator's reason, which the schedd keeps), as HTCondor prints it. */
static void cq_last_match(struct classad_buf *out, const classad *job)
{
	long long matched = 0, rejected = 0;
	tf_ad_int(job, "LastMatchTime", &matched);
	tf_ad_int(job, "LastRejMatchTime", &rejected);
	if (matched) {
		tf_buf_add(out, "Last successful match: ");
		cq_ctime(out, matched);
		tf_buf_addc(out, '\n');
	} else if (rejected) {
		tf_buf_add(out, "No successful match recorded.\n");
	}
	if (rejected > matched) {
		tf_buf_add(out, "Last failed match: ");
		cq_ctime(out, rejected);
		tf_buf_addc(out, '\n');
		char *why = classad_eval_string_dup(job, "LastRejMatchReason");
		if (why)
			classad_buf_printf(out,
					   "Reason for last match failure: %s\n",
					   why);
		free(why);
	}
}

static void cq_analyze_job(struct classad_buf *out, const struct cq_job *j,
			   classad *const *slots, size_t nslots,
			   const bool *use, bool better,
			   const struct cq_prios *prios,
			   const struct cq_preempt *pe)
{
	const classad *job = j->ad;
	char id[48];
	snprintf(id, sizeof id, "%d.%03d", j->cluster, j->proc);
	char *status = NULL;
	struct cq_tally a = {0};
	long long u = 0;
	tf_ad_int(job, "JobUniverse", &u);
	char *owner = classad_eval_string_dup(job, "Owner");
	if (!owner) {
		status = ks_xstrdup("Nothing here.");
	} else if (u == 7 || u == 12) {
		status = cq_job_status(job);
		struct classad_buf b = {0};
		if (status)
			classad_buf_printf(&b, "%s\n\n", status);
		tf_buf_add(&b, "WARNING: A schedd ClassAd is needed to do analysis for scheduler or Local universe jobs.\n");
		free(status);
		status = b.data;
	} else {
		status = cq_job_status(job);
		cq_tally(&a, job, slots, nslots, use, prios, pe);
	}
	free(owner);
	if (better || a.req_reject > 0) {
		cq_requirements(out, job, slots, nslots, use, id);
		tf_buf_add(out, cq_universe_warning(job));
		tf_buf_addc(out, '\n');
	}
	if (a.total > 0)
		cq_totals(out, &a, j->cluster, j->proc);
	free(a.submitter);
	tf_buf_addc(out, '\n');
	if (status && *status)
		classad_buf_printf(out, "\n%03d.%03d:  %s\n\n", j->cluster, j->proc,
				   status);
	free(status);
	cq_last_match(out, job);
}

void cq_analyze(struct classad_buf *out, const char *label,
		struct cq_job *jobs, size_t n, classad *const *slots,
		size_t nslots, bool better, const struct cq_prios *prios)
{
	classad_buf_printf(out, "\n\n-- %s\n", label);
	bool *use = ks_xcalloc(nslots ? nslots : 1, sizeof *use);
	for (size_t k = 0; k < nslots; k++)
		use[k] = cq_counted(slots, nslots, k);
	static const char prio[] = "MY.RemoteUserPrio > TARGET.SubmittorPrio + 0.500000";
	static const char rank[] = "MY.Rank >= MY.CurrentRank";
	struct cq_preempt pe = {
		classad_parse_expr(prio, sizeof prio - 1, NULL),
		classad_parse_expr(rank, sizeof rank - 1, NULL),
		prios && prios->preemption_req
			? classad_parse_expr(prios->preemption_req,
					     strlen(prios->preemption_req), NULL)
			: NULL,
	};
	for (size_t i = 0; i < n; i++)
		if (jobs[i].ad)
			cq_analyze_job(out, &jobs[i], slots, nslots, use, better,
				       prios, &pe);
	classad_expr_free(pe.prio);
	classad_expr_free(pe.rank);
	classad_expr_free(pe.req);
	free(use);
}
