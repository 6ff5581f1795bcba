/*
 * machine.c: what the execute machine has (sd_machine.h).
 *
 * Runs once at start-up: a few reads of /sys and /proc, statvfs() of
 * EXECUTE, sysinfo(), and the inventory commands of custom resources.
 * The amounts and their overrides follow HTCondor 25's startd (its sysapi
 * and MachAttributes), so that a configuration that pins a figure there
 * pins the same figure here.
 */
#include "sd_machine.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"

/* Output of an inventory command beyond this is dropped: a GPU inventory
 * of hundreds of devices is a few hundred KiB. */
#define INVENTORY_MAX (4u << 20)

/* ---- small helpers ------------------------------------------------------- */

static void warn(struct sd_machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct sd_machine *m, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	m->warnings = ks_xrealloc(m->warnings,
				  (m->nwarnings + 1) * sizeof(*m->warnings));
	m->warnings[m->nwarnings++] = ks_xstrdup(buf);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void push_str(char ***v, size_t *n, const char *s, size_t len)
{
	*v = ks_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = ks_xstrndup(s, len);
}

/* Splits s at commas and blanks, as HTCondor lists of ids are split. */
static void split_list(const char *s, char ***v, size_t *n)
{
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(s, &pos, &len));)
		push_str(v, n, p, len);
}

static bool in_list(char **v, size_t n, const char *s, bool nocase)
{
	for (size_t i = 0; i < n; i++)
		if (nocase ? !strcasecmp(v[i], s) : !strcmp(v[i], s))
			return true;
	return false;
}

/* A knob the configuration itself sets: not a built-in default, and not
 * a value the configuration's own detection filled in. */
static bool set_by_config(const ks_config *cfg, const char *name)
{
	struct ks_config_origin o = {0};
	const char *raw = ks_config_raw(cfg, name, &o);
	return raw && *raw && o.file && strcmp(o.file, "<Default>") &&
	       strcmp(o.file, "<Detected>");
}

/* Reads an integer knob that must convert when it is set.  Returns 1 when
 * set (*out filled), 0 when not set, or a KS_E* code. */
static int knob_int(const ks_config *cfg, const char *name, int64_t *out,
		    struct ks_err *err)
{
	char *v = ks_config_get(cfg, name, err);
	if (!v)
		return err && err->code ? err->code : 0;
	int rc = 1;
	if (!ks_config_int(cfg, name, out))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"%s = %s is not an integer", name, v);
	free(v);
	return rc;
}

static size_t read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

static long read_long(const char *path, long def)
{
	char buf[64];
	if (!read_small(path, buf, sizeof(buf)))
		return def;
	char *end;
	long v = strtol(buf, &end, 10);
	return end == buf ? def : v;
}

/* ---- CPUs ---------------------------------------------------------------- */

/* Logical processors online, and physical cores among them (distinct
 * package/core pairs of /sys topology; the logical count when the
 * topology cannot be read). */
static void detect_cores(int *logical, int *physical)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	*logical = n > 0 ? (int)n : 1;
	*physical = *logical;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	if (conf < 1 || conf > 65536)
		return;
	long (*pairs)[2] = ks_xcalloc((size_t)conf, sizeof(*pairs));
	int npairs = 0;
	char path[128];
	for (long c = 0; c < conf; c++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/online", c);
		if (read_long(path, 1) == 0)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/topology/"
			 "physical_package_id", c);
		long pkg = read_long(path, -2);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/topology/core_id", c);
		long core = read_long(path, -2);
		if (pkg == -2 || core == -2)
			continue;
		int k = 0;
		while (k < npairs &&
		       !(pairs[k][0] == pkg && pairs[k][1] == core))
			k++;
		if (k == npairs) {
			pairs[npairs][0] = pkg;
			pairs[npairs][1] = core;
			npairs++;
		}
	}
	free(pairs);
	if (npairs > 0 && npairs <= *logical)
		*physical = npairs;
}

/* NUM_CPUS as HTCondor resolves it: its own setting, else
 * DETECTED_CPUS_LIMIT, else DETECTED_CPUS, when the configuration sets
 * them; else what was detected, limited by OMP_THREAD_LIMIT and
 * SLURM_CPUS_ON_NODE as HTCondor's DETECTED_CPUS_LIMIT is. */
