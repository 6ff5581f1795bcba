/* daemon.c: the daemon skeleton's life cycle (ks_daemon.h). */
#define _GNU_SOURCE /* pipe2 */
#include "daemon_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_daemon_name.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_token.h"
#include "ks_version.h"
#include "ks_wire.h"

long ks_daemon_int(const ks_daemon *d, const char *name, long def)
{
	int64_t v;
	return ks_config_int(d->cfg, name, &v) ? (long)v : def;
}

static int load_config(ks_daemon *d, ks_config **out, struct ks_err *err)
{
	*out = NULL;
	ks_config *cfg = ks_config_load_new(d->subsys, d->local_name, err);
	if (!cfg)
		return err->code ? err->code : KS_EINVAL;
	int rc = kd_runtime_apply(d, cfg, err);
	if (rc) {
		ks_config_free(cfg);
		return rc;
	}
	*out = cfg;
	return 0;
}

/* The address file names the daemon to local tools.  One that cannot be
 * written (a full disk) must not go on naming an earlier life's address:
 * it is removed, so that tools ask the collector instead, and written
 * again every few seconds until it can be. */
static void on_address_retry(void *arg);

static void write_address_file(ks_daemon *d)
{
	d->priv->address_timer = 0;
	char knob[64];
	snprintf(knob, sizeof(knob), "%s_ADDRESS_FILE", d->subsys);
	free(d->priv->address_file);
	d->priv->address_file = ks_config_get(d->cfg, knob, NULL);
	if (!d->priv->address_file)
		return;
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.new", d->priv->address_file);
	FILE *f = fopen(tmp, "w");
	bool ok = f && fprintf(f, "%s\n%s\n%s\n", d->sinful, KS_CONDOR_VERSION,
			       KS_CONDOR_PLATFORM) >= 0;
	int e = errno;
	if (f && fclose(f) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(tmp, d->priv->address_file) != 0) {
		ok = false;
		e = errno;
	}
	if (ok)
		return;
	unlink(tmp);
	unlink(d->priv->address_file);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "cannot write address file %s: %s; removed it (tools "
		      "ask the collector) and trying again in 5 s",
		      d->priv->address_file, strerror(e));
	if (d->loop)
		d->priv->address_timer =
			ks_loop_timer(d->loop, 5000, 0, on_address_retry, d);
}

static void on_address_retry(void *arg)
{
	write_address_file(arg);
}

/* The attributes every daemon ad carries. */
static void common_attrs(ks_daemon *d, classad *ad)
{
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	if (!classad_lookup(ad, "Name"))
		classad_insert_string(ad, "Name", d->name);
	classad_insert_string(ad, "Machine", host);
	classad_insert_string(ad, "MyAddress", d->sinful);
	classad_insert_int(ad, "DaemonStartTime", d->start_time);
	classad_insert_int(ad, "MyCurrentTime", (int64_t)time(NULL));
	classad_insert_string(ad, "CondorVersion", KS_CONDOR_VERSION);
	classad_insert_string(ad, "CondorPlatform", KS_CONDOR_PLATFORM);
}

/* An update's failure: logged (at start-up, when the collector the master
 * started at the same moment may not listen yet, the first quick retries
 * only at D_FULLDEBUG). */
static void update_failed(ks_daemon *d, int code, const char *why)
{
	ks_log_printf(d->log, d->priv->retries < 3 ? KS_D_FULLDEBUG
						   : KS_D_ALWAYS,
		      "cannot send %s to the collector: %s",
		      ks_command_name(code), why);
}

/* Sends ads in one message, waited for: the invalidation a daemon sends
 * as it exits, after its loop has ended.  (Everything else goes through
 * the loop: post.c.) */
