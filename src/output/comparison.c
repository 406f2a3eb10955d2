/* comparison.c — align results and compare them with the baseline; see comparison.h. */
#include "output/comparison.h"
#include "output/csv.h"
#include "output/output.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/zfsstat.h"
#include "util/human.h"
#include "util/linediff.h"
#include "util/size.h"
#include "util/util.h"

/*
 * Keys that describe how a run was done but not what was measured: the
 * random seed, where it ran (the thing being compared), its label, how
 * many times it was repeated and how often it sampled.  Everything else
 * (duration, thread counts, file sizes, engine, O_DIRECT, data pattern)
 * changes the workload and must match unless --force.
 */
int comparison_param_ignored(const char *key)
{
	static const char *const ignored[] = { "seed", "dir", "label", "repeat", "repeats",
					       "interval", "keep", "quiet", "json" };
	size_t n = strlen(key);

	for (size_t i = 0; i < ARRAY_SIZE(ignored); i++)
		if (!strcmp(key, ignored[i]))
			return 1;
	/* workload variables: "var.dir", "var.seed" */
	if (n > 4 && !strncmp(key, "var.", 4))
		return !strcmp(key + 4, "dir") || !strcmp(key + 4, "seed");
	return 0;
}

char *comparison_params_hash(const struct kvlist *params)
{
	char *buf = NULL, *h;
	size_t len = 0;

	for (size_t i = 0; i < params->n; i++) {
		const struct kv *p = &params->v[i];
		size_t nk = strlen(p->key) + 1, nv = strlen(p->value) + 1;

		if (comparison_param_ignored(p->key))
			continue;
		buf = xrealloc(buf, len + nk + nv);
		memcpy(buf + len, p->key, nk);
		memcpy(buf + len + nk, p->value, nv);
		len += nk + nv;
	}
	h = result_hash(buf ? buf : "", len);
	free(buf);
	return h;
}

int comparison_env_same(const char *key, const char *a, const char *b)
{
	/* keys whose value is "KIND (MEASUREMENT...)" */
	static const char *const measured[] = { "latency_clock" };
	size_t na, nb;

	if (!a || !b)
		return a == b;
	for (size_t i = 0; i < ARRAY_SIZE(measured); i++) {
		if (strcmp(key, measured[i]))
			continue;
		na = strstr(a, " (") ? (size_t)(strstr(a, " (") - a) : strlen(a);
		nb = strstr(b, " (") ? (size_t)(strstr(b, " (") - b) : strlen(b);
		return na == nb && !strncmp(a, b, na);
	}
	return !strcmp(a, b);
}

/* Environment keys in the order a reader looks for them; others follow. */
static int env_rank(const char *key)
{
	static const char *const order[] = { "kernel",	    "os",	     "arch",
					     "hostname",    "cpu_model",     "cpus",
					     "ram_bytes",   "fs_type",	     "mount_options",
					     "source_device", "mount_point", "target" };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (!strcmp(key, order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(order);
}

static void add_warning(struct comparison *c, char *w)
{
	c->warnings = xrealloc(c->warnings, (c->nwarnings + 1) * sizeof(*c->warnings));
	c->warnings[c->nwarnings++] = w;
}

static int has_key(const char **keys, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], k))
			return 1;
	return 0;
}

/* Keys of res[*]->params (env = 0) or ->env (env = 1) whose values differ. */
static struct cmp_diff *find_diffs(struct comparison *c, int env, size_t *ndiffs)
{
	const char **keys = NULL;
	size_t nkeys = 0, nd = 0;
	struct cmp_diff *d;

	for (size_t i = 0; i < c->nres; i++) {
		const struct kvlist *l = env ? &c->res[i]->env : &c->res[i]->params;

		for (size_t k = 0; k < l->n; k++) {
			if (has_key(keys, nkeys, l->v[k].key))
				continue;
			keys = xrealloc(keys, (nkeys + 1) * sizeof(*keys));
			keys[nkeys++] = l->v[k].key;
		}
	}
	if (env) {
		/* stable insertion sort by rank: a handful of keys */
		for (size_t i = 1; i < nkeys; i++) {
			const char *k = keys[i];
			size_t j = i;

			for (; j > 0 && env_rank(keys[j - 1]) > env_rank(k); j--)
				keys[j] = keys[j - 1];
			keys[j] = k;
		}
	}
	d = xcalloc(nkeys + 1, sizeof(*d));
	for (size_t k = 0; k < nkeys; k++) {
		const char *base = kv_get(env ? &c->res[0]->env : &c->res[0]->params, keys[k]);
		int differs = 0;

		if (!env && comparison_param_ignored(keys[k]))
			continue;
		for (size_t i = 1; i < c->nres; i++) {
			const char *v = kv_get(env ? &c->res[i]->env : &c->res[i]->params, keys[k]);

			if (env ? !comparison_env_same(keys[k], base, v)
				: (v == NULL) != (base == NULL) || (v && strcmp(v, base)))
				differs = 1;
		}
		if (!differs)
			continue;
		d[nd].key = keys[k];
		d[nd].values = xcalloc(c->nres, sizeof(char *));
		for (size_t i = 0; i < c->nres; i++)
			d[nd].values[i] =
				kv_get(env ? &c->res[i]->env : &c->res[i]->params, keys[k]);
		nd++;
	}
	free(keys);
	*ndiffs = nd;
	return d;
}

static const struct rphase *find_phase(const struct rfile *rf, const char *name)
{
	for (size_t i = 0; i < rf->nphases; i++)
		if (!strcmp(rf->phases[i].name, name))
			return &rf->phases[i];
	return NULL;
}

static const struct rop *find_op(const struct rphase *p, const char *name)
{
	if (!p)
		return NULL;
	for (size_t i = 0; i < p->nops; i++)
		if (!strcmp(p->ops[i].name, name))
			return &p->ops[i];
	return NULL;
}

int comparison_grid_phase(const struct rfile *rf, const char *phase, struct phase_point *pt)
{
	struct phase_point p;

	if (!rf->grid || !rf->grid->point(phase, &p) || p.group >= rf->grid->ngroups)
		return 0;
	if (pt)
		*pt = p;
	return 1;
}

