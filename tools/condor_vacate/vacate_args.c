/*
 * vacate_args.c: condor_vacate's command line: tool.cpp's (ctool.h).
 */
#include "vacate.h"

int vac_parse(int argc, char **argv, struct ct_opts *o, FILE *out,
	      FILE *err)
{
	return ct_parse(argc, argv, CT_VACATE, "condor_vacate", o, out, err);
}
