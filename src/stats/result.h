/*
 * result.h — what a run measured, in a form every suite shares and every
 * output writer reads: a result is a list of phases (a filebench run has
 * one; bonnie has one per test), each a list of named operations with
 * their merged statistics.
 *
 * Workers fill their own struct op_stats (single writer, no locks); the
 * runner merges them into the result after the workers are joined.
 * Memory: result_free() frees everything reachable from the result.
 */
#ifndef FSGAUGE_RESULT_H
#define FSGAUGE_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

/* How an operation counts in the "r/w" split of the IO Summary. */
enum op_class {
	OPC_OTHER = 0, /* metadata, sync, control */
	OPC_READ,
	OPC_WRITE,
};

struct op_stats {
	uint64_t ops;
	uint64_t errors;
	uint64_t stalls;       /* times no suitable file was available */
	uint64_t bytes_read;
	uint64_t bytes_written;
	uint64_t cpu_ns;       /* thread CPU over the sampled operations */
	uint64_t cpu_samples;  /* how many operations were CPU-sampled */
	struct hist lat;       /* latency in ns */
};

void op_stats_init(struct op_stats *s);
void op_stats_merge(struct op_stats *dst, const struct op_stats *src);
/* Mean CPU ns per operation from the samples (0 when none). */
double op_stats_cpu_per_op(const struct op_stats *s);

struct result_op {
	char *name;  /* flowop or test name: "readfile1", "block_write" */
	char *type;  /* flowop type or operation kind: "read" */
	enum op_class cls;
	struct op_stats st;
	double extra_mean; /* testrandvar: sample mean */
	double extra_sd;   /* testrandvar: sample standard deviation */
};

/* A key/value pair of text; used for parameters and the environment. */
struct kv {
	char *key;
	char *value;
};

struct kvlist {
	struct kv *v;
	size_t n;
};

void kv_add(struct kvlist *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);

struct result_phase {
	char *name;
	double seconds;	     /* measured wall time of the phase */
	uint64_t cpu_user_ns; /* process CPU during the phase */
	uint64_t cpu_sys_ns;
	int nthreads;
	struct result_op *ops;
	size_t nops;
	const char *end_reason; /* "duration", "finish", "threads done", "signal",
				 * "error" (static string) */
	int too_fast;	     /* ran too briefly to measure reliably */
	char *too_fast_reason;
};

struct result_fileset {
	char *name;
	uint64_t entries;
	uint64_t preallocated;
	uint64_t bytes;	    /* bytes written while preallocating */
	uint64_t dirs;
	double mean_dirwidth;
	double depth;
	double seconds;
};

struct result {
	char *suite;	/* "run", "bonnie", "iozone", "untar" */
	char *workload; /* personality or file name */
	char *label;
	char *engine;
	uint64_t seed;
	struct kvlist params; /* full parameters: variables, options */
	struct kvlist env;    /* environment: kernel, cpu, fs type, ... */
	struct result_fileset *filesets;
	size_t nfilesets;
	struct result_phase *phases;
	size_t nphases;
	int interrupted;      /* stopped by a signal: partial results */
	int stopped_on_error; /* --on-error=stop fired */
	uint64_t errors;      /* total operation errors */
	char *first_error;    /* "write 'x/y': No space left on device" */
	char *started_at;     /* ISO 8601 UTC */
};

struct result *result_new(const char *suite, const char *workload);
struct result_phase *result_add_phase(struct result *r, const char *name);
struct result_op *result_phase_add_op(struct result_phase *p, const char *name, const char *type,
				      enum op_class cls);
struct result_fileset *result_add_fileset(struct result *r, const char *name);
void result_free(struct result *r);

/* Totals over a phase's operations. */
struct phase_totals {
	uint64_t ops, read_ops, write_ops, errors;
	uint64_t bytes_read, bytes_written;
	double lat_sum_ns; /* for the mean latency */
};
void result_phase_totals(const struct result_phase *p, struct phase_totals *t);

#endif