int comparison_row_grouped(const struct comparison *c, const struct cmp_row *r)
{
	(void)c;
	return r->grid != NULL;
}

size_t comparison_grid_rows(const struct comparison *c, const struct phase_grid *grid, size_t g,
			    enum figure fig)
{
	size_t n = 0;

	for (size_t r = 0; r < c->nrows; r++)
		n += !c->rows[r].op && !c->rows[r].metric && c->rows[r].fig == fig &&
		     c->rows[r].grid == grid && c->rows[r].group == g;
	return n;
}

/* Where phase `name` sits when every result that has it has it as a
 * phase of the same grid: *pt filled, its grid returned; else NULL. */
static const struct phase_grid *phase_grouped(const struct comparison *c, const char *name,
					      struct phase_point *pt)
{
	const struct phase_grid *grid = NULL;

	for (size_t i = 0; i < c->nres; i++) {
		if (!find_phase(c->res[i], name))
			continue;
		if (!comparison_grid_phase(c->res[i], name, pt) ||
		    (grid && grid != c->res[i]->grid))
			return NULL;
		grid = c->res[i]->grid;
	}
	return grid;
}

/* The samples of row (phase, op, fig) in result rf, or NULL. */
static const struct rsamples *row_samples(const struct rfile *rf, const char *phase, const char *op,
					  enum figure fig)
{
	const struct rphase *p = find_phase(rf, phase);
	const struct rop *o;

	if (!p)
		return NULL;
	if (!op)
		return p->fig[fig].n ? &p->fig[fig] : NULL;
	o = find_op(p, op);
	return o && o->fig[fig].n ? &o->fig[fig] : NULL;
}

/* A row of samples s[0..nres) (s[i] NULL: result i has none; s is freed
 * here), unless the figure is 0 everywhere: the MB/s of an open says
 * nothing.  `grouped` carries the row's grid and group (grid NULL: none). */
static void add_row_of(struct comparison *c, const char *phase, const char *op, enum figure fig,
		       const struct metric_def *metric, const char *unit,
		       const struct cmp_row *grouped, const struct rsamples **s)
{
	struct cmp_row *r;
	int any = 0;

	for (size_t i = 0; i < c->nres; i++)
		for (size_t k = 0; s[i] && k < s[i]->n; k++)
			any |= s[i]->v[k] != 0;
	if (!any) {
		free(s);
		return;
	}
	c->rows = xrealloc(c->rows, (c->nrows + 1) * sizeof(*c->rows));
	r = &c->rows[c->nrows++];
	r->phase = phase;
	r->op = op;
	r->fig = fig;
	r->metric = metric;
	r->metric_unit = unit;
	r->grid = grouped->grid;
	r->group = grouped->group;
	r->cells = xcalloc(c->nres, sizeof(*r->cells));
	for (size_t i = 0; i < c->nres; i++) {
		struct cmp_cell *cell = &r->cells[i];
		struct summary sm;

		cell->ci_half = NAN;
		cell->mean = NAN;
		if (!s[i])
			continue;
		summary_init(&sm);
		for (size_t k = 0; k < s[i]->n; k++)
			summary_add(&sm, s[i]->v[k]);
		cell->n = s[i]->n;
		cell->mean = sm.mean;
		cell->sd = summary_sd(&sm);
		if (sm.n >= 2)
			cell->ci_half = summary_ci_half(&sm, COMPARISON_CONF);
		if (i > 0 && s[0])
			cell->has_stat = compare_samples(s[0]->v, s[0]->n, s[i]->v, s[i]->n,
							 COMPARISON_CONF, &cell->st) == 0;
	}
	free(s);
}

static void add_row(struct comparison *c, const char *phase, const char *op, enum figure fig,
		    const struct cmp_row *grouped)
{
	const struct rsamples **s = xcalloc(c->nres, sizeof(*s));

	for (size_t i = 0; i < c->nres; i++)
		s[i] = row_samples(c->res[i], phase, op, fig);
	add_row_of(c, phase, op, fig, NULL, NULL, grouped, s);
}

/* The definition of metric `name` in the first result that declares it. */
static const struct metric_def *metric_def_of(const struct comparison *c, const char *name)
{
	for (size_t i = 0; i < c->nres; i++) {
		const struct metric_def *d = result_read_metric_def(c->res[i], name);

		if (d)
			return d;
	}
	return NULL;
}

/*
 * The rows of phase `phase`'s suite metrics: one per metric a result's
 * metrics table declares (metric_defs), in order of first appearance over
 * the results; its unit, label and direction come from that table (the
 * unit, when the table gives none, from the metric itself).  Metrics no
 * result declares (results written before metric_defs, a suite's per-thread
 * figures) get no row: the suite sections of the report show them.
 */
static void add_metric_rows(struct comparison *c, size_t from, const char *phase,
			    const struct cmp_row *grouped)
{
	for (size_t j = from; j < c->nres; j++) {
		const struct rphase *pj = find_phase(c->res[j], phase);

		for (size_t m = 0; pj && m < pj->nmetrics; m++) {
			const char *name = pj->metrics[m].name;
			const struct metric_def *d = metric_def_of(c, name);
			const struct rsamples **s;
			const char *unit = NULL;
			int dup = 0;

			for (size_t k = from; k < j && !dup; k++)
				dup = find_phase(c->res[k], phase) &&
				      result_read_metric(find_phase(c->res[k], phase), name);
			if (dup || !d)
				continue;
			s = xcalloc(c->nres, sizeof(*s));
			for (size_t i = 0; i < c->nres; i++) {
				const struct rphase *pi = find_phase(c->res[i], phase);
				const struct rmetric *rm = pi ? result_read_metric(pi, name) : NULL;

				s[i] = rm && rm->v.n ? &rm->v : NULL;
				if (rm && !unit && *rm->unit)
					unit = rm->unit;
			}
			add_row_of(c, phase, NULL, FIG_OPS, d, *d->unit ? d->unit : unit ? unit : "",
				   grouped, s);
		}
	}
}

