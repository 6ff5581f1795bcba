/*
 * ks_daemon_name.h: the Name a daemon gives itself in its ad, by
 * HTCondor's rule, so that daemons and the tools that look for them
 * (condor_q's "-- Schedd: NAME", condor_rm without -name) agree.
 */
#ifndef KS_DAEMON_NAME_H
#define KS_DAEMON_NAME_H

#include "config.h"

/* The Name of this host's daemon of subsys ("SCHEDD", "MASTER", ...):
 * <SUBSYS>_NAME, else local_name (the daemon's -local-name, may be
 * NULL), "x" becoming "x@host" unless it holds an '@' or is the host's
 * name; with neither, the host's name, except that a master, schedd or
 * negotiator run by an ordinary user (neither root nor the condor
 * account: CONDOR_IDS or the account named condor) is "user@host", as
 * in HTCondor, where a personal pool's schedd is "you@host".  Returns a
 * string the caller frees. */
char *ks_daemon_name(const ks_config *cfg, const char *subsys,
		     const char *local_name);

#endif
