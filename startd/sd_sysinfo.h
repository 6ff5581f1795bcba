/*
 * sd_sysinfo.h: what the startd reads off the host for every slot ad:
 * the platform, load, how long the console and keyboard have been idle,
 * the clock.
 */
#ifndef SD_SYSINFO_H
#define SD_SYSINFO_H

#include <stdint.h>

#include "classad.h"

/* The platform as HTCondor names it, read once (uname, /etc/os-release)
 * since it does not change under a running startd: a slot ad is built
 * several times per short job. */
struct sd_platform {
	char arch[32];        /* X86_64, INTEL, aarch64 ... */
	char short_name[64];  /* Debian */
	char long_name[256];  /* Debian GNU/Linux 12 (bookworm) */
	long major, ver;      /* 12, 1200 */
};
void sd_platform_read(struct sd_platform *p);
/* Arch, OpSys (LINUX), OpSysAndVer (Debian12), OpSysName, OpSysMajorVer,
 * OpSysVer, OpSysLongName, OpSysShortName, OpSysLegacy into ad. */
void sd_platform_attrs(const struct sd_platform *p, classad *ad);

/* The host's load average over the last minute (0 if unknown). */
double sd_load_average(void);

/* Seconds since the last input on the console and on any keyboard or
 * terminal, as of now: from the access times of the console, the tty
 * devices, the pseudo-terminals and the input devices.  A host with none
 * of them counts from `since` (the startd's start), as if touched then. */
struct sd_idle {
	int64_t console, keyboard;
};
/* The devices' newest access times, read at most once per second of
 * `now`: a slot ad is built many times a second while short jobs come and
 * go, and the times are whole seconds anyway.  Start zeroed. */
struct sd_idle_probe {
	int64_t read_at;
	int64_t console, keyboard; /* access times; 0: no such device */
};
void sd_idle_times(struct sd_idle_probe *probe, int64_t now, int64_t since,
		   struct sd_idle *out);

/* ClockMin (minutes since local midnight) and ClockDay (0 is Sunday). */
void sd_clock_attrs(int64_t now, classad *ad);

#endif
