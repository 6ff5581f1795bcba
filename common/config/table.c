/*
 * table.c: the macros of a configuration, found by name ignoring case,
 * and the lookup rules (LOCALNAME.NAME, SUBSYS.NAME, NAME, each before its
 * default).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "config_int.h"
#include "knobs.h"
#include "ks_hash.h"
#include "ks_name.h"
#include "ks_passwd.h"

/* ---- buffers ------------------------------------------------------- */

void kc_buf_adds(struct classad_buf *b, const char *s)
{
	classad_buf_add(b, s, strlen(s));
}

void kc_buf_addc(struct classad_buf *b, char c)
{
	classad_buf_add(b, &c, 1);
}

void kc_buf_splice(struct classad_buf *b, size_t pos, size_t n, const char *s,
		   size_t sn)
{
	if (sn > n)
		classad_buf_reserve(b, sn - n);
	memmove(b->data + pos + sn, b->data + pos + n, b->len - pos - n + 1);
	memcpy(b->data + pos, s, sn);
	b->len = b->len - n + sn;
}

char *kc_buf_take(struct classad_buf *b)
{
	char *d = b->data ? b->data : ks_xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return d;
}

/* ---- names ----------------------------------------------------------- */

bool kc_valid_name(const char *name, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!isalnum(c) && c != '_' && c != '.' && c != '/')
			return false;
	}
	return true;
}

bool ks_config_valid_name(const char *name, size_t len)
{
	return kc_valid_name(name, len);
}

static uint32_t hash_ci(const char *s, size_t n)
{
	return (uint32_t)ks_hash_ci(s, n);
}

static bool same_name(const char *a, const char *b, size_t blen)
{
	return ks_name_cmp(b, blen, a) == 0;
}

struct kc_macro *kc_find(const ks_config *cfg, const char *name, size_t len)
{
	if (!cfg->index_cap)
		return NULL;
	size_t mask = cfg->index_cap - 1;
	for (size_t i = hash_ci(name, len) & mask;; i = (i + 1) & mask) {
		uint32_t slot = cfg->index[i];
		if (!slot)
			return NULL;
		struct kc_macro *m = &cfg->macros[slot - 1];
		if (same_name(m->name, name, len))
			return m;
	}
}

static void index_put(ks_config *cfg, size_t at)
{
	const char *name = cfg->macros[at].name;
	size_t mask = cfg->index_cap - 1;
	size_t i = hash_ci(name, strlen(name)) & mask;
	while (cfg->index[i])
		i = (i + 1) & mask;
	cfg->index[i] = (uint32_t)(at + 1);
}

static void grow(ks_config *cfg)
{
	if (cfg->n == cfg->cap) {
		cfg->cap = cfg->cap ? cfg->cap * 2 : 64;
		cfg->macros =
			ks_xrealloc(cfg->macros, cfg->cap * sizeof(*cfg->macros));
	}
	/* The index stays at most half full. */
	if ((cfg->n + 1) * 2 > cfg->index_cap) {
		free(cfg->index);
		cfg->index_cap = cfg->index_cap ? cfg->index_cap * 2 : 128;
		cfg->index = ks_xcalloc(cfg->index_cap, sizeof(*cfg->index));
		for (size_t i = 0; i < cfg->n; i++)
			index_put(cfg, i);
	}
}

/* ---- kc_lookup()'s memo ------------------------------------------------ */

/* Past this many names the memo starts again rather than grow: slot
 * knobs (SLOT<N>_...) are many names asked for rarely. */
#define MEMO_MAX 4096

/* Empties the memo (its table stays, for the next answers). */
static void memo_clear(ks_config *cfg)
{
	for (size_t i = 0; cfg->memo_n && i < cfg->memo_cap; i++)
		if (cfg->memo[i].name) {
			free(cfg->memo[i].name);
			cfg->memo[i].name = NULL;
			cfg->memo_n--;
		}
}

/* The memo's slot for name: its entry, or the empty slot it would take. */
static struct kc_memo *memo_slot(const ks_config *cfg, const char *name,
				 size_t len, uint32_t h)
{
	size_t mask = cfg->memo_cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct kc_memo *e = &cfg->memo[i];
		if (!e->name || same_name(e->name, name, len))
			return e;
	}
}

static void memo_put(ks_config *cfg, const char *name, size_t len,
		     uint32_t h, const char *value)
{
	if (cfg->memo_n >= MEMO_MAX)
		memo_clear(cfg);
	if ((cfg->memo_n + 1) * 2 > cfg->memo_cap) {
		struct kc_memo *old = cfg->memo;
		size_t cap = cfg->memo_cap;
		cfg->memo_cap = cap ? cap * 2 : 64;
		cfg->memo = ks_xcalloc(cfg->memo_cap, sizeof(*cfg->memo));
		for (size_t i = 0; i < cap; i++)
			if (old[i].name)
				*memo_slot(cfg, old[i].name,
					   strlen(old[i].name),
					   hash_ci(old[i].name,
						   strlen(old[i].name))) =
					old[i];
		free(old);
	}
	struct kc_memo *e = memo_slot(cfg, name, len, h);
	e->name = ks_xstrndup(name, len);
	e->value = value;
	cfg->memo_n++;
}

