/*
 * tf_af.c: the columns of -autoformat (-af) and -format.
 *
 * -af's letters after the colon, as HTCondor reads them: ',' a comma
 * after each value but the last, 'n' a newline instead, 't' a tab before
 * each value instead of a space, 'g' a newline between ads and nothing
 * before values, 'l' "Attr = " labels, 'h' a heading line, 'V' strings
 * quoted (%V), 'r' or 'o' unevaluated text (%r), 'T' durations (%T), 'Y'
 * dates (%Y), 'j' the job id (ClusterId.ProcId) first.
 */
#include <string.h>

#include "tfmt.h"

int tf_format_add(struct tf_mask *m, const char *fmt, const char *expr,
		  struct tf_names *proj, FILE *err)
{
	classad_expr *e = classad_parse_expr(expr, strlen(expr), NULL);
	if (!e) {
		fprintf(err, "Error:  Parse error of: %s\n", expr);
		return 1;
	}
	classad_expr_free(e);
	tf_mask_add(m, expr, NULL, fmt, 0, TF_NOTRUNC, TF_K_PRINTF, NULL,
		    NULL);
	tf_names_add_expr(proj, expr);
	return 0;
}

int tf_af_add(struct tf_mask *m, const char *opts, int argc,
	      const char *const *argv, struct tf_names *proj, FILE *err)
{
	bool label = false, capv = false, raw = false, time = false,
	     date = false, headings = false, jobid = false;
	const char *rpre = NULL, *cpre = " ", *csuf = NULL;
	for (const char *p = opts ? opts : ""; *p; p++) {
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
	tf_mask_set_seps(m, rpre, cpre, csuf, "\n");
	bool heads = headings || m->has_headings;

	if (jobid) {
		const struct tf_custom *cu = tf_custom_find("JOB_ID");
		unsigned opts = TF_NOTRUNC | TF_LEFT;
		if (heads)
			opts |= TF_AUTOW;
		struct tf_col *c = tf_mask_add(m, "ClusterId", heads ? " ID" : NULL,
					       label ? "ID = %v" : "%v", 0, opts,
					       cu->kind, cu->render, NULL);
		c->extra = cu->extra;
		tf_names_add(proj, "ClusterId");
		tf_names_add_expr(proj, cu->extra);
	}

	const char *deffmt = raw ? "%r" : capv ? "%V" : date ? "%Y"
				     : time ? "%T" : "%v";
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		classad_expr *e = classad_parse_expr(arg, strlen(arg), NULL);
		if (!e) {
			fprintf(err, "Error:  Parse error of: %s\n", arg);
			return 1;
		}
		classad_expr_free(e);
		tf_names_add_expr(proj, arg);
		if (heads) {
			tf_mask_add(m, arg, arg, deffmt, -(int)strlen(arg),
				    TF_AUTOW | TF_NOTRUNC, TF_K_PRINTF, NULL,
				    NULL);
		} else if (label) {
			struct classad_buf f = {0};
			/* a '%' in the label would be read as a conversion */
			for (const char *p = arg; *p; p++) {
				if (*p == '%')
					tf_buf_addc(&f, '%');
				tf_buf_addc(&f, *p);
			}
			tf_buf_add(&f, " = ");
			tf_buf_add(&f, deffmt);
			tf_mask_add(m, arg, NULL, tf_buf_str(&f), 0, 0,
				    TF_K_PRINTF, NULL, NULL);
			tf_buf_free(&f);
		} else {
			tf_mask_add(m, arg, NULL, deffmt, 0, TF_NOTRUNC,
				    TF_K_PRINTF, NULL, NULL);
		}
	}
	return 0;
}
