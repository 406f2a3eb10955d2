/*
 * result_read.h — read a JSON result file back (the format written by
 * output/json.c and described in docs/json-format.md) for compare and
 * report.
 *
 * The reader validates what compare and report rely on (schema_version,
 * suite, workload, parameters, environment, phases with a name and a
 * summary) and extracts, for every phase and every operation, the samples
 * of each headline figure:
 *
 *  - when the phase has a non-empty "repeats" array (written by --repeat N,
 *    one object per run with the keys of "summary"), one sample per repeat;
 *  - otherwise one sample, from "summary" (or the operation's own fields).
 *
 * A figure missing from some repeat falls back to the one aggregate value;
 * a figure missing everywhere has no samples (n = 0) and is left out of
 * tables and charts.  Unknown keys are ignored, so newer writers that only
 * add fields stay readable.  Each phase's "metrics" (figures a suite
 * computed) are kept by name for compare and the report; entries that
 * are not {"value": number, "unit": string} are skipped.  The top-level
 * "metric_defs" (name, unit, label, better) says what they mean; an entry
 * without a string name is skipped, and a file without the array (older
 * results) reads with none.
 *
 *     struct rfile *rf;
 *     if (result_read("a.json", &rf) < 0)   // message already printed
 *             return EXIT_SYSTEM;
 *     ... rf->phases[i].fig[FIG_OPS].v[k] ...
 *     result_read_free(rf);
 *
 * Memory: everything reachable from a struct rfile belongs to it and is
 * freed by result_read_free().
 */
#ifndef FSGAUGE_RESULT_READ_H
#define FSGAUGE_RESULT_READ_H

#include <stddef.h>
#include <stdint.h>

#include "stats/ranks.h"
#include "stats/result.h"

/* The newest schema_version this reader understands. */
#define RESULT_READ_MAX_SCHEMA 1

/*
 * The largest result file read, in bytes (256 MiB): anything larger is
 * refused before it is parsed.  A result is usually well under 1 MiB (the
 * fixtures in tests/fixtures are 27 to 115 KiB); what makes one large is
 * --interval, about 150 bytes per interval plus 130 per operation (1.8 KiB
 * for varmail), so 256 MiB holds 140 000 intervals of varmail: 39 hours at
 * --interval 1, 2 hours at the smallest interval (0.05 s).  Parsing takes
 * about 5.5 times the file's size in memory, so the bound also keeps
 * compare and report from exhausting it (1.4 GiB per file at the most).
 */
#define RESULT_READ_MAX_BYTES (256ull << 20)

/* Headline figures, in the order tables and charts show them. */
enum figure {
	FIG_OPS = 0,   /* operations per second */
	FIG_MBPS,      /* MiB per second read + written */
	FIG_LAT_MEAN,  /* mean latency: ms for a phase, us for an operation */
	FIG_LAT_P99,   /* 99th percentile latency: ms for a phase, us for an operation */
	FIG_CPU,       /* CPU microseconds per operation */
	FIG_DEV_WAMP,  /* device bytes written / application bytes written */
	FIG_DEV_RAMP,  /* device read ops / application read ops */
	FIG_COUNT
};

struct figure_info {
	const char *key;	/* stable name used in CSV and JSON: "ops_per_second" */
	const char *title;	/* "ops/s", "p99 latency" */
	const char *phase_unit; /* unit of the phase's figure */
	const char *op_unit;	/* unit of an operation's figure; NULL: phase only */
	int lower_is_better;
};

extern const struct figure_info result_read_figures[FIG_COUNT];

/* The samples of one figure: one per repeat, or one; n = 0 when absent. */
struct rsamples {
	double *v;
	size_t n;
};

/* One histogram bucket as written: values in [lo, hi] ns, count of them. */
struct rbucket {
	uint64_t lo, hi, count;
};

struct rop {
	char *name;
	char *type;
	uint64_t ops;
	struct rsamples fig[FIG_COUNT];
	struct rbucket *buckets; /* ascending lo; empty when no histogram */
	size_t nbuckets;
	uint64_t hist_count;	 /* sum of the bucket counts */
	/* "iodepth": the depths seen at submission (struct op_stats.qdepth,
	 * the buckets 1, 2, 4, ..., >=64) and the largest; all 0 without */
	uint64_t qdepth[OP_QDEPTH_BUCKETS];
	uint64_t qdepth_max;
};

/* One point of a time series (phases[].intervals). */
struct rinterval {
	double t; /* seconds since the start of the phase (end of the interval) */
	double ops_per_second, mb_per_second, p99_us; /* NAN when absent */
};

