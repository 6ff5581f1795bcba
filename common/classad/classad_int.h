/*
 * classad_int.h: internals shared by the files of common/classad.
 * Nothing here is part of the public API.
 */
#ifndef CLASSAD_INT_H
#define CLASSAD_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "ks_mem.h" /* allocation failure is fatal, like HTCondor's EXCEPT */

/* ---- strings --------------------------------------------------------- */

/* An immutable, reference-counted byte string, always NUL-terminated.
 * hash is the case-insensitive hash of the bytes (ca_hash_ci). */
struct ca_str {
	uint32_t refs;
	uint32_t len;
	uint32_t hash;
	char s[];
};

/* A new string with one reference. */
struct ca_str *ca_str_new(const char *s, size_t len);
static inline struct ca_str *ca_str_ref(struct ca_str *s)
{
	s->refs++;
	return s;
}
void ca_str_unref(struct ca_str *s);

/* Case-insensitive (ASCII) hash, as attribute names compare. */
uint32_t ca_hash_ci(const char *s, size_t len);
/* Byte hash for cache keys. */
uint64_t ca_hash_bytes(const void *p, size_t len);

/* ASCII case-insensitive equality of len bytes (names are short: a loop
 * beats a call). */
static inline bool ca_bytes_ieq(const char *a, const char *b, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x == y)
			continue;
		if ((x | 0x20) != (y | 0x20) || (x | 0x20) < 'a' ||
		    (x | 0x20) > 'z')
			return false;
	}
	return true;
}

static inline bool ca_name_eq(const struct ca_str *a, const struct ca_str *b)
{
	return a == b || (a->hash == b->hash && a->len == b->len &&
			  ca_bytes_ieq(a->s, b->s, a->len));
}

/* ---- text buffers ---------------------------------------------------- */

/* (classad_buf_reserve, classad_buf_add and classad_buf_printf are public:
 * classad.h) */
static inline void ca_buf_addc(struct classad_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		classad_buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}
/* How new syntax writes the byte c inside a quoted literal (besides its
 * delimiter): an escape (a constant, or tmp for an octal one), or NULL
 * for c itself. */
const char *ca_char_escape(char c, char tmp[8]);

static inline void ca_buf_adds(struct classad_buf *b, const char *s)
{
	classad_buf_add(b, s, strlen(s));
}
void ca_buf_add_int(struct classad_buf *b, int64_t i);
/* Takes the bytes out of b as a new string (never NULL) and resets b. */
char *ca_buf_take(struct classad_buf *b);

/* ---- expressions ----------------------------------------------------- */

enum ca_kind {
	CA_K_LIT,      /* struct ca_lit */
	CA_K_ATTR,     /* struct ca_attr */
	CA_K_OP,       /* struct ca_opnode */
	CA_K_CALL,     /* struct ca_call */
	CA_K_LIST,     /* struct ca_list */
	CA_K_AD,       /* struct ca_adlit */
	CA_K_SCOPEREF, /* struct ca_scoperef: a match's own ads */
};

/* Operators, in the order of their unparsed spellings (unparse.c). */
enum ca_op {
	CA_OP_NONE,
	CA_OP_LT,
	CA_OP_LE,
	CA_OP_NE,
	CA_OP_EQ,
	CA_OP_GE,
	CA_OP_GT,
	CA_OP_META_EQ, /* =?=, is */
	CA_OP_META_NE, /* =!=, isnt */
	CA_OP_UPLUS,
	CA_OP_UMINUS,
	CA_OP_ADD,
	CA_OP_SUB,
	CA_OP_MUL,
	CA_OP_DIV,
	CA_OP_MOD,
	CA_OP_NOT,
	CA_OP_OR,
	CA_OP_AND,
	CA_OP_BITNOT,
	CA_OP_BITOR,
	CA_OP_BITXOR,
	CA_OP_BITAND,
	CA_OP_LSHIFT,
	CA_OP_RSHIFT,
	CA_OP_URSHIFT,
	CA_OP_PAREN,
	CA_OP_SUBSCRIPT,
	CA_OP_ELVIS,
	CA_OP_TERNARY,
	CA_OP_COUNT
};

struct classad_expr {
	uint32_t refs;
	uint8_t kind;  /* enum ca_kind */
	uint8_t op;    /* CA_K_OP: enum ca_op */
	uint16_t flags;
};

