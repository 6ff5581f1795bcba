/*
 * cron_int.h: what the files of the startd cron module (sd_cron.h) share.
 *
 * cron.c runs the jobs' lives (scheduling, timers, kills, reconfig),
 * cron_params.c reads a job's knobs, cron_args.c splits ARGS and ENV,
 * cron_proc.c forks and reads the children, cron_output.c turns their
 * output into named ads, cron_publish.c merges those into slot ads.
 */
#ifndef SD_CRON_INT_H
#define SD_CRON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sd_cron.h"

enum cron_mode {
	CRON_PERIODIC,
	CRON_WAIT_FOR_EXIT,
	CRON_ONE_SHOT,
	CRON_ON_DEMAND,
};

enum cron_state {
	CRON_IDLE,
	CRON_RUNNING,
	CRON_READY,     /* due, but waiting for load or its CONDITION */
	CRON_TERM_SENT, /* SIGTERM sent, SIGKILL to follow */
	CRON_KILL_SENT,
};

enum cron_autopub { CRON_AP_NEVER, CRON_AP_ALWAYS, CRON_AP_IF_CHANGED };

/* The limits on what a job may write. */
enum {
	CRON_MAX_LINE = 64 * 1024,      /* HTCondor's stdout line buffer */
	CRON_MAX_AD_TEXT = 1024 * 1024, /* one ad's lines, in all */
	CRON_MAX_ERR_LINE = 1024,       /* HTCondor's stderr line buffer */
	CRON_MAX_KEPT = 16 * 1024,      /* text kept for LOG_NON_ZERO_EXIT */
};

struct cron_metric {
	bool peak;  /* PEAK (keep the largest), else SUM */
	char *attr; /* Uptime<Name>PeakUsage or Uptime<Name>Seconds */
};

/* One job's settings, read afresh at each reconfig. */
struct cron_params {
	char *name;
	enum cron_mode mode;
	char *executable;
	char **argv;       /* argv[0] is the name; NULL-terminated */
	char **env;        /* "NAME=value" overrides; NULL-terminated */
	char *cwd;         /* NULL: the daemon's */
	char *prefix;      /* "" when unset */
	int64_t period_s;  /* 0 for OneShot and OnDemand */
	double job_load;
	bool kill;
	bool reconfig;
	bool reconfig_rerun;
	int *slots;        /* empty: every slot */
	size_t nslots;
	classad_expr *condition; /* NULL: always */
	struct cron_metric *metrics;
	size_t nmetrics;
};

/* Splits a byte stream into lines; a line over max is cut off there and
 * the rest of it dropped (overlong counts those). */
struct cron_lines {
	struct classad_buf t;
	size_t max;
	bool overlong;
};

struct cron_job {
	sd_cron *mgr;
	struct cron_params *p;
	enum cron_state state;
	bool marked;   /* still listed, during a reconfig */
	pid_t pid;     /* 0 when none */
	int out_fd;    /* -1 when closed */
	int err_fd;
	struct cron_lines out, err;
	classad *pending;      /* the ad being read */
	size_t block_lines;    /* lines of it, good or bad */
	size_t block_bytes;
	bool block_full;       /* over CRON_MAX_AD_TEXT, logged */
	char *sep;             /* what followed the last '-' (NULL: nothing) */
	struct classad_buf kept_out;  /* raw lines of the block, bounded */
	struct classad_buf kept_err;
	size_t err_lines;
	unsigned runs, fails, outputs;
	int64_t last_start_ms, last_exit_ms;
	int64_t old_period_s;  /* before the last reconfig */
	double run_load;       /* job_load while running, else 0 */
	uint64_t run_timer, kill_timer;
	struct cron_job *next;
};

/* An ad a job published (HTCondor's named ads): the untagged one is
 * registered when the job is created, tagged ones when first seen. */
struct cron_ad {
	char *name;  /* "job" or "job.tag" */
	struct cron_job *job;
	classad *ad; /* NULL until published */
	struct cron_ad *next;
};

