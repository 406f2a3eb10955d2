/*
 * sysstat.h — whole-system figures sampled around a phase: CPU time by
 * kind from /proc/stat, memory and page cache from /proc/meminfo, and the
 * ZFS ARC from /proc/spl/kstat/zfs/arcstats when ZFS is loaded (the
 * kstat root of stats/zfsstat.h: $FSGAUGE_KSTAT_ROOT may move it).
 */
#ifndef FSGAUGE_SYSSTAT_H
#define FSGAUGE_SYSSTAT_H

#include <stdint.h>
#include <sys/types.h>

#include "stats/result.h"

/* A /proc (or kstat) file whole, at most len - 1 bytes, NUL-terminated in
 * buf (read(2) until end of file or the buffer is full; EINTR retried).
 * The bytes read, or -errno when it cannot be opened. */
ssize_t sysstat_read_file(const char *path, char *buf, size_t len);

/* The "cpu" line of /proc/stat (all CPUs, clock ticks).  0 or -errno. */
int sysstat_cpu(struct cpu_times *t);
/* Parse the text of /proc/stat (for tests).  0 or -EINVAL. */
int sysstat_parse_cpu(const char *text, struct cpu_times *t);
void cpu_times_sub(struct cpu_times *dst, const struct cpu_times *later,
		   const struct cpu_times *earlier);
uint64_t cpu_times_total(const struct cpu_times *t);

/* A thread's scheduler figures (/proc/self/task/TID/schedstat, or
 * /proc/thread-self/schedstat for tid 0): time on a CPU and time waiting
 * on a run queue (runnable, not running), in ns.  0 or -errno (no
 * schedstat: CONFIG_SCHED_INFO off, or the thread is gone). */
int sysstat_thread_sched(int tid, uint64_t *run_ns, uint64_t *runq_ns);

/* A thread's context switches from its status file (/proc/self/task/TID/
 * status, or /proc/thread-self/status for tid 0): voluntary (it slept:
 * a lock, I/O, a timer) and involuntary (preempted).  0 or -errno. */
int sysstat_thread_switches(int tid, uint64_t *vol, uint64_t *invol);
/* Parse the text of a status file (for tests).  0 or -EINVAL when either
 * line is missing. */
int sysstat_parse_switches(const char *text, uint64_t *vol, uint64_t *invol);

/* A thread's page faults from its stat file (/proc/self/task/TID/stat, or
 * /proc/thread-self/stat for tid 0): minor (no I/O: a page mapped or
 * zeroed) and major (read from storage).  0 or -errno. */
int sysstat_thread_faults(int tid, uint64_t *minflt, uint64_t *majflt);
/* Parse the text of a stat file (for tests): fields 10 and 12, counted
 * after the command name's closing parenthesis (the name may hold spaces
 * and parentheses).  0 or -EINVAL. */
int sysstat_parse_faults(const char *text, uint64_t *minflt, uint64_t *majflt);

struct meminfo {
	uint64_t total, available, cached, buffers; /* bytes; 0 if unknown */
	int64_t arc_size, arc_max;		    /* bytes; -1 without ZFS */
};
/* /proc/meminfo and the ARC.  0 or -errno (/proc/meminfo unreadable). */
int sysstat_mem(struct meminfo *m);
/* Parse the text of /proc/meminfo / arcstats (for tests). */
void sysstat_parse_meminfo(const char *text, struct meminfo *m);
void sysstat_parse_arcstats(const char *text, struct meminfo *m);

#endif
