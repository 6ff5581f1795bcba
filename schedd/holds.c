/*
 * holds.c: counting a job's holds by reason (sc_holds.h).
 */
#include "sc_holds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_err.h"
#include "ks_mem.h"

/* HTCondor's hold codes, by the names its NumHoldsByReason uses. */
static const struct {
	int code;
	const char *name;
} codes[] = {
	{0, "Unspecified"},
	{1, "UserRequest"},
	{2, "GlobusGramError"},
	{3, "JobPolicy"},
	{4, "CorruptedCredential"},
	{5, "JobPolicyUndefined"},
	{6, "FailedToCreateProcess"},
	{7, "UnableToOpenOutput"},
	{8, "UnableToOpenInput"},
	{9, "UnableToOpenOutputStream"},
	{10, "UnableToOpenInputStream"},
	{11, "InvalidTransferAck"},
	{12, "TransferOutputError"},
	{13, "TransferInputError"},
	{14, "IwdError"},
	{15, "SubmittedOnHold"},
	{16, "SpoolingInput"},
	{17, "JobShadowMismatch"},
	{18, "InvalidTransferGoAhead"},
	{19, "HookPrepareJobFailure"},
	{20, "MissedDeferredExecutionTime"},
	{21, "StartdHeldJob"},
	{22, "UnableToInitUserLog"},
	{23, "FailedToAccessUserAccount"},
	{24, "NoCompatibleShadow"},
	{25, "InvalidCronSettings"},
	{26, "SystemPolicy"},
	{27, "SystemPolicyUndefined"},
	{28, "GlexecChownSandboxToUser"},
	{29, "PrivsepChownSandboxToUser"},
	{30, "GlexecChownSandboxToCondor"},
	{31, "PrivsepChownSandboxToCondor"},
	{32, "MaxTransferInputSizeExceeded"},
	{33, "MaxTransferOutputSizeExceeded"},
	{34, "JobOutOfResources"},
	{35, "InvalidDockerImage"},
	{36, "FailedToCheckpoint"},
	{37, "EC2UserError"},
	{38, "EC2InternalError"},
	{39, "EC2AdminError"},
	{40, "EC2ConnectionProblem"},
	{41, "EC2ServerError"},
	{42, "EC2InstancePotentiallyLostError"},
	{43, "PreScriptFailed"},
	{44, "PostScriptFailed"},
	{45, "SingularityTestFailed"},
	{46, "JobDurationExceeded"},
	{47, "JobExecuteExceeded"},
	{48, "HookShadowPrepareJobFailure"},
	{49, "CannotSwitchPrimaryGroup"},
};

#define SPOOLING_INPUT 16

const char *sc_hold_code_name(int code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].code == code)
			return codes[i].name;
	return "Unspecified";
}

int sc_hold_counts(int code)
{
	return code != SPOOLING_INPUT;
}

char *sc_holds_by_reason(const classad *ad, int code)
{
	const char *name = sc_hold_code_name(code);
	struct classad_buf out = {0};
	classad_buf_printf(&out, "[ ");
	bool seen = false, first = true;
	classad_value v = CLASSAD_VALUE_INIT;
	const classad *old = NULL;
	const classad_expr *e = classad_lookup(ad, "NumHoldsByReason");
	if (e && classad_eval_expr(ad, e, NULL, &v) == 0)
		old = classad_value_ad(&v);
	size_t pos = 0;
	const char *n;
	const classad_expr *x;
	while (old && classad_next(old, &pos, &n, &x)) {
		int64_t count = 0;
		if (!classad_eval_int(old, n, NULL, &count))
			continue; /* not a count: dropped */
		if (strcasecmp(n, name) == 0) {
			count++;
			seen = true;
		}
		classad_buf_printf(&out, "%s%s = %lld", first ? "" : "; ", n,
				   (long long)count);
		first = false;
	}
	if (!seen)
		classad_buf_printf(&out, "%s%s = 1", first ? "" : "; ", name);
	classad_buf_printf(&out, " ]");
	classad_value_clear(&v);
	return out.data;
}

void sc_holds_count_in(classad *ad, int code)
{
	if (!sc_hold_counts(code))
		return;
	int64_t holds = 0;
	classad_eval_int(ad, "NumHolds", NULL, &holds);
	char *text = sc_holds_by_reason(ad, code);
	classad_insert_int(ad, "NumHolds", holds + 1);
	struct ks_err err = {0};
	classad_insert_text(ad, "NumHoldsByReason", text, &err);
	free(text);
}
