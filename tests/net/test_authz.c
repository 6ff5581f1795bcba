/* test_authz.c: the authorization levels as HTCondor resolves them
 * (common/net/authz.c): every level's explicit ALLOW and DENY lists, the
 * levels that imply it, the lists it falls back on (per subsystem, DAEMON,
 * DEFAULT, LEGACY_ALLOW_SEMANTICS), lists that cannot be read, entries,
 * and the levels a token's scope grants.
 *
 * The expected answers are written out here from HTCondor's tables
 * (condor_perms.cpp's aImpliedNext and aConfigNext, IpVerify::Verify()),
 * not computed from the code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ks_auth.h"

#define NLEVELS 9
/* the levels a command may have, other than ALLOW */
static const enum ks_level levels[NLEVELS] = {
	KS_LEVEL_READ,       KS_LEVEL_WRITE,  KS_LEVEL_NEGOTIATOR,
	KS_LEVEL_ADMINISTRATOR, KS_LEVEL_CONFIG, KS_LEVEL_DAEMON,
	KS_LEVEL_ADVERTISE_STARTD, KS_LEVEL_ADVERTISE_SCHEDD,
	KS_LEVEL_ADVERTISE_MASTER,
};

static ks_config *cfg_of(const char *subsys, const char *text)
{
	ks_config *cfg = ks_config_new(subsys, NULL);
	struct ks_err err;
	if (ks_config_read_text(cfg, "test.conf", text, strlen(text), &err))
		fail_msg("config error: %s", err.msg);
	return cfg;
}

static ks_authz *authz_of(const char *subsys, const char *text)
{
	ks_config *cfg = cfg_of(subsys, text);
	ks_authz *a = ks_authz_new(cfg, subsys, "pooluser");
	ks_config_free(cfg);
	return a;
}

/* Every level's ALLOW list set to nobody, so that kestrel's defaults
 * (READ and WRITE "*", the pool's identities for the others) stay out of
 * the way. */
static const char nobody[] =
	"ALLOW_READ = nobody@nowhere\n"
	"ALLOW_WRITE = nobody@nowhere\n"
	"ALLOW_NEGOTIATOR = nobody@nowhere\n"
	"ALLOW_ADMINISTRATOR = nobody@nowhere\n"
	"ALLOW_DAEMON = nobody@nowhere\n";

/* Row: the one level whose ALLOW list names alice; column: the level
 * asked.  A level grants itself and what it implies (aImpliedNext:
 * WRITE, NEGOTIATOR, CONFIG, ADVERTISE_* -> READ; ADMINISTRATOR, DAEMON
 * -> WRITE), and ALLOW_DAEMON also stands for the unset ADVERTISE lists
 * (aConfigNext). */
static const char *const allow_matrix[NLEVELS] = {
	/*              R W N A C D S H M */
	/* READ    */ "1........",
	/* WRITE   */ "11.......",
	/* NEGOT.  */ "1.1......",
	/* ADMIN   */ "11.1.....",
	/* CONFIG  */ "1...1....",
	/* DAEMON  */ "11...1111",
	/* ADV_ST  */ "1.....1..",
	/* ADV_SC  */ "1......1.",
	/* ADV_MA  */ "1.......1",
};

static void test_allow_matrix(void **state)
{
	(void)state;
	for (int row = 0; row < NLEVELS; row++) {
		char text[1024];
		snprintf(text, sizeof(text), "%sALLOW_%s = alice@x.org\n",
			 nobody, ks_level_name(levels[row]));
		ks_authz *a = authz_of("COLLECTOR", text);
		for (int col = 0; col < NLEVELS; col++) {
			bool want = allow_matrix[row][col] == '1';
			char why[300] = "";
			bool got = ks_authz_check(a, levels[col], "alice@x.org",
						  "10.0.0.1", why, sizeof(why));
			if (got != want)
				fail_msg("ALLOW_%s = alice: %s is %s (%s)",
					 ks_level_name(levels[row]),
					 ks_level_name(levels[col]),
					 got ? "allowed" : "refused", why);
			/* bob is in no list: refused everything */
			if (ks_authz_check(a, levels[col], "bob@x.org",
					   "10.0.0.1", NULL, 0))
				fail_msg("ALLOW_%s = alice: bob is allowed %s",
					 ks_level_name(levels[row]),
					 ks_level_name(levels[col]));
		}
		ks_authz_free(a);
	}
}

