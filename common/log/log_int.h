/*
 * log_int.h: the parts of the daemon log that read text (debug flags,
 * sizes, names), shared by log.c and the unit tests.
 */
#ifndef KS_LOG_INT_H
#define KS_LOG_INT_H

#include <stdbool.h>
#include <stddef.h>

/* Header options, as HTCondor's D_PID, D_FDS, D_CAT, D_TIMESTAMP and
 * D_SUB_SECOND change the start of each line. */
enum {
	KL_H_PID = 1u << 0,
	KL_H_FDS = 1u << 1,
	KL_H_CAT = 1u << 2,
	KL_H_TIMESTAMP = 1u << 3,
	KL_H_SUBSEC = 1u << 4,
};

/* What one output accepts: categories at verbosity 1 (basic) and 2
 * (verbose, always a subset of basic), and its header options. */
struct kl_flags {
	unsigned basic;
	unsigned verbose;
	unsigned hdr;
};

/* One category: its configuration name and its KS_D_* bit. */
struct kl_cat {
	const char *name;
	unsigned bit;
};
extern const struct kl_cat kl_cats[];
extern const size_t kl_ncats;

/* Every category bit, for D_ALL and D_ANY. */
#define KL_ALL_CATS ((1u << 17) - 1)

/* The configuration name of one category bit ("D_COMMAND"), or NULL. */
const char *kl_cat_name(unsigned bit);

/* Merges a <SUBSYS>_DEBUG value into f, as HTCondor does: names
 * separated by spaces, commas or bars, each with an optional :N
 * verbosity (one digit) and -/+ prefix; unknown names are ignored. */
void kl_parse_debug(const char *text, struct kl_flags *f);

/* Reads a MAX_<SUBSYS>_LOG value: an integer and an optional unit (b,
 * Kb, Mb, Gb, Tb; or Sec, Min, Hr, Day, Wk for a time).  Returns false
 * if the text is not of that form or is negative. */
bool kl_parse_size(const char *text, long long *value, bool *is_time);

/* HTCondor's default log name for a subsystem: SHARED_PORT gives
 * "SharedPort" (written to out, at most size bytes with the NUL). */
void kl_camel_name(const char *subsys, char *out, size_t size);

#endif
