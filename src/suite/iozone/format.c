/* format.c — iozone's report layout and fsgauge's summary; see
 * format.h. */
#include "suite/iozone/format.h"
#include "output/csv.h"

#include <ctype.h>
#include <string.h>

#include "engine/engine.h"
#include "output/output.h"
#include "util/util.h"

const struct ioz_test_info ioz_tests[IOZ__COUNT] = {
	[IOZ_WRITE] = { "write", 0, 0, 1, 1, 0, "initial writers", "Initial write", "", "write",
			"Writer report" },
	[IOZ_REWRITE] = { "rewrite", 0, 1, 1, 0, 0, "rewriters", "Rewrite", "", "rewrite",
			  "Re-writer report" },
	[IOZ_READ] = { "read", 1, 0, 0, 0, 0, "readers", "Read", "", "read", "Reader report" },
	[IOZ_REREAD] = { "reread", 1, 1, 0, 0, 0, "re-readers", "Re-read", "", "reread",
			 "Re-Reader report" },
	[IOZ_RANDREAD] = { "random-read", 2, 0, 0, 0, 0, "random readers", "Random read", "random",
			   "read", "Random read report" },
	[IOZ_RANDWRITE] = { "random-write", 2, 0, 1, 0, 0, "random writers", "Random write",
			    "random", "write", "Random write report" },
	[IOZ_BKWDREAD] = { "backward-read", 3, 0, 0, 0, 0, "reverse readers", "Reverse Read",
			   "bkwd", "read", "Backward read report" },
	[IOZ_RECREWRITE] = { "record-rewrite", 4, 0, 1, 0, 0, "record rewriters", "Record rewrite",
			     "record", "rewrite", "Record rewrite report" },
	[IOZ_STRIDEREAD] = { "stride-read", 5, 0, 0, 0, 0, "stride readers", "Stride read",
			     "stride", "read", "Stride read report" },
	[IOZ_FWRITE] = { "fwrite", 6, 0, 1, 1, 1, "fwriters", "Fwrite", "", "fwrite",
			 "Fwrite report" },
	[IOZ_FREWRITE] = { "frewrite", 6, 1, 1, 0, 1, NULL, NULL, "", "frewrite",
			   "Re-Fwrite report" },
	[IOZ_FREAD] = { "fread", 7, 0, 0, 0, 1, "freaders", "Fread", "", "fread", "Fread report" },
	[IOZ_FREREAD] = { "freread", 7, 1, 0, 0, 1, NULL, NULL, "", "freread", "Re-Fread report" },
	[IOZ_MIX] = { "random-mix", 8, 0, 1, 0, 0, "mixed workload", "Mixed workload", "random",
		      "mix", "Random mix report" },
	[IOZ_PWRITE] = { "pwrite", 9, 0, 1, 1, 0, "pwrite writers", "Pwrite", "", "pwrite",
			 "Pwrite report" },
	[IOZ_REPWRITE] = { "repwrite", 9, 1, 1, 0, 0, NULL, NULL, "", "repwrite",
			   "Re-Pwrite report" },
	[IOZ_PREAD] = { "pread", 10, 0, 0, 0, 0, "pread readers", "Pread", "", "pread",
			"Pread report" },
	[IOZ_REPREAD] = { "repread", 10, 1, 0, 0, 0, NULL, NULL, "", "repread", "Re-Pread report" },
};

/* iozone's throughput order; record rewriters (iozone has none in this
 * mode) go where -i 4 sits between -i 3 and -i 5. */
const enum ioz_test ioz_tp_order[] = {
	IOZ_WRITE,	IOZ_REWRITE,   IOZ_READ,     IOZ_REREAD, IOZ_BKWDREAD,
	IOZ_RECREWRITE, IOZ_STRIDEREAD, IOZ_RANDREAD, IOZ_MIX,	  IOZ_RANDWRITE,
	IOZ_PWRITE,	IOZ_PREAD,     IOZ_FWRITE,   IOZ_FREAD,	  IOZ__COUNT,
};

