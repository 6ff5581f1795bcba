/*
 * ng_fake_schedd.c: a stand-in schedd for the negotiator's tests (and
 * its benchmark), built on the daemon skeleton.  Its resource requests
 * come from a file, NG_FAKE_SCHEDD_REQUESTS in the configuration: ads
 * in old syntax separated by blank lines, each a representative job ad
 * with AutoClusterId, ResourceRequestCount and User (the submitter it
 * belongs to); KsMisbehave = "error" or "hang" makes NEGOTIATE for that
 * User answer an error or never answer, "noac" sends its requests
 * without AutoClusterId and with a ResourceRequestCount that is no
 * number.
 *
 * It advertises one Submitter ad per User (IdleJobs: the requests'
 * counts), answers NEGOTIATE with that User's requests less what it was
 * given matches for, logs every PERMISSION_AND_AD pair
 *   PERMISSION_AND_AD submitter=S autocluster=N claim=C slot=NAME
 * or rejection
 *   REJECTED submitter=S autocluster=N reason=WHY
 * and, standing in for startds too, every MATCH_INFO
 *   MATCH_INFO claim=C
 * A change of the file's contents starts afresh (nothing matched).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_daemon.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"

struct given {
	char *user;
	int64_t ac, n;
};

struct fake {
	char *text;         /* the file as last read */
	classad **req;
	size_t nreq;
	struct given *given;
	size_t ngiven;
	char **users;       /* advertised last time */
	size_t nusers;
	ks_later **hung;
	size_t nhung;
};

static void forget(struct fake *f)
{
	for (size_t i = 0; i < f->nreq; i++)
		classad_free(f->req[i]);
	free(f->req);
	f->req = NULL;
	f->nreq = 0;
	for (size_t i = 0; i < f->ngiven; i++)
		free(f->given[i].user);
	free(f->given);
	f->given = NULL;
	f->ngiven = 0;
}

/* Reads the requests file again; new contents, new start. */
static void reload(ks_daemon *d)
{
	struct fake *f = d->ctx;
	char *path = ks_config_get(d->cfg, "NG_FAKE_SCHEDD_REQUESTS", NULL);
	FILE *fp = path ? fopen(path, "r") : NULL;
	size_t len = 0;
	char *text = fp ? ks_read_all(fp, &len) : ks_xstrdup("");
	if (fp)
		fclose(fp);
	free(path);
	if (f->text && strcmp(text, f->text) == 0) {
		free(text);
		return;
	}
	forget(f);
	free(f->text);
	f->text = text;
	classad_reader *r = classad_reader_new(text, strlen(text),
					       CLASSAD_FMT_OLD, NULL);
	classad *ad;
	struct ks_err err;
	while (classad_reader_next(r, &ad, &err) == 1) {
		f->req = ks_xrealloc(f->req, (f->nreq + 1) * sizeof(*f->req));
		f->req[f->nreq++] = ad;
	}
	classad_reader_free(r);
	ks_log_printf(d->log, KS_D_ALWAYS, "read %zu requests", f->nreq);
}

static int64_t *given_of(struct fake *f, const char *user, int64_t ac)
{
	for (size_t i = 0; i < f->ngiven; i++)
		if (f->given[i].ac == ac && strcmp(f->given[i].user, user) == 0)
			return &f->given[i].n;
	f->given = ks_xrealloc(f->given, (f->ngiven + 1) * sizeof(*f->given));
	f->given[f->ngiven] = (struct given){ks_xstrdup(user), ac, 0};
	return &f->given[f->ngiven++].n;
}

/* What is left of request i: its count less the matches given. */
static int64_t left_of(struct fake *f, size_t i)
{
	int64_t count = 1, ac = 0;
	classad_eval_int(f->req[i], "ResourceRequestCount", NULL, &count);
	classad_eval_int(f->req[i], "AutoClusterId", NULL, &ac);
	char *user = classad_eval_string_dup(f->req[i], "User");
	int64_t left = count - (user ? *given_of(f, user, ac) : 0);
	free(user);
	return left;
}

static size_t make_ads(ks_daemon *d, classad ***out)
{
	struct fake *f = d->ctx;
	reload(d);
	char **names = NULL;
	int64_t *idle = NULL;
	size_t n = 0;
	for (size_t i = 0; i < f->nreq; i++) {
		char *user = classad_eval_string_dup(f->req[i], "User");
		if (!user)
			continue;
		size_t k = 0;
		while (k < n && strcmp(names[k], user) != 0)
			k++;
		if (k == n) {
			names = ks_xrealloc(names, (n + 1) * sizeof(*names));
			idle = ks_xrealloc(idle, (n + 1) * sizeof(*idle));
			names[n] = ks_xstrdup(user);
			idle[n++] = 0;
		}
		int64_t left = left_of(f, i);
		idle[k] += left > 0 ? left : 0;
		free(user);
	}
	/* submitters gone from the file: their ads go too */
	for (size_t j = 0; j < f->nusers; j++) {
		bool still = false;
		for (size_t k = 0; k < n && !still; k++)
			still = strcmp(names[k], f->users[j]) == 0;
		if (!still) {
			classad *q = classad_new();
			classad_insert_string(q, "MyType", "Query");
			classad_insert_string(q, "TargetType", "Submitter");
			struct classad_buf b = {0};
			classad_buf_add(&b, "Name == ", 8);
			classad_quote_string_buf(&b, f->users[j],
						 strlen(f->users[j]));
			classad_insert_text(q, "Requirements", b.data, NULL);
			free(b.data);
			ks_daemon_send(d, KS_INVALIDATE_SUBMITTOR_ADS, &q, 1);
			classad_free(q);
		}
		free(f->users[j]);
	}
	free(f->users);
	f->users = ks_xmalloc((n ? n : 1) * sizeof(*f->users));
	f->nusers = n;
	classad **ads = ks_xcalloc(n ? n : 1, sizeof(*ads));
	for (size_t k = 0; k < n; k++) {
		classad *ad = classad_new();
		classad_insert_string(ad, "MyType", "Submitter");
		classad_insert_string(ad, "Name", names[k]);
		classad_insert_string(ad, "ScheddName", d->name);
		classad_insert_string(ad, "ScheddIpAddr", d->sinful);
		classad_insert_int(ad, "IdleJobs", idle[k]);
		classad_insert_int(ad, "RunningJobs", 0);
		classad_insert_int(ad, "HeldJobs", 0);
		ads[k] = ad;
		f->users[k] = names[k];
	}
	free(names);
	free(idle);
	*out = ads;
	return n;
}

