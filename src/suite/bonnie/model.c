/*
 * model.c — the bonnie suite's model: the workload (one data file in chunk
 * files, one fileset for the file tests), each bonnie++ test as one
 * process of flowops (the table at the top of bonnie.c), the figures read
 * back from a test's phase, and what the tests need of the target.  No
 * I/O, no messages; see bonnie.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "runner/fileset.h"
#include "runner/verify.h"
#include "suite/bonnie/bonnie.h"
#include "util/rundir.h"
#include "util/util.h"

/* --- building the tests ------------------------------------------------------ */

void bonnie_model_build(struct bonnie_model *m, const struct bonnie_opts *b,
			const struct rundir *rds, size_t nrd)
{
	memset(m, 0, sizeof(*m));
	m->w = wl_new("bonnie");
	m->w->quit_mode = QUIT_ALLDONE; /* a thread out of files ends, never waits */
	workload_set_var(m->w, "dir", rds[0].path);
	m->ntargets = nrd;
	m->data = xcalloc(nrd, sizeof(*m->data));
	m->files = xcalloc(nrd, sizeof(*m->files));
	/* each target's own data file and files, in its run directory under
	 * the same names (the first's $dir, the others' by their path) */
	for (size_t k = 0; k < nrd; k++) {
		if (b->size) {
			m->data[k] = wl_add_file(m->w, "Bonnie", (int64_t)b->size);
			m->data[k]->chunksize = wl_int((int64_t)b->chunk_file);
			if (k > 0)
				m->data[k]->path = wl_str(rds[k].path);
		}
		if (b->files) {
			int64_t n = (int64_t)b->files * 1024;
			int64_t width = b->dirs > 1 ? (n + b->dirs - 1) / b->dirs : n;
			struct wl_val size = wl_int(b->max_size);

			if (b->max_size != b->min_size) {
				/* bonnie++: uniform over min..max inclusive; the
				 * runner rounds samples to the nearest integer */
				struct randvar *rv = wl_add_randvar(m->w, RV_UNIFORM);

				rv->min = (double)b->min_size - 0.5;
				rv->max = (double)b->max_size + 0.5;
				size = (struct wl_val){ .kind = WLV_RAND, .rv = rv };
			}
			m->files[k] = wl_add_fileset(m->w, "files", n, size, width, 0);
			if (k > 0)
				m->files[k]->path = wl_str(rds[k].path);
		}
	}
}

void bonnie_model_free(struct bonnie_model *m)
{
	workload_free(m->w);
	free(m->data);
	free(m->files);
	memset(m, 0, sizeof(*m));
}

/* A thread of one pass: its flowops, then `threaddone` (end_thread()). */
static struct wl_thread *one_thread(struct wl_process *p, const char *name,
				    const struct bonnie_opts *b)
{
	return wl_add_thread(p, name, 1, (int64_t)MAX(b->chunk, b->file_chunk));
}

static void end_thread(struct wl_thread *t)
{
	wl_add_flowop(t, FO_THREADDONE, "done", NULL);
}

static struct wl_flowop *op(struct wl_thread *t, enum flowop_type type, const char *name,
			    struct wl_fileset *fs, int fd)
{
	struct wl_flowop *fo = wl_add_flowop(t, type, name, fs);

	if (fd)
		fo->fd = wl_int(fd);
	return fo;
}

/* A data-file open for the block tests: O_DIRECT with -D, O_DSYNC with -b. */
static void block_flags(struct wl_flowop *fo, const struct bonnie_opts *b)
{
	if (b->direct)
		fo->directio = wl_bool(1);
	if (b->sync)
		fo->dsync = wl_bool(1);
}

/* A composite flowop "file", run once per file and timed as one
 * operation (the per-file latency bonnie++ 1.9x reports); its children
 * are named "file.<name>". */
static struct wl_flowop *file_composite(struct wl_thread *t, int64_t nfiles)
{
	struct wl_flowop *c = wl_add_composite(t, "file");

	c->iters = wl_int(nfiles);
	return c;
}

static struct wl_flowop *child(struct wl_flowop *c, enum flowop_type type, const char *name,
			       struct wl_fileset *fs, int fd)
{
	char full[64];
	struct wl_flowop *fo;

