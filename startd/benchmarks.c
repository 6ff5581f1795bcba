/*
 * benchmarks.c: RUNBENCHMARKS (transitions 3 and 4): the BENCHMARKS
 * cron jobs run on demand while the slots that asked wait in
 * Benchmarking; a feature of the policy engine (sd_engine.h).
 */
#include "ks_daemon.h"
#include "sd_cron.h"
#include "sd_engine.h"
#include "sd_startd.h"

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

void sd_benchmarks_output(void *arg, bool update_collector)
{
	ks_daemon *d = arg;
	sd_all_changed(d);
	if (update_collector)
		sd_reevaluate(d, true);
}

static void benchmarks_after_step(ks_daemon *d, struct sd_slot *s,
				  const struct sd_step *st,
				  const struct sd_slot_state *was)
{
	(void)was;
	if (st->action == SD_A_BENCHMARK)
		benchmark(d, s);
}

const struct sd_feature sd_benchmarks_feature = {
	.name = "benchmarks",
	.after_step = benchmarks_after_step,
};
