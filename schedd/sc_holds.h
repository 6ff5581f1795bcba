/*
 * sc_holds.h: how the schedd counts a job's holds, as HTCondor's does:
 * every hold (the user's, a policy's, one asked at submission; not the
 * hold for spooling input) adds one to NumHolds and to the hold code's
 * entry of NumHoldsByReason, a nested ad keyed by the code's name
 * (`[ UserRequest = 2; JobPolicy = 1 ]`).
 */
#ifndef SC_HOLDS_H
#define SC_HOLDS_H

#include "classad.h"

/* HTCondor's name of hold code code ("UserRequest" for 1), or
 * "Unspecified" for a code it does not know.  Static. */
const char *sc_hold_code_name(int code);

/* Whether a hold of code counts (all but SpoolingInput, 16). */
int sc_hold_counts(int code);

/* The text of NumHoldsByReason once ad (looked up through its chain)
 * has one more hold of code.  New string (free()). */
char *sc_holds_by_reason(const classad *ad, int code);

/* Counts one hold of code in ad itself (NumHolds, NumHoldsByReason):
 * what a job submitted on hold starts with. */
void sc_holds_count_in(classad *ad, int code);

#endif
