/*
 * condor_version.c: condor_version, as HTCondor 25's: no option prints
 * the $CondorVersion$ and $CondorPlatform$ lines; -arch and -opsys print
 * the two parts of the platform string instead (opsys first when it was
 * asked first).  Only the second character of an option counts ("-a",
 * "-arch" and "-anything" all mean -arch), as in HTCondor.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ks_version.h"

static int usage(const char *prog, int status)
{
	/* HTCondor's text, including the missing newline before "Valid" */
	fprintf(stderr, "Usage: %s [options]\n", prog);
	fprintf(stderr, "   If no options are specified, print the version "
			"and platform strings\n   where the tool was built.");
	fprintf(stderr, "  Valid options are:\n");
	fprintf(stderr, "   -help\t(this message)\n");
	fprintf(stderr, "   -arch\t(print the ARCH string)\n");
	fprintf(stderr, "   -opsys\t(print the OPSYS string)\n");
	return status;
}

/*
 * The platform string split as HTCondor's version info splits it: the
 * architecture runs from after "$CondorPlatform: " to the first '-',
 * the system from there to the next space or '$'.  HTCondor's own
 * platform names ("x86_64_Debian12") have no '-', so the architecture
 * is then everything up to the end, " $" included, and the system
 * empty: that is what HTCondor 25 prints, so it is what this prints.
 */
static void split_platform(const char *platform, char *arch, size_t arch_sz,
			   char *opsys, size_t opsys_sz)
{
	const char *p = strchr(platform, ' ');
	arch[0] = opsys[0] = '\0';
	if (!p)
		return;
	p++;
	size_t n = strcspn(p, "-");
	snprintf(arch, arch_sz, "%.*s", (int)n, p);
	p += n;
	if (*p == '-')
		p++;
	n = strcspn(p, " $");
	snprintf(opsys, opsys_sz, "%.*s", (int)n, p);
}

int main(int argc, char **argv)
{
	const char *prog = argc > 0 ? argv[0] : "condor_version";
	bool arch = false, opsys = false, opsys_first = false;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			fprintf(stderr, "ERROR: invalid argument: '%s'\n",
				argv[i]);
			return usage(prog, 1);
		}
		switch (argv[i][1]) {
		case 'a':
			arch = true;
			break;
		case 'o':
			opsys = true;
			if (!arch)
				opsys_first = true;
			break;
		case 'h':
			return usage(prog, 0);
		default:
			fprintf(stderr, "ERROR: unrecognized argument: '%s'\n",
				argv[i]);
			return usage(prog, 1);
		}
	}
	if (!arch && !opsys) {
		fputs(KS_CONDOR_VERSION_LINES, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	char a[128], o[128];
	split_platform(KS_CONDOR_PLATFORM, a, sizeof a, o, sizeof o);
	if (opsys_first)
		printf("%s\n", o);
	if (arch)
		printf("%s\n", a);
	if (opsys && !opsys_first)
		printf("%s\n", o);
	return fflush(stdout) == 0 ? 0 : 1;
}