static void build_rows(struct comparison *c)
{
	for (size_t i = 0; i < c->nres; i++) {
		for (size_t p = 0; p < c->res[i]->nphases; p++) {
			const struct rphase *ph = &c->res[i]->phases[p];
			struct cmp_row grouped = { 0 };
			struct phase_point pt = { 0 };
			int seen = 0;

			/* a phase already done for an earlier result */
			for (size_t j = 0; j < i && !seen; j++)
				seen = find_phase(c->res[j], ph->name) != NULL;
			if (seen)
				continue;
			grouped.grid = phase_grouped(c, ph->name, &pt);
			grouped.group = pt.group;
			for (int f = 0; f < FIG_COUNT; f++)
				add_row(c, ph->name, NULL, f, &grouped);
			add_metric_rows(c, i, ph->name, &grouped);
			/* operations in order of first appearance over all results */
			for (size_t j = i; j < c->nres; j++) {
				const struct rphase *pj = find_phase(c->res[j], ph->name);

				for (size_t o = 0; pj && o < pj->nops; o++) {
					int dup = 0;

					for (size_t k = i; k < j && !dup; k++)
						dup = find_op(find_phase(c->res[k], ph->name),
							      pj->ops[o].name) != NULL;
					if (dup)
						continue;
					for (int f = 0; f < FIG_COUNT; f++)
						if (result_read_figures[f].op_unit)
							add_row(c, ph->name, pj->ops[o].name, f,
								&grouped);
				}
			}
		}
	}
}

static void grid_sum_one(const struct comparison *c, const struct phase_grid *grid, size_t g,
			 enum figure fig, size_t i, struct cmp_grid_sum *out)
{
	double logsum = 0;

	memset(out, 0, sizeof(*out));
	out->gmean = out->lo = out->hi = NAN;
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		const struct cmp_cell *cell = &row->cells[i];
		const char *v;

		if (row->op || row->metric || row->fig != fig || row->grid != grid ||
		    row->group != g || !cell->n)
			continue;
		out->phases++;
		if (!cell->has_stat || !isfinite(cell->st.ratio) || cell->st.ratio <= 0)
			continue;
		logsum += log(cell->st.ratio);
		if (!out->nratios++) {
			out->lo = out->hi = cell->st.ratio;
		} else {
			out->lo = MIN(out->lo, cell->st.ratio);
			out->hi = MAX(out->hi, cell->st.ratio);
		}
		v = comparison_verdict(row, i);
		out->better += !strcmp(v, "better");
		out->worse += !strcmp(v, "worse");
	}
	if (out->nratios)
		out->gmean = exp(logsum / (double)out->nratios);
}

size_t comparison_grid_sum(const struct comparison *c, const struct phase_grid *grid, size_t g,
			   enum figure fig, struct cmp_grid_sum *out)
{
	size_t phases = 0;

	for (size_t i = 0; i < c->nres; i++) {
		grid_sum_one(c, grid, g, fig, i, &out[i]);
		phases += out[i].phases;
	}
	return phases;
}

static void add_flag(struct comparison *c, size_t res, const struct rphase *ph, int cached)
{
	struct cmp_flag *fl;

	c->flags = xrealloc(c->flags, (c->nflags + 1) * sizeof(*c->flags));
	fl = &c->flags[c->nflags++];
	fl->res = res;
	fl->phase = ph;
	fl->cached = cached;
	comparison_grid_phase(c->res[res], ph->name, &fl->pt);
}

/*
 * One warning per group and kind for the flagged grid phases of result
 * `res` (flags from index `from` on): how many of the group's phases, the
 * range of file sizes concerned, and the reason given for the largest
 * file size (with growing sizes: whether the biggest file still fitted in
 * memory or still ran too briefly).
 */
static void group_flags(struct comparison *c, size_t res, size_t from)
{
	const struct rfile *rf = c->res[res];

	for (size_t t = 0; rf->grid && t < rf->grid->ngroups; t++) {
		size_t total = 0;

		for (size_t p = 0; p < rf->nphases; p++) {
			struct phase_point pt;

			total += comparison_grid_phase(rf, rf->phases[p].name, &pt) && pt.group == t;
		}
		for (int cached = 1; cached >= 0; cached--) {
			const struct cmp_flag *big = NULL;
			uint64_t lo = UINT64_MAX;
			size_t n = 0;
			const char *why;

			for (size_t k = from; k < c->nflags; k++) {
				const struct cmp_flag *fl = &c->flags[k];

				if (fl->pt.group != t || fl->cached != cached)
					continue;
				n++;
				lo = MIN(lo, fl->pt.size_kb);
				if (!big || fl->pt.size_kb > big->pt.size_kb ||
				    (fl->pt.size_kb == big->pt.size_kb && fl->pt.rec_kb > big->pt.rec_kb))
					big = fl;
			}
			if (!n)
				continue;
			why = cached ? big->phase->cache_reason : big->phase->too_fast_reason;
			add_warning(c,
				    xasprintf("'%s' %s '%s': %s in %zu of %zu phases "
					      "(file sizes %llu to %llu KB); the largest, '%s'%s%s",
					      rf->path, rf->grid->what, rf->grid->group_name(t),
					      cached ? "reads were likely served from memory, "
						       "not the device,"
						     : "ran too briefly to measure reliably",
					      n, total, (unsigned long long)lo,
					      (unsigned long long)big->pt.size_kb, big->phase->name,
					      why ? ": " : "", why ? why : ""));
		}
	}
}

/* 1 when a and b both carry a workload hash and the hashes differ: the
 * same name and parameters, but not the same workload (an edited file).
 * Results without one (older files) are never told apart. */
int comparison_hash_differs(const struct rfile *a, const struct rfile *b)
{
	return a->workload_hash && b->workload_hash && strcmp(a->workload_hash, b->workload_hash);
}

/*
 * A resolved workload text without its parameters: the "var" lines go
 * (and "usage" and "echo", text for people, which may quote values), and a
 * reference with its value, $nthreads=16 (a quoted value may hold
 * spaces), becomes $nthreads, so that two runs of one workload with other
 * -s values read the same and only lines that differ in their flowops,
 * filesets or attributes differ.  Returns the lines (caller frees each and
 * the array) and their count in *n.
 */
