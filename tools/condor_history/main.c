/* main.c: the condor_history command (the work is in ks_hist). */
#include <stdio.h>

#include "hist.h"

int main(int argc, char **argv)
{
	return hi_main(argc, (const char *const *)argv, stdout, stderr);
}
