/*
 * io.c — the `io` suite: fio's block workloads by fio's option names
 * (--rw=randread --bs=4k --iodepth=32 ...), on the fsgauge engine.
 *
 * The command line is read as fio reads it: options before the first
 * --name are every job's, each --name starts a job with them.  A job's
 * clones (numjobs) are threads, each with its own file "<job>.<clone>.0"
 * in the run directory, or all on the job's filename= (a file in the run
 * directory or a block device, under util/blockdev.h's rules); with
 * nrfiles=N, files "<job>.<clone>.<i>" (a flat fileset per clone) that
 * the request flowop goes round (rotate=, docs/engine.md).  A job
 * with stonewall starts a new group: each group is a phase.  Each clone:
 *
 *   <job>.open          open (create for a write job), O_DIRECT/O_SYNC...
 *   <job>.read|write    the I/O: io_size (or size) bytes, loops times
 *                       (iobytes=: the clone is then done), or until the
 *                       runtime with time_based
 *   <job>.close, done
 *
 * With verify (and do_verify, fio's default) a job that writes reads
 * back what it wrote: after its group's phase, a phase "<group>.verify"
 * of one thread per clone, "<job>.verify", reads each block the clone's
 * writes reached once and checks it (build_readback_clone, read_back),
 * as fio's verify phase after a job's writes; fio's reports count those
 * reads as the job's, over their own time (format.c, io_group_phases).
 *
 * A job on one of fio's file engines (filecreate, filestat, filedelete)
 * is instead one ordered createfile/statfile/deletefile pass over the
 * clone's nrfiles files, counted as <job>.read or <job>.write (fio's
 * direction of its rw=): build_fileop_clone.  Its files are named by
 * fio's filename_format (default <job>.<clone>.<file>), and clones of
 * jobs that name the same files share them, group after group: a
 * filestat job after a filecreate job stats the files it made
 * (collect_fileop).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "mpi/mpi.h"
#include "runner/data.h"
#include "suite/io/internal.h"
#include "suite/io/jobfile.h"
#include "suite/suite.h"
#include "util/blockdev.h"
#include "util/outfile.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/build.h"

/* "until done": a group without a runtime ends when its clones are */
#define UNTIL_DONE DURATION_MAX_SECONDS

/* A file or device the jobs use, with the jobs' needs. */
struct io_file {
	char *name;		 /* in the run directory, or the device's path */
	int device;
	int fd;			 /* a device's descriptor (blockdev_open) */
	uint64_t size;		 /* of each file: the end of the last region in it */
	uint64_t devsize;	 /* a device's bytes */
	unsigned nfiles;	 /* > 1: the files "<name>.<i>" of one clone (nrfiles=) */
	/* the files of a file engine's clone, names[0 .. nfiles) (its
	 * filename_format's; owned until build_model hands them over), the
	 * jobs that use them, group after group (collect_fileop) */
	char **names;
	int dirs;		 /* directories (dircreate, dirstat, dirdelete) */
	int exists;		 /* after the last job so far */
	size_t last_job;	 /* that job, and its group */
	size_t last_group;
	unsigned last_clone;
	int read_first;		 /* some job reads it: laid out beforehand */
	unsigned users;		 /* clones that use it */
	int shared_empty;	 /* made empty beforehand (build_model) */
	int written;
	/* the target (0-based) it is in: with several directories, clone k's
	 * own files are in directory k mod their number, a filename= in the
	 * first, as fio's directory=/a:/b places them; with relative ones
	 * (io_suite.subdirs), the one target and `subdir` the directory */
	size_t target, subdir;
	struct wl_fileset *fs;
};

struct io_suite {
	struct io_job global;
	struct io_job *jobs;
	size_t njobs;
	int in_job;		/* a --name was given: options go to the last job */
	const char *section;	/* --section: the job file's job to run */
	const char **sets;	/* -s KEY=VALUE, over every job of the job files */
	size_t nsets;
	struct blockdev_policy policy;
	struct io_group *groups;
	size_t ngroups;
	struct io_file *files;
	size_t nfiles;
	size_t *clone_files;	/* the file engines' clones' files (indexes), in job order */
	size_t nclone_files;
	int devices;		/* the files are block devices */
	struct workload *w;
	struct wl_process **procs; /* per job */
	/* per job: its clones' read-back (verify), the phase after its
	 * group's (NULL: none; not in w, freed by io_fini) */
	struct wl_process **vprocs;
	unsigned formats;	/* --output-format: bits of IO_FMT_*; 0: normal */
	const char *output;	/* --output: where the report goes (NULL: stdout) */
	char **dirs;		/* directory=/a:/b split at its ':' (the targets) */
	size_t ndirs;
	/* directory= named relative directories: dirs are directories made
	 * inside the run directory, not targets (clone N in dirs[N mod ndirs]) */
	int subdirs;
};

enum { IO_FMT_NORMAL = 1, IO_FMT_JSON = 2, IO_FMT_JSONPLUS = 4, IO_FMT_TERSE = 8 };

enum {
	IO_ALLOW_WRITE_DEVICE = OPT_OWN,
	IO_FORCE_DESTROY,
	IO_SECTION,
	IO_OUTPUT_FORMAT,
	IO_OUTPUT,
	IO_SET = 's',
	IO_FIO_FIRST = OPT_OWN + 16, /* io_opt_table[i] has key IO_FIO_FIRST + i */
};

/* The command's options: fio's (from io_opt_table) and its own. */
static struct suite_opt io_opts[128];

__attribute__((constructor)) static void io_opts_init(void)
{
	size_t n = 0;

	io_opts[n++] = (struct suite_opt){ "allow-write-device", 0, IO_ALLOW_WRITE_DEVICE,
					   OPTARG_NONE, NULL,
					   "let write jobs write to (and trim jobs discard) a\n"
					   "filename= block device" };
	io_opts[n++] = (struct suite_opt){ "force-destroy-data", 0, IO_FORCE_DESTROY, OPTARG_NONE,
					   NULL,
					   "with --allow-write-device: also a device that is in\nuse "
					   "or carries a signature (its data is lost)" };
	io_opts[n++] = (struct suite_opt){ "section", 0, IO_SECTION, OPTARG_REQUIRED, "NAME",
					   "run only job NAME of the job file" };
	io_opts[n++] = (struct suite_opt){ "output-format", 0, IO_OUTPUT_FORMAT, OPTARG_REQUIRED,
					   "FMT[,FMT]",
					   "the report as fio's: normal (its text, the default),\n"
					   "json or json+ (fio's JSON, json+ with latency bins),\n"
					   "terse (its ';'-separated lines, version 3)" };
	io_opts[n++] = (struct suite_opt){ "output", 0, IO_OUTPUT, OPTARG_REQUIRED, "FILE",
					   "write the report to FILE instead of standard output" };
	io_opts[n++] = (struct suite_opt){ "set", 's', IO_SET, OPTARG_REQUIRED, "KEY=VALUE",
					   "set fio option KEY in every job of the job files\n"
					   "(repeatable: -s runtime=10 -s size=1g)" };
	for (size_t i = 0; io_opt_table[i].name && n + 1 < ARRAY_SIZE(io_opts); i++) {
		const struct io_opt_info *o = &io_opt_table[i];
		int optional = !o->argname || !strcmp(o->argname, "BOOL");

		io_opts[n++] = (struct suite_opt){ o->name, 0, IO_FIO_FIRST + (int)i,
						   optional ? OPTARG_OPTIONAL : OPTARG_REQUIRED,
						   o->argname ? o->argname : NULL, o->help };
	}
}

static const struct suite_refusal io_refused[] = {
	{ SH_ENGINE, "--engine does not apply to io: use --ioengine (fio's name)" },
	{ SH_WARMUP, "--warmup does not apply to io: use --ramp_time (fio's name)" },
	{ 0, NULL },
};

static const struct metric_def io_metrics[] = {
	{ "read_iops", "IOPS", "read IOPS", BETTER_HIGHER },
	{ "read_bw", "KiB/s", "read bandwidth", BETTER_HIGHER },
	{ "write_iops", "IOPS", "write IOPS", BETTER_HIGHER },
	{ "write_bw", "KiB/s", "write bandwidth", BETTER_HIGHER },
	{ "trim_iops", "IOPS", "trim IOPS", BETTER_HIGHER },
	{ "trim_bw", "KiB/s", "trim bandwidth", BETTER_HIGHER },
	{ NULL, NULL, NULL, BETTER_NONE },
};

static struct io_suite *ctx(struct suite_session *s)
{
	return s->ctx;
}

int io_op_of(const char *op, const char *job, const char *what)
{
	size_t n = strlen(job);

	if (strncmp(op, job, n))
		return 0;
	op += n;
	if (op[0] == '@' && op[1] >= '1' && op[1] <= '9')
		for (op++; *op >= '0' && *op <= '9'; op++)
			;
	return *op == '.' && !strcmp(op + 1, what);
}

int io_op_of_dir(const char *op, const char *job, enum io_dir d)
{
	return io_op_of(op, job, d == IO_DIR_READ ? "read" : d == IO_DIR_TRIM ? "trim" : "write");
}

static struct io_job *current(struct io_suite *io)
{
	return io->in_job ? &io->jobs[io->njobs - 1] : &io->global;
}

/* --output-format=normal,json,json+,terse (fio's names). */
static int parse_formats(struct io_suite *io, const char *arg)
{
	static const char *const names[] = { "normal", "json", "json+", "terse" };
	char buf[128], *save = NULL;

	if (strlen(arg) >= sizeof(buf) || !*arg) {
		msg_err("invalid --output-format '%s' (expected normal, json, json+ or terse)", arg);
		return EXIT_USAGE;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	io->formats = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && strcmp(w, names[i]); i++)
			;
		if (i < ARRAY_SIZE(names)) {
			io->formats |= 1u << i;
		} else {
			msg_err("invalid --output-format '%s' (expected normal, json, json+ or terse)", w);
			return EXIT_USAGE;
		}
	}
	if ((io->formats & IO_FMT_JSON) && (io->formats & IO_FMT_JSONPLUS))
		io->formats &= ~(unsigned)IO_FMT_JSON; /* json+ is json with more */
	return EXIT_OK;
}

