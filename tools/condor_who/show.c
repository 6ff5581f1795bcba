/*
 * show.c: how condor_who prints the slots a startd says run jobs.
 *
 * The default table is HTCondor 25's (who.cpp's standard print format):
 *   OWNER  CLIENT  SLOT  JOB  RUNTIME  PID  JOB_DIR
 * each column at least as wide as its heading, growing to its widest
 * value (a first pass over the rows, before the headings), text to the
 * left and numbers to the right; RUNTIME as d+hh:mm:ss; PID the job's
 * process and JOB_DIR its directory, read from this machine's /proc.
 * Above it, the banner HTCondor prints for each startd asked:
 *   --Startd : <host> has <n> job(s) running:
 * and a blank line after it.  -af and -format replace the table (the
 * banner comes only when -af:h gives headings); -long prints the ads.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ks_mem.h"
#include "who.h"

/* The default table: expression, heading, custom format (PRINTAS). */
static const struct {
	const char *expr, *head, *custom;
} std_cols[] = {
	{"RemoteOwner", "OWNER", NULL},
	{"ClientMachine", "CLIENT", NULL},
	{"SlotID", "SLOT", "SLOT_ID"},
	{"JobId", "JOB", NULL},
	{"TotalJobRunTime", "  RUNTIME", "RUNTIME"},
	{"JobId", "PID", "JOB_PID"},
	{"JobId", "JOB_DIR", "JOB_DIR"},
};

/* What HTCondor's tool always asks the startd for with its table. */
static const char always[] =
	"JobPid StarterPid ClusterId ProcId CondorScratchDir";

/* The banner's one field: the host part of the slot's name. */
static const char banner_expr[] = "splitslotname(Name ?: RemoteHost)[1]";

static const struct tf_custom *custom_find(const char *name)
{
	const struct tf_custom *cu = who_custom_find(name);
	return cu ? cu : tf_custom_find(name);
}

/* Adds one column shown through custom format cu (NULL: none) with
 * printf format fmt (NULL: none). */
static void add_col(struct who_show *sh, const char *expr, const char *head,
		    int width, const struct tf_custom *cu, const char *fmt)
{
	struct tf_col *c = tf_mask_add(&sh->m, expr, head, fmt, width,
				       TF_AUTOW | TF_NOTRUNC,
				       cu ? cu->kind : TF_K_PRINTF,
				       cu ? cu->render : NULL,
				       cu ? cu->format : NULL);
	c->extra = cu ? cu->extra : NULL;
	tf_names_add_expr(&sh->proj, expr);
	if (cu && cu->extra)
		tf_names_add_expr(&sh->proj, cu->extra);
}

/* An -af column "#NAME": HTCondor's print-format line for it ("JobPid
 * RENDERAS JOB_PID", "TotalJobRunTime PRINTAS TIME", ...), laid out as
 * -af lays out its columns: under a heading (the attribute's name), after
 * a label, or neither, at least as wide as the attribute's name. */
static void add_af_custom(struct who_show *sh, const char *opts,
			  const char *expr, const char *custom)
{
	const struct tf_custom *cu = custom_find(custom);
	bool heads = sh->m.has_headings, label = false;
	const char *deffmt = "%v";
	for (const char *p = opts ? opts : ""; *p; p++) {
		switch (*p) {
		case 'h': heads = true; break;
		case 'l': label = true; break;
		default: break;
		}
	}
	/* the default format, chosen as -af chooses it */
	if (opts && (strchr(opts, 'r') || strchr(opts, 'o')))
		deffmt = "%r";
	else if (opts && strchr(opts, 'V'))
		deffmt = "%V";
	else if (opts && strchr(opts, 'Y'))
		deffmt = "%Y";
	else if (opts && strchr(opts, 'T'))
		deffmt = "%T";
	/* PRINTAS (TIME) takes the custom format's printf; RENDERAS keeps
	 * the default unless the custom format has one */
	const char *fmt = !cu ? deffmt
			  : strcmp(custom, "TIME") == 0 ? cu->printf
			  : cu->printf ? cu->printf
				       : deffmt;
	if (label) {
		struct classad_buf f = {0};
		classad_buf_printf(&f, "%s = %s", expr, fmt ? fmt : "%s");
		add_col(sh, expr, NULL, 0, cu, tf_buf_str(&f));
		tf_buf_free(&f);
		return;
	}
	add_col(sh, expr, heads ? expr : NULL, -(int)strlen(expr), cu, fmt);
}

/* One -af: runs of plain expressions go to the shared -af code, the
 * "#NAME" columns are condor_who's own. */
