/* preflight.c — checking a run's needs before it starts; see preflight.h. */
#include "runner/preflight.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util/util.h"

#define MIB (1024.0 * 1024.0)

/* Capability bits of /proc/self/status's CapEff (linux/capability.h). */
#define CAP_SYS_ADMIN_BIT 21
#define CAP_SYS_RESOURCE_BIT 24

double preflight_meminfo_available(const char *text)
{
	const char *p = text;

	while (p && *p) {
		unsigned long long kb;

		if (sscanf(p, "MemAvailable: %llu kB", &kb) == 1)
			return (double)kb * 1024.0;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static double mem_available(void)
{
	char buf[8192];
	FILE *f = fopen("/proc/meminfo", "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return preflight_meminfo_available(buf);
}

/* The kernel does not enforce RLIMIT_NPROC for the initial user
 * namespace's root (real uid 0) nor for a task with CAP_SYS_RESOURCE or
 * CAP_SYS_ADMIN (kernel/fork.c, copy_process()). */
static int nproc_exempt(void)
{
	char line[256];
	FILE *f;
	int exempt = 0;

	if (getuid() == 0)
		return 1;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			exempt = !!(caps & (1ull << CAP_SYS_ADMIN_BIT | 1ull << CAP_SYS_RESOURCE_BIT));
			break;
		}
	}
	fclose(f);
	return exempt;
}

void preflight_have_read(int dirfd, const char *path, struct preflight_have *h)
{
	struct statvfs sv;
	struct rlimit rl;
	int r = -1;

	h->bytes_free = h->inodes_free = -1;
	if (dirfd >= 0)
		r = fstatvfs(dirfd, &sv);
	else if (path)
		r = statvfs(path, &sv);
	if (r == 0) {
		h->bytes_free = (double)sv.f_bavail * (double)sv.f_frsize;
		h->inodes_free = sv.f_files ? (double)sv.f_favail : -1;
	}
	h->mem_available = mem_available();
	h->nproc_limit = -1;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && !nproc_exempt())
		h->nproc_limit = (double)rl.rlim_cur;
	h->max_threads = PREFLIGHT_MAX_THREADS;
}

/* " (detail)" or nothing */
static const char *paren(char *buf, size_t len, const char *detail)
{
	if (!*detail)
		return "";
	snprintf(buf, len, " (%s)", detail);
	return buf;
}

/* Bytes for a message: MiB below 10 GiB (one decimal, as small runs
 * always read), GiB below 10 TiB, then TiB, so that `verify -s 10t`
 * needs "40.0 TiB", not "41943040.0 MiB". */
static const char *bytes_text(char *buf, size_t len, double bytes)
{
	if (bytes >= 10.0 * MIB * MIB)
		snprintf(buf, len, "%.1f TiB", bytes / (MIB * MIB));
	else if (bytes >= 10.0 * MIB * 1024.0)
		snprintf(buf, len, "%.1f GiB", bytes / (MIB * 1024.0));
	else
		snprintf(buf, len, "%.1f MiB", bytes / MIB);
	return buf;
}

static const char *or_default(const char *s, const char *dflt)
{
	return *s ? s : dflt;
}

int preflight_compare(const struct preflight_needs *n, const struct preflight_have *h,
		      const char *path)
{
	const char *what = or_default(n->what, "the run");
	const char *where = path ? path : "the target";
	double tasks = n->threads + n->processes;
	char d[520], b1[32], b2[32];
	int ret = 0;

	if (n->bytes > 0 && h->bytes_free >= 0 && n->bytes > h->bytes_free) {
		msg_err("not enough free space for %s: %s needed, '%s' has %s free; %s", what,
			bytes_text(b1, sizeof(b1), n->bytes), where,
			bytes_text(b2, sizeof(b2), h->bytes_free),
			or_default(n->lower_space, "choose another -d"));
		ret = -ENOSPC; /* the first check: nothing failed before */
	}
	if (n->entries > 0 && h->inodes_free >= 0 && n->entries > h->inodes_free) {
		msg_err("not enough free inodes for %s: %.0f needed, '%s' has %.0f free; %s", what,
			n->entries, where, h->inodes_free,
			or_default(n->lower_inodes, "choose another -d"));
		ret = ret ? ret : -ENOSPC;
	}
	if (n->memory > 0 && h->mem_available >= 0 && n->memory > h->mem_available) {
		msg_err("not enough memory for %s: %s needed%s, %s available (MemAvailable); %s",
			what, bytes_text(b1, sizeof(b1), n->memory),
			paren(d, sizeof(d), n->memory_detail),
			bytes_text(b2, sizeof(b2), h->mem_available), or_default(n->lower_memory, "make the run smaller"));
		ret = ret ? ret : -ENOMEM;
	}
	if (tasks > h->max_threads) {
		msg_err("too many threads for %s: %.0f needed%s, fsgauge starts at most %.0f per "
			"run; %s",
			what, tasks, paren(d, sizeof(d), n->threads_detail), h->max_threads,
			or_default(n->lower_threads, "use fewer threads"));
		ret = ret ? ret : -EAGAIN;
	} else if (h->nproc_limit >= 0 && tasks + 1 > h->nproc_limit) {
		/* the main thread counts too, and so do the user's other tasks */
		msg_err("too many threads for %s: %.0f needed%s and 1 running, the user's process "
			"limit (RLIMIT_NPROC, ulimit -u) is %.0f; %s",
			what, tasks, paren(d, sizeof(d), n->threads_detail), h->nproc_limit,
			or_default(n->lower_threads, "use fewer threads"));
		ret = ret ? ret : -EAGAIN;
	}
	return ret;
}

int preflight_check(int dirfd, const char *path, const struct preflight_needs *n)
{
	struct preflight_have h;

	preflight_have_read(dirfd, path, &h);
	return preflight_compare(n, &h, path);
}
