/*
 * sc_transform.h: job transforms (JOB_TRANSFORM_NAMES,
 * JOB_TRANSFORM_<name>), in the job router's transform language:
 *
 *   # comment
 *   NAME = text                a macro for later lines ($(NAME))
 *   REQUIREMENTS expr          only jobs for which expr is true
 *   SET attr expr              attr = expr
 *   DEFAULT attr expr          the same, when the job has no attr
 *   EVALSET attr expr          attr = the value of expr in the job
 *   EVALMACRO name expr        macro name = the value of expr
 *   COPY attr new              new = the expression of attr
 *   RENAME attr new            the same, and attr deleted
 *   DELETE attr                attr deleted
 *
 * $(MY.attr) in a line stands for the job's attr as ClassAd text, so
 * SET Requirements = TARGET.HasDocker && $(MY.Requirements) extends what
 * the job asked for; other $(NAME)s are the transform's macros, then the
 * configuration's.  userMap() reads the maps SCHEDD_CLASSAD_USER_MAP_NAMES
 * names (CLASSAD_USER_MAPFILE_<name> or CLASSAD_USER_MAPDATA_<name>).
 */
#ifndef SC_TRANSFORM_H
#define SC_TRANSFORM_H

#include "sc_schedd.h"

struct sc_transforms;

/* Reads the transforms and user maps from the configuration (problems
 * are logged; a transform that does not parse is skipped).  NULL when
 * there are none. */
struct sc_transforms *sc_transforms_load(struct sc_schedd *s);
void sc_transforms_free(struct sc_transforms *t);

/* Applies every transform whose REQUIREMENTS the job meets, in order, to
 * proc (chained to cl_ad: what it changes goes into proc).  Returns 0,
 * or KS_EINVAL with err filled when a transform cannot be applied. */
int sc_transforms_apply(struct sc_schedd *s, struct sc_transforms *t,
			classad *cl_ad, classad *proc, struct ks_err *err);

#endif
