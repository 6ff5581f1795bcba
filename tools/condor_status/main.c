/* main.c: the condor_status command (the work is in the ks_status library). */
#include <stdio.h>

#include "status.h"

int main(int argc, char **argv)
{
	return st_main(argc, (const char *const *)argv, stdout, stderr);
}