#define CA_LIT_RELTIME 0x1 /* a relTime("...") literal: evaluates to a real */
#define CA_ATTR_ABSOLUTE 0x1 /* ".name": looked up from the root scope */
/* Bits 1-3 of an attribute reference's flags: which special name it is
 * (toplevel/root, self/my, parent, CurrentTime), computed once. */
#define CA_ATTR_SPECIAL_SHIFT 1
#define CA_ATTR_SPECIAL_MASK 0xe
enum { CA_SP_NONE, CA_SP_ROOT, CA_SP_SELF, CA_SP_PARENT, CA_SP_TIME };
int ca_special_name(const struct ca_str *n);

struct ca_lit {
	struct classad_expr h;
	classad_value v;
};

struct ca_attr {
	struct classad_expr h;
	classad_expr *base; /* "base.name", or NULL */
	struct ca_str *name;
};

struct ca_opnode {
	struct classad_expr h;
	classad_expr *a[3];
};

struct ca_state;
struct ca_call;
typedef bool (*ca_fn)(struct ca_state *st, const struct ca_call *call,
		      classad_value *out);

struct ca_builtin {
	const char *name;
	ca_fn fn;
};

struct ca_call {
	struct classad_expr h;
	const struct ca_builtin *fn; /* NULL: unknown, evaluates to error */
	struct ca_str *name;         /* as written */
	uint32_t n;
	classad_expr *args[];
};

struct ca_list {
	struct classad_expr h;
	uint32_t n;
	classad_expr *items[];
};

struct ca_adlit {
	struct classad_expr h;
	classad *ad;
};

struct ca_scoperef {
	struct classad_expr h;
	struct ca_scope *scope; /* weak; cleared when its match goes */
};

/* Constructors: each returns a new expression with one reference and takes
 * the references passed in (children, names). */
classad_expr *ca_lit_new(const classad_value *v); /* copies v */
classad_expr *ca_lit_take(classad_value *v);      /* takes v */
classad_expr *ca_lit_int(int64_t i);
classad_expr *ca_lit_real(double r);
classad_expr *ca_lit_bool(bool b);
classad_expr *ca_lit_undefined(void);
classad_expr *ca_lit_error(void);
classad_expr *ca_lit_string(const char *s, size_t len);
classad_expr *ca_lit_str(struct ca_str *s);
classad_expr *ca_attr_new(classad_expr *base, struct ca_str *name,
			  bool absolute);
classad_expr *ca_op_new(int op, classad_expr *a, classad_expr *b,
			classad_expr *c);
classad_expr *ca_call_new(struct ca_str *name, uint32_t n,
			  classad_expr **args);
classad_expr *ca_list_new(uint32_t n, classad_expr **items);
classad_expr *ca_adlit_new(classad *ad);
classad_expr *ca_scoperef_new(struct ca_scope *scope);

static inline const struct ca_lit *ca_as_lit(const classad_expr *e)
{
	return (const struct ca_lit *)e;
}
static inline const struct ca_list *ca_as_list(const classad_expr *e)
{
	return (const struct ca_list *)e;
}

/* Builtin functions, found by name ignoring case (NULL if unknown). */
const struct ca_builtin *ca_builtin_find(const char *name, size_t len);

/* ---- ads and scopes -------------------------------------------------- */

enum ca_scope_kind { CA_SCOPE_HEAP, CA_SCOPE_AD, CA_SCOPE_MATCH };

/*
 * A scope: one level of attribute lookup.  Unscoped names are looked up in
 * ad, then up the parent chain; in a match, an unscoped name that is not
 * found anywhere is looked up again from alt (the other side).  Scopes
 * embedded in an ad or a match count their references on their owner.
 */
struct ca_scope {
	uint32_t refs; /* CA_SCOPE_HEAP only */
	uint8_t kind;
	classad *ad;
	struct ca_scope *parent;
	struct ca_scope *alt;
	void *owner;
};

struct ca_scope *ca_scope_ref(struct ca_scope *s);
void ca_scope_unref(struct ca_scope *s);
/* A new heap scope for ad (referenced) under parent (referenced). */
struct ca_scope *ca_scope_new(classad *ad, struct ca_scope *parent);

struct ca_entry {
	struct ca_str *name; /* NULL: deleted */
	classad_expr *expr;
};

