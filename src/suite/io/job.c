/* job.c — a fio job's options by fio's names; see job.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/io/job.h"
#include "util/dist.h"
#include "util/size.h"
#include "util/util.h"

const struct io_opt_info io_opt_table[] = {
	{ "name", "NAME", "start a job named NAME (the options before the first\n--name are every job's)" },
	{ "description", "TEXT", "the job's description (recorded)" },
	{ "rw", "MODE", "read, write, randread, randwrite, rw (readwrite), randrw\n(default read); "
	  "on a block device also trim, randtrim,\ntrimwrite and randtrimwrite (trimmed, then written)" },
	{ "readwrite", "MODE", "the same as --rw" },
	{ "bs", "SIZE[,SIZE]", "block size, or reads' and writes' (default 4k)" },
	{ "blocksize", "SIZE[,SIZE]", "the same as --bs" },
	{ "bsrange", "LO-HI[,LO-HI]", "block sizes drawn from LO to HI, multiples of LO" },
	{ "blocksize_range", "LO-HI", "the same as --bsrange" },
	{ "bssplit", "SIZE/PCT:...", "block sizes in these shares (4k/80:64k/20; a\ncomma separates reads' from writes')" },
	{ "blockalign", "SIZE", "offsets of random I/O are multiples of SIZE\n(default: the block size)" },
	{ "size", "SIZE", "bytes of the job's file (each clone's)" },
	{ "filesize", "SIZE", "bytes of each file (default --size / --nrfiles); --size\nthen only sets --io_size" },
	{ "nrfiles", "N", "files per clone, <job>.<clone>.<file> (default 1)" },
	{ "openfiles", "N", "at most N of them open at once (default --nrfiles)" },
	{ "file_service_type", "TYPE", "roundrobin[:N] (default) or random[:N]: the file of\nthe next N requests" },
	{ "offset", "SIZE|PCT%", "where the job's region starts: SIZE bytes in, or PCT%\nof the file or device (aligned down to the block size)" },
	{ "offset_increment", "SIZE", "clone k's region starts k * SIZE after --offset" },
	{ "io_size", "SIZE", "bytes to transfer (default --size)" },
	{ "io_limit", "SIZE", "the same as --io_size" },
	{ "numjobs", "N", "clones of the job, each its own thread (default 1)" },
	{ "loops", "N", "go over the file N times (default 1)" },
	{ "iodepth", "N", "requests kept in flight on io_uring and libaio\n(default 1)" },
	{ "iodepth_batch_submit", "N", "submit requests N at a time (default 1)" },
	{ "iodepth_batch", "N", "the same as --iodepth_batch_submit" },
	{ "iodepth_batch_complete_min", "N", "io_uring, libaio: wait for at least N completions\nwhen the queue is full (default 1)" },
	{ "iodepth_batch_complete", "N", "the same as --iodepth_batch_complete_min" },
	{ "iodepth_batch_complete_max", "N", "take at most N completions at once (default: all\nthere are)" },
	{ "ioengine", "NAME", "psync (also sync, pvsync, pvsync2), io_uring, libaio,\nnull, fio's file engines filecreate, filestat, filedelete,\ndircreate, dirstat, dirdelete, ftruncate, falloc, cpuio,\nor fsgauge's faulty:ENGINE:RULE (tests)" },
	{ "stat_type", "TYPE", "filestat, dirstat: stat (default) or lstat (the same\ncall on fsgauge's files)" },
	{ "cpuload", "PCT", "cpuio: busy PCT percent of each period (needed; above\n100: 100)" },
	{ "cpuchunks", "USEC", "cpuio: microseconds on the CPU per request (default\n50000)" },
	{ "sqthread_poll", "BOOL", "io_uring: a kernel thread polls the submission queue\n(IORING_SETUP_SQPOLL; default 0)" },
	{ "sqthread_poll_cpu", "CPU", "io_uring: that thread bound to CPU (with\n--sqthread_poll)" },
	{ "registerfiles", "BOOL", "io_uring: the files registered with the ring\n(IORING_REGISTER_FILES; default 0)" },
	{ "fixedbufs", "BOOL", "io_uring: the I/O buffers registered with the ring,\nREAD_FIXED and WRITE_FIXED (default 0)" },
	{ "cpumode", "MODE", "cpuio: noop (default: a busy loop; qsort is refused)" },
	{ "direct", "BOOL", "O_DIRECT (default 0)" },
	{ "fadvise_hint", "HINT", "posix_fadvise each file when opened: 0 (default),\n1 (random or sequential as --rw), sequential, random,\nnoreuse" },
	{ "invalidate", "BOOL", "drop each file's page cache when it is opened\n(default 0; fio's is 1)" },
	{ "buffered", "BOOL", "the opposite of --direct (default 1)" },
	{ "sync", "BOOL", "O_SYNC writes (default 0)" },
	{ "dsync", "BOOL", "O_DSYNC writes (default 0)" },
	{ "fsync", "N", "fsync the file after every N writes (default 0: never)" },
	{ "fdatasync", "N", "the same with fdatasync (default 0: never)" },
	{ "end_fsync", "BOOL", "fsync the file when the job's writes are done" },
	{ "fsync_on_close", "BOOL", "fsync the file when it is closed" },
	{ "rate", "BW", "an open-loop schedule: BW bytes per second per clone\n(one value: no per-direction ',')" },
	{ "rate_iops", "N", "an open-loop schedule: N requests per second per\nclone" },
	{ "rate_process", "P", "linear (default: evenly spaced) or poisson\n(exponential gaps)" },
	{ "rate_min", "BW", "with rate: a clone below BW bytes per second is an\nerror (exit 1)" },
	{ "thinktime", "TIME", "pause TIME after every --thinktime_blocks requests of\na clone (microseconds unless suffixed us, ms, s, ...)" },
	{ "thinktime_blocks", "N", "requests between two thinktime pauses (default 1)" },
	{ "thinktime_spin", "TIME", "spend the first TIME of each pause on the CPU, sleep\nthe rest (microseconds unless suffixed)" },
	{ "runtime", "TIME", "stop after TIME (seconds unless suffixed us, ms, s, m,\nh, d)" },
	{ "time_based", NULL, "run for --runtime, going over the file again" },
	{ "ramp_time", "TIME", "exclude the first TIME of the measurement" },
	{ "startdelay", "TIME", "start the job's group after TIME (seconds unless\nsuffixed; not measured; one time, no range)" },
	{ "filename", "NAME", "the file (in the run directory) or block device all\nthe job's clones use" },
	{ "filename_format", "FMT", "file engines: the files' names, from $jobname, $jobnum,\n$filenum (default $jobname.$jobnum.$filenum); jobs\ngiving the same names use the same files" },
	{ "directory", "DIR",
	  "the target directory (as -d); several joined by ':'\n(fio's): clone N in directory N "
	  "mod their number;\nrelative ones are made inside the run directory" },
	{ "group_reporting", NULL, "report the jobs of a group together" },
	{ "stonewall", NULL, "wait for the jobs before this one to finish" },
	{ "wait_for_previous", NULL, "the same as --stonewall" },
	{ "wait_for", "JOB", "start when job JOB is done (see docs/io.md, \"Groups\")" },
	{ "new_group", NULL, "start a new reporting group" },
	{ "rwmixread", "PCT", "percent of a mixed job's requests that read (default 50)" },
	{ "rwmixwrite", "PCT", "percent that write (100 - rwmixread)" },
	{ "zero_buffers", NULL, "write zeros (as --data zero)" },
	{ "refill_buffers", NULL, "new data for every write (fsgauge always does)" },
	{ "scramble_buffers", "BOOL", "accepted: fsgauge's data never repeats" },
	{ "buffer_compress_percentage", "PCT", "data that compresses by PCT% (as --data\ncompress=PCT%)" },
	{ "dedupe_percentage", "PCT", "PCT% of the blocks repeat (as --data dedupe=PCT%)" },
	{ "verify", "TYPE", "any fio checksum type: fsgauge's block check (as\n--verify); 0 or null: none" },
	{ "do_verify", "BOOL", "with verify: a job that writes reads back and checks\nwhat it wrote after its writes (default 1)" },
	{ "random_distribution", "SPEC", "where random offsets fall: random (default),\nzipf:THETA, pareto:H, normal:SIGMA, zoned:P/R:..." },
	{ "percentage_random", "PCT", "PCT% of the requests random, the rest sequential\n(default 100)" },
	{ "norandommap", NULL, "random offsets drawn independently (default: every\nblock once per pass, as fio's random map)" },
	{ "randrepeat", "BOOL", "the same random offsets every run (default 1)" },
	{ "randseed", "N", "seed of the random offsets (as --seed)" },
	{ "kb_base", "N", "1024 (default: k = 1024) or 1000 (k = 1000); see\ndocs/io.md" },
	{ "lat_percentiles", "BOOL", "total latency's percentiles too (io_uring, libaio;\npsync: in place of completion latency's)" },
	{ "clat_percentiles", "BOOL", "accepted: fsgauge always prints completion latency's" },
	{ "percentile_list", "P:P:...", "the percentiles printed (default fio's list)" },
	{ NULL, NULL, NULL },
};

/* fio's options fsgauge io does not take (a clear error, never ignored). */
static const char *const unsupported[] = {
	"rate_cycle", "rate_iops_min", "rate_ignore_thinktime",
	"exit_on_io_done",
	"thinktime_blocks_type", "thinktime_iotime", "thinkcycles", "offset_align",
	"iodepth_low",
	"hipri", "unique_filename", "opendir",
	"cpus_allowed", "cpumask", "numa_cpu_nodes", "numa_mem_policy", "write_bw_log",
	"write_lat_log", "write_iops_log", "write_hist_log", "log_avg_msec", "exec_prerun",
	"exec_postrun", "ioscheduler", "zonemode", "zonesize", "zonerange", "zoneskip",
	"verify_pattern", "verify_interval", "verify_offset", "verify_fatal", "verify_async",
	"verify_async_cpus", "verify_dump", "verify_state_save", "verify_state_load",
	"pre_read", "lockmem", "nice", "prio",
	"prioclass", "cgroup", "uid", "gid", "flow", "create_serialize", "create_fsync",
	"create_on_open", "allow_file_create", "unlink", "unlink_each_loop", "clocksource",
	"gtod_reduce", "disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
	"serialize_overlap", "io_submit_mode", "overwrite", "fill_device", "fill_fs",
	"rwmixcycle", "bs_unaligned", "bs_is_seq_rand", "random_generator", "allrandrepeat",
	"trim_percentage", "trim_backlog", "trim_verify_zero", "sync_file_range", "fallocate", "mem", "iomem",
	"mem_align", "iomem_align", "hugepage-size", "lockfile", "thread", "max_latency",
	"latency_target", "latency_window", "latency_percentile", "ignore_error",
	"continue_on_error", "error_dump", "steadystate", "ss", "steadystate_duration",
	"steadystate_ramp_time", "exitall", "exitall_on_error", "replay_redirect",
	"read_iolog", "write_iolog", "stats", "per_job_logs", "dedupe_mode", "buffer_pattern",
	"buffer_compress_chunk", "experimental_verify", "ramp_size",
	"number_ios", "size_increment", "file_append", "pre_read", "userspace_reap", NULL,
};

