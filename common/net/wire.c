/* wire.c: message encoding and decoding (ks_wire.h). */
#include "ks_wire.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ks_mem.h"

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void put_header(unsigned char *h, unsigned flags, int32_t code,
		       size_t wire_len, size_t len)
{
	h[0] = 'K';
	h[1] = 'S';
	h[2] = KS_WIRE_VERSION;
	h[3] = (unsigned char)flags;
	put32(h + 4, (uint32_t)code);
	put32(h + 8, (uint32_t)wire_len);
	put32(h + 12, (uint32_t)len);
}

int ks_wire_header_decode(const unsigned char *p, struct ks_wire_header *h,
			  struct ks_err *err)
{
	if (p[0] != 'K' || p[1] != 'S')
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "not a kestrel message (bad magic %02x %02x)",
				  p[0], p[1]);
	h->version = p[2];
	h->flags = p[3];
	h->code = (int32_t)get32(p + 4);
	h->wire_len = get32(p + 8);
	h->len = get32(p + 12);
	if (h->version != KS_WIRE_VERSION)
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "protocol version %u, expected %u",
				  h->version, KS_WIRE_VERSION);
	if (h->flags & ~(KS_WIRE_COMPRESSED | KS_WIRE_MORE | KS_WIRE_SIGNED |
			 KS_WIRE_PAIRED | KS_WIRE_ECHO))
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "unknown message flags 0x%02x", h->flags);
	if (h->wire_len > KS_WIRE_MAX || h->len > KS_WIRE_MAX)
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "message of %u bytes is over the limit of %u",
				  h->wire_len > h->len ? h->wire_len : h->len,
				  KS_WIRE_MAX);
	if (!(h->flags & KS_WIRE_COMPRESSED) && h->wire_len != h->len)
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "uncompressed message with two lengths");
	return 0;
}

/* Old syntax writes a string's newline as it is, which would end its
 * line early: such an ad goes in new syntax, marked in its length. */
static bool old_form_reads_back(const char *text, size_t len, size_t attrs)
{
	size_t lines = 0;
	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p)));
	     p++)
		lines++;
	return lines == attrs && !memchr(text, '\r', len) &&
	       !memchr(text, '\0', len);
}

void ks_wire_encode_ad(struct classad_buf *b, const classad *ad)
{
	classad_buf_reserve(b, 4);
	size_t at = b->len;
	b->len += 4;
	classad_unparse_buf(b, ad, CLASSAD_FMT_OLD);
	uint32_t len = (uint32_t)(b->len - at - 4);
	if (!old_form_reads_back(b->data + at + 4, len, classad_size(ad))) {
		b->len = at + 4;
		b->data[b->len] = '\0';
		classad_unparse_buf(b, ad, CLASSAD_FMT_NEW);
		len = (uint32_t)(b->len - at - 4) | KS_WIRE_NEW_SYNTAX;
	}
	put32((unsigned char *)b->data + at, len);
}

int ks_wire_encode_raw(struct classad_buf *b, int32_t code,
		       const char *payload, size_t len, unsigned flags,
		       bool compress, struct ks_err *err)
{
	if (len > KS_WIRE_MAX)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "message of %zu bytes is over the limit of %u",
				  len, KS_WIRE_MAX);
	size_t at = b->len;
	classad_buf_reserve(b, KS_WIRE_HEADER + len);
	unsigned char *h = (unsigned char *)b->data + at;
	uLongf wire = len;
	if (compress && len >= KS_WIRE_COMPRESS_MIN) {
		uLongf bound = compressBound(len);
		classad_buf_reserve(b, KS_WIRE_HEADER + bound);
		h = (unsigned char *)b->data + at;
		wire = bound;
		if (compress2(h + KS_WIRE_HEADER, &wire,
			      (const Bytef *)payload, len, 1) == Z_OK &&
		    wire < len)
			flags |= KS_WIRE_COMPRESSED;
		else
			wire = len;
	}
	if (!(flags & KS_WIRE_COMPRESSED) && len)
		memcpy(h + KS_WIRE_HEADER, payload, len);
	put_header(h, flags, code, wire, len);
	b->len = at + KS_WIRE_HEADER + wire;
	b->data[b->len] = '\0';
	return 0;
}

size_t ks_wire_begin(struct classad_buf *b)
{
	classad_buf_reserve(b, KS_WIRE_HEADER);
	size_t at = b->len;
	b->len += KS_WIRE_HEADER;
	return at;
}

int ks_wire_end(struct classad_buf *b, size_t at, int32_t code,
		unsigned flags, struct ks_err *err)
{
	size_t len = b->len - at - KS_WIRE_HEADER;
	if (len > KS_WIRE_MAX) {
		b->len = at;
		b->data[at] = '\0';
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "message of %zu bytes is over the limit of %u",
				  len, KS_WIRE_MAX);
	}
	put_header((unsigned char *)b->data + at,
		   flags & ~(unsigned)KS_WIRE_COMPRESSED, code, len, len);
	return 0;
}

int ks_wire_text_header(unsigned char out[KS_WIRE_HEADER + 4], int32_t code,
			size_t len, size_t extra, unsigned flags,
			struct ks_err *err)
{
	if (len > KS_WIRE_MAX - 4 || extra > KS_WIRE_MAX - 4 - len)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "an ad of %zu bytes is over the limit of %u",
				  len + extra, KS_WIRE_MAX);
	put_header(out, flags, code, len + 4 + extra, len + 4 + extra);
	put32(out + KS_WIRE_HEADER, (uint32_t)len);
	return 0;
}

