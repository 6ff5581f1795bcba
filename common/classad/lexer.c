/*
 * lexer.c: the ClassAd tokenizer.
 *
 * It reproduces HTCondor's tokenization, quirks included, because users'
 * expressions must mean the same thing in both: a '-' directly before a
 * number is part of the literal unless it follows an operand; octal and hex
 * literals are rejected (old-ClassAd semantics); "? :" is the elvis
 * operator even with spaces between; adjacent string literals are joined;
 * in old syntax a backslash is literal unless it escapes a quote.
 * A NUL byte ends the input, as it does for HTCondor.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lexer.h"

static int at(const struct ca_lexer *lx, size_t pos)
{
	if (pos >= lx->len || lx->text[pos] == '\0')
		return -1;
	return (unsigned char)lx->text[pos];
}

static int cur(const struct ca_lexer *lx)
{
	return at(lx, lx->pos);
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_odigit(int c)
{
	return c >= '0' && c <= '7';
}

static bool is_xdigit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

void ca_lex_init(struct ca_lexer *lx, const char *text, size_t len, int mode)
{
	memset(lx, 0, sizeof(*lx));
	lx->text = text;
	lx->len = len;
	lx->mode = mode;
	lx->prev = T_END;
}

static void tok_release(struct ca_token *t)
{
	ca_str_unref(t->s);
	t->s = NULL;
}

void ca_lex_done(struct ca_lexer *lx)
{
	tok_release(&lx->tok);
	free(lx->scratch.data);
	lx->scratch.data = NULL;
}

/* Longer strings and names are refused (a string longer than 4 GiB could
 * not even be stored). */
#define MAX_TOKEN (256u << 20)

static int fail(struct ca_token *t, const char *why)
{
	t->type = T_ERROR;
	t->why = why;
	return T_ERROR;
}

/* Integer text (optionally signed) to int64, as std::from_chars does it:
 * a value out of range leaves the result 0. */
