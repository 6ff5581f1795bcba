/*
 * ks_wire.h: the message format (docs/protocol.md).
 *
 * A message is a 16-byte header and a payload.  Header, all integers
 * big-endian:
 *   0  'K' 'S'        magic
 *   2  version        KS_WIRE_VERSION
 *   3  flags          KS_WIRE_COMPRESSED, KS_WIRE_MORE
 *   4  code           int32: a command, a reply or a handshake step
 *   8  wire length    uint32: payload bytes that follow the header
 *  12  length         uint32: payload bytes once decompressed
 * The (decompressed) payload is zero or more ads, each a uint32 length
 * and the ad in old ClassAd syntax ("Name = expr" lines), the form
 * HTCondor's own protocol carries, which lets a receiver share repeated
 * expressions between ads (classad_cache).  An ad that old syntax cannot
 * carry (a string holding a newline) goes in new syntax, with
 * KS_WIRE_NEW_SYNTAX set in its length.
 *
 * Decoding is a pure function of its bytes and never trusts a length: it
 * is what the fuzz target drives.
 */
#ifndef KS_WIRE_H
#define KS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "ks_err.h"

#define KS_WIRE_VERSION 1
#define KS_WIRE_HEADER 16
#define KS_WIRE_COMPRESSED 0x01u
#define KS_WIRE_MORE 0x02u
/* A UDP datagram signed with a session key: the payload is followed by
 * the session's id (KS_WIRE_SESSION_ID text characters) and the
 * HMAC-SHA256 of header and payload (KS_WIRE_MAC bytes). */
#define KS_WIRE_SIGNED 0x04u
/* An update whose ads come in pairs: each public ad, then its private
 * ad (a slot's claim id, for the negotiator only), as in HTCondor's
 * protocol. */
#define KS_WIRE_PAIRED 0x08u
/* A message sent on a connection whose earlier request is still being
 * answered (a claim's keep-alive on its activation's connection): the
 * server marks its reply the same way, so that the client tells it from
 * the earlier request's replies. */
#define KS_WIRE_ECHO 0x10u
#define KS_WIRE_SESSION_ID 32
#define KS_WIRE_MAC 32
/* No message may exceed this, compressed or not: a peer that announces
 * more is dropped before anything is allocated. */
#define KS_WIRE_MAX (64u * 1024 * 1024)
#define KS_WIRE_NEW_SYNTAX 0x80000000u
/* Payloads above this are compressed when the connection asks for it. */
#define KS_WIRE_COMPRESS_MIN (64u * 1024)

/* Reply codes (commands use HTCondor's numbers, ks_commands.h). */
enum {
	KS_REPLY_OK = 1,
	KS_REPLY_ERROR = -1,  /* first ad: ErrorString, ErrorCode */
	KS_REPLY_DENIED = -2, /* not authorized; first ad: ErrorString */
	/* Handshake steps (docs/protocol.md). */
	KS_HS_HELLO = 70000,
	KS_HS_CHALLENGE = 70001,
	KS_HS_PROOF = 70002,
	KS_HS_DONE = 70003,
};

struct ks_wire_header {
	unsigned version;
	unsigned flags;
	int32_t code;
	uint32_t wire_len;
	uint32_t len;
};

/* Reads a header from KS_WIRE_HEADER bytes.  Returns 0, or KS_EPROTO with
 * err filled for a bad magic, version, flag or length. */
int ks_wire_header_decode(const unsigned char *p, struct ks_wire_header *h,
			  struct ks_err *err);

/* Appends a whole message (header and payload) to b: code, n ads, flags
 * (KS_WIRE_MORE); compressed when compress and the payload is large.
 * Returns 0 or KS_ERANGE when it would exceed KS_WIRE_MAX. */
int ks_wire_encode(struct classad_buf *b, int32_t code, classad *const *ads,
		   size_t n, unsigned flags, bool compress, struct ks_err *err);

/* Appends a message whose payload is already encoded ads (from
 * ks_wire_encode_ad()); used to stream replies without copying ads. */
int ks_wire_encode_raw(struct classad_buf *b, int32_t code,
		       const char *payload, size_t len, unsigned flags,
		       bool compress, struct ks_err *err);

/* The KS_WIRE_HEADER + 4 bytes that precede an ad's old-syntax text of
 * len bytes to make a message of it (header and record length): a sender
 * can then write the text from where it lies, and then `extra` bytes of
 * further records (ks_wire_encode_ad(): the private ad of a paired
 * update).  Returns 0 or KS_ERANGE. */
int ks_wire_text_header(unsigned char out[KS_WIRE_HEADER + 4], int32_t code,
			size_t len, size_t extra, unsigned flags,
			struct ks_err *err);

/* Appends a message of one ad given as its old-syntax text (what a
 * sender read from a file and has checked parses). */
int ks_wire_encode_text(struct classad_buf *b, int32_t code, const char *text,
			size_t len, unsigned flags, struct ks_err *err);

/* Starts a message in b whose payload the caller appends next (with
 * ks_wire_encode_ad()); returns where it starts, for ks_wire_end(). */
size_t ks_wire_begin(struct classad_buf *b);

/* Finishes the message begun at `at` with its header (not compressed).
 * Returns 0, or KS_ERANGE with the message taken out of b again when its
 * payload is over KS_WIRE_MAX. */
int ks_wire_end(struct classad_buf *b, size_t at, int32_t code,
		unsigned flags, struct ks_err *err);

/* Appends one ad's payload record (length and text) to b. */
void ks_wire_encode_ad(struct classad_buf *b, const classad *ad);

/* Decodes the payload of a message whose header is h: *ads is a new array
 * of new ads (free each with classad_free(), then the array), parsed
 * through cache (NULL allowed).  Returns 0 or KS_EPROTO / KS_EPARSE with
 * err filled; nothing is returned on error. */
int ks_wire_decode(const struct ks_wire_header *h, const unsigned char *payload,
		   classad_cache *cache, classad ***ads, size_t *n,
		   struct ks_err *err);

/* One ad record of a payload as it came: its text (valid during the call
 * it is given to), whether it is in new syntax, and where it was.
 * Old-syntax text made by a kestrel daemon is the unparse of an ad, one
 * "Name = value" line per attribute, and so reads back to the same. */
struct ks_wire_record {
	const char *text;
	size_t len;
	bool new_syntax;
	size_t index;  /* 1 for the payload's first ad */
	size_t offset; /* of the text in the payload */
};

/* Called with each record of a payload; returns 0 to go on. */
typedef int (*ks_wire_record_fn)(const struct ks_wire_record *rec, void *arg);

/* Walks the records of the payload of a message whose header is h,
 * without parsing them.  Returns 0, KS_EPROTO with err filled (the
 * records before the bad one have been seen), or KS_ECANCELED when fn
 * asked to stop. */
int ks_wire_records(const struct ks_wire_header *h,
		    const unsigned char *payload, ks_wire_record_fn fn,
		    void *arg, struct ks_err *err);

/* The ad of a record, parsed through cache (NULL allowed): a new ad
 * (classad_free()), or NULL with err filled (KS_EPARSE). */
classad *ks_wire_record_parse(const struct ks_wire_record *rec,
			      classad_cache *cache, struct ks_err *err);

#endif