void ioz_fmt_tp_section(FILE *f, const char *label, const struct ioz_tp *t)
{
	fprintf(f, "\tChildren see throughput for %2u %-16s\t= %10.2f KB/sec\n", t->nthreads, label,
		t->children);
	fprintf(f, "\tParent sees throughput for %2u %-16s\t= %10.2f KB/sec\n", t->nthreads, label,
		t->parent);
	fprintf(f, "\tMin throughput per thread \t\t\t= %10.2f KB/sec \n", t->min);
	fprintf(f, "\tMax throughput per thread \t\t\t= %10.2f KB/sec\n", t->max);
	fprintf(f, "\tAvg throughput per thread \t\t\t= %10.2f KB/sec\n", t->avg);
	fprintf(f, "\tMin xfer \t\t\t\t\t= %10.2f KB\n", t->min_xfer);
	if (t->idle)
		fprintf(f,
			"\tfsgauge: %u of %u threads moved no data (%s): Min and Avg "
			"throughput and Min xfer are over the %u that did%s\n",
			t->idle, t->nthreads,
			t->stonewall ? "the first thread to finish raised the stonewall before "
				       "their first record"
				     : "they stopped before their first record",
			t->nthreads - t->idle,
			t->stonewall ? "; -x runs every thread to the end, a larger -s gives "
				       "them time to start"
				     : "");
	for (unsigned k = 0; t->ntargets > 1 && k < t->ntargets; k++)
		fprintf(f, "\tfsgauge: %u thread%s in '%s' \t= %10.2f KB/sec\n", t->tthreads[k],
			t->tthreads[k] == 1 ? "" : "s", t->tnames[k], t->tkbs[k]);
	fputc('\n', f);
}

void ioz_fmt_table_header(FILE *f, const enum ioz_test *cols, size_t ncols)
{
	fprintf(f, "%16s%8s", "", "");
	for (size_t i = 0; i < ncols; i++)
		fprintf(f, "%10s", ioz_tests[cols[i]].col_top);
	fprintf(f, "\n%16s%8s", "KB", "reclen");
	for (size_t i = 0; i < ncols; i++)
		fprintf(f, "%10s", ioz_tests[cols[i]].col);
	fputc('\n', f);
}

void ioz_fmt_table_row(FILE *f, uint64_t size_kb, uint64_t rec_kb)
{
	fprintf(f, "%16llu%8llu", (unsigned long long)size_kb, (unsigned long long)rec_kb);
}

void ioz_fmt_table_cell(FILE *f, double kbs)
{
	if (kbs < 0)
		fprintf(f, "%10s", "");
	else
		fprintf(f, "%10llu", (unsigned long long)kbs);
}

