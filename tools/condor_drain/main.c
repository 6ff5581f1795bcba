/* main.c: the condor_drain command (the work is in drain.c). */
#include <signal.h>
#include <stdio.h>

#include "drain.h"

int main(int argc, char **argv)
{
	/* a startd that goes away mid-send must not kill the tool */
	signal(SIGPIPE, SIG_IGN);
	return drn_main(argc, argv, stdout, stderr);
}