static char **shape_lines(const char *text, size_t *n)
{
	char **lines = NULL;
	size_t nl = 0;

	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *l = xmalloc(len + 1), *o = l;

		for (size_t i = 0; i < len; i++) {
			*o++ = p[i];
			if (p[i] != '$')
				continue;
			while (i + 1 < len && (p[i + 1] == '_' || isalnum((unsigned char)p[i + 1])))
				*o++ = p[++i];
			if (i + 1 >= len || p[i + 1] != '=')
				continue;
			i++; /* skip "=VALUE" */
			if (i + 1 < len && p[i + 1] == '"') {
				for (i += 2; i < len && p[i] != '"'; i++)
					i += p[i] == '\\';
			} else {
				while (i + 1 < len && p[i + 1] != ' ')
					i++;
			}
		}
		*o = 0;
		if (*l && strncmp(l, "var ", 4) && strncmp(l, "usage ", 6) && strncmp(l, "echo ", 5)) {
			lines = xrealloc(lines, (nl + 1) * sizeof(*lines));
			lines[nl++] = l;
		} else {
			free(l);
		}
		p += len + (e != NULL);
	}
	*n = nl;
	return lines;
}

static void free_lines(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* Result b against the baseline a (same suite and workload name): when
 * both carry their resolved text, the lines that differ beyond the
 * parameters, as a short unified-style diff, go into c->workload_diffs (a
 * refusal without --force, see results_load) and the warnings; without
 * the text, a hash that differs while no parameter does is a warning. */
static void workload_warning(struct comparison *c, const struct rfile *a, const struct rfile *b)
{
	if (a->workload_text && b->workload_text) {
		size_t na, nb;
		char **la = shape_lines(a->workload_text, &na), **lb = shape_lines(b->workload_text, &nb);
		char *d = linediff(la, na, lb, nb, 1, 12, "  ", NULL);

		free_lines(la, na);
		free_lines(lb, nb);
		if (!d)
			return;
		d[strlen(d) - 1] = 0; /* the last newline: the callers end the line */
		c->workload_diffs = xrealloc(c->workload_diffs,
					     (c->nworkload_diffs + 1) * sizeof(*c->workload_diffs));
		c->workload_diffs[c->nworkload_diffs++] =
			xasprintf("  --- '%s' (the baseline)\n  +++ '%s'\n%s", a->path, b->path, d);
		add_warning(c, xasprintf("'%s' and the baseline '%s' both ran %s '%s', but their "
					 "workloads differ beyond the parameters (the resolved "
					 "workloads without their var, usage and echo lines):\n%s",
					 b->path, a->path, b->suite, b->workload,
					 c->workload_diffs[c->nworkload_diffs - 1]));
		free(d);
		return;
	}
	if (comparison_hash_differs(a, b) && !c->nparam_diffs)
		add_warning(c, xasprintf("'%s' and the baseline '%s' both ran %s '%s', but "
					 "not the same workload: workload_hash %s, baseline %s",
					 b->path, a->path, b->suite, b->workload,
					 b->workload_hash, a->workload_hash));
}

static void build_warnings(struct comparison *c)
{
	char fs[600];

	for (size_t i = 1; i < c->nres; i++) {
		const struct rfile *a = c->res[0], *b = c->res[i];

		/* results of different workloads are told apart by name already */
		if (!strcmp(a->suite, b->suite) && !strcmp(a->workload, b->workload))
			workload_warning(c, a, b);
		if (result_read_fs_differ(b, a, fs, sizeof(fs)))
			add_warning(c, xasprintf("'%s' and the baseline '%s' ran their ranks on "
			                         "different file systems: %s",
			                         b->path, a->path, fs));
	}
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];
		size_t from = c->nflags;

		if (rf->fs_warning)
			add_warning(c, xasprintf("'%s': %s", rf->path, rf->fs_warning));
		if (!rf->complete)
			add_warning(c, xasprintf("'%s' is incomplete (%s): its figures cover only "
						 "part of the run",
						 rf->path,
						 rf->interrupted ? "interrupted" : "stopped on error"));
		else if (rf->errors)
			add_warning(c, xasprintf("'%s' saw %llu operation errors", rf->path,
						 (unsigned long long)rf->errors));
		for (size_t p = 0; p < rf->nphases; p++) {
			const struct rphase *ph = &rf->phases[p];

			if (comparison_grid_phase(rf, ph->name, NULL)) {
				if (ph->likely_cached)
					add_flag(c, i, ph, 1);
				if (ph->too_fast)
					add_flag(c, i, ph, 0);
				continue;
			}
			if (ph->likely_cached)
				add_warning(c, xasprintf("'%s' phase '%s': reads were likely served "
							 "from memory, not the device%s%s",
							 rf->path, ph->name,
							 ph->cache_reason ? ": " : "",
							 ph->cache_reason ? ph->cache_reason : ""));
			if (ph->writes_absorbed)
				add_warning(c, xasprintf("'%s' phase '%s': writes were likely absorbed "
							 "by the page cache, not the device%s%s",
							 rf->path, ph->name,
							 ph->write_reason ? ": " : "",
							 ph->write_reason ? ph->write_reason : ""));
			if (ph->too_fast)
				add_warning(c, xasprintf("'%s' phase '%s' ran too briefly to measure "
							 "reliably%s%s",
							 rf->path, ph->name,
							 ph->too_fast_reason ? ": " : "",
							 ph->too_fast_reason ? ph->too_fast_reason : ""));
		}
		group_flags(c, i, from);
	}
}

static void unique_names(struct comparison *c)
{
	for (size_t i = 1; i < c->nres; i++) {
		int dup = 0;

		for (size_t j = 0; j < i; j++)
			dup |= !strcmp(c->res[i]->name, c->res[j]->name);
		if (dup) {
			char *n = xasprintf("%s #%zu", c->res[i]->name, i + 1);

			free(c->res[i]->name);
			c->res[i]->name = n;
		}
	}
}

/* c->grids: each result's grid, once, in result order. */
static void find_grids(struct comparison *c)
{
	for (size_t i = 0; i < c->nres; i++) {
		int seen = 0;

		if (!c->res[i]->grid)
			continue;
		for (size_t k = 0; k < c->ngrids && !seen; k++)
			seen = c->grids[k] == c->res[i]->grid;
		if (seen)
			continue;
		c->grids = xrealloc(c->grids, (c->ngrids + 1) * sizeof(*c->grids));
		c->grids[c->ngrids++] = c->res[i]->grid;
	}
}