struct sd_cron {
	ks_loop *loop;
	ks_log *log;
	char *prefix; /* "STARTD_CRON" */
	char *mgr;    /* "STARTD": the prefix without "_CRON" */
	double max_load;
	double cur_load;
	enum cron_autopub autopub;
	bool log_nonzero;
	char *config_val;   /* <P>_CONFIG_VAL */
	bool shutting_down;
	struct cron_job *jobs;
	struct cron_ad *ads;
	uint64_t sched_timer;
	uint64_t idle_timer;
	sd_cron_update_fn fn;
	void *arg;
	sd_cron_context_fn ctx_fn;
	void *ctx_arg;
	sd_cron_idle_fn idle_fn;
	void *idle_arg;
};

/* ---- cron_params.c ---------------------------------------------------- */

/* Reads job name's knobs; NULL (logged) if the job cannot run as set.
 * Free with sd_cron_params_free(). */
struct cron_params *sd_cron_params_read(const sd_cron *c,
					const ks_config *cfg,
					const char *name);
void sd_cron_params_free(struct cron_params *p);
const char *sd_cron_mode_name(enum cron_mode m);
bool sd_cron_in_slots(const struct cron_params *p, int slot);
/* <P>_MAX_JOB_LOAD. */
double sd_cron_max_load(const sd_cron *c, const ks_config *cfg);

/* ---- cron_args.c ------------------------------------------------------ */

/* Appends "NAME=value" entries of ENV (V1 or V2 syntax), later ones of
 * the same name replacing earlier ones; 0 or -1 as above. */
int sd_cron_split_env(const char *s, char ***v, char *err, size_t errlen);
/* Sets NAME=value in vector *v, replacing an entry of that name. */
void sd_cron_env_set(char ***v, const char *name, const char *value);
size_t sd_cron_vec_len(char *const *v);

/* ---- cron_proc.c ------------------------------------------------------ */

/* Forks and execs the job with its pipes watched and its end watched;
 * returns 0, or -1 (logged) if it could not be started. */
int sd_cron_spawn(struct cron_job *j);
/* Sends sig to the job's process group. */
void sd_cron_signal(struct cron_job *j, int sig);
/* Reads what is left in the pipes without blocking, then closes them. */
void sd_cron_close_pipes(struct cron_job *j);
/* Closes the pipes unread (the job is being deleted). */
void sd_cron_drop_pipes(struct cron_job *j);
/* Stops watching the job's process: SIGKILLs it, and reaps it through the
 * loop (wait false) or here and now (wait true). */
void sd_cron_abandon(struct cron_job *j, bool wait);
/* Called by cron_proc.c when the process has ended (status as waitpid). */
void sd_cron_job_ended(struct cron_job *j, int status);

/* ---- cron_output.c ---------------------------------------------------- */

/* Appends n bytes of s to t, as much of them as keeps t within max bytes;
 * the rest is dropped. */
void sd_cron_text_add(struct classad_buf *t, const char *s, size_t n,
		      size_t max);
void sd_cron_text_free(struct classad_buf *t);
/* Takes in bytes the job wrote to stdout (or stderr). */
void sd_cron_out_bytes(struct cron_job *j, const char *buf, size_t n);
void sd_cron_err_bytes(struct cron_job *j, const char *buf, size_t n);
/* Takes an unterminated last line as a line (the pipe has closed). */
void sd_cron_out_flush(struct cron_job *j);
/* Ends the ad being read and publishes it (the job exited); logs its
 * raw lines first if dump, naming the process pid. */
void sd_cron_out_end(struct cron_job *j, bool dump, pid_t pid);
/* Forgets a previous run's unfinished output. */
void sd_cron_out_reset(struct cron_job *j);
void sd_cron_out_free(struct cron_job *j);
/* Registers the job's untagged ad (empty). */
void sd_cron_ads_add_job(sd_cron *c, struct cron_job *j);
/* Drops every ad of the job. */
void sd_cron_ads_drop_job(sd_cron *c, const struct cron_job *j);

/* ---- cron_publish.c --------------------------------------------------- */

/* Puts a new ad of job j under its name (monitors: aggregated into the
 * old one); returns true if it differs from what was there, ignoring
 * <prefix>LastUpdate. */
bool sd_cron_store_ad(sd_cron *c, struct cron_job *j, const char *name,
		      classad *ad);
const struct cron_metric *sd_cron_metric(const struct cron_params *p,
					 const char *attr);

#endif
