/*
 * startd.c: condor_startd: divides the machine into slots, advertises
 * them, and moves each through the states and activities its policy
 * expressions call for (docs/startd.md).
 */
#include <errno.h>
#include <netdb.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_daemon.h"
#include "ks_mem.h"
#include "sd_ad.h"
#include "sd_cron.h"
#include "sd_layout.h"
#include "sd_slot.h"
#include "sd_startd.h"
#include "sd_state.h"
#include "sd_sysinfo.h"

/* A slot whose policy keeps calling for transitions is stopped after
 * this many in one round: a policy that loops (IS_OWNER and START
 * disagreeing, say) shows in the log instead of hanging the startd. */
#define MAX_STEPS 8

int64_t sd_now(void)
{
	return (int64_t)time(NULL);
}

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

static void host_facts(ks_daemon *d, struct sd_host *h)
{
	struct startd *sd = d->ctx;
	int64_t now = sd_now();
	if (sd->load_read_at != now) {
		sd->load = sd_load_average();
		sd->load_read_at = now;
	}
	*h = (struct sd_host){.cfg = d->cfg,
			      .hostname = sd->hostname,
			      .sinful = d->sinful,
			      .now = now,
			      .start_time = d->start_time,
			      .load = sd->load,
			      .machine = &sd->machine,
			      .platform = &sd->platform,
			      .nslots = sd->nslots,
			      .bench = sd->bench,
			      .last_benchmark = sd->last_benchmark,
			      .cron = sd->cron,
			      .drain = &sd->drain,
			      .extras = sd->extras,
			      .endless_retirement = d->shutting_down &&
						    d->peaceful};
	sd_idle_times(&sd->idle, h->now, d->start_time, &h->idle);
	sd_jobload_measure(d);
	for (size_t i = 0; i < sd->nslots; i++)
		h->condor_load += sd->slots[i]->claim.load;
}

struct ask_ctx {
	const struct sd_slot *slot;
	const classad *ad;
};

static enum sd_truth ask(void *arg, enum sd_expr x)
{
	struct ask_ctx *c = arg;
	return sd_slot_eval(c->slot, c->ad, x);
}

/* The BENCHMARKS jobs have all ended: LastBenchmark is now if any of
 * them ran (HTCondor sets it when they have exited, whatever their
 * status), and every slot still Benchmarking goes back to Idle
 * (transition 4); all the ads change (LastBenchmark). */
static void benchmarks_over(void *arg)
{
	ks_daemon *d = arg;
	struct startd *sd = d->ctx;
	sd->benchmarking = false;
	if (sd_cron_runs(sd->bench) > sd->bench_runs)
		sd->last_benchmark = sd_now();
	else
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "benchmarks: none could be run; LastBenchmark "
			      "stays %lld",
			      (long long)sd->last_benchmark);
	ks_log_printf(d->log, KS_D_ALWAYS, "State change: benchmarks completed");
	for (size_t i = 0; i < sd->nslots; i++)
		sd_event(d, sd->slots[i], SD_E_BENCH_DONE);
	sd_all_changed(d);
	sd_reevaluate(d, true);
}

/* RUNBENCHMARKS took slot s to Benchmarking (transition 3): the
 * BENCHMARKS jobs (OnDemand) run, one after another at their default
 * load of 1.0, and the slot stays there until they have all ended; a
 * slot that asks while they run waits for the same run.  With none to
 * run the slot goes back to Idle at once, as in HTCondor. */
static void benchmark(ks_daemon *d, struct sd_slot *s)
{
	struct startd *sd = d->ctx;
	if (sd->benchmarking)
		return;
	ks_log_printf(d->log, KS_D_ALWAYS, "State change: RunBenchmarks is TRUE");
	sd->bench_runs = sd_cron_runs(sd->bench);
	int n = sd->bench ? sd_cron_run_on_demand(sd->bench, NULL) : 0;
	if (n <= 0) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "benchmarks: BENCHMARKS_JOBLIST has none to run");
		sd_event(d, s, SD_E_BENCH_DONE);
		return;
	}
	sd->benchmarking = true;
	sd_cron_when_idle(sd->bench, benchmarks_over, d);
}

