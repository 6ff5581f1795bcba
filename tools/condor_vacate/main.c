/* main.c: the condor_vacate command (the work is in vacate.c). */
#include <signal.h>
#include <stdio.h>

#include "vacate.h"

int main(int argc, char **argv)
{
	/* a startd that goes away mid-send must not kill the tool */
	signal(SIGPIPE, SIG_IGN);
	return vac_main(argc, argv, stdout, stderr);
}
