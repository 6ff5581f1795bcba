/*
 * tf_render.c: the custom column formats of HTCondor's tables, by their
 * PRINTAS names (ACTIVITY_TIME, LOAD_AVG, PLATFORM, ...), and the typed
 * ad lookups they rest on.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "tf_int.h"
#include "tfmt.h"

/* ---- ad lookups -------------------------------------------------------- */

bool tf_ad_int(const classad *ad, const char *name, long long *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	bool ok = tf_value_int(&v, out);
	classad_value_clear(&v);
	return ok;
}

bool tf_ad_real(const classad *ad, const char *name, double *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	bool ok = tf_value_real(&v, out);
	classad_value_clear(&v);
	return ok;
}

bool tf_ad_bool(const classad *ad, const char *name, bool *out)
{
	return classad_eval_bool(ad, name, NULL, out);
}

static void tf_set_str(classad_value *v, const char *s)
{
	classad_value_set_string(v, s, strlen(s));
}

/* ---- states ------------------------------------------------------------ */

static const char *const tf_states[] = {
	"None", "Owner", "Unclaimed", "Matched", "Claimed", "Preempting",
	"Shutdown", "Delete", "Backfill", "Drained",
};
static const char *const tf_activities[] = {
	"None", "Idle", "Busy", "Retiring", "Vacating", "Suspended",
	"Benchmarking", "Killing", "Cleaning",
};

enum tf_state tf_state_of(const char *s)
{
	for (int i = 0; i < TF_STATE_THRESHOLD; i++)
		if (s && strcmp(tf_states[i], s) == 0)
			return (enum tf_state)i;
	return TF_STATE_ERROR;
}

enum tf_activity tf_activity_of(const char *s)
{
	for (int i = 0; i < TF_ACT_THRESHOLD; i++)
		if (s && strcmp(tf_activities[i], s) == 0)
			return (enum tf_activity)i;
	return TF_ACT_ERROR;
}

void tf_state_code(char sa[3], enum tf_state st, enum tf_activity ac)
{
	/* HTCondor's letters; '#' is "no consensus" */
	static const char states[] = "~OUMCPSXFD#?";
	static const char acts[] = "0ibrvsekc#?";
	sa[0] = sa[1] = ' ';
	sa[2] = '\0';
	if (st > TF_NO_STATE && st <= TF_STATE_THRESHOLD)
		sa[0] = states[st];
	if (ac > TF_NO_ACT && ac <= TF_ACT_THRESHOLD)
		sa[1] = acts[ac];
}

/* ---- the renderers ----------------------------------------------------- */

/* "OCU" for an idle slot that holds an owner-claimed unit. */
static bool tf_r_activity_or_ocu(classad_value *v, const classad *ad,
				 const struct tf_col *c)
{
	(void)c;
	char *act = classad_eval_string_dup(ad, "Activity");
	if (!act || !*act) {
		tf_set_str(v, "??");
	} else {
		bool ocu = false;
		tf_ad_bool(ad, "OCU", &ocu);
		if (ocu && strcmp(act, "Idle") == 0)
			tf_set_str(v, "OCU");
	}
	free(act);
	return true;
}

/* Time since the value, measured by the ad's own clock. */
static bool tf_r_activity_time(classad_value *v, const classad *ad,
			       const struct tf_col *c)
{
	(void)c;
	long long now;
	if (!tf_ad_int(ad, "MyCurrentTime", &now) &&
	    !tf_ad_int(ad, "LastHeardFrom", &now))
		return false;
	long long t = now - v->u.i;
	classad_value_set_int(v, t < 0 ? 0 : t);
	return true;
}

static bool tf_r_elapsed_time(classad_value *v, const classad *ad,
			      const struct tf_col *c)
{
	(void)c;
	long long now;
	if (!tf_ad_int(ad, "LastHeardFrom", &now))
		return false;
	classad_value_set_int(v, now - v->u.i);
	return true;
}

