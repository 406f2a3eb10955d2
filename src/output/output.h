/*
 * output.h — result writers, one per format.  They only read a struct
 * result; the statistics code never branches on the output format.
 * Results go to the stream or file given; progress and chatter go to
 * stderr elsewhere.
 */
#ifndef FSGAUGE_OUTPUT_H
#define FSGAUGE_OUTPUT_H

#include <stdio.h>

#include "stats/result.h"

/* filebench-style text: per-operation breakdown widened with latency
 * percentiles, then the `IO Summary:` line, for every phase. */
void output_text(FILE *f, const struct result *r);
/* output_text() with OUTPUT_TEXT_* flags: FILEBENCH_ORDER lists the
 * operations last-defined first, as filebench's Per-Operation Breakdown
 * does (the run suite), so the two tables read row for row. */
#define OUTPUT_TEXT_FILEBENCH_ORDER 1u
void output_text_flags(FILE *f, const struct result *r, unsigned flags);
/* The IO Summary line of one phase (no newline), into f. */
void output_io_summary(FILE *f, const struct result_phase *p);
/* The cache-honesty warnings of one phase (docs/trust.md): reads likely
 * served from memory, writes the page cache absorbed, an implausible
 * rate; each a line "<indent>WARNING: [<what>: ]...".  indent and what may
 * be NULL.  Returns how many lines were printed. */
int output_cache_warnings(FILE *f, const struct result_phase *p, const char *indent,
			  const char *what);

/* The "limited by: ..." line of one phase (stats/insight.h), with its
 * newline; `prefix` goes before it ("" or "phase seqwrite: "). */
void output_limited_by(FILE *f, const struct result_phase *p, const char *prefix);
/* The ZFS view of one phase (stats/zfsstat.h), "<prefix>ZFS: ...\n", when
 * the phase has ZFS kstats; env (the result's environment: the dataset's
 * properties) may be NULL.  Prints nothing otherwise. */
void output_zfs(FILE *f, const struct result_phase *p, const struct kvlist *env,
		const char *prefix);
/* Every phase's line (phases named when there are several), and its ZFS
 * line: the suites whose own text has no place for it print it after
 * their report. */
void output_limited_by_all(FILE *f, const struct result *r);

/* Write the result as JSON to `path` ("-" for stdout).  Returns 0 or
 * -errno (message printed). */
int output_json_file(const struct result *r, const char *path);

/* Write a JSON document (jansson's json_t; this takes the reference) as
 * the `what` ("comparison") to `path` ("-" for stdout) through
 * util/outfile.h: whole or not at all.  Returns 0 or -errno (message
 * printed). */
struct json_t;
int output_json_dump(struct json_t *o, const char *path, const char *what);

/* An MPI run's rows (r->ranks; nothing without): the text block after
 * the suite's report (rank 0), the top-level "ranks" and "hosts" arrays
 * into JSON object o, and a phase's "ranks" summary (min/max/mean ops/s,
 * slowest rank, start skew) into phase object o. */
void output_ranks_text(FILE *f, const struct result *r);
void output_ranks_json(struct json_t *o, const struct result *r);
void output_ranks_phase_json(struct json_t *o, const struct result *r, const char *phase);

/* Device counters `d` of `ndev` devices over `secs` as a JSON object,
 * with amplification ratios against what the application wrote and
 * read (0: null ratios).  A new reference. */
struct dev_io;
struct json_t *output_dev_io_json(const struct dev_io *d, double secs, size_t ndev,
				  uint64_t app_bytes_written, uint64_t app_bytes_read,
				  uint64_t app_read_ops);

/* The JSON schema version written in "schema_version". */
#define RESULT_SCHEMA_VERSION 1

#endif
