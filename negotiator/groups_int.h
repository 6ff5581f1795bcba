/*
 * groups_int.h: what groups.c (the tree, its configuration and the
 * negotiation in rounds) and quota.c (the quota and allocation
 * arithmetic) share.  Internal to those two files; everyone else uses
 * groups.h.
 */
#ifndef NG_GROUPS_INT_H
#define NG_GROUPS_INT_H

#include "groups.h"

struct ng_groups {
	struct ng_group **all; /* breadth first, [0] the root */
	size_t n;
	bool autoregroup;      /* some group regroups */
	bool accept_surplus;   /* some group accepts surplus */
	bool oversubscribe;    /* NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION */
	classad_expr *sort_expr;
	char *sort_text;
	ks_log *log;
};

#define LOG(g, cat, ...) ks_log_printf((g)->log, (cat), __VA_ARGS__)

#endif
