/*
 * dump.c — workload_dump(): a canonical text form of a parsed workload.
 *
 * One item per line, in a fixed order: variables, filesets, processes with
 * their threads and flowops (indented), then run settings, echo and usage
 * texts and warnings.  Within each section items keep file order, and
 * attributes are printed in a fixed order whatever order the file used, so
 * that golden files stay stable.  A reference to a variable prints as
 * `$name=value` (both what was written and what it means now).
 */
#include "workload/internal.h"

#include <string.h>

#include "util/util.h"

struct field {
	const char *name;
	size_t off;
};

#define FS(f) offsetof(struct wl_fileset, f)
static const struct field fileset_fields[] = {
	{ "path", FS(path) },
	{ "size", FS(size) },
	{ "entries", FS(entries) },
	{ "dirwidth", FS(dirwidth) },
	{ "dirgamma", FS(dirgamma) },
	{ "dirdepthrv", FS(dirdepthrv) },
	{ "leafdirs", FS(leafdirs) },
	{ "prealloc", FS(prealloc) },
	{ "reuse", FS(reuse) },
	{ "paralloc", FS(paralloc) },
	{ "readonly", FS(readonly) },
	{ "trusttree", FS(trusttree) },
	{ "cached", FS(cached) },
	{ "filesizegamma", FS(sizegamma) },
	{ "chunksize", FS(chunksize) },
};
#undef FS

#define FO(f) offsetof(struct wl_flowop, f)
static const struct field flowop_fields[] = {
	{ "iosize", FO(iosize) },
	{ "iters", FO(iters) },
	{ "fd", FO(fd) },
	{ "srcfd", FO(srcfd) },
	{ "random", FO(random) },
	{ "random_distribution", FO(random_distribution) },
	{ "percentage_random", FO(percentage_random) },
	{ "randommap", FO(randommap) },
	{ "offset", FO(offset) },
	{ "rate_iops", FO(rate_iops) },
	{ "rate", FO(rate) },
	{ "rate_process", FO(rate_process) },
	{ "rate_min", FO(rate_min) },
	{ "dsync", FO(dsync) },
	{ "directio", FO(directio) },
	{ "workingset", FO(wss) },
	{ "value", FO(value) },
	{ "target", FO(target) },
	{ "blocking", FO(blocking) },
	{ "highwater", FO(highwater) },
	{ "rotatefd", FO(rotatefd) },
	{ "opennext", FO(opennext) },
	{ "indexed", FO(indexed) },
	{ "ordered", FO(ordered) },
	{ "randvar", FO(rvar) },
	{ "osync", FO(osync) },
	{ "reverse", FO(reverse) },
	{ "stride", FO(stride) },
	{ "bufsize", FO(bufsize) },
	{ "stonewall", FO(stonewall) },
	{ "resume", FO(resume) },
	{ "dirsync", FO(dirsync) },
	{ "readdir", FO(readdir) },
	{ "iodepth", FO(iodepth) },
	{ "iodepth_batch", FO(iodepth_batch) },
	{ "iobytes", FO(iobytes) },
	{ "readpct", FO(readpct) },
};
#undef FO

static void fields(struct sbuf *sb, const void *obj, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_val *v = (const struct wl_val *)((const char *)obj + f[i].off);

		if (v->kind == WLV_NONE)
			continue;
		sbuf_addf(sb, " %s=", f[i].name);
		wl_fmt_val(sb, v);
	}
}

static void one_val(struct sbuf *sb, const char *name, const struct wl_val *v)
{
	if (v->kind == WLV_NONE)
		return;
	sbuf_addf(sb, " %s=", name);
	wl_fmt_val(sb, v);
}

static void dump_flowop(struct sbuf *sb, const struct wl_flowop *fo, int depth)
{
	for (int i = 0; i < depth; i++)
		sbuf_add(sb, "  ");
	if (fo->type == FO_COMPOSITE)
		sbuf_addf(sb, "flowop %s %s (composite)", fo->composite_name, fo->name);
	else
		sbuf_addf(sb, "flowop %s %s", flowop_type_name(fo->type), fo->name);
	if (fo->fileset_name)
		sbuf_addf(sb, " fileset=%s", fo->fileset_name);
	fields(sb, fo, flowop_fields, ARRAY_SIZE(flowop_fields));
	sbuf_addc(sb, '\n');
	for (size_t i = 0; i < fo->nchildren; i++)
		dump_flowop(sb, fo->children[i], depth + 1);
}

static void texts(struct sbuf *sb, const char *what, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(sb, "%s ", what);
		wl_fmt_string(sb, v[i]);
		sbuf_addc(sb, '\n');
	}
}

char *workload_dump(const struct workload *w)
{
	static const char *const quit[] = { [QUIT_TIMEOUT] = "timeout",
					    [QUIT_FIRSTDONE] = "firstdone",
					    [QUIT_ALLDONE] = "alldone" };
	struct sbuf sb;

	sbuf_init(&sb);
	sbuf_addf(&sb, "workload %s\n", w->name);
	for (size_t i = 0; i < w->nvars; i++) {
		const struct wl_var *v = w->vars[i];

		sbuf_addf(&sb, "var %s=", v->name);
		wl_fmt_var_value(&sb, v);
		sbuf_add(&sb, v->overridden ? " (overridden)\n" : "\n");
	}
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct wl_fileset *fs = w->filesets[i];

		sbuf_addf(&sb, "%s %s", fs->is_file ? "file" : "fileset", fs->name);
		fields(&sb, fs, fileset_fields, ARRAY_SIZE(fileset_fields));
		sbuf_addc(&sb, '\n');
	}
	for (size_t i = 0; i < w->nprocesses; i++) {
		const struct wl_process *pr = w->processes[i];

		sbuf_addf(&sb, "process %s", pr->name);
		one_val(&sb, "instances", &pr->instances);
		one_val(&sb, "nice", &pr->nice);
		sbuf_addc(&sb, '\n');
		for (size_t j = 0; j < pr->nthreads; j++) {
			const struct wl_thread *th = pr->threads[j];

			sbuf_addf(&sb, "  thread %s", th->name);
			one_val(&sb, "instances", &th->instances);
			one_val(&sb, "memsize", &th->memsize);
			one_val(&sb, "useism", &th->useism);
			sbuf_addc(&sb, '\n');
			for (size_t k = 0; k < th->nflowops; k++)
				dump_flowop(&sb, th->flowops[k], 2);
		}
	}
	if (w->eventgen_rate.kind != WLV_NONE) {
		sbuf_add(&sb, "eventgen");
		one_val(&sb, "rate", &w->eventgen_rate);
		sbuf_addc(&sb, '\n');
	}
	sbuf_add(&sb, "run ");
	wl_fmt_double(&sb, w->run_seconds);
	sbuf_add(&sb, w->has_run ? "\n" : " (default)\n");
	sbuf_addf(&sb, "quit %s\n", quit[w->quit_mode]);
	sbuf_addf(&sb, "debug %d\n", w->debug_level);
	texts(&sb, "echo", w->echoes, w->nechoes);
	texts(&sb, "usage", w->usages, w->nusages);
	texts(&sb, "warning", w->warnings, w->nwarnings);
	return sbuf_take(&sb);
}
