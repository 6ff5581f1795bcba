/*
 * test_ulogread.c: the event log reader (common/ulogread) on text the
 * writer (common/userlog) formats, fed whole and in every split, and on
 * hand-written logs: partial lines, blank lines, both date forms, the
 * global log's header, and headers that are not headers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ks_ulogread.h"
#include "ks_userlog.h"

/* Formats the events of a small job's life with the writer. */
static char *writer_log(unsigned opts, size_t *len)
{
	struct ks_userlog_event ev;
	char *all = NULL;
	size_t n = 0;
	struct {
		enum ks_userlog_type type;
		int cluster, proc;
	} evs[] = {
		{KS_USERLOG_SUBMIT, 12, 0},   {KS_USERLOG_SUBMIT, 12, 1},
		{KS_USERLOG_EXECUTE, 12, 0},  {KS_USERLOG_TERMINATED, 12, 0},
		{KS_USERLOG_HELD, 12, 1},     {KS_USERLOG_ABORTED, 12, 1},
		{KS_USERLOG_SUBMIT, 12345, 7},
	};
	for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
		ks_userlog_event_init(&ev, evs[i].type, evs[i].cluster,
				      evs[i].proc);
		ev.time = 1795428672;
		ev.submit_host = "<127.0.0.1:9618?addrs=127.0.0.1-9618>";
		ev.execute_host = "<127.0.0.2:9619>";
		ev.slot_name = "slot1_1@host";
		ev.reason = "via condor_rm (by user alice)";
		char *text = NULL;
		size_t tl = 0;
		struct ks_err err = {0};
		assert_int_equal(ks_userlog_format(&ev, opts, &text, &tl, &err),
				 0);
		all = realloc(all, n + tl + 1);
		memcpy(all + n, text, tl);
		n += tl;
		free(text);
	}
	all[n] = '\0';
	*len = n;
	return all;
}

struct seen {
	int type[16], cluster[16], proc[16];
	char host[64];
	size_t n;
	size_t text_bytes;
};

/* Feeds text in pieces of `step` bytes and collects the events. */
static void read_in_steps(const char *text, size_t len, size_t step,
			  struct seen *s)
{
	ks_ulogread *r = ks_ulogread_new();
	struct ks_err err = {0};
	memset(s, 0, sizeof *s);
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;
		assert_int_equal(ks_ulogread_feed(r, text + off, n, &err), 0);
		struct ks_ulogread_event ev;
		int rc;
		while ((rc = ks_ulogread_next(r, &ev, &err)) == 1) {
			assert_true(s->n < 16);
			s->type[s->n] = ev.type;
			s->cluster[s->n] = ev.cluster;
			s->proc[s->n] = ev.proc;
			assert_int_equal(ev.subproc, 0);
			if (ev.type == 1)
				snprintf(s->host, sizeof s->host, "%s",
					 ks_ulogread_execute_host(&ev));
			/* the text is the event, "..." line included */
			assert_memory_equal(ev.text + ev.text_len - 4, "...\n",
					    4);
			s->text_bytes += ev.text_len;
			s->n++;
		}
		assert_int_equal(rc, 0);
	}
	ks_ulogread_free(r);
}

static void check_writer_log(unsigned opts)
{
	size_t len;
	char *text = writer_log(opts, &len);
	static const int types[] = {0, 0, 1, 5, 12, 9, 0};
	for (size_t step = 1; step <= len; step = step < 64 ? step + 1
							    : step * 2) {
		struct seen s;
		read_in_steps(text, len, step, &s);
		assert_int_equal(s.n, 7);
		for (size_t i = 0; i < 7; i++)
			assert_int_equal(s.type[i], types[i]);
		assert_int_equal(s.cluster[6], 12345);
		assert_int_equal(s.proc[6], 7);
		assert_int_equal(s.proc[1], 1);
		assert_string_equal(s.host, "<127.0.0.2:9619>");
		assert_int_equal(s.text_bytes, len);
	}
	free(text);
}

static void test_writer_iso(void **state)
{
	(void)state;
	check_writer_log(KS_USERLOG_ISO_DATE);
}

