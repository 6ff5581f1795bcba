/*
 * ks_commands.h: command codes, with HTCondor's numbers and names so that
 * logs, condor_advertise and scripts written for HTCondor read the same.
 */
#ifndef KS_COMMANDS_H
#define KS_COMMANDS_H

/* X(name, code) */
#define KS_COMMAND_LIST(X)                                                  \
	X(UPDATE_STARTD_AD, 0)                                              \
	X(UPDATE_SCHEDD_AD, 1)                                              \
	X(UPDATE_MASTER_AD, 2)                                              \
	X(QUERY_STARTD_ADS, 5)                                              \
	X(QUERY_SCHEDD_ADS, 6)                                              \
	X(QUERY_MASTER_ADS, 7)                                              \
	X(QUERY_STARTD_PVT_ADS, 10)                                         \
	X(UPDATE_SUBMITTOR_AD, 11)                                          \
	X(QUERY_SUBMITTOR_ADS, 12)                                          \
	X(INVALIDATE_STARTD_ADS, 13)                                        \
	X(INVALIDATE_SCHEDD_ADS, 14)                                        \
	X(INVALIDATE_MASTER_ADS, 15)                                        \
	X(INVALIDATE_SUBMITTOR_ADS, 18)                                     \
	X(UPDATE_COLLECTOR_AD, 19)                                          \
	X(QUERY_COLLECTOR_ADS, 20)                                          \
	X(INVALIDATE_COLLECTOR_ADS, 21)                                     \
	X(QUERY_ANY_ADS, 48)                                                \
	X(UPDATE_NEGOTIATOR_AD, 49)                                         \
	X(QUERY_NEGOTIATOR_ADS, 50)                                         \
	X(INVALIDATE_NEGOTIATOR_ADS, 51)                                    \
	X(QUERY_MULTIPLE_ADS, 53)                                           \
	X(UPDATE_AD_GENERIC, 58)                                            \
	X(INVALIDATE_ADS_GENERIC, 59)                                       \
	X(UPDATE_STARTD_AD_WITH_ACK, 60)                                    \
	X(MERGE_STARTD_AD, 73)                                              \
	X(QUERY_GENERIC_ADS, 74)                                            \
	X(UPDATE_ACCOUNTING_AD, 77)                                         \
	X(QUERY_ACCOUNTING_ADS, 78)                                         \
	X(INVALIDATE_ACCOUNTING_ADS, 79)                                    \
	X(DEACTIVATE_CLAIM, 403)                                            \
	X(NEGOTIATE, 416)                                                   \
	X(RESCHEDULE, 421)                                                  \
	X(END_NEGOTIATE, 425)                                               \
	X(SET_PRIORITY, 449)                                                \
	X(GET_PRIORITY, 451)                                                \
	X(RESET_USAGE, 458)                                                 \
	X(SET_PRIORITYFACTOR, 459)                                          \
	X(PERMISSION_AND_AD, 472)                                           \
	X(ACT_ON_JOBS, 478)                                                 \
	X(DELETE_USER, 482)                                                 \
	X(GET_PRIORITY_ROLLUP, 514)                                         \
	X(QUERY_SCHEDD_HISTORY, 515)                                        \
	X(QUERY_JOB_ADS, 516)                                               \
	X(QMGMT_WRITE_CMD, 1112)                                            \
	X(DEACTIVATE_CLAIM_FORCIBLY, 404)                                   \
	X(MATCH_INFO, 440)                                                  \
	X(ALIVE, 441)                                                       \
	X(REQUEST_CLAIM, 442)                                               \
	X(RELEASE_CLAIM, 443)                                               \
	X(ACTIVATE_CLAIM, 444)                                              \
	X(VACATE_ALL_CLAIMS, 447)                                           \
	X(VACATE_CLAIM, 465)                                                \
	X(VACATE_ALL_FAST, 474)                                             \
	X(VACATE_CLAIM_FAST, 475)                                           \
	X(DRAIN_JOBS, 512)                                                  \
	X(CANCEL_DRAIN_JOBS, 513)                                           \
	X(RESTART, 453)                                                     \
	X(DAEMONS_OFF, 454)                                                 \
	X(DAEMONS_OFF_FAST, 461)                                            \
	X(DAEMONS_ON, 455)                                                  \
	X(DAEMON_OFF, 467)                                                  \
	X(DAEMON_OFF_FAST, 468)                                             \
	X(DAEMON_ON, 469)                                                   \
	X(DAEMON_OFF_PEACEFUL, 483)                                         \
	X(DAEMONS_OFF_PEACEFUL, 484)                                        \
	X(RESTART_PEACEFUL, 485)                                            \
	X(CA_UPDATE_MACHINE_AD, 1009)                                       \
	X(DC_CONFIG_PERSIST, 60002)                                         \
	X(DC_CONFIG_RUNTIME, 60003)                                         \
	X(DC_RECONFIG, 60004)                                               \
	X(DC_OFF_GRACEFUL, 60005)                                           \
	X(DC_OFF_FAST, 60006)                                               \
	X(DC_CONFIG_VAL, 60007)                                             \
	X(DC_NOP, 60011)                                                    \
	X(DC_RECONFIG_FULL, 60012)                                          \
	X(DC_OFF_PEACEFUL, 60015)

enum ks_command {
#define KS_CMD_ENUM(name, code) KS_##name = code,
	KS_COMMAND_LIST(KS_CMD_ENUM)
#undef KS_CMD_ENUM
};

/* What a startd's refusal of a reconnect (ACTIVATE_CLAIM with Reconnect)
 * says when the job ran under an earlier startd and its starter left no
 * result: the job started, and how it ended is not known.  The schedd
 * looks for it in the refusal. */
#define KS_RECONNECT_JOB_LOST "its job was lost with the startd that ran it"

/* The name of a command code ("UPDATE_STARTD_AD"), or NULL.  Static. */
const char *ks_command_name(int code);

/* The code of a command name (case ignored), or -1. */
int ks_command_code(const char *name);

#endif