/* A parameter's value as a number: "16", "0.5", "16k" (a size). */
static int param_number(const char *v, double *x)
{
	uint64_t b;

	if (!v)
		return 0;
	if (num_parse_double(v, x) == 0)
		return 1;
	if (size_parse(v, &b) == 0) {
		*x = (double)b;
		return 1;
	}
	return 0;
}

/* c->sweep: the one differing parameter, when every result has a number
 * for it. */
static void find_sweep(struct comparison *c)
{
	c->sweep = -1;
	if (c->nparam_diffs != 1)
		return;
	c->sweep_x = xcalloc(c->nres, sizeof(double));
	for (size_t i = 0; i < c->nres; i++) {
		if (!param_number(c->param_diffs[0].values[i], &c->sweep_x[i])) {
			free(c->sweep_x);
			c->sweep_x = NULL;
			return;
		}
	}
	c->sweep = 0;
}

/* A key whose value counts bytes. */
static int bytes_key(const char *key)
{
	size_t n = strlen(key);

	if (n >= 5 && !strcmp(key + n - 5, "bytes"))
		return 1;
	if (!strncmp(key, "var.", 4))
		key += 4;
	return strstr(key, "size") != NULL;
}

const char *comparison_human_value(const char *key, const char *value, char *buf, size_t len)
{
	uint64_t b;

	if (!value || !bytes_key(key) || size_parse(value, &b) < 0 || b < 1024)
		return value;
	return human_bytes((double)b, buf, len);
}

void comparison_write_what_differs(FILE *f, const struct comparison *c)
{
	char buf[64];

	if (!c->nparam_diffs)
		return;
	fprintf(f, "\nwhat differs:\n");
	for (size_t k = 0; k < c->nparam_diffs; k++) {
		const struct cmp_diff *d = &c->param_diffs[k];

		fprintf(f, "  %s: ", d->key);
		for (size_t i = 0; i < c->nres; i++) {
			const char *v = d->values[i];

			fprintf(f, "%s%s", i ? " \u2192 " : "",
				v ? comparison_human_value(d->key, v, buf, sizeof(buf)) : "(none)");
		}
		fputc('\n', f);
	}
	if (c->sweep >= 0 && c->nres >= 3)
		fprintf(f, "  (a sweep over %s: the report charts each figure against it)\n",
			c->param_diffs[c->sweep].key);
}

void comparison_build(struct comparison *c, struct rfile **res, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->res = res;
	c->nres = n;
	unique_names(c);
	for (size_t i = 1; i < n; i++)
		if (strcmp(res[i]->suite, res[0]->suite) || strcmp(res[i]->workload, res[0]->workload))
			c->workload_mismatch = 1;
	c->param_diffs = find_diffs(c, 0, &c->nparam_diffs);
	c->env_diffs = find_diffs(c, 1, &c->nenv_diffs);
	find_sweep(c);
	find_grids(c);
	build_warnings(c);
	build_rows(c);
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->nparam_diffs; i++)
		free(c->param_diffs[i].values);
	for (size_t i = 0; i < c->nenv_diffs; i++)
		free(c->env_diffs[i].values);
	free(c->param_diffs);
	free(c->env_diffs);
	free(c->sweep_x);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	for (size_t i = 0; i < c->nworkload_diffs; i++)
		free(c->workload_diffs[i]);
	free(c->workload_diffs);
	free(c->flags);
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	free(c->grids);
	memset(c, 0, sizeof(*c));
}

const char *comparison_unit(const struct cmp_row *r)
{
	const struct figure_info *fi = &result_read_figures[r->fig];

	if (r->metric)
		return r->metric_unit;
	return r->op ? fi->op_unit : fi->phase_unit;
}

const char *comparison_title(const struct cmp_row *r)
{
	return r->metric ? r->metric->label : result_read_figures[r->fig].title;
}

const char *comparison_key(const struct cmp_row *r)
{
	return r->metric ? r->metric->name : result_read_figures[r->fig].key;
}

enum metric_better comparison_better(const struct cmp_row *r)
{
	if (r->metric)
		return r->metric->better;
	return result_read_figures[r->fig].lower_is_better ? BETTER_LOWER : BETTER_HIGHER;
}

void comparison_row_label(char *buf, size_t len, const struct cmp_row *r)
{
	const char *title = comparison_title(r), *unit = comparison_unit(r);

	if (!*unit || !strcmp(unit, title))
		snprintf(buf, len, "%s%s%s", r->op ? r->op : "", r->op ? ": " : "", title);
	else
		snprintf(buf, len, "%s%s%s (%s)", r->op ? r->op : "", r->op ? ": " : "", title,
			 unit);
}

const char *comparison_verdict(const struct cmp_row *r, size_t i)
{
	const struct cmp_cell *cell = &r->cells[i];
	enum metric_better b = comparison_better(r);

	if (i == 0 || !cell->has_stat || cell->st.method == COMPARE_NONE)
		return "";
	if (cell->st.significant < 0)
		return "n/a";
	if (!cell->st.significant)
		return "ns";
	/* the sign of t, not the ratio: exp() of a tiny difference can round to 1 */
	if (b == BETTER_NONE)
		return cell->st.t > 0 ? "higher" : "lower";
	return (cell->st.t > 0) == (b == BETTER_HIGHER) ? "better" : "worse";
}

/* The two words of a figure (short and full), the first for a ratio
 * above 1. */
static void ratio_word_pair(const struct cmp_row *r, int full, const char **up, const char **down)
{
	*up = "higher";
	*down = "lower";
	if (r->metric)
		return;
	switch (r->fig) {
	case FIG_OPS:
	case FIG_MBPS:
		*up = "faster";
		*down = "slower";
		break;
	case FIG_LAT_MEAN:
	case FIG_LAT_P99:
		if (full) {
			*up = "higher latency";
			*down = "lower latency";
		}
		break;
	case FIG_CPU:
		*up = full ? "more CPU/op" : "more";
		*down = full ? "less CPU/op" : "less";
		break;
	default:
		break;
	}
}

/* A ratio with 3 significant digits, trailing zeros kept ("1.10"),
 * never an exponent. */
