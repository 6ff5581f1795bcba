/*
 * ks_hash.h: the one string hash kestrel's tables use (64-bit FNV-1a).
 *
 * Not for anything an adversary could aim at with chosen keys beyond a
 * slower lookup, and never written to disk or the wire: tables may change
 * their hash without a format change.
 */
#ifndef KS_HASH_H
#define KS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a of the n bytes at p.  Tables take the low bits they need. */
uint64_t ks_hash(const void *p, size_t n);

/* ks_hash() of the bytes with ASCII letters folded to lower case, for
 * names compared without case (ClassAd attributes, configuration knobs):
 * names that compare equal that way hash equal. */
uint64_t ks_hash_ci(const void *p, size_t n);

#endif