static int send_to_collector(ks_daemon *d, int code, classad *const *ads,
			     size_t n, unsigned flags)
{
	struct ks_err err;
	char *addr = NULL;
	ks_conn *c = NULL;
	int rc = ks_collector_addr(d->cfg, NULL, &addr, &err);
	if (rc == 0)
		rc = ks_conn_open(d->cfg, addr, KD_COLLECTOR_TIMEOUT_MS, &c, &err);
	if (rc == 0)
		rc = ks_conn_send(c, code, ads, n, flags, &err);
	if (rc == 0)
		rc = ks_conn_flush(c, &err);
	if (rc)
		update_failed(d, code, err.msg);
	ks_conn_close(c);
	free(addr);
	return rc;
}

int ks_daemon_send(ks_daemon *d, int code, classad *const *ads, size_t n)
{
	struct ks_err err;
	char *addr = NULL;
	int rc = ks_collector_addr(d->cfg, NULL, &addr, &err);
	free(addr);
	if (rc) {
		update_failed(d, code, err.msg);
		return rc;
	}
	classad **mine = ks_xmalloc((n ? n : 1) * sizeof(*mine));
	for (size_t i = 0; i < n; i++)
		mine[i] = classad_ref(ads[i]);
	kd_post(d, code, mine, n, 0, false);
	return 0;
}

static void on_update(void *arg);

static void on_retry(void *arg)
{
	ks_daemon *d = arg;
	d->priv->retry_timer = 0;
	ks_daemon_update_collector(d);
}

/* The daemon's ads for the collector (new array of new ads); n of them. */
static classad **daemon_ads(ks_daemon *d, size_t *n)
{
	classad **ads = NULL;
	*n = 0;
	if (d->ops->make_ads) {
		*n = d->ops->make_ads(d, &ads);
	} else if (d->ops->make_ad) {
		classad *ad = d->ops->make_ad(d);
		if (ad) {
			ads = ks_xmalloc(sizeof(*ads));
			ads[0] = ad;
			*n = 1;
		}
	}
	return ads;
}

static void free_ads(classad **ads, size_t n)
{
	for (size_t i = 0; i < n; i++)
		classad_free(ads[i]);
	free(ads);
}

classad **kd_public_ads(ks_daemon *d, size_t *n)
{
	size_t all;
	classad **ads = daemon_ads(d, &all);
	size_t step = d->ops->paired_ads ? 2 : 1, k = 0;
	for (size_t i = 0; i < all; i++) {
		if (i % step) {
			classad_free(ads[i]); /* a private ad: claim ids */
			continue;
		}
		common_attrs(d, ads[i]);
		ads[k++] = ads[i];
	}
	*n = k;
	return ads;
}

static void retry_update(ks_daemon *d)
{
	/* At start-up the collector may not be listening yet (the master
	 * starts it a moment before the others): try again soon rather than
	 * a whole interval later, after 25 ms and then twice as long each
	 * time up to a second (a flat second made one start in ten list its
	 * slots a second late). */
	if (d->priv->retries < 30 && !d->priv->retry_timer) {
		int64_t wait = d->priv->retries < 6 ? 25 << d->priv->retries
						    : 1000;
		d->priv->retries++;
		d->priv->retry_timer = ks_loop_timer(d->loop, wait, 0,
						     on_retry, d);
	}
}

void kd_posted(ks_daemon *d, int code, bool update, int rc, const char *why)
{
	if (rc)
		update_failed(d, code, why);
	if (update && rc == 0)
		d->priv->retries = 0;
	else if (update)
		retry_update(d);
}

/* The update's marks: its sequence number and what every ad carries. */
static void stamp(ks_daemon *d, classad **ads, size_t n)
{
	++d->priv->seq;
	size_t step = d->ops->paired_ads ? 2 : 1;
	for (size_t i = 0; i < n; i += step) {
		common_attrs(d, ads[i]);
		classad_insert_int(ads[i], "UpdateSequenceNumber", d->priv->seq);
	}
}

classad **kd_update_ads(ks_daemon *d, size_t *n)
{
	classad **ads = daemon_ads(d, n);
	stamp(d, ads, *n);
	return ads;
}