/* Row: the one level whose DENY list names alice, every ALLOW list "*";
 * column: the level asked.  A DENY applies to its own level only (an
 * implied level asks its own lists first), and DENY_DAEMON stands for
 * the unset DENY_ADVERTISE lists. */
static const char *const deny_matrix[NLEVELS] = {
	/*              R W N A C D S H M */
	/* READ    */ "x........",
	/* WRITE   */ ".x.......",
	/* NEGOT.  */ "..x......",
	/* ADMIN   */ "...x.....",
	/* CONFIG  */ "....x....",
	/* DAEMON  */ ".....xxxx",
	/* ADV_ST  */ "......x..",
	/* ADV_SC  */ ".......x.",
	/* ADV_MA  */ "........x",
};

static void test_deny_matrix(void **state)
{
	(void)state;
	char all[1024] = "";
	for (int i = 0; i < NLEVELS; i++) {
		size_t len = strlen(all);
		snprintf(all + len, sizeof(all) - len, "ALLOW_%s = *\n",
			 ks_level_name(levels[i]));
	}
	for (int row = 0; row < NLEVELS; row++) {
		char text[2048];
		snprintf(text, sizeof(text), "%sDENY_%s = alice@x.org\n", all,
			 ks_level_name(levels[row]));
		ks_authz *a = authz_of("COLLECTOR", text);
		for (int col = 0; col < NLEVELS; col++) {
			bool want = deny_matrix[row][col] != 'x';
			char why[300] = "";
			bool got = ks_authz_check(a, levels[col], "alice@x.org",
						  "10.0.0.1", why, sizeof(why));
			if (got != want)
				fail_msg("DENY_%s = alice: %s is %s (%s)",
					 ks_level_name(levels[row]),
					 ks_level_name(levels[col]),
					 got ? "allowed" : "refused", why);
			if (!got && !strstr(why, "DENY_"))
				fail_msg("refusal does not name the list: %s",
					 why);
			assert_true(ks_authz_check(a, levels[col], "bob@x.org",
						   "10.0.0.1", NULL, 0));
		}
		ks_authz_free(a);
	}
}

/* One case: configuration, subsystem, level, peer, answer, and a part
 * of the reason for a refusal. */
struct tcase {
	const char *config;
	const char *subsys;
	enum ks_level level;
	const char *identity, *host;
	bool allowed;
	const char *why;
};

