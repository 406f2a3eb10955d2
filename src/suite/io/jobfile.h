/*
 * jobfile.h — fio's job files for fsgauge io: `[global]` and job
 * sections, `key=value` and bare flags, `;` and `#` comment lines,
 * `include FILE`, `${VAR}` from the environment, fio's `$ncpus`,
 * `$pagesize` and `$mb_memory`, and `(...)` integer arithmetic in
 * values.  Keys are the options of job.h; one it does not take stops the
 * load with `FILE:LINE: ...` (never a silent difference).
 *
 *	struct io_jobs js = { 0 };
 *	if (io_jobfile_load(&js, "job.fio", &defaults, NULL) < 0) ... message printed
 *	... js.jobs[0 .. js.n)
 *	io_jobs_free(&js);
 *
 * A [global] section's options apply to the jobs after it, on top of
 * `defaults` (the command line's options); each other section is a job
 * named after it.  With `only` set, just the job of that name is kept.
 */
#ifndef FSGAUGE_SUITE_IO_JOBFILE_H
#define FSGAUGE_SUITE_IO_JOBFILE_H

#include <stddef.h>

#include "suite/io/job.h"

struct io_jobs {
	struct io_job *jobs;
	size_t n;
};

/* Jobs of file `path` appended to js.  0, or -EINVAL / -errno after a
 * message ("job.fio:12: option 'rate' is not supported by fsgauge io"). */
int io_jobfile_load(struct io_jobs *js, const char *path, const struct io_job *defaults,
		    const char *only);
/* The same from text (`name` for messages, includes relative to `dir`). */
int io_jobfile_parse(struct io_jobs *js, const char *text, const char *name, const char *dir,
		     const struct io_job *defaults, const char *only);
void io_jobs_free(struct io_jobs *js);

/* Expand ${VAR}, $ncpus, $pagesize, $mb_memory and a value wholly in
 * parentheses ((4*$ncpus) -> 8) into out.  0, or -EINVAL with err set. */
int io_jobfile_expand(const char *in, char *out, size_t len, char *err, size_t errlen);

#endif
