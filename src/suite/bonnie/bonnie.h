/*
 * bonnie.h — inside the bonnie suite: its options (struct bonnie_opts, set
 * by bonnie.c from the command line) and its model (model.c): the
 * workload of one data file and one fileset, each bonnie++ test built as
 * one phase's process, the figures read back from a phase, and what the
 * tests need of the target for the session's preflight.
 *
 * bonnie.c parses and checks the options and drives the tests through the
 * session (suite/suite.h); model.c does no I/O and prints nothing.
 */
#ifndef FSGAUGE_SUITE_BONNIE_H
#define FSGAUGE_SUITE_BONNIE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "suite/bonnie/format.h"
#include "workload/build.h"

#define MIB ((uint64_t)1024 * 1024)
#define GIB (MIB * 1024)
/* a phase ends when its threads are done; this only bounds a runaway one */
#define PHASE_LIMIT_SECONDS 1e7

struct bonnie_opts {
	uint64_t size;	     /* bytes; 0: no I/O tests */
	int size_given;
	uint64_t chunk;
	uint64_t chunk_file; /* bytes per chunk file of the data file */
	unsigned seeks, seekers;
	uint64_t char_size;  /* per-character tests; 0: skipped */
	int char_given;	     /* -f SIZE */
	int fast;	     /* -f: no per-character tests */
	unsigned files;	     /* x 1024 */
	int64_t max_size, min_size;
	unsigned dirs;
	uint64_t file_chunk;
	uint64_t ram;	     /* bytes; 0: no check */
	int sync;	     /* -b */
	int direct;	     /* -D, --direct */
	unsigned count;	     /* -x, --repeat: the session's runs */
	int quiet;	     /* -q, --quiet */
	const char *machine;
	const char *user, *group;
	int sem_procs;	     /* -p N (0: not given) */
	int sem_wait;	     /* -y: 's' semaphores, 'p' prompt, 0 none */
	key_t sem_key;
	enum bonnie_layout layout;
	enum bonnie_csv csv;
	int csv_given;
	uint64_t asked_chunk, asked_file_chunk; /* before --verify raised them */
	const struct run_opts *ro; /* the session's (engine, seed, --verify, ...) */
	char machine_buf[256];
};

/* The workload: in each target the data file (chunked as bonnie++'s) and
 * the files of the create tests, both created by the tests themselves;
 * data[k] and files[k] are target k's (from 0), NULL when not tested. */
struct bonnie_model {
	struct workload *w;
	size_t ntargets;
	struct wl_fileset **data, **files;
};

/* Build the model for the run directories rds[0 .. nrd - 1], one per
 * target (free with bonnie_model_free()). */
void bonnie_model_build(struct bonnie_model *m, const struct bonnie_opts *b,
			const struct rundir *rds, size_t nrd);
void bonnie_model_free(struct bonnie_model *m);

/* bonnie++'s progress message of test t ("Writing intelligently..."). */
const char *bonnie_test_progress(enum bonnie_test t);
/* Whether test t runs with these options. */
int bonnie_test_runs(enum bonnie_test t, const struct bonnie_opts *b);
/* The process of test t in target k (from 0; free with
 * wl_process_free()); NULL for a test that has none.  `exists`: whether
 * the data file exists before it.  With several targets the process and
 * its threads and operations are named NAME@K, K = k + 1 ("putc@2"). */
struct wl_process *bonnie_test_build(enum bonnie_test t, const struct bonnie_opts *b,
				     const struct bonnie_model *m, size_t k, int exists);
/* The phase that removes the data file in every target ("remove_data"):
 * runner_phase()'s return. */
int bonnie_remove_data(struct runner *rn, const struct bonnie_opts *b,
		       const struct bonnie_model *m);

/* bonnie++'s figures of every test in `res` (a test that failed stays
 * blank, on every target) of `ntargets` targets: k = 0 all of them
 * (alone, bonnie++'s; several: every target's amount over the phase's
 * time, the process's CPU, the longest operation of any), k from 1 target
 * k's (its operations NAME@k over its own time, from the phase's start
 * to the end of its last thread, and its threads' CPU). */
void bonnie_report_fill(struct bonnie_report *rep, const struct bonnie_opts *b,
			const struct result *res, size_t k, size_t ntargets);

/* What the tests need of the targets, the threads and the memory: *n the
 * totals over `ntargets` targets, tn[k] (NULL: not wanted) target k's
 * space and inodes. */
void bonnie_needs(const struct bonnie_opts *b, struct preflight_needs *n,
		  struct target_needs *tn, size_t ntargets);

/* report.c: bonnie's section of the HTML report (the html_section hook). */
struct comparison;
void bonnie_html_section(FILE *f, const struct comparison *c);

#endif
