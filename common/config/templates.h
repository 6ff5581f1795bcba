/*
 * templates.h: the templates of "use CATEGORY : Name" (ROLE, POLICY,
 * FEATURE, SECURITY), with HTCondor 25's definitions.  A body is
 * configuration text that may hold $(1), $(2), ... arguments.
 */
#ifndef KS_TEMPLATES_H
#define KS_TEMPLATES_H

#include <stddef.h>

struct ks_template {
	const char *category;
	const char *name;
	const char *body;
	const char *desc;
};

extern const struct ks_template ks_templates[];
extern const size_t ks_templates_count;

/* The template, category and name compared ignoring case, or NULL. */
const struct ks_template *ks_template_find(const char *category,
					   const char *name);

#endif