	snprintf(full, sizeof(full), "file.%s", name);
	fo = wl_add_child(c, type, full, fs);
	if (fd)
		fo->fd = wl_int(fd);
	return fo;
}

/* A stat or delete pass: bonnie++'s random tests take the files in a
 * shuffled order, its sequential ones in the order readdir() lists them,
 * directory after directory. */
static struct wl_flowop *pass_order(struct wl_flowop *fo, int random)
{
	fo->ordered = wl_bool(1);
	if (random)
		fo->random = wl_bool(1);
	else
		fo->readdir = wl_bool(1);
	return fo;
}

/* How a test's figures are read back from its phase. */
enum amount_kind { AMOUNT_WRITTEN_KIB, AMOUNT_READ_KIB, AMOUNT_OPS };

struct test_desc {
	enum bonnie_test t;
	const char *progress; /* bonnie++'s progress message */
	const char *amount_op;
	enum amount_kind kind;
	const char *latency_op;
};

static const struct test_desc tests[BT__COUNT] = {
	{ BT_PUTC, "Writing with putc()...", "putc", AMOUNT_WRITTEN_KIB, "putc" },
	{ BT_PUT_BLOCK, "Writing intelligently...", "write", AMOUNT_WRITTEN_KIB, "write" },
	{ BT_REWRITE, "Rewriting...", "rewrite", AMOUNT_READ_KIB, "rewrite" },
	{ BT_GETC, "Reading with getc()...", "getc", AMOUNT_READ_KIB, "getc" },
	{ BT_GET_BLOCK, "Reading intelligently...", "read", AMOUNT_READ_KIB, "read" },
	{ BT_SEEKS, "Seeking...", "seek", AMOUNT_OPS, "seek" },
	{ BT_SEQ_CREATE, "Create files in sequential order...", "file.create", AMOUNT_OPS, "file" },
	{ BT_SEQ_STAT, "Stat files in sequential order...", "file.stat", AMOUNT_OPS, "file" },
	{ BT_SEQ_DEL, "Delete files in sequential order...", "file.delete", AMOUNT_OPS,
	  "file.delete" },
	{ BT_RAN_CREATE, "Create files in random order...", "file.create", AMOUNT_OPS, "file" },
	{ BT_RAN_STAT, "Stat files in random order...", "file.stat", AMOUNT_OPS, "file" },
	{ BT_RAN_DEL, "Delete files in random order...", "file.delete", AMOUNT_OPS, "file.delete" },
};

/* With several targets, the process of target k (from 0) and all its
 * names get "@K", K from 1 (replicate.c), so that the runner keeps each
 * target's operations apart; alone, the names stay bonnie++'s. */
static void target_names(struct wl_process *p, const struct bonnie_model *m, size_t k)
{
	char sfx[32];

	if (m->ntargets < 2)
		return;
	snprintf(sfx, sizeof(sfx), "@%zu", k + 1);
	wl_process_suffix_names(p, sfx);
}

/* The threads of I/O test tt (putc ... seeks) into p; 0, or -1 for
 * another test. */
static int io_test_build(struct wl_process *p, enum bonnie_test tt, const struct bonnie_opts *b,
			 struct wl_fileset *data, int exists)
{
	int64_t blocks = (int64_t)(b->size / b->chunk);
	int64_t cblocks = (int64_t)(b->char_size / b->chunk);
	struct wl_thread *t;
	struct wl_flowop *fo;

