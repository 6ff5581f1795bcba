/*
 * classad.h: the ClassAd language (libclassad).
 *
 * Values, expressions, ads, the three text forms (new "[a = 1; b = a]",
 * old "a = 1" per line, JSON) and XML output, evaluation with HTCondor's
 * semantics, and matchmaking between two ads.  See docs/classad.md.
 *
 * Reference counting.  Ads (classad), expressions (classad_expr) and the
 * strings, lists and nested ads held by values are reference counted.
 * Every function that returns a new object or a new reference says so and
 * names the function that releases it.  Expressions are immutable once
 * built, so one expression may be shared by any number of ads.
 *
 * Threads.  Reference counts are not atomic: an ad, an expression, a cache,
 * an environment (random() advances its generator) and everything reachable
 * from them belong to one thread at a time.
 *
 * Errors.  Functions that can fail return 0 or a negative KS_E* code and
 * fill a caller-owned struct ks_err (NULL allowed) with the position and
 * a message.  No input, however malformed, makes the library crash, hang
 * or read outside its input.
 */
#ifndef CLASSAD_H
#define CLASSAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ks_err.h"

typedef struct classad classad;             /* an ad: named expressions */
typedef struct classad_expr classad_expr;   /* an immutable expression */
typedef struct classad_match classad_match; /* two ads seen as a match */
typedef struct classad_cache classad_cache; /* shares parsed expressions */
typedef struct classad_env classad_env;     /* caller hooks: userMap, debug */

/* Opaque internals that values point at. */
struct ca_str;
struct ca_scope;

enum classad_type {
	CLASSAD_UNDEFINED = 0,
	CLASSAD_ERROR,
	CLASSAD_BOOLEAN,
	CLASSAD_INTEGER,
	CLASSAD_REAL,
	CLASSAD_STRING,
	CLASSAD_LIST,
	CLASSAD_AD,
	CLASSAD_ABSTIME,
	CLASSAD_RELTIME,
};

/*
 * The result of an evaluation.  Initialise with CLASSAD_VALUE_INIT (which is
 * undefined) and release with classad_value_clear().  Read the fields of
 * scalar types directly; use the accessors below for strings, lists and ads.
 */
typedef struct classad_value {
	uint8_t type; /* enum classad_type */
	union {
		bool b;            /* CLASSAD_BOOLEAN */
		int64_t i;         /* CLASSAD_INTEGER */
		double r;          /* CLASSAD_REAL, CLASSAD_RELTIME (seconds) */
		struct {
			int64_t secs;   /* seconds since the epoch, UTC */
			int32_t offset; /* the time zone's offset, seconds */
		} abs;             /* CLASSAD_ABSTIME */
		struct ca_str *s;  /* CLASSAD_STRING */
		struct {
			const classad_expr *list; /* a list expression */
			struct ca_scope *scope;   /* where its items evaluate */
		} l;               /* CLASSAD_LIST */
		struct ca_scope *ad; /* CLASSAD_AD */
	} u;
} classad_value;

#define CLASSAD_VALUE_INIT {0}

/* ---- values ---------------------------------------------------------- */

/* Releases what v holds and makes it undefined.  NULL allowed. */
void classad_value_clear(classad_value *v);

/* Makes dst a copy of src (dst is cleared first; strings, lists and ads are
 * shared by reference). */
void classad_value_copy(classad_value *dst, const classad_value *src);

void classad_value_set_undefined(classad_value *v);
void classad_value_set_error(classad_value *v);
void classad_value_set_bool(classad_value *v, bool b);
void classad_value_set_int(classad_value *v, int64_t i);
void classad_value_set_real(classad_value *v, double r);
/* Copies len bytes of s. */
void classad_value_set_string(classad_value *v, const char *s, size_t len);
void classad_value_set_abstime(classad_value *v, int64_t secs, int32_t offset);
void classad_value_set_reltime(classad_value *v, double secs);

/* The bytes of a string value (NUL-terminated; *len may be NULL), or NULL if
 * v is not a string.  Borrowed: valid while v holds it. */
const char *classad_value_str(const classad_value *v, size_t *len);

