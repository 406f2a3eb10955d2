/* sysstat.c — /proc/stat, /proc/meminfo, arcstats; see sysstat.h. */
#include "stats/sysstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/zfsstat.h"
#include "util/util.h"

/* Read a small /proc file whole; returns bytes read or -errno. */
ssize_t sysstat_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	return (ssize_t)got;
}

int sysstat_thread_sched(int tid, uint64_t *run_ns, uint64_t *runq_ns)
{
	char path[64], buf[128];
	unsigned long long run, runq;
	ssize_t n;

	if (tid)
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	n = sysstat_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (sscanf(buf, "%llu %llu", &run, &runq) != 2)
		return -EINVAL;
	*run_ns = run;
	*runq_ns = runq;
	return 0;
}

int sysstat_parse_switches(const char *text, uint64_t *vol, uint64_t *invol)
{
	int got = 0;

	for (const char *line = text; line && *line;) {
		unsigned long long v;

		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1)
			*vol = v, got |= 1;
		else if (sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			*invol = v, got |= 2;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return got == 3 ? 0 : -EINVAL;
}

int sysstat_thread_switches(int tid, uint64_t *vol, uint64_t *invol)
{
	char path[64], buf[4096];
	ssize_t n;

	if (tid)
		snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/status");
	n = sysstat_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return sysstat_parse_switches(buf, vol, invol);
}

int sysstat_parse_faults(const char *text, uint64_t *minflt, uint64_t *majflt)
{
	const char *p = strrchr(text, ')');
	char state;
	long long ppid, pgrp, session, tty, tpgid;
	unsigned long long flags, minf, cminf, majf;

	/* after "pid (comm)": state ppid pgrp session tty_nr tpgid flags
	 * minflt cminflt majflt */
	if (!p || sscanf(p + 1, " %c %lld %lld %lld %lld %lld %llu %llu %llu %llu", &state, &ppid,
			 &pgrp, &session, &tty, &tpgid, &flags, &minf, &cminf, &majf) != 10)
		return -EINVAL;
	*minflt = minf;
	*majflt = majf;
	return 0;
}

int sysstat_thread_faults(int tid, uint64_t *minflt, uint64_t *majflt)
{
	char path[64], buf[1024];
	ssize_t n;

	if (tid)
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/stat");
	n = sysstat_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return sysstat_parse_faults(buf, minflt, majflt);
}

int sysstat_parse_cpu(const char *text, struct cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	const char *line = text;

	memset(t, 0, sizeof(*t));
	while (line) {
		if (!strncmp(line, "cpu ", 4)) {
			/* user nice system idle iowait irq softirq steal; the
			 * later fields appeared with 2.6 kernels */
			if (sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
				   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
				return -EINVAL;
			t->user = v[0];
			t->nice = v[1];
			t->system = v[2];
			t->idle = v[3];
			t->iowait = v[4];
			t->irq = v[5];
			t->softirq = v[6];
			t->steal = v[7];
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -EINVAL;
}

int sysstat_cpu(struct cpu_times *t)
{
	char buf[1024];
	ssize_t n = sysstat_read_file("/proc/stat", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return sysstat_parse_cpu(buf, t);
}

static uint64_t d0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void cpu_times_sub(struct cpu_times *dst, const struct cpu_times *later,
		   const struct cpu_times *earlier)
{
	dst->user = d0(later->user, earlier->user);
	dst->nice = d0(later->nice, earlier->nice);
	dst->system = d0(later->system, earlier->system);
	dst->idle = d0(later->idle, earlier->idle);
	dst->iowait = d0(later->iowait, earlier->iowait);
	dst->irq = d0(later->irq, earlier->irq);
	dst->softirq = d0(later->softirq, earlier->softirq);
	dst->steal = d0(later->steal, earlier->steal);
}

uint64_t cpu_times_total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq +
	       t->steal;
}

static int kv_field(const char *line, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	unsigned long long v;

	if (strncmp(line, key, kl) || line[kl] != ':')
		return 0;
	if (sscanf(line + kl + 1, " %llu", &v) != 1)
		return 0;
	*out = (uint64_t)v * 1024; /* kB */
	return 1;
}

void sysstat_parse_meminfo(const char *text, struct meminfo *m)
{
	for (const char *line = text; line && *line;) {
		if (!kv_field(line, "MemTotal", &m->total) &&
		    !kv_field(line, "MemAvailable", &m->available) && !kv_field(line, "Cached", &m->cached))
			kv_field(line, "Buffers", &m->buffers);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

void sysstat_parse_arcstats(const char *text, struct meminfo *m)
{
	/* "name type data" rows: "size 4 123456" */
	for (const char *line = text; line && *line;) {
		char name[64];
		unsigned type;
		unsigned long long v;

		if (sscanf(line, "%63s %u %llu", name, &type, &v) == 3) {
			if (!strcmp(name, "size"))
				m->arc_size = (int64_t)v;
			else if (!strcmp(name, "c_max"))
				m->arc_max = (int64_t)v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

int sysstat_mem(struct meminfo *m)
{
	char *buf = xmalloc(65536), path[4096];
	ssize_t n;

	memset(m, 0, sizeof(*m));
	m->arc_size = m->arc_max = -1;
	snprintf(path, sizeof(path), "%s/arcstats", zfsstat_root());
	n = sysstat_read_file(path, buf, 65536);
	if (n > 0)
		sysstat_parse_arcstats(buf, m);
	n = sysstat_read_file("/proc/meminfo", buf, 65536);
	if (n > 0)
		sysstat_parse_meminfo(buf, m);
	free(buf);
	return n < 0 ? (int)n : 0;
}
