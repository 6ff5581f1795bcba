/* assigned.c: the job's view of its slot's assigned resources
 * (ks_jobad.h). */
#include "ks_jobad.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_text.h"

/* The digits and commas of ids (HTCondor's rule for the two CUDA names). */
static void digits_only(const char *ids, struct classad_buf *out)
{
	for (const char *p = ids; *p; p++)
		if (isdigit((unsigned char)*p) || *p == ',')
			classad_buf_add(out, p, 1);
}

/* One id with the first match of re replaced by sub[0..sublen). */
static void replace_one(pcre2_code *re, pcre2_match_data *md, const char *id,
			size_t len, const char *sub, size_t sublen,
			struct classad_buf *out)
{
	int n = pcre2_match(re, (PCRE2_SPTR)id, len, 0, 0, md, NULL);
	if (n < 0) {
		classad_buf_add(out, id, len);
		return;
	}
	const PCRE2_SIZE *g = pcre2_get_ovector_pointer(md);
	classad_buf_add(out, id, g[0]);
	for (size_t i = 0; i < sublen; i++) {
		if (sub[i] == '$' && i + 1 < sublen &&
		    isdigit((unsigned char)sub[i + 1])) {
			int k = sub[++i] - '0';
			if (k < n && g[2 * k] != PCRE2_UNSET)
				classad_buf_add(out, id + g[2 * k],
						g[2 * k + 1] - g[2 * k]);
		} else {
			classad_buf_add(out, &sub[i], 1);
		}
	}
	if (g[1] < len)
		classad_buf_add(out, id + g[1], len - g[1]);
}

/* Each id of ids (separated by commas or spaces) through re, joined by
 * commas. */
static void replace_all(pcre2_code *re, const char *ids, const char *sub,
			size_t sublen, struct classad_buf *out)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	bool first = true;
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(ids, &pos, &len));) {
		if (!first)
			classad_buf_add(out, ",", 1);
		first = false;
		replace_one(re, md, p, len, sub, sublen, out);
	}
	pcre2_match_data_free(md);
}

/* Sets the variables one ENVIRONMENT_FOR_ value names. */
static void set_from_protos(const char *proto, const char *ids,
			    const char *tag, struct ks_jobad_env *env, ks_log *log)
{
	for (;;) {
		while (isspace((unsigned char)*proto))
			proto++;
		if (!*proto)
			return;
		const char *eq = strchr(proto, '=');
		struct classad_buf val = {0};
		if (!eq) {
			char *name = ks_xstrndup(proto, strcspn(proto, " \t,"));
			if (!strcmp(name, "CUDA_VISIBLE_DEVICES") ||
			    !strcmp(name, "GPU_DEVICE_ORDINAL"))
				digits_only(ids, &val);
			else
				classad_buf_add(&val, ids, strlen(ids));
			ks_jobad_env_set(env, name, val.data ? val.data : "");
			free(name);
			free(val.data);
			return;
		}
		char *name = ks_xstrndup(proto, (size_t)(eq - proto));
		const char *d = eq + 1;
		while (isspace((unsigned char)*d))
			d++;
		const char *pat = *d ? d + 1 : d;
		const char *sub = *d ? strchr(pat, *d) : NULL;
		const char *end = sub ? strchr(sub + 1, *d) : NULL;
		if (!end) {
			if (log)
				ks_log_printf(log, KS_D_ALWAYS,
					      "ENVIRONMENT_FOR_Assigned%s: '%s' "
					      "has no closing '%c'; ignored", tag,
					      name, *d ? *d : '/');
			free(name);
			return;
		}
		size_t plen = (size_t)(sub - pat);
		int code;
		PCRE2_SIZE off;
		pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, plen, 0, &code,
					       &off, NULL);
		if (!re) {
			if (log)
				ks_log_printf(log, KS_D_ALWAYS,
					      "ENVIRONMENT_FOR_Assigned%s: the "
					      "pattern of '%s' is not a regular "
					      "expression (at offset %zu); "
					      "ignored", tag, name, (size_t)off);
			free(name);
			return;
		}
		if (!strcmp(name, "CUDA_VISIBLE_DEVICES") && plen == 0)
			digits_only(ids, &val);
		else
			replace_all(re, ids, sub + 1, (size_t)(end - sub - 1),
				    &val);
		pcre2_code_free(re);
		ks_jobad_env_set(env, name, val.data ? val.data : "");
		free(name);
		free(val.data);
		proto = end + 1;
		if (*proto == ',')
			proto++;
	}
}

void ks_jobad_assigned_env(const ks_config *cfg, const classad *machine,
			   struct ks_jobad_env *env, ks_log *log)
{
	char *tags = classad_eval_string_dup(machine, "MachineResources");
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(tags, &pos, &len));) {
		char tag[128], attr[160], knob[192];
		snprintf(tag, sizeof(tag), "%.*s", (int)len, p);
		snprintf(attr, sizeof(attr), "Assigned%s", tag);
		snprintf(knob, sizeof(knob), "ENVIRONMENT_FOR_%s", attr);
		char *protos = ks_config_get(cfg, knob, NULL);
		char *ids = classad_eval_string_dup(machine, attr);
		if (!ids && classad_lookup(machine, tag) && protos && *protos) {
			snprintf(knob, sizeof(knob),
				 "ENVIRONMENT_VALUE_FOR_Un%s", attr);
			ids = ks_config_get(cfg, knob, NULL);
			if (!ids)
				ids = ks_xstrdup("");
		}
		if (ids) {
			if (protos && *protos)
				set_from_protos(protos, ids, tag, env, log);
			char var[192];
			snprintf(var, sizeof(var), "_CONDOR_%s", attr);
			ks_jobad_env_set(env, var, ids);
		}
		free(ids);
		free(protos);
	}
	free(tags);
}