static int io_option(struct suite_session *s, int key, const char *arg, int argc, char **argv)
{
	struct io_suite *io = ctx(s);
	const char *name;
	char err[512];

	(void)argc;
	(void)argv;
	if (key == IO_ALLOW_WRITE_DEVICE) {
		io->policy.allow_write = 1;
		return EXIT_OK;
	}
	if (key == IO_FORCE_DESTROY) {
		io->policy.force_destroy = 1;
		return EXIT_OK;
	}
	if (key == IO_SECTION) {
		io->section = arg;
		return EXIT_OK;
	}
	if (key == IO_OUTPUT_FORMAT)
		return parse_formats(io, arg);
	if (key == IO_OUTPUT) {
		io->output = arg;
		return EXIT_OK;
	}
	if (key == IO_SET) {
		if (!strchr(arg, '=') || arg[0] == '=') {
			msg_err("invalid -s '%s' (expected KEY=VALUE)", arg);
			return EXIT_USAGE;
		}
		io->sets = xrealloc(io->sets, (io->nsets + 1) * sizeof(*io->sets));
		io->sets[io->nsets++] = arg;
		return EXIT_OK;
	}
	name = io_opt_table[key - IO_FIO_FIRST].name;
	if (!strcmp(name, "name")) {
		/* fio: each --name starts a job with the options given so far */
		if (!arg || !*arg) {
			msg_err("invalid --name '' (expected a job name)");
			return EXIT_USAGE;
		}
		io->jobs = xrealloc(io->jobs, (io->njobs + 1) * sizeof(*io->jobs));
		io_job_copy(&io->jobs[io->njobs++], &io->global, arg);
		io->in_job = 1;
		return EXIT_OK;
	}
	if (io_job_set(current(io), name, arg, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* An option fio has that is not among ours: say so, not "unrecognized". */
static const char *io_unknown(const char *word)
{
	static char msg[300];
	char key[128], err[256];
	const char *eq;
	size_t n;
	struct io_job j;
	int r;

	if (strncmp(word, "--", 2))
		return NULL;
	word += 2;
	eq = strchr(word, '=');
	n = eq ? (size_t)(eq - word) : strlen(word);
	if (n >= sizeof(key))
		return NULL;
	memcpy(key, word, n);
	key[n] = 0;
	io_job_init(&j, "x");
	r = io_job_set(&j, key, eq ? eq + 1 : "1", err, sizeof(err));
	io_job_free(&j);
	if (r != -ENOTSUP)
		return NULL;
	snprintf(msg, sizeof(msg), "%s", err);
	return msg;
}

/* --- checks ------------------------------------------------------------------ */

/* Options that the runner takes once per session: every job must agree. */
static int same_for_all(const struct io_suite *io)
{
	const struct io_job *a = &io->jobs[0];

	for (size_t i = 1; i < io->njobs; i++) {
		const struct io_job *b = &io->jobs[i];
		const char *what = NULL;

		if (strcmp(a->ioengine, b->ioengine))
			what = "ioengine";
		else if (a->zero_buffers != b->zero_buffers || a->compress_pct != b->compress_pct ||
			 a->dedupe_pct != b->dedupe_pct)
			what = "data options (zero_buffers, buffer_compress_percentage, "
			       "dedupe_percentage)";
		else if (a->verify != b->verify)
			what = "verify";
		else if (a->sqthread_poll != b->sqthread_poll ||
			 (a->given & IOJ_SQPOLL_CPU) != (b->given & IOJ_SQPOLL_CPU) ||
			 a->sqthread_poll_cpu != b->sqthread_poll_cpu)
			what = "sqthread_poll or sqthread_poll_cpu";
		else if (a->registerfiles != b->registerfiles)
			what = "registerfiles";
		else if (a->fixedbufs != b->fixedbufs)
			what = "fixedbufs";
		else if (a->has_randseed != b->has_randseed || a->randseed != b->randseed)
			what = "randseed";
		else if ((a->directory || b->directory) &&
			 (!a->directory || !b->directory || strcmp(a->directory, b->directory)))
			what = "directory";
		if (what) {
			msg_err("jobs '%s' and '%s' differ in %s: fsgauge io runs every job of a "
				"command with the same one (docs/io.md)",
				a->name, b->name, what);
			return -1;
		}
	}
	return 0;
}

/* Whether reads and writes have the same block sizes (bs, bsrange and
 * bssplit alike): a mixed job's requests take one size rule. */
static int same_sizes(const struct io_job *j)
{
	if (j->bs[0] != j->bs[1] || j->bs_lo[0] != j->bs_lo[1] || j->bs_hi[0] != j->bs_hi[1] ||
	    j->nsplit[0] != j->nsplit[1])
		return 0;
	for (size_t i = 0; i < j->nsplit[0]; i++)
		if (j->split[0][i].size != j->split[1][i].size ||
		    j->split[0][i].pct != j->split[1][i].pct)
			return 0;
	return 1;
}

/* fsync=, fdatasync=: one of them per job. */
static int check_sync(const struct io_job *j)
{
	if (j->fsync && j->fdatasync) {
		msg_err("job '%s': give fsync or fdatasync, not both", j->name);
		return -1;
	}
	return 0;
}

/* nrfiles=, filesize=, openfiles= (docs/io.md, "Files"). */
static int check_files(const struct io_job *j)
{
	if (!io_job_multi(j))
		return 0;
	if (j->size && !j->filesize && j->size / j->nrfiles == 0) {
		msg_err("job '%s': size=%llu over nrfiles=%u leaves no bytes per file (give filesize "
			"or a larger size)",
			j->name, (unsigned long long)j->size, j->nrfiles);
		return -1;
	}
	if (j->end_fsync || j->fsync_on_close) {
		msg_err("job '%s': %s with nrfiles=%u is not supported by fsgauge io (docs/io.md)",
			j->name, j->end_fsync ? "end_fsync" : "fsync_on_close", j->nrfiles);
		return -1;
	}
	return 0;
}

/* rate=, rate_iops=, rate_min=, rate_process= (docs/io.md, "Open-loop
 * rates"): one schedule of single requests, for a read or a write job. */
static int check_rate(const struct io_job *j)
{
	const char *what = j->rate_iops ? "rate_iops" : "rate";

	if (j->rate && j->rate_iops) {
		msg_err("job '%s': give rate or rate_iops, not both", j->name);
		return -1;
	}
	if (j->rate_min && !j->rate) {
		msg_err("job '%s': rate_min needs rate", j->name);
		return -1;
	}
	if (j->rate_min > j->rate) {
		msg_err("job '%s': rate_min=%llu is above rate=%llu (bytes per second)", j->name,
			(unsigned long long)j->rate_min, (unsigned long long)j->rate);
		return -1;
	}
	if (j->rate_process && !j->rate && !j->rate_iops) {
		msg_err("job '%s': rate_process needs rate or rate_iops", j->name);
		return -1;
	}
	if (!j->rate && !j->rate_iops)
		return 0;
	if (j->iodepth > 1) {
		msg_err("job '%s': %s with iodepth=%u is not supported by fsgauge io: a schedule "
			"issues one request at a time (give iodepth=1; docs/io.md)",
			j->name, what, j->iodepth);
		return -1;
	}
	/* (trimwrite: fio's rate is per direction, trims and writes each) */
	if (io_job_mixed(j) || io_job_trimwrite(j)) {
		msg_err("job '%s': %s with rw=%s is not supported by fsgauge io: give it to a read "
			"or a write job (docs/io.md)",
			j->name, what, io_rw_name(j->rw));
		return -1;
	}
	return 0;
}

/* thinktime=, thinktime_blocks=, thinktime_spin= (docs/io.md): a pause
 * between a clone's requests, one request at a time. */
static int check_think(const struct io_job *j)
{
	const char *what = j->rate_iops ? "rate_iops" : "rate";

	if (!j->thinktime && (j->given & (IOJ_THINK_BLOCKS | IOJ_THINK_SPIN))) {
		msg_err("job '%s': %s needs thinktime", j->name,
			j->given & IOJ_THINK_BLOCKS ? "thinktime_blocks" : "thinktime_spin");
		return -1;
	}
	if (!j->thinktime)
		return 0;
	if (j->thinktime_spin > j->thinktime) {
		msg_err("job '%s': thinktime_spin (%gus) is longer than thinktime (%gus)", j->name,
			j->thinktime_spin * 1e6, j->thinktime * 1e6);
		return -1;
	}
	if (j->rate || j->rate_iops) {
		msg_err("job '%s': thinktime with %s is not supported by fsgauge io: the schedule "
			"would count the requests after each pause late (docs/io.md)",
			j->name, what);
		return -1;
	}
	if (j->iodepth > 1) {
		msg_err("job '%s': thinktime with iodepth=%u is not supported by fsgauge io: a "
			"clone with thinktime issues one request at a time (give iodepth=1; "
			"docs/io.md)",
			j->name, j->iodepth);
		return -1;
	}
	if (io_job_trimwrite(j)) {
		msg_err("job '%s': thinktime with rw=%s is not supported by fsgauge io: fio counts "
			"the trims and the writes in thinktime_blocks, fsgauge a trim and its "
			"write as one request (docs/io.md)",
			j->name, io_rw_name(j->rw));
		return -1;
	}
	return 0;
}

/* fio's file engines (filecreate, filestat, filedelete): one pass of
 * file operations over each clone's files, nothing else. */
static int check_fileop(const struct io_job *j)
{
	const char *what = NULL;

	if (!j->fileop && j->filename_format) {
		msg_err("job '%s': filename_format is supported by fsgauge io with the file and "
			"directory engines only (filecreate, filestat, filedelete, dircreate, "
			"dirstat, dirdelete; docs/io.md)",
			j->name);
		return -1;
	}
	if (!j->fileop)
		return 0;
	if (j->filename)
		what = "filename= (the files are named by filename_format)";
	else if (j->loops > 1)
		what = "loops above 1 (each file is operated on once)";
	else if (j->time_based)
		what = "time_based (each file is operated on once)";
	else if (j->rate || j->rate_iops)
		what = "a rate";
	else if (j->fsync || j->fdatasync || j->end_fsync || j->fsync_on_close)
		what = "fsync options";
	else if (j->verify)
		what = "verify";
	else if (j->offset || j->offset_pct > 0 || j->offset_increment)
		what = "offset (each file is operated on whole)";
	else if (j->thinktime)
		what = "thinktime";
	else if (j->fadvise_hint || j->invalidate)
		what = j->invalidate ? "invalidate" : "fadvise_hint";
	if (what) {
		msg_err("job '%s': ioengine=%s with %s is not supported by fsgauge io (docs/io.md)",
			j->name, j->ioengine_fio, what);
		return -1;
	}
	return 0;
}

/* fio's ftruncate and falloc engines: range operations on the job's
 * regular file (docs/io.md, "Range engines").  ftruncate does writes
 * only (fio fails its reads and trims with EINVAL); falloc reads
 * (allocates keeping the size), writes (allocates) and trims (punches a
 * hole), one direction per job. */
static int check_rangeop(const struct io_job *j)
{
	const char *what = NULL;

	if (!j->rangeop)
		return 0;
	if (j->rangeop == IO_RANGEOP_FTRUNCATE && (!io_job_writes(j) || io_job_trims(j))) {
		msg_err("job '%s': ioengine=ftruncate with rw=%s is not supported: fio's ftruncate "
			"engine fails every %s with EINVAL (give rw=write or randwrite; docs/io.md)",
			j->name, io_rw_name(j->rw), io_job_trims(j) ? "trim" : "read");
		return -1;
	}
	if (io_job_mixed(j) || io_job_trimwrite(j))
		what = "a mixed rw= (one direction per job)";
	else if (j->verify)
		what = "verify (no data is written)";
	else if (j->fsync || j->fdatasync || j->end_fsync || j->fsync_on_close)
		what = "fsync options";
	if (what) {
		msg_err("job '%s': ioengine=%s with %s is not supported by fsgauge io (docs/io.md)",
			j->name, j->ioengine_fio, what);
		return -1;
	}
	return 0;
}

/* fio's cpuio engine: no file and no I/O, each request a chunk of CPU
 * work and a sleep, until the runtime (fio's cpuio job has no other
 * end). */
static int check_cpuio(const struct io_job *j)
{
	const char *what = NULL;

	if (!j->cpuio) {
		if (j->cpuload)
			what = "cpuload";
		else if (j->cpuchunks != 50000)
			what = "cpuchunks";
		if (what) {
			msg_err("job '%s': %s applies to ioengine=cpuio", j->name, what);
			return -1;
		}
		return 0;
	}
	if (!j->cpuload) {
		msg_err("job '%s': ioengine=cpuio needs cpuload (the percent of each period on the "
			"CPU, 1 to 100)",
			j->name);
		return -1;
	}
	if (!(j->given & IOJ_RUNTIME) || !(j->runtime > 0)) {
		msg_err("job '%s': ioengine=cpuio needs a runtime (it does no I/O, so it has no other "
			"end: fio's runs until its runtime)",
			j->name);
		return -1;
	}
	if (j->filename)
		what = "filename= (it has no file)";
	else if (io_job_multi(j))
		what = "nrfiles (it has no file)";
	else if (j->rate || j->rate_iops)
		what = "a rate";
	else if (j->thinktime)
		what = "thinktime (cpuload sets its pauses)";
	else if (j->fsync || j->fdatasync || j->end_fsync || j->fsync_on_close)
		what = "fsync options";
	else if (j->verify)
		what = "verify";
	else if (j->fadvise_hint || j->invalidate)
		what = j->invalidate ? "invalidate (it has no file)" : "fadvise_hint (it has no file)";
	if (what) {
		msg_err("job '%s': ioengine=cpuio with %s is not supported by fsgauge io (docs/io.md)",
			j->name, what);
		return -1;
	}
	return 0;
}

/* io_uring's options (sqthread_poll, sqthread_poll_cpu, registerfiles,
 * fixedbufs):
 * on an engine that takes them (io_uring, or the faulty wrapper around
 * it), the CPU one of this machine's. */
static int check_ring_opts(const struct io_job *j)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	unsigned caps = engine_spec_caps(j->ioengine);
	const char *what = NULL;

	if (j->sqthread_poll && !(caps & ENGINE_SQPOLL))
		what = "sqthread_poll";
	else if ((j->given & IOJ_SQPOLL_CPU) && !(caps & ENGINE_SQPOLL))
		what = "sqthread_poll_cpu";
	else if (j->registerfiles && !(caps & ENGINE_REGFILES))
		what = "registerfiles";
	else if (j->fixedbufs && !(caps & ENGINE_FIXEDBUFS))
		what = "fixedbufs";
	if (what) {
		msg_err("job '%s': %s applies to ioengine=io_uring, not %s (docs/io.md)", j->name,
			what, j->ioengine_fio);
		return -1;
	}
	if ((j->given & IOJ_SQPOLL_CPU) && !j->sqthread_poll) {
		msg_err("job '%s': sqthread_poll_cpu needs sqthread_poll=1", j->name);
		return -1;
	}
	if ((j->given & IOJ_SQPOLL_CPU) && ncpu > 0 && j->sqthread_poll_cpu >= (unsigned long)ncpu) {
		msg_err("job '%s': sqthread_poll_cpu=%u: this machine's CPUs are 0 to %ld", j->name,
			j->sqthread_poll_cpu, ncpu - 1);
		return -1;
	}
	return 0;
}

static int check_job(const struct io_job *j)
{
	if (check_fileop(j) < 0 || check_rangeop(j) < 0 || check_cpuio(j) < 0 ||
	    check_ring_opts(j) < 0)
		return -1;
	if (j->iodepth_batch > j->iodepth) {
		msg_err("job '%s': iodepth_batch_submit=%u is above iodepth=%u", j->name,
			j->iodepth_batch, j->iodepth);
		return -1;
	}
	if (j->batch_complete_min > j->iodepth) {
		msg_err("job '%s': iodepth_batch_complete_min=%u is above iodepth=%u", j->name,
			j->batch_complete_min, j->iodepth);
		return -1;
	}
	if ((j->given & IOJ_BATCH_MAX) && j->batch_complete_max > j->iodepth) {
		msg_err("job '%s': iodepth_batch_complete_max=%u is above iodepth=%u", j->name,
			j->batch_complete_max, j->iodepth);
		return -1;
	}
	if ((j->given & IOJ_BATCH_MAX) && j->batch_complete_max < j->batch_complete_min) {
		msg_err("job '%s': iodepth_batch_complete_max=%u is below "
			"iodepth_batch_complete_min=%u",
			j->name, j->batch_complete_max, j->batch_complete_min);
		return -1;
	}
	if (j->time_based && !(j->given & IOJ_RUNTIME)) {
		msg_err("job '%s': time_based needs a runtime", j->name);
		return -1;
	}
	if (j->filename && (!*j->filename || strchr(j->filename, ':'))) {
		msg_err("job '%s': filename '%s': %s", j->name, j->filename,
			*j->filename ? "several files (':') are not supported by fsgauge io"
				     : "empty");
		return -1;
	}
	if (check_sync(j) < 0 || check_rate(j) < 0 || check_think(j) < 0 || check_files(j) < 0)
		return -1;
	if (j->blockalign && j->blockalign != j->bs[0] && j->blockalign != j->bs[1]) {
		msg_err("job '%s': blockalign other than the block size is not supported by "
			"fsgauge io (docs/io.md)",
			j->name);
		return -1;
	}
	if (io_job_mixed(j) && !same_sizes(j)) {
		msg_err("job '%s': rw=%s with different read and write block sizes is not supported "
			"by fsgauge io (docs/io.md)",
			j->name, io_rw_name(j->rw));
		return -1;
	}
	if (j->nsplit[0] && j->bs_lo[0]) {
		msg_err("job '%s': give bsrange or bssplit, not both", j->name);
		return -1;
	}
	/* (the runner's own check, in a workload's terms, would name the
	 * job's flowop and --verify) */
	if (j->verify && j->iodepth > 1 && (engine_spec_caps(j->ioengine) & ENGINE_ASYNC)) {
		msg_err("job '%s': verify with iodepth=%u on %s is not supported by fsgauge io "
			"(requests in flight together may read a block another is writing); "
			"use iodepth=1 or no verify",
			j->name, j->iodepth, j->ioengine);
		return -1;
	}
	/* verify's blocks are whole 4 KiB blocks of the file */
	if (j->verify && (j->offset % DATA_BLOCK || j->offset_increment % DATA_BLOCK ||
			  (j->offset_pct > 0 && io_job_min_bs(j) % DATA_BLOCK))) {
		msg_err("job '%s': verify with an offset or offset_increment that is not a multiple "
			"of %d is not supported by fsgauge io (docs/io.md)",
			j->name, DATA_BLOCK);
		return -1;
	}
	return 0;
}

/* Whether clone k's region of `whole` bytes ends in a file fsgauge can
 * make; its end in *end.  0 or -1 after a message. */
static int region_end(const struct io_job *j, unsigned k, uint64_t whole, uint64_t *end)
{
	uint64_t base;

	if (io_job_offset(j, k, whole, &base) < 0 || base > (uint64_t)INT64_MAX - whole) {
		msg_err("job '%s': clone %u's offset + size is past the largest file size", j->name, k);
		return -1;
	}
	*end = MAX(*end, base + whole);
	return 0;
}

/* wait_for=X on job i: whether it begins a new group (1), is already
 * met because X ran in an earlier group (0), or cannot be run as fio
 * would (-1, said).  fsgauge runs groups one after another, so wait_for
 * is run exactly when it is a group boundary: X and only X's namesakes
 * run before it in its group, and every job after it in the group waits
 * too (join_group checks those). */
static int wait_for_boundary(const struct io_suite *io, size_t i, size_t first)
{
	const struct io_job *j = &io->jobs[i];
	size_t k = i;

	while (k > 0 && strcmp(io->jobs[k - 1].name, j->wait_for))
		k--;
	if (k == 0) {
		msg_err("job '%s': wait_for='%s' names no job before it", j->name, j->wait_for);
		return -1;
	}
	if (k - 1 < first)
		return 0;
	for (size_t m = first; m < i; m++)
		if (strcmp(io->jobs[m].name, j->wait_for)) {
			msg_err("job '%s': wait_for='%s' while '%s' runs beside '%s' is not supported: "
				"fsgauge io runs groups one after another, so '%s' would wait for "
				"'%s' too (use stonewall, or put '%s' after '%s')",
				j->name, j->wait_for, io->jobs[m].name, j->wait_for, j->name,
				io->jobs[m].name, j->name, j->wait_for);
			return -1;
		}
	return 1;
}

/* Groups: a job with stonewall (or a wait_for that is a boundary)
 * begins a new one; a group's jobs run together and must agree on
 * runtime and ramp_time. */
static int make_groups(struct io_suite *io)
{
	const char *waited = NULL; /* the current group began by wait_for */

	for (size_t i = 0; i < io->njobs; i++) {
		int boundary = i == 0 || io->jobs[i].stonewall;

		if (i > 0 && !io->jobs[i].stonewall && io->jobs[i].wait_for) {
			int b = wait_for_boundary(io, i, io->groups[io->ngroups - 1].first);

			if (b < 0)
				return -1;
			boundary = b;
		} else if (i > 0 && !boundary && waited) {
			msg_err("job '%s' would run beside '%s' in fio (it has no wait_for or "
				"stonewall), but comes after '%s', which waits for '%s': fsgauge io "
				"runs groups one after another; put '%s' before '%s'",
				io->jobs[i].name, waited, io->jobs[io->groups[io->ngroups - 1].first].name,
				waited, io->jobs[i].name, io->jobs[io->groups[io->ngroups - 1].first].name);
			return -1;
		}
		if (i == 0 && io->jobs[0].wait_for) {
			msg_err("job '%s': wait_for='%s' names no job before it", io->jobs[0].name,
				io->jobs[0].wait_for);
			return -1;
		}
		if (boundary) {
			waited = i > 0 && !io->jobs[i].stonewall ? io->jobs[i].wait_for : NULL;
			io->groups = xrealloc(io->groups, (io->ngroups + 1) * sizeof(*io->groups));
			io->groups[io->ngroups++] = (struct io_group){ i, 0 };
		}
		struct io_group *g = &io->groups[io->ngroups - 1];
		const struct io_job *a = &io->jobs[g->first], *b = &io->jobs[i];

		if (a->runtime != b->runtime || a->ramp_time != b->ramp_time ||
		    a->time_based != b->time_based || a->startdelay != b->startdelay) {
			msg_err("jobs '%s' and '%s' run together but differ in runtime, time_based, "
				"ramp_time or startdelay: give them the same, or put stonewall on the "
				"second",
				a->name, b->name);
			return -1;
		}
		g->n++;
	}
	for (size_t g = 1; g < io->ngroups; g++)
		if (io->jobs[io->groups[g].first].ramp_time != io->jobs[0].ramp_time) {
			msg_err("every group must have the same ramp_time in fsgauge io (it is the "
				"session's warm-up)");
			return -1;
		}
	return 0;
}

/* fio's directory=/a:/b: the directories split at each ':' (a '\\:' is a
 * ':' of the name, as fio escapes it) into io->dirs.  A name given twice
 * is one target (suite_add_target()). */
static void split_dirs(struct io_suite *io, const char *list)
{
	char *cur = xmalloc(strlen(list) + 1);
	size_t n = 0;

	for (const char *p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			cur[n++] = *++p;
			continue;
		}
		if (*p && *p != ':') {
			cur[n++] = *p;
			continue;
		}
		cur[n] = 0;
		io->dirs = xrealloc(io->dirs, (io->ndirs + 1) * sizeof(*io->dirs));
		io->dirs[io->ndirs++] = xstrdup(cur);
		n = 0;
		if (!*p)
			break;
	}
	free(cur);
}

/* directory= of relative directories: each is made inside the run
 * directory (as a relative filename= is), in the one target (-d, or the
 * default); clone N's files go in the (N mod their number)-th, as fio's.
 * 0 or -1 after a message. */
static int subdirectories(struct suite_session *s, struct io_suite *io, const char *list)
{
	if (s->ntargets > 1) {
		msg_err("--directory '%s' names directories inside the run directory, and %s is "
			"given %zu times: give one %s, or absolute directories (each a target)",
			list, s->target_opt, s->ntargets, s->target_opt);
		return -1;
	}
	for (size_t i = 0; i < io->ndirs; i++) {
		const char *d = io->dirs[i];

		if (!*d) {
			msg_err("--directory '%s': an empty name in the list", list);
			return -1;
		}
		if (!strcmp(d, "..") || !strncmp(d, "../", 3) || strstr(d, "/../") ||
		    (strlen(d) >= 3 && !strcmp(d + strlen(d) - 3, "/.."))) {
			msg_err("--directory '%s': '%s' leaves the run directory ('..'): fsgauge io "
				"only writes inside it",
				list, d);
			return -1;
		}
	}
	io->subdirs = 1;
	return 0;
}

/* The targets of directory= (every job's, same_for_all): each of its
 * directories, as -d given once for each; with -d as well, the two must
 * name the same directories in the same order.  0 or -1 after a message. */
static int directories(struct suite_session *s, struct io_suite *io, const char *list)
{
	size_t had = s->ntargets, nrel = 0, nabs = 0;
	int same;

	split_dirs(io, list);
	for (size_t i = 0; i < io->ndirs; i++) {
		nrel += io->dirs[i][0] && io->dirs[i][0] != '/';
		nabs += io->dirs[i][0] == '/';
	}
	if (nrel && nabs) {
		msg_err("--directory '%s' mixes absolute directories (targets, as -d) and relative "
			"ones (made inside the run directory): give one kind",
			list);
		return -1;
	}
	if (nrel)
		return subdirectories(s, io, list);
	same = had == 0;
	for (size_t i = 0; i < io->ndirs; i++)
		if (!had)
			suite_add_target(s, "--directory", io->dirs[i]);
	if (had) {
		size_t n = 0;

		/* the -d targets, spelled as directory= would be after its
		 * repeats are dropped */
		for (size_t i = 0; i < io->ndirs; i++) {
			size_t k = 0;

			while (k < i && strcmp(io->dirs[k], io->dirs[i]))
				k++;
			if (k == i && (n >= had || strcmp(s->targets[n++], io->dirs[i])))
				n = had + 1;
		}
		same = n == had;
	}
	if (!same) {
		msg_err("%s '%s'%s and --directory '%s' name different directories: give one",
			s->target_opt, s->targets[0], had > 1 ? " (and more)" : "", list);
		return -1;
	}
	return 0;
}

/* The session's options from the jobs' (they agree: same_for_all). */
static int session_from_jobs(struct suite_session *s, struct io_suite *io)
{
	const struct io_job *j = &io->jobs[0];

	if (!engine_find_checked(j->ioengine))
		return -1;
	s->ro.engine = j->ioengine;
	if (j->sqthread_poll)
		s->ro.engine_opts.flags |= ENGINE_OPT_SQPOLL;
	if (j->fixedbufs) {
		s->ro.engine_opts.flags |= ENGINE_OPT_FIXEDBUFS;
		s->ro.engine_opts.nbufs = 1; /* (the runner sizes each worker's table) */
	}
	if (j->registerfiles) {
		s->ro.engine_opts.flags |= ENGINE_OPT_REGFILES;
		s->ro.engine_opts.nfiles = 1; /* (the runner sizes each worker's table) */
	}
	if (j->given & IOJ_SQPOLL_CPU) {
		s->ro.engine_opts.flags |= ENGINE_OPT_SQ_AFF;
		s->ro.engine_opts.sq_cpu = j->sqthread_poll_cpu;
	}
	if (j->zero_buffers)
		s->ro.data.kind = DATA_ZERO;
	else if (j->compress_pct >= 0)
		s->ro.data = (struct data_pattern){ DATA_COMPRESS, (unsigned)j->compress_pct };
	else if (j->dedupe_pct >= 0)
		s->ro.data = (struct data_pattern){ DATA_DEDUPE, (unsigned)j->dedupe_pct };
	if (j->verify)
		s->ro.verify = 1;
	if (j->has_randseed)
		s->ro.seed = j->randseed;
	s->ro.warmup = j->ramp_time;
	return j->directory ? directories(s, io, j->directory) : 0;
}

static void engine_notes(const struct suite_session *s, const struct io_suite *io)
{
	int async = (engine_spec_caps(s->ro.engine) & ENGINE_ASYNC) != 0;

	for (size_t i = 0; i < io->njobs && s->chatter; i++) {
		const struct io_job *j = &io->jobs[i];

		if (j->iodepth > 1 && !async)
			fprintf(stderr,
				"fsgauge io: note: job '%s': ioengine %s completes each request before "
				"the next: iodepth=%u keeps 1 in flight\n",
				j->name, j->ioengine_fio, j->iodepth);
		if (j->verify && j->do_verify && io_job_writes(j) && j->time_based)
			fprintf(stderr,
				"fsgauge io: note: job '%s': with time_based its writes take the whole "
				"runtime, so nothing is read back for verify (as fio's verify phase, "
				"which never starts then)\n",
				j->name);
	}
}

/* -s KEY=VALUE over every job. */
static int apply_sets(struct io_suite *io)
{
	for (size_t i = 0; i < io->nsets; i++) {
		const char *eq = strchr(io->sets[i], '=');
		char key[128], err[512];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - io->sets[i]), io->sets[i]);
		for (size_t k = 0; k < io->njobs; k++)
			if (io_job_set(&io->jobs[k], key, eq + 1, err, sizeof(err)) < 0) {
				msg_err("-s %s: %s", io->sets[i], err);
				return -1;
			}
	}
	return 0;
}