void ioz_fmt_csv_auto(FILE *f, const enum ioz_test *cols, size_t ncols, const uint64_t *sizes_kb,
		      size_t nsizes, const uint64_t *recs_kb, size_t nrecs, const double *values)
{
	for (size_t c = 0; c < ncols; c++) {
		csv_field(f, ioz_tests[cols[c]].csv, 1);
		fputc('\n', f);
		csv_field(f, "KB", 1);
		for (size_t r = 0; r < nrecs; r++)
			fprintf(f, ",%llu", (unsigned long long)recs_kb[r]);
		fputc('\n', f);
		for (size_t s = 0; s < nsizes; s++) {
			fprintf(f, "%llu", (unsigned long long)sizes_kb[s]);
			for (size_t r = 0; r < nrecs; r++) {
				double v = values[(c * nsizes + s) * nrecs + r];

				if (v < 0)
					fputc(',', f);
				else
					fprintf(f, ",%llu", (unsigned long long)v);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

void ioz_fmt_csv_tp(FILE *f, const enum ioz_test *tests, const double *children, size_t n,
		    unsigned nthreads, uint64_t rec_kb)
{
	char buf[64];

	csv_field(f, "Throughput report Y-axis is type of test X-axis is number of threads", 1);
	fputc('\n', f);
	snprintf(buf, sizeof(buf), "Record size = %llu KB", (unsigned long long)rec_kb);
	csv_field(f, buf, 1);
	fputc('\n', f);
	csv_field(f, "Output is in KB/sec", 1);
	fprintf(f, "\n\n");
	csv_field(f, "Test", 1);
	fprintf(f, ",%u\n", nthreads);
	for (size_t i = 0; i < n; i++) {
		csv_field(f, ioz_tests[tests[i]].tp_csv, 1);
		fprintf(f, ",%.2f\n", children[i]);
	}
	fputc('\n', f);
}

int ioz_parse_phase_name(const char *name, enum ioz_test *t, uint64_t *size_kb, uint64_t *rec_kb)
{
	char key[32];
	unsigned long long s, r;
	int n = -1;

	if (sscanf(name, "%31s %llu%*1[k] %llu%*1[k]%n", key, &s, &r, &n) != 3 || n < 0 || name[n])
		return 0;
	for (int i = 0; i < IOZ__COUNT; i++) {
		if (strcmp(ioz_tests[i].key, key))
			continue;
		if (t)
			*t = (enum ioz_test)i;
		if (size_kb)
			*size_kb = s;
		if (rec_kb)
			*rec_kb = r;
		return 1;
	}
	return 0;
}

int ioz_is_thread_op_name(const char *name)
{
	const char *p = name;

	if (*p++ != 't' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '.';
}

/* A record operation of a thread: "t<N>.<op>" that reads or writes.  The
 * untimed ones ("t<N>-fill") and the timed section itself ("t<N>") are
 * not. */
static int is_record_op(const struct result_op *o)
{
	if (o->cls != OPC_READ && o->cls != OPC_WRITE)
		return 0;
	return ioz_is_thread_op_name(o->name);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* One row of the summary: phases `from`..`to` of `r` whose names begin
 * with `key` (all of them when key is NULL) together.  Latencies merge
 * exactly; the CPU columns are over the phases long enough to measure,
 * "-" when none is.  Returns 1 when the CPU was not given. */
static int summary_row(FILE *f, const struct result *r, size_t from, size_t to, const char *key,
		       const char *label)
{
	struct op_stats st, cpu_st;
	const char *names[32];
	uint64_t cpu_ns = 0;
	double secs = 0;
	int flags = 0, measured = 0;
	size_t nf, kl = key ? strlen(key) : 0;

	op_stats_init(&st);
	op_stats_init(&cpu_st);
	for (size_t i = from; i < to; i++) {
		const struct result_phase *p = &r->phases[i];

		if (key && (strncmp(p->name, key, kl) || (p->name[kl] && p->name[kl] != ' ')))
			continue;
		flags |= p->open_flags;
		for (size_t j = 0; j < p->nops; j++)
			if (is_record_op(&p->ops[j])) {
				op_stats_merge(&st, &p->ops[j].st);
				if (!p->too_fast)
					op_stats_merge(&cpu_st, &p->ops[j].st);
			}
		/* CPU over a phase too brief to measure is mostly thread start
		 * and stop, not the test's records: no number (as bonnie's +++) */
		if (!p->too_fast) {
			measured = 1;
			cpu_ns += p->cpu_user_ns + p->cpu_sys_ns;
			secs += p->seconds;
		}
	}
	fprintf(f, "\t%-26s %10llu", label, (unsigned long long)st.ops);
	if (st.lat.count)
		fprintf(f, " %9.3f %9.3f %9.3f %9.3f %9.3f", ms(hist_quantile(&st.lat, 0.5)),
			ms(hist_quantile(&st.lat, 0.9)), ms(hist_quantile(&st.lat, 0.99)),
			ms(hist_quantile(&st.lat, 0.999)), ms(st.lat.max));
	else
		fprintf(f, " %9s %9s %9s %9s %9s", "-", "-", "-", "-", "-");
	if (!measured) {
		fprintf(f, " %10s %6s  ", "-", "-");
	} else {
		/* no operation CPU-sampled: unknown, not zero */
		if (cpu_st.cpu_samples)
			fprintf(f, " %10.1f", op_stats_cpu_per_op(&cpu_st) / 1e3);
		else
			fprintf(f, " %10s", "-");
		fprintf(f, " %6.1f  ", (double)cpu_ns / 1e9 / (secs > 0 ? secs : 1e-9) * 100.0);
	}
	nf = engine_open_flag_names(flags, names, ARRAY_SIZE(names));
	for (size_t k = 0; k < nf; k++)
		fprintf(f, "%s%s", k ? "|" : "", names[k]);
	fputc('\n', f);
	op_stats_release(&st);
	op_stats_release(&cpu_st);
	return !measured;
}

/* The three cache-honesty verdicts of a phase, by number: the flag and
 * its reason (docs/trust.md). */
static const char *cache_verdict(const struct result_phase *p, int k, int *yes)
{
	switch (k) {
	case 0:
		*yes = p->cache.assessed && p->cache.likely_cached;
		return p->cache.reason;
	case 1:
		*yes = p->cache.writes_absorbed;
		return p->cache.write_reason;
	default:
		*yes = p->cache.rate_implausible;
		return p->cache.rate_reason;
	}
}

static int same_test(const char *name, const char *key, size_t kl)
{
	return !strncmp(name, key, kl) && (!name[kl] || name[kl] == ' ');
}

/* Auto mode: per test and verdict one line, how many of its cells, and
 * the first cell's reason. */
static void cache_warnings_per_test(FILE *f, const struct result *r)
{
	static const char *const what[] = {
		"reads were likely served from memory, not the storage",
		"writes were likely absorbed by the page cache, not the storage",
		"implausible rate",
	};

	for (size_t i = 0; i < r->nphases; i++) {
		const char *name = r->phases[i].name;
		size_t kl = strcspn(name, " "), j;

		for (j = 0; j < i && !same_test(r->phases[j].name, name, kl); j++)
			;
		if (j < i)
			continue; /* the test was done at its first cell */
		for (int k = 0; k < 3; k++) {
			const struct result_phase *first = NULL;
			const char *reason = NULL;
			size_t hit = 0, cells = 0;

			for (j = i; j < r->nphases; j++) {
				int yes;
				const char *why;

				if (!same_test(r->phases[j].name, name, kl))
					continue;
				cells++;
				why = cache_verdict(&r->phases[j], k, &yes);
				if (yes && !hit++) {
					first = &r->phases[j];
					reason = why;
				}
			}
			if (hit)
				fprintf(f, "\tWARNING: '%.*s': %s, in %zu of its %zu cells; '%s': %s\n",
					(int)kl, name, what[k], hit, cells, first->name,
					reason ? reason : "");
		}
	}
}

void ioz_fmt_cache_warnings(FILE *f, const struct result *r, int per_test)
{
	if (per_test) {
		cache_warnings_per_test(f, r);
		return;
	}
	for (size_t i = 0; i < r->nphases; i++) {
		char what[160];

		snprintf(what, sizeof(what), "'%s'", r->phases[i].name);
		output_cache_warnings(f, &r->phases[i], "\t", what);
	}
}

void ioz_fmt_summary(FILE *f, const struct result *r, int per_test)
{
	size_t brief = 0, rows = 0;

	fprintf(f, "\n\tfsgauge: per test, the record operations of every thread together "
		   "(latency in ms), CPU and open flags\n");
	fprintf(f, "\t%-26s %10s %9s %9s %9s %9s %9s %10s %6s  %s\n", "test", "ops", "p50", "p90",
		"p99", "p99.9", "max", "us/op-cpu", "cpu%", "open flags");
	for (size_t i = 0; i < r->nphases; i++) {
		const char *name = r->phases[i].name;
		size_t kl = strcspn(name, " ");
		char key[64];
		int seen = 0;

		if (!per_test) {
			brief += (size_t)summary_row(f, r, i, i + 1, NULL, name);
			rows++;
			continue;
		}
		/* auto mode: the test's cells ("write 64k 4k", "write 64k 8k",
		 * ...) in one row, at the place of its first cell */
		snprintf(key, sizeof(key), "%.*s", (int)kl, name);
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strncmp(r->phases[j].name, key, kl) &&
			       (!r->phases[j].name[kl] || r->phases[j].name[kl] == ' ');
		if (seen)
			continue;
		brief += (size_t)summary_row(f, r, i, r->nphases, key, key);
		rows++;
	}
	if (brief)
		fprintf(f, "\t(-: CPU not given for %zu test%s too brief to measure (under %.1f s or "
			   "%d operations): see the JSON's too_fast_reason)\n",
			brief, brief == 1 ? "" : "s", RESULT_MIN_SECONDS, RESULT_MIN_OPS);
	if (per_test && rows < r->nphases)
		fprintf(f, "\t(one row per test, its cells of file size and record size together; "
			   "the JSON has each of the %zu cells as a phase, \"<test> <size>k "
			   "<record>k\")\n",
			r->nphases);
}
