/*
 * fn_user.c: userHome() and userMap(), and the environment that supplies
 * what they need (user maps, whether to consult the password database,
 * where debug() writes).
 */
#include <stdlib.h>

#include "fn.h"
#include "ks_passwd.h"

classad_env *classad_env_new(void)
{
	return ks_xcalloc(1, sizeof(classad_env));
}

void classad_env_free(classad_env *env)
{
	free(env);
}

void classad_env_set_usermap(classad_env *env, classad_usermap_fn fn,
			     void *arg)
{
	env->usermap = fn;
	env->usermap_arg = arg;
}

void classad_env_set_debug(classad_env *env, classad_debug_fn fn, void *arg)
{
	env->debug = fn;
	env->debug_arg = arg;
}

void classad_env_enable_user_home(classad_env *env, bool enable)
{
	env->user_home = enable;
}

/* userHome(name [, default]): the user's home directory.  As in HTCondor's
 * default configuration (CLASSAD_ENABLE_USER_HOME false), it answers the
 * default, or undefined, unless the environment enables it. */
CA_FN(ca_fn_user_home)
{
	if (c->n != 1 && c->n != 2)
		return ca_fail(out); /* HTCondor fails the evaluation */
	classad_value dv = CLASSAD_VALUE_INIT, name = CLASSAD_VALUE_INIT;
	const char *dflt = "";
	if (c->n == 2 && ca_arg(st, c, 1, &dv) && dv.type == CLASSAD_STRING)
		dflt = dv.u.s->s;
	(void)ca_arg(st, c, 0, &name); /* a failure here is ignored */
	bool have_default = *dflt != '\0';
	if (name.type == CLASSAD_UNDEFINED && !have_default) {
		out->type = CLASSAD_UNDEFINED;
	} else if (name.type != CLASSAD_STRING) {
		if (have_default)
			classad_value_set_string(out, dflt, strlen(dflt));
		else
			out->type = CLASSAD_ERROR;
	} else {
		struct ks_passwd pw;
		if (st->env && st->env->user_home &&
		    ks_passwd_by_name(name.u.s->s, &pw) == 0) {
			classad_value_set_string(out, pw.home, strlen(pw.home));
			ks_passwd_clear(&pw);
		} else if (have_default) {
			classad_value_set_string(out, dflt, strlen(dflt));
		} else {
			out->type = CLASSAD_UNDEFINED;
		}
	}
	ca_value_clear(&dv);
	ca_value_clear(&name);
	return true;
}

/* userMap(map, input [, preferred [, default]]) */
CA_FN(ca_fn_user_map)
{
	classad_value a[4] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 4, a, out);
	if (rc <= 0)
		return rc == 0;
	/* With four arguments the default is the answer until a mapping
	 * gives a better one. */
	if (c->n == 4)
		ca_value_move(out, &a[3]);
	if (a[0].type != CLASSAD_STRING || a[1].type != CLASSAD_STRING) {
		if (a[0].type == CLASSAD_ERROR || a[1].type == CLASSAD_ERROR)
			ca_set_error(out);
		else if (c->n < 4)
			out->type = CLASSAD_UNDEFINED;
		ca_clear_n(a, 4);
		return true;
	}
	char *mapped = NULL;
	bool ok = st->env && st->env->usermap &&
		  st->env->usermap(st->env->usermap_arg, a[0].u.s->s,
				   a[1].u.s->s, &mapped) &&
		  mapped;
	if (!ok) {
		if (c->n < 4)
			out->type = CLASSAD_UNDEFINED;
	} else if (c->n == 2) {
		classad_value_set_string(out, mapped, strlen(mapped));
	} else {
		const char *pick = NULL, *tok;
		size_t pick_len = 0, len;
		struct ca_tokens t;
	ca_tokens_init(&t, mapped, strlen(mapped), ",");
		bool first = true;
		while (ca_token_next(&t, &tok, &len)) {
			if (first) {
				pick = tok;
				pick_len = len;
				first = false;
			}
			if (a[2].type == CLASSAD_STRING &&
			    a[2].u.s->len == len &&
			    strncasecmp(tok, a[2].u.s->s, len) == 0) {
				pick = tok;
				pick_len = len;
				break;
			}
		}
		if (pick)
			classad_value_set_string(out, pick, pick_len);
		else if (c->n < 4)
			out->type = CLASSAD_UNDEFINED;
	}
	free(mapped);
	ca_clear_n(a, 4);
	return true;
}
