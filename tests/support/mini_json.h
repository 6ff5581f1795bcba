/*
 * mini_json.h: a small JSON reader for test inputs (the vector files).
 * Values are read into a tree; strings are decoded (\uXXXX to UTF-8).
 */
#ifndef MINI_JSON_H
#define MINI_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum mj_type { MJ_NULL, MJ_BOOL, MJ_NUMBER, MJ_STRING, MJ_ARRAY, MJ_OBJECT };

struct mj {
	enum mj_type type;
	bool b;
	double num;
	char *str;          /* MJ_STRING (NUL-terminated; len bytes) */
	size_t len;
	struct mj **items;  /* MJ_ARRAY values, MJ_OBJECT values */
	char **keys;        /* MJ_OBJECT keys */
	size_t n;
};

/* Parses len bytes; returns a new tree (free with mj_free()) or NULL with
 * *why set to a static message. */
struct mj *mj_parse(const char *text, size_t len, const char **why);
void mj_free(struct mj *v);

/* Member key of an object, or NULL. */
const struct mj *mj_get(const struct mj *obj, const char *key);
/* Member key as a string, or NULL (also for JSON null). */
const char *mj_str(const struct mj *obj, const char *key);

#endif
