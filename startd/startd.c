/*
 * startd.c: condor_startd: divides the machine into slots, advertises
 * them, and starts, reconfigures and shuts down the policy engine that
 * moves each through the states and activities its policy expressions
 * call for (sd_engine.h, docs/startd.md).
 */
#include <errno.h>
#include <netdb.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_daemon.h"
#include "ks_mem.h"
#include "sd_ad.h"
#include "sd_cron.h"
#include "sd_engine.h"
#include "sd_layout.h"
#include "sd_slot.h"
#include "sd_startd.h"
#include "sd_state.h"
#include "sd_sysinfo.h"

/* The host's full name, as Machine and the part of Name after '@'. */
static char *full_hostname(void)
{
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	struct addrinfo hints = {.ai_flags = AI_CANONNAME}, *res = NULL;
	if (!strchr(host, '.') && getaddrinfo(host, NULL, &hints, &res) == 0 &&
	    res && res->ai_canonname && strchr(res->ai_canonname, '.')) {
		char *full = ks_xstrdup(res->ai_canonname);
		freeaddrinfo(res);
		return full;
	}
	if (res)
		freeaddrinfo(res);
	return ks_xstrdup(host);
}

/* New cron output: the policy may see the machine differently now. */
static void on_cron(void *arg, bool update_collector)
{
	sd_reevaluate(arg, update_collector);
}

/* A cron job's CONDITION is evaluated against the first slot's ad (the
 * machine's attributes, before cron output). */
static classad *cron_context(void *arg)
{
	ks_daemon *d = arg;
	struct startd *sd = d->ctx;
	if (!sd->nslots)
		return NULL;
	return sd_engine_ad(d, sd->slots[0], true);
}

/* A slot's private ad: the capability the negotiator hands to the schedd
 * it matches (for a claimed slot, the one for a better claim), as
 * HTCondor's startd publishes it (Capability is the old name). */
static classad *private_ad(const struct sd_slot *s)
{
	classad *p = classad_new();
	classad_insert_string(p, "MyType", "Machine");
	classad_insert_string(p, "Name", s->name);
	const char *id = s->st.state == SD_CLAIMED && s->pre.id[0]
				 ? s->pre.id
				 : s->claim.id;
	classad_insert_string(p, "ClaimId", id);
	classad_insert_text(p, "Capability", "ClaimId", NULL);
	return p;
}

/* The ads of the slots where want[i] (all without want), each followed
 * by its private ad (ops.paired_ads). */
static size_t paired_ads(ks_daemon *d, const bool *want, classad ***out)
{
	struct startd *sd = d->ctx;
	classad **pub = sd_engine_ads(d, want, false);
	*out = ks_xmalloc((sd->nslots ? 2 * sd->nslots : 1) * sizeof(**out));
	size_t k = 0;
	for (size_t i = 0; i < sd->nslots; i++) {
		if (!pub[i])
			continue;
		(*out)[k++] = pub[i];
		(*out)[k++] = private_ad(sd->slots[i]);
	}
	free(pub);
	return k;
}

static size_t make_ads(ks_daemon *d, classad ***out)
{
	return paired_ads(d, NULL, out);
}

static size_t make_changed_ads(ks_daemon *d, classad ***out)
{
	struct startd *sd = d->ctx;
	bool *want = ks_xcalloc(sd->nslots ? sd->nslots : 1, sizeof(*want));
	for (size_t i = 0; i < sd->nslots; i++) {
		want[i] = sd->slots[i]->dirty;
		sd->slots[i]->dirty = false; /* the collector is getting it */
	}
	size_t n = paired_ads(d, want, out);
	free(want);
	return n;
}

static void configure_slots(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++)
		sd_slot_configure(sd->slots[i], d->cfg, d->log);
	for (size_t f = 0; f < sd_nfeatures; f++)
		if (sd_features[f]->configure)
			sd_features[f]->configure(d);
}

/* EXECUTE is made when missing (the sandboxes go there, and its free
 * space is the slots' disk), as a fresh personal pool has none. */