static int64_t parse_int(const char *s, size_t n)
{
	bool neg = false;
	size_t i = 0;
	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t v = 0;
	for (; i < n && is_digit(s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	if (neg)
		return v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	return (int64_t)v;
}

static int lex_number(struct ca_lexer *lx, struct ca_token *t)
{
	enum { NONE, INTEGER, REAL } type = NONE;
	size_t start = lx->pos;
	int och = cur(lx);
	lx->pos++;
	if (och == '-') {
		if (is_digit(cur(lx))) {
			och = cur(lx);
			lx->pos++;
		} else if (cur(lx) == '.') {
			if (!is_digit(at(lx, lx->pos + 1)))
				return t->type = T_MINUS;
		} else {
			return t->type = T_MINUS;
		}
	}
	if (och == '0') {
		if (lower(cur(lx)) == 'x') {
			type = INTEGER;
			lx->pos++;
			if (!is_xdigit(cur(lx)))
				return fail(t, "a hexadecimal number needs digits");
			while (is_xdigit(cur(lx)))
				lx->pos++;
		} else {
			type = INTEGER;
			while (is_digit(cur(lx))) {
				if (type == INTEGER && !is_odigit(cur(lx)))
					type = REAL;
				lx->pos++;
			}
			if (cur(lx) == '.' || lower(cur(lx)) == 'e')
				type = REAL;
			else if (type == REAL)
				return fail(t, "a number may not start with 0");
		}
	} else if (is_digit(och)) {
		while (is_digit(cur(lx)))
			lx->pos++;
		type = (cur(lx) == '.' || lower(cur(lx)) == 'e') ? REAL
								: INTEGER;
	}
	if (och == '.' || cur(lx) == '.') {
		if (cur(lx) == '.')
			lx->pos++;
		if (is_digit(cur(lx))) {
			type = REAL;
			while (is_digit(cur(lx)))
				lx->pos++;
		} else {
			if (type != NONE)
				return fail(t, "a decimal point must be "
					       "followed by a digit");
			return t->type = T_DOT;
		}
	}
	if (type == REAL && lower(cur(lx)) == 'e') {
		lx->pos++;
		if (cur(lx) == '+' || cur(lx) == '-')
			lx->pos++;
		if (!is_digit(cur(lx)))
			return fail(t, "an exponent needs digits");
		while (is_digit(cur(lx)))
			lx->pos++;
	}
	const char *s = lx->text + start;
	size_t n = lx->pos - start;
	if (type == INTEGER) {
		/* Old ClassAds (and JSON) have no octal or hex literals. */
		if (s[0] == '0' && n > 1)
			return fail(t, "a number may not start with 0 "
				       "(octal and hex are not allowed)");
		t->i = parse_int(s, n);
		return t->type = T_INT;
	}
	char tmp[64];
	char *buf = n < sizeof(tmp) ? tmp : ks_xmalloc(n + 1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	t->r = strtod(buf, NULL);
	if (buf != tmp)
		free(buf);
	return t->type = T_REAL;
}

static int lex_word(struct ca_lexer *lx, struct ca_token *t)
{
	size_t start = lx->pos;
	bool ident = false;
	while (is_alpha(cur(lx)))
		lx->pos++;
	if (is_digit(cur(lx)) || cur(lx) == '_') {
		ident = true;
		lx->pos++;
		while (is_alpha(cur(lx)) || is_digit(cur(lx)) ||
		       cur(lx) == '_')
			lx->pos++;
	}
	const char *s = lx->text + start;
	size_t n = lx->pos - start;
	if (n > MAX_TOKEN)
		return fail(t, "a name longer than 256 MiB");
	if (!ident) {
		if (n == 2 && strncasecmp(s, "is", 2) == 0)
			return t->type = T_META_EQ;
		if (n == 4 && strncasecmp(s, "true", 4) == 0) {
			t->b = true;
			return t->type = T_BOOL;
		}
		if (n == 4 && strncasecmp(s, "isnt", 4) == 0)
			return t->type = T_META_NE;
		if (n == 4 && lx->mode == CA_LEX_JSON &&
		    strncasecmp(s, "null", 4) == 0)
			return t->type = T_UNDEF;
		if (n == 5 && strncasecmp(s, "false", 5) == 0) {
			t->b = false;
			return t->type = T_BOOL;
		}
		if (n == 5 && strncasecmp(s, "error", 5) == 0)
			return t->type = T_ERRLIT;
		if (n == 9 && lx->mode != CA_LEX_JSON &&
		    strncasecmp(s, "undefined", 9) == 0)
			return t->type = T_UNDEF;
	}
	t->s = lx->cache ? ca_cache_name(lx->cache, s, n) : ca_str_new(s, n);
	return t->type = T_IDENT;
}

/* The escapes of new-syntax strings; false for a NUL ("\0"). */
static bool convert_escapes(struct classad_buf *b)
{
	bool valid = true;
	size_t len = b->len, dest = 0;
	char *text = b->data;
	for (size_t src = 0; src < len; ++src) {
		char ch = text[src];
		if (ch == '\\' && src < len - 1) {
			ch = text[++src];
			switch (ch) {
			case 'a': ch = '\a'; break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'v': ch = '\v'; break;
			default:
				if (is_odigit(ch)) {
					unsigned num = (unsigned)(ch - '0');
					if (src + 1 < len &&
					    is_odigit(text[src + 1])) {
						num = (num << 3) +
						      (unsigned)(text[++src] - '0');
						if (num < 0x20 && src + 1 < len &&
						    is_odigit(text[src + 1]))
							num = (num << 3) +
							      (unsigned)(text[++src] -
									 '0');
					}
					ch = (char)num;
					if (ch == 0)
						valid = false;
				}
				/* Any other escaped character stands for
				 * itself: \" \' \? \\ and unknown ones. */
				break;
			}
		}
		text[dest++] = ch;
	}
	b->len = dest;
	if (b->data)
		b->data[dest] = '\0';
	return valid;
}

static void utf8_put(struct classad_buf *b, unsigned cp)
{
	if (cp < 0x80) {
		ca_buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		ca_buf_addc(b, (char)(0xc0 | (cp >> 6)));
		ca_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else {
		ca_buf_addc(b, (char)(0xe0 | (cp >> 12)));
		ca_buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		ca_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

/* JSON escapes into out; false if malformed (or \u0000). */
static bool convert_escapes_json(const char *s, size_t len,
				 struct classad_buf *out)
{
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (ch == '\\' && i < len - 1) {
			ch = s[++i];
			switch (ch) {
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'u': {
				if (i + 4 >= len)
					return false;
				unsigned num = 0;
				for (int k = 1; k <= 4; k++) {
					int c = (unsigned char)s[i + k];
					num <<= 4;
					if (is_digit(c))
						num += (unsigned)(c - '0');
					else if (c >= 'a' && c <= 'f')
						num += (unsigned)(c - 'a' + 10);
					else if (c >= 'A' && c <= 'F')
						num += (unsigned)(c - 'A' + 10);
					else
						return false;
				}
				i += 4;
				if (num == 0)
					return false;
				utf8_put(out, num);
				continue;
			}
			default:
				break;
			}
		}
		ca_buf_addc(out, ch);
	}
	return true;
}

static int lex_string_old(struct ca_lexer *lx, struct ca_token *t, int delim)
{
	struct classad_buf *b = &lx->scratch;
	b->len = 0;
	lx->pos++; /* the opening quote */
	for (;;) {
		int prev = 0;
		while (cur(lx) > 0 && cur(lx) != delim) {
			prev = cur(lx);
			ca_buf_addc(b, (char)prev);
			lx->pos++;
			if (b->len > MAX_TOKEN)
				return fail(t, "a string longer than 256 MiB");
		}
		if (cur(lx) != delim)
			return fail(t, "unterminated string");
		if (prev != '\\')
			break;
		/* Backslash-quote: the quote is literal unless it ends the
		 * line, where the string ends with a backslash. */
		int next = at(lx, lx->pos + 1);
		if (next > 0 && next != '\n') {
			b->data[b->len - 1] = (char)delim;
			lx->pos++;
			continue;
		}
		break;
	}
	lx->pos++; /* the closing quote */
	t->s = ca_str_new(b->data ? b->data : "", b->len);
	return t->type = (delim == '"') ? T_STRING : T_IDENT;
}

static int lex_string(struct ca_lexer *lx, struct ca_token *t, int delim)
{
	if (lx->mode == CA_LEX_OLD)
		return lex_string_old(lx, t, delim);
	struct classad_buf *b = &lx->scratch;
	b->len = 0;
	lx->pos++; /* the opening quote */
	for (;;) {
		bool odd = false;
		int prev = 0;
		while (cur(lx) > 0 &&
		       (cur(lx) != delim || (prev == '\\' && odd))) {
			odd = !odd && cur(lx) == '\\';
			prev = cur(lx);
			ca_buf_addc(b, (char)prev);
			lx->pos++;
			if (b->len > MAX_TOKEN)
				return fail(t, "a string longer than 256 MiB");
		}
		if (cur(lx) != delim)
			return fail(t, "unterminated string");
		lx->pos++; /* the closing quote */
		/* A string that is followed (past white space) by another
		 * is joined to it. */
		size_t p = lx->pos;
		while (is_space(at(lx, p)))
			p++;
		if (at(lx, p) != delim) {
			lx->pos = p;
			break;
		}
		lx->pos = p + 1;
	}
	if (lx->mode == CA_LEX_JSON) {
		const char *raw = b->data ? b->data : "";
		size_t n = b->len;
		t->quoted_expr = n >= 4 && raw[0] == '\\' && raw[1] == '/' &&
				 raw[n - 2] == '\\' && raw[n - 1] == '/';
		struct classad_buf out = {0};
		bool ok = convert_escapes_json(raw, n, &out);
		if (!ok) {
			free(out.data);
			return fail(t, "bad escape in a JSON string");
		}
		t->s = ca_str_new(out.data ? out.data : "", out.len);
		free(out.data);
	} else {
		if (!convert_escapes(b))
			return fail(t, "a string may not contain \\0");
		t->s = ca_str_new(b->data ? b->data : "", b->len);
	}
	return t->type = (delim == '"') ? T_STRING : T_IDENT;
}

/* Ends an operator token with the byte at pos (its second or third). */
static int tok_end(struct ca_lexer *lx, struct ca_token *t, int type)
{
	lx->pos++;
	return t->type = type;
}

static int lex_punct(struct ca_lexer *lx, struct ca_token *t)
{
	int c = cur(lx);
	lx->pos++;
	int n = cur(lx);
	switch (c) {
	case '.': return t->type = T_DOT;
	case '*': return t->type = T_MUL;
	case '/': return t->type = T_DIV;
	case '%': return t->type = T_MOD;
	case '+': return t->type = T_PLUS;
	case '-': return t->type = T_MINUS;
	case '~': return t->type = T_BITNOT;
	case '^': return t->type = T_BITXOR;
	case ':': return t->type = T_COLON;
	case ';': return t->type = T_SEMI;
	case ',': return t->type = T_COMMA;
	case '[': return t->type = T_LBOX;
	case ']': return t->type = T_RBOX;
	case '(': return t->type = T_LPAREN;
	case ')': return t->type = T_RPAREN;
	case '{': return t->type = T_LBRACE;
	case '}': return t->type = T_RBRACE;
	case '?':
		while (is_space(cur(lx)))
			lx->pos++;
		if (cur(lx) == ':')
			return tok_end(lx, t, T_ELVIS);
		return t->type = T_QMARK;
	case '&':
		if (n == '&')
			return tok_end(lx, t, T_AND);
		return t->type = T_BITAND;
	case '|':
		if (n == '|')
			return tok_end(lx, t, T_OR);
		return t->type = T_BITOR;
	case '<':
		if (n == '=')
			return tok_end(lx, t, T_LE);
		if (n == '<')
			return tok_end(lx, t, T_LSHIFT);
		return t->type = T_LT;
	case '>':
		if (n == '=')
			return tok_end(lx, t, T_GE);
		if (n == '>') {
			lx->pos++;
			if (cur(lx) == '>')
				return tok_end(lx, t, T_URSHIFT);
			return t->type = T_RSHIFT;
		}
		return t->type = T_GT;
	case '=':
		if (n == '=')
			return tok_end(lx, t, T_EQ);
		if (n == '?') {
			lx->pos++;
			if (cur(lx) != '=')
				return fail(t, "'=?' must be followed by '='");
			return tok_end(lx, t, T_META_EQ);
		}
		if (n == '!' && at(lx, lx->pos + 1) == '=') {
			lx->pos += 2;
			return t->type = T_META_NE;
		}
		return t->type = T_ASSIGN;
	case '!':
		if (n == '=')
			return tok_end(lx, t, T_NE);
		return t->type = T_NOT;
	default:
		lx->pos--;
		return fail(t, c >= 0x80 ? "a non-ASCII character outside a "
					   "string"
					 : "an unexpected character");
	}
}

/* Skips white space and comments; false for an unterminated comment. */
static bool skip_blank(struct ca_lexer *lx)
{
	for (;;) {
		int c = cur(lx);
		if (is_space(c)) {
			lx->pos++;
		} else if (c == '/' && at(lx, lx->pos + 1) == '/') {
			while (cur(lx) > 0 && cur(lx) != '\n')
				lx->pos++;
		} else if (c == '/' && at(lx, lx->pos + 1) == '*') {
			size_t p = lx->pos + 2;
			while (at(lx, p) > 0 &&
			       !(at(lx, p) == '*' && at(lx, p + 1) == '/'))
				p++;
			if (at(lx, p) < 0) {
				lx->pos = p;
				return false;
			}
			lx->pos = p + 2;
		} else {
			return true;
		}
	}
}

static void lex_one(struct ca_lexer *lx)
{
	struct ca_token *t = &lx->tok;
	tok_release(t);
	memset(t, 0, sizeof(*t));
	if (!skip_blank(lx)) {
		t->start = lx->pos;
		fail(t, "unterminated comment");
		lx->prev = T_ERROR;
		return;
	}
	t->start = lx->pos;
	int c = cur(lx);
	if (c < 0) {
		t->type = T_END;
	} else if (c == '-') {
		switch (lx->prev) {
		case T_INT: case T_REAL: case T_BOOL: case T_STRING:
		case T_UNDEF: case T_ERRLIT: case T_IDENT: case T_DOT:
		case T_RBOX: case T_RPAREN: case T_RBRACE:
			lex_punct(lx, t);
			break;
		default:
			lex_number(lx, t);
			break;
		}
	} else if (is_digit(c) || c == '.') {
		lex_number(lx, t);
	} else if (is_alpha(c) || c == '_') {
		lex_word(lx, t);
	} else if (c == '"' || c == '\'') {
		lex_string(lx, t, c);
	} else {
		lex_punct(lx, t);
	}
	lx->prev = t->type;
}

struct ca_token *ca_lex_peek(struct ca_lexer *lx)
{
	if (!lx->peeked) {
		lex_one(lx);
		lx->peeked = true;
	}
	return &lx->tok;
}

void ca_lex_consume(struct ca_lexer *lx)
{
	if (!lx->peeked)
		lex_one(lx);
	lx->peeked = false;
}

const char *ca_tok_name(int type)
{
	switch (type) {
	case T_END: return "end of input";
	case T_ERROR: return "bad token";
	case T_INT: return "integer";
	case T_REAL: return "real number";
	case T_BOOL: return "boolean";
	case T_STRING: return "string";
	case T_UNDEF: return "'undefined'";
	case T_ERRLIT: return "'error'";
	case T_IDENT: return "identifier";
	case T_DOT: return "'.'";
	case T_MUL: return "'*'";
	case T_DIV: return "'/'";
	case T_MOD: return "'%'";
	case T_PLUS: return "'+'";
	case T_MINUS: return "'-'";
	case T_BITAND: return "'&'";
	case T_BITOR: return "'|'";
	case T_BITNOT: return "'~'";
	case T_BITXOR: return "'^'";
	case T_LSHIFT: return "'<<'";
	case T_RSHIFT: return "'>>'";
	case T_URSHIFT: return "'>>>'";
	case T_AND: return "'&&'";
	case T_OR: return "'||'";
	case T_NOT: return "'!'";
	case T_LT: return "'<'";
	case T_LE: return "'<='";
	case T_GT: return "'>'";
	case T_GE: return "'>='";
	case T_EQ: return "'=='";
	case T_NE: return "'!='";
	case T_META_EQ: return "'=?='";
	case T_META_NE: return "'=!='";
	case T_ASSIGN: return "'='";
	case T_QMARK: return "'?'";
	case T_ELVIS: return "'?:'";
	case T_COLON: return "':'";
	case T_SEMI: return "';'";
	case T_COMMA: return "','";
	case T_LBOX: return "'['";
	case T_RBOX: return "']'";
	case T_LPAREN: return "'('";
	case T_RPAREN: return "')'";
	case T_LBRACE: return "'{'";
	case T_RBRACE: return "'}'";
	}
	return "token";
}

void ca_tok_describe(const struct ca_lexer *lx, const struct ca_token *t,
		     char *buf, size_t size)
{
	switch (t->type) {
	case T_IDENT:
		snprintf(buf, size, "identifier '%.40s'", t->s ? t->s->s : "");
		break;
	case T_ERROR:
		snprintf(buf, size, "%s", t->why ? t->why : "a bad token");
		break;
	case T_INT: case T_REAL: case T_STRING: case T_BOOL: {
		size_t n = lx->pos > t->start ? lx->pos - t->start : 0;
		if (n > 40)
			n = 40;
		snprintf(buf, size, "%s %.*s", ca_tok_name(t->type), (int)n,
			 lx->text + t->start);
		break;
	}
	default:
		snprintf(buf, size, "%s", ca_tok_name(t->type));
		break;
	}
}
