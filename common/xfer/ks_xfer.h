/*
 * ks_xfer.h: files as ClassAds, for HTCondor-style file transfer over
 * kestrel's wire protocol.
 *
 * A file travels as one ad: FileName (its path relative to the receiving
 * directory: never absolute, no "." or ".." component, no empty one),
 * FileMode (its permission bits, an int) and FileData (its bytes in
 * base64).  A set of such ads is bounded (KS_XFER_MAX_BYTES of file data
 * by default) so that it fits in one wire message (64 MiB) once encoded.
 *
 * Reading: ks_xfer_add_entry() takes one entry of HTCondor's
 * transfer_input_files / transfer_output_files list: a file travels
 * under its basename; a directory travels whole under its basename; a
 * directory named with a trailing '/' travels as its contents only (the
 * HTCondor manual's rule).  With set->nofollow the reader never follows
 * a symbolic link (a root starter reading a job's sandbox), and the
 * entry must stay inside the base directory.
 *
 * Failures return a KS_E* code, fill err with HTCondor's detail text
 * ("reading from file PATH: (errno N) TEXT") and set *eno (NULL allowed)
 * to the system error, which HTCondor uses as HoldReasonSubCode.
 */
#ifndef KS_XFER_H
#define KS_XFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "classad.h"
#include "ks_err.h"

/* Raw bytes a set holds by default: base64 makes 4/3 of it, which with
 * the ads' text stays under the wire's 64 MiB per message. */
#define KS_XFER_MAX_BYTES (40u << 20)

/* A set of file ads.  Start zeroed (limit 0 means KS_XFER_MAX_BYTES). */
struct ks_xfer_set {
	classad **ads;      /* owned */
	size_t n, cap;
	uint64_t bytes;     /* file bytes held */
	uint64_t limit;
	bool nofollow;      /* never follow symbolic links */
};

/* Frees the ads; the set is zeroed (limit and nofollow kept). */
void ks_xfer_set_free(struct ks_xfer_set *set);

/* Takes ownership of ad (a file ad from the wire) into set. */
void ks_xfer_set_take(struct ks_xfer_set *set, classad *ad);

/* base64 of len bytes.  New string (free()). */
char *ks_xfer_b64_encode(const unsigned char *data, size_t len);

/* Decodes base64 text (padding required when the length is not a
 * multiple of 4; no white space).  *data is new (free(), NUL-terminated
 * for convenience), *len its length.  Returns 0 or KS_EPARSE with err
 * saying where. */
int ks_xfer_b64_decode(const char *text, unsigned char **data, size_t *len,
		       struct ks_err *err);

/* True if name may be a FileName (see above). */
bool ks_xfer_name_ok(const char *name);

/* Splits an HTCondor file list (entries separated by commas and/or white
 * space).  Returns the number of entries; *items is a new array of new
 * strings, free with ks_xfer_list_free().  NULL list: 0. */
size_t ks_xfer_list_split(const char *list, char ***items);
void ks_xfer_list_free(char **items, size_t n);

/* Adds the regular file at path as name (a directory: its files,
 * recursively, under name/; name "" adds a directory's contents at the
 * top).  Returns 0, KS_ERANGE past the set's limit, KS_EIO otherwise. */
int ks_xfer_add_path(struct ks_xfer_set *set, const char *path,
		     const char *name, int *eno, struct ks_err *err);

/* Adds one list entry, relative to base unless absolute (see above).
 * With set->nofollow an absolute entry or one with ".." is refused. */
int ks_xfer_add_entry(struct ks_xfer_set *set, const char *base,
		      const char *entry, int *eno, struct ks_err *err);

/* The ad's FileName (new string, free()), or NULL when missing or not
 * allowed. */
char *ks_xfer_name(const classad *ad);

/* Writes the file ad's data to path (created or truncated, with the
 * ad's mode), making missing parent directories (0755) when mkparents.
 * When chown_it the file goes to uid:gid (directories made do not).
 * *written (NULL allowed) gets the byte count.  Returns 0, KS_EPARSE for
 * a bad ad, KS_EIO with err "writing to file PATH: (errno N) TEXT". */
int ks_xfer_write(const classad *ad, const char *path, bool mkparents,
		  bool chown_it, uid_t uid, gid_t gid, uint64_t *written,
		  int *eno, struct ks_err *err);

/* Removes path and everything under it, never following a symbolic
 * link.  Returns 0 or -1 (errno of the first failure; removal goes on). */
int ks_xfer_remove_tree(const char *path);

#endif