static const struct tcase cases[] = {
	/* The reported bug: an explicit ADVERTISE list is read. */
	{"ALLOW_ADVERTISE_STARTD = *\n", "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD,
	 KS_ANONYMOUS, "127.0.0.1", true, NULL},
	{"ALLOW_ADVERTISE_SCHEDD = *\n", "COLLECTOR", KS_LEVEL_ADVERTISE_SCHEDD,
	 KS_ANONYMOUS, "127.0.0.1", true, NULL},
	{"ALLOW_ADVERTISE_MASTER = *\n", "COLLECTOR", KS_LEVEL_ADVERTISE_MASTER,
	 KS_ANONYMOUS, "127.0.0.1", true, NULL},
	{"ALLOW_ADVERTISE_STARTD = *\nDENY_ADVERTISE_STARTD = *\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "pooluser@h", "127.0.0.1", false,
	 "DENY_ADVERTISE_STARTD"},
	/* ...and falls back on DAEMON only when unset; then kestrel's
	 * default for ALLOW_DAEMON: the pool's identities */
	{"", "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD, "pooluser@h", "1.2.3.4",
	 true, NULL},
	{"", "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD, "condor@pool", "1.2.3.4",
	 true, NULL},
	{"", "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD, KS_ANONYMOUS, "127.0.0.1",
	 false, "ALLOW_DAEMON"},
	{"ALLOW_ADVERTISE_STARTD = alice@*\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "pooluser@h", "127.0.0.1", false,
	 "ALLOW_ADVERTISE_STARTD"},
	/* kestrel's defaults: anyone reads and writes, the pool administers */
	{"", "SCHEDD", KS_LEVEL_READ, KS_ANONYMOUS, "10.0.0.1", true, NULL},
	{"", "SCHEDD", KS_LEVEL_WRITE, "bob@h", "10.0.0.1", true, NULL},
	{"", "SCHEDD", KS_LEVEL_ADMINISTRATOR, "bob@h", "127.0.0.1", false,
	 "ALLOW_ADMINISTRATOR"},
	{"", "SCHEDD", KS_LEVEL_ADMINISTRATOR, "root@h", "127.0.0.1", true,
	 NULL},
	{"", "SCHEDD", KS_LEVEL_NEGOTIATOR, "pooluser@h", "127.0.0.1", true,
	 NULL},
	/* CONFIG has no default: nobody, unless ALLOW_CONFIG or
	 * ALLOW_DEFAULT says so */
	{"", "STARTD", KS_LEVEL_CONFIG, "root@h", "127.0.0.1", false,
	 "no ALLOW_CONFIG or ALLOW_DEFAULT is set"},
	{"ALLOW_DEFAULT = root@*\n", "STARTD", KS_LEVEL_CONFIG, "root@h",
	 "127.0.0.1", true, NULL},
	{"ALLOW_CONFIG = $(ALLOW_ADMINISTRATOR)\nALLOW_ADMINISTRATOR = ann@*\n",
	 "STARTD", KS_LEVEL_CONFIG, "ann@h", "127.0.0.1", true, NULL},
	/* an empty list is not set: the chain goes on to DEFAULT */
	{"ALLOW_DAEMON =\nALLOW_DEFAULT = dan@*\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "dan@h", "127.0.0.1", true, NULL},
	{"ALLOW_DAEMON =\n", "COLLECTOR", KS_LEVEL_ADVERTISE_MASTER,
	 "pooluser@h", "127.0.0.1", false,
	 "no ALLOW_ADVERTISE_MASTER, ALLOW_DAEMON or ALLOW_DEFAULT is set"},
	/* DENY_DEFAULT stands for every DENY list not set */
	{"DENY_DEFAULT = eve@*\n", "SCHEDD", KS_LEVEL_READ, "eve@h",
	 "127.0.0.1", false, "DENY_DEFAULT"},
	{"DENY_DEFAULT = eve@*\nDENY_READ = mallory@*\n", "SCHEDD",
	 KS_LEVEL_READ, "eve@h", "127.0.0.1", true, NULL},
	/* LEGACY_ALLOW_SEMANTICS: DAEMON falls back on WRITE */
	{"LEGACY_ALLOW_SEMANTICS = true\nALLOW_DAEMON =\nALLOW_WRITE = wes@*\n",
	 "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD, "wes@h", "127.0.0.1", true,
	 NULL},
	{"ALLOW_DAEMON =\nALLOW_WRITE = wes@*\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "wes@h", "127.0.0.1", false, NULL},
	{"LEGACY_ALLOW_SEMANTICS = true\nDENY_WRITE = wes@*\n", "COLLECTOR",
	 KS_LEVEL_DAEMON, "wes@h", "127.0.0.1", false, "DENY_WRITE"},
	/* per-subsystem forms, read before the general ones, for ALLOW and
	 * DENY, along the whole chain */
	{"ALLOW_READ = nobody@*\nALLOW_READ_COLLECTOR = carol@*\n", "COLLECTOR",
	 KS_LEVEL_READ, "carol@y", "10.1.1.1", true, NULL},
	{"ALLOW_READ = nobody@*\nALLOW_READ_COLLECTOR = carol@*\n"
	 "ALLOW_WRITE = nobody@*\n",
	 "SCHEDD", KS_LEVEL_READ, "carol@y", "10.1.1.1", false, "ALLOW_READ"},
	{"DENY_WRITE_SCHEDD = alice@*\n", "SCHEDD", KS_LEVEL_WRITE, "alice@h",
	 "127.0.0.1", false, "DENY_WRITE_SCHEDD"},
	{"DENY_WRITE_SCHEDD = alice@*\n", "COLLECTOR", KS_LEVEL_WRITE,
	 "alice@h", "127.0.0.1", true, NULL},
	{"ALLOW_ADVERTISE_STARTD_COLLECTOR = *\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "bob@h", "127.0.0.1", true, NULL},
	{"ALLOW_DAEMON_COLLECTOR = bob@*\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_SCHEDD, "bob@h", "127.0.0.1", true, NULL},
	{"ALLOW_DAEMON_COLLECTOR = bob@*\nALLOW_ADVERTISE_SCHEDD = sue@*\n",
	 "COLLECTOR", KS_LEVEL_ADVERTISE_SCHEDD, "bob@h", "127.0.0.1", false,
	 "ALLOW_ADVERTISE_SCHEDD"},
	{"DENY_DAEMON_COLLECTOR = bob@*\nALLOW_ADVERTISE_MASTER = *\n",
	 "COLLECTOR", KS_LEVEL_ADVERTISE_MASTER, "bob@h", "127.0.0.1", false,
	 "DENY_DAEMON_COLLECTOR"},
	{"COLLECTOR.ALLOW_ADVERTISE_STARTD = *\n", "COLLECTOR",
	 KS_LEVEL_ADVERTISE_STARTD, "bob@h", "127.0.0.1", true, NULL},
	/* an implied level's own DENY still refuses */
	{"ALLOW_READ = nobody@*\nALLOW_WRITE = *\nDENY_WRITE = bob@*\n",
	 "SCHEDD", KS_LEVEL_READ, "bob@h", "127.0.0.1", false,
	 "nor allowed a level that implies it"},
	/* OWNER is no level: its list gives nothing */
	{"ALLOW_OWNER = bob@*\n", "STARTD", KS_LEVEL_ADMINISTRATOR, "bob@h",
	 "127.0.0.1", false, NULL},
	/* Lists that cannot be read never widen what is allowed. */
	{"DENY_WRITE = $(LOOP)\nLOOP = $(DENY_WRITE) bob@*\n", "SCHEDD",
	 KS_LEVEL_WRITE, "alice@h", "127.0.0.1", false,
	 "DENY_WRITE cannot be read"},
	{"DENY_WRITE = $(LOOP)\nLOOP = $(DENY_WRITE) bob@*\n", "SCHEDD",
	 KS_LEVEL_READ, "alice@h", "127.0.0.1", true, NULL},
	{"ALLOW_ADVERTISE_STARTD = $(A)\nA = $(ALLOW_ADVERTISE_STARTD)\n",
	 "COLLECTOR", KS_LEVEL_ADVERTISE_STARTD, "pooluser@h", "127.0.0.1",
	 false, "ALLOW_ADVERTISE_STARTD cannot be read"},
	{"DENY_DAEMON = $INT(NOT_A_NUMBER)\nNOT_A_NUMBER = x\n"
	 "ALLOW_ADVERTISE_SCHEDD = *\n",
	 "COLLECTOR", KS_LEVEL_ADVERTISE_SCHEDD, "pooluser@h", "127.0.0.1",
	 false, "DENY_DAEMON cannot be read"},
	{"ALLOW_READ = $(X)\nX = $(X2)\nX2 = $(X)\n", "SCHEDD", KS_LEVEL_READ,
	 "bob@h", "127.0.0.1", true, NULL}, /* ALLOW_WRITE = * implies READ */
	{"ALLOW_READ = $(X)\nX = $(X2)\nX2 = $(X)\nALLOW_WRITE = nobody@*\n",
	 "SCHEDD", KS_LEVEL_READ, "bob@h", "127.0.0.1", false,
	 "ALLOW_READ cannot be read"},
	{"ALLOW_DEFAULT = $(D)\nD = $(D2)\nD2 = $(D)\n", "STARTD",
	 KS_LEVEL_CONFIG, "root@h", "127.0.0.1", false,
	 "ALLOW_DEFAULT cannot be read"},
	/* Entries: user/host, host alone, networks, the pool's equivalent
	 * names, IPv4 peers on IPv6 sockets */
	{"ALLOW_WRITE = alice@*/127.0.0.1, *.trusted\n", "SCHEDD",
	 KS_LEVEL_WRITE, "alice@x", "10.0.0.1", false, NULL},
	{"ALLOW_WRITE = alice@*/127.0.0.1, *.trusted\n", "SCHEDD",
	 KS_LEVEL_WRITE, "alice@x", "127.0.0.1", true, NULL},
	{"ALLOW_WRITE = 10.1.0.0/16\n", "SCHEDD", KS_LEVEL_WRITE, "anyone@x",
	 "10.1.200.3", true, NULL},
	{"ALLOW_WRITE = 10.1.0.0/16\n", "SCHEDD", KS_LEVEL_WRITE, "anyone@x",
	 "10.2.0.3", false, NULL},
	{"ALLOW_WRITE = *\nDENY_WRITE = 10.0.0.0/255.0.0.0\n", "SCHEDD",
	 KS_LEVEL_WRITE, "anyone@x", "10.9.8.7", false, "DENY_WRITE"},
	{"ALLOW_WRITE = *\nDENY_WRITE = 10.0.0.0/255.0.0.0\n", "SCHEDD",
	 KS_LEVEL_WRITE, "anyone@x", "::ffff:10.9.8.7", false, "DENY_WRITE"},
	{"ALLOW_WRITE = alice@x/10.1.0.0/16\n", "SCHEDD", KS_LEVEL_WRITE,
	 "alice@x", "10.1.2.3", true, NULL},
	{"ALLOW_WRITE = alice@x/10.1.0.0/16\n", "SCHEDD", KS_LEVEL_WRITE,
	 "bob@x", "10.1.2.3", false, NULL},
	{"ALLOW_WRITE = fd00::/8\n", "SCHEDD", KS_LEVEL_WRITE, "a@x", "fd12::1",
	 true, NULL},
	{"ALLOW_WRITE = */127.0.0.1\n", "SCHEDD", KS_LEVEL_WRITE, "a@x",
	 "127.0.0.1", true, NULL},
	{"ALLOW_WRITE = 10.1.*\n", "SCHEDD", KS_LEVEL_WRITE, "a@x", "10.1.7.7",
	 true, NULL},
	/* a host name stands for its addresses; a host name pattern
	 * cannot be matched by address, so a DENY list holding one refuses
	 * everyone rather than no one */
	{"ALLOW_WRITE = bob@*/localhost\n", "SCHEDD", KS_LEVEL_WRITE, "bob@x",
	 "127.0.0.1", true, NULL},
	{"ALLOW_WRITE = bob@*/localhost\n", "SCHEDD", KS_LEVEL_WRITE, "bob@x",
	 "10.0.0.1", false, NULL},
	{"ALLOW_WRITE = *\nDENY_WRITE = *.evil.example\n", "SCHEDD",
	 KS_LEVEL_WRITE, "bob@x", "127.0.0.1", false,
	 "DENY_WRITE cannot be matched"},
	{"ALLOW_WRITE = *.good.example\n", "SCHEDD", KS_LEVEL_WRITE, "bob@x",
	 "127.0.0.1", false, "ALLOW_WRITE"},
	{"ALLOW_DAEMON = condor@pool.org\n", "COLLECTOR", KS_LEVEL_DAEMON,
	 "condor_pool@pool.org", "127.0.0.1", true, NULL},
	{"ALLOW_DAEMON = condor@pool.org\nUSE_POOL_USERNAME_EQUIVALENT = false\n",
	 "COLLECTOR", KS_LEVEL_DAEMON, "condor_pool@pool.org", "127.0.0.1",
	 false, NULL},
	{"ALLOW_ADMINISTRATOR = *\nDENY_ADMINISTRATOR = condor_pool@*\n",
	 "COLLECTOR", KS_LEVEL_ADMINISTRATOR, "condor@h", "127.0.0.1", false,
	 "DENY_ADMINISTRATOR"},
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		ks_authz *a = authz_of(c->subsys, c->config);
		char why[300] = "";
		bool got = ks_authz_check(a, c->level, c->identity, c->host,
					  why, sizeof(why));
		if (got != c->allowed)
			fail_msg("case %zu (%s%s as %s): %s from %s is %s (%s)",
				 i, c->config, c->subsys,
				 ks_level_name(c->level), c->identity, c->host,
				 got ? "allowed" : "refused", why);
		if (!got && c->why && !strstr(why, c->why))
			fail_msg("case %zu: the reason \"%s\" lacks \"%s\"", i,
				 why, c->why);
		ks_authz_free(a);
	}
}

/* A list that cannot be read is reported once, saying what it does. */
static void test_problems(void **state)
{
	(void)state;
	ks_authz *a = authz_of("COLLECTOR",
			       "DENY_DAEMON = $(L)\nL = $(DENY_DAEMON)\n"
			       "ALLOW_WRITE = $INT(W)\nW = many\n");
	const char *p0 = ks_authz_problem(a, 0), *p1 = ks_authz_problem(a, 1);
	assert_non_null(p0);
	assert_non_null(p1);
	assert_null(ks_authz_problem(a, 2)); /* DENY_DAEMON once, not 4 times */
	const char *deny = strstr(p0, "DENY_DAEMON") ? p0 : p1;
	const char *allow = deny == p0 ? p1 : p0;
	assert_non_null(strstr(deny, "DENY_DAEMON cannot be read"));
	assert_non_null(strstr(deny, "refers to itself"));
	assert_non_null(strstr(deny, "as a DENY list it refuses everyone"));
	assert_non_null(strstr(allow, "ALLOW_WRITE cannot be read"));
	assert_non_null(strstr(allow, "as an ALLOW list it allows nobody"));
	ks_authz_free(a);
	a = authz_of("COLLECTOR", "ALLOW_WRITE = *\n");
	assert_null(ks_authz_problem(a, 0));
	ks_authz_free(a);
	/* an ALLOW entry that matches nobody is said too */
	a = authz_of("COLLECTOR", "ALLOW_WRITE = 127.0.0.1 *.example.org\n");
	assert_non_null(ks_authz_problem(a, 0));
	assert_non_null(strstr(ks_authz_problem(a, 0),
			       "ALLOW_WRITE: the host name pattern *.example.org "
			       "matches nobody"));
	ks_authz_free(a);
}

static void test_level_names(void **state)
{
	(void)state;
	for (int i = 0; i < NLEVELS; i++)
		assert_int_equal(ks_level_from_name(ks_level_name(levels[i])),
				 levels[i]);
	assert_int_equal(ks_level_from_name("advertise_startd"),
			 KS_LEVEL_ADVERTISE_STARTD);
	assert_int_equal(ks_level_from_name("OWNER"), KS_LEVEL_COUNT);
	assert_int_equal(ks_level_from_name("DEFAULT"), KS_LEVEL_COUNT);
}

#define BIT(l) (1u << KS_LEVEL_##l)

/* Token scopes: each level and the ones it implies (HTCondor's
 * daemon_command.cpp walks aImpliedNext from every limit). */
static void test_token_scope(void **state)
{
	(void)state;
	static const struct {
		const char *names[3];
		size_t n;
		unsigned want;
	} scopes[] = {
		{{NULL}, 0, 0},
		{{"READ"}, 1, BIT(READ)},
		{{"WRITE"}, 1, BIT(WRITE) | BIT(READ)},
		{{"write"}, 1, BIT(WRITE) | BIT(READ)},
		{{"NEGOTIATOR"}, 1, BIT(NEGOTIATOR) | BIT(READ)},
		{{"ADMINISTRATOR"}, 1,
		 BIT(ADMINISTRATOR) | BIT(WRITE) | BIT(READ)},
		{{"CONFIG"}, 1, BIT(CONFIG) | BIT(READ)},
		{{"DAEMON"}, 1, BIT(DAEMON) | BIT(WRITE) | BIT(READ)},
		{{"ADVERTISE_STARTD"}, 1, BIT(ADVERTISE_STARTD) | BIT(READ)},
		{{"ADVERTISE_SCHEDD"}, 1, BIT(ADVERTISE_SCHEDD) | BIT(READ)},
		{{"ADVERTISE_MASTER"}, 1, BIT(ADVERTISE_MASTER) | BIT(READ)},
		{{"ADVERTISE_STARTD", "ADVERTISE_MASTER", "READ"}, 3,
		 BIT(ADVERTISE_STARTD) | BIT(ADVERTISE_MASTER) | BIT(READ)},
		{{"OWNER"}, 1, BIT(ALLOW)},
		{{"OWNER", "WRITE"}, 2, BIT(WRITE) | BIT(READ)},
	};
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		unsigned got = ks_level_scope(scopes[i].names, scopes[i].n);
		if (got != scopes[i].want)
			fail_msg("scope %zu (%s...): 0x%x, not 0x%x", i,
				 scopes[i].n ? scopes[i].names[0] : "none", got,
				 scopes[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allow_matrix),
		cmocka_unit_test(test_deny_matrix),
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_level_names),
		cmocka_unit_test(test_token_scope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
