/* commands.c: command names and codes (ks_commands.h). */
#include "ks_commands.h"

#include <stddef.h>
#include <strings.h>

static const struct {
	const char *name;
	int code;
} commands[] = {
#define KS_CMD_ROW(name, code) {#name, code},
	KS_COMMAND_LIST(KS_CMD_ROW)
#undef KS_CMD_ROW
};

const char *ks_command_name(int code)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].code == code)
			return commands[i].name;
	return NULL;
}

int ks_command_code(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcasecmp(commands[i].name, name) == 0)
			return commands[i].code;
	return -1;
}