	switch (tt) {
	case BT_PUTC:
		t = one_thread(p, "putc", b);
		if (exists)
			op(t, FO_DELETEFILE, "delete", data, 0);
		op(t, FO_CREATEFILE, "create", data, 1);
		fo = op(t, FO_PUTC, "putc", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(cblocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_PUT_BLOCK:
		t = one_thread(p, "put_block", b);
		if (exists)
			op(t, FO_DELETEFILE, "delete", data, 0);
		block_flags(op(t, FO_CREATEFILE, "create", data, 1), b);
		fo = op(t, FO_WRITE, "write", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_FSYNC, "fsync", NULL, 1);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_REWRITE:
		t = one_thread(p, "rewrite", b);
		block_flags(op(t, FO_OPENFILE, "open", data, 1), b);
		fo = op(t, FO_REWRITE, "rewrite", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_FSYNC, "fsync", NULL, 1);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_GETC:
		t = one_thread(p, "getc", b);
		op(t, FO_OPENFILE, "open", data, 1);
		fo = op(t, FO_GETC, "getc", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(cblocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_GET_BLOCK:
		t = one_thread(p, "get_block", b);
		block_flags(op(t, FO_OPENFILE, "open", data, 1), b);
		fo = op(t, FO_READ, "read", NULL, 1);
		fo->iosize = wl_int((int64_t)b->chunk);
		fo->iters = wl_int(blocks);
		op(t, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_SEEKS:
		for (unsigned i = 0; i < b->seekers; i++) {
			char name[32];

			snprintf(name, sizeof(name), "seeker%u", i + 1);
			t = one_thread(p, name, b);
			block_flags(op(t, FO_OPENFILE, "open", data, 1), b);
			fo = op(t, FO_REWRITE, "seek", NULL, 1);
			fo->iosize = wl_int((int64_t)b->chunk);
			fo->random = wl_bool(1);
			fo->value = wl_int(10); /* every tenth block is dirtied and written back */
			fo->iters = wl_int(b->seeks / b->seekers + (i < b->seeks % b->seekers));
			op(t, FO_FSYNC, "fsync", NULL, 1);
			op(t, FO_CLOSEFILE, "close", NULL, 1);
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/* The thread of file test tt (the creates, stats and deletes) into p; 0,
 * or -1 for another test. */
static int file_test_build(struct wl_process *p, enum bonnie_test tt,
			   const struct bonnie_opts *b, struct wl_fileset *files)
{
	int64_t nfiles = (int64_t)b->files * 1024;
	int random = tt >= BT_RAN_CREATE;
	struct wl_thread *t;
	struct wl_flowop *fo, *c;

	switch (tt) {
	case BT_SEQ_CREATE:
	case BT_RAN_CREATE:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		fo = child(c, FO_CREATEFILE, "create", files, 1);
		fo->ordered = wl_bool(1);
		fo->random = wl_bool(random);
		if (b->max_size) {
			fo = child(c, FO_WRITEWHOLEFILE, "write", NULL, 1);
			fo->iosize = wl_int((int64_t)b->file_chunk);
		}
		if (b->sync) { /* -b: as bonnie++, fsync the file, then its directory */
			fo = child(c, FO_FSYNC, "fsync", NULL, 1);
			fo->dirsync = wl_bool(1);
		}
		child(c, FO_CLOSEFILE, "close", NULL, 1);
		/* bonnie++ ends the test with sync(), inside its time */
		op(t, FO_SYNCFS, "syncfs", files, 0);
		break;
	case BT_SEQ_STAT:
	case BT_RAN_STAT:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		if (!b->max_size) {
			pass_order(child(c, FO_STATFILE, "stat", files, 0), random);
			break;
		}
		pass_order(child(c, FO_OPENFILE, "open", files, 1), random);
		child(c, FO_STATFILE, "stat", NULL, 1);
		fo = child(c, FO_READWHOLEFILE, "read", NULL, 1);
		fo->iosize = wl_int((int64_t)b->file_chunk);
		child(c, FO_CLOSEFILE, "close", NULL, 1);
		break;
	case BT_SEQ_DEL:
	case BT_RAN_DEL:
		t = one_thread(p, bonnie_test_name(tt), b);
		c = file_composite(t, nfiles);
		fo = pass_order(child(c, FO_DELETEFILE, "delete", files, 0), random);
		if (b->sync) /* -b: and fsync the directory, as bonnie++ */
			fo->dirsync = wl_bool(1);
		op(t, FO_SYNCFS, "syncfs", files, 0); /* as after the creates */
		break;
	default:
		return -1;
	}
	return 0;
}

struct wl_process *bonnie_test_build(enum bonnie_test tt, const struct bonnie_opts *b,
				     const struct bonnie_model *m, size_t k, int exists)
{
	struct wl_process *p = wl_new_process(bonnie_test_name(tt), 1);

	if (io_test_build(p, tt, b, m->data[k], exists) < 0 &&
	    file_test_build(p, tt, b, m->files[k]) < 0) {
		wl_process_free(p);
		return NULL;
	}
	for (size_t i = 0; i < p->nthreads; i++)
		end_thread(p->threads[i]);
	target_names(p, m, k);
	return p;
}

const char *bonnie_test_progress(enum bonnie_test t)
{
	for (size_t i = 0; i < BT__COUNT; i++)
		if (tests[i].t == t)
			return tests[i].progress;
	return "";
}

int bonnie_test_runs(enum bonnie_test t, const struct bonnie_opts *b)
{
	if (t <= BT_SEEKS)
		return b->size && (t != BT_PUTC && t != BT_GETC ? 1 : b->char_size > 0);
	return b->files > 0;
}

/* --- figures ----------------------------------------------------------------- */

static const struct result_phase *phase_of(const struct result *r, const char *name)
{
	for (size_t i = r->nphases; i-- > 0;)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

static const struct result_op *op_of(const struct result_phase *p, const char *name)
{
	for (size_t i = 0; i < p->nops; i++)
		if (!strcmp(p->ops[i].name, name))
			return &p->ops[i];
	return NULL;
}

/* Operation `name` of target k (from 1; 0 alone: bonnie++'s own name). */
static const struct result_op *target_op(const struct result_phase *p, const char *name,
					 size_t k)
{
	char full[96];

	if (!k)
		return op_of(p, name);
	snprintf(full, sizeof(full), "%s@%zu", name, k);
	return op_of(p, full);
}

static const struct result_proc *proc_of(const struct result_phase *p, const char *name,
					 size_t k)
{
	char full[96];

	snprintf(full, sizeof(full), "%s@%zu", name, k);
	for (size_t i = 0; i < p->nprocs; i++)
		if (!strcmp(p->procs[i].name, full))
			return &p->procs[i];
	return NULL;
}

static double op_amount(const struct result_op *a, enum amount_kind kind)
{
	if (!a)
		return 0;
	return kind == AMOUNT_WRITTEN_KIB ? (double)a->st.bytes_written / 1024.0
	       : kind == AMOUNT_READ_KIB  ? (double)a->st.bytes_read / 1024.0
					  : (double)a->st.ops;
}

void bonnie_report_fill(struct bonnie_report *rep, const struct bonnie_opts *b,
			const struct result *res, size_t k, size_t ntargets)
{
	memset(rep, 0, sizeof(*rep));
	rep->machine = b->machine;
	if (k)
		snprintf(rep->target, sizeof(rep->target), "@%zu", k);
	rep->file_size = b->size;
	rep->chunk_size = b->chunk;
	rep->seeks = b->seeks;
	rep->seekers = b->seekers;
	rep->concurrency = 1;
	rep->seed = b->ro->seed;
	rep->files = b->files;
	rep->max_size = b->max_size;
	rep->min_size = b->min_size;
	rep->dirs = b->dirs;
	rep->file_chunk = b->file_chunk;
	for (int i = 0; i < BT__COUNT; i++) {
		const struct test_desc *d = &tests[i];
		const struct result_phase *p = phase_of(res, bonnie_test_name(d->t));
		struct bonnie_figure *f = &rep->t[d->t];
		const struct result_proc *pr = NULL;
		struct phase_totals tot;

		if (!p)
			continue;
		result_phase_totals(p, &tot);
		/* a test that failed is not a measurement: blank (the run
		 * stops in the test that failed, its last phase, which counts
		 * no operation error when it was a block failing --verify);
		 * with several targets, on every target: the others were
		 * stopped in the middle of theirs */
		if (tot.errors || (res->stopped_on_error && p == &res->phases[res->nphases - 1]))
			continue;
		if (k) {
			pr = proc_of(p, bonnie_test_name(d->t), k);
			if (!pr)
				continue;
		}
		f->ran = 1;
		/* one target: its own time and its threads' CPU; alone, or
		 * all together: the phase's time and the process's CPU */
		f->seconds = pr ? pr->seconds : p->seconds;
		f->cpu_seconds = pr ? (double)pr->cpu_ns / 1e9
				    : (double)(p->cpu_user_ns + p->cpu_sys_ns) / 1e9;
		for (size_t t = k ? k : ntargets > 1 ? 1 : 0; t <= (k ? k : ntargets); t++) {
			const struct result_op *l = target_op(p, d->latency_op, t);

			f->amount += op_amount(target_op(p, d->amount_op, t), d->kind);
			if (l && l->st.lat.count)
				f->max_latency = MAX(f->max_latency, (double)l->st.lat.max / 1e9);
			if (!t)
				break; /* alone */
		}
	}
}


/* The phase that removes the data file (reported as "remove_data"): one
 * process per target, all at once. */
int bonnie_remove_data(struct runner *rn, const struct bonnie_opts *b,
		       const struct bonnie_model *m)
{
	struct wl_process **p = xcalloc(m->ntargets, sizeof(*p));
	int ret;

	for (size_t k = 0; k < m->ntargets; k++) {
		struct wl_thread *t;

		p[k] = wl_new_process("remove_data", 1);
		t = one_thread(p[k], "remove", b);
		op(t, FO_DELETEFILE, "delete", m->data[k], 0);
		end_thread(t);
		target_names(p[k], m, k);
	}
	ret = runner_phase(rn, "remove_data", p, m->ntargets, PHASE_LIMIT_SECONDS);
	for (size_t k = 0; k < m->ntargets; k++)
		wl_process_free(p[k]);
	free(p);
	return ret;
}

/* Flowops a thread of a test runs, at most (the table at the top: a file
 * test's composite with its createfile, writewholefile, fsync, closefile
 * and syncfs, then threaddone): for the preflight's memory figure. */
#define BONNIE_MAX_FLOWS 8

/* Before the tests: free space for the data file or the created files
 * (bonnie++ removes the one before making the others), inodes for the
 * files, the directories and the data file's chunks, the threads (the
 * seekers) and their memory (buffers of the chunk size, their state,
 * the table of the files).  Nothing to check on the disk for the null
 * engine, which creates nothing.  With several targets each holds the
 * same tests (tn[k], the space and inodes of one), the threads and the
 * memory are those of all.  (The session checks them.) */
void bonnie_needs(const struct bonnie_opts *b, struct preflight_needs *np,
		  struct target_needs *tn, size_t ntargets)
{
	struct preflight_needs n = { 0 };
	/* under --verify a created file is whole 4 KiB blocks */
	double files = (double)b->files * 1024.0,
	       fbytes = files * (double)(b->ro->verify ? verify_align_up((uint64_t)b->max_size)
						      : (uint64_t)b->max_size),
	       chunks = b->size ? (double)((b->size - 1) / b->chunk_file + 1) : 0;
	double per = (double)MAX(MAX(b->chunk, b->file_chunk), 4096) +
		     (double)runner_worker_overhead(BONNIE_MAX_FLOWS);
	double nt = (double)ntargets;

	if (!(engine_spec_caps(b->ro->engine) & ENGINE_DISKLESS)) {
		n.bytes = MAX((double)b->size, fbytes);
		n.entries = files + (b->files ? (double)b->dirs + 1 : 0) + chunks;
	}
	for (size_t k = 0; tn && k < ntargets; k++) {
		tn[k].bytes = n.bytes;
		tn[k].entries = n.entries;
	}
	n.bytes *= nt;
	n.entries *= nt;
	n.threads = (b->size && b->seekers > 1 ? b->seekers : 1) * nt;
	n.memory = n.threads * per + (files + 1) * nt * (double)FILESET_ENTRY_BYTES;
	snprintf(n.what, sizeof(n.what), "the tests");
	snprintf(n.memory_detail, sizeof(n.memory_detail),
		 "%.0f threads x %.1f MiB + %.0f files x %zu bytes", n.threads, per / MIB,
		 files * nt, (size_t)FILESET_ENTRY_BYTES);
	snprintf(n.lower_space, sizeof(n.lower_space), "use a smaller -s or -n, or another -d");
	snprintf(n.lower_inodes, sizeof(n.lower_inodes), "use fewer files (-n) or another -d");
	snprintf(n.lower_memory, sizeof(n.lower_memory),
		 "use fewer files (-n), fewer seekers or a smaller chunk size (-s)");
	*np = n;
}
