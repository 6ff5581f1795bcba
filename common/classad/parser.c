/*
 * parser.c: expressions and new-syntax ads, by recursive descent.
 *
 * The grammar and its precedence are HTCondor's (lowest first):
 *   ?:  ||  &&  |  ^  &  == != =?= =!=  < <= > >=  << >> >>>  + -
 *   * / %  unary - + ~ !  postfix [] . ?:(elvis)
 * Nesting is limited as HTCondor limits it (500 levels of the parser's
 * recursion), so that deep input gives an error rather than a crash.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lexer.h"

#define MAX_PARSE_DEPTH 500

struct parser {
	struct ca_lexer lx;
	int depth;
	bool failed;
	struct ks_err *err;
};

static void perr_at(struct parser *p, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void perr_at(struct parser *p, size_t offset, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	if (!p->err)
		return;
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int line, col;
	ca_text_position(p->lx.text, offset, &line, &col);
	ks_err_set(p->err, KS_EPARSE, line, col, offset, "%s", msg);
}

/* Reports that `what` was expected at the current token. */
static void expected(struct parser *p, const char *what)
{
	struct ca_token *t = ca_lex_peek(&p->lx);
	char found[96];
	ca_tok_describe(&p->lx, t, found, sizeof(found));
	if (t->type == T_ERROR)
		perr_at(p, t->start, "%s", found);
	else
		perr_at(p, t->start, "expected %s, found %s", what, found);
}

