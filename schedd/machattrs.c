/* machattrs.c: what a job keeps of its slots (sc_machattrs.h). */
#include "sc_machattrs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_mem.h"
#include "ks_text.h"

struct names {
	char **v;
	size_t n;
};

/* Adds each name of list (commas or spaces) not already there. */
static void add_names(struct names *ns, const char *list)
{
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(list, &pos, &len));) {
		bool have = false;
		for (size_t i = 0; i < ns->n && !have; i++)
			have = strlen(ns->v[i]) == len &&
			       !strncasecmp(ns->v[i], p, len);
		if (!have) {
			ns->v = ks_xrealloc(ns->v, (ns->n + 1) * sizeof(*ns->v));
			ns->v[ns->n++] = ks_xstrndup(p, len);
		}
	}
}

/* MachineAttr<name><k> moves to <k+1>, the oldest falling off, when
 * there is a newest to keep (as HTCondor rotates them between runs). */
static void rotate(struct sc_schedd *s, struct sc_job *j, const char *name,
		   int64_t len)
{
	char attr[300];
	snprintf(attr, sizeof(attr), "MachineAttr%s0", name);
	if (len < 2 || !classad_lookup(j->ad, attr))
		return;
	for (int64_t k = len - 1; k > 0; k--) {
		snprintf(attr, sizeof(attr), "MachineAttr%s%lld", name,
			 (long long)(k - 1));
		const classad_expr *e = classad_lookup(j->ad, attr);
		if (!e)
			continue;
		char *text = classad_expr_unparse(e, false);
		snprintf(attr, sizeof(attr), "MachineAttr%s%lld", name,
			 (long long)k);
		sc_job_set_expr(s, j, attr, text);
		free(text);
	}
}

void sc_machine_attrs(struct sc_schedd *s, struct sc_job *j,
		      const classad *slot)
{
	int64_t matches = 0;
	classad_eval_int(j->ad, "NumJobMatches", NULL, &matches);
	sc_job_set_int(s, j, "NumJobMatches", matches + 1);
	sc_job_set_int(s, j, "LastMatchTime", (int64_t)time(NULL));

	int64_t len = 1, sys_len = 1;
	classad_eval_int(j->ad, "JobMachineAttrsHistoryLength", NULL, &len);
	ks_config_int(s->d->cfg, "SYSTEM_JOB_MACHINE_ATTRS_HISTORY_LENGTH",
		      &sys_len);
	if (sys_len > len)
		len = sys_len;
	if (len <= 0)
		return;
	struct names ns = {0};
	char *own = NULL;
	classad_eval_string(j->ad, "JobMachineAttrs", NULL, &own);
	add_names(&ns, own);
	free(own);
	char *sys = ks_config_get(s->d->cfg, "SYSTEM_JOB_MACHINE_ATTRS", NULL);
	add_names(&ns, sys);
	free(sys);
	for (size_t i = 0; i < ns.n; i++) {
		rotate(s, j, ns.v[i], len);
		classad_value v = CLASSAD_VALUE_INIT;
		const classad_expr *e = slot ? classad_lookup(slot, ns.v[i])
					     : NULL;
		if (e)
			classad_eval_expr(slot, e, NULL, &v);
		else
			v.type = CLASSAD_ERROR;
		char attr[300];
		snprintf(attr, sizeof(attr), "MachineAttr%s0", ns.v[i]);
		char *text = classad_value_unparse(&v, false);
		sc_job_set_expr(s, j, attr, text);
		free(text);
		classad_value_clear(&v);
		free(ns.v[i]);
	}
	free(ns.v);
}

void sc_provisioned(struct sc_schedd *s, struct sc_job *j,
		    const classad *slot)
{
	if (!slot)
		return;
	char *list = NULL;
	if (classad_eval_string(slot, "MachineResources", NULL, &list))
		sc_job_set_string(s, j, "ProvisionedResources", list);
	else
		list = ks_xstrdup("Cpus, Disk, Memory");
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(list, &pos, &len));) {
		char name[128], attr[160];
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		const classad_expr *e = classad_lookup(slot, name);
		if (!e)
			continue;
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr_in_match(slot, j->ad, e, NULL, &v);
		/* numbers, booleans and errors, as HTCondor keeps them */
		if (v.type == CLASSAD_INTEGER || v.type == CLASSAD_REAL ||
		    v.type == CLASSAD_BOOLEAN || v.type == CLASSAD_ERROR) {
			for (size_t i = 0; name[i]; i++)
				name[i] = (char)(i ? (name[i] >= 'A' && name[i] <= 'Z'
							      ? name[i] - 'A' + 'a'
							      : name[i])
						   : (name[i] >= 'a' && name[i] <= 'z'
							      ? name[i] - 'a' + 'A'
							      : name[i]));
			snprintf(attr, sizeof(attr), "%sProvisioned", name);
			char *text = classad_value_unparse(&v, false);
			sc_job_set_expr(s, j, attr, text);
			free(text);
		}
		classad_value_clear(&v);
	}
	free(list);
}
