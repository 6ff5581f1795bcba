/* remote.c: condor_config_val's questions to a running daemon
 * (-address, -name, -master, -collector, ...): each name is sent with
 * DC_CONFIG_VAL, and the daemon answers with its own value. */
#include "remote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

/* The daemon's address: given, the local daemon of the subsystem (its
 * address file), or the one of that name in the collector. */
static char *find_daemon(const ks_config *cfg, const struct cv_remote *r,
			 struct ks_err *err)
{
	if (r->address)
		return ks_xstrdup(r->address);
	const char *sub = r->daemon ? r->daemon : "MASTER";
	char knob[64];
	if (!r->name) {
		snprintf(knob, sizeof(knob), "%s_ADDRESS_FILE", sub);
		char *path = ks_config_get(cfg, knob, NULL);
		char *addr = path ? ks_addr_read_file(path, NULL) : NULL;
		free(path);
		if (!addr)
			ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				   "Can't find address for local %s", sub);
		return addr;
	}
	static const struct {
		const char *sub;
		int cmd;
	} kinds[] = {{"MASTER", KS_QUERY_MASTER_ADS},
		     {"COLLECTOR", KS_QUERY_COLLECTOR_ADS},
		     {"NEGOTIATOR", KS_QUERY_NEGOTIATOR_ADS},
		     {"SCHEDD", KS_QUERY_SCHEDD_ADS},
		     {"STARTD", KS_QUERY_STARTD_ADS}};
	int cmd = KS_QUERY_MASTER_ADS;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].sub, sub) == 0)
			cmd = kinds[i].cmd;
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	struct classad_buf b = {0};
	classad_quote_string_buf(&b, r->name, strlen(r->name));
	char *req = ks_xmalloc(b.len + 16);
	sprintf(req, "Name == %s", b.data);
	classad_insert_text(q, "Requirements", req, NULL);
	classad_insert_string(q, "Projection", "MyAddress");
	free(req);
	free(b.data);
	classad **ads = NULL;
	size_t n = 0;
	char *addr = NULL;
	if (ks_collector_query(cfg, r->pool, cmd, q, &ads, &n, err) == 0) {
		if (n == 0 || !classad_eval_string(ads[0], "MyAddress", NULL,
						   &addr))
			ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				   "Can't find address for %s %s", sub,
				   r->name);
	}
	ks_ads_free(ads, n);
	classad_free(q);
	return addr;
}

int cv_remote(const ks_config *cfg, const struct cv_remote *r,
	      const char *const *names, size_t nnames, bool verbose)
{
	struct ks_err err;
	char *addr = find_daemon(cfg, r, &err);
	if (!addr) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	ks_conn *c = NULL;
	if (ks_conn_open(cfg, addr, 0, &c, &err)) {
		fprintf(stderr, "Can't connect to %s: %s\n", addr, err.msg);
		free(addr);
		return 1;
	}
	int status = 0;
	for (size_t i = 0; i < nnames; i++) {
		classad *q = classad_new();
		classad_insert_string(q, "Name", names[i]);
		classad **got = NULL;
		size_t n = 0;
		int code = 0;
		int rc = ks_conn_send(c, KS_DC_CONFIG_VAL, &q, 1, false, &err);
		if (rc == 0)
			rc = ks_conn_recv(c, &code, &got, &n, NULL, &err);
		classad_free(q);
		char *value = NULL, *file = NULL;
		int64_t line = 0;
		if (rc == 0 && code < 0) {
			char *why = NULL;
			if (n)
				classad_eval_string(got[0], "ErrorString", NULL,
						    &why);
			fprintf(stderr, "%s refused: %s\n", addr,
				why ? why : "no reason given");
			free(why);
			status = 1;
		} else if (rc) {
			fprintf(stderr, "%s: %s\n", addr, err.msg);
			status = 1;
		} else if (n && classad_eval_string(got[0], "Error", NULL,
						    &value)) {
			fprintf(stderr, "Error: %s: %s\n", names[i], value);
			status = 1;
		} else if (!n || !classad_eval_string(got[0], "Value", NULL,
						      &value)) {
			fprintf(stderr, "Not defined: %s\n", names[i]);
			status = 1;
		} else {
			printf("%s\n", value);
			if (verbose) {
				classad_eval_string(got[0], "File", NULL, &file);
				classad_eval_int(got[0], "Line", NULL, &line);
				if (line > 0)
					printf(" # at: %s, line %lld\n\n", file,
					       (long long)line);
				else
					printf(" # at: %s\n\n",
					       file ? file : "<Default>");
			}
		}
		free(value);
		free(file);
		ks_ads_free(got, n);
		if (rc)
			break;
	}
	ks_conn_close(c);
	free(addr);
	return status;
}

