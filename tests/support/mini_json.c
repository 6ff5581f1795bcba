/* mini_json.c: see mini_json.h. */
#include "mini_json.h"

#include <stdlib.h>
#include <string.h>

struct rd {
	const char *s;
	size_t len, pos;
	const char *why;
	int depth;
};

static void ws(struct rd *r)
{
	while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]))
		r->pos++;
}

static struct mj *node(enum mj_type t)
{
	struct mj *v = calloc(1, sizeof(*v));
	if (!v)
		abort();
	v->type = t;
	return v;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xe0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xf0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static char *read_string(struct rd *r, size_t *outlen)
{
	r->pos++; /* '"' */
	char *out = malloc(r->len - r->pos + 1);
	size_t n = 0;
	if (!out)
		abort();
	while (r->pos < r->len && r->s[r->pos] != '"') {
		char c = r->s[r->pos++];
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		if (r->pos >= r->len)
			break;
		c = r->s[r->pos++];
		switch (c) {
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'u': {
			if (r->pos + 4 > r->len)
				goto bad;
			int cp = hex4(r->s + r->pos);
			if (cp < 0)
				goto bad;
			r->pos += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && r->pos + 6 <= r->len &&
			    r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u') {
				int lo = hex4(r->s + r->pos + 2);
				if (lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
					r->pos += 6;
				}
			}
			put_utf8(out, &n, (unsigned)cp);
			break;
		}
		default: out[n++] = c; break;
		}
	}
	if (r->pos >= r->len)
		goto bad;
	r->pos++;
	out[n] = '\0';
	*outlen = n;
	return out;
bad:
	free(out);
	r->why = "bad string";
	return NULL;
}

static struct mj *value(struct rd *r);

static struct mj *read_container(struct rd *r, bool obj)
{
	struct mj *v = node(obj ? MJ_OBJECT : MJ_ARRAY);
	size_t cap = 0;
	r->pos++;
	ws(r);
	if (r->pos < r->len && r->s[r->pos] == (obj ? '}' : ']')) {
		r->pos++;
		return v;
	}
	for (;;) {
		ws(r);
		char *key = NULL;
		if (obj) {
			size_t kl;
			if (r->pos >= r->len || r->s[r->pos] != '"' ||
			    !(key = read_string(r, &kl))) {
				r->why = "expected a key";
				goto fail;
			}
			ws(r);
			if (r->pos >= r->len || r->s[r->pos] != ':') {
				free(key);
				r->why = "expected ':'";
				goto fail;
			}
			r->pos++;
		}
		struct mj *item = value(r);
		if (!item) {
			free(key);
			goto fail;
		}
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->items = realloc(v->items, cap * sizeof(*v->items));
			v->keys = realloc(v->keys, cap * sizeof(*v->keys));
			if (!v->items || !v->keys)
				abort();
		}
		v->keys[v->n] = key;
		v->items[v->n++] = item;
		ws(r);
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->len && r->s[r->pos] == (obj ? '}' : ']')) {
			r->pos++;
			return v;
		}
		r->why = "expected ',' or a closing bracket";
		goto fail;
	}
fail:
	mj_free(v);
	return NULL;
}

static struct mj *value(struct rd *r)
{
	if (++r->depth > 200) {
		r->why = "too deep";
		return NULL;
	}
	ws(r);
	struct mj *v = NULL;
	if (r->pos >= r->len) {
		r->why = "unexpected end";
	} else if (r->s[r->pos] == '{' || r->s[r->pos] == '[') {
		v = read_container(r, r->s[r->pos] == '{');
	} else if (r->s[r->pos] == '"') {
		size_t len;
		char *s = read_string(r, &len);
		if (s) {
			v = node(MJ_STRING);
			v->str = s;
			v->len = len;
		}
	} else if (!strncmp(r->s + r->pos, "null", 4)) {
		r->pos += 4;
		v = node(MJ_NULL);
	} else if (!strncmp(r->s + r->pos, "true", 4)) {
		r->pos += 4;
		v = node(MJ_BOOL);
		v->b = true;
	} else if (!strncmp(r->s + r->pos, "false", 5)) {
		r->pos += 5;
		v = node(MJ_BOOL);
	} else {
		char *end;
		double d = strtod(r->s + r->pos, &end);
		if (end == r->s + r->pos) {
			r->why = "unexpected character";
		} else {
			r->pos = (size_t)(end - r->s);
			v = node(MJ_NUMBER);
			v->num = d;
		}
	}
	r->depth--;
	return v;
}

struct mj *mj_parse(const char *text, size_t len, const char **why)
{
	struct rd r = {text, len, 0, NULL, 0};
	struct mj *v = value(&r);
	if (v) {
		ws(&r);
		if (r.pos != r.len) {
			mj_free(v);
			v = NULL;
			r.why = "text after the value";
		}
	}
	if (why)
		*why = r.why;
	return v;
}

void mj_free(struct mj *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		mj_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct mj *mj_get(const struct mj *obj, const char *key)
{
	if (!obj || obj->type != MJ_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (obj->keys[i] && strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

const char *mj_str(const struct mj *obj, const char *key)
{
	const struct mj *v = mj_get(obj, key);
	return v && v->type == MJ_STRING ? v->str : NULL;
}