static void make_execute(ks_daemon *d)
{
	char *dir = ks_config_get(d->cfg, "EXECUTE", NULL);
	struct stat st;
	if (dir && stat(dir, &st) != 0 && errno == ENOENT) {
		if (mkdir(dir, 0755) == 0)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "made the EXECUTE directory %s", dir);
		else
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "cannot make the EXECUTE directory %s: %s",
				      dir, strerror(errno));
	}
	free(dir);
}

bool sd_startd_alone(ks_daemon *d)
{
	char *named = ks_config_get(d->cfg, "STARTD_NAME", NULL);
	bool alone = !d->local_name && (!named || !*named);
	free(named);
	return alone;
}

/* A startd that died without withdrawing its ads (kill -9) left them in
 * the collector, claimed dynamic slots among them, until they expire:
 * the negotiator would count them toward their users' shares.  At start
 * the ads of this startd's name from another address go. */
static void forget_earlier_life(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	/* several startds on one host (named ones) would take each
	 * other's ads for old ones */
	if (!sd_startd_alone(d))
		return;
	struct classad_buf req = {0};
	classad_buf_add(&req, "MyAddress =!= ", 14);
	classad_quote_string_buf(&req, d->sinful, strlen(d->sinful));
	classad_buf_add(&req, " && Machine == ", 15);
	classad_quote_string_buf(&req, sd->hostname, strlen(sd->hostname));
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	classad_insert_text(q, "Requirements", req.data, NULL);
	free(req.data);
	/* the collector may not be up yet (a pool starting): nothing lost */
	ks_daemon_send(d, KS_INVALIDATE_STARTD_ADS, &q, 1);
	classad_free(q);
}

/* One startd per EXECUTE: its sandboxes are the startd's alone (start()
 * says when EXECUTE is unset). */
static int lock_execute(ks_daemon *d, struct ks_err *err)
{
	char *dir = ks_config_get(d->cfg, "EXECUTE", NULL);
	int rc = dir && *dir ? ks_daemon_lock(dir, true,
					      "the execute directory", err)
			     : 0;
	free(dir);
	return rc;
}

static int start(ks_daemon *d, struct ks_err *err)
{
	struct startd *sd = d->ctx;
	sd->hostname = full_hostname();
	/* one of several startds on the host names its slots after itself
	 * (slot1@NAME@host), as HTCondor's do, or they would be taken for
	 * each other's */
	sd->slot_host = ks_xstrdup(sd_startd_alone(d) || !d->name
					   ? sd->hostname
					   : d->name);
	sd_platform_read(&sd->platform);
	make_execute(d);
	/* before the disk is measured, and before any ad is sent: an
	 * earlier life's jobs must not run on beside the slots offered */
	sd_leftovers_end(d);
	if (sd_machine_detect(d->cfg, &sd->machine, err))
		return err->code ? err->code : KS_EINVAL;
	struct sd_slot_spec *specs = NULL;
	size_t n = 0;
	for (size_t i = 0; i < sd->machine.nwarnings; i++)
		ks_log_printf(d->log, KS_D_ALWAYS, "%s",
			      sd->machine.warnings[i]);
	if (sd_layout_build(d->cfg, &sd->machine, &specs, &n, err))
		return err->code ? err->code : KS_EINVAL;
	sd->slots = ks_xcalloc(n ? n : 1, sizeof(*sd->slots));
	for (size_t i = 0; i < n; i++)
		sd->slots[i] = ks_xcalloc(1, sizeof(**sd->slots));
	sd->nslots = n;
	int64_t now = sd_now();
	for (size_t i = 0; i < n; i++) {
		struct sd_slot *s = sd->slots[i];
		s->spec = specs[i];
		s->id = specs[i].id;
		s->type = specs[i].type;
		char buf[400];
		s->short_name = ks_xstrdup(specs[i].name);
		snprintf(buf, sizeof(buf), "%s@%s", specs[i].name,
			 sd->slot_host);
		s->name = ks_xstrdup(buf);
		/* every slot begins in Owner, as the manual says */
		s->st = (struct sd_slot_state){.state = SD_OWNER,
					       .activity = SD_IDLE};
		s->entered_state = s->entered_activity = now;
		if (s->spec.partitionable)
			sd_dslot_init(s);
		sd_claim_new_id(d, s);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: %s slot of type %d: %s", s->short_name,
			      specs[i].partitionable ? "partitionable"
						     : "static",
			      s->type, sd_layout_describe(&specs[i]));
	}
	free(specs); /* each spec now belongs to its slot */
	sd_leftovers_claim_ids(d);
	configure_slots(d);
	sd->cron = sd_cron_new(d->loop, d->log, d->cfg, "STARTD_CRON", on_cron,
			       d);
	sd_cron_set_context(sd->cron, cron_context, d);
	sd->bench = sd_cron_new(d->loop, d->log, d->cfg, "BENCHMARKS",
				sd_benchmarks_output, d);
	sd_cron_set_context(sd->bench, cron_context, d);
	forget_earlier_life(d);
	sd_engine_start(d);
	return 0;
}

