/*
 * classad_eval: evaluate ClassAd expressions in the context of ads given on
 * the command line or in files, as HTCondor's classad_eval does.
 *
 *   classad_eval [-quiet] [-[my-]file F] [-target-file F] [-debug]
 *                <ad|assignment|expression>...
 *
 * Arguments are taken in order: an ad ("[ a = 1; b = 2 ]") or assignments
 * ("a = 1", "a = 1; b = 2") update the context ad; anything else is an
 * expression, evaluated against the context (with the target ad as TARGET
 * when one is given) and printed.  The context ad is printed before the
 * first evaluation after each change, unless -quiet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [options] <expr|assignment>[ <expr|assignment>]*\n"
		"\n"
		"Evaluate ClassAd expressions.\n"
		"Assignments modify the ClassAd context.\n"
		"\n"
		"Where [options] is one of\n"
		"\t-[my-]file   <file>\tA file containing the initial ClassAd "
		"context\n"
		"\t-target-file <file>\tA file containing the target ClassAd\n"
		"\t-debug             \tEnable debug mode\n"
		"\t-help              \tPrint this screen and exit\n"
		"\n"
		"Flags may replace expressions or assignments:\n"
		"\t-quiet             \tDon't print the ClassAd context after "
		"this flag\n",
		prog);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap);
	while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Which format a file's failure is reported in: the one its first
 * character suggests. */
static enum classad_format likely_format(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i < len && text[i] == '[')
		return CLASSAD_FMT_NEW;
	if (i < len && text[i] == '{')
		return CLASSAD_FMT_JSON;
	return CLASSAD_FMT_OLD;
}

/* An ad from text: new syntax, then "[" text "]" (assignments), and for
 * files also old syntax and JSON.  Returns NULL if none fits; for a file,
 * *err then says why in the format the text most looks like. */
static classad *make_ad(const char *text, size_t len, bool from_file,
			struct ks_err *err)
{
	/* condor_q -long:new writes "{\n[...]\n}\n"; drop the wrapper. */
	if (from_file && len >= 5 && !strncmp(text, "{\n", 2) &&
	    !strcmp(text + len - 3, "\n}\n")) {
		text += 2;
		len -= 4;
	}
	enum classad_format likely = likely_format(text, len);
	classad *ad = classad_parse(text, len, CLASSAD_FMT_NEW, NULL,
				    likely == CLASSAD_FMT_NEW ? err : NULL);
	if (ad)
		return ad;
	size_t n = len + 3;
	char *wrapped = malloc(n);
	if (!wrapped)
		return NULL;
	snprintf(wrapped, n, "[%.*s]", (int)len, text);
	ad = classad_parse(wrapped, n - 1, CLASSAD_FMT_NEW, NULL, NULL);
	free(wrapped);
	if (ad || !from_file)
		return ad;
	ad = classad_parse(text, len, CLASSAD_FMT_JSON, NULL,
			   likely == CLASSAD_FMT_JSON ? err : NULL);
	if (!ad) {
		/* The first of the ads of an old-syntax file. */
		classad_reader *r =
			classad_reader_new(text, len, CLASSAD_FMT_OLD, NULL);
		if (classad_reader_next(r, &ad, likely == CLASSAD_FMT_OLD
							? err
							: NULL) != 1)
			ad = NULL;
		classad_reader_free(r);
	}
	return ad;
}

static void print_debug(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s\n", line);
}

static classad *load_file(const char *prog, const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "%s: cannot read '%s': %s\n", prog, path,
			strerror(errno));
		return NULL;
	}
	struct ks_err err = {0};
	classad *ad = make_ad(text, len, true, &err);
	free(text);
	if (!ad)
		fprintf(stderr,
			"Unable to turn file '%s' into a ClassAd (line %d, "
			"column %d: %s).\n",
			path, err.line, err.col, err.msg);
	return ad;
}

int main(int argc, char **argv)
{
	const char *prog = argv[0];
	bool quiet = false, updated = true;
	classad *my = classad_new(), *target = NULL;
	classad_env *env = classad_env_new();
	int status = 0;

	for (int i = 1; i < argc && status == 0; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "-quiet")) {
			quiet = true;
		} else if (!strcmp(arg, "-file") || !strcmp(arg, "-my-file") ||
			   !strcmp(arg, "-target-file")) {
			if (++i >= argc) {
				fprintf(stderr, "%s: %s requires an argument\n",
					prog, arg);
				status = 255;
				break;
			}
			classad *ad = load_file(prog, argv[i]);
			if (!ad) {
				status = 1;
				break;
			}
			if (!strcmp(arg, "-target-file")) {
				classad_free(target);
				target = ad;
			} else {
				classad_free(my);
				my = ad;
				updated = true;
			}
		} else if (!strcmp(arg, "-debug")) {
			classad_env_set_debug(env, print_debug, NULL);
		} else if (!strcmp(arg, "-help")) {
			usage(stdout, prog);
			status = 255;
		} else {
			/* Anything else, "-x" included, is an ad or an
			 * expression, as in HTCondor's tool. */
			classad *ad = make_ad(arg, strlen(arg), false, NULL);
			if (ad) {
				classad_update(my, ad);
				classad_free(ad);
				updated = true;
				continue;
			}
			struct ks_err err;
			classad_expr *e =
				classad_parse_expr(arg, strlen(arg), &err);
			if (!e) {
				fprintf(stderr,
					"Unable to turn '%s' into a ClassAd or "
					"an expression (column %d: %s).\n",
					arg, err.col, err.msg);
				status = 1;
				break;
			}
			if (updated && !quiet) {
				char *t = classad_unparse(my, CLASSAD_FMT_NEW);
				printf("%s\n", t);
				free(t);
			}
			updated = false;
			classad_value v = CLASSAD_VALUE_INIT;
			classad_eval_expr_in_match(my, target, e, env, &v);
			char *t = classad_value_unparse(&v, false);
			printf("%s\n", t);
			free(t);
			classad_value_clear(&v);
			classad_expr_free(e);
		}
	}
	classad_free(my);
	classad_free(target);
	classad_env_free(env);
	return status;
}
