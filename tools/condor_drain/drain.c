/*
 * drain.c: condor_drain's work, after HTCondor's drain.cpp main() and
 * DCStartd::drainJobs() / cancelDrainJobs(): find the machine's startd
 * (its address file when it is this host, else a slot ad in the
 * collector), send DRAIN_JOBS or CANCEL_DRAIN_JOBS with one ad, and read
 * the answer ad's Result.  Drain requests are per startd: every slot of
 * the machine drains together.
 */
#include <stdlib.h>
#include <string.h>

#include "drain.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sdt.h"

/* The request ad, with HTCondor's attribute names and values. */
static classad *request(const struct drn_opts *o)
{
	classad *ad = classad_new();
	if (o->cancel) {
		if (o->request_id)
			classad_insert_string(ad, "RequestID", o->request_id);
		return ad;
	}
	if (o->reason) {
		classad_insert_string(ad, "DrainReason", o->reason);
	} else {
		/* HTCondor's default: who asked */
		char *user = sdt_username();
		char why[300];
		snprintf(why, sizeof(why), "by %s", user ? user : "command");
		classad_insert_string(ad, "DrainReason", why);
		free(user);
	}
	classad_insert_int(ad, "HowFast", o->how_fast);
	classad_insert_int(ad, "ResumeOnCompletion", o->on_completion);
	/* drn_parse() has checked that both parse */
	if (o->check)
		classad_insert_text(ad, "CheckExpr", o->check, NULL);
	if (o->start)
		classad_insert_text(ad, "StartExpr", o->start, NULL);
	return ad;
}

/* Sends the request; on failure fills why as DCStartd's error() would
 * read.  Returns true when the startd said yes. */
static bool send_request(const ks_config *cfg, const struct drn_opts *o,
			 const char *addr, const char *name, int code,
			 char **request_id, char *why, size_t size)
{
	const char *cmd = ks_command_name(code);
	classad *ad = request(o);
	struct sdt_reply rep;
	struct ks_err e = {0};
	bool connected;
	int rc = sdt_send(cfg, addr, code, ad, &connected, &rep, &e);
	classad_free(ad);
	if (rc) {
		/* HTCondor's wording, and ours: why it failed */
		snprintf(why, size, "%s %s command to %s: %s",
			 connected ? "Failed to get response to"
				   : "Failed to start",
			 cmd, name, e.msg);
		return false;
	}
	if (rep.code == KS_REPLY_DENIED) {
		char *reason = sdt_reply_error(&rep, NULL);
		snprintf(why, size, "Failed to start %s command to %s: "
				    "PERMISSION DENIED: %s", cmd, name, reason);
		free(reason);
		sdt_reply_clear(&rep);
		return false;
	}
	/* HTCondor's startd answers with Result in the ad; an error reply
	 * (a kestrel daemon that does not serve the command) is a failure
	 * too */
	bool ok = rep.code >= 0;
	if (ok && rep.ad)
		classad_eval_bool(rep.ad, "Result", NULL, &ok);
	if (!ok) {
		int ecode = 0;
		char *reason = sdt_reply_error(&rep, &ecode);
		snprintf(why, size, "Received failure from %s in response to %s "
				    "request: error code %d: %s",
			 name, cmd, ecode, reason);
		free(reason);
		sdt_reply_clear(&rep);
		return false;
	}
	if (rep.ad)
		classad_eval_string(rep.ad, "RequestID", NULL, request_id);
	sdt_reply_clear(&rep);
	return true;
}

int drn_run(const ks_config *cfg, const struct drn_opts *o, FILE *out,
	    FILE *err)
{
	struct sdt_startd sd = {0};
	char *name = NULL;
	if (o->target[0] == '<') {
		/* a sinful string is used as it is (HTCondor's Daemon) */
		sd.addr = ks_xstrdup(o->target);
		name = ks_xstrdup(o->target);
	} else {
		name = sdt_daemon_name(cfg, o->target);
		if (!name) {
			fprintf(err, "ERROR: unknown host %s\n",
				sdt_host_part(o->target));
			return 1;
		}
		bool local;
		struct ks_err e = {0};
		int rc = sdt_locate(cfg, o->pool, name, &local, &sd, &e);
		if (rc)
			fprintf(err, "ERROR: %s\n", e.msg);
		else if (!sd.addr)
			fprintf(err, "ERROR: Can't find address for startd %s\n",
				name);
		if (rc || !sd.addr) {
			free(name);
			return 1;
		}
	}
	int code = o->cancel ? KS_CANCEL_DRAIN_JOBS : KS_DRAIN_JOBS;
	char why[1024], *request_id = NULL;
	int status = 0;
	if (!send_request(cfg, o, sd.addr, name, code, &request_id, why,
			  sizeof(why))) {
		fprintf(err, "Attempt to send %s to startd %s failed\n%s\n",
			ks_command_name(code), sd.addr, why);
		status = 1;
	} else if (o->cancel) {
		fprintf(out, "Sent request to cancel draining on %s\n", name);
	} else {
		fprintf(out, "Sent request to drain the startd %s with %s. This "
			     "only affects the single startd; any other startds "
			     "running on the same host will not be drained.\n",
			sd.addr, name);
		if (o->verbose && request_id && *request_id)
			fprintf(out, "\tRequest id: %s\n", request_id);
	}
	free(request_id);
	free(name);
	sdt_startd_clear(&sd);
	return status;
}

int drn_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct drn_opts o;
	int status = drn_parse(argc, argv, &o, out, err);
	if (status != DRN_GO)
		return status;
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(err, "ERROR: %s\n", e.msg);
		return 1;
	}
	status = drn_run(cfg, &o, out, err);
	ks_config_free(cfg);
	return status;
}
