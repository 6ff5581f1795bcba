/*
 * main.c: condor_watch_q, as HTCondor 25's (src/condor_scripts/
 * condor_watch_q.in for the facts): finds the jobs' event logs once,
 * then each -interval reads what the logs gained and shows the table
 * again: redrawn in place in the terminal's alternate screen when
 * standard output is a terminal, else appended, each copy ended by a
 * "..." line.  It stops at ^C (status 0), at a key press when asked to
 * (on a terminal, by default), or when an -exit condition holds (with
 * that condition's status).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "wq.h"
#include "ks_clock.h"

#define ALT_SCREEN_ENTER "\033[?1049h\033[H"
#define ALT_SCREEN_EXIT "\033[?1049l"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Python's shutil.get_terminal_size(): COLUMNS and LINES win, then the
 * terminal of standard output, then 80x24. */
static void term_size(int *cols, int *lines)
{
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	*cols = c ? atoi(c) : 0;
	*lines = l ? atoi(l) : 0;
	if (*cols > 0 && *lines > 0)
		return;
	struct winsize ws = {0};
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
		ws.ws_col = 80, ws.ws_row = 24;
	if (*cols <= 0)
		*cols = ws.ws_col ? ws.ws_col : 80;
	if (*lines <= 0)
		*lines = ws.ws_row ? ws.ws_row : 24;
}

/* The terminal's state to put back, when keys are being listened for. */
struct keys {
	bool on;
	struct termios saved;
};

static void keys_listen(struct keys *k)
{
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &k->saved))
		return;
	struct termios t = k->saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == 0)
		k->on = true;
}

static void keys_restore(struct keys *k)
{
	if (k->on)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &k->saved);
	k->on = false;
}

/* Erases the previous copy of the text by writing blanks over it. */
static void erase(const char *prev)
{
	size_t nlines = 1;
	for (const char *p = prev; *p; p++)
		nlines += *p == '\n';
	printf("\033[%zuA\r", nlines);
	size_t col = 0;
	for (const char *p = prev;; p++) {
		if (*p == '\033' && p[1] == '[') {
			p += 2;
			while (*p && !(*p >= '@' && *p <= '~'))
				p++;
			if (!*p)
				break;
			continue;
		}
		if (*p == '\n' || *p == '\0') {
			printf("%*s\n", (int)col, "");
			col = 0;
			if (!*p)
				break;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80)
			col++;
	}
	printf("\033[%zuA\r", nlines);
}

/* Sleeps for secs, or until a key (when listening) or a signal. Returns
 * true when a key was pressed. */
static bool pause_for(double secs, const struct keys *k)
{
	double until = ks_clock_s() + secs;
	for (;;) {
		if (got_signal)
			return false;
		double left = until - ks_clock_s();
		if (left <= 0)
			return false;
		int ms = left > 1e6 ? 1000000000 : (int)ceil(left * 1000);
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		int rc = poll(&p, k->on ? 1 : 0, ms);
		if (rc > 0)
			return true;
	}
}

int main(int argc, char **argv)
{
	struct wq_opts o;
	int st = wq_parse_args(argc, argv, &o, stdout, stderr);
	if (st >= 0)
		return st;
	if (o.debug)
		fprintf(stderr, "WARNING: Debug mode enabled...\n");

	bool tty = isatty(STDOUT_FILENO);
	bool refresh = (o.refresh < 0 ? tty : o.refresh) && tty;
	bool color = (o.color < 0 ? tty : o.color) && tty;
	bool key_press = o.key_press < 0 ? tty : o.key_press;
	if (key_press && !isatty(STDIN_FILENO))
		key_press = false; /* no keyboard to listen to */

	struct wq_track t = {0};
	for (size_t i = 0; i < o.clusters.n; i++)
		wq_track_filter(&t, atoi(o.clusters.v[i]));
	t.has_since = o.has_since;
	t.since = o.since;
	t.decay_at_read = o.decay_at_read;

	struct wq_logs logs = {0};
	wq_find(&o, &t, &logs, stderr);
	wq_logs_open(&logs, stderr);
	if (o.debug)
		for (size_t i = 0; i < logs.n; i++)
			fprintf(stderr, "condor_watch_q: following %s\n",
				logs.v[i].path);
	if (logs.n == 0) {
		fprintf(stderr, "WARNING: No jobs found, exiting...\n");
		wq_logs_free(&logs);
		wq_track_free(&t);
		wq_opts_free(&o);
		return 0;
	}

	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	if (refresh) {
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		sigaction(SIGQUIT, &sa, NULL);
		fputs(ALT_SCREEN_ENTER, stdout);
		fflush(stdout);
	}
	struct keys keys = {0};
	if (key_press)
		keys_listen(&keys);

	char *home = getenv("HOME");
	char *cwd = getcwd(NULL, 0);
	char *prev = NULL;
	int status = 0;
	bool done = false;
	while (!done && !got_signal) {
		char *msgs = NULL;
		time_t now = time(NULL);
		wq_logs_read(&logs, &t, now, &msgs);
		char stamp[32];
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);

		struct wq_rows rows;
		wq_rows_make(&t, &o, now, home, cwd, &rows);
		struct wq_view v = {.color = color, .refresh = refresh,
				    .key_press = key_press, .updated = stamp};
		term_size(&v.columns, &v.lines);
		char *text = wq_render(&rows, &o, &v);
		wq_rows_free(&rows);

		if (refresh && prev)
			erase(prev);
		if (msgs) {
			for (char *line = strtok(msgs, "\n"); line;
			     line = strtok(NULL, "\n"))
				fprintf(stderr, "%s | %s\n", stamp, line);
			free(msgs);
		}
		printf("%s\n", text);
		fflush(stdout);
		free(prev);
		prev = text;

		for (size_t i = 0; i < o.nexits && !done; i++) {
			if (!wq_exit_holds(&t, &o.exits[i]))
				continue;
			/* back on the main screen first, so that the reason
			 * stays in sight */
			if (refresh)
				fputs(ALT_SCREEN_EXIT, stdout);
			refresh = false;
			printf("Exiting with code %d because of condition "
			       "\"%s\" at %s\n", o.exits[i].status,
			       o.exits[i].disp, stamp);
			status = o.exits[i].status;
			done = true;
		}
		if (!done && pause_for(o.interval, &keys))
			done = true;
	}
	keys_restore(&keys);
	if (refresh)
		fputs(ALT_SCREEN_EXIT, stdout);
	fflush(stdout);
	free(prev);
	free(cwd);
	wq_logs_free(&logs);
	wq_track_free(&t);
	wq_opts_free(&o);
	return status;
}
