/*
 * tf_flag.c: flags matched as HTCondor's tools match them (its
 * is_dash_arg_prefix): any prefix of the name at least as long as a
 * minimum, "--name" spelled out, some with ":options".
 */
#include "tfmt.h"

bool tf_flag(const char *arg, const char *name, int min, const char **colon)
{
	if (colon)
		*colon = NULL;
	if (*arg != '-')
		return false;
	arg++;
	if (*arg == '-') {
		arg++;
		min = -1; /* "--" wants the whole name */
	}
	if (!*name || *arg != *name)
		return false;
	int len = 0;
	while (*arg == *name) {
		len++;
		arg++;
		name++;
		if (colon && *arg == ':') {
			*colon = arg + 1;
			break;
		}
		if (!*name)
			break;
	}
	if (*arg && !(colon && *arg == ':'))
		return false;
	if (colon && *arg == ':')
		*colon = arg + 1;
	if (min < 0)
		return *name == '\0';
	return len >= min;
}