void kc_insert(ks_config *cfg, const char *name, const char *value,
	       int source, int line, const char *use)
{
	memo_clear(cfg);
	size_t len = strlen(name);
	struct kc_macro *m = kc_find(cfg, name, len);
	if (!m) {
		const struct ks_knob *k = ks_knob_find(name, len);
		/* HTCondor keeps a value equal to the built-in default out
		 * of the table, so -v reports it as the default. */
		if (k && source != KC_SRC_ENV && strcmp(k->def, value) == 0)
			return;
		grow(cfg);
		m = &cfg->macros[cfg->n];
		memset(m, 0, sizeof(*m));
		m->name = ks_xstrdup(name);
		index_put(cfg, cfg->n++);
	} else {
		free(m->value);
		free(m->use);
	}
	m->value = ks_xstrdup(value);
	m->source = source;
	m->line = line;
	m->use = use ? ks_xstrdup(use) : NULL;
}

int kc_add_source(ks_config *cfg, const char *name, bool is_file)
{
	cfg->sources = ks_xrealloc(cfg->sources,
				   (cfg->nsources + 1) * sizeof(*cfg->sources));
	cfg->sources[cfg->nsources] = ks_xstrdup(name);
	if (is_file) {
		cfg->files = ks_xrealloc(cfg->files,
					 (cfg->nfiles + 1) * sizeof(*cfg->files));
		cfg->files[cfg->nfiles++] = cfg->nsources;
	}
	return (int)cfg->nsources++;
}

/* ---- lookup ---------------------------------------------------------- */

static const char *source_name(const ks_config *cfg, int source)
{
	if (source == KC_SRC_DEFAULT)
		return "<Default>";
	if (source == KC_SRC_ENV)
		return "<Environment>";
	return cfg->sources[source];
}

static void set_origin(const ks_config *cfg, const struct kc_macro *m,
		       struct ks_config_origin *o)
{
	if (!o)
		return;
	o->file = source_name(cfg, m->source);
	o->line = m->line;
	o->name = m->name;
	o->use = m->use;
}

/* prefix.name in the configuration, then in the defaults. */
static const char *lookup_one(const ks_config *cfg, const char *prefix,
			      const char *name, size_t len,
			      struct ks_config_origin *o)
{
	char tmp[512];
	const char *key = name;
	size_t klen = len;
	if (prefix) {
		int n = snprintf(tmp, sizeof(tmp), "%s.%.*s", prefix, (int)len,
				 name);
		if (n < 0 || (size_t)n >= sizeof(tmp))
			return NULL;
		key = tmp;
		klen = (size_t)n;
	}
	const struct kc_macro *m = kc_find(cfg, key, klen);
	if (m) {
		set_origin(cfg, m, o);
		return m->value;
	}
	const struct ks_knob *k = ks_knob_find(key, klen);
	/* An empty default counts as no default for a plain name; for a
	 * prefixed one it still hides the plain name, as in HTCondor. */
	if (k && (prefix || k->def[0])) {
		if (o) {
			o->file = "<Default>";
			o->line = 0;
			o->name = k->name;
			o->use = NULL;
		}
		return k->def;
	}
	return NULL;
}

/* A builtin computed when first asked for; one a configuration set
 * itself (read before this) stays. */
static void settle_one(ks_config *c, int src, const char *name,
		       const char *value)
{
	if (!kc_find(c, name, strlen(name)))
		kc_insert(c, name, value, src, 0, NULL);
}

static void settle_int(ks_config *c, int src, const char *name, long v)
{
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%ld", v);
	settle_one(c, src, name, tmp);
}

/* The builtins whose lookups cost more than the rest of a short
 * program's configuration (the password database, /sys): made when a
 * name needs them, or when the whole table is walked. */