/* The knob a setting line sets: "NAME = value", "NAME : value" or
 * "use CATEGORY : T" (whose name is "$CATEGORY", as HTCondor sends it).
 * NULL if the line is none of these.  New string. */
static char *setting_name(const char *line)
{
	size_t n = strcspn(line, " \t=:");
	const char *rest = line + n + strspn(line + n, " \t");
	if (n == 3 && strncasecmp(line, "use", 3) == 0 && *rest &&
	    strchr(rest, ':')) {
		size_t c = strcspn(rest, " \t:");
		char *name = ks_xmalloc(c + 2);
		name[0] = '$';
		memcpy(name + 1, rest, c);
		name[c + 1] = '\0';
		return name;
	}
	if (n == 0 || (*rest != '=' && *rest != ':'))
		return NULL;
	return ks_xstrndup(line, n);
}

int cv_remote_set(const ks_config *cfg, const struct cv_remote *r,
		  const char *arg, enum cv_set_mode mode)
{
	bool set = mode == CV_SET || mode == CV_RSET;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	char *name;
	if (set) {
		name = setting_name(arg);
		if (!name) {
			fprintf(stderr,
				"condor_config_val: Can't set configuration "
				"value (\"%s\")\nYou must specify "
				"\"macro_name = value\" or \"expr_name : "
				"value\"\n", arg);
			return 1;
		}
	} else {
		if (strchr(arg, ':') || strchr(arg, '=')) {
			fprintf(stderr,
				"condor_config_val: Can't unset configuration "
				"value (\"%s\")\nTo unset, you only specify "
				"the name of the attribute\n", arg);
			return 1;
		}
		name = ks_xstrndup(arg, strcspn(arg, " \t"));
	}
	struct ks_err err;
	char *addr = find_daemon(cfg, r, &err);
	if (!addr) {
		fprintf(stderr, "%s\n", err.msg);
		free(name);
		return 1;
	}
	char what[32];
	snprintf(what, sizeof(what), "%s", r->daemon ? r->daemon : "MASTER");
	for (char *p = what; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	ks_conn *c = NULL;
	classad *q = classad_new();
	classad_insert_string(q, "Name", name);
	classad_insert_string(q, "Setting", set ? arg : "");
	int code = 0;
	classad **got = NULL;
	size_t n = 0;
	int rc = ks_conn_open(cfg, addr, 0, &c, &err);
	if (rc == 0)
		rc = ks_conn_send(c, mode == CV_SET || mode == CV_UNSET
					     ? KS_DC_CONFIG_PERSIST
					     : KS_DC_CONFIG_RUNTIME,
				  &q, 1, false, &err);
	if (rc == 0)
		rc = ks_conn_recv(c, &code, &got, &n, NULL, &err);
	classad_free(q);
	ks_conn_close(c);
	char *dname = NULL;
	if (n)
		classad_eval_string(got[0], "Name", NULL, &dname);
	int status = 0;
	if (rc) {
		fprintf(stderr, "Can't connect to %s on %s: %s\n", what, addr,
			err.msg);
		status = 1;
	} else if (code < 0) {
		char *why = NULL;
		if (n)
			classad_eval_string(got[0], "ErrorString", NULL, &why);
		fprintf(stderr, "Attempt to %s configuration \"%s\" on %s %s "
			"failed.\n%s\n", set ? "set" : "unset", arg, what, addr,
			why ? why : "");
		free(why);
		status = 1;
	} else {
		printf("Successfully %s configuration \"%s\" on %s %s %s. The "
		       "change will take effect on the next condor_reconfig.\n",
		       set ? "set" : "unset", arg, what, dname ? dname : "",
		       addr);
	}
	free(dname);
	ks_ads_free(got, n);
	free(addr);
	free(name);
	return status;
}
