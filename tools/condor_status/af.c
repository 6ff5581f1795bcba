/*
 * af.c: the columns of -autoformat (-af) and -format.
 *
 * -af's letters after the colon, as HTCondor reads them: ',' a comma
 * after each value but the last, 'n' a newline instead, 't' a tab before
 * each value instead of a space, 'g' a newline between ads and nothing
 * before values, 'l' "Attr = " labels, 'h' a heading line, 'V' strings
 * quoted (%V), 'r' or 'o' unevaluated text (%r), 'T' durations (%T), 'Y'
 * dates (%Y), 'j' the job id (ClusterId.ProcId) first.
 */
#include <string.h>

#include "status.h"

static int st_format_add(struct st_mask *m, const struct st_item *it,
			 struct st_query *q, FILE *err)
{
	classad_expr *e = classad_parse_expr(it->b, strlen(it->b), NULL);
	if (!e) {
		fprintf(err, "Error:  Parse error of: %s\n", it->b);
		return 1;
	}
	classad_expr_free(e);
	st_mask_add(m, it->b, NULL, it->a, 0, ST_NOTRUNC, ST_K_PRINTF, NULL,
		    NULL);
	st_query_project_expr(q, it->b);
	return 0;
}

int st_af_add(struct st_mask *m, const struct st_item *it,
	      struct st_query *q, FILE *err)
{
	if (it->kind == ST_I_FORMAT)
		return st_format_add(m, it, q, err);

	bool label = false, capv = false, raw = false, time = false,
	     date = false, headings = false, jobid = false;
	const char *rpre = NULL, *cpre = " ", *csuf = NULL;
	for (const char *p = it->opts ? it->opts : ""; *p; p++) {
		switch (*p) {
		case ',': csuf = ","; break;
		case 'n': csuf = "\n"; break;
		case 'g': cpre = NULL; rpre = "\n"; break;
		case 't': cpre = "\t"; break;
		case 'l': label = true; break;
		case 'V': capv = true; break;
		case 'r': case 'o': raw = true; break;
		case 'T': time = true; break;
		case 'Y': date = true; break;
		case 'h': headings = true; break;
		case 'j': jobid = true; break;
		default: break; /* HTCondor ignores other letters */
		}
	}
	st_mask_set_seps(m, rpre, cpre, csuf, "\n");
	bool heads = headings || m->has_headings;

	if (jobid) {
		const struct st_custom *cu = st_custom_find("JOB_ID");
		unsigned opts = ST_NOTRUNC | ST_LEFT;
		if (heads)
			opts |= ST_AUTOW;
		struct st_col *c = st_mask_add(m, "ClusterId", heads ? " ID" : NULL,
					       label ? "ID = %v" : "%v", 0, opts,
					       cu->kind, cu->render, NULL);
		c->extra = cu->extra;
		st_query_project(q, "ClusterId");
		st_query_project_expr(q, cu->extra);
	}

	const char *deffmt = raw ? "%r" : capv ? "%V" : date ? "%Y"
				     : time ? "%T" : "%v";
	for (int i = 0; i < it->argc; i++) {
		const char *arg = it->argv[i];
		classad_expr *e = classad_parse_expr(arg, strlen(arg), NULL);
		if (!e) {
			fprintf(err, "Error:  Parse error of: %s\n", arg);
			return 1;
		}
		classad_expr_free(e);
		st_query_project_expr(q, arg);
		if (heads) {
			st_mask_add(m, arg, arg, deffmt, -(int)strlen(arg),
				    ST_AUTOW | ST_NOTRUNC, ST_K_PRINTF, NULL,
				    NULL);
		} else if (label) {
			struct classad_buf f = {0};
			/* a '%' in the label would be read as a conversion */
			for (const char *p = arg; *p; p++) {
				if (*p == '%')
					st_buf_addc(&f, '%');
				st_buf_addc(&f, *p);
			}
			st_buf_add(&f, " = ");
			st_buf_add(&f, deffmt);
			st_mask_add(m, arg, NULL, st_buf_str(&f), 0, 0,
				    ST_K_PRINTF, NULL, NULL);
			st_buf_free(&f);
		} else {
			st_mask_add(m, arg, NULL, deffmt, 0, ST_NOTRUNC,
				    ST_K_PRINTF, NULL, NULL);
		}
	}
	return 0;
}
