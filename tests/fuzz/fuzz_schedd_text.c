/*
 * fuzz_schedd_text.c: a libFuzzer target for the text the schedd reads
 * besides ads: job transforms (schedd/transform_parse.c) and the file
 * transfer encodings (common/xfer: base64, file lists, file names).
 *
 * The first byte picks: 't' a transform's text (the rest), which must
 * parse or name a line within it and say what is wrong, every step
 * having what its operation needs (a compiled pattern only for COPY,
 * RENAME and DELETE); 'b' base64, whose decoding, when it succeeds,
 * encodes back to the same text; anything else a file list, whose
 * items are non-empty and hold no separator, each checked by the name
 * rule.  Nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_xfer.h"
#include "sc_transform_int.h"

static void check_transform(const char *text)
{
	struct transform t = {0};
	struct ks_err err = {0};
	int bad = sc_transform_parse("fuzz", text, &t, &err);
	int lines = 1;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	if (bad < 0 || bad > lines ||
	    (bad && (err.line != bad || !err.msg[0])))
		abort();
	for (size_t i = 0; i < t.n; i++) {
		const struct step *st = &t.steps[i];
		/* a pattern may be empty (it matches every name) */
		if (st->op != OP_REQUIREMENTS && st->op != OP_IF &&
		    (!st->a || (!*st->a && !st->re)))
			abort();
		if (st->re && st->op != OP_COPY && st->op != OP_RENAME &&
		    st->op != OP_DELETE)
			abort();
		if ((st->op == OP_DELETE) != !st->b)
			abort();
		if (st->line < 1 || st->line > lines)
			abort();
	}
	if (t.transform_line > lines || t.unread_line > lines ||
	    (t.unread_line && t.unread_line <= t.transform_line))
		abort();
	sc_transform_free(&t);
}

static void check_base64(const char *text)
{
	unsigned char *data = NULL;
	size_t len = 0;
	struct ks_err err = {0};
	if (ks_xfer_b64_decode(text, &data, &len, &err) == 0) {
		char *again = ks_xfer_b64_encode(data, len);
		if (strcmp(again, text) != 0)
			abort();
		free(again);
	}
	free(data);
}

static void check_list(const char *text)
{
	char **items = NULL;
	size_t n = ks_xfer_list_split(text, &items);
	for (size_t i = 0; i < n; i++) {
		if (!items[i][0] || strpbrk(items[i], ", \t\n"))
			abort();
		(void)ks_xfer_name_ok(items[i]);
	}
	ks_xfer_list_free(items, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (strlen(text) != size - 1) {
		free(text);
		return 0; /* the texts are C strings */
	}
	if (data[0] == 't')
		check_transform(text);
	else if (data[0] == 'b')
		check_base64(text);
	else
		check_list(text);
	free(text);
	return 0;
}
