/*
 * compact.c: -compact, one row per machine.
 *
 * The slots of a machine sort together (the first sort key is
 * Machine:SlotTypeId), and each run of rows of one machine and slot type
 * folds into its first row, which then counts the slots, adds up free
 * cpus and memory, keeps the largest slot's memory and shows '*' where
 * the slots disagree about state or activity.  A partitionable slot
 * shows the consensus of its dynamic children (ChildState,
 * ChildActivity).  The rules, quirks included, are HTCondor's
 * (fold_slot_result() and reduce_slot_results() in status.cpp).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "status.h"

static bool st_col_ok(const struct st_entry *e, int ix)
{
	return ix >= 0 && (size_t)ix < e->row.n && e->row.valid[ix];
}

/* HTCondor's getNumber(): 0 unless the column is valid and a number. */
static double st_num(const struct st_entry *e, int ix)
{
	double d = 0;
	if (st_col_ok(e, ix))
		tf_value_real(&e->row.v[ix], &d);
	return d;
}

static long long st_inum(const struct st_entry *e, int ix, bool *ok)
{
	long long i = 0;
	bool got = st_col_ok(e, ix) && tf_value_int(&e->row.v[ix], &i);
	if (ok)
		*ok = got;
	return got ? i : 0;
}

/* The two letters of the ST column ("" when it is not valid). */
static void st_code(const struct st_entry *e, int ix, char code[3])
{
	code[0] = code[1] = code[2] = '\0';
	if (!st_col_ok(e, ix))
		return;
	const char *s = classad_value_str(&e->row.v[ix], NULL);
	if (s) {
		code[0] = s[0];
		if (s[0])
			code[1] = s[1];
	}
}

static void st_set_code(struct st_entry *e, int ix, const char code[3])
{
	classad_value_set_string(&e->row.v[ix], code, strlen(code));
}

/* The consensus of a list of child states or activities: the common
 * value, the "no consensus" value when they differ, or the winner
 * (Preempting, Vacating) when one child has it. */
static int st_consensus(const classad *ad, const char *attr, bool states)
{
	int none = states ? TF_NO_STATE : TF_NO_ACT;
	int thresh = states ? TF_STATE_THRESHOLD : TF_ACT_THRESHOLD;
	int winner = states ? TF_PREEMPTING : TF_VACATING;
	int cons = none;
	classad_value l = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, attr, NULL, &l);
	size_t n = classad_value_list_size(&l);
	for (size_t i = 0; i < n; i++) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_value_list_get(&l, i, NULL, &v);
		const char *s = classad_value_str(&v, NULL);
		int x = s ? (states ? (int)tf_state_of(s) : (int)tf_activity_of(s))
			  : -1;
		classad_value_clear(&v);
		if (x < none || x >= thresh || x == cons)
			continue;
		if (cons == none) {
			cons = x;
		} else if (x == winner) {
			cons = x;
			break;
		} else {
			cons = thresh;
		}
	}
	classad_value_clear(&l);
	return cons;
}

void st_compact_ingest(struct st_entry *e, const struct st_layout *lay)
{
	const classad *ad = e->ad;
	bool b = false;
	if (tf_ad_bool(ad, "BackfillSlot", &b) && b)
		e->flags |= ST_R_BACKFILL;
	bool pslot = false, dslot = false;
	if (tf_ad_bool(ad, "PartitionableSlot", &pslot) && pslot) {
		e->flags |= ST_R_PARTITIONABLE;
		double cpus;
		if (tf_ad_real(ad, "Cpus", &cpus) && cpus < 0.1)
			e->flags |= ST_R_EXHAUSTED;
	} else if (tf_ad_bool(ad, "DynamicSlot", &dslot) && dslot) {
		e->flags |= ST_R_DYNAMIC;
	}
	char *state = classad_eval_string_dup(ad, "State");
	enum tf_state st = state ? tf_state_of(state) : TF_NO_STATE;
	free(state);
	if (pslot && st == TF_CLAIMED)
		e->flags |= ST_R_AP_RESERVED;
	else if (st == TF_MATCHED || st == TF_CLAIMED || st == TF_PREEMPTING)
		e->flags |= ST_R_BUSY;
	else if (st == TF_DRAINED || st == TF_OWNER || st == TF_SHUTDOWN ||
		 st == TF_DELETE)
		e->flags |= ST_R_UNAVAIL;

	if (lay->ix_machineslot >= 0) {
		char *name = classad_eval_string_dup(ad, "Name");
		if (name) {
			char *at = strchr(name, '@');
			if (at)
				*at = '\0';
		}
		free(e->label);
		e->label = name;
	}

	if (!pslot || lay->ix_actcode < 0 || (size_t)lay->ix_actcode >= e->row.n)
		return;
	int cs = st_consensus(ad, "ChildState", true);
	int ca = st_consensus(ad, "ChildActivity", false);
	char mine[3], kids[3];
	st_code(e, lay->ix_actcode, mine);
	tf_state_code(kids, (enum tf_state)cs, (enum tf_activity)ca);
	char asc = mine[0], aac = mine[1], bsc = kids[0], bac = kids[1];
	if (asc == 'U' && aac == 'i' && (e->flags & ST_R_EXHAUSTED)) {
		/* an exhausted idle p-slot shows its children */
		asc = bsc;
		aac = bac;
	} else if (asc == 'D' && bsc == 'C') {
		asc = bsc; /* draining, with claimed children */
	}
	if (bsc == 'P')
		asc = bsc;
	if (bac == 'v')
		aac = bac;
	if (cs != TF_NO_STATE && asc != bsc)
		asc = '*';
	if (ca != TF_NO_ACT && aac != bac)
		aac = '*';
	if (mine[0] != asc || mine[1] != aac) {
		char code[3] = {asc, aac, '\0'};
		st_set_code(e, lay->ix_actcode, code);
	}
}