#define CA_AD_MAX 65000

struct classad {
	uint32_t refs;
	uint32_t n;    /* entries used, live or deleted */
	uint32_t live; /* live entries */
	uint32_t cap;
	uint32_t imask; /* index size - 1, 0 without an index */
	struct ca_entry *ents;
	/* 0: empty; else (hash >> 16) << 16 | (entry number + 1), so that a
	 * probe rarely has to look at the entry itself. */
	uint32_t *index;
	struct classad *chain;
	struct ca_scope root;
};

/* Looks up name (with its hash in name->hash) in ad only, not its chain. */
const classad_expr *ca_ad_find(const classad *ad, const struct ca_str *name);
/* Looks through the chain too. */
const classad_expr *ca_ad_lookup(const classad *ad, const struct ca_str *name);
/* Inserts, taking both references. */
int ca_ad_insert(classad *ad, struct ca_str *name, classad_expr *e);
/* Shrinks storage to fit (after parsing). */
void ca_ad_compact(classad *ad);
/* Makes room for n entries in all (before parsing n lines). */
void ca_ad_reserve(classad *ad, uint32_t n);

void ca_match_ref(classad_match *m);
void ca_match_unref(classad_match *m);

/* ---- evaluation ------------------------------------------------------ */

#define CA_MAX_DEPTH 400          /* nested evaluations, as HTCondor */
#define CA_MAX_STEPS 10000000L    /* node evaluations per top-level eval */

struct ca_frame {
	const struct ca_scope *scope;
	const classad_expr *e;
};

/* A resolved unscoped name: where (start, name) led.  Ads do not change
 * during an evaluation, so a lookup's result can be reused. */
struct ca_resolved {
	const struct ca_scope *start;
	const struct ca_str *name;
	const classad_expr *expr;
	struct ca_scope *scope;
};
#define CA_RESOLVED 16

struct ca_state {
	struct ca_resolved resolved[CA_RESOLVED];
	struct ca_scope *cur;  /* where unscoped names start */
	struct ca_scope *root; /* where ".name" starts; topmost scope */
	const classad_env *env;
	int depth;             /* remaining nesting */
	long steps;            /* remaining node evaluations */
	struct ca_frame *stack; /* attribute evaluations in progress */
	int nstack;
	bool debug;
};

struct classad_env {
	classad_usermap_fn usermap;
	void *usermap_arg;
	classad_debug_fn debug;
	void *debug_arg;
	bool user_home;
	uint64_t rng;
};

/* Sets up st to evaluate in scope (root is found from it); stack must hold
 * CA_MAX_DEPTH + 1 frames. */
void ca_state_init(struct ca_state *st, struct ca_scope *scope,
		   const classad_env *env, struct ca_frame *stack);

/* Evaluates e into out (which must hold nothing: it is overwritten).
 * Returns false on a hard failure (too deep, too many steps): out is then
 * an error value and the failure propagates to the top. */
bool ca_eval(struct ca_state *st, const classad_expr *e, classad_value *out);

/* Applies a binary (or unary, b ignored) operator to two values; consumes
 * neither. */
void ca_operate(int op, const classad_value *a, const classad_value *b,
		classad_value *out);

/* As ca_operate(), but a comparison or arithmetic first converts both
 * operands in place (booleans to integers, an integer meeting a real to a
 * real), as HTCondor's Operate() does to the Values its list functions
 * keep using. */
void ca_operate_inplace(int op, classad_value *a, classad_value *b,
			classad_value *out);

/* A one-shot top-level evaluation in scope, as the public API does it. */
int ca_eval_top(struct ca_scope *scope, const classad_expr *e,
		const classad_env *env, classad_value *out);

/* Evaluates item i of a list value with the current state (the caller's
 * scope, as HTCondor's list functions do). */
static inline bool ca_eval_item(struct ca_state *st, const classad_value *l,
				uint32_t i, classad_value *out)
{
	return ca_eval(st, ca_as_list(l->u.l.list)->items[i], out);
}

enum { CA_FIND_FAIL, CA_FIND_OK, CA_FIND_UNDEF, CA_FIND_ERROR };

/* Finds what attribute reference e names without evaluating it (HTCondor's
 * Deref): CA_FIND_OK with *found set (NULL when the name is a special one
 * such as MY), or another CA_FIND_*.  st->cur is left where the lookup
 * ended, as HTCondor leaves it. */
