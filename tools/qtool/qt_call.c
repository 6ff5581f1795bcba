/*
 * qt_call.c: a command to the schedd and its answer: one message, or a
 * stream of them ended by one without KS_WIRE_MORE (docs/schedd.md).
 */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_wire.h"
#include "qtool.h"

char *qt_conn_user(const ks_conn *c)
{
	const char *id = c ? ks_conn_identity(c) : NULL;
	if (!id || !*id || strncmp(id, "unauthenticated@", 16) == 0)
		return qt_user_name();
	const char *at = strchr(id, '@');
	return ks_xstrndup(id, at ? (size_t)(at - id) : strlen(id));
}

/* An error answer's reason into err; returns the status for it. */
static int qt_refused(int code, classad **ads, size_t n, struct ks_err *err)
{
	char *why = NULL;
	if (n)
		classad_eval_string(ads[0], "ErrorString", NULL, &why);
	int rc = code == -2 ? KS_EPERM : KS_EPROTO;
	ks_err_set(err, rc, 0, 0, 0, "%s",
		   why ? why
		       : code == -2 ? "the schedd refused the command (not authorized)"
				    : "the schedd refused the command");
	free(why);
	return rc;
}

int qt_call(ks_conn *c, int code, classad *const *ads, size_t n,
	    classad ***reply, size_t *nreply, struct ks_err *err)
{
	*reply = NULL;
	*nreply = 0;
	int rc = ks_conn_send(c, code, ads, n, 0, err);
	if (rc)
		return rc;
	int rcode = 0;
	bool more = false;
	classad **got = NULL;
	size_t ngot = 0;
	rc = ks_conn_recv(c, &rcode, &got, &ngot, &more, err);
	if (rc)
		return rc;
	if (rcode < 0) {
		rc = qt_refused(rcode, got, ngot, err);
		ks_ads_free(got, ngot);
		return rc;
	}
	*reply = got;
	*nreply = ngot;
	return 0;
}

int qt_stream(ks_conn *c, int code, const classad *query,
	      int (*each)(classad *ad, void *arg), void *arg,
	      struct ks_err *err)
{
	classad *q = (classad *)query;
	int rc = ks_conn_send(c, code, &q, 1, 0, err);
	bool more = true;
	while (rc == 0 && more) {
		int rcode = 0;
		classad **got = NULL;
		size_t ngot = 0;
		rc = ks_conn_recv(c, &rcode, &got, &ngot, &more, err);
		if (rc)
			break;
		if (rcode < 0) {
			rc = qt_refused(rcode, got, ngot, err);
			ks_ads_free(got, ngot);
			break;
		}
		size_t i = 0;
		for (; i < ngot && rc == 0; i++) {
			classad *ad = got[i];
			got[i] = NULL;
			if (each(ad, arg) != 0)
				rc = ks_err_set(err, KS_ECANCELED, 0, 0, 0,
						"query abandoned");
		}
		ks_ads_free(got, ngot);
	}
	return rc;
}

struct qt_records {
	int rcode;	     /* of the message being read */
	classad *refusal;    /* an error answer's first ad */
	ks_wire_record_fn each;
	void *arg;
};

static int qt_take_record(const struct ks_wire_record *rec, void *arg)
{
	struct qt_records *s = arg;
	if (s->rcode < 0) {
		if (!s->refusal)
			s->refusal = ks_wire_record_parse(rec, NULL, NULL);
		return 0;
	}
	return s->each(rec, s->arg);
}

int qt_stream_records(ks_conn *c, int code, const classad *query,
		      ks_wire_record_fn each, void *arg, struct ks_err *err)
{
	classad *q = (classad *)query;
	int rc = ks_conn_send(c, code, &q, 1, 0, err);
	struct qt_records s = {.each = each, .arg = arg};
	bool more = true;
	while (rc == 0 && more) {
		rc = ks_conn_recv_records(c, &s.rcode, &more, qt_take_record,
					  &s, err);
		if (rc == KS_ECANCELED)
			rc = ks_err_set(err, KS_ECANCELED, 0, 0, 0,
					"query abandoned");
		if (rc == 0 && s.rcode < 0) {
			rc = qt_refused(s.rcode, &s.refusal, s.refusal ? 1 : 0,
					err);
			classad_free(s.refusal);
		}
	}
	return rc;
}