/* Sends ads (new array of new ads, taken) as the daemon's update. */
static void send_update(ks_daemon *d, classad **ads, size_t n)
{
	if (!n) {
		free(ads);
		return;
	}
	stamp(d, ads, n);
	kd_post(d, d->ops->update_code, ads, n,
		d->ops->paired_ads ? KS_WIRE_PAIRED : 0, true);
}

void ks_daemon_update_collector(ks_daemon *d)
{
	/* (UPDATE_STARTD_AD is code 0: the ads function says whether there
	 * is anything to send) */
	if (!d->ops->make_ad && !d->ops->make_ads)
		return;
	size_t n;
	classad **ads = daemon_ads(d, &n);
	send_update(d, ads, n);
}

static void on_changed(void *arg)
{
	ks_daemon *d = arg;
	d->priv->changed_timer = 0;
	classad **ads = NULL;
	size_t n = d->ops->make_changed_ads(d, &ads);
	if (n)
		send_update(d, ads, n);
	else
		free(ads);
}

void ks_daemon_update_changed(ks_daemon *d)
{
	if (!d->ops->make_changed_ads) {
		ks_daemon_update_collector(d);
		return;
	}
	if (d->priv->changed_timer)
		return;
	/* As HTCondor's startd (a one-second timer, whole seconds): the
	 * changes up to the next second of the clock go in one update, so
	 * a short job's claim, start and end cost the collector one ad,
	 * not three. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	d->priv->changed_timer = ks_loop_timer(
		d->loop, 1000 - ts.tv_nsec / 1000000, 0, on_changed, d);
}

static void on_update(void *arg)
{
	ks_daemon_update_collector(arg);
}

void ks_daemon_invalidate(ks_daemon *d)
{
	if ((!d->ops->make_ad && !d->ops->make_ads) || d->priv->invalidated)
		return;
	d->priv->invalidated = true;
	size_t n;
	classad **ads = daemon_ads(d, &n);
	/* one query per (public) ad, by its name, as HTCondor's daemons send
	 * them */
	size_t step = d->ops->paired_ads ? 2 : 1, nq = 0;
	classad **qs = ks_xmalloc((n ? n : 1) * sizeof(*qs));
	for (size_t i = 0; i < n; i += step) {
		char *type = NULL, *name = NULL;
		classad_eval_string(ads[i], "MyType", NULL, &type);
		if (!classad_eval_string(ads[i], "Name", NULL, &name))
			name = ks_xstrdup(d->name);
		classad *q = qs[nq++] = classad_new();
		classad_insert_string(q, "MyType", "Query");
		classad_insert_string(q, "TargetType", type ? type : "Any");
		classad_insert_string(q, "Name", name);
		classad_insert_string(q, "MyAddress", d->sinful);
		struct classad_buf req = {0};
		classad_buf_add(&req, "TARGET.Name == ", 15);
		classad_quote_string_buf(&req, name, strlen(name));
		classad_insert_text(q, "Requirements", req.data, NULL);
		free(req.data);
		free(type);
		free(name);
	}
	if (nq)
		send_to_collector(d, d->ops->invalidate_code, qs, nq, 0);
	free_ads(qs, nq);
	free_ads(ads, n);
}

static void schedule_updates(ks_daemon *d)
{
	ks_loop_cancel(d->loop, d->priv->update_timer);
	d->priv->update_timer = 0;
	if (!d->ops->make_ad && !d->ops->make_ads)
		return;
	char knob[64];
	snprintf(knob, sizeof(knob), "%s_UPDATE_INTERVAL", d->subsys);
	long every = ks_daemon_int(d, knob, ks_daemon_int(d, "UPDATE_INTERVAL",
							  300));
	if (every < 1)
		every = 1;
	d->priv->update_timer = ks_loop_timer(d->loop, 0, every * 1000,
					      on_update, d);
}