/* v read as a boolean the way HTCondor's policies and constraints read
 * one: a boolean as it is, a number as true when non-zero.  Returns
 * false (leaving *out) for any other value (undefined, error, a string). */
bool classad_value_bool(const classad_value *v, bool *out);

/* Number of items of a list value (0 if v is not a list). */
size_t classad_value_list_size(const classad_value *v);

/* Evaluates item i of a list value into out (cleared first) in the scope the
 * list came from.  env may be NULL.  Returns 0, KS_ERANGE if i is out of
 * range or v is not a list, or KS_EEVAL if evaluation failed (out is then an
 * error value). */
int classad_value_list_get(const classad_value *v, size_t i,
			   const classad_env *env, classad_value *out);

/* The ad of a classad value, or NULL.  Borrowed: valid while v holds it. */
const classad *classad_value_ad(const classad_value *v);

/* "undefined", "error", "boolean", "integer", "real", "string", "list",
 * "classad", "abstime", "reltime". */
const char *classad_type_name(int type);

/* Unparses a value in new syntax (old syntax if old is true).  Returns a new
 * string; free with free(). */
char *classad_value_unparse(const classad_value *v, bool old);

/* ---- expressions ----------------------------------------------------- */

/* Adds a reference to e and returns it.  NULL allowed. */
classad_expr *classad_expr_ref(const classad_expr *e);

/* Drops a reference; frees e when none remain.  NULL allowed. */
void classad_expr_free(classad_expr *e);

/* Parses one expression in new syntax from len bytes of text; the whole
 * text must be one expression -- except that, as in HTCondor, text after a
 * complete conditional (a ? b : c) is not checked.  Returns a new expression (free with
 * classad_expr_free()) or NULL with err filled. */
classad_expr *classad_parse_expr(const char *text, size_t len,
				 struct ks_err *err);

/* Like classad_parse_expr() but with old-ClassAd string escaping, as the
 * value of an old-syntax "Name = value" line. */
classad_expr *classad_parse_expr_old(const char *text, size_t len,
				     struct ks_err *err);

/* A new literal expression holding a copy of v. */
classad_expr *classad_expr_literal(const classad_value *v);

/* Unparses e in new syntax (old syntax if old is true).  Returns a new
 * string; free with free(). */
char *classad_expr_unparse(const classad_expr *e, bool old);

/* True if a and b are the same expression: same structure, same literals,
 * and attribute names spelled the same (case included). */
bool classad_expr_same(const classad_expr *a, const classad_expr *b);

/* If e is a literal, copies its value into out and returns true. */
bool classad_expr_is_literal(const classad_expr *e, classad_value *out);

/* Whether e is a list expression ({a, b}). */
bool classad_expr_is_list(const classad_expr *e);

/* Calls fn with the name of each attribute e reads from the ad it is
 * evaluated in: plain names and MY.name, not TARGET.name, .name or names
 * inside nested ads; not followed through the attributes' own
 * expressions.  A name may come more than once.  The name is borrowed
 * for the call. */
void classad_expr_each_ref(const classad_expr *e,
			   void (*fn)(const char *name, void *arg), void *arg);

/* Calls fn with the name of each attribute e, an expression of ad, reads
 * from the other ad of a match: TARGET.name, and plain names that ad does
 * not define (evaluation looks them up in the target).  As HTCondor's
 * external references: what the negotiator tells schedds makes jobs
 * differ to the slots.  A name may come more than once; borrowed. */
void classad_expr_each_target_ref(const classad *ad, const classad_expr *e,
				  void (*fn)(const char *name, void *arg),
				  void *arg);

/* ---- ads ------------------------------------------------------------- */

/* A new empty ad; free with classad_free(). */
classad *classad_new(void);

/* Adds a reference to ad and returns it.  NULL allowed. */
classad *classad_ref(const classad *ad);

/* Drops a reference; frees the ad when none remain.  NULL allowed. */
void classad_free(classad *ad);

/* A new ad with the same attributes (expressions are shared) and the same
 * chained parent. */
classad *classad_copy(const classad *ad);

/* Number of attributes (not counting a chained parent's). */
size_t classad_size(const classad *ad);

