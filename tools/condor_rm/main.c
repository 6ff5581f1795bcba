/* main.c: condor_rm, condor_hold, condor_release (the name picks the
 * action; the work is in the ks_act library). */
#include <stdio.h>

#include "act.h"

int main(int argc, char **argv)
{
	return act_main(argc, (const char *const *)argv, stdout, stderr);
}