static int resolve_cpus(const ks_config *cfg, struct sd_machine *m,
			struct ks_err *err)
{
	static const char *const knobs[] = {"NUM_CPUS", "DETECTED_CPUS_LIMIT",
					    "DETECTED_CPUS"};
	for (size_t i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		if (!set_by_config(cfg, knobs[i]))
			continue;
		int64_t v = 0;
		int rc = knob_int(cfg, knobs[i], &v, err);
		if (rc < 0)
			return rc;
		if (v < 1 || v > INT_MAX)
			return ks_err_set(err, KS_ERANGE, 0, 0, 0,
					  "%s = %lld: the startd needs at "
					  "least one CPU",
					  knobs[i], (long long)v);
		m->cpus = (int)v;
		return 0;
	}
	int lim = m->detected_cpus;
	static const char *const envs[] = {"OMP_THREAD_LIMIT",
					   "SLURM_CPUS_ON_NODE"};
	for (size_t i = 0; i < sizeof(envs) / sizeof(*envs); i++) {
		const char *e = getenv(envs[i]);
		int v = e ? atoi(e) : 0;
		if (v > 0 && v < lim)
			lim = v;
	}
	m->cpus = lim;
	return 0;
}

/* ---- memory, disk, swap -------------------------------------------------- */

/* A cgroup memory limit file: bytes, or 0 for "max" or a value so large it
 * means no limit. */
static int64_t cgroup_file(const char *path)
{
	char buf[64];
	if (!read_small(path, buf, sizeof(buf)))
		return 0;
	long long v = strtoll(buf, NULL, 10);
	return v > (1ll << 60) || v < 0 ? 0 : (int64_t)v;
}

/* The memory limit of our cgroup (v2: memory.high, else memory.max, here
 * or one level up; v1: memory.limit_in_bytes), 0 if none: a startd in a
 * container offers what the container may use, as HTCondor's does. */
static int64_t cgroup_limit(void)
{
	char text[4096];
	if (!read_small("/proc/self/cgroup", text, sizeof(text)))
		return 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(l, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		const char *cg = c2 + 1;
		char path[4352];
		if (c2 == c1 + 1) {
			static const char *const files[] = {
				"memory.high", "memory.max", "../memory.high",
				"../memory.max"};
			for (size_t i = 0; i < 4; i++) {
				snprintf(path, sizeof(path),
					 "/sys/fs/cgroup/%s/%s", cg, files[i]);
				int64_t v = cgroup_file(path);
				if (v)
					return v;
			}
			return 0;
		}
		*c2 = '\0';
		if (!strcmp(c1 + 1, "memory")) {
			snprintf(path, sizeof(path),
				 "/sys/fs/cgroup/memory/%s/"
				 "memory.limit_in_bytes",
				 cg);
			return cgroup_file(path);
		}
	}
	return 0;
}

static int detect_memory_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	int64_t bytes = pages > 0 && psize > 0 ? (int64_t)pages * psize : 0;
	int64_t lim = cgroup_limit();
	if (lim > 0 && (bytes == 0 || lim < bytes))
		bytes = lim;
	int64_t mib = bytes / (1024 * 1024);
	return mib > INT_MAX ? INT_MAX : (int)mib;
}

static int resolve_memory(const ks_config *cfg, struct sd_machine *m,
			  struct ks_err *err)
{
	m->detected_memory = detect_memory_mib();
	int64_t mem = 0, reserved = 0;
	int rc = knob_int(cfg, "MEMORY", &mem, err);
	if (rc < 0)
		return rc;
	if (mem < 0 || mem > INT_MAX)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "MEMORY = %lld: give the MiB of memory the "
				  "slots may use, or leave it unset",
				  (long long)mem);
	/* MEMORY = 0 means "detect", as in HTCondor */
	if (mem == 0)
		mem = m->detected_memory;
	rc = knob_int(cfg, "RESERVED_MEMORY", &reserved, err);
	if (rc < 0)
		return rc;
	if (mem - reserved <= 0)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "no memory is left for the slots: %lld MiB "
				  "less RESERVED_MEMORY = %lld; lower "
				  "RESERVED_MEMORY or set MEMORY",
				  (long long)mem, (long long)reserved);
	m->memory = mem - reserved > INT_MAX ? INT_MAX : (int)(mem - reserved);
	return 0;
}