static void tf_f_load_avg(const classad_value *v, struct classad_buf *out,
			  const struct tf_col *c)
{
	(void)c;
	classad_buf_printf(out, "%.3f", v->u.r);
}

static void tf_f_time(const classad_value *v, struct classad_buf *out,
		      const struct tf_col *c)
{
	(void)c;
	tf_format_time(out, v->u.i);
}

static void tf_f_date(const classad_value *v, struct classad_buf *out,
		      const struct tf_col *c)
{
	(void)c;
	tf_format_date(out, v->u.i);
}

bool tf_platform_name(const classad *ad, struct classad_buf *out)
{
	char *opsys = classad_eval_string_dup(ad, "OpSys");
	bool windows = opsys && strcmp(opsys, "WINDOWS") == 0;
	free(opsys);
	char *name = classad_eval_string_dup(
		ad, windows ? "OpSysShortName" : "OpSysAndVer");
	if (!name)
		return false;
	char *arch = classad_eval_string_dup(ad, "Arch");
	if (arch) {
		tf_buf_truncate(out, 0);
		if (strcmp(arch, "X86_64") == 0)
			tf_buf_add(out, "x64");
		else if (strcmp(arch, "X86") == 0)
			tf_buf_add(out, "x86");
		else
			tf_buf_add(out, arch);
		free(arch);
	}
	tf_buf_addc(out, '/');
	tf_buf_add(out, name);
	free(name);
	return true;
}

static bool tf_r_platform(classad_value *v, const classad *ad,
			  const struct tf_col *c)
{
	(void)c;
	struct classad_buf b = {0};
	tf_buf_add(&b, classad_value_str(v, NULL) ? classad_value_str(v, NULL) : "");
	bool ok = tf_platform_name(ad, &b);
	if (ok)
		tf_set_str(v, tf_buf_str(&b));
	tf_buf_free(&b);
	return ok;
}

/* "X.Y.Z" from "$CondorVersion: X.Y.Z DATE [BuildID: N] $", with ".N"
 * unless the column is too narrow for it. */
