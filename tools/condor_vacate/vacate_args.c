/*
 * vacate_args.c: condor_vacate's command line: tool.cpp's (ctool.h),
 * with condor_vacate's usage text.
 */
#include "vacate.h"

/* HTCondor's usage(MyName): the whole text on stderr. */
static int usage(const char *prog, FILE *err, int status)
{
	fprintf(err,
		"Usage: %s [general-options] [targets]\n"
		"\n"
		"where [general-options] can be zero or more of:\n"
		"    -help\t\tprint this text\n"
		"    -version\t\tprint the version\n"
		"    -pool <hostname>\tfind the targets through this central "
		"manager\n"
		"    -graceful\t\tsoft-kill the jobs, allowing their vacate "
		"time (default)\n"
		"    -fast\t\thard-kill the jobs at once\n"
		"    -debug\t\tsay why a command could not be sent\n"
		"\n"
		"where [targets] can be zero or more of:\n"
		"    -all\t\tevery machine of the pool (other targets are "
		"ignored)\n"
		"    -annex-name <name>\tevery machine of the named annex\n"
		"    -annex-slots\tevery annex machine of the pool\n"
		"    hostname\t\tevery slot of that machine\n"
		"    slotN@hostname\tthat slot only\n"
		"    <ip.address:port>\tthe startd at that \"sinful string\"\n"
		"  (as in other HTCondor tools, also:)\n"
		"    -name name\t\ta machine or slot, as above\n"
		"    -constraint constraint\tthe slots for which constraint "
		"is true\n"
		"    -addr <addr:port>\ta startd's address, as above\n"
		"  (with no target, the startd of this machine)\n"
		"\n"
		"  %s makes the condor_startd evict the jobs it runs on\n"
		"  the given machines or slots; they stay in their queues and\n"
		"  run again elsewhere.  -graceful lets each job shut down on\n"
		"  its soft kill signal; -fast kills it outright.\n"
		"\n",
		prog, prog);
	return status;
}

int vac_parse(int argc, char **argv, struct ct_opts *o, FILE *out,
	      FILE *err)
{
	return ct_parse(argc, argv, CT_VACATE, "condor_vacate", usage, o, out,
			err);
}