/* Makes room for n attributes in all, so that an ad about to get a few
 * more (a daemon adding its own to an ad it received) grows once, by
 * that much, rather than doubling. */
void classad_reserve(classad *ad, size_t n);

/* Sets attribute name (case is kept; lookups ignore it) to e, replacing any
 * attribute of that name.  Takes the caller's reference to e, even on
 * failure.  Returns 0 or KS_EINVAL for an empty name, KS_ERANGE if the ad
 * is full (65000 attributes). */
int classad_insert(classad *ad, const char *name, classad_expr *e);

/* Convenience forms of classad_insert() with literal values. */
int classad_insert_int(classad *ad, const char *name, int64_t i);
int classad_insert_real(classad *ad, const char *name, double r);
int classad_insert_bool(classad *ad, const char *name, bool b);
int classad_insert_string(classad *ad, const char *name, const char *s);
int classad_insert_value(classad *ad, const char *name,
			 const classad_value *v);

/* Parses text as a new-syntax expression and inserts it. */
int classad_insert_text(classad *ad, const char *name, const char *text,
			struct ks_err *err);

/* The expression of attribute name (ignoring case), looking through a
 * chained parent, or NULL.  Borrowed: valid until the attribute is changed
 * or the ad is freed. */
const classad_expr *classad_lookup(const classad *ad, const char *name);

/* Looking an attribute up in many ads in turn (a query over a table of
 * ads) mostly waits for memory.  Before looking name up in ads[i], call
 * classad_prefetch(ads[i + k], name, k) for k = 1 .. CLASSAD_PREFETCH_AHEAD
 * (only the even k do anything): each call starts loading the part of the
 * lookup that the earlier ones (for larger k) have brought in.  Only a
 * hint: any ad, name and k are harmless. */
#define CLASSAD_PREFETCH_AHEAD 6
void classad_prefetch(const classad *ad, const char *name, int k);

/* Removes attribute name; returns true if it was there. */
bool classad_delete(classad *ad, const char *name);

/* Removes every attribute. */
void classad_clear(classad *ad);

/* Copies every attribute of src into dst (replacing same-named ones). */
void classad_update(classad *dst, const classad *src);

/* Iterates attributes in insertion order: start with *pos = 0; each call
 * returns true and sets *name and *e (borrowed) until the end.  Changing the
 * ad during iteration is not allowed. */
bool classad_next(const classad *ad, size_t *pos, const char **name,
		  const classad_expr **e);

/* Makes parent the chained parent of ad (HTCondor's cluster ad under a proc
 * ad): lookups that miss in ad continue in parent.  Takes a reference to
 * parent; NULL unchains.  Returns 0, or KS_EINVAL (ad unchanged) if parent
 * is ad or chains to it. */
int classad_chain(classad *ad, classad *parent);

/* The chained parent, or NULL.  Borrowed. */
classad *classad_chained_parent(const classad *ad);

/* ---- text forms ------------------------------------------------------ */

enum classad_format {
	CLASSAD_FMT_NEW,  /* [ a = 1; b = "x" ] */
	CLASSAD_FMT_OLD,  /* a = 1\nb = "x"\n (condor_q -l) */
	CLASSAD_FMT_JSON, /* {"a": 1, "b": "x"} */
};

/* Parses exactly one ad from len bytes of text; a second ad after it is an
 * error (classad_reader reads several).  Empty old-syntax text is an empty
 * ad.  cache (NULL allowed) shares expressions and names with other ads
 * parsed through it; it serves old syntax, where ads listed by condor_q -l
 * repeat the same lines, and the other forms ignore it.  Returns a new ad
 * or NULL with err filled. */
classad *classad_parse(const char *text, size_t len, enum classad_format fmt,
		       classad_cache *cache, struct ks_err *err);

/* Reads a sequence of ads from one text: old-syntax ads separated by blank
 * lines (lines starting with '#' are comments), new-syntax ads one after
 * another, or a JSON array of objects (or objects one after another). */
typedef struct classad_reader classad_reader;

/* A new reader over text, which must outlive it; free with
 * classad_reader_free(). */
classad_reader *classad_reader_new(const char *text, size_t len,
				   enum classad_format fmt,
				   classad_cache *cache);