int ca_deref(struct ca_state *st, const classad_expr *e,
	     const classad_expr **found);

/* A set of names, sorted and unique ignoring case. */
struct ca_names {
	char **v;
	size_t n;
	size_t cap;
};
void ca_names_add(struct ca_names *ns, const char *s, size_t len);
void ca_names_free(struct ca_names *ns);

/* The names e refers to that resolve nowhere (full names such as
 * "TARGET.x" when the base is undefined); false if that cannot be told. */
bool ca_external_refs(struct ca_state *st, const classad_expr *e,
		      struct ca_names *refs);

/* ---- values ---------------------------------------------------------- */

/* classad_value_clear() without a call when there is nothing to free. */
static inline void ca_value_clear(classad_value *v)
{
	if (v->type >= CLASSAD_STRING && v->type <= CLASSAD_AD)
		classad_value_clear(v);
	else
		v->type = CLASSAD_UNDEFINED;
}

static inline void ca_set_undef(classad_value *v)
{
	ca_value_clear(v);
}

static inline void ca_set_error(classad_value *v)
{
	ca_value_clear(v);
	v->type = CLASSAD_ERROR;
}

static inline void ca_set_bool(classad_value *v, bool b)
{
	ca_value_clear(v);
	v->type = CLASSAD_BOOLEAN;
	v->u.b = b;
}

static inline void ca_set_int(classad_value *v, int64_t i)
{
	ca_value_clear(v);
	v->type = CLASSAD_INTEGER;
	v->u.i = i;
}

static inline void ca_set_real(classad_value *v, double r)
{
	ca_value_clear(v);
	v->type = CLASSAD_REAL;
	v->u.r = r;
}

static inline void ca_set_reltime(classad_value *v, double r)
{
	ca_value_clear(v);
	v->type = CLASSAD_RELTIME;
	v->u.r = r;
}

static inline void ca_value_move(classad_value *dst, classad_value *src)
{
	*dst = *src;
	src->type = CLASSAD_UNDEFINED;
}

/* Makes v a list value of the given items (taking them), scope NULL. */
void ca_value_list_take(classad_value *v, uint32_t n, classad_expr **items);
/* Makes v a string value that takes s. */
void ca_value_str_take(classad_value *v, struct ca_str *s);
/* Makes v an ad value for a new heap scope of ad (taking ad). */
void ca_value_ad_take(classad_value *v, classad *ad);

/* Number-like tests, as HTCondor's Value::IsNumber / IsBooleanValueEquiv. */
bool ca_value_number(const classad_value *v, double *r);
static inline bool ca_value_bool_equiv(const classad_value *v, bool *b)
{
	switch (v->type) {
	case CLASSAD_BOOLEAN:
		*b = v->u.b;
		return true;
	case CLASSAD_INTEGER:
		*b = v->u.i != 0;
		return true;
	case CLASSAD_REAL:
		*b = v->u.r != 0.0;
		return true;
	default:
		return false;
	}
}

/* HTCondor's convertValueTo{String,Integer,Real}Value: out is the converted
 * value, or undefined/error; returns whether it converted. */
bool ca_to_string(const classad_value *v, classad_value *out);
bool ca_to_int(const classad_value *v, classad_value *out);
bool ca_to_real(const classad_value *v, classad_value *out);

/* C conversion of a double to int64 as x86-64 does it (out of range and
 * NaN give INT64_MIN). */
int64_t ca_double_to_i64(double d);

/* ---- unparsing ------------------------------------------------------- */

void ca_unparse_expr(struct classad_buf *b, const classad_expr *e, bool old);
void ca_unparse_value(struct classad_buf *b, const classad_value *v,
		      bool old);
void ca_unparse_real(struct classad_buf *b, double r, bool old);
void ca_format_real(struct classad_buf *b, double r, bool old, bool exact);
/* As HTCondor converts a value to a string: reals with 16 digits even
 * where that loses precision. */
void ca_unparse_value_lossy(struct classad_buf *b, const classad_value *v);
void ca_unparse_string(struct classad_buf *b, const char *s, size_t len,
		       bool old);