/* Folds bb (NULL: none) into aa. */
static void st_fold(struct st_entry *aa, struct st_entry *bb,
		    const struct st_layout *lay)
{
	if (aa->row.n == 0)
		return;
	if (!(aa->flags & ST_R_PARTITIONABLE) && !(aa->flags & ST_R_COOKED)) {
		/* a static slot: its memory is its largest slot, it is one
		 * slot, and a busy one has nothing free */
		if (lay->ix_freemem >= 0 && lay->ix_maxslotmem >= 0) {
			classad_value_set_real(&aa->row.v[lay->ix_maxslotmem],
					       st_num(aa, lay->ix_freemem));
			aa->row.valid[lay->ix_maxslotmem] = true;
		}
		if (aa->flags & ST_R_BUSY) {
			if (lay->ix_freecpus >= 0)
				classad_value_set_int(&aa->row.v[lay->ix_freecpus], 0);
			if (lay->ix_freemem >= 0)
				classad_value_set_real(&aa->row.v[lay->ix_freemem], 0.0);
		}
		if (lay->ix_slots >= 0) {
			classad_value_set_int(&aa->row.v[lay->ix_slots], 1);
			aa->row.valid[lay->ix_slots] = true;
		}
		aa->flags |= ST_R_COOKED;
	}
	if (!bb)
		return;

	bool part = (bb->flags & ST_R_PARTITIONABLE) != 0;
	double bmem = 0;
	if (lay->ix_maxslotmem >= 0) {
		double amem = st_num(aa, lay->ix_maxslotmem);
		bmem = st_num(bb, part ? lay->ix_maxslotmem : lay->ix_freemem);
		classad_value_set_real(&aa->row.v[lay->ix_maxslotmem],
				       amem > bmem ? amem : bmem);
	}
	if (part || !(bb->flags & ST_R_BUSY)) {
		/* HTCondor adds bb's largest-slot memory here for a
		 * partitionable bb; kept as it is */
		if (lay->ix_freemem >= 0)
			classad_value_set_real(&aa->row.v[lay->ix_freemem],
					       bmem + st_num(aa, lay->ix_freemem));
		if (lay->ix_freecpus >= 0)
			classad_value_set_int(&aa->row.v[lay->ix_freecpus],
					      st_inum(aa, lay->ix_freecpus, NULL) +
						      st_inum(bb, lay->ix_freecpus, NULL));
	}
	if (lay->ix_slots >= 0) {
		bool ok;
		long long as = st_inum(aa, lay->ix_slots, &ok);
		if (!ok) {
			as = 1;
			aa->row.valid[lay->ix_slots] = true;
		}
		long long bs = part ? st_inum(bb, lay->ix_slots, NULL) : 1;
		classad_value_set_int(&aa->row.v[lay->ix_slots], as + bs);
	}
	if (lay->ix_jobstarts >= 0)
		classad_value_set_real(&aa->row.v[lay->ix_jobstarts],
				       st_num(aa, lay->ix_jobstarts) +
					       st_num(bb, lay->ix_jobstarts));
	if (lay->ix_actcode >= 0) {
		char a[3], b[3];
		st_code(aa, lay->ix_actcode, a);
		st_code(bb, lay->ix_actcode, b);
		char sc = a[0] != b[0] ? '*' : a[0];
		char ac = a[1] != b[1] ? '*' : a[1];
		if (a[0] != sc || a[1] != ac) {
			char code[3] = {sc, ac, '\0'};
			st_set_code(aa, lay->ix_actcode, code);
		}
	}
}

/* Do the keys name the same machine (the first line), and the same slot
 * type (the digits after its ':')? */
static bool st_same_machine(const char *aa, const char *bb, bool *type_differs)
{
	*type_differs = false;
	size_t la = strlen(aa), lb = strlen(bb);
	if (!la)
		return false;
	bool after_colon = false;
	for (size_t i = 0; i < la; i++) {
		char ch = aa[i];
		char other = i <= lb ? bb[i] : '\0';
		if (other != ch) {
			if (after_colon && isdigit((unsigned char)ch) &&
			    isdigit((unsigned char)other))
				*type_differs = true;
			else
				return false;
		}
		if (ch == '\n')
			return true;
		after_colon = ch == ':';
	}
	return lb == la;
}

void st_compact_reduce(struct st_entry **es, size_t n,
		       const struct st_layout *lay)
{
	if (n == 0)
		return;
	bool fold_last = false;
	size_t m = 0;
	for (size_t i = 1; i < n; i++) {
		bool differs;
		bool same = st_same_machine(es[i]->key, es[m]->key, &differs);
		if (same && !differs) {
			st_fold(es[m], es[i], lay);
			es[i]->flags |= ST_R_FOLDED;
			fold_last = false;
			continue;
		}
		st_fold(es[m], NULL, lay);
		if (lay->ix_machineslot >= 0 && same && differs) {
			/* a second slot type of the same machine: its own row,
			 * named by the slot */
			es[i]->flags |= ST_R_ROWN;
			if (es[i]->label && *es[i]->label &&
			    (size_t)lay->ix_machineslot < es[i]->row.n) {
				char *t = ks_xmalloc(strlen(es[i]->label) + 4);
				strcpy(t, "   ");
				strcat(t, es[i]->label);
				classad_value_set_string(
					&es[i]->row.v[lay->ix_machineslot], t,
					strlen(t));
				free(t);
			}
		}
		m = i;
		fold_last = true;
	}
	if (fold_last)
		st_fold(es[m], NULL, lay);
}