/* The jobs of the job files (the command line's options their defaults). */
static int load_jobfiles(struct io_suite *io, int argc, char **argv)
{
	struct io_jobs js = { 0 };

	if (io->njobs) {
		msg_err("give jobs with --name or in job files, not both ('%s')", argv[0]);
		return -1;
	}
	if (argc > 1 && io->section) {
		msg_err("--section picks a job of one job file: %d given", argc);
		return -1;
	}
	for (int i = 0; i < argc; i++)
		if (io_jobfile_load(&js, argv[i], &io->global, io->section) < 0) {
			io_jobs_free(&js);
			return -1;
		}
	io->jobs = js.jobs;
	io->njobs = js.n;
	return apply_sets(io);
}

/* Where the report goes: --output checked before anything runs; fio's
 * JSON or terse lines on standard output have it to themselves (what
 * else is printed there goes to stderr), so it cannot be shared with
 * --json -. */
static int check_output(struct suite_session *s, struct io_suite *io)
{
	int json = (io->formats & (IO_FMT_JSON | IO_FMT_JSONPLUS | IO_FMT_TERSE)) != 0;

	if (!io->formats)
		io->formats = IO_FMT_NORMAL;
	/* fio's JSON and terse lines have IOPS and bandwidth samples every
	 * iops_avg_time and bw_avg_time (500 ms) */
	if ((io->formats & (IO_FMT_JSON | IO_FMT_JSONPLUS | IO_FMT_TERSE)) && s->ro.interval == 0)
		s->ro.interval = 0.5;
	if (io->output && outfile_check(io->output, "report") < 0)
		return EXIT_USAGE;
	if (json && (!io->output || !strcmp(io->output, "-"))) {
		if (s->json && !strcmp(s->json, "-")) {
			msg_err("--json - and --output-format=%s both write to standard output: give "
				"one of them a file",
				io->formats & IO_FMT_TERSE && !(io->formats & (IO_FMT_JSON | IO_FMT_JSONPLUS))
					? "terse"
					: "json");
			return EXIT_USAGE;
		}
		if (outfile_claim_stdout() < 0)
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int io_check(struct suite_session *s, int argc, char **argv)
{
	struct io_suite *io = ctx(s);

	if (argc > 0 && load_jobfiles(io, argc, argv) < 0)
		return EXIT_USAGE;
	if (argc == 0 && (io->section || io->nsets)) {
		msg_err("%s applies to job files: give one", io->section ? "--section" : "-s");
		return EXIT_USAGE;
	}
	if (!io->njobs) {
		/* no --name: the options make one job */
		io->jobs = xmalloc(sizeof(*io->jobs));
		io_job_copy(&io->jobs[0], &io->global, "io");
		io->njobs = 1;
	}
	for (size_t i = 0; i < io->njobs; i++) {
		if (check_job(&io->jobs[i]) < 0)
			return EXIT_USAGE;
		/* a repeat on the files the one before created or deleted
		 * would find none to operate on */
		if (io->jobs[i].fileop && s->ro.reuse) {
			msg_err("job '%s': --reuse with ioengine=%s is not supported by fsgauge io "
				"(each repeat needs the files as they were before the first)",
				io->jobs[i].name, io->jobs[i].ioengine_fio);
			return EXIT_USAGE;
		}
	}
	if (same_for_all(io) < 0 || make_groups(io) < 0 || session_from_jobs(s, io) < 0)
		return EXIT_USAGE;
	engine_notes(s, io);
	return check_output(s, io);
}

/* --- files and devices --------------------------------------------------------- */

static struct io_file *file_of(struct io_suite *io, const char *name)
{
	for (size_t i = 0; i < io->nfiles; i++)
		if (!strcmp(io->files[i].name, name))
			return &io->files[i];
	io->files = xrealloc(io->files, (io->nfiles + 1) * sizeof(*io->files));
	io->files[io->nfiles] = (struct io_file){ .name = xstrdup(name), .fd = -1 };
	return &io->files[io->nfiles++];
}

/* A relative filename= lands in the run directory; anything else must be
 * a block device. */
static int check_filename(const struct io_job *j, int *device)
{
	const char *f = j->filename;
	int bd = blockdev_is(f);

	*device = bd == 1;
	if (bd == 1)
		return 0;
	if (f[0] == '/') {
		msg_err("job '%s': filename '%s' is outside the run directory: fsgauge io "
			"creates its files in a fresh directory under -d; give a plain name, or a "
			"block device",
			j->name, f);
		return -1;
	}
	if (strchr(f, '/') || !strcmp(f, ".") || !strcmp(f, "..")) {
		msg_err("job '%s': filename '%s': a plain file name is needed (the file is made "
			"in the run directory)",
			j->name, f);
		return -1;
	}
	return 0;
}

/* --- the file engines' files (filename_format) ----------------------------------- */

/* The group job i runs in. */
static size_t group_of(const struct io_suite *io, size_t i)
{
	for (size_t g = 0; g < io->ngroups; g++)
		if (i >= io->groups[g].first && i < io->groups[g].first + io->groups[g].n)
			return g;
	return 0;
}

/* Clone k's file i under fio's filename_format `fmt`: $jobname, $jobnum
 * (the clone), $filenum and $clientuid (empty: fio's value outside its
 * client/server mode, which fsgauge does not have), in any case, as fio
 * reads them; any other text as it is.  Into buf; its length, or -1 when
 * it does not fit. */
static int format_name(char *buf, size_t len, const char *fmt, const char *job, unsigned k,
		       unsigned i)
{
	static const char *const kw[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	size_t o = 0;

	buf[0] = 0;
	while (*fmt) {
		size_t w = 0;
		int n = -1;

		for (size_t x = 0; x < ARRAY_SIZE(kw) && n < 0; x++)
			if (!strncasecmp(fmt, kw[x], strlen(kw[x]))) {
				w = strlen(kw[x]);
				n = x == 0   ? snprintf(buf + o, len - o, "%s", job)
				    : x == 1 ? snprintf(buf + o, len - o, "%u", k)
				    : x == 2 ? snprintf(buf + o, len - o, "%u", i)
					     : 0;
			}
		if (n < 0) {
			w = 1;
			n = snprintf(buf + o, len - o, "%c", *fmt);
		}
		if (n < 0 || (size_t)n >= len - o)
			return -1;
		o += (size_t)n;
		fmt += w;
	}
	return (int)o;
}

/* The names of clone k's files of file-engine job j, each checked to be
 * a plain name in the run directory; NULL after a message. */
static char **fileop_names(const struct io_job *j, unsigned k)
{
	const char *fmt = j->filename_format && *j->filename_format ? j->filename_format
								     : "$jobname.$jobnum.$filenum";
	char **names = xcalloc(j->nrfiles, sizeof(*names));
	char buf[NAME_MAX + 1];

	for (unsigned i = 0; i < j->nrfiles; i++) {
		int n = format_name(buf, sizeof(buf), fmt, j->name, k, i);

		if (n < 0) {
			msg_err("job '%s': filename_format '%s' makes a name longer than %d bytes",
				j->name, fmt, NAME_MAX);
		} else if (!n || strchr(buf, '/') || !strcmp(buf, ".") || !strcmp(buf, "..")) {
			msg_err("job '%s': filename_format '%s' makes the name '%s': a plain file "
				"name is needed (the files are made in the run directory)",
				j->name, fmt, buf);
			n = -1;
		}
		if (n < 0) {
			for (unsigned x = 0; x < i; x++)
				free(names[x]);
			free(names);
			return NULL;
		}
		names[i] = xstrdup(buf);
	}
	return names;
}

/* Put file f in place k: target k, or with relative directory= the run
 * directory's k-th directory. */
static void place(const struct io_suite *io, struct io_file *f, size_t k)
{
	if (io->subdirs)
		f->subdir = k;
	else
		f->target = k;
}

/* Clone k of file-engine job i (in group g), in target tg: its files,
 * shared with the earlier clones that name the same files in the same
 * order in the same target (fio's filename_format lets a filestat job
 * stat what a filecreate job made).
 * The jobs on one set of files run one after another, each finding them
 * as the one before left them: a create needs them absent (laid out
 * beforehand when the first job stats or deletes them), a stat or delete
 * present.  0 or -1 after a message. */
static int collect_fileop(struct io_suite *io, size_t i, size_t g, unsigned k, size_t tg)
{
	const struct io_job *j = &io->jobs[i];
	char **names = fileop_names(j, k);
	struct io_file *f = NULL;
	size_t x;

	if (!names)
		return -1;
	for (x = 0; x < io->nfiles && !f; x++) {
		struct io_file *e = &io->files[x];
		unsigned n = 0;

		if (!e->names || e->nfiles != j->nrfiles || e->target != tg ||
		    strcmp(e->names[0], names[0]))
			continue;
		while (n < j->nrfiles && !strcmp(e->names[n], names[n]))
			n++;
		if (n == j->nrfiles)
			f = e;
	}
	if (!f) {
		size_t before = io->nfiles;
		char name[300];

		/* a new set of files: the fileset is named after its first clone */
		snprintf(name, sizeof(name), "%s.%u", j->name, k);
		f = file_of(io, name);
		if (io->nfiles == before) { /* jobs of one name */
			msg_err("job '%s': clone %u's files and another job's would have one name, "
				"'%s': give the jobs different names",
				j->name, k, name);
			goto fail;
		}
		f->names = names;
		f->nfiles = j->nrfiles;
		place(io, f, tg);
		f->dirs = j->fileop_dir;
		/* stat and delete need them made beforehand (fio lays them
		 * out); create makes them */
		f->read_first = j->fileop != IO_FILEOP_CREATE;
		f->exists = j->fileop != IO_FILEOP_DELETE;
		f->size = f->dirs ? 0 : io_job_file_size(j);
	} else {
		const struct io_job *last = &io->jobs[f->last_job];

		for (x = 0; x < j->nrfiles; x++)
			free(names[x]);
		free(names);
		names = NULL;
		if (f->last_group == g) {
			if (f->last_job == i)
				msg_err("job '%s': clones %u and %u have the same files "
					"('%s', ...) and run together: filename_format needs "
					"$jobnum here",
					j->name, f->last_clone, k, f->names[0]);
			else
				msg_err("jobs '%s' and '%s' have the same files ('%s', ...) in one "
					"group, where they run together: start '%s' a new group "
					"(stonewall)",
					last->name, j->name, f->names[0], j->name);
			return -1;
		}
		if (f->dirs != j->fileop_dir) {
			msg_err("job '%s' (%s) names the %s of job '%s' (%s): '%s', ...", j->name,
				j->ioengine_fio, f->dirs ? "directories" : "files", last->name,
				last->ioengine_fio, f->names[0]);
			return -1;
		}
		if (j->fileop == IO_FILEOP_CREATE && f->exists) {
			msg_err("job '%s': its %s ('%s', ...) already exist when it runs (left "
				"by job '%s'): %s needs them absent",
				j->name, f->dirs ? "directories" : "files", f->names[0], last->name,
				j->ioengine_fio);
			return -1;
		}
		if (j->fileop != IO_FILEOP_CREATE && !f->exists) {
			msg_err("job '%s': its %s ('%s', ...) no longer exist when it runs "
				"(deleted by job '%s'): fsgauge io lays them out only before the "
				"run",
				j->name, f->dirs ? "directories" : "files", f->names[0],
				last->name);
			return -1;
		}
		f->exists = j->fileop != IO_FILEOP_DELETE;
	}
	f->last_job = i;
	f->last_group = g;
	f->last_clone = k;
	io->clone_files = xrealloc(io->clone_files,
				   (io->nclone_files + 1) * sizeof(*io->clone_files));
	io->clone_files[io->nclone_files++] = (size_t)(f - io->files);
	return 0;
fail:
	for (x = 0; x < j->nrfiles; x++)
		free(names[x]);
	free(names);
	return -1;
}

/* A name two different files would have (two sets of a file engine's
 * files that overlap without being the same, or such a file and another
 * job's): the pairs of (name, file), sorted. */
struct io_name {
	size_t target; /* one name in two targets is two files */
	const char *name;
	size_t file;
	char *own; /* a name made for the check (another job's files) */
};

static int name_cmp(const void *a, const void *b)
{
	const struct io_name *x = a, *y = b;
	int c = (x->target > y->target) - (x->target < y->target);

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : (x->file > y->file) - (x->file < y->file);
}

/* Every name of a file engine's files is one set's only, and no other
 * job's file.  0 or -1 after a message. */
static int check_fileop_names(struct io_suite *io)
{
	struct io_name *v = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!io->nclone_files)
		return 0;
	for (size_t x = 0; x < io->nfiles; x++) {
		const struct io_file *f = &io->files[x];
		unsigned count = f->names || f->nfiles > 1 ? f->nfiles : 1;

		for (unsigned i = 0; i < count; i++) {
			char buf[320];

			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n] = (struct io_name){ f->target, f->names ? f->names[i] : f->name, x,
						 NULL };
			if (!f->names && f->nfiles > 1) {
				snprintf(buf, sizeof(buf), "%s.%u", f->name, i);
				v[n].name = v[n].own = xstrdup(buf);
			}
			n++;
		}
	}
	qsort(v, n, sizeof(*v), name_cmp);
	for (size_t x = 1; x < n && !ret; x++) {
		const struct io_file *a = &io->files[v[x - 1].file], *b = &io->files[v[x].file];

		if (v[x - 1].target != v[x].target || strcmp(v[x - 1].name, v[x].name))
			continue;
		ret = -1;
		if (a == b)
			msg_err("job '%s': filename_format gives two of clone %u's files the name "
				"'%s' (use $filenum)",
				io->jobs[a->last_job].name, a->last_clone, v[x].name);
		else if (a->names && b->names)
			msg_err("job '%s' clone %u and job '%s' clone %u name the file '%s' in two "
				"different sets of files: jobs share files when they name the same "
				"files in the same order (the same nrfiles)",
				io->jobs[a->last_job].name, a->last_clone,
				io->jobs[b->last_job].name, b->last_clone, v[x].name);
		else
			msg_err("job '%s': filename_format names the file '%s' of another job",
				io->jobs[(a->names ? a : b)->last_job].name, v[x].name);
	}
	for (size_t x = 0; x < n; x++)
		free(v[x].own);
	free(v);
	return ret;
}

/* rw=trim, randtrim, trimwrite, randtrimwrite: a block device (fio's
 * engines refuse trims on regular files too; only its falloc engine
 * punches holes).  Each trim is a BLKDISCARD ioctl on every engine, as
 * fio 3.33's psync, libaio and io_uring issue it (libaio and io_uring
 * too, while the job's writes are in flight).  A job that only trims
 * takes no verify and no fsync options; trimwrite's writes take verify,
 * end_fsync and fsync_on_close as a write job's, but not fsync=N or
 * fdatasync=N, which fio 3.33 never issues in a trimwrite job.  0 or -1
 * after a message. */
static int check_trim(const struct io_job *j)
{
	const char *rw = io_rw_name(j->rw);

	if (j->rangeop == IO_RANGEOP_FALLOC)
		return 0; /* a punched hole in a regular file (check_rangeop) */
	if (!j->filename || blockdev_is(j->filename) != 1) {
		msg_err("job '%s': rw=%s needs a block device (filename=/dev/X): a trim discards "
			"a device's blocks, and fio's engines refuse it on a regular file too",
			j->name, rw);
		return -1;
	}
	if (io_job_trimwrite(j)) {
		if (!j->fsync && !j->fdatasync)
			return 0;
		msg_err("job '%s': rw=%s with %s is not supported by fsgauge io: fio syncs no "
			"trimwrite job every N writes (end_fsync and fsync_on_close sync once at "
			"the end; docs/io.md)",
			j->name, rw, j->fsync ? "fsync" : "fdatasync");
		return -1;
	}
	if (j->verify) {
		msg_err("job '%s': rw=%s with verify is not supported by fsgauge io (a trim "
			"writes no data to check)",
			j->name, rw);
		return -1;
	}
	if (j->fsync || j->fdatasync || j->end_fsync || j->fsync_on_close) {
		msg_err("job '%s': rw=%s with fsync, fdatasync, end_fsync or fsync_on_close is not "
			"supported by fsgauge io (a trim job writes nothing to sync)",
			j->name, rw);
		return -1;
	}
	return 0;
}

/* A falloc job's trims punch holes in a file laid out beforehand (as
 * fio's falloc trims a file it laid out). */
static int punches(const struct io_job *j)
{
	return j->rangeop == IO_RANGEOP_FALLOC && io_job_trims(j);
}

/* Several targets: each holds some job's files (a target none of them
 * goes to would be a run directory for nothing).  0 or -1 after a
 * message. */
static int targets_used(const struct suite_session *s, const struct io_suite *io, size_t nt)
{
	unsigned char *used;
	size_t k = 0;

	if (!io->nfiles) {
		msg_err("%s given %zu times, but the jobs have no file (ioengine=cpuio): give one %s",
			s->target_opt, nt, s->target_opt);
		return -1;
	}
	used = xcalloc(nt, 1);

	for (size_t i = 0; i < io->nfiles; i++)
		used[io->files[i].target] = 1;
	while (k < nt && used[k])
		k++;
	free(used);
	if (k == nt)
		return 0;
	msg_err("%s '%s' holds none of the jobs' files: with %zu directories clone N of each "
		"job works in directory N mod %zu (a filename= in the first), as fio's "
		"directory=/a:/b; give numjobs=%zu or more, or fewer directories (docs/io.md)",
		s->target_opt, suite_target(s, k), nt, nt, nt);
	return -1;
}

/* The files of every job (their sizes: the largest job on each) and
 * whether they are devices.  0 or -1 after a message. */
static int collect_files(struct suite_session *s, struct io_suite *io)
{
	size_t ndev = 0, nnamed = 0, nt = s->ntargets > 1 ? s->ntargets : 1;
	/* where clone k's files go: target k mod nt, or directory k mod
	 * ndirs of the run directory (relative directory=) */
	size_t places = io->subdirs ? io->ndirs : nt;

	for (size_t i = 0; i < io->njobs; i++) {
		struct io_job *j = &io->jobs[i];
		int device = 0;

		if (io_job_trims(j) && check_trim(j) < 0)
			return -1;
		if (j->cpuio)
			continue; /* no file */
		if (!j->filename) {
			if (!(j->given & IOJ_SIZE)) {
				msg_err("job '%s': no size given (--size)", j->name);
				return -1;
			}
			for (unsigned k = 0; k < j->numjobs; k++) {
				char name[300];
				struct io_file *f;

				if (j->fileop) {
					if (collect_fileop(io, i, group_of(io, i), k, k % places) < 0)
						return -1;
					continue;
				}
				/* nrfiles: fio's <job>.<clone>.<file>, one flat
				 * fileset "<job>.<clone>" per clone */
				if (io_job_multi(j))
					snprintf(name, sizeof(name), "%s.%u", j->name, k);
				else
					snprintf(name, sizeof(name), "%s.%u.0", j->name, k);
				f = file_of(io, name);
				place(io, f, k % places);
				f->nfiles = io_job_multi(j) ? j->nrfiles : 0;
				/* the file holds the clone's region */
				if (region_end(j, k, io_job_file_size(j), &f->size) < 0)
					return -1;
				f->read_first |= io_job_reads(j) || punches(j);
				f->written |= io_job_writes(j) || io_job_trims(j);
			}
			continue;
		}
		if (check_filename(j, &device) < 0)
			return -1;
		if (device && j->rangeop) {
			msg_err("job '%s': ioengine=%s needs a regular file, not block device '%s' (as "
				"fio's)",
				j->name, j->ioengine_fio, j->filename);
			return -1;
		}
		struct io_file *f = file_of(io, j->filename);

		nnamed++;
		ndev += device;
		f->device = device;
		f->users += j->numjobs;
		/* a device's regions are placed when its size is known */
		for (unsigned k = 0; k < j->numjobs && !device; k++)
			if (region_end(j, k, io_job_file_size(j), &f->size) < 0)
				return -1;
		f->read_first |= io_job_reads(j) || punches(j);
		f->written |= io_job_writes(j) || io_job_trims(j);
		if (!device && !(j->given & IOJ_SIZE)) {
			msg_err("job '%s': no size given (--size)", j->name);
			return -1;
		}
	}
	if (ndev && ndev != io->njobs) {
		msg_err("the jobs name block devices and files: give only devices or only files");
		return -1;
	}
	if (ndev && s->dir) {
		msg_err("-d does not apply to a block device target ('%s'): nothing is created on it",
			io->files[0].name);
		return -1;
	}
	io->devices = ndev > 0;
	(void)nnamed;
	if (check_fileop_names(io) < 0)
		return -1;
	/* (one target holds every file there is: a cpuio job has none) */
	return ndev || nt < 2 ? 0 : targets_used(s, io, nt);
}

/* Job j's regions on device f (its size known): each must fit; f->size
 * becomes the end of the last.  0 or -1 after a message. */
static int device_regions(const struct io_job *j, struct io_file *f)
{
	uint64_t dev = f->devsize, want = io_job_file_size(j);

	for (unsigned k = 0; k < j->numjobs; k++) {
		uint64_t base, region;
		int r = io_job_offset(j, k, dev, &base);

		if (!r && !base && want > dev) {
			msg_err("size %llu does not fit on block device '%s' (%llu bytes)",
				(unsigned long long)want, f->name, (unsigned long long)dev);
			return -1;
		}
		if (r < 0 || base >= dev) {
			msg_err("job '%s': offset %llu%s is not inside block device '%s' (%llu bytes)",
				j->name, r < 0 ? (unsigned long long)j->offset : (unsigned long long)base,
				k ? " (with offset_increment)" : "", f->name, (unsigned long long)dev);
			return -1;
		}
		/* without size: the rest of the device (fio's rule) */
		region = want ? want : dev - base;
		if (region > dev - base) {
			msg_err("job '%s': offset %llu + size %llu does not fit on block device '%s' "
				"(%llu bytes)",
				j->name, (unsigned long long)base, (unsigned long long)region, f->name,
				(unsigned long long)dev);
			return -1;
		}
		f->size = MAX(f->size, base + region);
	}
	return 0;
}

/* Device f, when a job trims it, must discard (/sys's discard_max_bytes
 * above 0), so that a device without it is refused before the run
 * instead of failing its first request.  0 or -1 after a message. */
static int check_discard(const struct io_suite *io, const struct io_file *f)
{
	uint64_t max = 0;
	int r;

	for (size_t k = 0; k < io->njobs; k++) {
		const struct io_job *j = &io->jobs[k];

		if (!io_job_trims(j) || !j->filename || strcmp(j->filename, f->name))
			continue;
		r = blockdev_discard_max(f->fd, &max);
		if (r < 0 || !max) {
			msg_err("job '%s': rw=%s: block device '%s' does not support discard "
				"(%s)",
				j->name, io_rw_name(j->rw), f->name,
				r < 0 ? "its queue's discard_max_bytes cannot be read"
				      : "its queue's discard_max_bytes is 0");
			return -1;
		}
		return 0;
	}
	return 0;
}

static int open_devices(struct suite_session *s, struct io_suite *io)
{
	for (size_t i = 0; i < io->nfiles; i++) {
		struct io_file *f = &io->files[i];
		struct blockdev_policy p = io->policy;
		uint64_t size;
		int flags = 0;

		p.write = f->written;
		for (size_t k = 0; k < io->njobs; k++)
			if (io->jobs[k].filename && !strcmp(io->jobs[k].filename, f->name))
				flags |= (io->jobs[k].direct ? O_DIRECT : 0) |
					 (io->jobs[k].sync ? O_SYNC : 0) |
					 (io->jobs[k].dsync ? O_DSYNC : 0);
		f->fd = blockdev_open(f->name, &p, flags);
		if (f->fd < 0)
			return f->fd == BLOCKDEV_REFUSED ? EXIT_USAGE : EXIT_SYSTEM;
		if (blockdev_size(f->fd, &size) < 0) {
			err_errno(-errno, "cannot get the size of block device '%s'", f->name);
			return EXIT_SYSTEM;
		}
		f->devsize = size;
		f->size = 0;
		if (check_discard(io, f) < 0)
			return EXIT_USAGE;
		for (size_t k = 0; k < io->njobs; k++)
			if (io->jobs[k].filename && !strcmp(io->jobs[k].filename, f->name) &&
			    device_regions(&io->jobs[k], f) < 0)
				return EXIT_USAGE;
		if (s->chatter)
			fprintf(stderr, "block device: %s (%s; nothing is created or removed)\n",
				f->name, p.write ? "written" : "read only");
	}
	return EXIT_OK;
}

/* --- the model ------------------------------------------------------------------ */

/* The block size of direction d: a constant, or a random variable for
 * bsrange= and bssplit=. */
static struct wl_val block_size(struct workload *w, const struct io_job *j, int d)
{
	struct randvar *rv;

	if (j->nsplit[d]) {
		rv = wl_add_randvar(w, RV_TABULAR);
		rv->table = xcalloc(j->nsplit[d], sizeof(*rv->table));
		rv->ntable = j->nsplit[d];
		for (size_t i = 0; i < j->nsplit[d]; i++)
			rv->table[i] = (struct rv_bucket){ j->split[d][i].pct,
							   (double)j->split[d][i].size,
							   (double)j->split[d][i].size };
	} else if (j->bs_lo[d]) {
		rv = wl_add_randvar(w, RV_UNIFORM);
		rv->min = (double)j->bs_lo[d];
		rv->max = (double)j->bs_hi[d];
		rv->lower = rv->min;
		rv->upper = rv->max;
		rv->round = (double)j->bs_lo[d];
	} else {
		return wl_int((int64_t)j->bs[d]);
	}
	struct wl_val v = { .kind = WLV_RAND, .rv = rv };
	return v;
}

/* The job's one block size, or 0: bsrange, bssplit, or reads and writes
 * of different sizes. */
static uint64_t fixed_bs(const struct io_job *j)
{
	if (j->bs_lo[0] || j->bs_lo[1] || j->nsplit[0] || j->nsplit[1] || j->bs[0] != j->bs[1])
		return 0;
	return j->bs[0];
}

/* Bytes one clone transfers: io_size (or size), loops times; `region`:
 * the bytes of each of its files it works in.  Without io_size, a pass
 * over a file is the whole blocks that fit in its region, as fio's (a
 * 36 KiB file written 8 KiB at a time: 4 writes, not a fifth past it). */
static int64_t clone_bytes(const struct io_job *j, const struct io_file *f, uint64_t region)
{
	uint64_t bytes = j->io_size	 ? j->io_size
			 : j->size	 ? j->size
			 : f->nfiles > 1 ? region * f->nfiles
					 : region;
	uint64_t bs = fixed_bs(j);

	if (!j->io_size && bs && region >= bs && region % bs && !j->fileop && !j->rangeop &&
	    !j->cpuio)
		bytes = (region - region % bs) * (f->nfiles > 1 ? f->nfiles : 1);
	return (int64_t)(bytes * j->loops);
}

static struct wl_flowop *add_op(struct wl_thread *t, enum flowop_type type, const char *job,
				const char *what, struct wl_fileset *fs)
{
	char name[320];
	struct wl_flowop *fo;

	snprintf(name, sizeof(name), "%s.%s", job, what);
	fo = wl_add_flowop(t, type, name, fs);
	fo->fd = wl_int(1);
	return fo;
}

/* A sync flowop "<job>.<what>" that the job's write flowop runs (runner.c,
 * bind_sync_targets); jn: the job's name in its operations' names
 * (clone_name()). */
static void add_sync_op(struct wl_thread *t, const struct io_job *j, const char *jn,
			const char *what, unsigned every, int atend)
{
	char target[320];
	struct wl_flowop *fo = add_op(t, FO_FSYNC, jn, what, NULL);

	/* the job's write flowop, or its rwmix or trimwrite write (named
	 * after the job) */
	if (io_job_mixed(j) || io_job_trimwrite(j))
		snprintf(target, sizeof(target), "%s", jn);
	else
		snprintf(target, sizeof(target), "%s.write", jn);
	fo->target = wl_str(target);
	fo->every = wl_int(every);
	fo->atend = wl_bool(atend);
	fo->datasync = wl_bool(!strcmp(what, "fdatasync"));
}

/* fio's fsync=, fdatasync=, end_fsync=, fsync_on_close= of a write job
 * (a read-only job has no sync, as in fio): "<job>.fsync" every N writes
 * and/or at the end, "<job>.fdatasync" every N writes. */
static void add_sync(struct wl_thread *t, const struct io_job *j, const char *jn)
{
	int atend = j->end_fsync || j->fsync_on_close;

	if (j->fdatasync)
		add_sync_op(t, j, jn, "fdatasync", j->fdatasync, 0);
	if (j->fsync || atend)
		add_sync_op(t, j, jn, "fsync", j->fsync, atend);
}

/* The job's name in the names of a clone's operations on file f: the
 * job's, or with several targets "<job>@K" (K = f's target + 1), so that
 * each target's figures are its own ("j@2.read": docs/targets.md). */
static const char *clone_name(const struct suite_session *s, const struct io_job *j,
			      const struct io_file *f, char *buf, size_t len)
{
	if (s->nrd < 2)
		return j->name;
	snprintf(buf, len, "%s@%zu", j->name, f->target + 1);
	return buf;
}

/* The POSIX_FADV_* advice of a job's fadvise_hint= (fio's: with 1, random
 * for a random rw=, else sequential). */
static int fadvise_advice(const struct io_job *j)
{
	switch (j->fadvise_hint) {
	case IO_FADV_TYPE:
		return io_job_random(j) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case IO_FADV_RANDOM:
		return POSIX_FADV_RANDOM;
	case IO_FADV_NOREUSE:
		return POSIX_FADV_NOREUSE;
	default:
		return POSIX_FADV_SEQUENTIAL;
	}
}

/* What a job's files are opened with, at each open (the open flowop's,
 * the request flowop's as it goes round its files, a read-back's):
 * direct, invalidate, fadvise_hint. */
static void open_options(struct wl_flowop *fo, const struct io_job *j)
{
	if (j->direct)
		fo->directio = wl_bool(1);
	if (j->invalidate)
		fo->invalidate = wl_bool(1);
	if (j->fadvise_hint)
		fo->fadvise = wl_int(1 + fadvise_advice(j));
}

/* fallocate(2)'s mode for a falloc job's requests, as fio's: a write
 * allocates (the file grows), a read allocates keeping the size, a trim
 * punches a hole. */
static int falloc_mode(const struct io_job *j)
{
	return io_job_trims(j)	   ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
	       : io_job_writes(j) ? 0
				  : FALLOC_FL_KEEP_SIZE;
}

/* The flowop of a clone's requests: an rwmix (mixed jobs) or a
 * trimwrite write (trimwrite, randtrimwrite), named after the job, whose
 * operations the runner counts as "<job>.read" and "<job>.write", or
 * "<job>.trim" and "<job>.write"; else a read or write "<job>.<what>". */
static struct wl_flowop *add_requests(struct wl_thread *t, const struct io_job *j,
				      const char *jn, int d, const char *what,
				      struct wl_fileset *fs)
{
	struct wl_flowop *fo;

	if (io_job_mixed(j))
		return wl_add_rwmix(t, jn, fs, (int)j->rwmixread);
	if (!io_job_trimwrite(j))
		return add_op(t, d == IO_DIR_WRITE ? FO_WRITE : FO_READ, jn, what, fs);
	fo = wl_add_flowop(t, FO_WRITE, jn, fs);
	fo->trimwrite = wl_bool(1);
	return fo;
}

/* Clone k's region in its file f, [*base, *base + *region): checked to
 * fit when the files were collected (collect_files, device_regions). */
static void clone_region(const struct io_job *j, unsigned k, const struct io_file *f,
			 uint64_t *base, uint64_t *region)
{
	*base = 0;
	(void)io_job_offset(j, k, f->device ? f->devsize : io_job_file_size(j), base);
	*region = io_job_file_size(j) ? io_job_file_size(j) : f->devsize - *base;
}

/* The largest request of the job's direction d (bs, bsrange's high end
 * or bssplit's largest entry). */
static uint64_t max_bs(const struct io_job *j, int d)
{
	uint64_t m = j->nsplit[d] ? 0 : j->bs_lo[d] ? j->bs_hi[d] : j->bs[d];

	for (size_t i = 0; i < j->nsplit[d]; i++)
		m = MAX(m, j->split[d][i].size);
	return m;
}

static void build_clone(struct suite_session *s, struct io_suite *io, const struct io_job *j,
			struct wl_process *p, unsigned k, struct io_file *f)
{
	/* a trim is a write flowop with trim= (its requests take the write
	 * block size), counted as "<job>.trim"; trimwrite's is one with
	 * trimwrite= */
	int d = io_job_writes(j) || io_job_trims(j) ? IO_DIR_WRITE : IO_DIR_READ;
	const char *what = io_job_trims(j) ? "trim" : d == IO_DIR_WRITE ? "write" : "read";
	int async = (engine_spec_caps(s->ro.engine) & ENGINE_ASYNC) != 0;
	char th[300];
	struct wl_thread *t;
	struct wl_flowop *fo;
	uint64_t bs_max = max_bs(j, d);
	uint64_t base, region;
	char jb[300];
	const char *jn = clone_name(s, j, f, jb, sizeof(jb));

	snprintf(th, sizeof(th), "%s.%u", j->name, k);
	t = wl_add_thread(p, th, 1, (int64_t)MAX(bs_max, 4096) * (async ? j->iodepth : 1));
	if (f->nfiles > 1) {
		/* nrfiles: the request flowop goes round the clone's files,
		 * opening them itself (untimed, as fio counts no opens) */
		fo = add_requests(t, j, jn, d, what, f->fs);
		fo->fd = (struct wl_val){ 0 };
		fo->rotate = wl_int(j->fst_nr);
		if (j->fst_random)
			fo->rotate_random = wl_bool(1);
		if (j->openfiles && j->openfiles < j->nrfiles)
			fo->openfiles = wl_int(j->openfiles);
	} else {
		int made = f->read_first || f->device || f->shared_empty;

		fo = add_op(t, made ? FO_OPENFILE : FO_CREATEFILE, jn, "open", f->fs);
	}
	open_options(fo, j);
	if (j->sync)
		fo->osync = wl_bool(1);
	if (j->dsync)
		fo->dsync = wl_bool(1);
	if (f->nfiles <= 1) {
		/* (with nrfiles, the request flowop made above) */
		fo = add_requests(t, j, jn, d, what, f->fs);
		fo->fd = wl_int(1);
	}
	fo->iosize = block_size(io->w, j, d);
	if (j->rangeop == IO_RANGEOP_FTRUNCATE)
		fo->truncate = wl_bool(1);
	else if (j->rangeop == IO_RANGEOP_FALLOC)
		fo->fallocate = wl_int(falloc_mode(j));
	clone_region(j, k, f, &base, &region);
	fo->wss = wl_int((int64_t)region);
	if (base)
		fo->offset = wl_int((int64_t)base);
	if (io_job_random(j)) {
		fo->random = wl_bool(1);
		if (j->random_distribution)
			fo->random_distribution = wl_str(j->random_distribution);
		if (j->percentage_random < 100)
			fo->percentage_random = wl_int(j->percentage_random);
		/* fio's default: each block once per pass, for uniform offsets */
		if (!j->norandommap && !j->random_distribution && j->percentage_random == 100)
			fo->randommap = wl_bool(1);
	}
	if (async && j->iodepth > 1) {
		fo->iodepth = wl_int(j->iodepth);
		fo->iodepth_batch = wl_int(j->iodepth_batch);
		if (j->batch_complete_min > 1)
			fo->reap_min = wl_int(j->batch_complete_min);
		if (j->given & IOJ_BATCH_MAX)
			fo->reap_max = wl_int(j->batch_complete_max);
	}
	if (j->rate_iops)
		fo->rate_iops = wl_dbl((double)j->rate_iops);
	if (j->rate)
		fo->rate = wl_int((int64_t)j->rate);
	if (j->rate_min)
		fo->rate_min = wl_int((int64_t)j->rate_min);
	if (j->rate_process)
		fo->rate_process = wl_str(j->rate_process == 2 ? "poisson" : "linear");
	if (j->thinktime > 0) {
		fo->thinktime = wl_dbl(j->thinktime);
		fo->thinktime_spin = wl_dbl(j->thinktime_spin);
		fo->thinktime_blocks = wl_int(j->thinktime_blocks);
	}
	/* the request loop: until iobytes= is spent (the thread is then
	 * done), or the runtime */
	if (io_job_trims(j) && !io_job_trimwrite(j))
		fo->trim = wl_bool(1);
	fo->iters = wl_int(INT64_MAX);
	if (!j->time_based)
		fo->iobytes = wl_int(clone_bytes(j, f, region));
	if (io_job_writes(j))
		add_sync(t, j, jn);
	if (f->nfiles <= 1)
		add_op(t, FO_CLOSEFILE, jn, "close", f->fs);
	wl_add_flowop(t, FO_THREADDONE, "done", NULL);
}

/* Clone k's read-back (verify with do_verify: io_job_reads_back), a
 * thread of the job's process in the phase after its group's, as fio's
 * verify phase after a job's writes: one readback read flowop
 * "<job>.verify" over the clone's files and region, which reads back
 * the blocks the group's writes reached there (the file's written map,
 * made to cover every reading clone's region), each run of them within
 * a piece of the job's largest write size as one request (a write of bs
 * is read back as one read of bs, as fio's), checks each block and is
 * done.  It opens its files itself, untimed (fio counts no opens), with
 * the job's direct, invalidate and fadvise_hint, one at a time. */
static void build_readback_clone(const struct suite_session *s, const struct io_job *j,
				 struct wl_process *p, unsigned k, struct io_file *f)
{
	uint64_t base, region, piece = max_bs(j, IO_DIR_WRITE);
	char th[300], jb[300];
	const char *jn = clone_name(s, j, f, jb, sizeof(jb));
	struct wl_thread *t;
	struct wl_flowop *fo;

	clone_region(j, k, f, &base, &region);
	/* the map covers every reading clone's region */
	f->fs->written_map = MAX(f->fs->written_map, base + region);
	snprintf(th, sizeof(th), "%s.%u", j->name, k);
	t = wl_add_thread(p, th, 1, (int64_t)MAX(piece, 4096));
	fo = add_op(t, FO_READ, jn, "verify", f->fs);
	fo->fd = (struct wl_val){ 0 };
	fo->readback = wl_bool(1);
	fo->rotate = wl_int(1);
	fo->openfiles = wl_int(1);
	fo->iosize = wl_int((int64_t)piece);
	fo->wss = wl_int((int64_t)region);
	if (base)
		fo->offset = wl_int((int64_t)base);
	open_options(fo, j);
	fo->iters = wl_int(INT64_MAX);
	wl_add_flowop(t, FO_THREADDONE, "done", NULL);
}

/* A clone of a file engine's job (fio's filecreate, filestat,
 * filedelete): one ordered pass over its files, each file's create
 * (open O_CREAT, left open until the next create: the close is untimed,
 * as fio's), stat or unlink timed as one operation, counted in fio's
 * direction of the job's rw= (read unless it only writes, as fio), then
 * done. */
static void build_fileop_clone(const struct suite_session *s, struct wl_process *p,
			       const struct io_job *j, unsigned k, struct io_file *f)
{
	static const enum flowop_type types[2][4] = {
		{ [IO_FILEOP_CREATE] = FO_CREATEFILE, [IO_FILEOP_STAT] = FO_STATFILE,
		  [IO_FILEOP_DELETE] = FO_DELETEFILE },
		{ [IO_FILEOP_CREATE] = FO_MAKEDIR, [IO_FILEOP_STAT] = FO_STATFILE,
		  [IO_FILEOP_DELETE] = FO_REMOVEDIR },
	};
	int reads = io_job_reads(j);
	char th[300], jb[300];
	const char *jn = clone_name(s, j, f, jb, sizeof(jb));
	struct wl_thread *t;
	struct wl_flowop *fo;

	snprintf(th, sizeof(th), "%s.%u", j->name, k);
	t = wl_add_thread(p, th, 1, 4096);
	fo = add_op(t, types[j->fileop_dir][j->fileop], jn, reads ? "read" : "write", f->fs);
	if (j->fileop != IO_FILEOP_CREATE || j->fileop_dir)
		fo->fd = (struct wl_val){ 0 }; /* by path: not a slot's file */
	fo->ordered = wl_bool(1);
	fo->iters = wl_int(j->nrfiles);
	wl_add_flowop(t, FO_THREADDONE, "done", NULL);
}

/* A clone of a cpuio job: each request cpuchunks microseconds on the CPU
 * (a delay flowop with spin=, timed: the request's latency), then a sleep
 * of cpuchunks * (100 - cpuload) / cpuload microseconds (untimed, as
 * fio's thinktime after each), counted as <job>.read (fio counts its
 * chunks as reads whatever rw= says), until the runtime. */
static void build_cpuio_clone(struct wl_process *p, const struct io_job *j, unsigned k)
{
	double load = j->cpuload > 100 ? 100.0 : (double)j->cpuload; /* fio's cap */
	double chunk = (double)j->cpuchunks / 1e6;
	char th[300];
	struct wl_thread *t;
	struct wl_flowop *fo;

	snprintf(th, sizeof(th), "%s.%u", j->name, k);
	t = wl_add_thread(p, th, 1, 4096);
	fo = add_op(t, FO_DELAY, j->name, "read", NULL);
	fo->fd = (struct wl_val){ 0 };
	fo->value = wl_dbl(chunk);
	fo->spin = wl_bool(1);
	if (load < 100.0)
		fo->thinktime = wl_dbl(chunk * (100.0 - load) / load);
}

static void build_model(struct suite_session *s, struct io_suite *io)
{
	io->w = wl_new("io");
	if (!io->devices)
		workload_set_var(io->w, "dir", s->rd->path);
	for (size_t i = 0; i < io->nfiles; i++) {
		struct io_file *f = &io->files[i];

		if (f->names) { /* handed to the workload */
			f->fs = wl_add_named_fileset(io->w, f->name, f->names, f->nfiles,
						     (int64_t)f->size, f->dirs,
						     f->read_first ? 100 : 0);
			f->names = NULL;
		} else if (f->nfiles > 1) {
			f->fs = wl_add_flat_fileset(io->w, f->name, f->nfiles, (int64_t)f->size,
						    f->read_first ? 100 : 0);
		} else {
			f->fs = wl_add_file(io->w, f->name, (int64_t)f->size);
		}
		/* several targets: in its own target's run directory; relative
		 * directory=: in its directory inside the run directory */
		if (!f->device && io->subdirs) {
			char *path = xasprintf("%s/%s", s->rds[f->target].path, io->dirs[f->subdir]);

			f->fs->path = wl_str(path);
			free(path);
		} else if (!f->device && s->nrd > 1) {
			f->fs->path = wl_str(s->rds[f->target].path);
		}
		if (f->fs->names || f->nfiles > 1) {
			continue;
		} else if (f->device) {
			f->fs->has_device = 1;
			f->fs->device_fd = f->fd;
			f->fs->device_flags = f->written ? O_RDWR : O_RDONLY;
			f->fs->device_path = xstrdup(f->name);
		} else if (f->read_first) {
			f->fs->prealloc = wl_int(100);
		} else if (f->users > 1) {
			/* written only, by several clones: made empty beforehand
			 * and opened by each (a clone's create would truncate
			 * what the others wrote) */
			f->fs->size = wl_int(0);
			f->fs->prealloc = wl_int(100);
			f->shared_empty = 1;
		}
	}
	io->procs = xcalloc(io->njobs, sizeof(*io->procs));
	io->vprocs = xcalloc(io->njobs, sizeof(*io->vprocs));
	size_t c = 0; /* the file engines' clones, in collect_fileop's order */

	for (size_t i = 0; i < io->njobs; i++) {
		const struct io_job *j = &io->jobs[i];

		io->procs[i] = wl_add_process(io->w, j->name, 1);
		if (io_job_reads_back(j))
			io->vprocs[i] = wl_new_process(j->name, 1);
		for (unsigned k = 0; k < j->numjobs; k++) {
			char name[300];

			if (j->filename)
				snprintf(name, sizeof(name), "%s", j->filename);
			else if (io_job_multi(j))
				snprintf(name, sizeof(name), "%s.%u", j->name, k);
			else
				snprintf(name, sizeof(name), "%s.%u.0", j->name, k);
			if (j->cpuio)
				build_cpuio_clone(io->procs[i], j, k);
			else if (j->fileop)
				build_fileop_clone(s, io->procs[i], j, k,
						   &io->files[io->clone_files[c++]]);
			else
				build_clone(s, io, j, io->procs[i], k, file_of(io, name));
			if (io->vprocs[i])
				build_readback_clone(s, j, io->vprocs[i], k, file_of(io, name));
		}
	}
}

/* A falloc job on a file system without fallocate(2), or without the
 * mode its requests use (ext4 on files without extents, FUSE), would
 * fail its first request: refused before the run instead, after a probe
 * of that mode on a file of the run directory (made and removed here, not
 * measured).  EXIT_OK, or EXIT_USAGE / EXIT_SYSTEM after a message. */
static int check_falloc(const struct suite_session *s, const struct io_suite *io)
{
	static const char probe[] = ".fsgauge-falloc-probe";

	for (size_t i = 0; i < io->njobs && !io->devices; i++) {
		const struct io_job *j = &io->jobs[i];
		int fd, r, e, mode = falloc_mode(j);

		if (j->rangeop != IO_RANGEOP_FALLOC)
			continue;
		fd = openat(s->rd->fd, probe, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd < 0) {
			err_errno(-errno, "cannot create '%s/%s'", s->rd->path, probe);
			return EXIT_SYSTEM;
		}
		r = fallocate(fd, mode, 0, 4096);
		e = errno;
		close(fd);
		(void)unlinkat(s->rd->fd, probe, 0);
		if (r < 0 && (e == EOPNOTSUPP || e == ENOSYS)) {
			msg_err("job '%s': ioengine=falloc: the file system of '%s' does not support "
				"fallocate%s: %s",
				j->name, s->rd->parent,
				mode & FALLOC_FL_PUNCH_HOLE ? " with FALLOC_FL_PUNCH_HOLE (rw=trim)"
				: mode			    ? " with FALLOC_FL_KEEP_SIZE (rw=read)"
							    : "",
				strerror(e));
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int io_plan(struct suite_session *s)
{
	struct io_suite *io = ctx(s);
	int ret;

	ret = check_falloc(s, io);
	if (ret != EXIT_OK)
		return ret;

	if (io->devices) {
		ret = open_devices(s, io);
		if (ret != EXIT_OK)
			return ret;
	}
	build_model(s, io);
	if (runner_needs(io->w, &s->ro, &s->needs) < 0)
		return EXIT_USAGE;
	/* several targets: each file's share in its own */
	if (s->nrd > 1 && runner_needs_targets(io->w, &s->ro, s->rds, s->nrd, s->tneeds) < 0)
		return EXIT_USAGE;
	s->has_needs = 1;
	s->w = io->w;
	s->workload = io->njobs == 1 ? io->jobs[0].name : "io";
	return EXIT_OK;
}

/* Where the files go: checked before the run directory is made. */
static int io_setup(struct suite_session *s)
{
	struct io_suite *io = ctx(s);

	if (collect_files(s, io) < 0)
		return EXIT_USAGE;
	if (io->devices)
		s->no_rundir = 1;
	return EXIT_OK;
}

/* --- running and reporting --------------------------------------------------------- */

/* io_uring's options of job j, when given. */
static void ring_params(struct kvlist *pl, const struct io_job *j)
{
	const struct {
		int on;
		const char *name;
	} flags[] = {
		{ j->sqthread_poll, "sqthread_poll" },
		{ j->registerfiles, "registerfiles" },
		{ j->fixedbufs, "fixedbufs" },
	};
	char key[256];

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (flags[i].on) {
			snprintf(key, sizeof(key), "job.%s.%s", j->name, flags[i].name);
			kv_add(pl, key, "1");
		}
	if (j->given & IOJ_SQPOLL_CPU) {
		snprintf(key, sizeof(key), "job.%s.sqthread_poll_cpu", j->name);
		kv_add(pl, key, "%u", j->sqthread_poll_cpu);
	}
}

static void job_params(struct kvlist *pl, const struct io_job *j)
{
	char key[300], a[32], b[32];

	snprintf(key, sizeof(key), "job.%s.rw", j->name);
	kv_add(pl, key, "%s", io_rw_name(j->rw));
	if (io_job_mixed(j)) {
		snprintf(key, sizeof(key), "job.%s.rwmixread", j->name);
		kv_add(pl, key, "%u", j->rwmixread);
	}
	snprintf(key, sizeof(key), "job.%s.bs", j->name);
	kv_add(pl, key, "%s,%s", size_format(j->bs[0], a, sizeof(a)),
	       size_format(j->bs[1], b, sizeof(b)));
	snprintf(key, sizeof(key), "job.%s.size", j->name);
	kv_add(pl, key, "%llu", (unsigned long long)j->size);
	if (io_job_multi(j)) {
		snprintf(key, sizeof(key), "job.%s.nrfiles", j->name);
		kv_add(pl, key, "%u", j->nrfiles);
		snprintf(key, sizeof(key), "job.%s.openfiles", j->name);
		kv_add(pl, key, "%u", j->openfiles && j->openfiles < j->nrfiles ? j->openfiles
										 : j->nrfiles);
		snprintf(key, sizeof(key), "job.%s.file_service_type", j->name);
		kv_add(pl, key, "%s:%u", j->fst_random ? "random" : "roundrobin", j->fst_nr);
	}
	if (j->filesize) {
		snprintf(key, sizeof(key), "job.%s.filesize", j->name);
		kv_add(pl, key, "%llu", (unsigned long long)j->filesize);
	}
	if (j->offset || j->offset_pct > 0) {
		snprintf(key, sizeof(key), "job.%s.offset", j->name);
		if (j->offset_pct >= 0)
			kv_add(pl, key, "%d%%", j->offset_pct);
		else
			kv_add(pl, key, "%llu", (unsigned long long)j->offset);
	}
	if (j->offset_increment) {
		snprintf(key, sizeof(key), "job.%s.offset_increment", j->name);
		kv_add(pl, key, "%llu", (unsigned long long)j->offset_increment);
	}
	snprintf(key, sizeof(key), "job.%s.numjobs", j->name);
	kv_add(pl, key, "%u", j->numjobs);
	snprintf(key, sizeof(key), "job.%s.iodepth", j->name);
	kv_add(pl, key, "%u", j->iodepth);
	snprintf(key, sizeof(key), "job.%s.ioengine", j->name);
	kv_add(pl, key, "%s", j->ioengine_fio);
	if (j->fileop == IO_FILEOP_STAT) {
		snprintf(key, sizeof(key), "job.%s.stat_type", j->name);
		kv_add(pl, key, "%s", j->stat_lstat ? "lstat" : "stat");
	}
	ring_params(pl, j);
	if (j->cpuio) {
		snprintf(key, sizeof(key), "job.%s.cpuload", j->name);
		kv_add(pl, key, "%u", MIN(j->cpuload, 100u));
		snprintf(key, sizeof(key), "job.%s.cpuchunks", j->name);
		kv_add(pl, key, "%u", j->cpuchunks);
	}
	if (j->fileop) {
		snprintf(key, sizeof(key), "job.%s.nrfiles", j->name);
		kv_add(pl, key, "%u", j->nrfiles);
	}
	if (j->filename_format) {
		snprintf(key, sizeof(key), "job.%s.filename_format", j->name);
		kv_add(pl, key, "%s", j->filename_format);
	}
	if (j->iodepth > 1) {
		snprintf(key, sizeof(key), "job.%s.iodepth_batch_complete_min", j->name);
		kv_add(pl, key, "%u", j->batch_complete_min);
		if (j->given & IOJ_BATCH_MAX) {
			snprintf(key, sizeof(key), "job.%s.iodepth_batch_complete_max", j->name);
			kv_add(pl, key, "%u", j->batch_complete_max);
		}
	}
	if (j->fadvise_hint) {
		static const char *const hints[] = { "0", "1", "sequential", "random", "noreuse" };

		snprintf(key, sizeof(key), "job.%s.fadvise_hint", j->name);
		kv_add(pl, key, "%s", hints[j->fadvise_hint]);
	}
	if (j->invalidate) {
		snprintf(key, sizeof(key), "job.%s.invalidate", j->name);
		kv_add(pl, key, "%d", j->invalidate);
	}
	if (j->verify) {
		snprintf(key, sizeof(key), "job.%s.do_verify", j->name);
		kv_add(pl, key, "%d", j->do_verify);
	}
	snprintf(key, sizeof(key), "job.%s.direct", j->name);
	kv_add(pl, key, "%d", j->direct);
	snprintf(key, sizeof(key), "job.%s.sync", j->name);
	kv_add(pl, key, "%d", j->sync);
	snprintf(key, sizeof(key), "job.%s.time_based", j->name);
	kv_add(pl, key, "%d", j->time_based);
	snprintf(key, sizeof(key), "job.%s.runtime", j->name);
	kv_add(pl, key, "%g", j->runtime);
	if (j->startdelay > 0) {
		snprintf(key, sizeof(key), "job.%s.startdelay", j->name);
		kv_add(pl, key, "%g", j->startdelay);
	}
	if (j->thinktime > 0) {
		/* in microseconds, fio's unit */
		snprintf(key, sizeof(key), "job.%s.thinktime", j->name);
		kv_add(pl, key, "%g", j->thinktime * 1e6);
		snprintf(key, sizeof(key), "job.%s.thinktime_blocks", j->name);
		kv_add(pl, key, "%u", j->thinktime_blocks);
		snprintf(key, sizeof(key), "job.%s.thinktime_spin", j->name);
		kv_add(pl, key, "%g", j->thinktime_spin * 1e6);
	}
	if (j->filename) {
		snprintf(key, sizeof(key), "job.%s.filename", j->name);
		kv_add(pl, key, "%s", j->filename);
	}
}

static void io_params(struct suite_session *s, struct result *res)
{
	struct io_suite *io = ctx(s);

	kv_add(&res->params, "jobs", "%zu", io->njobs);
	kv_add(&res->params, "target", "%s", io->devices ? "block device" : "directory");
	for (size_t i = 0; i < io->njobs; i++)
		job_params(&res->params, &io->jobs[i]);
	if (io->devices)
		kv_add(&res->params, "allow_write_device", "%s",
		       io->policy.allow_write ? "true" : "false");
}

/* The requests of phase p's operations (all, or with k > 0 target k's:
 * suite_op_target()) per direction, reads, writes and trims: their count
 * and bytes. */
static void dir_totals(const struct result_phase *p, size_t k, uint64_t ops[3], uint64_t bytes[3])
{
	struct result_phase sub;
	const struct result_phase *ph = p;

	if (k) {
		suite_target_phase(p, k, &sub);
		ph = &sub;
	}
	memset(ops, 0, 3 * sizeof(*ops));
	memset(bytes, 0, 3 * sizeof(*bytes));
	for (size_t i = 0; i < ph->nops; i++) {
		const struct result_op *o = &ph->ops[i];
		size_t n = strlen(o->name);

		/* (a read-back's "<job>.verify" are reads: docs/io.md, "Verify") */
		if ((n > 5 && !strcmp(o->name + n - 5, ".read")) ||
		    (n > 7 && !strcmp(o->name + n - 7, ".verify"))) {
			ops[0] += o->st.ops;
			bytes[0] += o->st.bytes_read;
		} else if (n > 6 && !strcmp(o->name + n - 6, ".write")) {
			ops[1] += o->st.ops;
			bytes[1] += o->st.bytes_written;
		} else if (n > 5 && !strcmp(o->name + n - 5, ".trim")) {
			ops[2] += o->st.ops;
			bytes[2] += o->st.bytes_trimmed;
		}
	}
	if (k)
		free(sub.ops);
}

/* The group's figures as phase metrics (the suite's metrics table); with
 * several targets each target's too, as NAME@K (k from 1 to ntg). */
static void group_metrics(struct result_phase *ph, size_t ntg)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	uint64_t ops[3], bytes[3];
	double secs = ph->seconds > 0 ? ph->seconds : 0;

	if (!(secs > 0))
		return;
	for (size_t k = 0; k <= ntg; k++) {
		dir_totals(ph, k, ops, bytes);
		for (int d = 0; d < 3; d++) {
			char iops[64], bw[64];

			if (!ops[d])
				continue;
			snprintf(iops, sizeof(iops), "%s_iops", dirs[d]);
			snprintf(bw, sizeof(bw), "%s_bw", dirs[d]);
			if (k) {
				snprintf(iops + strlen(iops), sizeof(iops) - strlen(iops), "@%zu", k);
				snprintf(bw + strlen(bw), sizeof(bw) - strlen(bw), "@%zu", k);
			}
			result_phase_add_metric(ph, iops, "IOPS", (double)ops[d] / secs);
			result_phase_add_metric(ph, bw, "KiB/s", (double)bytes[d] / 1024.0 / secs);
		}
		if (ntg < 2)
			break;
	}
}

/* One phase's lines of targets_text(): its requests per target, count,
 * IOPS and bandwidth over the phase's time, per direction. */
static void targets_phase(FILE *f, const struct suite_session *s, const struct result_phase *ph,
			  size_t g, int readback)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	double secs = ph->seconds > 0 ? ph->seconds : 1e-9;

	fprintf(f, "\nTargets, group %zu%s (%s):\n", g, readback ? " read-back" : "", ph->name);
	for (size_t k = 1; k <= s->nrd; k++) {
		uint64_t ops[3], bytes[3];
		int any = 0;

		dir_totals(ph, k, ops, bytes);
		fprintf(f, "  target %zu '%s':", k, suite_target(s, k - 1));
		for (int d = 0; d < 3; d++) {
			if (!ops[d])
				continue;
			fprintf(f, "%s %s: ios=%llu, IOPS=%.1f, BW=%.1fKiB/s", any ? ";" : "",
				dirs[d], (unsigned long long)ops[d], (double)ops[d] / secs,
				(double)bytes[d] / 1024.0 / secs);
			any = 1;
		}
		fprintf(f, "%s\n", any ? "" : " no requests");
	}
}

/* Several targets: after fio's report, each group's requests per target
 * (its clones' files are there), and its read-back's. */
static void targets_text(FILE *f, const struct suite_session *s, struct io_suite *io,
			 const struct result *acc)
{
	struct io_gphases *gps = xcalloc(io->ngroups ? io->ngroups : 1, sizeof(*gps));
	size_t ran = io_group_phases(acc, io->jobs, io->groups, io->ngroups, gps);

	for (size_t g = 0; g < ran; g++) {
		targets_phase(f, s, gps[g].ph, g, 0);
		if (gps[g].vph)
			targets_phase(f, s, gps[g].vph, g, 1);
	}
	free(gps);
}

/* startdelay=: the group's jobs start after `secs` (a signal cuts it
 * short); the wait is before the phase, so not measured, as fio's job
 * clock starts after its delay. */
static void start_delay(const struct suite_session *s, const struct io_job *j)
{
	uint64_t end = now_ns() + duration_ns(j->startdelay);

	if (s->chatter)
		fprintf(stderr, "fsgauge io: job '%s': startdelay %gs\n", j->name, j->startdelay);
	for (uint64_t now = now_ns(); now < end && !runner_signalled(); now = now_ns()) {
		uint64_t ns = MIN(end - now, 50000000ull);
		struct timespec ts = { 0, (long)ns };

		nanosleep(&ts, NULL);
	}
}

/* The read-back (verify) after group gr's phase: the phase
 * "<group>.verify" of the read-back clones of its jobs that wrote with
 * verify (io_job_reads_back), measured whole (no ramp_time: every block
 * read back counts), within what is left of the group's runtime, as
 * fio's verify phase is within its job's (none when the runtime ended
 * the writes, as in fio; under mpirun, none when it ended them on any
 * rank, so that every rank runs the same phases).  0, or
 * runner_phase()'s -errno. */
static int read_back(struct suite_session *s, struct io_suite *io, struct runner *rn,
		     struct result *one, const struct io_group *gr)
{
	const struct io_job *j = &io->jobs[gr->first];
	const struct result_phase *wp = &one->phases[one->nphases - 1];
	struct result_phase *vp;
	struct wl_process **v;
	double secs = UNTIL_DONE;
	size_t n = 0;
	char name[300];
	int ret;

	for (size_t i = 0; i < gr->n; i++)
		n += io->vprocs[gr->first + i] != NULL;
	if (!n)
		return 0;
	if (j->given & IOJ_RUNTIME)
		secs = j->runtime - wp->seconds;
	if (mpi_agree((wp->end_reason && !strcmp(wp->end_reason, "duration")) || !(secs > 0))) {
		if (s->chatter)
			fprintf(stderr,
				"fsgauge io: note: group '%s': the runtime (%gs) ended its writes, so "
				"nothing is read back for verify (as fio's verify phase, which runs "
				"within the job's runtime)\n",
				j->name, j->runtime);
		return 0;
	}
	v = xcalloc(n, sizeof(*v));
	n = 0;
	for (size_t i = 0; i < gr->n; i++)
		if (io->vprocs[gr->first + i])
			v[n++] = io->vprocs[gr->first + i];
	snprintf(name, sizeof(name), "%s.verify", j->name);
	ret = runner_phase_flags(rn, name, v, n, secs, RUNNER_PHASE_NO_WARMUP);
	free(v);
	if (!one->nphases || strcmp(one->phases[one->nphases - 1].name, name))
		return ret;
	vp = &one->phases[one->nphases - 1];
	group_metrics(vp, s->nrd > 1 ? s->nrd : 0);
	if (vp->end_reason && !strcmp(vp->end_reason, "duration") && s->chatter)
		fprintf(stderr,
			"fsgauge io: note: group '%s': the runtime (%gs) ended the read-back for "
			"verify before every block written was read back and checked\n",
			j->name, j->runtime);
	return ret;
}

/* The phase runner_phase() added to r (the runner writes the session's
 * result: runner_set_result), or NULL when it added none. */
static struct result_phase *phase_added(struct result *r, size_t before)
{
	return r->nphases > before ? &r->phases[r->nphases - 1] : NULL;
}

static int io_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct io_suite *io = ctx(s);
	int ret = 0;

	for (size_t g = 0; g < io->ngroups && !runner_signalled(); g++) {
		const struct io_group *gr = &io->groups[g];
		const struct io_job *j = &io->jobs[gr->first];
		double secs = j->given & IOJ_RUNTIME ? j->runtime : UNTIL_DONE;
		size_t before = one->nphases;
		struct result_phase *ph;

		if (j->startdelay > 0) {
			start_delay(s, j);
			if (runner_signalled())
				break;
		}
		ret = runner_phase(rn, j->name, io->procs + gr->first, gr->n, secs);
		ph = phase_added(one, before);
		if (ph)
			group_metrics(ph, s->nrd > 1 ? s->nrd : 0);
		if (ret < 0 || one->interrupted || one->stopped_on_error || !ph)
			break;
		ret = read_back(s, io, rn, one, gr);
		if (ret < 0 || one->interrupted || one->stopped_on_error)
			break;
	}
	return ret;
}

static void io_report(struct suite_session *s, struct result *acc)
{
	struct io_suite *io = ctx(s);

	int json = (io->formats & (IO_FMT_JSON | IO_FMT_JSONPLUS)) != 0;
	struct outfile of = { 0 };
	FILE *f = stdout;

	if (io->output || json || (io->formats & IO_FMT_TERSE)) {
		/* "-" after outfile_claim_stdout(): the real standard output */
		if (outfile_open(&of, io->output ? io->output : "-", "report") < 0) {
			s->status = EXIT_SYSTEM;
			return;
		}
		f = of.f;
	}
	if (io->formats & IO_FMT_NORMAL)
		io_format_text(f, acc, io->jobs, io->njobs, io->groups, io->ngroups);
	if ((io->formats & IO_FMT_NORMAL) && s->nrd > 1)
		targets_text(f, s, io, acc);
	if (io->formats & IO_FMT_TERSE)
		io_format_terse(f, acc, io->jobs, io->groups, io->ngroups);
	if (json) {
		json_t *o = io_fio_json(acc, io->jobs, io->groups, io->ngroups,
					(io->formats & IO_FMT_JSONPLUS) != 0);

		json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		json_decref(o);
	}
	if (f != stdout && outfile_close(&of, "report") < 0)
		s->status = EXIT_SYSTEM;
}

static void io_fini(struct suite_session *s)
{
	struct io_suite *io = ctx(s);

	for (size_t i = 0; i < io->njobs; i++)
		io_job_free(&io->jobs[i]);
	io_job_free(&io->global);
	for (size_t i = 0; i < io->nfiles; i++) {
		free(io->files[i].name);
		for (unsigned x = 0; io->files[i].names && x < io->files[i].nfiles; x++)
			free(io->files[i].names[x]);
		free(io->files[i].names);
		if (io->files[i].fd >= 0)
			close(io->files[i].fd);
	}
	free(io->files);
	free(io->clone_files);
	free(io->jobs);
	free(io->sets);
	free(io->groups);
	free(io->procs);
	for (size_t i = 0; io->vprocs && i < io->njobs; i++)
		wl_process_free(io->vprocs[i]);
	free(io->vprocs);
	for (size_t i = 0; i < io->ndirs; i++)
		free(io->dirs[i]);
	free(io->dirs);
	workload_free(io->w);
}

static void io_init(struct suite_session *s)
{
	io_job_init(&ctx(s)->global, "global");
}

const struct suite_ops suite_io = {
	.name = "io",
	.synopsis = "fsgauge io --rw=MODE --bs=SIZE --size=SIZE [fio's options] [options]\n"
		    "       fsgauge io JOBFILE... [--section=NAME] [-s KEY=VALUE]... [options]",
	.about = "fio's block workloads with fio's option names and meanings, on the fsgauge\n"
		 "engine: sequential or random reads or writes, at a queue depth with\n"
		 "io_uring or libaio, on files in a fresh marked directory inside the target\n"
		 "(removed afterwards) or on a block device (filename=/dev/X: read-only unless\n"
		 "--allow-write-device; rw=trim, randtrim, trimwrite and randtrimwrite only\n"
		 "there).  The options before the first --name are every job's; each --name\n"
		 "starts a job.  fio's job files run as they are, the command line's fio\n"
		 "options their defaults.  docs/io.md lists every option, fio's meaning and\n"
		 "fsgauge's differences; sizes take fio's units (kb_base).",
	.opts = io_opts,
	.shared = SH_DIR | (SH_SESSION & ~SH_ENGINE) | SH_SEED | SH_ON_ERROR | SH_QUIET |
		  (SH_MEASURE & ~(SH_DIRECT | SH_VERIFY | SH_WARMUP)),
	.refused = io_refused,
	.help_extra = "fio's options not listed here are refused with their name, never ignored.\n"
		      "A fio option that needs no value (time_based) also takes =0 or =1; a\n"
		      "value is given as --name=value.\n"
		      "Several -d, or --directory=/a:/b as in fio: clone N of each job works in\n"
		      "directory N mod their number, all its files there (a filename= in the\n"
		      "first); its operations are named <job>@K.read, K the directory's place,\n"
		      "and a line per target follows the report (docs/io.md).\n",
	.exit_help = "exit status: 0 ok, 1 I/O or verify errors during the run, 2 usage error,\n"
		     "unsupported fio option or refused device, 3 system error, 130 interrupted\n"
		     "(partial results are still written).\n",
	.metrics = io_metrics,
	.unknown_option = io_unknown,
	.ctx_size = sizeof(struct io_suite),
	.init = io_init,
	.option = io_option,
	.check = io_check,
	.setup = io_setup,
	.plan = io_plan,
	.params = io_params,
	.run = io_run,
	.report = io_report,
	.fini = io_fini,
};