void ca_text_position(const char *text, size_t offset, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static int peek(struct parser *p)
{
	return ca_lex_peek(&p->lx)->type;
}

static void consume(struct parser *p)
{
	ca_lex_consume(&p->lx);
}

static classad_expr *parse_expr(struct parser *p, bool full);
static classad_expr *parse_unary(struct parser *p);
static classad *parse_ad(struct parser *p);
static classad_expr *json_value(struct parser *p);

static bool too_deep(struct parser *p)
{
	if (p->depth > MAX_PARSE_DEPTH) {
		perr_at(p, p->lx.tok.start,
			"expression nested too deeply (more than %d levels)",
			MAX_PARSE_DEPTH);
		return true;
	}
	return false;
}

/* ---- binary operator levels ---------------------------------------- */

typedef classad_expr *(*level_fn)(struct parser *p);

static int tok_to_op(int tok)
{
	switch (tok) {
	case T_OR: return CA_OP_OR;
	case T_AND: return CA_OP_AND;
	case T_BITOR: return CA_OP_BITOR;
	case T_BITXOR: return CA_OP_BITXOR;
	case T_BITAND: return CA_OP_BITAND;
	case T_EQ: return CA_OP_EQ;
	case T_NE: return CA_OP_NE;
	case T_META_EQ: return CA_OP_META_EQ;
	case T_META_NE: return CA_OP_META_NE;
	case T_LT: return CA_OP_LT;
	case T_LE: return CA_OP_LE;
	case T_GT: return CA_OP_GT;
	case T_GE: return CA_OP_GE;
	case T_LSHIFT: return CA_OP_LSHIFT;
	case T_RSHIFT: return CA_OP_RSHIFT;
	case T_URSHIFT: return CA_OP_URSHIFT;
	case T_PLUS: return CA_OP_ADD;
	case T_MINUS: return CA_OP_SUB;
	case T_MUL: return CA_OP_MUL;
	case T_DIV: return CA_OP_DIV;
	case T_MOD: return CA_OP_MOD;
	}
	return CA_OP_NONE;
}

/* One left-associative level: operand (op operand)*, where the operators
 * of the level are the tokens in `toks`. */
static classad_expr *binary_level(struct parser *p, level_fn operand,
				  const int *toks, int ntoks)
{
	classad_expr *left = operand(p);
	if (!left)
		return NULL;
	for (;;) {
		int t = peek(p), i;
		for (i = 0; i < ntoks && toks[i] != t; i++)
			;
		if (i == ntoks)
			return left;
		consume(p);
		classad_expr *right = operand(p);
		if (!right) {
			classad_expr_free(left);
			return NULL;
		}
		left = ca_op_new(tok_to_op(t), left, right, NULL);
	}
}

static classad_expr *parse_mul(struct parser *p)
{
	static const int t[] = {T_MUL, T_DIV, T_MOD};
	return binary_level(p, parse_unary, t, 3);
}

static classad_expr *parse_add(struct parser *p)
{
	static const int t[] = {T_PLUS, T_MINUS};
	return binary_level(p, parse_mul, t, 2);
}

static classad_expr *parse_shift(struct parser *p)
{
	static const int t[] = {T_LSHIFT, T_RSHIFT, T_URSHIFT};
	return binary_level(p, parse_add, t, 3);
}

static classad_expr *parse_rel(struct parser *p)
{
	static const int t[] = {T_LT, T_GT, T_LE, T_GE};
	return binary_level(p, parse_shift, t, 4);
}

static classad_expr *parse_eq(struct parser *p)
{
	static const int t[] = {T_EQ, T_NE, T_META_EQ, T_META_NE};
	return binary_level(p, parse_rel, t, 4);
}

static classad_expr *parse_bitand(struct parser *p)
{
	static const int t[] = {T_BITAND};
	return binary_level(p, parse_eq, t, 1);
}

static classad_expr *parse_bitxor(struct parser *p)
{
	static const int t[] = {T_BITXOR};
	return binary_level(p, parse_bitand, t, 1);
}

static classad_expr *parse_bitor(struct parser *p)
{
	static const int t[] = {T_BITOR};
	return binary_level(p, parse_bitxor, t, 1);
}

static classad_expr *parse_and(struct parser *p)
{
	static const int t[] = {T_AND};
	return binary_level(p, parse_bitor, t, 1);
}

static classad_expr *parse_or(struct parser *p)
{
	static const int t[] = {T_OR};
	return binary_level(p, parse_and, t, 1);
}

/* Expression := Or | Or '?' Expression ':' Expression.  With full, the
 * input must end after it -- though, as in HTCondor, not after a
 * conditional, whose last branch is never checked. */
static classad_expr *parse_expr(struct parser *p, bool full)
{
	p->depth++;
	classad_expr *e = NULL;
	if (too_deep(p))
		goto out;
	e = parse_or(p);
	if (!e)
		goto out;
	if (peek(p) == T_QMARK) {
		consume(p);
		classad_expr *m = parse_expr(p, false);
		if (!m) {
			classad_expr_free(e);
			e = NULL;
			goto out;
		}
		if (peek(p) != T_COLON) {
			expected(p, "':' of a conditional");
			classad_expr_free(e);
			classad_expr_free(m);
			e = NULL;
			goto out;
		}
		consume(p);
		classad_expr *r = parse_expr(p, false);
		if (!r) {
			classad_expr_free(e);
			classad_expr_free(m);
			e = NULL;
			goto out;
		}
		e = ca_op_new(CA_OP_TERNARY, e, m, r);
		goto out;
	}
	if (full && peek(p) != T_END) {
		expected(p, "an operator or the end of the expression");
		classad_expr_free(e);
		e = NULL;
	}
out:
	p->depth--;
	return e;
}

/* ---- unary, postfix, primary ----------------------------------------- */

static classad_expr *parse_postfix(struct parser *p);

static classad_expr *parse_unary(struct parser *p)
{
	p->depth++;
	classad_expr *e = NULL;
	if (too_deep(p))
		goto out;
	int t = peek(p), op;
	switch (t) {
	case T_MINUS: op = CA_OP_UMINUS; break;
	case T_PLUS: op = CA_OP_UPLUS; break;
	case T_BITNOT: op = CA_OP_BITNOT; break;
	case T_NOT: op = CA_OP_NOT; break;
	default:
		e = parse_postfix(p);
		goto out;
	}
	consume(p);
	e = parse_unary(p);
	if (e)
		e = ca_op_new(op, e, NULL, NULL);
out:
	p->depth--;
	return e;
}

static classad_expr *parse_primary(struct parser *p);

static classad_expr *parse_postfix(struct parser *p)
{
	p->depth++;
	classad_expr *e = NULL;
	if (too_deep(p))
		goto out;
	e = parse_primary(p);
	while (e) {
		int t = peek(p);
		if (t == T_LBOX) {
			consume(p);
			classad_expr *i = parse_expr(p, false);
			if (!i) {
				classad_expr_free(e);
				e = NULL;
				break;
			}
			if (peek(p) != T_RBOX) {
				expected(p, "']' after a subscript");
				classad_expr_free(e);
				classad_expr_free(i);
				e = NULL;
				break;
			}
			consume(p);
			e = ca_op_new(CA_OP_SUBSCRIPT, e, i, NULL);
		} else if (t == T_ELVIS) {
			consume(p);
			classad_expr *r = parse_postfix(p);
			if (!r) {
				classad_expr_free(e);
				e = NULL;
				break;
			}
			e = ca_op_new(CA_OP_ELVIS, e, r, NULL);
		} else if (t == T_DOT) {
			consume(p);
			struct ca_token *tk = ca_lex_peek(&p->lx);
			if (tk->type != T_IDENT) {
				expected(p, "an attribute name after '.'");
				classad_expr_free(e);
				e = NULL;
				break;
			}
			struct ca_str *name = tk->s;
			tk->s = NULL;
			consume(p);
			e = ca_attr_new(e, name, false);
		} else {
			break;
		}
	}
out:
	p->depth--;
	return e;
}

/* absTime("...") and relTime("...") with a literal string are folded into
 * time literals at parse time; a string they cannot read is a syntax
 * error, as in HTCondor. */
static classad_expr *fold_time(struct parser *p, size_t at,
			       const struct ca_str *name, uint32_t n,
			       classad_expr **args, bool *folded)
{
	*folded = false;
	bool abs = name->len == 7 && strncasecmp(name->s, "absTime", 7) == 0;
	bool rel = name->len == 7 && strncasecmp(name->s, "relTime", 7) == 0;
	if ((!abs && !rel) || n != 1 || args[0]->kind != CA_K_LIT ||
	    ca_as_lit(args[0])->v.type != CLASSAD_STRING)
		return NULL;
	*folded = true;
	const struct ca_str *s = ca_as_lit(args[0])->v.u.s;
	if (abs) {
		int64_t secs;
		int32_t off;
		if (ca_parse_abstime(s->s, s->len, &secs, &off) != 0) {
			perr_at(p, at, "absTime(\"%.60s\") is not a date and "
				       "time (use \"YYYY-MM-DDThh:mm:ss\")",
				s->s);
			return NULL;
		}
		classad_value v = {.type = CLASSAD_ABSTIME};
		v.u.abs.secs = secs;
		v.u.abs.offset = off;
		return ca_lit_take(&v);
	}
	double secs;
	if (ca_parse_reltime(s->s, s->len, &secs) != 0) {
		perr_at(p, at, "relTime(\"%.60s\") is not a time interval "
			       "(use \"[days+][hh:][mm:]ss\")",
			s->s);
		return NULL;
	}
	classad_expr *e = ca_lit_real(secs);
	e->flags |= CA_LIT_RELTIME;
	return e;
}

static void free_args(classad_expr **args, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		classad_expr_free(args[i]);
	free(args);
}

/* Items up to the token close (consumed), separated by ',' or sep:
 * expressions, or JSON values for json.  As in HTCondor, a separator must
 * be followed by an item: "f(1,)" and "{1,}" are errors.  False on an
 * error, with the items freed; what is what the message expects instead
 * of a bad separator.  Inline, so that each caller's loop stays as fast
 * as its own copy was. */
static inline bool parse_items(struct parser *p, bool json, int sep,
			       int close, const char *what,
			       classad_expr ***items, uint32_t *n)
{
	classad_expr **v = NULL;
	uint32_t k = 0, cap = 0;
	bool more = peek(p) != close;
	while (more) {
		classad_expr *a = json ? json_value(p) : parse_expr(p, false);
		if (!a)
			goto fail;
		if (k == cap) {
			cap = cap ? cap * 2 : 4;
			v = ks_xrealloc(v, cap * sizeof(*v));
		}
		v[k++] = a;
		int t = peek(p);
		if (t == T_COMMA || t == sep) {
			consume(p);
		} else if (t == close) {
			more = false;
		} else {
			expected(p, what);
			goto fail;
		}
	}
	consume(p);
	*items = v;
	*n = k;
	return true;
fail:
	free_args(v, k);
	return false;
}

static classad_expr *parse_call(struct parser *p, struct ca_str *name,
				size_t at)
{
	consume(p); /* '(' */
	classad_expr **args;
	uint32_t n;
	/* Old-ClassAd semantics allow ';' between arguments. */
	if (!parse_items(p, false, T_SEMI, T_RPAREN,
			 "',' or ')' in the arguments of a function", &args,
			 &n)) {
		ca_str_unref(name);
		return NULL;
	}
	bool folded;
	classad_expr *e = fold_time(p, at, name, n, args, &folded);
	if (folded) {
		free_args(args, n);
		ca_str_unref(name);
		return e;
	}
	e = ca_call_new(name, n, args);
	free(args);
	return e;
}

static classad_expr *parse_list(struct parser *p)
{
	consume(p); /* '{' */
	classad_expr **items;
	uint32_t n;
	if (!parse_items(p, false, T_COMMA, T_RBRACE, "',' or '}' in a list",
			 &items, &n))
		return NULL;
	classad_expr *e = ca_list_new(n, items);
	free(items);
	return e;
}

/* A literal token as an expression, consumed; NULL (nothing consumed) for
 * any other token.  error is not one in JSON, so it is left to the
 * caller.  Inline: it is on the parser's path for every literal. */
static inline classad_expr *parse_literal(struct parser *p,
					  struct ca_token *t)
{
	classad_expr *e;
	switch (t->type) {
	case T_UNDEF:
		e = ca_lit_undefined();
		break;
	case T_BOOL:
		e = ca_lit_bool(t->b);
		break;
	case T_INT:
		e = ca_lit_int(t->i);
		break;
	case T_REAL:
		e = ca_lit_real(t->r);
		break;
	case T_STRING:
		e = ca_lit_str(t->s);
		t->s = NULL;
		break;
	default:
		return NULL;
	}
	consume(p);
	return e;
}

static classad_expr *parse_primary(struct parser *p)
{
	struct ca_token *t = ca_lex_peek(&p->lx);
	size_t at = t->start;
	classad_expr *e;
	switch (t->type) {
	case T_IDENT: {
		struct ca_str *name = t->s;
		t->s = NULL;
		consume(p);
		if (peek(p) == T_LPAREN)
			return parse_call(p, name, at);
		return ca_attr_new(NULL, name, false);
	}
	case T_DOT: {
		consume(p);
		struct ca_token *n = ca_lex_peek(&p->lx);
		if (n->type != T_IDENT) {
			expected(p, "an attribute name after '.'");
			return NULL;
		}
		struct ca_str *name = n->s;
		n->s = NULL;
		consume(p);
		return ca_attr_new(NULL, name, true);
	}
	case T_LPAREN:
		consume(p);
		e = parse_expr(p, false);
		if (!e)
			return NULL;
		if (peek(p) != T_RPAREN) {
			expected(p, "')'");
			classad_expr_free(e);
			return NULL;
		}
		consume(p);
		return ca_op_new(CA_OP_PAREN, e, NULL, NULL);
	case T_LBOX: {
		classad *ad = parse_ad(p);
		return ad ? ca_adlit_new(ad) : NULL;
	}
	case T_LBRACE:
		return parse_list(p);
	case T_ERRLIT:
		consume(p);
		return ca_lit_error();
	default:
		e = parse_literal(p, t);
		if (!e)
			expected(p, "an expression");
		return e;
	}
}

/* How the attributes of an ad are written: new syntax
 * "name = expr; ..." or JSON "\"name\": value, ...". */
struct ad_syntax {
	int name, assign, sep, close; /* tokens */
	bool json;                    /* values are JSON values */
	const char *want_name, *want_assign, *want_sep;
};

static const struct ad_syntax new_syntax = {
	T_IDENT, T_ASSIGN, T_SEMI, T_RBOX, false,
	"an attribute name or ']'", "'=' after an attribute name",
	"';' or ']' after an attribute",
};

static const struct ad_syntax json_syntax = {
	T_STRING, T_COLON, T_COMMA, T_RBRACE, true,
	"a quoted attribute name", "':' after an attribute name",
	"',' or '}' in a JSON object",
};

/* The attributes of an ad, after its opening token, into ad, through the
 * closing token.  Empty attributes (";;") are allowed, as in HTCondor.
 * False on an error. */
static bool parse_attrs(struct parser *p, const struct ad_syntax *sx,
			classad *ad)
{
	while (peek(p) != sx->close) {
		struct ca_token *t = ca_lex_peek(&p->lx);
		if (t->type == sx->sep) {
			consume(p);
			continue;
		}
		if (t->type != sx->name) {
			expected(p, sx->want_name);
			return false;
		}
		struct ca_str *name = t->s;
		size_t at = t->start;
		t->s = NULL;
		consume(p);
		if (peek(p) != sx->assign) {
			ca_str_unref(name);
			expected(p, sx->want_assign);
			return false;
		}
		consume(p);
		classad_expr *e = sx->json ? json_value(p)
					   : parse_expr(p, false);
		if (!e) {
			ca_str_unref(name);
			return false;
		}
		if (name->len == 0) {
			ca_str_unref(name);
			classad_expr_free(e);
			perr_at(p, at, "an attribute name may not be empty");
			return false;
		}
		if (ca_ad_insert(ad, name, e) != 0) {
			perr_at(p, at, "too many attributes in one ad");
			return false;
		}
		int n = peek(p);
		if (n != sx->sep && n != sx->close) {
			expected(p, sx->want_sep);
			return false;
		}
		while (peek(p) == sx->sep)
			consume(p);
	}
	consume(p);
	return true;
}

/* Ad := '[' (Name '=' Expression)? (';' ...)* ']' */
static classad *parse_ad(struct parser *p)
{
	if (peek(p) != T_LBOX) {
		expected(p, "'[' to start an ad");
		return NULL;
	}
	consume(p);
	classad *ad = classad_new();
	if (parse_attrs(p, &new_syntax, ad))
		return ad;
	classad_free(ad);
	return NULL;
}

static void parser_init(struct parser *p, const char *text, size_t len,
			int mode, struct ks_err *err)
{
	memset(p, 0, sizeof(*p));
	ca_lex_init(&p->lx, text, len, mode);
	p->err = err;
	ks_err_clear(err);
}

classad_expr *ca_parse_expr(const char *text, size_t len, int mode, bool full,
			    struct ks_err *err)
{
	return ca_parse_expr_in(text, len, mode, full, NULL, err);
}

classad_expr *ca_parse_expr_in(const char *text, size_t len, int mode,
			       bool full, classad_cache *cache,
			       struct ks_err *err)
{
	struct parser p;
	parser_init(&p, text, len, mode, err);
	p.lx.cache = cache;
	classad_expr *e = parse_expr(&p, full);
	if (!e && !p.failed)
		expected(&p, "an expression");
	ca_lex_done(&p.lx);
	return e;
}

classad_expr *classad_parse_expr(const char *text, size_t len,
				 struct ks_err *err)
{
	return ca_parse_expr(text, len, CA_LEX_NEW, true, err);
}

classad_expr *classad_parse_expr_old(const char *text, size_t len,
				     struct ks_err *err)
{
	return ca_parse_expr(text, len, CA_LEX_OLD, true, err);
}

classad *ca_parse_ad_new(const char *text, size_t len, size_t *used,
			 struct ks_err *err)
{
	struct parser p;
	parser_init(&p, text, len, CA_LEX_NEW, err);
	classad *ad = parse_ad(&p);
	*used = p.lx.peeked ? p.lx.tok.start : p.lx.pos;
	if (ad)
		ca_ad_compact(ad);
	ca_lex_done(&p.lx);
	return ad;
}

/* ---- JSON ------------------------------------------------------------ */

static classad *json_object(struct parser *p)
{
	if (peek(p) != T_LBRACE) {
		expected(p, "'{' to start a JSON object");
		return NULL;
	}
	p->depth++;
	consume(p);
	classad *ad = classad_new();
	if (too_deep(p) || !parse_attrs(p, &json_syntax, ad)) {
		classad_free(ad);
		ad = NULL;
	}
	p->depth--;
	return ad;
}

static classad_expr *json_array(struct parser *p)
{
	p->depth++;
	consume(p); /* '[' */
	classad_expr *e = NULL, **items;
	uint32_t n;
	if (!too_deep(p) &&
	    parse_items(p, true, T_COMMA, T_RBOX, "',' or ']' in a JSON array",
			&items, &n)) {
		e = ca_list_new(n, items);
		free(items);
	}
	p->depth--;
	return e;
}

static classad_expr *json_value(struct parser *p)
{
	struct ca_token *t = ca_lex_peek(&p->lx);
	classad_expr *e;
	switch (t->type) {
	case T_LBRACE: {
		classad *ad = json_object(p);
		return ad ? ca_adlit_new(ad) : NULL;
	}
	case T_LBOX:
		return json_array(p);
	case T_STRING: {
		struct ca_str *s = t->s;
		size_t at = t->start;
		/* "\/Expr(...)\/" carries an expression. */
		if (t->quoted_expr && s->len >= 8 &&
		    strncasecmp(s->s, "/Expr(", 6) == 0 &&
		    strcmp(s->s + s->len - 2, ")/") == 0) {
			struct ks_err sub;
			e = ca_parse_expr(s->s + 6, s->len - 8, CA_LEX_NEW, true,
					  &sub);
			if (!e) {
				perr_at(p, at, "in the expression of a JSON "
					       "string: %s", sub.msg);
				return NULL;
			}
			consume(p);
			return e;
		}
		break;
	}
	default:
		break;
	}
	e = parse_literal(p, t);
	if (!e)
		expected(p, "a JSON value");
	return e;
}

classad *ca_parse_ad_json(const char *text, size_t len, size_t *used,
			  struct ks_err *err)
{
	struct parser p;
	parser_init(&p, text, len, CA_LEX_JSON, err);
	classad *ad = json_object(&p);
	*used = p.lx.peeked ? p.lx.tok.start : p.lx.pos;
	if (ad)
		ca_ad_compact(ad);
	ca_lex_done(&p.lx);
	return ad;
}
