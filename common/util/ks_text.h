/*
 * ks_text.h: small text helpers the tools and daemons share.
 */
#ifndef KS_TEXT_H
#define KS_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* s without its leading white space, its trailing white space cut off in
 * place.  Returns a pointer into s. */
char *ks_trim(char *s);

/* The next item of an HTCondor list (items separated by commas and
 * blank space) in list from *pos on: returns its start, a pointer into
 * list, with its length in *len, and moves *pos past it; NULL when no
 * item is left (list NULL too). */
const char *ks_list_next(const char *list, size_t *pos, size_t *len);

/* ks_list_next() with other separators than blanks and commas, for the
 * few lists HTCondor splits otherwise (environment name lists take ';'
 * too).  seps: the separator bytes. */
const char *ks_list_next_sep(const char *list, const char *seps, size_t *pos,
			     size_t *len);

/* The same split over a list the caller may write to (strtok_r() without
 * its state): the next item from *cur on, NUL-terminated in place (the
 * separator after it is overwritten), *cur moved past it; NULL when no
 * item is left (*cur NULL too).  Borrowed: points into the list.
 *	for (char *cur = copy, *t; (t = ks_list_cut(&cur));) ... */
char *ks_list_cut(char **cur);

/* name as seen from directory dir: name itself when absolute, else
 * dir/name.  New string (free()). */
char *ks_path_in(const char *dir, const char *name);

/* Everything left to read from f, NUL-terminated; *len (NULL allowed)
 * its length.  New string (free()); a read error ends it early. */
char *ks_read_all(FILE *f, size_t *len);

/* mkdir -p: makes dir and its missing parents with mode.  Returns 0 (also
 * when dir exists as a directory) or -1 with errno set. */
int ks_mkdirs(const char *dir, mode_t mode);

#endif