int ks_wire_encode_text(struct classad_buf *b, int32_t code, const char *text,
			size_t len, unsigned flags, struct ks_err *err)
{
	size_t at = b->len;
	classad_buf_reserve(b, KS_WIRE_HEADER + 4 + len);
	unsigned char *h = (unsigned char *)b->data + at;
	int rc = ks_wire_text_header(h, code, len, 0, flags, err);
	if (rc)
		return rc;
	memcpy(h + 20, text, len);
	b->len = at + KS_WIRE_HEADER + 4 + len;
	b->data[b->len] = '\0';
	return 0;
}

int ks_wire_encode(struct classad_buf *b, int32_t code, classad *const *ads,
		   size_t n, unsigned flags, bool compress, struct ks_err *err)
{
	if (!compress) {
		/* straight into b, the header written once the length is
		 * known: no second copy of the payload */
		size_t at = b->len;
		classad_buf_reserve(b, KS_WIRE_HEADER);
		b->len += KS_WIRE_HEADER;
		for (size_t i = 0; i < n; i++)
			ks_wire_encode_ad(b, ads[i]);
		size_t len = b->len - at - KS_WIRE_HEADER;
		if (len > KS_WIRE_MAX) {
			b->len = at;
			return ks_err_set(err, KS_ERANGE, 0, 0, 0,
					  "message of %zu bytes is over the "
					  "limit of %u", len, KS_WIRE_MAX);
		}
		unsigned char *h = (unsigned char *)b->data + at;
		put_header(h, flags, code, len, len);
		return 0;
	}
	struct classad_buf p = {0};
	for (size_t i = 0; i < n; i++)
		ks_wire_encode_ad(&p, ads[i]);
	int rc = ks_wire_encode_raw(b, code, p.data, p.len, flags, compress,
				    err);
	free(p.data);
	return rc;
}

static int inflate_payload(const struct ks_wire_header *h,
			   const unsigned char *in, unsigned char **out,
			   struct ks_err *err)
{
	unsigned char *p = ks_xmalloc(h->len + 1u);
	uLongf got = h->len;
	int zrc = uncompress(p, &got, in, h->wire_len);
	if (zrc != Z_OK || got != h->len) {
		free(p);
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "compressed payload does not inflate to the "
				  "%u bytes announced", h->len);
	}
	*out = p;
	return 0;
}

int ks_wire_records(const struct ks_wire_header *h,
		    const unsigned char *payload, ks_wire_record_fn fn,
		    void *arg, struct ks_err *err)
{
	unsigned char *inflated = NULL;
	if (h->flags & KS_WIRE_COMPRESSED) {
		int rc = inflate_payload(h, payload, &inflated, err);
		if (rc)
			return rc;
		payload = inflated;
	}
	size_t pos = 0, count = 0;
	int rc = 0;
	while (pos < h->len && rc == 0) {
		if (h->len - pos < 4) {
			rc = ks_err_set(err, KS_EPROTO, 0, 0, pos,
					"ad record %zu is truncated", count + 1);
			break;
		}
		uint32_t alen = get32(payload + pos);
		struct ks_wire_record rec = {
			.new_syntax = (alen & KS_WIRE_NEW_SYNTAX) != 0,
			.index = ++count};
		alen &= ~KS_WIRE_NEW_SYNTAX;
		pos += 4;
		if (alen > h->len - pos) {
			rc = ks_err_set(err, KS_EPROTO, 0, 0, pos,
					"ad %zu claims %u bytes, %zu remain",
					count, alen, h->len - pos);
			break;
		}
		rec.text = (const char *)payload + pos;
		rec.len = alen;
		rec.offset = pos;
		pos += alen;
		if (fn(&rec, arg) != 0)
			rc = ks_err_set(err, KS_ECANCELED, 0, 0, pos,
					"stopped after ad %zu", count);
	}
	free(inflated);
	return rc;
}

classad *ks_wire_record_parse(const struct ks_wire_record *rec,
			      classad_cache *cache, struct ks_err *err)
{
	struct ks_err perr;
	classad *ad = classad_parse(rec->text, rec->len,
				    rec->new_syntax ? CLASSAD_FMT_NEW
						    : CLASSAD_FMT_OLD,
				    cache, &perr);
	if (!ad)
		ks_err_set(err, KS_EPARSE, perr.line, perr.col, rec->offset,
			   "ad %zu does not parse: %s", rec->index, perr.msg);
	return ad;
}

struct decoded {
	classad_cache *cache;
	struct ks_err *err;
	classad **list;
	size_t n, cap;
};

static int keep_decoded(const struct ks_wire_record *rec, void *arg)
{
	struct decoded *d = arg;
	classad *ad = ks_wire_record_parse(rec, d->cache, d->err);
	if (!ad)
		return KS_EPARSE;
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->list = ks_xrealloc(d->list, d->cap * sizeof(*d->list));
	}
	d->list[d->n++] = ad;
	return 0;
}

int ks_wire_decode(const struct ks_wire_header *h, const unsigned char *payload,
		   classad_cache *cache, classad ***ads, size_t *n,
		   struct ks_err *err)
{
	struct ks_err perr = {0};
	struct decoded d = {.cache = cache, .err = &perr};
	int rc = ks_wire_records(h, payload, keep_decoded, &d, err);
	if (rc == KS_ECANCELED) { /* the parse failed: its message */
		rc = perr.code;
		if (err)
			*err = perr;
	}
	if (rc) {
		for (size_t i = 0; i < d.n; i++)
			classad_free(d.list[i]);
		free(d.list);
		d = (struct decoded){0};
	}
	*ads = d.list;
	*n = d.n;
	return rc;
}
