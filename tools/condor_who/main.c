/* main.c: the condor_who command (the work is in the ks_who library). */
#include <signal.h>
#include <stdio.h>

#include "who.h"

int main(int argc, char **argv)
{
	/* a daemon that goes away mid-answer must not kill the tool */
	signal(SIGPIPE, SIG_IGN);
	return who_main(argc, (const char *const *)argv, stdout, stderr);
}
