/*
 * knobs.h: the table of configuration knobs and their defaults.
 *
 * Every knob kestrel knows, with HTCondor 25's type and default (a raw
 * value: it may refer to other macros).  An empty default means the knob
 * has none.  desc is a one-line description; every knob the code reads
 * has one (tests/config/knobs_used.py checks it).
 */
#ifndef KS_KNOBS_H
#define KS_KNOBS_H

#include <stddef.h>

enum ks_knob_type {
	KS_KNOB_STRING,
	KS_KNOB_INT,
	KS_KNOB_BOOL,
	KS_KNOB_DOUBLE,
	KS_KNOB_LONG,
	KS_KNOB_PATH,
};

struct ks_knob {
	const char *name;
	enum ks_knob_type type;
	const char *def;
	const char *desc; /* NULL for knobs kestrel does not read yet */
};

/* Sorted by name, ignoring case. */
extern const struct ks_knob ks_knobs[];
extern const size_t ks_knobs_count;

/* Knobs whose default lives in the code that reads them (HTCondor's
 * too); not seen by lookups. */
extern const struct ks_knob ks_code_knobs[];
extern const size_t ks_code_knobs_count;

/* The knob named by len bytes of name (case ignored), or NULL. */
const struct ks_knob *ks_knob_find(const char *name, size_t len);

#endif