/* New benchmark output: the slots' ads change (Mips, KFlops...). */
static void on_bench(void *arg, bool update_collector)
{
	ks_daemon *d = arg;
	sd_all_changed(d);
	if (update_collector)
		sd_reevaluate(d, true);
}

void sd_transition(ks_daemon *d, struct sd_slot *s, const struct sd_step *st)
{
	bool ask_hold = sd_hold_asked(&s->st, st);
	sd_drain_note(d, s, st);
	sd_slot_apply(s, st, sd_now(), d->log);
	sd_slot_changed(d, s);
	/* before the kill order, which the hold goes with */
	if (ask_hold)
		sd_claim_hold(d, s);
	if (st->action == SD_A_BENCHMARK)
		benchmark(d, s);
	else if (st->action == SD_A_BACKFILL_START ||
		 st->action == SD_A_BACKFILL_KILL)
		sd_backfill_action(d, s, st->action);
	else if (st->action != SD_A_NONE)
		sd_claim_action(d, s, st->action);
	/* a dynamic slot lives as long as its claim: back in Owner, it goes
	 * (at the next round, not while the slots are being walked) */
	if (s->parent && s->st.state == SD_OWNER)
		s->dead = true;
}

bool sd_event(ks_daemon *d, struct sd_slot *s, enum sd_event ev)
{
	struct sd_step st;
	if (!sd_event_step(&s->st, ev, &st))
		return false;
	sd_transition(d, s, &st);
	return true;
}

/* Rounds of policy for every slot (all) or for those that changed
 * since their policy was last evaluated: each makes the transitions
 * its expressions call for, seeing its own ad as it is after each one.
 * (HTCondor's startd too evaluates a slot when it changes, and every slot
 * on its polling timer.) */
static void evaluate(ks_daemon *d, bool all)
{
	struct startd *sd = d->ctx;
	struct sd_host h;
	if (!all)
		all = sd_slot_ads_linked(d->cfg);
	for (int round = 0; round < MAX_STEPS; round++) {
		bool any = sd_dslot_sweep(d);
		any |= sd_drain_round(d);
		size_t n = sd->nslots ? sd->nslots : 1;
		classad **ads = ks_xmalloc(n * sizeof(*ads));
		bool *want = ks_xcalloc(n, sizeof(*want));
		for (size_t i = 0; i < sd->nslots; i++)
			want[i] = all || sd->slots[i]->unevaluated;
		host_facts(d, &h); /* a transition may have changed them */
		sd_slot_ads(&h, sd->slots, ads, want);
		for (size_t i = 0; i < sd->nslots; i++) {
			struct sd_slot *s = sd->slots[i];
			if (!ads[i])
				continue;
			/* a transition below marks it again */
			s->unevaluated = false;
			/* a latch that changed is in the ad of the next round */
			if (sd_latches_update(&s->latches, ads[i], h.now)) {
				sd_slot_changed(d, s);
				any = true;
			}
			struct ask_ctx c = {s, ads[i]};
			struct sd_timers t = {0};
			sd_claim_timers(d, s, ads[i], &t);
			struct sd_step step;
			if (!sd_policy_step(&s->st, &t, ask, &c, &step))
				continue;
			sd_transition(d, s, &step);
			any = true;
		}
		for (size_t i = 0; i < sd->nslots; i++)
			classad_free(ads[i]);
		free(ads);
		free(want);
		if (!any)
			break;
		if (round == MAX_STEPS - 1)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "the policy keeps changing the slots' "
				      "states; stopping for this round");
	}
}

static void schedule_poll(ks_daemon *d);

static bool any_changed(const struct startd *sd)
{
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->dirty)
			return true;
	return false;
}