static void test_writer_legacy_utc_subsecond(void **state)
{
	(void)state;
	check_writer_log(0);
	check_writer_log(KS_USERLOG_ISO_DATE | KS_USERLOG_UTC |
			 KS_USERLOG_SUB_SECOND);
}

/* A partial event is not returned until its "..." line is whole. */
static void test_partial(void **state)
{
	(void)state;
	ks_ulogread *r = ks_ulogread_new();
	struct ks_err err = {0};
	struct ks_ulogread_event ev;
	const char *a = "005 (003.002.000) 11/23 10:11:12 Job terminated.\n"
			"\t(1) Normal termination (return value 0)\n..";
	assert_int_equal(ks_ulogread_feed(r, a, strlen(a), &err), 0);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 0);
	assert_int_equal(ks_ulogread_feed(r, ".", 1, &err), 0);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 0);
	assert_int_equal(ks_ulogread_feed(r, "\r\n", 2, &err), 0);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 1);
	assert_int_equal(ev.type, 5);
	assert_int_equal(ev.cluster, 3);
	assert_int_equal(ev.proc, 2);
	assert_string_equal(ev.date, "11/23 10:11:12");
	assert_string_equal(ev.what, "Job terminated.");
	assert_int_equal(ev.line, 1);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 0);
	ks_ulogread_free(r);
}

/* Blank lines between events, the global log's header (negative ids),
 * a header with nothing after the time, then a line that is no header:
 * that event is reported (KS_EPARSE) and skipped. */
static void test_odd_logs(void **state)
{
	(void)state;
	const char *log =
		"\n"
		"008 (-01.-01.-01) 11/23 10:11:12 Global JobLog: ctime=1    \n"
		"...\n"
		"  \n"
		"011 (7.0.0) 2026-11-23 10:11:12Z\n"
		"...\n"
		"not a header\n"
		"\tbody\n"
		"...\n"
		"009 (99999999999.0.0) 11/23 10:11:12 Job was aborted.\n"
		"...\n"
		"001 (8.1.0) 11/23 10:11:12 Job executing on host: <h:1>\n"
		"...\n";
	ks_ulogread *r = ks_ulogread_new();
	struct ks_err err = {0};
	struct ks_ulogread_event ev;
	assert_int_equal(ks_ulogread_feed(r, log, strlen(log), &err), 0);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 1);
	assert_int_equal(ev.type, 8);
	assert_int_equal(ev.cluster, -1);
	assert_int_equal(ev.subproc, -1);
	assert_int_equal(ev.line, 2);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 1);
	assert_int_equal(ev.type, 11);
	assert_int_equal(ev.cluster, 7);
	assert_string_equal(ev.what, "");
	assert_int_equal(ev.line, 5);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), KS_EPARSE);
	assert_int_equal(err.line, 7);
	/* a cluster id too large for an int is no header either */
	assert_int_equal(ks_ulogread_next(r, &ev, &err), KS_EPARSE);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 1);
	assert_int_equal(ev.type, 1);
	assert_string_equal(ks_ulogread_execute_host(&ev), "<h:1>");
	assert_int_equal(ev.line, 12);
	assert_int_equal(ks_ulogread_next(r, &ev, &err), 0);
	ks_ulogread_free(r);
}

/* An event that never ends may not grow without bound. */
static void test_too_long(void **state)
{
	(void)state;
	ks_ulogread *r = ks_ulogread_new();
	struct ks_err err = {0};
	size_t chunk = 1u << 16;
	char *junk = malloc(chunk);
	memset(junk, 'x', chunk);
	int rc = 0;
	for (size_t total = 0; rc == 0 && total <= KS_ULOGREAD_MAX_EVENT;
	     total += chunk)
		rc = ks_ulogread_feed(r, junk, chunk, &err);
	assert_int_equal(rc, KS_ERANGE);
	free(junk);
	ks_ulogread_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_iso),
		cmocka_unit_test(test_writer_legacy_utc_subsecond),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_odd_logs),
		cmocka_unit_test(test_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