/* The authorization lists of cfg; one that cannot be read is logged. */
static ks_authz *authz_new(ks_daemon *d, const ks_config *cfg)
{
	ks_authz *a = ks_authz_new(cfg, d->subsys, d->owner);
	const char *p;
	for (size_t i = 0; (p = ks_authz_problem(a, i)); i++)
		ks_log_printf(d->log, KS_D_ALWAYS, "%s", p);
	return a;
}

int ks_daemon_reconfig(ks_daemon *d)
{
	struct ks_err err;
	ks_config *cfg;
	int rc = load_config(d, &cfg, &err);
	if (rc) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "reconfig failed, keeping the old configuration: "
			      "%s", err.msg);
		return rc;
	}
	ks_config *old = d->cfg;
	d->cfg = cfg;
	if (ks_log_reconfig(d->log, cfg, &err))
		ks_log_printf(d->log, KS_D_ALWAYS, "log unchanged: %s",
			      err.msg);
	ks_authz_free(d->authz);
	d->authz = authz_new(d, cfg);
	ks_config_free(old);
	kd_identity_forget(d);
	ks_log_printf(d->log, KS_D_ALWAYS, "reconfigured");
	if (d->ops->reconfig)
		d->ops->reconfig(d);
	schedule_updates(d);
	return 0;
}

/* The daemon's last requests (a schedd's RELEASE_CLAIMs at shutdown)
 * go out before it ends: it waits for them, each bounded by its own
 * deadline, and at most EXIT_WAIT_MS in all. */
#define EXIT_WAIT_MS 10000

static void exit_when_quiet(void *arg)
{
	ks_daemon *d = arg;
	if (ks_calls_count(d->calls) == 0 ||
	    ks_clock_ms() >= d->priv->exit_by) {
		if (ks_calls_count(d->calls))
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "exiting with %zu requests to other "
				      "daemons unanswered",
				      ks_calls_count(d->calls));
		ks_loop_stop(d->loop);
	}
}

void ks_daemon_exit(ks_daemon *d)
{
	if (ks_calls_count(d->calls) == 0) {
		ks_loop_stop(d->loop);
		return;
	}
	if (d->priv->exit_by)
		return;
	d->priv->exit_by = ks_clock_ms() + EXIT_WAIT_MS;
	ks_loop_timer(d->loop, 10, 10, exit_when_quiet, d);
}

void ks_daemon_shutdown(ks_daemon *d, bool fast)
{
	if (d->shutting_down && !fast)
		return;
	d->shutting_down = true;
	if (fast)
		d->peaceful = false;
	ks_log_printf(d->log, KS_D_ALWAYS, "got %s shutdown",
		      fast ? "fast" : d->peaceful ? "peaceful" : "graceful");
	if (d->ops->shutdown)
		d->ops->shutdown(d, fast);
	else
		ks_daemon_exit(d);
}

static void on_signal(void *arg, int signo)
{
	ks_daemon *d = arg;
	if (signo == SIGHUP) {
		ks_daemon_reconfig(d);
		return;
	}
	/* SIGUSR2: the master's peaceful off */
	if (signo == SIGUSR2 && !d->shutting_down)
		d->peaceful = true;
	ks_daemon_shutdown(d, signo != SIGTERM && signo != SIGUSR2);
}

/* ---- commands every daemon serves ------------------------------------ */

