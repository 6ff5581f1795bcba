/*
 * ks_version.h: the version and platform strings kestrel gives as its
 * own, in the "$CondorVersion: ... $" / "$CondorPlatform: ... $" form
 * HTCondor's tools print for -version and its daemons advertise as
 * CondorVersion and CondorPlatform.  Scripts and tools (condor_status,
 * condor_q's schedd header, version checks) pick the version number out
 * of the first, so it keeps HTCondor's shape: "$CondorVersion: X.Y.Z
 * DATE ... $".  Header only: string literals, nothing to free.
 */
#ifndef KS_VERSION_H
#define KS_VERSION_H

/* The HTCondor release whose behaviour kestrel follows, the date of
 * this kestrel, and its name where HTCondor puts its build id. */
#define KS_CONDOR_VERSION "$CondorVersion: 25.14.0 2026-11-01 kestrel $"

/* Architecture and system as HTCondor's Debian 12 packages name theirs. */
#define KS_CONDOR_PLATFORM "$CondorPlatform: x86_64_Debian12 $"

/* Both, each on its own line, as every tool's -version prints them. */
#define KS_CONDOR_VERSION_LINES KS_CONDOR_VERSION "\n" KS_CONDOR_PLATFORM "\n"

#endif
