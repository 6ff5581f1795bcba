/*
 * daemons.c: the daemons' tables of condor_who -daemons and -verbose,
 * laid out as HTCondor's tool lays them out, and the DC_CONFIG_VAL
 * questions that fill them: a daemon's PID when the master's log did not
 * give it, its PPID (which also tells that it answers), and the program
 * it runs (the value of its subsystem's knob, STARTD for the startd).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_proc.h"
#include "ks_wire.h"
#include "who.h"

char *who_daemon_param(const ks_config *cfg, const struct who_opts *o,
		       const char *addr, const char *name, FILE *err)
{
	if (o->no_config_val)
		return NULL;
	struct ks_err e = {0};
	ks_conn *c = NULL;
	if (ks_conn_open(cfg, addr, 0, &c, &e) != 0) {
		/* only a daemon that is not there is worth a word; one that
		 * will not talk to us is left to -debug */
		if (e.code == KS_ECONNECT || e.code == KS_ETIMEDOUT)
			fprintf(err, "Cannot connect to %s\n", addr);
		if (o->debug)
			fprintf(err, "%s\n", e.msg);
		return NULL;
	}
	classad *q = classad_new();
	classad_insert_string(q, "Name", name);
	int code = 0;
	classad **got = NULL;
	size_t n = 0;
	int rc = ks_conn_send(c, KS_DC_CONFIG_VAL, &q, 1, false, &e);
	if (rc == 0)
		rc = ks_conn_recv(c, &code, &got, &n, NULL, &e);
	classad_free(q);
	ks_conn_close(c);
	char *value = NULL;
	if (rc == 0 && code >= 0 && n > 0)
		classad_eval_string(got[0], "Value", NULL, &value);
	else if (o->debug)
		fprintf(err, "DC_CONFIG_VAL %s to %s: %s\n", name, addr,
			rc ? e.msg : "refused");
	ks_ads_free(got, n);
	return value;
}

void who_fill_pids(const ks_config *cfg, const struct who_opts *o,
		   struct who_logdir *l, FILE *err)
{
	for (size_t i = 0; i < l->n; i++) {
		struct who_daemon *d = &l->d[i];
		/* HTCondor's tool never asks the keyboard daemon; and one
		 * the master saw exit is not there to ask (kestrel's master
		 * does not log its own pid as it exits) */
		if (strcmp(d->name, "Kbdd") == 0 || d->pid[0] ||
		    !d->addr[0] || d->exit_code[0])
			continue;
		char *pid = who_daemon_param(cfg, o, d->addr, "PID", err);
		if (pid)
			snprintf(d->pid, sizeof(d->pid), "%s", pid);
		free(pid);
	}
}

void who_print_log_info(const struct who_logdir *l, FILE *out)
{
	static const char row[] = "%-12s %-8s %-10s %-24s %s, %s\n";
	fprintf(out, "\n");
	fprintf(out, row, "Daemon", "PID", "Exit", "Addr", "Log", "Log.Old");
	fprintf(out, row, "------", "---", "----", "----", "---", "-------");
	for (size_t i = 0; i < l->n; i++) {
		const struct who_daemon *d = &l->d[i];
		fprintf(out, row, d->name, d->pid, d->exit_code, d->addr,
			d->log, d->log_old);
	}
}

/* When a daemon does not answer: whether its process is there, and its
 * parent's pid (new string, or NULL). */
static bool process_alive(const char *pid, char **ppid)
{
	*ppid = NULL;
	struct ks_proc_stat st;
	if (ks_proc_stat(atol(pid), &st))
		return false;
	char text[24];
	snprintf(text, sizeof(text), "%ld", st.ppid);
	*ppid = ks_xstrdup(text);
	return true;
}

void who_print_daemons(const ks_config *cfg, const struct who_opts *o,
		       const struct who_logdir *l, FILE *out, FILE *err)
{
	static const char row[] = "%-12s %-6s %-6s %-6s %-6s %-24s %s\n";
	fprintf(out, "\n");
	fprintf(out, row, "Daemon", "Alive", "PID", "PPID", "Exit", "Addr",
		"Executable");
	fprintf(out, row, "------", "-----", "---", "----", "----", "----",
		"----------");
	for (size_t i = 0; i < l->n; i++) {
		const struct who_daemon *d = &l->d[i];
		if (!d->pid[0] && !d->exit_code[0] && !d->addr[0])
			continue;
		bool exited = d->exit_code[0] != '\0';
		/* a daemon that has exited shows no pid, as HTCondor's */
		const char *pid = exited ? "no" : d->pid[0] ? d->pid : "?";
		bool alive = false;
		char *ppid = NULL, *exe = NULL;
		if (d->addr[0] && d->pid[0] && !exited) {
			ppid = who_daemon_param(cfg, o, d->addr, "PPID", err);
			if (ppid) {
				alive = true;
				char sub[64];
				who_daemon_subsys(d->name, sub, sizeof(sub));
				exe = who_daemon_param(cfg, o, d->addr, sub,
						       err);
			} else {
				alive = process_alive(d->pid, &ppid);
			}
		}
		fprintf(out, row, d->name, alive ? "yes" : "no", pid,
			ppid ? ppid : "no", exited ? d->exit_code : "no",
			d->addr, exe ? exe : "");
		free(ppid);
		free(exe);
	}
}