/* DISK (KiB) when set; else the free KiB of EXECUTE's filesystem less
 * RESERVED_DISK (MiB), as HTCondor's sysapi counts them. */
static int resolve_disk(const ks_config *cfg, struct sd_machine *m,
			struct ks_err *err)
{
	int64_t disk = 0;
	int rc = knob_int(cfg, "DISK", &disk, err);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		if (disk < 0)
			return ks_err_set(err, KS_ERANGE, 0, 0, 0,
					  "DISK = %lld: give the KiB of disk "
					  "the slots may use",
					  (long long)disk);
		m->disk = m->detected_disk = disk;
		m->disk_from_config = true;
		return 0;
	}
	char *exec = ks_config_get(cfg, "EXECUTE", err);
	if (!exec)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "EXECUTE is not defined; set it to the "
				  "directory for the jobs' sandboxes");
	struct statvfs st;
	if (statvfs(exec, &st) != 0) {
		rc = ks_err_set(err, KS_EIO, 0, 0, 0,
				"cannot measure the free disk of EXECUTE "
				"(%s): %s; create it, or set DISK",
				exec, strerror(errno));
		free(exec);
		return rc;
	}
	free(exec);
	double kib_per_block = (double)st.f_frsize / 1024.0;
	int64_t free_kib = (int64_t)((double)st.f_bavail * kib_per_block);
	m->detected_disk = (int64_t)((double)st.f_blocks * kib_per_block);
	int64_t reserved = 0;
	rc = knob_int(cfg, "RESERVED_DISK", &reserved, err);
	if (rc < 0)
		return rc;
	free_kib -= reserved * 1024;
	m->disk = free_kib < 0 ? 0 : free_kib;
	return 0;
}

/* RAM plus free swap, in KiB, capped as HTCondor caps it (an int). */
static int64_t detect_swap_kib(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0)
		return 0;
	double unit = si.mem_unit ? si.mem_unit : 1;
	double kib = ((double)si.freeswap + (double)si.totalram) * unit / 1024;
	return kib > INT_MAX ? INT_MAX : (int64_t)kib;
}

/* ---- custom resources ---------------------------------------------------- */

static void res_clear(struct sd_res *r)
{
	free(r->name);
	for (size_t i = 0; r->props && i < r->nids; i++)
		classad_free(r->props[i]);
	free(r->props);
	free_strv(r->ids, r->nids);
	free_strv(r->offline, r->noffline);
	memset(r, 0, sizeof(*r));
}

/* The resource called name, made empty; a new one goes in name order. */
static struct sd_res *res_slot(struct sd_machine *m, const char *name)
{
	size_t i = 0;
	while (i < m->nres && strcasecmp(m->res[i].name, name) < 0)
		i++;
	if (i < m->nres && !strcasecmp(m->res[i].name, name)) {
		res_clear(&m->res[i]);
	} else {
		m->res = ks_xrealloc(m->res, (m->nres + 1) * sizeof(*m->res));
		memmove(&m->res[i + 1], &m->res[i],
			(m->nres - i) * sizeof(*m->res));
		m->nres++;
		memset(&m->res[i], 0, sizeof(m->res[i]));
	}
	m->res[i].name = ks_xstrdup(name);
	return &m->res[i];
}

static void res_remove(struct sd_machine *m, size_t i)
{
	res_clear(&m->res[i]);
	memmove(&m->res[i], &m->res[i + 1],
		(m->nres - i - 1) * sizeof(*m->res));
	m->nres--;
}

const struct sd_res *sd_machine_res(const struct sd_machine *m,
				    const char *name)
{
	for (size_t i = 0; m && i < m->nres; i++)
		if (!strcasecmp(m->res[i].name, name))
			return &m->res[i];
	return NULL;
}

static bool reserved_name(const char *name)
{
	static const char *const names[] = {"CPU", "CPUS", "DISK", "SWAP",
					    "MEM", "MEMORY", "RAM"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcasecmp(name, names[i]))
			return true;
	return false;
}

