/* main.c: the condor_q command (the work is in the ks_cq library). */
#include <stdio.h>

#include "cq.h"

int main(int argc, char **argv)
{
	return cq_main(argc, (const char *const *)argv, stdout, stderr);
}