void kc_settle(const ks_config *cfg)
{
	if (cfg->tilde_source < 0)
		return;
	ks_config *c = (ks_config *)cfg;
	int src = c->tilde_source;
	c->tilde_source = -1;
	struct ks_passwd pw;
	if (!kc_find(c, "TILDE", 5) && ks_passwd_by_name("condor", &pw) == 0) {
		kc_insert(c, "TILDE", pw.home, src, 0, NULL);
		ks_passwd_clear(&pw);
	}
	if (!kc_find(c, "USERNAME", 8) && ks_passwd_by_uid(getuid(), &pw) == 0) {
		kc_insert(c, "USERNAME", pw.name, src, 0, NULL);
		ks_passwd_clear(&pw);
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (cores < 1)
		cores = 1;
	settle_int(c, src, "DETECTED_CORES", cores);
	settle_int(c, src, "DETECTED_CPUS", cores);
	settle_int(c, src, "DETECTED_PHYSICAL_CPUS", cores);
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psize > 0)
		settle_int(c, src, "DETECTED_MEMORY",
			   (long)((long long)pages * psize / (1024 * 1024)));
}

const char *kc_lookup(const ks_config *cfg, const char *name, size_t len,
		      struct ks_config_origin *origin)
{
	const char *v;
	if ((len == 5 && strncasecmp(name, "TILDE", 5) == 0) ||
	    (len == 8 && strncasecmp(name, "USERNAME", 8) == 0) ||
	    (len > 9 && strncasecmp(name, "DETECTED_", 9) == 0))
		kc_settle(cfg);
	/* an origin wanted is a rare question: it takes the long way */
	uint32_t h = hash_ci(name, len);
	if (!origin && cfg->memo_cap) {
		const struct kc_memo *e = memo_slot(cfg, name, len, h);
		if (e->name)
			return e->value;
	}
	if (!(cfg->localname &&
	      (v = lookup_one(cfg, cfg->localname, name, len, origin))) &&
	    !(cfg->subsys &&
	      (v = lookup_one(cfg, cfg->subsys, name, len, origin))))
		v = lookup_one(cfg, NULL, name, len, origin);
	if (!origin)
		memo_put((ks_config *)cfg, name, len, h, v);
	return v;
}

uint64_t kc_random_step(uint64_t *state)
{
	/* xorshift64*: these picks spread load, they guard nothing. */
	if (!*state)
		*state = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^
			 0x9E3779B97F4A7C15ull;
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ull;
}

uint64_t kc_random(ks_config *cfg)
{
	return kc_random_step(&cfg->rng);
}

/* ---- the public object ----------------------------------------------- */

static char *upper_dup(const char *s)
{
	if (!s || !*s)
		return NULL;
	char *d = ks_xstrdup(s);
	for (char *p = d; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return d;
}

ks_config *ks_config_new(const char *subsys, const char *localname)
{
	ks_config *cfg = ks_xcalloc(1, sizeof(*cfg));
	cfg->subsys = upper_dup(subsys);
	cfg->localname = localname && *localname ? ks_xstrdup(localname) : NULL;
	cfg->tilde_source = -1;
	return cfg;
}

void ks_config_free(ks_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->n; i++) {
		free(cfg->macros[i].name);
		free(cfg->macros[i].value);
		free(cfg->macros[i].use);
	}
	for (size_t i = 0; i < cfg->nsources; i++)
		free(cfg->sources[i]);
	for (size_t i = 0; i < cfg->nwarnings; i++)
		free(cfg->warnings[i]);
	memo_clear(cfg);
	free(cfg->memo);
	free(cfg->macros);
	free(cfg->index);
	free(cfg->sources);
	free(cfg->files);
	free(cfg->warnings);
	free(cfg->subsys);
	free(cfg->localname);
	free(cfg);
}

int ks_config_set(ks_config *cfg, const char *name, const char *value,
		  const char *source)
{
	size_t len = strlen(name);
	if (!kc_valid_name(name, len))
		return KS_EINVAL;
	int src = kc_add_source(cfg, source ? source : "<internal>", false);
	char *v = kc_expand_self(cfg, value, name);
	kc_insert(cfg, name, v, src, 0, NULL);
	free(v);
	return 0;
}

const char *ks_config_raw(const ks_config *cfg, const char *name,
			  struct ks_config_origin *origin)
{
	return kc_lookup(cfg, name, strlen(name), origin);
}

bool ks_config_next(const ks_config *cfg, size_t *pos, const char **name,
		    const char **raw, struct ks_config_origin *origin)
{
	if (*pos == 0)
		kc_settle(cfg);
	if (*pos >= cfg->n)
		return false;
	const struct kc_macro *m = &cfg->macros[(*pos)++];
	if (name)
		*name = m->name;
	if (raw)
		*raw = m->value;
	set_origin(cfg, m, origin);
	return true;
}

size_t ks_config_file_count(const ks_config *cfg)
{
	return cfg->nfiles;
}

const char *ks_config_file(const ks_config *cfg, size_t i)
{
	return i < cfg->nfiles ? cfg->sources[cfg->files[i]] : NULL;
}

const char *ks_config_warning(const ks_config *cfg, size_t i)
{
	return i < cfg->nwarnings ? cfg->warnings[i] : NULL;
}