/* Where one phase of a grid sits (struct phase_grid): its group and its
 * place on the grid's two axes. */
struct phase_point {
	size_t group;	  /* index into the grid's groups */
	uint64_t size_kb; /* file size, KiB */
	uint64_t rec_kb;  /* record size, KiB */
};

/* A suite's grid of phases: a phase per group, file size and record size
 * ("write 64k 4k"), hundreds of them, that compare and report summarise
 * per group instead of listing each.  The suite provides it (its
 * suite_ops' phase_grid hook); output/ knows only this description. */
struct phase_grid {
	const char *what; /* how messages name a group ("... test"), before its name */
	size_t ngroups;
	/* the name of group g < ngroups ("write"): the messages' and the
	 * report's group key */
	const char *(*group_name)(size_t g);
	/* 1 when `phase` is one of the grid's phases; *pt is then filled */
	int (*point)(const char *phase, struct phase_point *pt);
};

/* One of the figures a suite computed (phases[].metrics: a suite's rates
 * and throughputs): one sample per run ("runs", written with
 * --repeat) or else its "value", per pooled file. */
struct rmetric {
	char *name;
	char *unit; /* "" when the result gave none */
	struct rsamples v;
	/* as written beside "runs" (n 0 and NANs without them; of the
	 * first file when files are pooled) */
	struct repeat_stat st;
};

/* One rank's share of a phase under mpirun (the top-level "ranks"
 * array's phases, docs/mpi.md). */
struct rrank_phase {
	int rank;
	char *host; /* "?" when the result gave none */
	uint64_t ops;
	double ops_per_second, seconds, start; /* NAN when absent */
	char *end_reason;                      /* or NULL */
	/* "stonewall": 'r' raised (one of its threads), 'p' stopped by a
	 * peer's, 0 none; and when (after the first start), NAN without */
	char stonewall;
	double stonewall_seconds;
};

/* The phase's "ranks" object under mpirun: the stonewall across ranks. */
struct rphase_ranks {
	size_t n;                 /* ranks that ran the phase; 0: not an MPI result */
	int slowest_rank;         /* -1 when absent */
	int stonewall_rank;       /* the rank that raised it first, -1: none */
	double stonewall_seconds; /* when, after the first start (NAN: none) */
	uint64_t stonewall_peers; /* how many ranks it stopped */
	struct rrank_phase *rows; /* each rank's share, in the file's rank order */
	size_t nrows;
};

/* One file system of the ranks' targets ("file_systems"). */
struct rfs {
	char *type, *mount_point, *host; /* "" when absent */
	size_t nranks;
};

/* One entry of a phase's "targets" (several targets: docs/targets.md):
 * what the operations on its files moved, its devices, its cache
 * verdict.  Numbers NAN when absent; strings NULL. */
struct rtarget {
	char *path, *fs_type;
	double bytes_read, bytes_written;
	char *devices;	  /* its devices' names, space-separated, or NULL */
	char *no_device;  /* why it has none ("tmpfs has no block device"), or NULL */
	double dev_bytes_read, dev_bytes_written, utilization, write_amplification;
	int likely_cached, writes_absorbed, rate_implausible;
	char *cache_reason, *write_reason, *rate_reason;
};

struct rphase {
	char *name;
	struct rphase_ranks ranks; /* n 0 without mpirun */
	size_t nrepeats;           /* entries in "repeats"; 0 when there is no such array */
	double seconds;
	struct rsamples fig[FIG_COUNT];
	struct rop *ops;
	size_t nops;
	struct rinterval *intervals;
	size_t nintervals;
	int too_fast;
	char *too_fast_reason; /* or NULL */
	int likely_cached;     /* "cache": { "likely_cached": true } */
	char *cache_reason;    /* "cache": { "reason": "..." }, or NULL */
	int writes_absorbed;   /* "cache": { "writes_absorbed": true } */
	char *write_reason;    /* "cache": { "write_reason": "..." }, or NULL */
	/* "limited_by": its "verdict" and "text" (docs/insight.md), or NULL
	 * (older results); pooled files keep the first's, and limited_mixed
	 * says another pooled file's verdict differed */
	char *limited_by, *limited_text;
	int limited_mixed;
	/* "zfs": the ZFS view (stats/zfsstat.h), present 0 without; pooled
	 * files' figures are merged as repeats are */
	struct result_zfs zfs;
	struct rmetric *metrics; /* entries of "metrics" with a number "value" */
	size_t nmetrics;
	/* "targets" (several targets), entries without a "target" string
	 * skipped; pooled files keep the first file's */
	struct rtarget *targets;
	size_t ntargets;
};

