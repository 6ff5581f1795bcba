/*
 * tmp_dir.h: a temporary directory for a unit test, under $TMPDIR (or
 * /tmp), and its removal with everything in it.
 */
#ifndef TMP_DIR_H
#define TMP_DIR_H

#include <stddef.h>

/* Makes DIR/PREFIX.XXXXXX into buf (size bytes).  Returns 0, or -1 if it
 * could not be made. */
int tmp_dir_make(const char *prefix, char *buf, size_t size);

/* Removes dir and everything under it (symbolic links are not
 * followed). */
void tmp_dir_remove(const char *dir);

#endif
