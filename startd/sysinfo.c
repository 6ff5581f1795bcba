/* sysinfo.c: the host facts of slot ads (sd_sysinfo.h). */
#include "sd_sysinfo.h"

#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

/* The value of KEY= in /etc/os-release (quotes removed), or "". */
static void os_release(const char *key, char *out, size_t size)
{
	out[0] = '\0';
	FILE *f = fopen("/etc/os-release", "r");
	if (!f)
		return;
	char line[512];
	size_t klen = strlen(key);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		char *v = line + klen + 1;
		v[strcspn(v, "\n")] = '\0';
		if (*v == '"' || *v == '\'') {
			char q = *v++;
			char *end = strchr(v, q);
			if (end)
				*end = '\0';
		}
		snprintf(out, size, "%s", v);
		break;
	}
	fclose(f);
}

void sd_platform_read(struct sd_platform *p)
{
	struct utsname u;
	snprintf(p->arch, sizeof(p->arch), "UNKNOWN");
	if (uname(&u) == 0) {
		/* HTCondor's names: X86_64, aarch64 as it is, INTEL for
		 * 32-bit x86 */
		if (strcmp(u.machine, "x86_64") == 0)
			snprintf(p->arch, sizeof(p->arch), "X86_64");
		else if (u.machine[0] == 'i' && strstr(u.machine, "86"))
			snprintf(p->arch, sizeof(p->arch), "INTEL");
		else
			snprintf(p->arch, sizeof(p->arch), "%.31s", u.machine);
	}
	char id[64], name[64], ver[64];
	os_release("ID", id, sizeof(id));
	os_release("NAME", name, sizeof(name));
	os_release("VERSION_ID", ver, sizeof(ver));
	os_release("PRETTY_NAME", p->long_name, sizeof(p->long_name));
	/* HTCondor's short name: the distribution's first word, capitalized
	 * as it writes them (Debian, Ubuntu, AlmaLinux, ...) */
	snprintf(p->short_name, sizeof(p->short_name), "%s", *name ? name : id);
	p->short_name[strcspn(p->short_name, " ")] = '\0';
	if (!*p->short_name)
		snprintf(p->short_name, sizeof(p->short_name), "Linux");
	if (!*p->long_name)
		snprintf(p->long_name, sizeof(p->long_name), "%s",
			 p->short_name);
	p->major = strtol(ver, NULL, 10);
	long minor = 0;
	const char *dot = strchr(ver, '.');
	if (dot)
		minor = strtol(dot + 1, NULL, 10);
	p->ver = p->major * 100 + minor;
}

void sd_platform_attrs(const struct sd_platform *p, classad *ad)
{
	classad_insert_string(ad, "Arch", p->arch);
	classad_insert_string(ad, "OpSys", "LINUX");
	classad_insert_string(ad, "OpSysLegacy", "LINUX");
	char andver[96];
	snprintf(andver, sizeof(andver), "%s%ld", p->short_name, p->major);
	classad_insert_string(ad, "OpSysAndVer", andver);
	classad_insert_string(ad, "OpSysName", p->short_name);
	classad_insert_string(ad, "OpSysShortName", p->short_name);
	classad_insert_string(ad, "OpSysLongName", p->long_name);
	classad_insert_int(ad, "OpSysMajorVer", p->major);
	classad_insert_int(ad, "OpSysVer", p->ver);
}

double sd_load_average(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = 0;
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The latest access time among the entries of dir whose names start with
 * prefix (all when prefix is ""), or 0. */
static int64_t newest_access(const char *dir, const char *prefix,
			     bool digits_after)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int64_t newest = 0;
	size_t plen = strlen(prefix);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0)
			continue;
		if (digits_after && !isdigit((unsigned char)e->d_name[plen]))
			continue;
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && st.st_atime > newest)
			newest = st.st_atime;
	}
	closedir(d);
	return newest;
}

static int64_t access_time(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (int64_t)st.st_atime : 0;
}

void sd_idle_times(struct sd_idle_probe *probe, int64_t now, int64_t since,
		   struct sd_idle *out)
{
	if (!probe->read_at || probe->read_at != now) {
		/* the console: the virtual terminals and the console device */
		int64_t console = newest_access("/dev", "tty", true);
		int64_t c = access_time("/dev/console");
		if (c > console)
			console = c;
		/* the keyboard: also the logins on pseudo-terminals and the
		 * input devices (a mouse or keyboard touched) */
		int64_t keyboard = console;
		int64_t p = newest_access("/dev/pts", "", false);
		if (p > keyboard)
			keyboard = p;
		int64_t in = newest_access("/dev/input", "event", true);
		if (in > keyboard)
			keyboard = in;
		*probe = (struct sd_idle_probe){now, console, keyboard};
	}
	int64_t console = probe->console ? probe->console : since;
	int64_t keyboard = probe->keyboard ? probe->keyboard : since;
	out->console = now > console ? now - console : 0;
	out->keyboard = now > keyboard ? now - keyboard : 0;
}

void sd_clock_attrs(int64_t now, classad *ad)
{
	time_t t = (time_t)now;
	struct tm tm;
	localtime_r(&t, &tm);
	classad_insert_int(ad, "ClockMin", tm.tm_hour * 60 + tm.tm_min);
	classad_insert_int(ad, "ClockDay", tm.tm_wday);
}