static void fmt_ratio(char *buf, size_t len, double x)
{
	if (x >= 99.95)
		snprintf(buf, len, "%.0f", x);
	else if (x < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%#.3g", x);
}

const char *comparison_ratio_words(const struct cmp_row *r, double ratio, int full, char *buf,
				   size_t len, int *inverted)
{
	const char *up, *down;
	char num[32];
	int inv = ratio < 1;
	double x = inv ? 1 / ratio : ratio;

	if (inverted)
		*inverted = 0;
	if (!(ratio > 0) || !isfinite(ratio) || !isfinite(x)) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	if (inverted)
		*inverted = inv;
	ratio_word_pair(r, full, &up, &down);
	fmt_ratio(num, sizeof(num), x);
	if (!strcmp(num, "1.00"))
		snprintf(buf, len, "the same (1.00\u00d7)");
	else
		snprintf(buf, len, "%s\u00d7 %s", num, inv ? down : up);
	return buf;
}

const char *comparison_ratio_interval(const struct cmp_row *r, size_t i, int inverted, char *buf,
				      size_t len)
{
	const struct cmp_cell *cell = &r->cells[i];
	double lo, hi;
	char a[32], b[32];

	snprintf(buf, len, "%s", "");
	if (!cell->has_stat || !(cell->st.ci_lo > 0) || !isfinite(cell->st.ci_hi))
		return buf;
	lo = inverted ? 1 / cell->st.ci_hi : cell->st.ci_lo;
	hi = inverted ? 1 / cell->st.ci_lo : cell->st.ci_hi;
	fmt_ratio(a, sizeof(a), lo);
	fmt_ratio(b, sizeof(b), hi);
	snprintf(buf, len, "%s\u2013%s", a, b);
	return buf;
}

const char *comparison_significance_words(const struct cmp_row *r, size_t i)
{
	const char *v = comparison_verdict(r, i);

	if (!*v)
		return "";
	if (!strcmp(v, "n/a"))
		return "single run: not judged";
	return strcmp(v, "ns") ? "significant" : "not significant";
}

char *comparison_fmt(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

static const char *fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

static const char *fmt_ci(char *buf, size_t len, const struct cmp_cell *cell)
{
	if (!cell->has_stat || !isfinite(cell->st.ci_lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.3f, %.3f]", cell->st.ci_lo, cell->st.ci_hi);
	return buf;
}

/*
 * Keys down, results across.  A value too long for its column (mount
 * options) would push the others out of line: such a key gets one line per
 * result instead.
 */
void comparison_write_diffs(FILE *f, const struct comparison *c, const struct cmp_diff *d,
			    size_t n)
{
	int kw = 8;
	int *w = xcalloc(c->nres, sizeof(int));

	for (size_t k = 0; k < n; k++)
		kw = MAX(kw, (int)strlen(d[k].key));
	for (size_t i = 0; i < c->nres; i++) {
		w[i] = (int)strlen(c->res[i]->name);
		for (size_t k = 0; k < n; k++) {
			int l = (int)strlen(d[k].values[i] ? d[k].values[i] : "(none)");

			if (l <= 32)
				w[i] = MAX(w[i], l);
		}
	}
	fprintf(f, "  %-*s", kw, "");
	for (size_t i = 0; i < c->nres; i++)
		fprintf(f, "  %-*s", i + 1 < c->nres ? w[i] : 0, c->res[i]->name);
	fputc('\n', f);
	for (size_t k = 0; k < n; k++) {
		int wide = 0;

		for (size_t i = 0; i < c->nres; i++)
			wide |= (int)strlen(d[k].values[i] ? d[k].values[i] : "(none)") > w[i];
		fprintf(f, "  %-*s", kw, d[k].key);
		for (size_t i = 0; i < c->nres; i++) {
			const char *v = d[k].values[i] ? d[k].values[i] : "(none)";

			if (wide)
				fprintf(f, "\n    %s: %s", c->res[i]->name, v);
			else
				fprintf(f, "  %-*s", i + 1 < c->nres ? w[i] : 0, v);
		}
		fputc('\n', f);
	}
	free(w);
}

/* Grid phases, one block per group: per figure and result the number of
 * phases and the spread of the ratios. */
static void write_text_group(FILE *f, const struct comparison *c, const struct phase_grid *grid,
			     size_t t, int lw, int nw)
{
	char lab[300], g[32], range[80];
	int head = 0;

	for (int fig = 0; fig < FIG_COUNT; fig++) {
		struct cmp_grid_sum *sum = xcalloc(c->nres, sizeof(*sum));
		struct cmp_row fake = { .fig = (enum figure)fig };

		if (!comparison_grid_sum(c, grid, t, (enum figure)fig, sum)) {
			free(sum);
			continue;
		}
		if (!head) {
			fprintf(f,
				"\n%s '%s': %zu phases (file size x record size), "
				"summarised; every phase in --csv and --json\n",
				grid->what, grid->group_name(t),
				comparison_grid_rows(c, grid, t, (enum figure)fig));
			fprintf(f, "  %-*s  %-*s  %6s  %9s  %-21s  %6s %6s\n", lw, "figure", nw,
				"result", "phases", "ratio", "smallest, largest", "better", "worse");
			head = 1;
		}
		comparison_row_label(lab, sizeof(lab), &fake);
		for (size_t i = 0; i < c->nres; i++) {
			fprintf(f, "  %-*s  %-*s  %6zu", lw, i ? "" : lab, nw, c->res[i]->name,
				sum[i].phases);
			if (i && sum[i].nratios) {
				snprintf(g, sizeof(g), "%.3f", sum[i].gmean);
				snprintf(range, sizeof(range), "[%.3f, %.3f]", sum[i].lo, sum[i].hi);
				fprintf(f, "  %9s  %-21s  %6zu %6zu", g, range, sum[i].better,
					sum[i].worse);
			} else if (i) {
				fprintf(f, "  %9s  %-21s  %6s %6s", "-", "-", "-", "-");
			}
			fputc('\n', f);
		}
		free(sum);
	}
}

static void write_text_grouped(FILE *f, const struct comparison *c, int lw, int nw)
{
	for (size_t k = 0; k < c->ngrids; k++)
		for (size_t t = 0; t < c->grids[k]->ngroups; t++)
			write_text_group(f, c, c->grids[k], t, lw, nw);
}

/* A phase's "limited by" line per result that has one (docs/insight.md),
 * and its ZFS line (stats/zfsstat.h). */
static void write_text_limits(FILE *f, const struct comparison *c, const char *phase, int nw)
{
	char line[1536];

	for (size_t i = 0; i < c->nres; i++) {
		const struct rphase *ph = find_phase(c->res[i], phase);

		if (!ph)
			continue;
		if (ph->limited_text)
			fprintf(f, "  limited by  %-*s  %s%s\n", nw, c->res[i]->name,
				ph->limited_text,
				ph->limited_mixed ? " (its pooled runs' verdicts differ)" : "");
		if (ph->zfs.present) {
			zfsstat_line(&ph->zfs, &c->res[i]->env, line, sizeof(line));
			fprintf(f, "  ZFS         %-*s  %s\n", nw, c->res[i]->name, line);
		}
	}
}

void comparison_write_text(FILE *f, const struct comparison *c, int brief)
{
	const char *phase = NULL;
	char lab[300], v[32], h[32], ci[64], p[32];
	int lw = 12, nw = 6;

	fprintf(f, "baseline: %s\n", c->res[0]->name);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];
		size_t runs = result_read_runs(rf);

		fprintf(f, "  %s: %s (%s %s, %zu run%s%s)\n", rf->name, rf->path, rf->suite,
			rf->workload, runs, runs == 1 ? "" : "s", rf->complete ? "" : ", incomplete");
	}
	comparison_write_what_differs(f, c);
	if (c->nenv_diffs) {
		fprintf(f, "\nenvironment differences:\n");
		comparison_write_diffs(f, c, c->env_diffs, c->nenv_diffs);
	}
	if (c->nwarnings) {
		fputc('\n', f);
		for (size_t i = 0; i < c->nwarnings; i++)
			fprintf(f, "warning: %s\n", c->warnings[i]);
	}

	for (size_t i = 0; i < c->nres; i++)
		nw = MAX(nw, (int)strlen(c->res[i]->name));
	for (size_t r = 0; r < c->nrows; r++) {
		if (c->rows[r].op && (brief || comparison_row_grouped(c, &c->rows[r])))
			continue;
		comparison_row_label(lab, sizeof(lab), &c->rows[r]);
		lw = MAX(lw, (int)strlen(lab));
	}
	lw = MIN(lw, 48);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if ((brief && row->op) || comparison_row_grouped(c, row))
			continue;
		if (!phase || strcmp(phase, row->phase)) {
			phase = row->phase;
			fprintf(f, "\nphase '%s'\n", phase);
			write_text_limits(f, c, phase, nw);
			fprintf(f, "  %-*s  %-*s  %12s %8s %3s  %7s  %-18s %7s  %s\n", lw, "figure", nw,
				"result", "mean", "+-95%", "n", "ratio", "95% CI of ratio", "p",
				"verdict");
		}
		comparison_row_label(lab, sizeof(lab), row);
		for (size_t i = 0; i < c->nres; i++) {
			const struct cmp_cell *cell = &row->cells[i];

			if (cell->n && isfinite(cell->ci_half) && cell->mean != 0)
				snprintf(h, sizeof(h), "%.1f%%", 100 * cell->ci_half / fabs(cell->mean));
			else
				h[0] = 0;
			fprintf(f, "  %-*s  %-*s  %12s %8s ", lw, i ? "" : lab, nw, c->res[i]->name,
				cell->n ? comparison_fmt(v, sizeof(v), cell->mean) : "-", h);
			if (cell->n)
				fprintf(f, "%3zu", cell->n);
			else
				fprintf(f, "%3s", "-");
			if (cell->has_stat && isfinite(cell->st.ratio))
				fprintf(f, "  %7.3f  %-18s %7s  %s", cell->st.ratio,
					fmt_ci(ci, sizeof(ci), cell), fmt_p(p, sizeof(p), cell->st.p),
					comparison_verdict(row, i));
			else if (i)
				fprintf(f, "  %7s  %-18s %7s  %s", "-", "-", "-", "");
			fputc('\n', f);
		}
	}
	write_text_grouped(f, c, lw, nw);
	fprintf(f, "\nratio: result / baseline (with repeats: ratio of geometric means; -: the\n"
		   "baseline is 0, no ratio, p or verdict).  95%% CI and p: Welch's t-test on log\n"
		   "values (needs 2+ runs on both sides; with a value of 0: on the raw values, no\n"
		   "CI).  verdict: better/worse when p < 0.05, ns: not significant, n/a: a single\n"
		   "run cannot show significance.\n");
}