static void tf_version_text(const char *s, const struct tf_col *c,
			    struct classad_buf *out)
{
	bool no_build_id = !(c->opts & TF_AUTOW) && c->width > -10 &&
			   c->width < 10;
	const char *p = s;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	const char *v = p;
	while (*p && *p != ' ')
		p++;
	size_t vlen = (size_t)(p - v);
	classad_buf_add(out, v, vlen > 21 ? 21 : vlen);
	while (*p == ' ')
		p++;
	const char *d1 = strchr(p, '-');
	if (d1 == p + 4 && strchr(p + 5, '-') == p + 7) {
		while (*p && *p != ' ')
			p++;
	} else {
		for (int i = 0; i < 3; i++) { /* an old "Mon DD YYYY" date */
			while (*p && *p != ' ')
				p++;
			if (i < 2)
				while (*p == ' ')
					p++;
		}
	}
	while (*p == ' ')
		p++;
	if (*p == 'B') {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	if (*p != '$' && !no_build_id) {
		tf_buf_addc(out, '.');
		const char *b = p;
		while (*p && *p != '-' && *p != ' ')
			p++;
		/* HTCondor's buffer holds 21 characters before the end */
		size_t room = vlen + 1 >= 21 ? 0 : 20 - vlen;
		size_t blen = (size_t)(p - b);
		classad_buf_add(out, b, blen > room ? room : blen);
	}
}

static bool tf_r_version(classad_value *v, const classad *ad,
			 const struct tf_col *c)
{
	(void)ad;
	const char *s = classad_value_str(v, NULL);
	if (!s || !*s)
		return false;
	struct classad_buf b = {0};
	tf_version_text(s, c, &b);
	tf_set_str(v, tf_buf_str(&b));
	tf_buf_free(&b);
	return true;
}

/* HTCondor's format_readable_*: a number of units, in metric_units()'
 * form; eight blanks for anything else. */
static void tf_readable(const classad_value *v, struct classad_buf *out,
			double unit)
{
	if (v->type == CLASSAD_INTEGER)
		tf_metric_units(out, (double)v->u.i * unit);
	else if (v->type == CLASSAD_REAL)
		tf_metric_units(out, v->u.r * unit);
	else
		tf_buf_add(out, "        ");
}

static void tf_f_readable_mb(const classad_value *v, struct classad_buf *out,
			     const struct tf_col *c)
{
	(void)c;
	tf_readable(v, out, 1024.0 * 1024.0);
}

static void tf_f_readable_bytes(const classad_value *v,
				struct classad_buf *out, const struct tf_col *c)
{
	(void)c;
	tf_readable(v, out, 1.0);
}

static bool tf_r_member_count(classad_value *v, const classad *ad,
			      const struct tf_col *c)
{
	(void)ad;
	(void)c;
	const char *s = classad_value_str(v, NULL);
	if (s) {
		long long n = 0;
		const char *p = s;
		while (*p) {
			while (*p && strchr(", \t\r\n", *p))
				p++;
			if (!*p)
				break;
			n++;
			while (*p && !strchr(", \t\r\n", *p))
				p++;
		}
		classad_value_set_int(v, n);
		return true;
	}
	if (v->type == CLASSAD_LIST) {
		classad_value_set_int(v, (long long)classad_value_list_size(v));
		return true;
	}
	return false;
}

/* Two letters: the state and the activity ("Ui" for Unclaimed/Idle). */
static bool tf_r_activity_code(classad_value *v, const classad *ad,
			       const struct tf_col *c)
{
	(void)c;
	const char *in = classad_value_str(v, NULL);
	enum tf_state st = TF_NO_STATE;
	enum tf_activity ac = tf_activity_of(in);
	bool ok = false;
	if (ac > TF_NO_ACT && ac < TF_ACT_THRESHOLD) {
		ok = true;
		char *s = classad_eval_string_dup(ad, "State");
		st = tf_state_of(s ? s : in);
		free(s);
	} else {
		st = tf_state_of(in);
		if (st > TF_NO_STATE && st < TF_STATE_THRESHOLD) {
			ok = true;
			char *a = classad_eval_string_dup(ad, "Activity");
			ac = a ? tf_activity_of(a) : TF_ACT_ERROR;
			free(a);
		}
	}
	char sa[3];
	tf_state_code(sa, st, ac);
	tf_set_str(v, sa);
	return ok;
}

/* After NumDynamicSlots: "S" for a static slot, " " for a partitionable
 * one, else the first letter of SlotType. */
static bool tf_r_slot_count_tag(classad_value *v, const classad *ad,
				const struct tf_col *c)
{
	(void)ad;
	(void)c;
	const char *s = classad_value_str(v, NULL);
	char t[2] = {0, 0};
	if (s && strcmp(s, "Static") == 0)
		t[0] = 'S';
	else if (s && strcmp(s, "Partitionable") == 0)
		t[0] = ' ';
	else if (s && *s)
		t[0] = s[0];
	tf_set_str(v, t);
	return true;
}

static int tf_strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct items of a list (or a comma list in a string), sorted,
 * joined with ", "; nothing for any other value. */
static bool tf_r_unique(classad_value *v, const classad *ad,
			const struct tf_col *c)
{
	(void)ad;
	(void)c;
	char **items = NULL;
	size_t n = 0;
	const char *s = classad_value_str(v, NULL);
	if (v->type == CLASSAD_LIST) {
		size_t len = classad_value_list_size(v);
		items = ks_xcalloc(len ? len : 1, sizeof *items);
		for (size_t i = 0; i < len; i++) {
			classad_value iv = CLASSAD_VALUE_INIT;
			classad_value_list_get(v, i, NULL, &iv);
			const char *is = classad_value_str(&iv, NULL);
			items[n++] = is ? ks_xstrdup(is)
					: classad_value_unparse(&iv, true);
			classad_value_clear(&iv);
		}
	} else if (s) {
		const char *p = s;
		while (*p) {
			while (*p && strchr(", \t\r\n", *p))
				p++;
			if (!*p)
				break;
			const char *b = p;
			while (*p && !strchr(", \t\r\n", *p))
				p++;
			items = ks_xrealloc(items, (n + 1) * sizeof *items);
			items[n++] = ks_xstrndup(b, (size_t)(p - b));
		}
	} else {
		return false;
	}
	qsort(items, n, sizeof *items, tf_strcmp_p);
	struct classad_buf b = {0};
	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(items[i], items[i - 1]) == 0)
			continue;
		if (b.len)
			tf_buf_add(&b, ", ");
		tf_buf_add(&b, items[i]);
	}
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
	tf_set_str(v, tf_buf_str(&b));
	tf_buf_free(&b);
	return true;
}