void classad_reader_free(classad_reader *r);

/* Sets *out to the next ad (new; free with classad_free()).  Returns 1 for
 * an ad, 0 at the end, or a negative KS_E* code with err filled (line and
 * column are those of the whole text). */
int classad_reader_next(classad_reader *r, classad **out, struct ks_err *err);

/* The byte offset reading has reached: the text between the offsets
 * before and after a classad_reader_next() that returned an ad is that
 * ad's own text, which classad_parse() reads back to the same ad. */
size_t classad_reader_pos(const classad_reader *r);

/* kestrel's one growable text buffer: the unparsers append to it, and so
 * does every other part of kestrel that builds text.  Start zeroed; free
 * data with free(). */
struct classad_buf {
	char *data; /* NUL-terminated while len > 0 */
	size_t len;
	size_t cap;
};

/* Makes room for extra more bytes (and the NUL). */
void classad_buf_reserve(struct classad_buf *b, size_t extra);
/* Appends n bytes of s (NUL-terminated after). */
void classad_buf_add(struct classad_buf *b, const char *s, size_t n);
/* Appends the C string s, or the one byte c. */
void classad_buf_puts(struct classad_buf *b, const char *s);
void classad_buf_putc(struct classad_buf *b, char c);
/* Appends printf-style text. */
void classad_buf_printf(struct classad_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends the ad in the given form.  NEW: "[ a = 1; b = 2 ]"; OLD: one
 * "Name = value" line each; JSON: an object on one line if oneline, else
 * indented as HTCondor writes it. */
void classad_unparse_buf(struct classad_buf *b, const classad *ad,
			 enum classad_format fmt);
void classad_unparse_json_buf(struct classad_buf *b, const classad *ad,
			      bool oneline);

/* Appends the ad as HTCondor's XML unparser writes it: <c>, one
 * <a n="Name"> per attribute, literals as <s> <i> <r> <b v="t"/> <un/>
 * <er/> <at> <rt>, lists as <l>, nested ads as <c>, any other expression
 * as <e> holding its new-syntax text.  Unless compact, each attribute is
 * on its own line, indented 4 spaces a level, and the ad ends with a
 * newline, as condor_q, condor_status and condor_history print it; compact
 * is one line without a newline.  Nothing parses this form back. */
void classad_unparse_xml_buf(struct classad_buf *b, const classad *ad,
			     bool compact);
/* What goes before and after the ads of an XML listing: the lines
 * <?xml ...?>, <!DOCTYPE ...> and <classads>, and </classads>. */
void classad_xml_header_buf(struct classad_buf *b);
void classad_xml_footer_buf(struct classad_buf *b);

/* classad_unparse_buf() into a new string; free with free(). */
char *classad_unparse(const classad *ad, enum classad_format fmt);

/* Appends one expression (new or old syntax). */
void classad_expr_unparse_buf(struct classad_buf *b, const classad_expr *e,
			      bool old);

/* Appends a string as a quoted ClassAd string literal (new syntax). */
void classad_quote_string_buf(struct classad_buf *b, const char *s,
			      size_t len);

/* ---- caches and environments ---------------------------------------- */

/* A cache of parsed expressions and attribute names: ads parsed through one
 * cache share identical expressions, which saves memory and parsing time
 * (texts over 1 MiB are parsed each time, never kept by the cache).
 * Free with classad_cache_free() (ads parsed through it stay valid). */
classad_cache *classad_cache_new(void);
void classad_cache_free(classad_cache *cache);

/* classad_parse_expr() through cache (NULL: none): the same text parsed
 * again gives the expression parsed the first time (a new reference;
 * expressions are immutable).  For a program that parses the same texts
 * over and over. */
classad_expr *classad_parse_expr_cached(classad_cache *cache, const char *text,
					size_t len, struct ks_err *err);

/* Drops cached expressions no ad uses any more; returns how many. */
size_t classad_cache_purge(classad_cache *cache);

/* Maps input through the user map called map_name (userMap()).  Sets
 * *output to a new string (free()d by the library) holding the result, a
 * comma-separated list of names; returns false if the map or the input is
 * unknown. */
typedef bool (*classad_usermap_fn)(void *arg, const char *map_name,
				   const char *input, char **output);

/* Receives the lines debug() writes. */
typedef void (*classad_debug_fn)(void *arg, const char *line);

/* A new environment; free with classad_env_free().  Without one (NULL),
 * userMap() finds no maps, debug() writes nothing, and userHome() returns
 * its default, as in HTCondor's default configuration. */
classad_env *classad_env_new(void);
void classad_env_free(classad_env *env);
void classad_env_set_usermap(classad_env *env, classad_usermap_fn fn,
			     void *arg);
void classad_env_set_debug(classad_env *env, classad_debug_fn fn, void *arg);
/* Lets userHome() look users up in the password database. */
void classad_env_enable_user_home(classad_env *env, bool enable);

/* ---- evaluation ------------------------------------------------------ */

/*
 * Evaluations fill out (cleared first) and return 0, or KS_EEVAL when the
 * evaluation failed outright (too deep, too long) and out is an error value.
 * An evaluation that merely yields error or undefined returns 0.
 * ad may be NULL, meaning an empty ad; env may be NULL.
 */
int classad_eval_expr(const classad *ad, const classad_expr *e,
		      const classad_env *env, classad_value *out);

/* Evaluates attribute name of ad (undefined if there is none). */
int classad_eval_attr(const classad *ad, const char *name,
		      const classad_env *env, classad_value *out);

/* Evaluates e with my as MY and target as TARGET, as HTCondor does for an
 * expression of one ad about another: my and target become the two sides
 * of a match.  target may be NULL (then as classad_eval_expr()). */
int classad_eval_expr_in_match(const classad *my, const classad *target,
			       const classad_expr *e, const classad_env *env,
			       classad_value *out);

/* Typed conveniences: evaluate attribute name and convert as HTCondor's
 * EvaluateAttr* do.  Return true and set *out if the value has (or converts
 * to) the type: numbers from integers, reals and booleans; booleans from
 * booleans and numbers (non-zero is true).  *str is a new string (free()). */
bool classad_eval_int(const classad *ad, const char *name,
		      const classad_env *env, int64_t *out);
bool classad_eval_real(const classad *ad, const char *name,
		       const classad_env *env, double *out);
bool classad_eval_bool(const classad *ad, const char *name,
		       const classad_env *env, bool *out);
bool classad_eval_string(const classad *ad, const char *name,
			 const classad_env *env, char **str);
/* Attribute name of ad evaluated (without an env) as a string: a new
 * string (free()), or NULL when ad is NULL or the attribute is missing or
 * not a string. */
char *classad_eval_string_dup(const classad *ad, const char *name);

/* ---- matchmaking ----------------------------------------------------- */

enum classad_side { CLASSAD_LEFT = 0, CLASSAD_RIGHT = 1 };

/*
 * A match of two ads, as the negotiator and the startd see one: each ad's
 * TARGET is the other, unscoped names missing from one ad are looked up in
 * the other (old-ClassAd semantics), and each side's Requirements and Rank
 * can be evaluated.  Takes references to both ads (either may be NULL,
 * meaning an empty ad); env may be NULL and must outlive the match.
 * Free with classad_match_free().
 */
classad_match *classad_match_new(const classad *left, const classad *right,
				 const classad_env *env);
void classad_match_free(classad_match *m);

/* Replaces the ads of m (cheaper than a new match). */
void classad_match_set(classad_match *m, const classad *left,
		       const classad *right);

/* right's Requirements is true with left as TARGET. */
bool classad_match_left_matches_right(classad_match *m);
/* left's Requirements is true with right as TARGET. */
bool classad_match_right_matches_left(classad_match *m);
/* Both. */
bool classad_match_symmetric(classad_match *m);

/* Evaluates side's Rank with the other side as TARGET. */
int classad_match_rank(classad_match *m, enum classad_side side,
		       classad_value *out);

/* Evaluates e, or attribute name, with side as MY and the other as TARGET. */
int classad_match_eval(classad_match *m, enum classad_side side,
		       const classad_expr *e, classad_value *out);
int classad_match_eval_attr(classad_match *m, enum classad_side side,
			    const char *name, classad_value *out);

#endif