/* fio's engines fsgauge io has no equivalent of. */
static const char *const unsupported_engines[] = {
	"sg", "rdma", "http", "net", "netsplice", "splice", "mmap", "posixaio", "solarisaio",
	"windowsaio", "e4defrag", "rbd", "nbd", "libhdfs", "mtd", "pmemblk",
	"dev-dax", "libpmem", "gfapi", "gfapi_async", "libiscsi", "nfs", "exec", "xnvme",
	"libblkio", "io_uring_cmd", "guasi", "binject", "external", "libcufile", "dfs",
	"daos", NULL,
};

static const char *const flags[] = {
	"time_based", "group_reporting", "stonewall", "wait_for_previous", "new_group",
	"zero_buffers", "refill_buffers", "norandommap", NULL,
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

int io_job_flag(const char *key)
{
	return in_list(flags, key);
}

void io_job_init(struct io_job *j, const char *name)
{
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->rw = RW_READ;
	j->bs[0] = j->bs[1] = 4096;
	j->numjobs = 1;
	j->loops = 1;
	j->iodepth = 1;
	j->iodepth_batch = 1;
	j->batch_complete_min = 1;
	j->rwmixread = 50;
	j->ioengine = xstrdup("psync");
	j->ioengine_fio = xstrdup("psync");
	j->compress_pct = -1;
	j->dedupe_pct = -1;
	j->randrepeat = 1;
	j->percentage_random = 100;
	j->kb_base = 1024;
	j->nrfiles = 1;
	j->fst_nr = 1;
	j->offset_pct = -1;
	j->thinktime_blocks = 1;
	j->cpuchunks = 50000;
	j->do_verify = 1;
}

void io_job_copy(struct io_job *dst, const struct io_job *src, const char *name)
{
	*dst = *src;
	dst->name = xstrdup(name);
	dst->description = xstrdup_or_null(src->description);
	dst->ioengine = xstrdup_or_null(src->ioengine);
	dst->ioengine_fio = xstrdup_or_null(src->ioengine_fio);
	dst->filename = xstrdup_or_null(src->filename);
	dst->filename_format = xstrdup_or_null(src->filename_format);
	dst->directory = xstrdup_or_null(src->directory);
	dst->wait_for = xstrdup_or_null(src->wait_for);
	dst->random_distribution = xstrdup_or_null(src->random_distribution);
	dst->opts = src->nopts ? xcalloc(src->nopts, sizeof(*dst->opts)) : NULL;
	for (size_t i = 0; i < src->nopts; i++) {
		dst->opts[i].key = xstrdup(src->opts[i].key);
		dst->opts[i].val = xstrdup_or_null(src->opts[i].val);
	}
	dst->nglobal = src->nopts;
}

void io_job_free(struct io_job *j)
{
	free(j->name);
	free(j->description);
	free(j->ioengine);
	free(j->ioengine_fio);
	free(j->filename);
	free(j->filename_format);
	free(j->directory);
	free(j->wait_for);
	free(j->random_distribution);
	for (size_t i = 0; i < j->nopts; i++) {
		free(j->opts[i].key);
		free(j->opts[i].val);
	}
	free(j->opts);
	memset(j, 0, sizeof(*j));
}

uint64_t io_job_file_size(const struct io_job *j)
{
	if (j->filesize)
		return j->filesize;
	return io_job_multi(j) ? j->size / j->nrfiles : j->size;
}

uint64_t io_job_min_bs(const struct io_job *j)
{
	uint64_t m = UINT64_MAX;

	for (int d = 0; d < 2; d++) {
		uint64_t b = j->bs_lo[d] ? j->bs_lo[d] : j->bs[d];

		for (size_t i = 0; i < j->nsplit[d]; i++)
			b = i ? MIN(b, j->split[d][i].size) : j->split[d][i].size;
		m = MIN(m, b);
	}
	return m ? m : 1;
}

int io_job_offset(const struct io_job *j, unsigned k, uint64_t whole, uint64_t *base)
{
	uint64_t b = j->offset, inc;

	if (j->offset_pct >= 0) {
		/* no overflow: whole / 100 * pct stays below whole */
		b = whole / 100 * (uint64_t)j->offset_pct + whole % 100 * (uint64_t)j->offset_pct / 100;
		b -= b % io_job_min_bs(j);
	}
	if (__builtin_mul_overflow((uint64_t)k, j->offset_increment, &inc) ||
	    __builtin_add_overflow(b, inc, &b) || b > (uint64_t)INT64_MAX)
		return -ERANGE;
	*base = b;
	return 0;
}

int io_job_multi(const struct io_job *j)
{
	return j->nrfiles > 1 && !j->filename;
}

int io_job_reads(const struct io_job *j)
{
	return j->rw == RW_READ || j->rw == RW_RANDREAD || io_job_mixed(j);
}

int io_job_writes(const struct io_job *j)
{
	return j->rw == RW_WRITE || j->rw == RW_RANDWRITE || io_job_mixed(j) || io_job_trimwrite(j);
}

int io_job_reads_back(const struct io_job *j)
{
	return j->verify && j->do_verify && io_job_writes(j) && !j->time_based && !j->fileop &&
	       !j->rangeop && !j->cpuio;
}

int io_job_trims(const struct io_job *j)
{
	return j->rw == RW_TRIM || j->rw == RW_RANDTRIM || io_job_trimwrite(j);
}

int io_job_trimwrite(const struct io_job *j)
{
	return j->rw == RW_TRIMWRITE || j->rw == RW_RANDTRIMWRITE;
}

int io_job_mixed(const struct io_job *j)
{
	return j->rw == RW_RW || j->rw == RW_RANDRW;
}

int io_job_random(const struct io_job *j)
{
	return j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDRW ||
	       j->rw == RW_RANDTRIM || j->rw == RW_RANDTRIMWRITE;
}

const char *io_rw_name(enum io_rw rw)
{
	static const char *const names[] = { "read",	  "write",    "randread",
					     "randwrite", "rw",	      "randrw",
					     "trim",	  "randtrim", "trimwrite",
					     "randtrimwrite" };

	return names[rw];
}

/* --- values ------------------------------------------------------------------ */

static int fail(char *err, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

int io_size_parse(const char *s, unsigned kb_base, uint64_t *out)
{
	static const char units[] = "kmgtp";
	char *end;
	double v;
	uint64_t mult = 1;
	const char *u, *p;

	errno = 0;
	if (!*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	if (*end) {
		u = strchr(units, tolower((unsigned char)*end));
		if (!u)
			return -EINVAL;
		p = end + 1;
		/* fio's rule: with kb_base 1024, k and kb are 1024 and the IEC
		 * "KiB" is 1000 (old scripts); with 1000 the other way round */
		int iec = (*p == 'i' || *p == 'I');
		unsigned base = iec ? (kb_base == 1000 ? 1024 : 1000) : kb_base;

		if (iec)
			p++;
		if (*p == 'b' || *p == 'B')
			p++;
		if (*p)
			return -EINVAL;
		for (long i = 0; i <= u - units; i++)
			mult *= base;
	}
	if (v * (double)mult >= 18446744073709551615.0)
		return -ERANGE;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

int io_time_parse(const char *s, double unit, double *secs)
{
	static const struct {
		const char *sfx;
		double secs;
	} sfx[] = { { "us", 1e-6 }, { "usec", 1e-6 }, { "ms", 1e-3 }, { "msec", 1e-3 },
		    { "s", 1 },	    { "sec", 1 },     { "m", 60 },    { "min", 60 },
		    { "h", 3600 },  { "d", 86400 } };
	char *end;
	double v;

	errno = 0;
	if (!*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	if (!*end) {
		*secs = v * unit;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++)
		if (!strcasecmp(end, sfx[i].sfx)) {
			*secs = v * sfx[i].secs;
			return 0;
		}
	return -EINVAL;
}

static int parse_bool(const char *val, int *out)
{
	if (!val || !strcmp(val, "1") || !strcasecmp(val, "true") || !strcasecmp(val, "yes") ||
	    !strcasecmp(val, "on")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(val, "0") || !strcasecmp(val, "false") || !strcasecmp(val, "no") ||
	    !strcasecmp(val, "off")) {
		*out = 0;
		return 0;
	}
	return -EINVAL;
}

static int parse_uint(const char *val, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;

	if (num_parse_u64(val, &v) < 0 || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The largest block size fsgauge io takes (fio has no fixed one). */
#define BS_MAX (64ull << 20)

static int parse_bs1(const char *s, unsigned kb_base, uint64_t *out)
{
	return io_size_parse(s, kb_base, out) < 0 || *out == 0 || *out > BS_MAX ? -EINVAL : 0;
}

/* "A[,B]": one value for reads and writes, or one each; an empty side
 * keeps its value. */
static int split2(const char *val, char *a, char *b, size_t len)
{
	const char *c = strchr(val, ',');

	if (strlen(val) >= len)
		return -EINVAL;
	if (!c) {
		strcpy(a, val);
		strcpy(b, val);
		return 0;
	}
	if (strchr(c + 1, ','))
		return -EINVAL; /* a third (trim) side: no trim in fsgauge io */
	memcpy(a, val, (size_t)(c - val));
	a[c - val] = 0;
	strcpy(b, c + 1);
	return 0;
}

static int set_bs(struct io_job *j, const char *val)
{
	char side[2][64];
	uint64_t v[2] = { j->bs[0], j->bs[1] };

	if (split2(val, side[0], side[1], sizeof(side[0])) < 0)
		return -EINVAL;
	for (int d = 0; d < 2; d++)
		if (*side[d] && parse_bs1(side[d], j->kb_base, &v[d]) < 0)
			return -EINVAL;
	j->bs[0] = v[0];
	j->bs[1] = v[1];
	j->given |= IOJ_BS;
	return 0;
}

static int set_bsrange(struct io_job *j, const char *val)
{
	char side[2][64];

	if (split2(val, side[0], side[1], sizeof(side[0])) < 0)
		return -EINVAL;
	for (int d = 0; d < 2; d++) {
		char *dash = strpbrk(side[d], "-:");
		uint64_t lo, hi;

		if (!*side[d])
			continue;
		if (!dash)
			return -EINVAL;
		*dash = 0;
		if (parse_bs1(side[d], j->kb_base, &lo) < 0 || parse_bs1(dash + 1, j->kb_base, &hi) < 0 ||
		    lo > hi)
			return -EINVAL;
		j->bs_lo[d] = lo;
		j->bs_hi[d] = hi;
	}
	return 0;
}

static int set_split1(struct io_job *j, int d, char *s)
{
	double total = 0;
	size_t n = 0, nopct = 0;

	for (char *tok = strtok(s, ":"); tok; tok = strtok(NULL, ":")) {
		char *slash = strchr(tok, '/');
		uint64_t size;
		double pct = -1;

		if (n == IO_SPLIT_MAX)
			return -EINVAL;
		if (slash) {
			*slash = 0;
			if (num_parse_double(slash + 1, &pct) < 0 || pct < 0 || pct > 100)
				return -EINVAL;
		} else {
			nopct++;
		}
		if (parse_bs1(tok, j->kb_base, &size) < 0)
			return -EINVAL;
		j->split[d][n].size = size;
		j->split[d][n].pct = pct;
		if (pct >= 0)
			total += pct;
		n++;
	}
	if (!n || total > 100.0 + 1e-9)
		return -EINVAL;
	/* fio: entries without a share split what the others leave */
	for (size_t i = 0; i < n; i++)
		if (j->split[d][i].pct < 0)
			j->split[d][i].pct = (100.0 - total) / (double)nopct;
	if (!nopct && fabs(total - 100.0) > 1e-6)
		return -EINVAL;
	j->nsplit[d] = n;
	return 0;
}

static int set_bssplit(struct io_job *j, const char *val)
{
	char side[2][512];

	if (split2(val, side[0], side[1], sizeof(side[0])) < 0)
		return -EINVAL;
	for (int d = 0; d < 2; d++)
		if (*side[d] && set_split1(j, d, side[d]) < 0)
			return -EINVAL;
	return 0;
}

static int set_rw(struct io_job *j, const char *val, char *err, size_t len)
{
	if (!strcmp(val, "readwrite"))
		val = "rw";
	for (int rw = RW_READ; rw <= RW_RANDTRIMWRITE; rw++)
		if (!strcmp(val, io_rw_name(rw))) {
			j->rw = rw;
			j->given |= IOJ_RW;
			return 0;
		}
	if (!strcmp(val, "randwr") || !strcmp(val, "wr")) {
		/* fio's old spellings are not taken: say which they are */
		return fail(err, len, -ENOTSUP, "rw=%s is not supported by fsgauge io (docs/io.md)", val);
	}
	if (strchr(val, ':'))
		return fail(err, len, -ENOTSUP, "rw=%s is not supported by fsgauge io (docs/io.md)",
			    val);
	return fail(err, len, -EINVAL,
		    "invalid rw '%s' (expected read, write, randread, randwrite, rw, readwrite, "
		    "randrw, trim, randtrim, trimwrite or randtrimwrite)",
		    val);
}

static int set_engine(struct io_job *j, const char *val, char *err, size_t len)
{
	static const char *const psync[] = { "psync", "sync", "pvsync", "pvsync2", "vsync", NULL };
	const char *ours = val;

	static const char *const fileops[] = { "", "create", "stat", "delete" };
	enum io_fileop fileop = IO_FILEOP_NONE;
	int dir = !strncmp(val, "dir", 3);

	if (dir || !strncmp(val, "file", 4))
		for (int i = IO_FILEOP_CREATE; i <= IO_FILEOP_DELETE; i++)
			if (!strcmp(val + (dir ? 3 : 4), fileops[i]))
				fileop = (enum io_fileop)i;
	enum io_rangeop rangeop = !strcmp(val, "ftruncate") ? IO_RANGEOP_FTRUNCATE
				  : !strcmp(val, "falloc")  ? IO_RANGEOP_FALLOC
							    : IO_RANGEOP_NONE;

	int cpuio = !strcmp(val, "cpuio");

	if (in_list(psync, val) || fileop || rangeop || cpuio)
		ours = "psync"; /* the file engines' calls are psync's */
	else if (in_list(unsupported_engines, val))
		return fail(err, len, -ENOTSUP,
			    "ioengine '%s' is not supported by fsgauge io (psync, io_uring, libaio, "
			    "null, filecreate, filestat, filedelete, dircreate, dirstat, "
			    "dirdelete, ftruncate, falloc, cpuio; docs/io.md)",
			    val);
	else if (strcmp(val, "io_uring") && strcmp(val, "libaio") && strcmp(val, "null") &&
		 strncmp(val, "faulty:", 7))
		return fail(err, len, -EINVAL,
			    "unknown ioengine '%s' (expected psync, sync, pvsync, pvsync2, io_uring, "
			    "libaio or null)",
			    val);
	free(j->ioengine);
	free(j->ioengine_fio);
	j->ioengine = xstrdup(ours);
	j->ioengine_fio = xstrdup(val);
	j->fileop = fileop;
	j->fileop_dir = fileop && dir;
	j->rangeop = rangeop;
	j->cpuio = cpuio;
	j->given |= IOJ_IOENGINE;
	return 0;
}

/* file_service_type=roundrobin[:N] or random[:N]; fio's other types
 * are refused by name. */
static int set_fst(struct io_job *j, const char *val, char *err, size_t len)
{
	static const char *const others[] = { "sequential", "zipf", "pareto", "normal", "gauss",
					      NULL };
	char type[32];
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t nr = 1;

	if (n >= sizeof(type))
		n = sizeof(type) - 1;
	memcpy(type, val, n);
	type[n] = 0;
	if (in_list(others, type))
		return fail(err, len, -ENOTSUP,
			    "file_service_type=%s is not supported by fsgauge io (roundrobin or "
			    "random; docs/io.md)",
			    type);
	if ((strcmp(type, "roundrobin") && strcmp(type, "random")) ||
	    (colon && parse_uint(colon + 1, 1, 1u << 30, &nr) < 0))
		return fail(err, len, -EINVAL,
			    "invalid file_service_type '%s' (expected roundrobin or random, "
			    "optionally with :N, N requests per file)",
			    val);
	j->fst_random = type[1] == 'a';
	j->fst_nr = (unsigned)nr;
	return 0;
}

static int set_percentiles(struct io_job *j, const char *val)
{
	char buf[512];
	size_t n = 0;

	if (strlen(val) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, val);
	for (char *tok = strtok(buf, ":"); tok; tok = strtok(NULL, ":")) {
		double p;

		if (n == ARRAY_SIZE(j->percentiles) || num_parse_double(tok, &p) < 0 || p <= 0 ||
		    p > 100)
			return -EINVAL;
		j->percentiles[n++] = p;
	}
	if (!n)
		return -EINVAL;
	j->npercentiles = n;
	return 0;
}

static void set_str(char **dst, const char *val)
{
	free(*dst);
	*dst = xstrdup(val);
}

/* --- the options ------------------------------------------------------------- */

/* Options of a whole number in [lo, hi] into a field. */
struct uint_opt {
	const char *name;
	size_t off; /* of an unsigned */
	uint64_t lo, hi;
	unsigned given;
};

#define UOPT(n, f, lo, hi, g) { n, offsetof(struct io_job, f), lo, hi, g }
static const struct uint_opt uint_opts[] = {
	UOPT("numjobs", numjobs, 1, 4096, 0),
	UOPT("loops", loops, 1, 1000000, 0),
	UOPT("iodepth", iodepth, 1, 65536, IOJ_IODEPTH),
	UOPT("iodepth_batch_submit", iodepth_batch, 1, 65536, 0),
	UOPT("iodepth_batch", iodepth_batch, 1, 65536, 0),
	UOPT("iodepth_batch_complete_min", batch_complete_min, 0, 65536, 0),
	UOPT("iodepth_batch_complete", batch_complete_min, 0, 65536, 0),
	UOPT("iodepth_batch_complete_max", batch_complete_max, 1, 65536, IOJ_BATCH_MAX),
	UOPT("fsync", fsync, 0, 1u << 30, 0),
	UOPT("fdatasync", fdatasync, 0, 1u << 30, 0),
	UOPT("nrfiles", nrfiles, 1, IO_NRFILES_MAX, 0),
	UOPT("openfiles", openfiles, 1, IO_NRFILES_MAX, 0),
	UOPT("thinktime_blocks", thinktime_blocks, 1, 1u << 30, IOJ_THINK_BLOCKS),
	UOPT("cpuload", cpuload, 0, 1u << 30, 0),
	UOPT("cpuchunks", cpuchunks, 1, 1u << 30, 0),
	UOPT("sqthread_poll_cpu", sqthread_poll_cpu, 0, 1u << 20, IOJ_SQPOLL_CPU),
};

/* Boolean options into an int field (inverted: buffered). */
struct bool_opt {
	const char *name;
	size_t off;
	int invert;
};

#define BOPT(n, f, inv) { n, offsetof(struct io_job, f), inv }
static const struct bool_opt bool_opts[] = {
	BOPT("direct", direct, 0),
	BOPT("buffered", direct, 1),
	BOPT("sync", sync, 0),
	BOPT("dsync", dsync, 0),
	BOPT("end_fsync", end_fsync, 0),
	BOPT("fsync_on_close", fsync_on_close, 0),
	BOPT("time_based", time_based, 0),
	BOPT("group_reporting", group_reporting, 0),
	BOPT("stonewall", stonewall, 0),
	BOPT("wait_for_previous", stonewall, 0),
	BOPT("zero_buffers", zero_buffers, 0),
	BOPT("randrepeat", randrepeat, 0),
	BOPT("norandommap", norandommap, 0),
	BOPT("lat_percentiles", lat_percentiles, 0),
	BOPT("invalidate", invalidate, 0),
	BOPT("do_verify", do_verify, 0),
	BOPT("sqthread_poll", sqthread_poll, 0),
	BOPT("registerfiles", registerfiles, 0),
	BOPT("fixedbufs", fixedbufs, 0),
};

/* Accepted, with nothing to change: fsgauge always does what they ask
 * (docs/io.md says so). */
static const char *const accepted[] = {
	"refill_buffers", "scramble_buffers", "clat_percentiles", "new_group", NULL,
};

static int table_opt(struct io_job *j, const char *key, const char *val, int *handled)
{
	*handled = 1;
	for (size_t i = 0; i < ARRAY_SIZE(uint_opts); i++) {
		const struct uint_opt *o = &uint_opts[i];
		uint64_t v;

		if (strcmp(key, o->name))
			continue;
		if (!val || parse_uint(val, o->lo, o->hi, &v) < 0)
			return -EINVAL;
		*(unsigned *)((char *)j + o->off) = (unsigned)v;
		j->given |= o->given;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bool_opts); i++) {
		const struct bool_opt *o = &bool_opts[i];
		int v;

		if (strcmp(key, o->name))
			continue;
		if (parse_bool(val, &v) < 0)
			return -EINVAL;
		*(int *)((char *)j + o->off) = o->invert ? !v : v;
		return 0;
	}
	*handled = 0;
	return 0;
}

static const char *expected(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(uint_opts); i++)
		if (!strcmp(key, uint_opts[i].name))
			return "a whole number in range";
	for (size_t i = 0; i < ARRAY_SIZE(bool_opts); i++)
		if (!strcmp(key, bool_opts[i].name))
			return "0 or 1";
	if (!strcmp(key, "bs") || !strcmp(key, "blocksize") || !strcmp(key, "blockalign"))
		return "a size from 1 to 64m, as 4k or 4k,64k";
	if (!strcmp(key, "bsrange") || !strcmp(key, "blocksize_range"))
		return "LO-HI sizes, as 4k-64k";
	if (!strcmp(key, "bssplit"))
		return "SIZE/PCT entries joined by ':', shares adding to 100";
	if (!strcmp(key, "runtime") || !strcmp(key, "ramp_time") || !strcmp(key, "startdelay"))
		return "a time: seconds, or with a us, ms, s, m, h or d suffix";
	if (!strcmp(key, "thinktime") || !strcmp(key, "thinktime_spin"))
		return "a time: microseconds, or with a us, ms, s, m, h or d suffix";
	if (!strcmp(key, "percentile_list"))
		return "percentiles above 0 and at most 100, joined by ':'";
	if (!strcmp(key, "kb_base"))
		return "1024 or 1000";
	if (!strcmp(key, "buffer_compress_percentage") || !strcmp(key, "dedupe_percentage") ||
	    !strcmp(key, "percentage_random") || !strcmp(key, "rwmixread") ||
	    !strcmp(key, "rwmixwrite"))
		return "a percentage from 0 to 100";
	if (!strcmp(key, "randseed"))
		return "a non-negative integer";
	if (!strcmp(key, "rate_process"))
		return "linear or poisson";
	if (!strcmp(key, "fadvise_hint"))
		return "0, 1, sequential, random or noreuse";
	if (!strcmp(key, "rate_iops"))
		return "requests per second, a whole number up to 1000000000 (0: none)";
	if (!strcmp(key, "offset"))
		return "a size, as 1m, or a percentage from 0 to 100, as 25%";
	if (!strcmp(key, "offset_increment"))
		return "a size, as 1m";
	if (!strcmp(key, "rate") || !strcmp(key, "rate_min"))
		return "bytes per second, as 500k or 10m (0: none; one value, no ',')";
	return "a size, as 4k, 1m or 2g";
}

/* rate=, rate_iops=, rate_min=, rate_process=: 0, -EINVAL, or 1 when
 * `key` is none of them.  fio's per-direction values ("1m,500k") are
 * refused with the rest of the bad values. */
static int rate_opt(struct io_job *j, const char *key, const char *val)
{
	uint64_t v;

	if (!strcmp(key, "rate_process")) {
		if (strcmp(val, "linear") && strcmp(val, "poisson"))
			return -EINVAL;
		j->rate_process = val[0] == 'l' ? 1 : 2;
		return 0;
	}
	if (!strcmp(key, "rate_iops"))
		return parse_uint(val, 0, 1000000000, &j->rate_iops);
	if (strcmp(key, "rate") && strcmp(key, "rate_min"))
		return 1;
	/* 0: no schedule, fio's default */
	if (io_size_parse(val, j->kb_base, &v) < 0 || v > (uint64_t)INT64_MAX)
		return -EINVAL;
	*(key[4] ? &j->rate_min : &j->rate) = v;
	return 0;
}

/* The options with values of their own shapes: 0, -EINVAL, or 1 when
 * `key` is none of them. */
static int value_opt(struct io_job *j, const char *key, const char *val)
{
	uint64_t v;
	double d;

	if (!strcmp(key, "bs") || !strcmp(key, "blocksize"))
		return set_bs(j, val);
	if (!strcmp(key, "bsrange") || !strcmp(key, "blocksize_range"))
		return set_bsrange(j, val);
	if (!strcmp(key, "bssplit"))
		return set_bssplit(j, val);
	if (!strcmp(key, "blockalign"))
		return parse_bs1(val, j->kb_base, &j->blockalign);
	if (!strcmp(key, "size") || !strcmp(key, "filesize")) {
		if (io_size_parse(val, j->kb_base, &v) < 0 || !v)
			return -EINVAL;
		*(key[0] == 's' ? &j->size : &j->filesize) = v;
		j->given |= IOJ_SIZE;
		return 0;
	}
	if (!strcmp(key, "offset")) {
		size_t n = strlen(val);

		if (n > 1 && val[n - 1] == '%') {
			char num[32];

			if (n - 1 >= sizeof(num))
				return -EINVAL;
			memcpy(num, val, n - 1);
			num[n - 1] = 0;
			if (parse_uint(num, 0, 100, &v) < 0)
				return -EINVAL;
			j->offset_pct = (int)v;
			j->offset = 0;
			return 0;
		}
		if (io_size_parse(val, j->kb_base, &v) < 0 || v > (uint64_t)INT64_MAX)
			return -EINVAL;
		j->offset = v;
		j->offset_pct = -1;
		return 0;
	}
	if (!strcmp(key, "offset_increment"))
		return io_size_parse(val, j->kb_base, &j->offset_increment) < 0 ||
		       j->offset_increment > (uint64_t)INT64_MAX ? -EINVAL : 0;
	if (!strcmp(key, "io_size") || !strcmp(key, "io_limit"))
		return io_size_parse(val, j->kb_base, &j->io_size) < 0 || !j->io_size ? -EINVAL : 0;
	if (!strcmp(key, "runtime") || !strcmp(key, "ramp_time")) {
		if (io_time_parse(val, 1, &d) < 0 || d > DURATION_MAX_SECONDS)
			return -EINVAL;
		if (key[0] == 'r' && key[1] == 'u') {
			j->runtime = d;
			j->given |= IOJ_RUNTIME;
		} else {
			j->ramp_time = d;
		}
		return 0;
	}
	if (!strcmp(key, "startdelay"))
		return io_time_parse(val, 1, &j->startdelay) < 0 ||
		       j->startdelay > DURATION_MAX_SECONDS ? -EINVAL : 0;
	if (!strcmp(key, "thinktime") || !strcmp(key, "thinktime_spin")) {
		/* fio's unit for these is the microsecond */
		if (io_time_parse(val, 1e-6, &d) < 0 || d > DURATION_MAX_SECONDS)
			return -EINVAL;
		if (key[9]) {
			j->thinktime_spin = d;
			j->given |= IOJ_THINK_SPIN;
		} else {
			j->thinktime = d;
		}
		return 0;
	}
	if (!strcmp(key, "kb_base")) {
		if (strcmp(val, "1024") && strcmp(val, "1000"))
			return -EINVAL;
		j->kb_base = (unsigned)atoi(val);
		return 0;
	}
	if (!strcmp(key, "buffer_compress_percentage") || !strcmp(key, "dedupe_percentage")) {
		if (parse_uint(val, 0, 100, &v) < 0)
			return -EINVAL;
		*(key[0] == 'b' ? &j->compress_pct : &j->dedupe_pct) = (int)v;
		return 0;
	}
	if (!strcmp(key, "rwmixread") || !strcmp(key, "rwmixwrite")) {
		/* one share: the later of the two options wins, as in fio */
		if (parse_uint(val, 0, 100, &v) < 0)
			return -EINVAL;
		j->rwmixread = key[5] == 'r' ? (unsigned)v : 100 - (unsigned)v;
		return 0;
	}
	if (!strcmp(key, "percentage_random")) {
		if (parse_uint(val, 0, 100, &v) < 0)
			return -EINVAL;
		j->percentage_random = (int)v;
		return 0;
	}
	if (!strcmp(key, "randseed")) {
		if (num_parse_u64(val, &j->randseed) < 0)
			return -EINVAL;
		j->has_randseed = 1;
		return 0;
	}
	if (!strcmp(key, "percentile_list"))
		return set_percentiles(j, val);
	if (!strcmp(key, "fadvise_hint")) {
		static const char *const hints[] = { "0", "1", "sequential", "random", "noreuse" };

		for (size_t i = 0; i < ARRAY_SIZE(hints); i++)
			if (!strcmp(val, hints[i])) {
				j->fadvise_hint = (int)i; /* IO_FADV_* */
				return 0;
			}
		return -EINVAL;
	}
	return rate_opt(j, key, val);
}

static int string_opt(struct io_job *j, const char *key, const char *val)
{
	if (!strcmp(key, "name")) {
		set_str(&j->name, val);
		return 0;
	}
	if (!strcmp(key, "description")) {
		set_str(&j->description, val);
		return 0;
	}
	if (!strcmp(key, "filename")) {
		set_str(&j->filename, val);
		return 0;
	}
	if (!strcmp(key, "wait_for")) {
		set_str(&j->wait_for, val);
		return 0;
	}
	if (!strcmp(key, "directory")) {
		set_str(&j->directory, val);
		j->given |= IOJ_DIRECTORY;
		return 0;
	}
	if (!strcmp(key, "verify")) {
		j->verify = strcmp(val, "0") && strcmp(val, "null");
		return 0;
	}
	return 1;
}

static const struct io_opt_info *info_of(const char *key)
{
	for (const struct io_opt_info *o = io_opt_table; o->name; o++)
		if (!strcmp(o->name, key))
			return o;
	return NULL;
}

static int set_one(struct io_job *j, const char *key, const char *val, char *err, size_t errlen)
{
	int handled, ret;

	if (!strcmp(key, "rw") || !strcmp(key, "readwrite"))
		return val ? set_rw(j, val, err, errlen)
			   : fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
	if (!strcmp(key, "random_distribution")) {
		struct dist_spec spec;

		if (!val)
			return fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
		if (dist_parse(val, &spec, err, errlen))
			return -EINVAL;
		free(j->random_distribution);
		/* uniform ("random") is the default, with the random map */
		j->random_distribution = spec.kind == DIST_UNIFORM ? NULL : xstrdup(val);
		return 0;
	}
	if (!strcmp(key, "file_service_type"))
		return val ? set_fst(j, val, err, errlen)
			   : fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
	if (!strcmp(key, "filename_format")) {
		if (!val)
			return fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
		/* fio makes the directories of a path; fsgauge's files stay
		 * directly in the run directory */
		if (strchr(val, '/'))
			return fail(err, errlen, -EINVAL,
				    "filename_format '%s': a plain file name is needed, without "
				    "'/' (the files are made in the run directory)",
				    val);
		set_str(&j->filename_format, val);
		return 0;
	}
	if (!strcmp(key, "cpumode")) {
		if (val && !strcmp(val, "qsort"))
			return fail(err, errlen, -ENOTSUP,
				    "cpumode=qsort is not supported by fsgauge io (noop; docs/io.md)");
		if (!val || strcmp(val, "noop"))
			return fail(err, errlen, -EINVAL, "invalid cpumode '%s' (expected noop or qsort)",
				    val ? val : "");
		return 0;
	}
	if (!strcmp(key, "stat_type")) {
		if (!val)
			return fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
		if (!strcmp(val, "statx"))
			return fail(err, errlen, -ENOTSUP,
				    "stat_type=statx is not supported by fsgauge io (stat or lstat; "
				    "docs/io.md)");
		if (strcmp(val, "stat") && strcmp(val, "lstat"))
			return fail(err, errlen, -EINVAL,
				    "invalid stat_type '%s' (expected stat, lstat or statx)", val);
		j->stat_lstat = val[0] == 'l';
		return 0;
	}
	if (!strcmp(key, "startdelay") && val && strchr(val + 1, '-') && *val != '-')
		/* fio's range: a time drawn per clone, where fsgauge starts
		 * a group's clones together */
		return fail(err, errlen, -ENOTSUP,
			    "startdelay range '%s' is not supported by fsgauge io: a group's clones "
			    "start together (give one time; docs/io.md)",
			    val);
	if (!strcmp(key, "verify_only"))
		/* fio's check of what an earlier run wrote */
		return fail(err, errlen, -ENOTSUP,
			    "option 'verify_only' is not supported by fsgauge io: each run writes "
			    "its files anew in its own run directory, so no earlier run's data is "
			    "there to check (docs/io.md)");
	if (!strcmp(key, "verify_backlog") || !strcmp(key, "verify_backlog_batch"))
		return fail(err, errlen, -ENOTSUP,
			    "option '%s' is not supported by fsgauge io: a job reads back what it "
			    "wrote after all its writes (docs/io.md)",
			    key);
	if (!strcmp(key, "ioengine"))
		return val ? set_engine(j, val, err, errlen)
			   : fail(err, errlen, -EINVAL, "option '%s' needs a value", key);
	if (in_list(accepted, key))
		return 0;
	ret = table_opt(j, key, val, &handled);
	if (!handled) {
		if (in_list(unsupported, key))
			return fail(err, errlen, -ENOTSUP,
				    "option '%s' is not supported by fsgauge io (docs/io.md)", key);
		if (!val)
			return info_of(key) ? fail(err, errlen, -EINVAL, "option '%s' needs a value", key)
					    : fail(err, errlen, -ENOENT, "unknown option '%s'", key);
		ret = value_opt(j, key, val);
		if (ret == 1)
			ret = string_opt(j, key, val);
		if (ret == 1)
			return fail(err, errlen, -ENOENT, "unknown option '%s'", key);
	}
	if (ret < 0)
		return fail(err, errlen, -EINVAL, "invalid %s '%s' (expected %s)", key,
			    val ? val : "", expected(key));
	return 0;
}

int io_job_set(struct io_job *j, const char *key, const char *val, char *err, size_t errlen)
{
	int ret = set_one(j, key, val, err, errlen);

	if (!ret) {
		j->opts = xrealloc(j->opts, (j->nopts + 1) * sizeof(*j->opts));
		j->opts[j->nopts].key = xstrdup(key);
		j->opts[j->nopts++].val = xstrdup_or_null(val);
	}
	return ret;
}
