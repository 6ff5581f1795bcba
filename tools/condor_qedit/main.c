/* main.c: the condor_qedit command (the work is in ks_qedit). */
#include <stdio.h>

#include "qedit.h"

int main(int argc, char **argv)
{
	return qe_main(argc, (const char *const *)argv, stdout, stderr);
}
