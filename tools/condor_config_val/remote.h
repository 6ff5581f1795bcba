/* remote.h: condor_config_val's questions to a running daemon. */
#ifndef CV_REMOTE_H
#define CV_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

struct cv_remote {
	const char *address; /* -address: a sinful string */
	const char *name;    /* -name: a daemon's Name in the collector */
	const char *pool;    /* -pool */
	const char *daemon;  /* -master, -collector...: the subsystem */
};

/* Asks the daemon r names for each of names and prints the values as
 * condor_config_val prints local ones.  Returns the exit status. */
int cv_remote(const ks_config *cfg, const struct cv_remote *r,
	      const char *const *names, size_t nnames, bool verbose);

enum cv_set_mode { CV_SET, CV_UNSET, CV_RSET, CV_RUNSET };

/* -set "NAME = value", -unset NAME, -rset, -runset: asks the daemon r
 * names to change its configuration, and says what came of it as
 * HTCondor's tool does.  Returns the exit status. */
int cv_remote_set(const ks_config *cfg, const struct cv_remote *r,
		  const char *arg, enum cv_set_mode mode);

#endif