/* A resource's value as HTCondor reads it: a number, an expression giving
 * one, or else a list of ids whose count is the quantity. */
static double parse_amount(const char *value, char ***ids, size_t *nids)
{
	char *end;
	double d = strtod(value, &end);
	if (end != value && isfinite(d)) {
		while (isspace((unsigned char)*end))
			end++;
		if (!*end)
			return d;
	}
	classad_expr *e = classad_parse_expr(value, strlen(value), NULL);
	if (e) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(NULL, e, NULL, &v);
		classad_expr_free(e);
		double num = v.type == CLASSAD_INTEGER ? (double)v.u.i
			     : v.type == CLASSAD_REAL  ? v.u.r
						       : NAN;
		classad_value_clear(&v);
		if (!isnan(num))
			return num;
	}
	split_list(value, ids, nids);
	return (double)*nids;
}

/* Fills r from a detected value and an offline one: ids named offline
 * leave the list; a plain offline amount is subtracted. */
static void res_fill(struct sd_res *r, const char *value, const char *offline)
{
	char **off = NULL, **ids = NULL;
	size_t noff = 0, nids = 0;
	double off_amount = offline && *offline
				    ? parse_amount(offline, &off, &noff)
				    : 0;
	double num = parse_amount(value, &ids, &nids);
	if (nids) {
		off_amount = 0;
		for (size_t i = 0; i < nids; i++) {
			if (in_list(off, noff, ids[i], false)) {
				push_str(&r->offline, &r->noffline, ids[i],
					 strlen(ids[i]));
				off_amount++;
			} else {
				push_str(&r->ids, &r->nids, ids[i],
					 strlen(ids[i]));
			}
		}
	}
	free_strv(ids, nids);
	free_strv(off, noff);
	num -= off_amount;
	r->quantity = num < 0 ? 0 : num;
}

int sd_machine_add_res(struct sd_machine *m, const char *name,
		       const char *value, const char *offline,
		       struct ks_err *err)
{
	if (!name || !*name)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "a custom resource needs a name");
	if (reserved_name(name))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "MACHINE_RESOURCE_%s is invalid: '%s' is a "
				  "reserved resource name; choose another",
				  name, name);
	res_fill(res_slot(m, name), value ? value : "0", offline);
	return 0;
}

static char *knob_for(const ks_config *cfg, const char *prefix,
		      const char *tag)
{
	char name[256];
	snprintf(name, sizeof(name), "%s%s", prefix, tag);
	return ks_config_get(cfg, name, NULL);
}

/* The id a nested property ad describes: its "id" attribute, else the
 * attribute's name. */
static char *nested_id(const classad *nested, const char *attr)
{
	char *id = NULL;
	if (classad_eval_string(nested, "id", NULL, &id))
		return id;
	return ks_xstrdup(attr);
}

/* Configures resource tag from an inventory ad (the output of
 * MACHINE_RESOURCE_INVENTORY_<tag>, or a multi-line MACHINE_RESOURCE_<tag>):
 * Detected<tag> gives the ids or the amount, Offline<tag> (else
 * OFFLINE_MACHINE_RESOURCE_<tag>) those offline, nested ads the ids'
 * properties ("common" for all); what remains goes into every slot ad. */