static bool tf_r_job_id(classad_value *v, const classad *ad,
			const struct tf_col *c)
{
	(void)c;
	long long cluster, proc = -1;
	if (!tf_ad_int(ad, "ClusterId", &cluster)) {
		char *id = classad_eval_string_dup(ad, "JobId");
		if (!id)
			return false;
		tf_set_str(v, id);
		free(id);
		return true;
	}
	tf_ad_int(ad, "ProcId", &proc);
	char buf[64];
	snprintf(buf, sizeof buf, "%d.%d", (int)cluster, (int)proc);
	tf_set_str(v, buf);
	return true;
}

/* The attributes after the function are those it reads besides the
 * column's own (for the projection). */
static const struct tf_custom tf_customs[] = {
	{"ACTIVITY_CODE", TF_K_STR_RENDER, tf_r_activity_code, NULL, NULL,
	 "State"},
	{"ACTIVITY_OR_OCU", TF_K_STR_RENDER, tf_r_activity_or_ocu, NULL, NULL,
	 "State"},
	{"ACTIVITY_TIME", TF_K_INT_RENDER, tf_r_activity_time, NULL, "%T",
	 "LastHeardFrom MyCurrentTime"},
	{"CONDOR_VERSION", TF_K_STR_RENDER, tf_r_version, NULL, NULL, NULL},
	{"DATE", TF_K_INT_FMT, NULL, tf_f_date, NULL, NULL},
	{"ELAPSED_TIME", TF_K_INT_RENDER, tf_r_elapsed_time, NULL, "%T",
	 "LastHeardFrom"},
	{"JOB_ID", TF_K_STR_RENDER, tf_r_job_id, NULL, NULL, "ProcId JobId"},
	{"LOAD_AVG", TF_K_FLT_FMT, NULL, tf_f_load_avg, NULL, NULL},
	{"MEMBER_COUNT", TF_K_VAL_RENDER, tf_r_member_count, NULL, "%d", NULL},
	{"PLATFORM", TF_K_STR_RENDER, tf_r_platform, NULL, NULL,
	 "Arch OpSysAndVer OpSysShortName"},
	{"READABLE_BYTES", TF_K_VAL_FMT, NULL, tf_f_readable_bytes, NULL,
	 NULL},
	{"READABLE_MB", TF_K_VAL_FMT, NULL, tf_f_readable_mb, NULL, NULL},
	{"SLOT_COUNT_TAG", TF_K_VAL_RENDER, tf_r_slot_count_tag, NULL, NULL,
	 NULL},
	{"TIME", TF_K_INT_FMT, NULL, tf_f_time, NULL, NULL},
	{"UNIQUE", TF_K_VAL_RENDER, tf_r_unique, NULL, NULL, NULL},
};

const struct tf_custom *tf_custom_find(const char *name)
{
	for (size_t i = 0; i < sizeof tf_customs / sizeof tf_customs[0]; i++)
		if (strcmp(tf_customs[i].name, name) == 0)
			return &tf_customs[i];
	return tf_job_custom_find(name);
}