static void cmd_reconfig(ks_daemon *d, struct ks_request *req)
{
	int rc = ks_daemon_reconfig(d);
	if (rc)
		ks_reply_error(req, "reconfig failed; see the %s log",
			       d->subsys);
	else
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

static void cmd_off(ks_daemon *d, struct ks_request *req)
{
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	if (req->code == KS_DC_OFF_PEACEFUL && !d->shutting_down)
		d->peaceful = true;
	ks_daemon_shutdown(d, req->code == KS_DC_OFF_FAST);
}

static void cmd_nop(ks_daemon *d, struct ks_request *req)
{
	(void)d;
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

/* DC_CONFIG_VAL: the value of the knob named by the ad's Name, as this
 * daemon sees it (condor_config_val -name / -daemon). */
static void cmd_config_val(ks_daemon *d, struct ks_request *req)
{
	char *name = NULL;
	if (!req->n ||
	    !classad_eval_string(req->ads[0], "Name", NULL, &name)) {
		ks_reply_error(req, "DC_CONFIG_VAL needs an ad with Name");
		return;
	}
	classad *ad = classad_new();
	struct ks_config_origin o;
	const char *raw = ks_config_raw(d->cfg, name, &o);
	struct ks_err err = {0};
	char *val = raw ? ks_config_get(d->cfg, name, &err) : NULL;
	classad_insert_string(ad, "Name", name);
	if (raw && !val && err.code) {
		/* a value that does not expand (a loop) is no value */
		classad_insert_string(ad, "Error", err.msg);
		classad_insert_string(ad, "Raw", raw);
	} else if (raw) {
		classad_insert_string(ad, "Value", val ? val : "");
		classad_insert_string(ad, "Raw", raw);
		classad_insert_string(ad, "File", o.file ? o.file : "");
		classad_insert_int(ad, "Line", o.line);
	}
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
	free(val);
	free(name);
}

static const struct ks_command_def builtin_cmds[] = {
	{KS_DC_RECONFIG, KS_LEVEL_ADMINISTRATOR, cmd_reconfig},
	{KS_DC_RECONFIG_FULL, KS_LEVEL_ADMINISTRATOR, cmd_reconfig},
	{KS_DC_OFF_GRACEFUL, KS_LEVEL_ADMINISTRATOR, cmd_off},
	{KS_DC_OFF_FAST, KS_LEVEL_ADMINISTRATOR, cmd_off},
	{KS_DC_OFF_PEACEFUL, KS_LEVEL_ADMINISTRATOR, cmd_off},
	{KS_DC_NOP, KS_LEVEL_READ, cmd_nop},
	{KS_DC_CONFIG_VAL, KS_LEVEL_READ, cmd_config_val},
	{KS_DC_CONFIG_PERSIST, KS_LEVEL_ADMINISTRATOR, kd_cmd_config_set},
	{KS_DC_CONFIG_RUNTIME, KS_LEVEL_ADMINISTRATOR, kd_cmd_config_set},
	{KS_QUERY_STARTD_ADS, KS_LEVEL_READ, kd_cmd_query_own},
};

/* ---- start-up --------------------------------------------------------- */

/* Forks; the child leaves the terminal's session and goes on, the parent
 * waits for its word (detached()) and exits with that status: so a
 * daemon refused its lock tells the terminal why and fails the command
 * that started it, and the lock is taken by the process that keeps it.
 * Returns 0 in the child with *word the descriptor to tell it on, -1 on
 * failure. */
static int daemonize(int *word)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		unsigned char status = 1;
		ssize_t r;
		do
			r = read(p[0], &status, 1);
		while (r < 0 && errno == EINTR);
		_exit(r == 1 ? status : 1);
	}
	close(p[0]);
	setsid();
	*word = p[1];
	return 0;
}

/* The daemon's start-up status for the parent of daemonize() (word -1:
 * none waits); once started, standard input and output and error leave
 * the terminal. */
