/*
 * output.c: what condor_q prints around its rows: the title of each
 * queue, the summary lines, and the column widths HTCondor fits to the
 * jobs (queue.cpp: print_full_header, print_full_footer,
 * fixup_std_column_widths, standard_summary2/3).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cq.h"
#include "ks_mem.h"

void cq_print_title(struct classad_buf *out, const char *label, long long when)
{
	time_t t = (time_t)when;
	struct tm tm;
	char stamp[64] = "";
	if (localtime_r(&t, &tm))
		strftime(stamp, sizeof stamp, " @ %m/%d/%y %H:%M:%S", &tm);
	classad_buf_printf(out, "\n\n-- %s%s\n", label, stamp);
}

/* One summary line: "LABEL: %d jobs; %d completed, %d removed, %d
 * idle, %d running, %d held, %d suspended".  HTCondor prints the lines as
 * columns of one print mask, each at least as wide as its attribute's
 * name and separated by a space; a line after the first begins with the
 * newline its first column's format holds.  A missing count leaves its
 * column blank, newline included: a file of jobs, which has no "all
 * users" counts, gets one line and a row of spaces. */
static void cq_summary_line(struct classad_buf *out, const classad *ad,
			    const char *prefix, const char *label, bool first)
{
	static const struct {
		const char *attr, *fmt;
		int width; /* the width of the column's name */
	} cols[] = {
		{"Jobs", "%lld jobs;", 4},
		{"Completed", "%lld completed,", 9},
		{"Removed", "%lld removed,", 7},
		{"Idle", "%lld idle,", 4},
		{"Running", "%lld running,", 7},
		{"Held", "%lld held,", 4},
		{"Suspended", "%lld suspended", 9},
	};
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		char attr[64];
		snprintf(attr, sizeof attr, "%s%s", prefix, cols[i].attr);
		if (i > 0 || !first)
			tf_buf_addc(out, ' ');
		size_t start = out->len;
		long long v;
		if (tf_ad_int(ad, attr, &v)) {
			if (i == 0)
				classad_buf_printf(out, "%s%s: ", first ? "" : "\n",
						   label);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			classad_buf_printf(out, cols[i].fmt, v);
#pragma GCC diagnostic pop
		}
		size_t len = out->len - start;
		if (len < (size_t)cols[i].width)
			tf_buf_pad(out, ' ', (size_t)cols[i].width - len);
	}
}

void cq_print_summary(struct classad_buf *out, const classad *summary,
		      const char *me)
{
	cq_summary_line(out, summary, "", "Total for query", true);
	if (me) {
		struct classad_buf label = {0};
		classad_buf_printf(&label, "Total for %s", me);
		cq_summary_line(out, summary, "My", tf_buf_str(&label), false);
		tf_buf_free(&label);
	}
	cq_summary_line(out, summary, "Allusers", "Total for all users", false);
	tf_buf_addc(out, '\n');
}

static int cq_digits(long long v)
{
	char buf[32];
	return snprintf(buf, sizeof buf, "%lld", v);
}