static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

void comparison_write_csv(FILE *f, const struct comparison *c)
{
	fprintf(f, "phase,operation,figure,unit,result,file,n,mean,sd,ci95_low,ci95_high,ratio,"
		   "ratio_ci95_low,ratio_ci95_high,p_value,verdict\n");
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		for (size_t i = 0; i < c->nres; i++) {
			const struct cmp_cell *cell = &row->cells[i];
			int ci = cell->n >= 2 && isfinite(cell->ci_half);

			csv_field(f, row->phase, 0);
			fputc(',', f);
			csv_field(f, row->op, 0);
			fputc(',', f);
			csv_field(f, comparison_key(row), 0);
			fputc(',', f);
			csv_field(f, comparison_unit(row), 0);
			fputc(',', f);
			csv_field(f, c->res[i]->name, 0);
			fputc(',', f);
			csv_field(f, c->res[i]->path, 0);
			fprintf(f, ",%zu", cell->n);
			csv_num(f, cell->n ? cell->mean : NAN);
			csv_num(f, cell->n >= 2 ? cell->sd : NAN);
			/* no figure is negative: see comparison.h */
			csv_num(f, ci ? MAX(cell->mean - cell->ci_half, 0) : NAN);
			csv_num(f, ci ? cell->mean + cell->ci_half : NAN);
			csv_num(f, cell->has_stat ? cell->st.ratio : i == 0 && cell->n ? 1 : NAN);
			csv_num(f, cell->has_stat ? cell->st.ci_lo : NAN);
			csv_num(f, cell->has_stat ? cell->st.ci_hi : NAN);
			csv_num(f, cell->has_stat ? cell->st.p : NAN);
			fputc(',', f);
			csv_field(f, comparison_verdict(row, i), 0);
			fputc('\n', f);
		}
	}
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *diffs_json(const struct comparison *c, const struct cmp_diff *d, size_t n)
{
	json_t *a = json_array();

	for (size_t k = 0; k < n; k++) {
		json_t *o = json_object(), *v = json_array();

		json_object_set_new(o, "key", json_string(d[k].key));
		for (size_t i = 0; i < c->nres; i++)
			json_array_append_new(v, d[k].values[i] ? json_string(d[k].values[i])
								 : json_null());
		json_object_set_new(o, "values", v);
		json_array_append_new(a, o);
	}
	return a;
}

