/*
 * sr_jobenv.h: the job's whole environment.
 *
 * As HTCondor's starter builds it: nothing of the starter's own
 * environment unless JOB_INHERITS_STARTER_ENVIRONMENT says so, then
 * STARTER_JOB_ENVIRONMENT, then the job's Environment (or Env), then what
 * the starter publishes, which wins over both:
 *
 *   BATCH_SYSTEM=HTCondor, _CONDOR_JOB_IWD (the job's directory),
 *   _CONDOR_SCRATCH_DIR, TMPDIR, TMP, TEMP, APPTAINER_CACHEDIR and
 *   SINGULARITY_CACHEDIR (the sandbox), _CONDOR_SLOT (-slot),
 *   _CONDOR_JOB_AD (the ad's copy in the sandbox), CONDOR_STARTER_PID,
 *   _CONDOR_BIN (BIN), X509_USER_PROXY (from X509UserProxy), and HOME
 *   (the job account's home, unless STARTER_SETS_HOME_ENV is false).
 *
 * Finally "#CoNdOrScRaTcHdIr#" in any value becomes the sandbox's path.
 */
#ifndef SR_JOBENV_H
#define SR_JOBENV_H

#include <sys/types.h>

#include "config.h"
#include "ks_err.h"
#include "ks_jobad.h"
#include "ks_log.h"

struct sr_jobenv_in {
	const ks_config *cfg;
	const struct ks_jobad *job;
	const struct ks_jobad_user *user;
	const char *sandbox;
	const char *cwd;       /* where the job runs */
	const char *slot;      /* NULL if not given */
	const char *job_ad;    /* the sandbox's copy, NULL if none */
	const classad *machine;   /* the slot's ad, NULL if not given */
	const char *machine_ad;   /* its copy in the sandbox, or NULL */
	ks_log *log;              /* for what cannot be set; NULL allowed */
	pid_t starter_pid;
};

/* Fills out (zeroed first; free with ks_jobad_env_free()).  Returns 0, or
 * KS_EINVAL with err filled when STARTER_JOB_ENVIRONMENT does not parse. */
int sr_jobenv_build(const struct sr_jobenv_in *in, struct ks_jobad_env *out,
		    struct ks_err *err);

#endif