void cq_fit_job_columns(struct tf_mask *m, const struct cq_job *jobs,
			size_t n, int display_width)
{
	if (m->n < 3 || strcmp(m->cols[0].expr, "ClusterId") != 0)
		return;
	int max_cluster = 0, max_proc = 0, longest = 0;
	double max_mem = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cq_job *j = &jobs[i];
		if (j->cluster > max_cluster)
			max_cluster = j->cluster;
		if (j->proc > max_proc)
			max_proc = j->proc;
		size_t len = 0;
		if (j->row.n > 2 && j->row.valid[2] &&
		    classad_value_str(&j->row.v[2], &len) && (int)len > longest)
			longest = (int)len;
		for (size_t c = 0; c < m->n && c < j->row.n; c++) {
			double mb;
			if (strcmp(m->cols[c].expr, "ImageSize") == 0 &&
			    j->row.valid[c] && tf_value_real(&j->row.v[c], &mb) &&
			    mb > max_mem)
				max_mem = mb;
		}
	}
	if (max_cluster < 9999 && max_proc < 999 && longest <= 14)
		return;
	int cw = cq_digits(max_cluster), pw = cq_digits(max_proc);
	char f[16];
	if (cw > 4 && cw <= 9) {
		snprintf(f, sizeof f, "%%%dd.", cw);
		free(m->cols[0].printf);
		m->cols[0].printf = ks_xstrdup(f);
		m->cols[0].width = cw + 1;
	}
	if (pw > 3 && pw <= 9) {
		snprintf(f, sizeof f, "%%-%dd", pw);
		free(m->cols[1].printf);
		m->cols[1].printf = ks_xstrdup(f);
		m->cols[1].width = pw;
	}
	/* a long owner widens its column only on a terminal, up to what
	 * the terminal has beyond 80 columns */
	if (display_width > 0 && longest > 14) {
		int max_name = 14 + (display_width - 80);
		int wid = longest < max_name ? longest : max_name;
		if (wid > m->cols[2].width)
			m->cols[2].width = wid;
	}
	for (size_t c = 0; c < m->n; c++) {
		if (strcmp(m->cols[c].expr, "ImageSize") != 0)
			continue;
		char buf[64];
		int wid = snprintf(buf, sizeof buf, "%.1f", max_mem);
		if (wid > m->cols[c].width)
			m->cols[c].width = wid;
	}
}

void cq_trim_row(struct classad_buf *out, size_t row_start)
{
	if (out->len <= row_start || out->data[out->len - 1] != '\n')
		return;
	size_t end = out->len - 1, p = end;
	while (p > row_start && (out->data[p - 1] == ' ' ||
				 out->data[p - 1] == '\t'))
		p--;
	if (p < end) {
		out->data[p] = '\n';
		tf_buf_truncate(out, p + 1);
	}
}

void cq_count_job(struct cq_counts *c, const classad *ad)
{
	/* a cluster's own ad (no ProcId) is not a job */
	if (!classad_lookup(ad, "ProcId"))
		return;
	long long status = 0, universe = 5;
	tf_ad_int(ad, "JobStatus", &status);
	tf_ad_int(ad, "JobUniverse", &universe);
	if (status == 6) /* transferring output counts as running */
		status = 2;
	long *scheduler[] = {&c->sched_idle, &c->sched_running,
			     &c->sched_removed, &c->sched_completed,
			     &c->sched_held};
	long *other[] = {&c->idle, &c->running, &c->removed, &c->completed,
			 &c->held};
	if (universe == 7) {
		if (status >= 1 && status <= 5)
			(*scheduler[status - 1])++;
	} else if (status >= 1 && status <= 5) {
		(*other[status - 1])++;
	} else if (status == 7) {
		c->suspended++;
	}
}

classad *cq_counts_ad(const struct cq_counts *c)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Summary");
	classad_insert_int(ad, "Jobs", c->idle + c->running + c->held +
					       c->removed + c->completed +
					       c->suspended);
	classad_insert_int(ad, "Idle", c->idle);
	classad_insert_int(ad, "Running", c->running);
	classad_insert_int(ad, "Held", c->held);
	classad_insert_int(ad, "Removed", c->removed);
	classad_insert_int(ad, "Completed", c->completed);
	classad_insert_int(ad, "Suspended", c->suspended);
	classad_insert_int(ad, "SchedulerJobs",
			   c->sched_idle + c->sched_running + c->sched_held +
				   c->sched_removed + c->sched_completed);
	classad_insert_int(ad, "SchedulerIdle", c->sched_idle);
	classad_insert_int(ad, "SchedulerRunning", c->sched_running);
	classad_insert_int(ad, "SchedulerHeld", c->sched_held);
	classad_insert_int(ad, "SchedulerRemoved", c->sched_removed);
	classad_insert_int(ad, "SchedulerCompleted", c->sched_completed);
	return ad;
}
