/*
 * util.h — small helpers used everywhere: allocation that dies on
 * out-of-memory, error reporting in the project's message style, the
 * monotonic clock, and the exit-code enum.
 *
 * Messages follow the convention "what failed first, the path in quotes,
 * then strerror": err_errno(-ENOSPC, "cannot create '%s'", path) prints
 * "fsgauge: cannot create 'x/y': No space left on device".
 */
#ifndef FSGAUGE_UTIL_H
#define FSGAUGE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The one exit-code enum: main.c and cmd/ exit with these. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUN_ERRORS = 1,  /* ran, but saw I/O or verify errors (or stopped early) */
	EXIT_USAGE = 2,	      /* usage or workload error */
	EXIT_SYSTEM = 3,      /* system error (cannot create run directory, ...) */
	EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM/SIGHUP: partial results written */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Allocation helpers: never return NULL; print and abort on out-of-memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
/* xcalloc() on an `align`-byte boundary (a power of two, a multiple of
 * sizeof(void *)); freed with free(). */
void *xcalloc_aligned(size_t nmemb, size_t size, size_t align);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* xstrdup(s), or NULL when s is NULL. */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);
/* asprintf that dies on out-of-memory; caller frees. */
/* qsort() comparison of two uint64_t, ascending. */
int cmp_u64(const void *a, const void *b);

char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* HOT: a function called out of line on an operation's path (between a
 * worker's system calls); gcc puts these together (.text.hot), so that
 * the path touches few pages of code (docs/engine.md).  COLD: a function
 * only an error or a rare case calls; the code that leads to it is moved
 * out of the hot functions' way. */
#define HOT __attribute__((hot))
#define COLD __attribute__((cold))
/* HOT_DATA: a global every operation reads (the clock's, the stop
 * signal's): kept in .data, one small page, rather than wherever .bss
 * puts it among the large zeroed arrays. */
#define HOT_DATA __attribute__((section(".data")))

/* Print "fsgauge: <msg>" (or "fsgauge: warning: <msg>") to stderr.
 * err_errno() appends ": strerror" and returns the negative errno it was
 * given, so library code can write
 * `return err_errno(-errno, "cannot open '%s'", p);`. */
void msg_err(const char *fmt, ...) COLD __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) COLD __attribute__((format(printf, 1, 2)));
void msg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int err_errno(int neg_errno, const char *fmt, ...) COLD __attribute__((format(printf, 2, 3)));
/* Quiet mode suppresses msg_info (not warnings or errors). */
extern int msg_quiet;

/* Inlined whatever gcc's size heuristics say: for the functions between
 * an operation's loop and its system call (see engine/syscall.h). */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread in nanoseconds. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Read a whole file as text (NUL-terminated); caller frees.  NULL with
 * errno on failure. */
char *read_text_file(const char *path);
/* Whether a workload operand names a file rather than a built-in: it has
 * a '/', ends in ".f" or is an existing regular file. */
int workload_arg_is_file(const char *a);

#endif