static void res_from_ad(const ks_config *cfg, struct sd_machine *m,
			const char *tag, classad *ad)
{
	struct sd_res *r = res_slot(m, tag);
	char attr[256];
	snprintf(attr, sizeof(attr), "Offline%s", tag);
	char *offline = NULL;
	if (!classad_eval_string(ad, attr, NULL, &offline))
		offline = knob_for(cfg, "OFFLINE_MACHINE_RESOURCE_", tag);
	snprintf(attr, sizeof(attr), "Detected%s", tag);
	char *detected = NULL;
	double num = 0;
	if (classad_eval_string(ad, attr, NULL, &detected)) {
		res_fill(r, detected, offline);
	} else if (classad_eval_real(ad, attr, NULL, &num)) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.17g", num);
		res_fill(r, buf, offline);
	}
	free(detected);
	free(offline);

	/* nested ads: properties of the ids */
	classad **props = r->nids ? ks_xcalloc(r->nids, sizeof(*props)) : NULL;
	classad *common = NULL;
	char **used = NULL;
	size_t nused = 0;
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(ad, e, NULL, &v);
		const classad *nested = classad_value_ad(&v);
		if (nested && !strcasecmp(name, "common")) {
			classad_free(common);
			common = classad_copy(nested);
			push_str(&used, &nused, name, strlen(name));
		} else if (nested) {
			char *id = nested_id(nested, name);
			for (size_t i = 0; i < r->nids; i++) {
				if (strcmp(r->ids[i], id))
					continue;
				if (!props[i])
					props[i] = classad_new();
				classad_update(props[i], nested);
				classad_delete(props[i], "id");
				push_str(&used, &nused, name, strlen(name));
				break;
			}
			if (in_list(r->offline, r->noffline, id, false))
				push_str(&used, &nused, name, strlen(name));
			free(id);
		}
		classad_value_clear(&v);
	}
	if (common) {
		for (size_t i = 0; i < r->nids; i++) {
			classad *p = classad_copy(common);
			if (props[i])
				classad_update(p, props[i]);
			classad_free(props[i]);
			props[i] = p;
		}
		classad_free(common);
	}
	bool any = false;
	for (size_t i = 0; i < r->nids; i++)
		any = any || props[i];
	if (any)
		r->props = props;
	else
		free(props);
	for (size_t i = 0; i < nused; i++)
		classad_delete(ad, used[i]);
	free_strv(used, nused);
	classad_delete(ad, tag);
	if (classad_size(ad)) {
		if (!m->extra)
			m->extra = classad_new();
		classad_update(m->extra, ad);
	}
}

/* Splits a command line as HTCondor's "V1 raw or V2 quoted" arguments: a
 * line in double quotes is V2 (blanks separate, single quotes group, ''
 * is a quote), anything else is split at blanks. */
static char **split_args(const char *cmd)
{
	char **argv = NULL;
	size_t n = 0;
	size_t len = strlen(cmd);
	bool v2 = len >= 2 && cmd[0] == '"' && cmd[len - 1] == '"';
	const char *p = v2 ? cmd + 1 : cmd;
	const char *end = v2 ? cmd + len - 1 : cmd + len;
	char *word = ks_xmalloc(len + 1);
	while (p < end) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			break;
		size_t w = 0;
		while (p < end && !isspace((unsigned char)*p)) {
			if (v2 && *p == '\'') {
				for (p++; p < end; p++) {
					bool pair = p + 1 < end && p[1] == '\'';
					if (*p == '\'' && pair)
						word[w++] = *p++;
					else if (*p == '\'')
						break;
					else
						word[w++] = *p;
				}
				if (p < end)
					p++;
				continue;
			}
			word[w++] = *p++;
		}
		push_str(&argv, &n, word, w);
	}
	free(word);
	argv = ks_xrealloc(argv, (n + 1) * sizeof(*argv));
	argv[n] = NULL;
	return argv;
}

/* pipe2(O_CLOEXEC) is not POSIX; the startd runs this before it starts
 * any thread, so no fork can slip in between. */
