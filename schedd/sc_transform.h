/*
 * sc_transform.h: job transforms (JOB_TRANSFORM_NAMES,
 * JOB_TRANSFORM_<name>), in HTCondor's transform language:
 *
 *   # comment
 *   NAME = text                a macro for later lines ($(NAME))
 *   REQUIREMENTS expr          only jobs for which expr is true (the
 *                              last REQUIREMENTS, before any change)
 *   SET attr expr              attr = expr
 *   DEFAULT attr expr          the same, when the job has no attr
 *   EVALSET attr expr          attr = the value of expr in the job
 *   EVALMACRO name expr        macro name = the value of expr
 *   COPY attr new              new = the expression of attr
 *   RENAME attr new            the same, and attr deleted
 *   DELETE attr                attr deleted
 *   COPY /re/opts new          each attribute whose name matches re
 *   RENAME /re/opts new        (ignoring case), new naming its copy
 *   DELETE /re/opts            with \0 the name and \1..\9 its groups
 *   if cond / elif cond / else / endif   (conditions as the
 *                              configuration's, read in the job:
 *                              "if defined MY.attr")
 *   NAME text, UNIVERSE u      taken, nothing done (the job router's)
 *   TRANSFORM args             the end of the transform (its loop is
 *                              condor_transform_ads's; not run here)
 *
 * A deleted attribute leaves the job's ad (and its cluster ad, whose
 * other jobs keep their own copy).  $(MY.attr) in a line stands for the
 * job's attr: a string's text without quotes (as HTCondor expands it),
 * another value's ClassAd text, so SET Requirements = TARGET.HasDocker
 * && $(MY.Requirements) extends what the job asked for; undefined when
 * the job has no attr.  Other $(NAME)s are
 * the transform's macros, then the configuration's.  userMap() reads
 * the maps SCHEDD_CLASSAD_USER_MAP_NAMES names
 * (CLASSAD_USER_MAPFILE_<name> or CLASSAD_USER_MAPDATA_<name>).
 */
#ifndef SC_TRANSFORM_H
#define SC_TRANSFORM_H

#include "sc_schedd.h"

struct sc_transforms;

/* Reads the transforms and user maps from the configuration.  A
 * transform that cannot be used (undefined, a line that is wrong, a
 * regular expression that does not compile) is left out, and said so,
 * naming the line and what is wrong, in the log and on standard error
 * (when the log is a file), as are statements that do nothing here.
 * NULL when there are none. */
struct sc_transforms *sc_transforms_load(struct sc_schedd *s);
void sc_transforms_free(struct sc_transforms *t);

/* Applies to each of the n procs (chained to cl_ad) every transform
 * whose REQUIREMENTS it meets, in order: what a transform sets goes
 * into the proc; what it deletes leaves the proc, and cl_ad if cl_ad
 * has it (the procs that keep it get their own copy).  Returns 0, or
 * KS_EINVAL with err filled when a transform cannot be applied (the ads
 * are then half changed: the submission is refused). */
int sc_transforms_apply(struct sc_schedd *s, struct sc_transforms *t,
			classad *cl_ad, classad **procs, size_t n,
			struct ks_err *err);

#endif
