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