static void detached(int word, int status)
{
	if (word < 0)
		return;
	if (status == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	unsigned char st = (unsigned char)status;
	if (write(word, &st, 1) != 1) {
		/* the parent is gone: nobody to tell */
	}
	close(word);
}

static int usage(const char *prog, const char *bad)
{
	fprintf(stderr,
		"%s: unknown or incomplete option '%s'\n"
		"Usage: %s [-f] [-t] [-p PORT] [-local-name NAME]\n"
		"  -f  stay in the foreground\n"
		"  -t  log to standard error instead of the log file\n"
		"  -p  command port (0: any)\n",
		prog, bad, prog);
	return 1;
}

static int parse_args(ks_daemon *d, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-f") == 0 || strcmp(a, "-foreground") == 0)
			d->priv->foreground = true;
		else if (strcmp(a, "-t") == 0)
			d->priv->to_stderr = true;
		else if (strcmp(a, "-b") == 0 || strcmp(a, "-background") == 0)
			d->priv->foreground = false;
		else if (strcmp(a, "-p") == 0 && i + 1 < argc)
			d->priv->want_port = atoi(argv[++i]);
		else if (strcmp(a, "-local-name") == 0 && i + 1 < argc)
			d->local_name = ks_xstrdup(argv[++i]);
		else
			return usage(argv[0], a);
	}
	return 0;
}

/* The collector listens where COLLECTOR_HOST says (port 0: any). */
static void collector_port(ks_daemon *d)
{
	char *host = ks_config_get(d->cfg, "COLLECTOR_HOST", NULL);
	struct ks_addr a;
	char *cur = host, *first = ks_list_cut(&cur);
	if (first) {
		if (ks_addr_parse(first, KS_DEFAULT_PORT, &a, NULL) == 0)
			d->priv->want_port = a.port;
	}
	free(host);
}

static void daemon_free(ks_daemon *d)
{
	ks_authz_free(d->authz);
	ks_log_close(d->log);
	kd_posts_free(d);
	ks_calls_free(d->calls);
	ks_loop_free(d->loop);
	ks_config_free(d->cfg);
	kd_sessions_free(d);
	kd_runtime_free(d);
	classad_cache_free(d->priv->cache);
	free(d->priv->address_file);
	free(d->priv);
	free(d->local_name);
	free(d->owner);
	free(d->condor_name);
	free(d->name);
}