void sd_reevaluate(ks_daemon *d, bool force)
{
	struct startd *sd = d->ctx;
	evaluate(d, true);
	if (force) {
		ks_daemon_update_collector(d);
		for (size_t i = 0; i < sd->nslots; i++)
			sd->slots[i]->dirty = false;
	} else if (any_changed(sd))
		ks_daemon_update_changed(d);
	schedule_poll(d);
}

void sd_reevaluate_changed(ks_daemon *d)
{
	evaluate(d, false);
	if (any_changed(d->ctx))
		ks_daemon_update_changed(d);
	schedule_poll(d);
}

void sd_slot_changed(ks_daemon *d, struct sd_slot *s)
{
	struct startd *sd = d->ctx;
	s->dirty = s->unevaluated = true;
	for (size_t i = 0; s->parent && i < sd->nslots; i++)
		if (sd->slots[i]->spec.partitionable &&
		    sd->slots[i]->id == s->parent)
			sd->slots[i]->dirty = sd->slots[i]->unevaluated = true;
}

void sd_all_changed(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++)
		sd->slots[i]->dirty = sd->slots[i]->unevaluated = true;
}

/* The ads of the slots where want[i] (all of them without want), cron
 * output left out with no_cron; the array is new, its ads new or NULL. */
static classad **slot_ads(ks_daemon *d, const bool *want, bool no_cron)
{
	struct startd *sd = d->ctx;
	struct sd_host h;
	host_facts(d, &h);
	if (no_cron)
		h.cron = NULL;
	classad **ads = ks_xmalloc((sd->nslots ? sd->nslots : 1) *
				   sizeof(*ads));
	sd_slot_ads(&h, sd->slots, ads, want);
	return ads;
}

/* One slot's ad (new), made alone when no cross-slot attribute needs
 * the others. */
static classad *one_slot_ad(ks_daemon *d, const struct sd_slot *s,
			    bool no_cron)
{
	struct startd *sd = d->ctx;
	bool *want = ks_xcalloc(sd->nslots ? sd->nslots : 1, sizeof(*want));
	size_t at = 0;
	while (at < sd->nslots && sd->slots[at] != s)
		at++;
	if (at == sd->nslots) {
		free(want);
		return NULL;
	}
	want[at] = true;
	classad **ads = slot_ads(d, want, no_cron);
	classad *mine = ads[at];
	free(ads);
	free(want);
	return mine;
}

classad *sd_slot_ad_now(ks_daemon *d, const struct sd_slot *s)
{
	return one_slot_ad(d, s, false);
}

static void on_poll(void *arg)
{
	ks_daemon *d = arg;
	sd_claim_check_leases(d);
	sd_drain_stats(d);
	sd_reevaluate(d, false);
	sd_claim_report_usage(d);
}

/* POLLING_INTERVAL while any slot is claimed (a job is there to
 * protect the owner from), else UPDATE_INTERVAL. */
static void schedule_poll(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	bool claimed = false;
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->st.state == SD_CLAIMED ||
		    sd->slots[i]->st.state == SD_PREEMPTING)
			claimed = true;
	int64_t every = ks_daemon_int(d, claimed ? "POLLING_INTERVAL"
						 : "UPDATE_INTERVAL",
				      claimed ? 5 : 300);
	if (every < 1)
		every = 1;
	if (sd->poll_timer && every == sd->poll_every)
		return;
	ks_loop_cancel(d->loop, sd->poll_timer);
	sd->poll_every = every;
	sd->poll_timer = ks_loop_timer(d->loop, every * 1000, every * 1000,
				       on_poll, d);
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
	return one_slot_ad(d, sd->slots[0], true);
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
	classad **pub = slot_ads(d, want, false);
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
	sd_backfill_configure(d);
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
				on_bench, d);
	sd_cron_set_context(sd->bench, cron_context, d);
	forget_earlier_life(d);
	evaluate(d, true);
	schedule_poll(d);
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
 * claims; a peaceful one lets them run to the end (sd_claim_timers()).
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
	sd_backfill_stop(d);
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
