/*
 * preflight.h — what a run needs, checked against what the machine and
 * the target have, before anything is created: free space and free
 * inodes in the target, available memory, and the number of threads
 * (fsgauge's own maximum and RLIMIT_NPROC).
 *
 * A front end fills a struct preflight_needs (plain data: figures and
 * the texts its messages use) and calls preflight_check() once; every
 * check that fails prints one line with what is needed, what there is
 * and what to lower, and the caller exits with status 2.  A check whose
 * figure cannot be read (no /proc/meminfo, a failing statvfs) is
 * skipped: the run then meets the real error, which is reported as any
 * other.  The rules and their limits: docs/reliability.md, "Preflight".
 *
 * Usage:
 *
 *	struct preflight_needs n = { .bytes = ..., .entries = ... };
 *	snprintf(n.what, sizeof(n.what), "%llu files of 1m", ...);
 *	snprintf(n.lower_space, sizeof(n.lower_space), "use fewer files (-n)");
 *	if (preflight_check(rd.fd, rd.parent, &n) < 0)
 *		return EXIT_USAGE;
 */
#ifndef FSGAUGE_PREFLIGHT_H
#define FSGAUGE_PREFLIGHT_H

/* Threads (and processes) one run may start.  The largest built-in
 * personality (oltp) starts 211 threads and filebench's own personalities
 * a few hundred at most; past a few thousand a file-system benchmark measures
 * the scheduler, and each thread costs at least its statistics (about
 * 75 KiB per flowop) and a stack.  docs/reliability.md says why. */
#define PREFLIGHT_MAX_THREADS 4096

struct preflight_needs {
	/* In the target (0: nothing to check): data written, and entries
	 * created (files, directories, symbolic links: one inode each). */
	double bytes;
	double entries;
	/* RAM the run allocates (thread buffers, per-thread state, fileset
	 * tables), compared with MemAvailable. */
	double memory;
	/* Threads the run starts at once (the main one not counted), and
	 * processes it forks; both count against PREFLIGHT_MAX_THREADS and
	 * RLIMIT_NPROC. */
	double threads;
	double processes;
	/* For the messages: what needs it ("the filesets", "4 copies"), how
	 * the memory and the threads add up ("40 threads x 10.0 MiB
	 * (memsize) + ..."; may be empty), and what to lower, per check. */
	char what[128];
	char memory_detail[512];
	char threads_detail[512];
	char lower_space[512];
	char lower_inodes[512];
	char lower_memory[512];
	char lower_threads[512];
};

/* One target's share of a run over several targets (docs/targets.md):
 * the data bytes and entries its filesets need in its file system. */
struct target_needs {
	double bytes, entries;
};

/* What there is; a negative figure is unknown or unlimited (no check). */
struct preflight_have {
	double bytes_free;	/* f_bavail x f_frsize */
	double inodes_free;	/* f_favail; -1 when f_files is 0 (btrfs: no inode limit) */
	double mem_available;	/* MemAvailable of /proc/meminfo, bytes */
	double nproc_limit;	/* RLIMIT_NPROC's soft limit; -1 when infinite or not
				 * enforced (real uid 0, CAP_SYS_RESOURCE or CAP_SYS_ADMIN) */
	double max_threads;	/* PREFLIGHT_MAX_THREADS */
};

/* Read what there is: the file system of dirfd (or of `path` when dirfd
 * is negative; NULL: no file-system figures), the memory, the limits. */
void preflight_have_read(int dirfd, const char *path, struct preflight_have *h);
/* Compare: one line per failed check (`path` names the target in the
 * messages).  Returns 0, or the -errno of the first failure: -ENOSPC
 * (space, inodes), -ENOMEM (memory), -EAGAIN (threads). */
int preflight_compare(const struct preflight_needs *n, const struct preflight_have *h,
		      const char *path);
/* Both.  The caller exits with EXIT_USAGE on a negative return. */
int preflight_check(int dirfd, const char *path, const struct preflight_needs *n);

/* MemAvailable from a /proc/meminfo text, in bytes; -1 when absent. */
double preflight_meminfo_available(const char *text);

#endif