static const char *method_name(enum compare_method m)
{
	switch (m) {
	case COMPARE_LOG_WELCH:
		return "welch-log";
	case COMPARE_RAW_WELCH:
		return "welch";
	case COMPARE_NONE:
		return "none";
	default:
		return "single";
	}
}

/* Result rf's "limited by" verdicts: {phase: {verdict, text, mixed}}, and
 * "zfs" (the ZFS line) when the phase has ZFS kstats. */
static json_t *limits_json(const struct rfile *rf)
{
	json_t *o = json_object();

	for (size_t p = 0; p < rf->nphases; p++) {
		const struct rphase *ph = &rf->phases[p];
		json_t *v;

		if (!ph->limited_by)
			continue;
		v = json_object();
		json_object_set_new(v, "verdict", json_string(ph->limited_by));
		json_object_set_new(v, "text",
				    ph->limited_text ? json_string(ph->limited_text) : json_null());
		json_object_set_new(v, "mixed", json_boolean(ph->limited_mixed));
		if (ph->zfs.present) {
			char line[1536];

			zfsstat_line(&ph->zfs, &rf->env, line, sizeof(line));
			json_object_set_new(v, "zfs", json_string(line));
		}
		json_object_set_new(o, ph->name, v);
	}
	return o;
}

static json_t *comparison_json(const struct comparison *c)
{
	json_t *o = json_object(), *res = json_array(), *rows = json_array(), *w = json_array();

	json_object_set_new(o, "fsgauge_compare_version", json_integer(1));
	json_object_set_new(o, "confidence", json_real(COMPARISON_CONF));
	json_object_set_new(o, "baseline", json_integer(0));
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];
		json_t *r = json_object();

		json_object_set_new(r, "name", json_string(rf->name));
		json_object_set_new(r, "file", json_string(rf->path));
		json_object_set_new(r, "suite", json_string(rf->suite));
		json_object_set_new(r, "workload", json_string(rf->workload));
		json_object_set_new(r, "label", rf->label ? json_string(rf->label) : json_null());
		json_object_set_new(r, "complete", json_boolean(rf->complete));
		json_object_set_new(r, "limited_by", limits_json(rf));
		json_array_append_new(res, r);
	}
	json_object_set_new(o, "results", res);
	json_object_set_new(o, "workload_mismatch", json_boolean(c->workload_mismatch));
	json_object_set_new(o, "parameter_differences",
			    diffs_json(c, c->param_diffs, c->nparam_diffs));
	json_object_set_new(o, "environment_differences",
			    diffs_json(c, c->env_diffs, c->nenv_diffs));
	if (c->sweep >= 0) {
		json_t *sw = json_object(), *x = json_array();

		json_object_set_new(sw, "parameter", json_string(c->param_diffs[c->sweep].key));
		for (size_t i = 0; i < c->nres; i++)
			json_array_append_new(x, json_real(c->sweep_x[i]));
		json_object_set_new(sw, "values", x);
		json_object_set_new(o, "sweep", sw);
	} else {
		json_object_set_new(o, "sweep", json_null());
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		json_array_append_new(w, json_string(c->warnings[i]));
	json_object_set_new(o, "warnings", w);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		json_t *jr = json_object(), *cells = json_array();

		json_object_set_new(jr, "phase", json_string(row->phase));
		json_object_set_new(jr, "operation", row->op ? json_string(row->op) : json_null());
		json_object_set_new(jr, "figure", json_string(comparison_key(row)));
		json_object_set_new(jr, "label", json_string(comparison_title(row)));
		json_object_set_new(jr, "unit", json_string(comparison_unit(row)));
		json_object_set_new(jr, "lower_is_better",
				    comparison_better(row) == BETTER_NONE
					    ? json_null()
					    : json_boolean(comparison_better(row) == BETTER_LOWER));
		for (size_t i = 0; i < c->nres; i++) {
			const struct cmp_cell *cell = &row->cells[i];
			json_t *jc = json_object();
			const char *v;

			json_object_set_new(jc, "n", json_integer((json_int_t)cell->n));
			json_object_set_new(jc, "mean", jnum(cell->n ? cell->mean : NAN));
			json_object_set_new(jc, "sd", jnum(cell->n >= 2 ? cell->sd : NAN));
			json_object_set_new(jc, "ci95_half", jnum(cell->ci_half));
			if (cell->has_stat) {
				json_object_set_new(jc, "ratio", jnum(cell->st.ratio));
				json_object_set_new(jc, "ratio_ci95_low", jnum(cell->st.ci_lo));
				json_object_set_new(jc, "ratio_ci95_high", jnum(cell->st.ci_hi));
				json_object_set_new(jc, "method", json_string(method_name(cell->st.method)));
				json_object_set_new(jc, "p_value", jnum(cell->st.p));
				json_object_set_new(jc, "df", jnum(cell->st.df));
				json_object_set_new(jc, "significant",
						    cell->st.significant < 0
							    ? json_null()
							    : json_boolean(cell->st.significant));
				v = comparison_verdict(row, i);
				json_object_set_new(jc, "verdict", *v ? json_string(v) : json_null());
			}
			json_array_append_new(cells, jc);
		}
		json_object_set_new(jr, "results", cells);
		json_array_append_new(rows, jr);
	}
	json_object_set_new(o, "rows", rows);
	return o;
}

int comparison_write_json(const struct comparison *c, const char *path)
{
	return output_json_dump(comparison_json(c), path, "comparison");
}