static void cmd_negotiate(ks_daemon *d, struct ks_request *req)
{
	struct fake *f = d->ctx;
	char *who = req->n ? classad_eval_string_dup(req->ads[0],
						     "Submitter") : NULL;
	if (!who) {
		ks_reply_error(req, "NEGOTIATE carries an ad with Submitter");
		return;
	}
	reload(d);
	classad **out = ks_xcalloc(f->nreq + 1, sizeof(*out));
	size_t n = 0;
	char *misbehave = NULL;
	for (size_t i = 0; i < f->nreq; i++) {
		char *user = classad_eval_string_dup(f->req[i], "User");
		bool mine = user && strcmp(user, who) == 0;
		free(user);
		if (!mine)
			continue;
		if (!misbehave)
			misbehave = classad_eval_string_dup(f->req[i],
							    "KsMisbehave");
		int64_t left = left_of(f, i);
		if (left <= 0)
			continue;
		classad *ad = classad_copy(f->req[i]);
		classad_insert_int(ad, "ResourceRequestCount", left);
		if (misbehave && strcmp(misbehave, "noac") == 0) {
			classad_delete(ad, "AutoClusterId");
			classad_insert_string(ad, "ResourceRequestCount", "many");
		}
		out[n++] = ad;
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "NEGOTIATE for %s: %zu requests%s%s",
		      who, n, misbehave ? ", misbehaving: " : "",
		      misbehave ? misbehave : "");
	if (misbehave && strcmp(misbehave, "error") == 0) {
		ks_reply_error(req, "this schedd does not negotiate for %s",
			       who);
	} else if (misbehave && strcmp(misbehave, "hang") == 0) {
		ks_later *l = ks_reply_later(req);
		if (l) {
			f->hung = ks_xrealloc(f->hung,
					      (f->nhung + 1) * sizeof(*f->hung));
			f->hung[f->nhung++] = l;
		}
	} else {
		ks_reply(req, KS_REPLY_OK, out, n, false);
	}
	for (size_t i = 0; i < n; i++)
		classad_free(out[i]);
	free(out);
	free(misbehave);
	free(who);
}

static void cmd_permission(ks_daemon *d, struct ks_request *req)
{
	struct fake *f = d->ctx;
	for (size_t i = 0; i + 1 < req->n; i += 2) {
		int64_t ac = -1;
		classad_eval_int(req->ads[i], "AutoClusterId", NULL, &ac);
		char *sub = classad_eval_string_dup(req->ads[i], "Submitter");
		char *why = classad_eval_string_dup(req->ads[i],
						    "RejectReason");
		if (why) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "REJECTED submitter=%s autocluster=%lld "
				      "reason=%s", sub ? sub : "?",
				      (long long)ac, why);
			free(why);
			free(sub);
			continue;
		}
		char *claim = classad_eval_string_dup(req->ads[i], "ClaimId");
		char *slot = classad_eval_string_dup(req->ads[i + 1], "Name");
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "PERMISSION_AND_AD submitter=%s autocluster=%lld "
			      "claim=%s slot=%s", sub ? sub : "?",
			      (long long)ac, claim ? claim : "?",
			      slot ? slot : "?");
		if (sub)
			(*given_of(f, sub, ac))++;
		free(sub);
		free(claim);
		free(slot);
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "PERMISSION_AND_AD done: %zu pairs",
		      req->n / 2);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	/* the idle counts changed */
	ks_daemon_update_collector(d);
}

static void cmd_match_info(ks_daemon *d, struct ks_request *req)
{
	char *claim = req->n ? classad_eval_string_dup(req->ads[0],
						       "ClaimId") : NULL;
	ks_log_printf(d->log, KS_D_ALWAYS, "MATCH_INFO claim=%s",
		      claim ? claim : "?");
	free(claim);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

static const struct ks_command_def cmds[] = {
	{KS_NEGOTIATE, KS_LEVEL_NEGOTIATOR, cmd_negotiate},
	{KS_PERMISSION_AND_AD, KS_LEVEL_NEGOTIATOR, cmd_permission},
	{KS_MATCH_INFO, KS_LEVEL_NEGOTIATOR, cmd_match_info},
};

int main(int argc, char **argv)
{
	struct fake f = {0};
	static const struct ks_daemon_ops ops = {
		.make_ads = make_ads,
		.update_code = KS_UPDATE_SUBMITTOR_AD,
		.invalidate_code = KS_INVALIDATE_SUBMITTOR_ADS,
	};
	int rc = ks_daemon_main(argc, argv, "SCHEDD", &ops, cmds,
				sizeof(cmds) / sizeof(cmds[0]), &f);
	for (size_t i = 0; i < f.nhung; i++)
		ks_later_cancel(f.hung[i]);
	free(f.hung);
	forget(&f);
	free(f.text);
	for (size_t i = 0; i < f.nusers; i++)
		free(f.users[i]);
	free(f.users);
	return rc;
}