struct rfile {
	char *path;
	char *name; /* label, else the file name without ".json"; callers may change it */
	long long schema_version;
	char *suite, *workload;
	char *label;	  /* or NULL */
	char *started_at; /* or NULL */
	char *workload_hash; /* or NULL (older results) */
	char *workload_text; /* the resolved workload (run), or NULL */
	char **command_line; /* NULL-terminated, or NULL (older results) */
	int complete;	  /* status.complete (1 when there is no status) */
	int interrupted, stopped_on_error;
	uint64_t errors;
	struct kvlist params; /* values as text; non-string values as compact JSON */
	struct kvlist env;
	struct rphase *phases;
	size_t nphases;
	/* "metric_defs": what the phases' metrics mean (unit, label, which
	 * way is better), from the suite's metrics table; empty for older
	 * results (strings owned) */
	struct metric_def *metric_defs;
	size_t nmetric_defs;
	/* under mpirun: "file_systems" (rank 0's first) and
	 * "file_systems_warning" (NULL when one, or not MPI); pooled files
	 * keep the first's */
	struct rfs *fs;
	size_t nfs;
	char *fs_warning;
	/* under mpirun: "hosts", each distinct host's ranks, environment
	 * and, per phase, what its block devices did (ndev 0 and none NULL:
	 * not measured); entries without a string "host" are skipped, and
	 * phases without a string "name".  The JSON has no count of a
	 * host's devices: ndev is recovered from its "utilization" (1 when
	 * that says nothing of it), so that dev_io_figures() gives the
	 * figures as written.  Pooled files keep the first's */
	struct result_host *hosts;
	size_t nhosts;
	/* its phases form a grid (struct phase_grid), summarised per group
	 * by compare and report: set by the caller from the suite's hook,
	 * NULL as read */
	const struct phase_grid *grid;
};

/* Read and validate the result file `path` (a symbolic link is followed).
 * Returns 0 and sets *out, or prints a message naming the file and
 * returns -errno: -EINVAL for a file refused as input (not a regular file
 * (a directory, a FIFO, a device: never blocked on), larger than
 * RESULT_READ_MAX_BYTES, empty, not JSON (line, column and jansson's
 * reason), not an fsgauge result, a newer schema, a required field
 * missing); any other for an error from the system (missing file,
 * permissions, EIO, out of memory). */
int result_read(const char *path, struct rfile **out);
void result_read_free(struct rfile *rf);

/* A new result that pools files[0..n) (n >= 2; results of the same
 * configuration, usually the same label) as repeated runs of one: every
 * figure's samples are the files' samples one after the other, histograms
 * are merged, and the time series, parameters, environment and command
 * line are the first file's.  The caller checks that they match.
 * Free with result_read_free(); the files stay the caller's. */
struct rfile *result_read_pool(struct rfile *const *files, size_t n);

/* How many runs the result holds: the most repeats of any phase, or 1. */
size_t result_read_runs(const struct rfile *rf);

/* The phase's metric `name`, or NULL when the result has none (suite
 * data is optional: a missing or malformed entry is simply absent). */
const struct rmetric *result_read_metric(const struct rphase *p, const char *name);

/* The definition of metric `name` in rf's "metric_defs", or NULL (an
 * older result, or a metric its suite did not declare). */
const struct metric_def *result_read_metric_def(const struct rfile *rf, const char *name);

/* 1 when a and b both ran under mpirun (file_systems) and their ranks'
 * targets are on a different number of file systems, or on other types
 * (compared as sorted lists); then a text such as "2 file systems
 * (ext4, tmpfs) against 1 (ext4)" (a's first) is put in buf.  0 otherwise. */
int result_read_fs_differ(const struct rfile *a, const struct rfile *b, char *buf, size_t len);

/* Mean of a figure's samples (NAN when absent). */
double result_read_mean(const struct rsamples *s);

/* The phase named `name`, or NULL. */
const struct rphase *result_read_phase(const struct rfile *rf, const char *name);
/* The mean and the largest of metric `name`'s values over the runs (p may
 * be NULL); NAN when absent. */
double result_read_metric_mean(const struct rphase *p, const char *name);
double result_read_metric_max(const struct rphase *p, const char *name);
/* A whole number >= 0 from the result's parameters, or def when absent or
 * not one. */
long long result_read_param_ll(const struct rfile *rf, const char *key, long long def);

#endif