static void reconfig(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	configure_slots(d);
	sd_cron_reconfig(sd->cron, d->cfg);
	sd_cron_reconfig(sd->bench, d->cfg);
	sd_reevaluate(d, false);
}

/* The cron jobs go first (they are the startd's children).  A fast
 * shutdown kills running jobs and leaves every job's end on disk, as a
 * killed startd would, for the next startd to give to its claimer (a job
 * that ended as the shutdown began is then never run again); a graceful
 * one retires them (they keep
 * their MaxJobRetirementTime, then get their soft kill) and ends idle
 * claims; a peaceful one lets them run to the end (the claim's timers).
 * Once the starters have ended the daemon withdraws its ads and exits
 * (sd_startd_maybe_exit()). */
static void shutdown_startd(ks_daemon *d, bool fast)
{
	struct startd *sd = d->ctx;
	sd_cron_free(sd->cron);
	sd->cron = NULL;
	sd_cron_free(sd->bench);
	sd->bench = NULL;
	sd->benchmarking = false;
	for (size_t f = 0; f < sd_nfeatures; f++)
		if (sd_features[f]->shutdown)
			sd_features[f]->shutdown(d);
	sd->keep_ends = fast;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (fast) {
			if (s->st.state == SD_BACKFILL)
				sd_event(d, s, SD_E_SHUTDOWN);
			if (s->claim.starter)
				sd_event(d, s, SD_E_VACATE_FAST);
			continue;
		}
		if (s->st.state == SD_CLAIMED &&
		    s->st.activity == SD_SUSPENDED && !s->st.retiring) {
			/* it stays suspended; its retirement (which time
			 * suspended does not use up) has begun */
			s->st.retiring = true;
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: retiring while suspended: the "
				      "startd is shutting down",
				      s->short_name);
			continue;
		}
		sd_event(d, s, SD_E_SHUTDOWN);
	}
	sd_reevaluate(d, false);
	sd_startd_maybe_exit(d);
}

void sd_startd_maybe_exit(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	if (!d->shutting_down)
		return;
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->claim.starter)
			return;
	if (sd->backfill.pid > 0)
		return;
	ks_daemon_exit(d);
}

int main(int argc, char **argv)
{
	static const struct ks_daemon_ops ops = {
		.lock = lock_execute,
		.start = start,
		.reconfig = reconfig,
		.shutdown = shutdown_startd,
		.make_ads = make_ads,
		.make_changed_ads = make_changed_ads,
		.update_code = KS_UPDATE_STARTD_AD,
		.invalidate_code = KS_INVALIDATE_STARTD_ADS,
		.paired_ads = true,
	};
	struct startd sd = {0};
	int rc = ks_daemon_main(argc, argv, "STARTD", &ops, sd_claim_commands,
				sd_claim_ncommands, &sd);
	sd_cron_free(sd.cron);
	sd_cron_free(sd.bench);
	free(sd.drain.reason);
	classad_free(sd.extras);
	classad_expr_free(sd.drain.start);
	for (size_t i = 0; i < sd.nslots; i++) {
		sd_slot_clear(sd.slots[i]);
		free(sd.slots[i]);
	}
	free(sd.slots);
	free(sd.hostname);
	free(sd.slot_host);
	sd_accounts_free(&sd.accounts);
	sd_orphans_free(&sd);
	sd_machine_clear(&sd.machine);
	return rc;
}