int ks_daemon_main(int argc, char **argv, const char *subsys,
		   const struct ks_daemon_ops *ops,
		   const struct ks_command_def *cmds, size_t ncmds, void *ctx)
{
	kd_memory_setup();
	ks_daemon dd = {.subsys = subsys, .ops = ops, .ctx = ctx};
	ks_daemon *d = &dd;
	struct ks_err err;
	d->priv = ks_xcalloc(1, sizeof(*d->priv));
	d->priv->tcp_fd = d->priv->udp_fd = d->priv->unix_fd = -1;
	d->priv->parent_fd = -1;
	d->priv->want_port = -1;
	int status = 1;
	const char *tunables = getenv("GLIBC_TUNABLES");
	if (tunables && !strcmp(tunables, KS_DAEMON_TUNABLES))
		unsetenv("GLIBC_TUNABLES");
	if (parse_args(d, argc, argv))
		goto out;
	kd_parent_read(d);
	if (load_config(d, &d->cfg, &err)) {
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			err.msg);
		goto out;
	}
	if (d->priv->want_port < 0 && strcmp(subsys, "COLLECTOR") == 0)
		collector_port(d);
	if (d->priv->want_port < 0)
		d->priv->want_port = 0;
	/* started by root: the directories the pool needs, then the condor
	 * account's identity for everything else */
	if (kd_priv_ids(d, &err)) {
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			err.msg);
		goto out;
	}
	kd_priv_make_dirs(d);
	if (kd_priv_become_condor(d, &err)) {
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			err.msg);
		goto out;
	}
	/* Without -f a daemon goes to the background as HTCondor's do, once
	 * the configuration has been found good and its locks taken (errors
	 * still reach the terminal); -t keeps it attached, since its log is
	 * the terminal. */
	int word = -1;
	if (!d->priv->foreground && !d->priv->to_stderr && daemonize(&word)) {
		fprintf(stderr, "ERROR: the %s cannot go to the background: "
			"%s\n", subsys, strerror(errno));
		goto out;
	}
	/* Before the log, the sockets and the address file: a second
	 * instance on the same state must leave the first one's alone. */
	if (ops->lock && ops->lock(d, &err)) {
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			err.msg);
		status = err.code == KS_EEXIST ? KS_DAEMON_EXIT_LOCKED : 1;
		detached(word, status);
		goto out;
	}
	detached(word, 0);
	d->log = ks_log_open(d->cfg, subsys, d->priv->to_stderr, &err);
	if (!d->log) {
		fprintf(stderr, "ERROR: the %s cannot open its log: %s\n",
			subsys, err.msg);
		goto out;
	}
	/* The pool's signing key, made on the first start as HTCondor's
	 * collector makes it: then every daemon of the host can sign its
	 * own token for peers on other hosts. */
	if (strcmp(subsys, "COLLECTOR") == 0 || strcmp(subsys, "MASTER") == 0) {
		bool created = false;
		if (ks_token_pool_key_ensure(d->cfg, &created, &err))
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "no pool signing key: %s", err.msg);
		else if (created)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "created the pool signing key");
	}
	d->loop = ks_loop_new();
	d->calls = ks_calls_new(d->loop);
	d->owner = ks_auth_username((unsigned)geteuid());
	d->authz = authz_new(d, d->cfg);
	d->priv->cache = classad_cache_new();
	d->start_time = (long)time(NULL);
	d->name = ks_daemon_name(d->cfg, subsys, d->local_name);
	/* the daemon's table, then the skeleton's for codes it lacks */
	size_t total = ncmds + sizeof(builtin_cmds) / sizeof(builtin_cmds[0]);
	struct ks_command_def *all = ks_xmalloc(total * sizeof(*all));
	memcpy(all, cmds, ncmds * sizeof(*cmds));
	memcpy(all + ncmds, builtin_cmds, sizeof(builtin_cmds));
	d->cmds = all;
	d->ncmds = total;
	signal(SIGPIPE, SIG_IGN);
	ks_log_printf(d->log, KS_D_ALWAYS, "******************************************************");
	char lower[32];
	snprintf(lower, sizeof(lower), "%s", subsys);
	for (char *s = lower; *s; s++)
		*s = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
	ks_log_printf(d->log, KS_D_ALWAYS, "** condor_%s (kestrel) STARTING UP",
		      lower);
	/* as HTCondor's banner has it: condor_who reads a daemon's pid
	 * from its log */
	ks_log_printf(d->log, KS_D_ALWAYS, "** PID = %ld", (long)getpid());
	if (!d->loop || kd_server_start(d, &err)) {
		ks_log_printf(d->log, KS_D_ALWAYS, "ERROR: cannot start: %s",
			      d->loop ? err.msg : "no epoll");
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			d->loop ? err.msg : "no epoll");
		goto out_cmds;
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "** %s listening on %s", subsys,
		      d->sinful);
	int sigs[] = {SIGHUP, SIGTERM, SIGQUIT, SIGINT, SIGUSR2};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		ks_loop_signal(d->loop, sigs[i], on_signal, d);
	if (ops->start && ops->start(d, &err)) {
		ks_log_printf(d->log, KS_D_ALWAYS, "ERROR: cannot start: %s",
			      err.msg);
		fprintf(stderr, "ERROR: the %s cannot start: %s\n", subsys,
			err.msg);
		kd_server_stop(d);
		goto out_cmds;
	}
	write_address_file(d);
	schedule_updates(d);
	kd_parent_watch(d);
	ks_loop_run(d->loop);
	kd_parent_stop(d);
	ks_daemon_invalidate(d);
	if (d->priv->address_file)
		unlink(d->priv->address_file);
	kd_server_stop(d);
	ks_log_printf(d->log, KS_D_ALWAYS, "**** condor_%s (kestrel) pid %ld "
		      "EXITING WITH STATUS 0", lower, (long)getpid());
	status = 0;
out_cmds:
	free(all);
out:
	daemon_free(d);
	return status;
}