static int add_af(struct who_show *sh, const struct who_item *it, FILE *err)
{
	/* the job id column of 'j' comes once, first */
	char rest[32] = "";
	const char *opts = it->opts;
	if (opts) {
		size_t k = 0;
		for (const char *p = opts; *p && k + 1 < sizeof(rest); p++)
			if (*p != 'j')
				rest[k++] = *p;
		rest[k] = '\0';
	}
	if (tf_af_add(&sh->m, opts, 0, NULL, &sh->proj, err))
		return 1;
	for (int i = 0; i < it->argc;) {
		const char *a = it->argv[i], *expr, *custom;
		if (a[0] == '#' && who_af_column(a + 1, &expr, &custom)) {
			add_af_custom(sh, opts ? rest : NULL, expr, custom);
			i++;
			continue;
		}
		int j = i;
		while (j < it->argc &&
		       !(it->argv[j][0] == '#' &&
			 who_af_column(it->argv[j] + 1, &expr, &custom)))
			j++;
		if (tf_af_add(&sh->m, opts ? rest : NULL, j - i, it->argv + i,
			      &sh->proj, err))
			return 1;
		i = j;
	}
	return 0;
}

/* The terminal's width (HTCondor asks its standard output), 1000 when
 * it is not one, or -wide:N. */
static int display_width(const struct who_opts *o, FILE *out)
{
	if (o->forced_width > 0)
		return o->forced_width;
	struct winsize ws;
	int fd = fileno(out);
	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 1000;
}

int who_show_init(struct who_show *sh, const struct who_opts *o, FILE *out,
		  FILE *err)
{
	*sh = (struct who_show){.o = o};
	if (o->daemons || o->dash_long)
		return 0;
	tf_names_add(&sh->proj, "JobId");
	if (o->nitems == 0) {
		tf_mask_set_seps(&sh->m, NULL, " ", NULL, "\n");
		for (size_t i = 0; i < sizeof(std_cols) / sizeof(std_cols[0]);
		     i++) {
			/* PRINTAS: the custom format's printf, if any */
			const struct tf_custom *cu =
				std_cols[i].custom
					? custom_find(std_cols[i].custom)
					: NULL;
			add_col(sh, std_cols[i].expr, std_cols[i].head,
				-(int)strlen(std_cols[i].head), cu,
				cu ? cu->printf : "%v");
		}
		tf_names_add_expr(&sh->proj, always);
	}
	for (size_t i = 0; i < o->nitems; i++) {
		const struct who_item *it = &o->items[i];
		int rc = it->af ? add_af(sh, it, err)
				: tf_format_add(&sh->m, it->fmt, it->expr,
						&sh->proj, err);
		if (rc)
			return 1;
	}
	tf_mask_set_seps(&sh->banner, "", "", "\n", "");
	tf_mask_add(&sh->banner, banner_expr, NULL, "--Startd : %v", 0,
		    TF_AUTOW | TF_NOTRUNC, TF_K_PRINTF, NULL, NULL);
	tf_names_add_expr(&sh->proj, banner_expr);
	/* rows of one line are cut at the screen's width */
	bool per_line = (sh->m.col_suffix && strchr(sh->m.col_suffix, '\n')) ||
			(sh->m.col_prefix && strchr(sh->m.col_prefix, '\n'));
	if (!o->wide && sh->m.n && !per_line)
		sh->m.overall_width = display_width(o, out) - 1;
	return 0;
}

void who_show_free(struct who_show *sh)
{
	tf_mask_free(&sh->m);
	tf_mask_free(&sh->banner);
	tf_names_clear(&sh->proj);
}

void who_show_ads(struct who_show *sh, classad *const *ads, size_t n,
		  FILE *out)
{
	struct classad_buf b = {0};
	if (sh->o->dash_long) {
		for (size_t i = 0; i < n; i++)
			tf_long_text(&b, TF_LONG_OLD, ads[i], NULL, 0);
		fputs(tf_buf_str(&b), out);
		tf_buf_free(&b);
		return;
	}
	if (!n)
		return;
	/* every row once, for the widths the headings take */
	struct tf_row row = {0};
	for (size_t i = 0; i < n; i++) {
		tf_mask_render(&sh->m, ads[i], &row);
		tf_mask_display(&sh->m, &row, &b);
		tf_buf_truncate(&b, 0);
	}
	if (sh->m.has_headings) {
		tf_mask_render(&sh->banner, ads[0], &row);
		tf_mask_display(&sh->banner, &row, &b);
		classad_buf_printf(&b, " has %zu job(s) running:\n", n);
		fputc('\n', out);
		fputs(tf_buf_str(&b), out);
		tf_buf_truncate(&b, 0);
		tf_mask_headings(&sh->m, &b);
	}
	for (size_t i = 0; i < n; i++) {
		tf_mask_render(&sh->m, ads[i], &row);
		tf_mask_display(&sh->m, &row, &b);
	}
	if (sh->m.has_headings)
		tf_buf_addc(&b, '\n');
	fputs(tf_buf_str(&b), out);
	tf_row_free(&row);
	tf_buf_free(&b);
}