static int cloexec_pipe(int fd[2])
{
	if (pipe(fd) != 0)
		return -1;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Runs cmd and collects its standard output.  Returns 0 (*out is new
 * text, free()), or the errno of a command that could not be started. */
static int run_command(const char *cmd, char **out, size_t *outlen)
{
	char **argv = split_args(cmd);
	if (!argv[0]) {
		free(argv);
		return ENOENT;
	}
	int data[2], status[2];
	if (cloexec_pipe(data) != 0) {
		int e = errno;
		free_argv(argv);
		return e;
	}
	if (cloexec_pipe(status) != 0) {
		int e = errno;
		close(data[0]);
		close(data[1]);
		free_argv(argv);
		return e;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(data[1], STDOUT_FILENO);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		/* the daemon's sockets and files are none of its business */
		long maxfd = sysconf(_SC_OPEN_MAX);
		if (maxfd <= 0 || maxfd > 65536)
			maxfd = 1024;
		for (long fd = 3; fd < maxfd; fd++)
			if (fd != status[1])
				close((int)fd);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t unused = write(status[1], &e, sizeof(e));
		(void)unused;
		_exit(127);
	}
	int fork_errno = errno;
	close(data[1]);
	close(status[1]);
	free_argv(argv);
	if (pid < 0) {
		close(data[0]);
		close(status[0]);
		return fork_errno;
	}
	int exec_errno = 0;
	ssize_t got;
	do
		got = read(status[0], &exec_errno, sizeof(exec_errno));
	while (got < 0 && errno == EINTR);
	close(status[0]);
	size_t cap = 4096, len = 0;
	char *buf = ks_xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap && cap < INVENTORY_MAX + 1) {
			cap *= 2;
			buf = ks_xrealloc(buf, cap);
		}
		char sink[4096];
		bool full = len + 1 >= cap;
		ssize_t r = full ? read(data[0], sink, sizeof(sink))
				 : read(data[0], buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!full)
			len += (size_t)r;
	}
	close(data[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof(exec_errno) && exec_errno) {
		free(buf);
		return exec_errno;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

/* Runs an inventory command for tag and configures the resource from its
 * output.  A command that cannot be started is an error unless quiet (the
 * default GPU discovery, whose tool may not be installed). */
static int res_from_command(const ks_config *cfg, struct sd_machine *m,
			    const char *tag, const char *cmd, bool quiet,
			    struct ks_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int e = run_command(cmd, &text, &len);
	if (e) {
		if (quiet) {
			res_slot(m, tag)->quantity = 0;
			return 0;
		}
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot run the inventory of resource %s "
				  "(\"%s\"): %s",
				  tag, cmd, strerror(e));
	}
	classad_reader *rd = classad_reader_new(text, len, CLASSAD_FMT_OLD,
						NULL);
	classad *ad = NULL;
	struct ks_err perr = {0};
	int rc = classad_reader_next(rd, &ad, &perr);
	if (rc == 1) {
		res_from_ad(cfg, m, tag, ad);
	} else {
		res_slot(m, tag)->quantity = 0;
		if (rc < 0)
			warn(m,
			     "the inventory of resource %s (\"%s\") printed "
			     "no ClassAd (line %d: %s); %s = 0",
			     tag, cmd, perr.line, perr.msg, tag);
	}
	classad_free(ad);
	classad_reader_free(rd);
	free(text);
	return 0;
}

/* HTCondor's default GPU discovery: when no GPUs resource is configured,
 * STARTD_DETECT_GPUS holds the discovery tool's arguments (empty, false or
 * 0 turn it off). */
static int default_gpus(const ks_config *cfg, struct sd_machine *m,
			struct ks_err *err)
{
	char *a = knob_for(cfg, "MACHINE_RESOURCE_INVENTORY_", "GPUs");
	char *b = knob_for(cfg, "MACHINE_RESOURCE_", "GPUs");
	bool configured = a || b;
	free(a);
	free(b);
	if (configured)
		return 0;
	char *args = ks_config_get(cfg, "STARTD_DETECT_GPUS", NULL);
	if (!args || !strcasecmp(args, "false") || !strcmp(args, "0")) {
		free(args);
		return 0;
	}
	if (!strcasecmp(args, "true") || !strcmp(args, "1")) {
		warn(m, "STARTD_DETECT_GPUS = %s is invalid: it holds the "
			"arguments of condor_gpu_discovery; no GPUs detected",
		     args);
		free(args);
		return 0;
	}
	free(args);
	char *cmd = ks_config_expand(
		cfg, "$(LIBEXEC)/condor_gpu_discovery $(STARTD_DETECT_GPUS)",
		err);
	if (!cmd)
		return err && err->code ? err->code : KS_EINVAL;
	int rc = res_from_command(cfg, m, "GPUs", cmd, true, err);
	free(cmd);
	return rc;
}

static bool name_has_prefix(const char *name, const char *prefix)
{
	return !strncasecmp(name, prefix, strlen(prefix));
}

/* Every MACHINE_RESOURCE_<tag> and MACHINE_RESOURCE_INVENTORY_<tag> the
 * configuration defines, in the order it defines them. */
static int configured_resources(const ks_config *cfg, struct sd_machine *m,
				struct ks_err *err)
{
	static const char prefix[] = "MACHINE_RESOURCE_";
	size_t pos = 0;
	const char *name, *raw;
	while (ks_config_next(cfg, &pos, &name, &raw, NULL)) {
		if (!raw || !*raw || !name_has_prefix(name, prefix) ||
		    !strcasecmp(name, "MACHINE_RESOURCE_NAMES"))
			continue;
		const char *tag = name + sizeof(prefix) - 1;
		bool inventory = name_has_prefix(tag, "INVENTORY_");
		if (inventory)
			tag += sizeof("INVENTORY_") - 1;
		if (!*tag || tag[strspn(tag, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "abcdefghijklmnopqrstuvwxyz"
					     "0123456789_")])
			continue;
		char *value = ks_config_get(cfg, name, err);
		if (!value) {
			if (err && err->code)
				return err->code;
			continue;
		}
		int rc = 0;
		if (inventory) {
			rc = res_from_command(cfg, m, tag, value, false, err);
		} else if (strchr(value, '\n')) {
			classad *ad = classad_parse(value, strlen(value),
						    CLASSAD_FMT_OLD, NULL,
						    NULL);
			if (ad)
				res_from_ad(cfg, m, tag, ad);
			else
				warn(m, "%s is not a ClassAd; %s = 0", name,
				     tag);
			if (!ad)
				res_slot(m, tag)->quantity = 0;
			classad_free(ad);
		} else {
			char *off = knob_for(cfg, "OFFLINE_MACHINE_RESOURCE_",
					     tag);
			res_fill(res_slot(m, tag), value, off);
			free(off);
		}
		free(value);
		if (rc)
			return rc;
	}
	return 0;
}

/* MACHINE_RESOURCE_NAMES, when set, lists the resources that count; then
 * no resource may take a built-in resource's name. */
static int filter_resources(const ks_config *cfg, struct sd_machine *m,
			    struct ks_err *err)
{
	char *names = ks_config_get(cfg, "MACHINE_RESOURCE_NAMES", NULL);
	if (names) {
		char **allowed = NULL;
		size_t nallowed = 0;
		split_list(names, &allowed, &nallowed);
		free(names);
		for (size_t i = 0; i < m->nres;) {
			if (nallowed && !in_list(allowed, nallowed,
						 m->res[i].name, true)) {
				warn(m,
				     "local machine resource %s is not in "
				     "MACHINE_RESOURCE_NAMES so it will have "
				     "no effect",
				     m->res[i].name);
				res_remove(m, i);
			} else {
				i++;
			}
		}
		free_strv(allowed, nallowed);
	}
	for (size_t i = 0; i < m->nres; i++)
		if (reserved_name(m->res[i].name))
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "MACHINE_RESOURCE_%s is invalid: "
					  "'%s' is a reserved resource name; "
					  "choose another",
					  m->res[i].name, m->res[i].name);
	return 0;
}

/* ---- the whole machine --------------------------------------------------- */

int sd_machine_detect(const ks_config *cfg, struct sd_machine *m,
		      struct ks_err *err)
{
	memset(m, 0, sizeof(*m));
	ks_err_clear(err);
	detect_cores(&m->detected_cores, &m->detected_physical);
	bool count_hyper = true;
	ks_config_bool(cfg, "COUNT_HYPERTHREAD_CPUS", &count_hyper);
	m->detected_cpus = count_hyper ? m->detected_cores
				       : m->detected_physical;
	int rc = resolve_cpus(cfg, m, err);
	if (!rc)
		rc = resolve_memory(cfg, m, err);
	if (!rc)
		rc = resolve_disk(cfg, m, err);
	if (rc)
		return rc;
	m->swap = detect_swap_kib();
	rc = default_gpus(cfg, m, err);
	if (!rc)
		rc = configured_resources(cfg, m, err);
	if (!rc)
		rc = filter_resources(cfg, m, err);
	return rc;
}

void sd_machine_clear(struct sd_machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nres; i++)
		res_clear(&m->res[i]);
	free(m->res);
	classad_free(m->extra);
	free_strv(m->warnings, m->nwarnings);
	memset(m, 0, sizeof(*m));
}
