/*
 * json.c: just enough JSON to read a JWT's header and payload.
 *
 * Strict RFC 8259: a token from a peer is untrusted input, so anything a
 * general parser might forgive (trailing commas, comments, raw control
 * characters, bad escapes, unpaired surrogates) is refused rather than
 * guessed at.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "ks_mem.h"
#include "token_int.h"

#define MAX_DEPTH 64

struct cur {
	const char *s;
	size_t len, pos;
};

static void skip_ws(struct cur *c)
{
	while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' ||
				   c->s[c->pos] == '\n' || c->s[c->pos] == '\r'))
		c->pos++;
}

static int peek(const struct cur *c)
{
	return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1;
}

static bool hex4(struct cur *c, unsigned *out)
{
	if (c->len - c->pos < 4)
		return false;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char h = c->s[c->pos++];
		v <<= 4;
		if (h >= '0' && h <= '9')
			v |= (unsigned)(h - '0');
		else if (h >= 'a' && h <= 'f')
			v |= (unsigned)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			v |= (unsigned)(h - 'A' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

static void put_utf8(struct classad_buf *b, unsigned cp)
{
	if (cp < 0x80) {
		classad_buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		classad_buf_putc(b, (char)(0xC0 | cp >> 6));
		classad_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		classad_buf_putc(b, (char)(0xE0 | cp >> 12));
		classad_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3F)));
		classad_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		classad_buf_putc(b, (char)(0xF0 | cp >> 18));
		classad_buf_putc(b, (char)(0x80 | (cp >> 12 & 0x3F)));
		classad_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3F)));
		classad_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

/* A string at c (the opening quote); *out new (free()). */
static int parse_string(struct cur *c, char **out)
{
	struct classad_buf b = {0};
	c->pos++;
	for (;;) {
		int ch = peek(c);
		if (ch < 0 || ch < 0x20)
			goto bad;
		c->pos++;
		if (ch == '"')
			break;
		if (ch != '\\') {
			classad_buf_putc(&b, (char)ch);
			continue;
		}
		int e = peek(c);
		c->pos++;
		unsigned cp;
		switch (e) {
		case '"': classad_buf_putc(&b, '"'); break;
		case '\\': classad_buf_putc(&b, '\\'); break;
		case '/': classad_buf_putc(&b, '/'); break;
		case 'b': classad_buf_putc(&b, '\b'); break;
		case 'f': classad_buf_putc(&b, '\f'); break;
		case 'n': classad_buf_putc(&b, '\n'); break;
		case 'r': classad_buf_putc(&b, '\r'); break;
		case 't': classad_buf_putc(&b, '\t'); break;
		case 'u':
			if (!hex4(c, &cp))
				goto bad;
			/* A NUL would cut the C string: what the signature
			 * covered and what we act on would differ. */
			if (cp == 0)
				goto bad;
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				goto bad;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				unsigned lo;
				if (c->len - c->pos < 6 || c->s[c->pos] != '\\' ||
				    c->s[c->pos + 1] != 'u')
					goto bad;
				c->pos += 2;
				if (!hex4(c, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					goto bad;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			put_utf8(&b, cp);
			break;
		default:
			goto bad;
		}
	}
	*out = b.data ? b.data : ks_xstrdup("");
	return 0;
bad:
	free(b.data);
	return KS_EPARSE;
}

/* A number at c.  Integers that fit are KT_J_INT, the rest KT_J_NUM. */
static int parse_number(struct cur *c, struct kt_jval *v)
{
	size_t start = c->pos;
	bool integral = true;
	if (peek(c) == '-')
		c->pos++;
	if (peek(c) == '0') {
		c->pos++;
	} else if (peek(c) >= '1' && peek(c) <= '9') {
		while (peek(c) >= '0' && peek(c) <= '9')
			c->pos++;
	} else {
		return KS_EPARSE;
	}
	if (peek(c) == '.') {
		integral = false;
		c->pos++;
		if (!(peek(c) >= '0' && peek(c) <= '9'))
			return KS_EPARSE;
		while (peek(c) >= '0' && peek(c) <= '9')
			c->pos++;
	}
	if (peek(c) == 'e' || peek(c) == 'E') {
		integral = false;
		c->pos++;
		if (peek(c) == '+' || peek(c) == '-')
			c->pos++;
		if (!(peek(c) >= '0' && peek(c) <= '9'))
			return KS_EPARSE;
		while (peek(c) >= '0' && peek(c) <= '9')
			c->pos++;
	}
	v->type = KT_J_NUM;
	if (!integral || c->pos - start > 20)
		return 0;
	char tmp[24];
	memcpy(tmp, c->s + start, c->pos - start);
	tmp[c->pos - start] = '\0';
	errno = 0;
	char *end;
	long long n = strtoll(tmp, &end, 10);
	if (errno == 0 && *end == '\0') {
		v->type = KT_J_INT;
		v->i = n;
	}
	return 0;
}

static bool literal(struct cur *c, const char *word)
{
	size_t n = strlen(word);
	if (c->len - c->pos < n || memcmp(c->s + c->pos, word, n) != 0)
		return false;
	c->pos += n;
	return true;
}

static int parse_value(struct cur *c, struct kt_jval *v, char **str, int depth);

/* An array or object at c, checked and thrown away. */
static int parse_container(struct cur *c, int depth)
{
	if (depth >= MAX_DEPTH)
		return KS_EPARSE;
	bool object = peek(c) == '{';
	char close = object ? '}' : ']';
	c->pos++;
	skip_ws(c);
	if (peek(c) == close) {
		c->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(c);
		struct kt_jval v;
		char *s = NULL;
		if (object) {
			if (peek(c) != '"' || parse_string(c, &s))
				return KS_EPARSE;
			free(s);
			s = NULL;
			skip_ws(c);
			if (peek(c) != ':')
				return KS_EPARSE;
			c->pos++;
			skip_ws(c);
		}
		if (parse_value(c, &v, &s, depth + 1))
			return KS_EPARSE;
		free(s);
		skip_ws(c);
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		if (peek(c) == close) {
			c->pos++;
			return 0;
		}
		return KS_EPARSE;
	}
}

/* A value at c; a string's text goes to *str (new, free()). */
static int parse_value(struct cur *c, struct kt_jval *v, char **str, int depth)
{
	memset(v, 0, sizeof(*v));
	*str = NULL;
	switch (peek(c)) {
	case '"':
		if (parse_string(c, str))
			return KS_EPARSE;
		v->type = KT_J_STR;
		v->str = *str;
		return 0;
	case '{':
	case '[':
		v->type = KT_J_OTHER;
		return parse_container(c, depth);
	case 't':
		v->type = KT_J_BOOL;
		v->b = true;
		return literal(c, "true") ? 0 : KS_EPARSE;
	case 'f':
		v->type = KT_J_BOOL;
		return literal(c, "false") ? 0 : KS_EPARSE;
	case 'n':
		v->type = KT_J_NULL;
		return literal(c, "null") ? 0 : KS_EPARSE;
	default:
		return parse_number(c, v);
	}
}

int kt_json_object(const char *s, size_t len,
		   int (*fn)(void *arg, const char *key,
			     const struct kt_jval *v),
		   void *arg)
{
	struct cur c = {s, len, 0};
	skip_ws(&c);
	if (peek(&c) != '{')
		return KS_EPARSE;
	c.pos++;
	skip_ws(&c);
	bool first = true;
	for (;;) {
		skip_ws(&c);
		if (first && peek(&c) == '}') {
			c.pos++;
			break;
		}
		first = false;
		char *key = NULL, *str = NULL;
		struct kt_jval v;
		if (peek(&c) != '"' || parse_string(&c, &key))
			return KS_EPARSE;
		skip_ws(&c);
		if (peek(&c) != ':') {
			free(key);
			return KS_EPARSE;
		}
		c.pos++;
		skip_ws(&c);
		if (parse_value(&c, &v, &str, 1)) {
			free(key);
			free(str);
			return KS_EPARSE;
		}
		int rc = fn(arg, key, &v);
		free(key);
		free(str);
		if (rc)
			return rc;
		skip_ws(&c);
		if (peek(&c) == ',') {
			c.pos++;
			continue;
		}
		if (peek(&c) == '}') {
			c.pos++;
			break;
		}
		return KS_EPARSE;
	}
	skip_ws(&c);
	return c.pos == c.len ? 0 : KS_EPARSE;
}