void ca_unparse_name(struct classad_buf *b, const char *s, size_t len);
void ca_unparse_ad_attrs(struct classad_buf *b, const classad *ad, bool old);
/* HTCondor's PrettyPrint layout, as the unparse() function writes. */
void ca_unparse_pretty(struct classad_buf *b, const classad_expr *e);

/* A walk over an ad for the unparsers that write it as nested markup
 * (walk.c): each call appends to whatever arg holds.  Literal lists and
 * ads, and those held by literal values, are walked into; scalar()
 * receives every other literal value (reltime: a relTime("...")
 * literal, whose value is a real), expr() every other expression.
 * attr_close and item may be NULL. */
struct ca_walk {
	void (*ad_open)(void *arg);
	void (*attr_open)(void *arg, const struct ca_str *name, bool first);
	void (*attr_close)(void *arg);
	void (*ad_close)(void *arg);
	void (*list_open)(void *arg);
	void (*item)(void *arg, bool first);
	void (*list_close)(void *arg);
	void (*scalar)(void *arg, const classad_value *v, bool reltime);
	void (*expr)(void *arg, const classad_expr *e);
};
void ca_walk_ad(const struct ca_walk *w, void *arg, const classad *ad);
/* ca_unparse_expr() in new syntax with HTCondor's 16 digits for reals
 * even where they lose precision, as HTCondor's own unparser writes. */
void ca_unparse_expr_lossy(struct classad_buf *b, const classad_expr *e);

/* ---- times ----------------------------------------------------------- */

/* The local time zone's offset from UTC at t, in seconds. */
long ca_tz_offset(int64_t t);
/* absTime("...") text: 0 and *secs, *offset on success. */
int ca_parse_abstime(const char *s, size_t len, int64_t *secs,
		     int32_t *offset);
/* relTime("...") text: 0 and *secs on success. */
int ca_parse_reltime(const char *s, size_t len, double *secs);
void ca_abstime_to_string(struct classad_buf *b, int64_t secs,
			  int32_t offset);
/* exact: text that reads back as the same value, where HTCondor's own
 * (used for string() and when exact is false) would not. */
void ca_reltime_to_string(struct classad_buf *b, double secs, bool exact);

/* ---- parsing --------------------------------------------------------- */

enum ca_lexmode { CA_LEX_NEW, CA_LEX_OLD, CA_LEX_JSON };

/* Parses one expression from text.  full: the whole text must be used.
 * Returns a new expression or NULL with err filled (positions relative to
 * text, plus line_base/col_base when given). */
classad_expr *ca_parse_expr(const char *text, size_t len, int mode,
			    bool full, struct ks_err *err);
/* The same, interning identifiers through cache (NULL allowed) so that
 * names in expressions and ads share storage. */
classad_expr *ca_parse_expr_in(const char *text, size_t len, int mode,
			       bool full, classad_cache *cache,
			       struct ks_err *err);

/* Parses a new-syntax ad "[...]" starting at text; *used gets the bytes
 * consumed. */
classad *ca_parse_ad_new(const char *text, size_t len, size_t *used,
			 struct ks_err *err);
/* Parses a JSON object starting at text. */
classad *ca_parse_ad_json(const char *text, size_t len, size_t *used,
			  struct ks_err *err);

/* Old syntax: parses "Name = value" lines until a blank line or the end;
 * *used gets the bytes consumed (through the blank line) and *lines (NULL
 * allowed) the lines.  Returns a new ad, or NULL with err set (line
 * numbers counted from line0).  The text must not hold NUL bytes. */
classad *ca_parse_ad_old(const char *text, size_t len, size_t *used,
			 int line0, int *lines, classad_cache *cache,
			 struct ks_err *err);

/* Line and column (1-based) of offset in text. */
void ca_text_position(const char *text, size_t offset, int *line, int *col);

/* The cache: interned names and shared expressions. */
struct ca_str *ca_cache_name(classad_cache *c, const char *s, size_t len);
/* The name and expression of the old-syntax line "name = rhs" (name and
 * rhs point into one line), shared with identical earlier lines through c
 * (NULL allowed).  Returns 0, or KS_EPARSE with err set (positions within
 * rhs). */
int ca_cache_line(classad_cache *c, const char *name, size_t nlen,
		  const char *rhs, size_t rlen, struct ca_str **name_out,
		  classad_expr **expr_out, struct ks_err *err);

#endif
