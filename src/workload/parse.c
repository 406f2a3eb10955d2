/*
 * parse.c — the parser of the workload language (filebench's WML as its
 * shipped personalities use it; docs/workload-language.md says what is
 * accepted and how it differs from filebench).
 *
 * Recursive descent over the tokens of lex.c.  Attribute lists are first
 * read into a small syntax tree (struct attr_list), checked against a table
 * of the attributes each entity accepts, and then applied to the model.
 * The detour exists for composite flowops: their bodies are kept as syntax
 * and applied once per call, with the call's $parameters bound.
 *
 * Values that name a variable stay references (WLV_VAR) so that a later
 * `set` and `-s` overrides are seen when the runner reads them; only what
 * the parser itself needs (names, arithmetic, random-variable parameters,
 * run durations) is resolved on the spot, and then an unset variable is
 * an error.
 *
 * Errors stop the parse: the first one is reported with file:line:col and
 * what was expected, and everything built so far is freed.
 */
#include "workload/build.h"
#include "workload/internal.h"
#include "workload/lex.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/display.h"
#include "util/dist.h"
#include "util/size.h"
#include "util/util.h"

/* Limits that keep hostile input from exhausting memory or the stack. */
#define MAX_COMPOSITE_DEPTH 16
#define MAX_FLOWOPS 100000
#define MAX_EXPR_DEPTH 64
#define MAX_TABLE_ROWS 10000

#define DEFAULT_RUN_SECONDS 60 /* filebench's default for `run` */

/* --- attribute tables ------------------------------------------------------ */

enum akind {
	AK_NAME,     /* char *name: resolved now (names must be known) */
	AK_STR,	     /* wl_val: text (path, target) */
	AK_NUM,	     /* wl_val: number */
	AK_INT,	     /* wl_val: a whole number (counts, descriptor slots) */
	AK_SIZE,     /* wl_val: a whole number of bytes; messages call it a size */
	AK_BOOL,     /* wl_val: flag; a bare name means true */
	AK_PREALLOC, /* wl_val: percent; a bare name means 100 */
	AK_VALUE,    /* wl_val: number or text (flowop value=) */
	AK_FILESET,  /* flowop filesetname= / filename= */
	AK_IGNORED,  /* accepted for compatibility, with a warning */
	AK_RV,	     /* randvar/cvar parameter: read by build_randvar() */
	AK_TABLE,    /* randtable = {{pct, lo, hi}, ...} */
};

struct attr_desc {
	const char *name;
	enum akind kind;
	size_t off; /* field offset; for AK_IGNORED/AK_RV/AK_TABLE an id */
};

static int needs_value(const struct attr_desc *d)
{
	return d->kind != AK_BOOL && d->kind != AK_PREALLOC && d->kind != AK_IGNORED;
}

#define FS(f) offsetof(struct wl_fileset, f)
static const struct attr_desc fileset_attrs[] = {
	{ "name", AK_NAME, FS(name) },
	{ "path", AK_STR, FS(path) },
	{ "size", AK_SIZE, FS(size) },
	{ "filesize", AK_SIZE, FS(size) },
	{ "entries", AK_INT, FS(entries) },
	{ "dirwidth", AK_INT, FS(dirwidth) },
	{ "dirgamma", AK_NUM, FS(dirgamma) },
	{ "dirdepthrv", AK_NUM, FS(dirdepthrv) },
	{ "leafdirs", AK_INT, FS(leafdirs) },
	{ "prealloc", AK_PREALLOC, FS(prealloc) },
	{ "reuse", AK_BOOL, FS(reuse) },
	{ "paralloc", AK_BOOL, FS(paralloc) },
	{ "readonly", AK_BOOL, FS(readonly) },
	{ "trusttree", AK_BOOL, FS(trusttree) },
	{ "cached", AK_BOOL, FS(cached) },
	{ "filesizegamma", AK_NUM, FS(sizegamma) },
	{ "writeonly", AK_IGNORED, 1 },
	{ NULL, 0, 0 },
};

/* `define file`: a fileset of exactly one entry. */
static const struct attr_desc file_attrs[] = {
	{ "name", AK_NAME, FS(name) },
	{ "path", AK_STR, FS(path) },
	{ "size", AK_SIZE, FS(size) },
	{ "filesize", AK_SIZE, FS(size) },
	{ "prealloc", AK_PREALLOC, FS(prealloc) },
	{ "reuse", AK_BOOL, FS(reuse) },
	{ "paralloc", AK_BOOL, FS(paralloc) },
	{ "readonly", AK_BOOL, FS(readonly) },
	{ "trusttree", AK_BOOL, FS(trusttree) },
	{ "cached", AK_BOOL, FS(cached) },
	{ "chunksize", AK_SIZE, FS(chunksize) },
	{ "writeonly", AK_IGNORED, 1 },
	{ NULL, 0, 0 },
};
#undef FS

#define PR(f) offsetof(struct wl_process, f)
static const struct attr_desc process_attrs[] = {
	{ "name", AK_NAME, PR(name) },
	{ "instances", AK_INT, PR(instances) },
	{ "nice", AK_INT, PR(nice) },
	{ NULL, 0, 0 },
};
#undef PR

#define TH(f) offsetof(struct wl_thread, f)
static const struct attr_desc thread_attrs[] = {
	{ "name", AK_NAME, TH(name) },
	{ "instances", AK_INT, TH(instances) },
	{ "memsize", AK_SIZE, TH(memsize) },
	{ "useism", AK_BOOL, TH(useism) },
	{ "ioprio", AK_IGNORED, 2 },
	{ NULL, 0, 0 },
};
#undef TH

#define FO(f) offsetof(struct wl_flowop, f)
static const struct attr_desc flowop_attrs[] = {
	{ "name", AK_NAME, FO(name) },
	{ "filesetname", AK_FILESET, FO(fileset_name) },
	{ "filename", AK_FILESET, FO(fileset_name) },
	{ "iosize", AK_SIZE, FO(iosize) },
	{ "iters", AK_INT, FO(iters) },
	{ "fd", AK_INT, FO(fd) },
	{ "srcfd", AK_INT, FO(srcfd) },
	{ "random", AK_BOOL, FO(random) },
	{ "random_distribution", AK_STR, FO(random_distribution) },
	{ "percentage_random", AK_INT, FO(percentage_random) },
	{ "randommap", AK_BOOL, FO(randommap) },
	{ "offset", AK_SIZE, FO(offset) },
	{ "rate_iops", AK_NUM, FO(rate_iops) },
	{ "rate", AK_SIZE, FO(rate) },
	{ "rate_process", AK_STR, FO(rate_process) },
	{ "rate_min", AK_SIZE, FO(rate_min) },
	{ "dsync", AK_BOOL, FO(dsync) },
	{ "directio", AK_BOOL, FO(directio) },
	{ "workingset", AK_SIZE, FO(wss) },
	{ "wss", AK_SIZE, FO(wss) },
	{ "value", AK_VALUE, FO(value) },
	{ "target", AK_STR, FO(target) },
	{ "blocking", AK_BOOL, FO(blocking) },
	{ "highwater", AK_INT, FO(highwater) },
	{ "rotatefd", AK_BOOL, FO(rotatefd) },
	{ "opennext", AK_BOOL, FO(opennext) },
	{ "indexed", AK_INT, FO(indexed) },
	{ "ordered", AK_BOOL, FO(ordered) },
	{ "randvar", AK_NUM, FO(rvar) },
	{ "osync", AK_BOOL, FO(osync) },
	{ "reverse", AK_BOOL, FO(reverse) },
	{ "stride", AK_INT, FO(stride) },
	{ "bufsize", AK_SIZE, FO(bufsize) },
	{ "stonewall", AK_BOOL, FO(stonewall) },
	{ "resume", AK_BOOL, FO(resume) },
	{ "dirsync", AK_BOOL, FO(dirsync) },
	{ "readdir", AK_BOOL, FO(readdir) },
	{ "iodepth", AK_INT, FO(iodepth) },
	{ "iodepth_batch", AK_INT, FO(iodepth_batch) },
	{ "iobytes", AK_SIZE, FO(iobytes) },
	{ "readpct", AK_INT, FO(readpct) },
	{ "noreadahead", AK_IGNORED, 3 },
	{ NULL, 0, 0 },
};

/* `define flowop name=..,iters=..,$p` and its calls `flowop NAME name=..`. */
static const struct attr_desc comp_attrs[] = {
	{ "name", AK_NAME, FO(name) },
	{ "iters", AK_INT, FO(iters) },
	{ NULL, 0, 0 },
};
#undef FO

static const struct attr_desc eventgen_attrs[] = {
	{ "rate", AK_NUM, offsetof(struct workload, eventgen_rate) },
	{ NULL, 0, 0 },
};

enum {
	RVA_NAME = 1,
	RVA_TYPE,
	RVA_MIN,
	RVA_MAX,
	RVA_MEAN,
	RVA_GAMMA,
	RVA_ROUND,
	RVA_SEED,
	RVA_RANDSRC,
	RVA_TABLE,
	RVA_PARAMETERS,
};

static const struct attr_desc randvar_attrs[] = {
	{ "name", AK_RV, RVA_NAME },
	{ "type", AK_RV, RVA_TYPE },
	{ "min", AK_RV, RVA_MIN },
	{ "max", AK_RV, RVA_MAX },
	{ "mean", AK_RV, RVA_MEAN },
	{ "gamma", AK_RV, RVA_GAMMA },
	{ "round", AK_RV, RVA_ROUND },
	{ "seed", AK_RV, RVA_SEED },
	{ "randsrc", AK_RV, RVA_RANDSRC },
	{ "randtable", AK_TABLE, RVA_TABLE },
	{ NULL, 0, 0 },
};

static const struct attr_desc cvar_attrs[] = {
	{ "type", AK_RV, RVA_TYPE },
	{ "parameters", AK_RV, RVA_PARAMETERS },
	{ "min", AK_RV, RVA_MIN },
	{ "max", AK_RV, RVA_MAX },
	{ "round", AK_RV, RVA_ROUND },
	{ NULL, 0, 0 },
};

/* --- syntax trees ------------------------------------------------------------ */

enum av_kind {
	AV_NONE,
	AV_WORD,   /* bare word: a number, a name, a path */
	AV_STRING, /* "quoted", escapes decoded */
	AV_VAR,	   /* $name, not yet resolved */
	AV_GVAR,   /* resolved to a global variable */
	AV_RAND,   /* inline randvar(...) or cvar(...) */
	AV_TABLE,  /* randtable */
};

struct avalue {
	enum av_kind kind;
	char *text;		 /* WORD, STRING, VAR (the name) */
	struct wl_var *gvar;	 /* GVAR */
	struct randvar *rv;	 /* RAND; owned by the workload */
	struct rv_bucket *table; /* TABLE; owned here */
	size_t ntable;
	int line, col;
};

struct attr {
	const struct attr_desc *desc; /* NULL for a $parameter */
	char *param;		      /* $parameter name (without '$') */
	int has_value;
	struct avalue v;
	int line, col; /* of the name */
};

struct attr_list {
	struct attr *a;
	size_t n;
};

struct comp_def;

/* One `flowop TYPE attrs` line, kept as syntax inside composite bodies. */
struct fo_ast {
	char *type;
	int line, col;
	int builtin;		/* enum flowop_type when comp == NULL */
	struct comp_def *comp;	/* a call of a composite flowop */
	struct attr_list attrs;
};

struct comp_def {
	char *name;
	int line;
	int ready; /* body complete: callable (not from inside itself) */
	struct attr_list hdr; /* name, iters, $parameters with defaults */
	struct fo_ast **body;
	size_t nbody;
};

/* Parameter bindings of one composite call. */
struct binding {
	const char *name;
	struct avalue v; /* WORD, STRING, GVAR or RAND: never AV_VAR */
};

struct env {
	struct binding *b;
	size_t n;
};

struct pending_ref {
	struct wl_flowop *fo;
	int line, col;
};

/* An attribute that reads a variable: its value's type is checked once
 * every `set` has been seen (finish()). */
struct typed_use {
	struct wl_var *var;
	const struct attr_desc *d;
	int numeric;	/* AK_VALUE of a flowop that reads a number (all but print) */
	char *owner;	/* "thread 'filereader'" */
	int line, col;
};

struct parser {
	struct lexer lx;
	int last_line; /* line of the last token consumed */
	struct workload *w;
	struct wl_error *err;
	const char *file;
	int failed;
	struct comp_def **comps;
	size_t ncomps;
	unsigned char *touched; /* per w->vars index: set or referenced in the file */
	size_t ntouched;
	struct pending_ref *refs; /* flowop -> fileset names, checked at the end */
	size_t nrefs;
	struct typed_use *uses; /* attributes reading variables, checked at the end */
	size_t nuses;
	size_t nflowops;
	int depth;	/* composite expansion depth */
	int expr_depth; /* parentheses */
	int run_zero;	/* `run 0`: the default duration in timeout mode */
	int quit;
};

/* --- errors ------------------------------------------------------------------ */

static int perr(struct parser *p, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perr(struct parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -EINVAL;
	p->failed = 1;
	snprintf(p->err->file, sizeof(p->err->file), "%s", p->file);
	p->err->line = line;
	p->err->col = col;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "expected <what>, found <token>", or the lexer's own complaint. */
static int perr_found(struct parser *p, const struct token *t, const char *what)
{
	char found[64];

	lex_describe(t, found, sizeof(found));
	if (t->kind == TOK_ERROR && strcmp(t->msg, "unexpected character") == 0)
		return perr(p, t->line, t->col, "unexpected %s where %s was expected", found, what);
	if (t->kind == TOK_ERROR)
		return perr(p, t->line, t->col, "%s", t->msg);
	return perr(p, t->line, t->col, "expected %s, found %s", what, found);
}

/* Edit distance, for "did you mean" hints on misspelt keywords. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

struct suggest {
	const char *best;
	size_t dist;
};

static void suggest_add(struct suggest *s, const char *word, const char *cand)
{
	size_t d = edit_distance(word, cand);

	if (d <= 2 && d < strlen(cand) && (!s->best || d < s->dist)) {
		s->best = cand;
		s->dist = d;
	}
}

/* " (did you mean 'x'?)" or "" */
static const char *suggest_text(const struct suggest *s, char *buf, size_t len)
{
	if (!s->best)
		return "";
	snprintf(buf, len, " (did you mean '%s'?)", s->best);
	return buf;
}

/* --- tokens --------------------------------------------------------------- */

static struct token next(struct parser *p, enum lex_mode mode)
{
	struct token t = lex_next(&p->lx, mode);

	if (t.kind != TOK_EOF)
		p->last_line = t.line;
	return t;
}

static struct token peek(struct parser *p, enum lex_mode mode)
{
	return lex_peek(&p->lx, mode);
}

/* The token after the next one. */
static struct token peek2(struct parser *p, enum lex_mode mode)
{
	struct lexer copy = p->lx;

	lex_next(&copy, mode);
	return lex_next(&copy, mode);
}

static int tok_is(const struct token *t, const char *word)
{
	return t->kind == TOK_WORD && strlen(word) == t->len &&
	       memcmp(t->start, word, t->len) == 0;
}

static int expect(struct parser *p, enum tok_kind kind, const char *what, struct token *out)
{
	struct token t = next(p, LEX_WORD);

	if (out)
		*out = t;
	if (t.kind != kind)
		return perr_found(p, &t, what);
	return 0;
}

/* --- variables ------------------------------------------------------------ */

static void touch(struct parser *p, struct wl_var *v)
{
	for (size_t i = 0; i < p->w->nvars; i++) {
		if (p->w->vars[i] != v)
			continue;
		if (i >= p->ntouched) {
			size_t n = p->w->nvars + 16;

			p->touched = xrealloc(p->touched, n);
			memset(p->touched + p->ntouched, 0, n - p->ntouched);
			p->ntouched = n;
		}
		p->touched[i] = 1;
		return;
	}
}

/* A reference to a global variable from the file. */
static struct wl_var *var_ref(struct parser *p, const char *name)
{
	struct wl_var *v = wl_var_get(p->w, name);

	v->used = 1;
	touch(p, v);
	return v;
}

/* A variable whose value the parser needs now; NULL after an error. */
static struct wl_var *var_need(struct parser *p, const char *name, int line, int col)
{
	struct wl_var *v = workload_var(p->w, name);

	if (!v || v->kind == VAR_UNSET) {
		perr(p, line, col, "variable '$%s' is used but never set", name);
		return NULL;
	}
	v->used = 1;
	touch(p, v);
	return v;
}

/* Text form of a variable's value, for names and echo; NULL if none. */
static char *var_text(const struct wl_var *v)
{
	struct sbuf sb;

	switch (v->kind) {
	case VAR_STR:
		return xstrdup(v->s);
	case VAR_INT:
		return xasprintf("%" PRId64, v->i);
	case VAR_DBL:
		sbuf_init(&sb);
		wl_fmt_double(&sb, v->d);
		return sbuf_take(&sb);
	case VAR_BOOL:
		return xstrdup(v->i ? "true" : "false");
	default:
		return NULL;
	}
}

/* Move a parsed value (held in a scratch wl_var) into a variable. */
static void var_assign(struct wl_var *dst, struct wl_var *src)
{
	wl_var_clear(dst);
	dst->kind = src->kind;
	dst->i = src->i;
	dst->d = src->d;
	dst->s = src->s;
	dst->rv = src->rv;
	src->s = NULL;
}

/* --- freeing syntax ------------------------------------------------------- */

static void avalue_free(struct avalue *v)
{
	free(v->text);
	free(v->table);
	memset(v, 0, sizeof(*v));
}

static void attr_list_free(struct attr_list *al)
{
	for (size_t i = 0; i < al->n; i++) {
		free(al->a[i].param);
		avalue_free(&al->a[i].v);
	}
	free(al->a);
	al->a = NULL;
	al->n = 0;
}

static void fo_ast_free(struct fo_ast *f)
{
	if (!f)
		return;
	free(f->type);
	attr_list_free(&f->attrs);
	free(f);
}

static void comp_def_free(struct comp_def *d)
{
	free(d->name);
	attr_list_free(&d->hdr);
	for (size_t i = 0; i < d->nbody; i++)
		fo_ast_free(d->body[i]);
	free(d->body);
	free(d);
}

static const struct attr *attr_find(const struct attr_list *al, const char *name)
{
	for (size_t i = 0; i < al->n; i++)
		if (al->a[i].desc && strcmp(al->a[i].desc->name, name) == 0)
			return &al->a[i];
	return NULL;
}

static const struct attr *param_find(const struct attr_list *al, const char *name)
{
	for (size_t i = 0; i < al->n; i++)
		if (al->a[i].param && strcmp(al->a[i].param, name) == 0)
			return &al->a[i];
	return NULL;
}

/* --- numbers ------------------------------------------------------------------- */

#define NUM_HINT "use a number with optional k, m, g, t"

/* A number from an attribute value the parser needs now (randvar
 * parameters, table rows).  Variables must be set and numeric. */
static int avalue_number(struct parser *p, const struct avalue *v, const char *what, double *out)
{
	int64_t i;
	double d;
	int rc;

	switch (v->kind) {
	case AV_WORD: {
		const char *s = v->text;
		int neg = *s == '-';

		rc = wl_num_parse(s + neg, &i, &d);
		if (rc == NUM_INT)
			*out = (double)i;
		else if (rc == NUM_DBL)
			*out = d;
		else
			return perr(p, v->line, v->col, "%s '%s' is not a number (" NUM_HINT ")", what,
				    s);
		if (neg)
			*out = -*out;
		return 0;
	}
	case AV_VAR:
	case AV_GVAR: {
		const char *name = v->kind == AV_VAR ? v->text : v->gvar->name;
		struct wl_var *x = var_need(p, name, v->line, v->col);

		if (!x)
			return -EINVAL;
		if (x->kind == VAR_INT)
			*out = (double)x->i;
		else if (x->kind == VAR_DBL)
			*out = x->d;
		else
			return perr(p, v->line, v->col, "%s: variable '$%s' is not a number", what, name);
		return 0;
	}
	case AV_STRING:
		return perr(p, v->line, v->col, "%s must be a number, not a quoted string", what);
	default:
		return perr(p, v->line, v->col, "%s must be a number", what);
	}
}

/* --- random variables ----------------------------------------------------- */

static struct randvar *randvar_push(struct workload *w, const char *name, int line)
{
	struct randvar *rv = xcalloc(1, sizeof(*rv));

	rv->name = name ? xstrdup(name) : NULL;
	rv->line = line;
	w->randvars = xrealloc(w->randvars, (w->nrandvars + 1) * sizeof(*w->randvars));
	w->randvars[w->nrandvars++] = rv;
	return rv;
}

static void warn(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct parser *p, const char *fmt, ...)
{
	struct workload *w = p->w;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		s = xstrdup("out of memory formatting a warning");
	w->warnings = xrealloc(w->warnings, (w->nwarnings + 1) * sizeof(*w->warnings));
	w->warnings[w->nwarnings++] = s;
}

struct cvar_type {
	const char *name;
	enum rv_type type;
	const char *params[3]; /* in the order they are documented */
};

/* Parameter names and defaults as filebench's cvar library documents them. */
static const struct cvar_type cvar_types[] = {
	{ "gamma", RV_GAMMA, { "mean", "gamma" } },
	{ "exponential", RV_EXPONENTIAL, { "mean" } },
	{ "uniform", RV_UNIFORM, { "lower", "upper" } },
	{ "normal", RV_NORMAL, { "mean", "sigma" } },
	{ "lognormal", RV_LOGNORMAL, { "shape", "scale" } },
	{ "weibull", RV_WEIBULL, { "shape", "scale" } },
	{ "triangular", RV_TRIANGULAR, { "lower", "upper", "mode" } },
};

static void cvar_defaults(struct randvar *rv)
{
	switch (rv->type) {
	case RV_GAMMA:
		rv->mean = 4096;
		rv->gamma = 1.5;
		break;
	case RV_EXPONENTIAL:
		rv->mean = 1;
		break;
	case RV_UNIFORM:
		rv->lower = 0;
		rv->upper = 1;
		break;
	case RV_NORMAL:
		rv->mean = 0;
		rv->sigma = 1;
		break;
	case RV_LOGNORMAL:
	case RV_WEIBULL:
		rv->shape = 1;
		rv->scale = 1;
		break;
	case RV_TRIANGULAR:
		rv->lower = 0;
		rv->upper = 1;
		rv->mode = 0.5;
		break;
	case RV_TABULAR:
		break;
	}
}

static double *cvar_param(struct randvar *rv, const char *key)
{
	if (strcmp(key, "mean") == 0)
		return &rv->mean;
	if (strcmp(key, "gamma") == 0)
		return &rv->gamma;
	if (strcmp(key, "sigma") == 0)
		return &rv->sigma;
	if (strcmp(key, "shape") == 0)
		return &rv->shape;
	if (strcmp(key, "scale") == 0)
		return &rv->scale;
	if (strcmp(key, "lower") == 0)
		return &rv->lower;
	if (strcmp(key, "upper") == 0)
		return &rv->upper;
	if (strcmp(key, "mode") == 0)
		return &rv->mode;
	return NULL;
}

/* "mean:16384;gamma:1.5" */
static int cvar_parameters(struct parser *p, const struct cvar_type *ct, struct randvar *rv,
			   const struct avalue *v)
{
	char *copy = xstrdup(v->text), *save = NULL, *item;
	int rc = 0;

	for (item = strtok_r(copy, ";", &save); item && !rc; item = strtok_r(NULL, ";", &save)) {
		char *colon = strchr(item, ':'), *key = item, *val;
		size_t k;
		int allowed = 0;
		double *dst, d;
		struct avalue num = { .kind = AV_WORD, .line = v->line, .col = v->col };

		while (isspace((unsigned char)*key))
			key++;
		if (!*key)
			continue;
		if (!colon) {
			rc = perr(p, v->line, v->col,
				  "cvar parameter '%s' has no value (write key:value, separated by ';')",
				  key);
			break;
		}
		*colon = '\0';
		val = colon + 1;
		for (k = strlen(key); k && isspace((unsigned char)key[k - 1]); k--)
			key[k - 1] = '\0';
		while (isspace((unsigned char)*val))
			val++;
		for (k = strlen(val); k && isspace((unsigned char)val[k - 1]); k--)
			val[k - 1] = '\0';
		for (size_t j = 0; j < ARRAY_SIZE(ct->params) && ct->params[j]; j++)
			if (strcmp(ct->params[j], key) == 0)
				allowed = 1;
		dst = cvar_param(rv, key);
		if (!allowed || !dst) {
			char list[64] = "";

			for (size_t j = 0; j < ARRAY_SIZE(ct->params) && ct->params[j]; j++) {
				if (j)
					strcat(list, ", ");
				strcat(list, ct->params[j]);
			}
			rc = perr(p, v->line, v->col, "unknown parameter '%s' for cvar-%s (use %s)", key,
				  ct->name, list);
			break;
		}
		num.text = val;
		char what[64];
		snprintf(what, sizeof(what), "cvar parameter '%s'", key);
		rc = avalue_number(p, &num, what, &d);
		if (!rc)
			*dst = d;
	}
	free(copy);
	return rc;
}

static int cvar_validate(struct parser *p, const struct randvar *rv, int line, int col)
{
	switch (rv->type) {
	case RV_GAMMA:
		if (!(rv->gamma > 0))
			return perr(p, line, col, "cvar-gamma: gamma must be greater than 0");
		break;
	case RV_UNIFORM:
		if (rv->upper < rv->lower)
			return perr(p, line, col, "cvar-uniform: upper must not be below lower");
		break;
	case RV_TRIANGULAR:
		if (rv->upper < rv->lower)
			return perr(p, line, col, "cvar-triangular: upper must not be below lower");
		if (rv->mode < rv->lower || rv->mode > rv->upper)
			return perr(p, line, col,
				    "cvar-triangular: mode must be between lower and upper");
		break;
	case RV_WEIBULL:
		if (!(rv->shape > 0) || rv->scale < 0)
			return perr(p, line, col,
				    "cvar-weibull: shape must be greater than 0 and scale not negative");
		break;
	case RV_LOGNORMAL:
		if (rv->shape < 0)
			return perr(p, line, col, "cvar-lognormal: shape must not be negative");
		break;
	case RV_EXPONENTIAL:
		if (rv->mean < 0)
			return perr(p, line, col, "cvar-exponential: mean must not be negative");
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Build a random variable from randvar(...) / `define randvar` attributes
 * (cvar == 0) or cvar(...) attributes (cvar == 1).  The new variable is on
 * the workload's list before anything can fail.
 */
static int build_randvar(struct parser *p, const struct attr_list *al, int cvar, const char *name,
			 int line, int col, struct randvar **out)
{
	struct randvar *rv = randvar_push(p->w, name, line);
	const struct attr *type_attr = NULL, *table_attr = NULL, *params_attr = NULL;
	const struct cvar_type *ct = NULL;
	int has_mean = 0, rc;
	double d;

	*out = rv;
	rv->cvar = cvar;
	rv->type = RV_GAMMA;
	for (size_t i = 0; i < al->n; i++) {
		const struct attr *a = &al->a[i];

		if (a->desc->off == RVA_TYPE)
			type_attr = a;
		else if (a->desc->off == RVA_TABLE)
			table_attr = a;
		else if (a->desc->off == RVA_PARAMETERS)
			params_attr = a;
	}

	if (type_attr) {
		const struct avalue *v = &type_attr->v;
		const char *t = v->kind == AV_WORD || v->kind == AV_STRING ? v->text : "";

		if (cvar) {
			const char *bare = strncmp(t, "cvar-", 5) == 0 ? t + 5 : t;

			for (size_t j = 0; j < ARRAY_SIZE(cvar_types); j++)
				if (strcmp(cvar_types[j].name, bare) == 0)
					ct = &cvar_types[j];
			if (!ct)
				return perr(p, v->line, v->col,
					    "cvar type '%s' is not supported (use cvar-gamma, "
					    "cvar-exponential, cvar-uniform, cvar-normal, "
					    "cvar-lognormal, cvar-weibull or cvar-triangular)",
					    t);
			rv->type = ct->type;
		} else if (strcmp(t, "gamma") == 0) {
			rv->type = RV_GAMMA;
		} else if (strcmp(t, "uniform") == 0) {
			rv->type = RV_UNIFORM;
		} else if (strcmp(t, "tabular") == 0) {
			rv->type = RV_TABULAR;
		} else {
			return perr(p, v->line, v->col,
				    "randvar type '%s' is not supported (use gamma, uniform or tabular)",
				    t);
		}
	} else if (cvar) {
		return perr(p, line, col, "cvar(...) needs a type (for example type=cvar-gamma)");
	} else if (table_attr) {
		rv->type = RV_TABULAR;
	}

	if (cvar)
		cvar_defaults(rv);
	else
		rv->gamma = 1.5; /* filebench's default gamma=1500 */

	for (size_t i = 0; i < al->n; i++) {
		const struct attr *a = &al->a[i];
		const struct avalue *v = &a->v;
		char what[48];

		snprintf(what, sizeof(what), "randvar %s", a->desc->name);
		switch (a->desc->off) {
		case RVA_MIN:
		case RVA_MAX:
		case RVA_MEAN:
		case RVA_ROUND:
		case RVA_GAMMA:
			rc = avalue_number(p, v, what, &d);
			if (rc)
				return rc;
			if (d < 0 && a->desc->off != RVA_MEAN)
				return perr(p, v->line, v->col, "%s must not be negative", what);
			if (a->desc->off == RVA_MIN)
				rv->min = d;
			else if (a->desc->off == RVA_MAX)
				rv->max = d;
			else if (a->desc->off == RVA_ROUND)
				rv->round = d;
			else if (a->desc->off == RVA_MEAN) {
				rv->mean = d;
				has_mean = 1;
			} else {
				/* filebench's randvar gamma is in thousandths:
				 * gamma=1500 is a shape of 1.5. */
				rv->gamma = d / 1000;
			}
			break;
		case RVA_SEED:
			rc = avalue_number(p, v, what, &d);
			if (rc)
				return rc;
			if (d < 0 || d != floor(d) || d > 1.8e19)
				return perr(p, v->line, v->col, "randvar seed must be a whole number");
			rv->seed = (uint64_t)d;
			rv->has_seed = 1;
			break;
		case RVA_RANDSRC:
			/* Samples come from the runner's per-thread generator;
			 * the source is accepted for compatibility. */
			if (v->kind != AV_WORD ||
			    (strcmp(v->text, "urandom") && strcmp(v->text, "rand48")))
				return perr(p, v->line, v->col,
					    "randsrc must be urandom or rand48");
			break;
		case RVA_TABLE:
			if (rv->type != RV_TABULAR)
				return perr(p, a->line, a->col,
					    "randtable is only for type=tabular");
			rv->table = xmalloc((v->ntable ? v->ntable : 1) * sizeof(*rv->table));
			memcpy(rv->table, v->table, v->ntable * sizeof(*rv->table));
			rv->ntable = v->ntable;
			break;
		case RVA_PARAMETERS:
			if (v->kind != AV_WORD && v->kind != AV_STRING)
				return perr(p, v->line, v->col,
					    "cvar parameters must be written key:value;key:value");
			break;
		default:
			break;
		}
	}

	if (cvar) {
		if (params_attr) {
			rc = cvar_parameters(p, ct, rv, &params_attr->v);
			if (rc)
				return rc;
		}
		return cvar_validate(p, rv, params_attr ? params_attr->v.line : line,
				     params_attr ? params_attr->v.col : col);
	}

	if (rv->type == RV_TABULAR) {
		double total = 0;

		if (!table_attr)
			return perr(p, type_attr ? type_attr->v.line : line,
				    type_attr ? type_attr->v.col : col,
				    "type=tabular needs a randtable={{percent,min,max},...}");
		for (size_t i = 0; i < rv->ntable; i++)
			total += rv->table[i].pct;
		if (total <= 0)
			return perr(p, table_attr->v.line, table_attr->v.col,
				    "randtable percentages add up to 0");
		if (fabs(total - 100) > 1e-9)
			warn(p,
			     "line %d: randtable percentages add up to %g, not 100; they are used "
			     "as relative weights",
			     table_attr->v.line, total);
		if (has_mean) {
			warn(p, "line %d: mean is ignored for a tabular randvar", line);
			rv->mean = 0;
		}
	} else if (rv->type == RV_GAMMA) {
		if (!(rv->gamma > 0))
			return perr(p, line, col, "randvar gamma must be greater than 0");
		/* filebench: a gamma randvar without a mean has mean = gamma. */
		if (!has_mean)
			rv->mean = rv->gamma;
	}
	if (rv->max > 0 && rv->max < rv->min)
		return perr(p, line, col, "randvar max must not be below min");
	return 0;
}

/* --- attribute lists --------------------------------------------------------- */

enum {
	AL_PARAMS = 1,	      /* $name[=value] allowed (composite definitions) */
	AL_PARAM_VALUE = 2,   /* ... and each needs a value (composite calls) */
	AL_SAMELINE = 4,      /* the list may be absent; it starts on this line */
};

static int parse_attr_list(struct parser *p, const struct attr_desc *table, const char *what,
			   int flags, struct attr_list *out);

static int parse_table(struct parser *p, struct avalue *out)
{
	struct token t;
	int rc;

	out->kind = AV_TABLE;
	for (;;) {
		double cell[3];
		int cline[3], ccol[3];

		rc = expect(p, TOK_LBRACE, "'{' to start a randtable row {percent, min, max}", &t);
		if (rc)
			return rc;
		for (int i = 0; i < 3; i++) {
			static const char *const names[] = { "percent", "min", "max" };
			struct avalue v = { 0 };
			char what[48];

			t = next(p, LEX_WORD);
			v.line = cline[i] = t.line;
			v.col = ccol[i] = t.col;
			if (t.kind == TOK_WORD) {
				v.kind = AV_WORD;
				v.text = lex_text(&t);
			} else if (t.kind == TOK_VAR) {
				v.kind = AV_VAR;
				v.text = lex_var_name(&t);
			} else {
				snprintf(what, sizeof(what), "the randtable row's %s", names[i]);
				return perr_found(p, &t, what);
			}
			snprintf(what, sizeof(what), "randtable %s", names[i]);
			rc = avalue_number(p, &v, what, &cell[i]);
			if (!rc && cell[i] < 0)
				rc = perr(p, v.line, v.col, "%s must not be negative", what);
			avalue_free(&v);
			if (rc)
				return rc;
			if (i < 2) {
				rc = expect(p, TOK_COMMA, "',' between randtable values", &t);
				if (rc)
					return rc;
			}
		}
		rc = expect(p, TOK_RBRACE, "'}' to end a randtable row of three values", &t);
		if (rc)
			return rc;
		if (cell[1] > cell[2])
			return perr(p, cline[1], ccol[1], "randtable row: min %g is above max %g",
				    cell[1], cell[2]);
		if (out->ntable >= MAX_TABLE_ROWS)
			return perr(p, t.line, t.col, "randtable has too many rows");
		out->table = xrealloc(out->table, (out->ntable + 1) * sizeof(*out->table));
		out->table[out->ntable].pct = cell[0];
		out->table[out->ntable].lo = cell[1];
		out->table[out->ntable].hi = cell[2];
		out->ntable++;

		t = next(p, LEX_WORD);
		if (t.kind == TOK_RBRACE)
			return 0;
		if (t.kind != TOK_COMMA)
			return perr_found(p, &t, "',' or '}' after a randtable row");
	}
}

/* randvar( ... ) or cvar( ... ); the keyword has been consumed. */
static int parse_rv_call(struct parser *p, int cvar, const char *name, const struct token *kw,
			 struct randvar **out)
{
	struct attr_list al = { 0 };
	struct token t;
	int rc;

	rc = expect(p, TOK_LPAREN, cvar ? "'(' after 'cvar'" : "'(' after 'randvar'", &t);
	if (!rc)
		rc = parse_attr_list(p, cvar ? cvar_attrs : randvar_attrs,
				     cvar ? "cvar" : "randvar", 0, &al);
	if (!rc) {
		t = next(p, LEX_WORD);
		if (t.kind != TOK_RPAREN)
			rc = perr_found(p, &t, cvar ? "',' or ')' in cvar(...)" :
						      "',' or ')' in randvar(...)");
	}
	if (!rc && !cvar && attr_find(&al, "name"))
		rc = perr(p, attr_find(&al, "name")->line, attr_find(&al, "name")->col,
			  "randvar(...) takes no name (the variable it is set to names it)");
	if (!rc)
		rc = build_randvar(p, &al, cvar, name, kw->line, kw->col, out);
	attr_list_free(&al);
	return rc;
}

static int parse_avalue(struct parser *p, const struct attr_desc *desc, const char *aname,
			struct avalue *out)
{
	struct token t = next(p, LEX_WORD);
	char what[80];

	out->line = t.line;
	out->col = t.col;
	if (desc && desc->kind == AK_TABLE) {
		if (t.kind != TOK_LBRACE)
			return perr_found(p, &t, "'{' to start the randtable");
		return parse_table(p, out);
	}
	switch (t.kind) {
	case TOK_WORD:
		if ((tok_is(&t, "cvar") || tok_is(&t, "randvar")) &&
		    peek(p, LEX_WORD).kind == TOK_LPAREN) {
			out->kind = AV_RAND;
			return parse_rv_call(p, tok_is(&t, "cvar"), NULL, &t, &out->rv);
		}
		out->kind = AV_WORD;
		out->text = lex_text(&t);
		return 0;
	case TOK_STRING:
		out->kind = AV_STRING;
		out->text = lex_string_value(&t, NULL, NULL);
		return 0;
	case TOK_VAR:
		out->kind = AV_VAR;
		out->text = lex_var_name(&t);
		return 0;
	default:
		snprintf(what, sizeof(what), "a value after '%s='", aname);
		return perr_found(p, &t, what);
	}
}

static const struct attr_desc *desc_find(const struct attr_desc *table, const char *name)
{
	for (const struct attr_desc *d = table; d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

static int parse_attr_list(struct parser *p, const struct attr_desc *table, const char *what,
			   int flags, struct attr_list *out)
{
	int rc;

	for (;;) {
		struct token t = peek(p, LEX_WORD), eq;
		struct attr *a;
		char found[64], hint[64];

		if (out->n == 0) {
			if (t.kind != TOK_WORD && t.kind != TOK_VAR)
				return 0;
			if ((flags & AL_SAMELINE) && t.line != p->last_line)
				return 0;
		}
		t = next(p, LEX_WORD);
		out->a = xrealloc(out->a, (out->n + 1) * sizeof(*out->a));
		a = &out->a[out->n++];
		memset(a, 0, sizeof(*a));
		a->line = t.line;
		a->col = t.col;
		if (t.kind == TOK_VAR) {
			if (!(flags & AL_PARAMS))
				return perr(p, t.line, t.col,
					    "unexpected '%.*s' in %s attributes (only composite "
					    "flowops take $parameters)",
					    (int)t.len, t.start, what);
			a->param = lex_var_name(&t);
			for (size_t i = 0; i + 1 < out->n; i++)
				if (out->a[i].param && strcmp(out->a[i].param, a->param) == 0)
					return perr(p, t.line, t.col, "parameter '$%s' given twice",
						    a->param);
		} else if (t.kind == TOK_WORD) {
			char *name = lex_text(&t);
			struct suggest s = { 0 };

			a->desc = desc_find(table, name);
			if (!a->desc) {
				for (const struct attr_desc *d = table; d->name; d++)
					suggest_add(&s, name, d->name);
				rc = perr(p, t.line, t.col, "unknown attribute '%s' for %s%s", name,
					  what, suggest_text(&s, hint, sizeof(hint)));
				free(name);
				return rc;
			}
			free(name);
			for (size_t i = 0; i + 1 < out->n; i++) {
				const struct attr_desc *o = out->a[i].desc;

				if (o && o->off == a->desc->off && o->kind == a->desc->kind)
					return perr(p, t.line, t.col,
						    "attribute '%s' given twice for %s%s%s%s",
						    a->desc->name, what,
						    strcmp(o->name, a->desc->name) ? " (as '" : "",
						    strcmp(o->name, a->desc->name) ? o->name : "",
						    strcmp(o->name, a->desc->name) ? "')" : "");
			}
		} else {
			return perr_found(p, &t, out->n > 1 ? "an attribute name after ','" :
							     "an attribute name");
		}

		eq = peek(p, LEX_WORD);
		if (eq.kind == TOK_EQ) {
			next(p, LEX_WORD);
			a->has_value = 1;
			rc = parse_avalue(p, a->desc, a->desc ? a->desc->name : a->param, &a->v);
			if (rc)
				return rc;
		} else if ((a->desc && needs_value(a->desc)) ||
			   (!a->desc && (flags & AL_PARAM_VALUE))) {
			lex_describe(&eq, found, sizeof(found));
			if (eq.kind == TOK_ERROR)
				return perr_found(p, &eq, "'='");
			return perr(p, eq.line, eq.col, "expected '=' after '%s%s', found %s",
				    a->desc ? "" : "$", a->desc ? a->desc->name : a->param, found);
		}

		if (peek(p, LEX_WORD).kind != TOK_COMMA)
			return 0;
		next(p, LEX_WORD);
	}
}

/* --- applying attributes -------------------------------------------------- */

/* What a value in a body stands for: a composite parameter's binding, or
 * (outside composites, or for other names) the global variable. */
static struct avalue subst(struct parser *p, const struct avalue *v, const struct env *env)
{
	struct avalue r = *v;

	if (v->kind != AV_VAR)
		return r;
	for (size_t i = 0; env && i < env->n; i++)
		if (strcmp(env->b[i].name, v->text) == 0)
			return env->b[i].v;
	r.kind = AV_GVAR;
	r.gvar = var_ref(p, v->text);
	return r;
}

/* A name (fileset, process, thread, flowop, fileset reference): needed now. */
static int resolve_name(struct parser *p, const struct attr *a, const struct env *env, char **out)
{
	struct avalue v = subst(p, &a->v, env);
	const char *an = a->desc->name;

	*out = NULL;
	switch (v.kind) {
	case AV_WORD:
	case AV_STRING:
		if (!*v.text)
			return perr(p, v.line, v.col, "%s must not be empty", an);
		*out = xstrdup(v.text);
		return 0;
	case AV_GVAR:
		if (v.gvar->kind == VAR_UNSET)
			return perr(p, v.line, v.col, "variable '$%s' is used but never set",
				    v.gvar->name);
		*out = var_text(v.gvar);
		if (!*out)
			return perr(p, v.line, v.col, "%s cannot be random ('$%s')", an,
				    v.gvar->name);
		if (!**out) {
			free(*out);
			*out = NULL;
			return perr(p, v.line, v.col, "%s must not be empty ('$%s' is \"\")", an,
				    v.gvar->name);
		}
		return 0;
	default:
		return perr(p, v.line, v.col, "%s cannot be random", an);
	}
}

/* What an attribute's value must be, for the messages. */
static const char *akind_expects(enum akind k)
{
	switch (k) {
	case AK_INT:
		return "a whole number";
	case AK_SIZE:
		return "a whole number of bytes, optionally with k, m, g or t";
	case AK_BOOL:
		return "true or false";
	case AK_PREALLOC:
		return "a percentage (0 to 100), true or false";
	default:
		return "a number";
	}
}

/* Is double x a whole number an int64_t holds? */
static int dbl_is_whole(double x)
{
	return x == floor(x) && x > -9.2e18 && x < 9.2e18;
}

/* NULL when variable v's value suits attribute kind d->kind (numeric:
 * a value= that is read as a number), else what it should have been. */
static const char *var_mismatch(const struct wl_var *v, const struct attr_desc *d, int numeric)
{
	switch (v->kind) {
	case VAR_UNSET: /* warned about; the attribute's default applies */
		return NULL;
	case VAR_INT:
		if (d->kind == AK_PREALLOC && (v->i < 0 || v->i > 100))
			return akind_expects(d->kind);
		return NULL;
	case VAR_DBL:
		if ((d->kind == AK_INT || d->kind == AK_SIZE) && !dbl_is_whole(v->d))
			return akind_expects(d->kind);
		if (d->kind == AK_PREALLOC && !(v->d >= 0 && v->d <= 100))
			return akind_expects(d->kind);
		return NULL;
	case VAR_BOOL:
		if (d->kind == AK_BOOL || d->kind == AK_PREALLOC || d->kind == AK_STR ||
		    (d->kind == AK_VALUE && !numeric))
			return NULL;
		return akind_expects(d->kind == AK_VALUE ? AK_NUM : d->kind);
	case VAR_RAND:
		if (d->kind == AK_BOOL || d->kind == AK_PREALLOC)
			return akind_expects(d->kind);
		return NULL;
	case VAR_STR:
		if (d->kind == AK_STR || (d->kind == AK_VALUE && !numeric))
			return NULL;
		if (d->kind == AK_BOOL && (!strcmp(v->s, "true") || !strcmp(v->s, "false")))
			return NULL;
		return akind_expects(d->kind == AK_VALUE ? AK_NUM : d->kind);
	}
	return NULL;
}

/* "thread 'filereader'": what an attribute belongs to, for messages. */
static char *owner_text(void *obj, const char *what)
{
	const char *name = NULL;

	if (!strcmp(what, "flowop") || !strcmp(what, "composite flowop"))
		name = ((struct wl_flowop *)obj)->name;
	else if (!strcmp(what, "thread"))
		name = ((struct wl_thread *)obj)->name;
	else if (!strcmp(what, "process"))
		name = ((struct wl_process *)obj)->name;
	else if (!strcmp(what, "fileset") || !strcmp(what, "file"))
		name = ((struct wl_fileset *)obj)->name;
	return name ? xasprintf("%s '%s'", what, name) : xstrdup(what);
}

static void use_record(struct parser *p, const struct attr_desc *d, struct wl_var *var,
		       void *obj, const char *what, int line, int col)
{
	struct typed_use *u;

	if (d->kind == AK_STR)
		return;
	p->uses = xrealloc(p->uses, (p->nuses + 1) * sizeof(*p->uses));
	u = &p->uses[p->nuses++];
	u->var = var;
	u->d = d;
	u->numeric = d->kind == AK_VALUE && !strcmp(what, "flowop") &&
		     ((struct wl_flowop *)obj)->type != FO_PRINT;
	u->owner = owner_text(obj, what);
	u->line = line;
	u->col = col;
}

/* Every attribute that reads a variable, against the variable's final
 * value: a -s override or the file's last `set`. */
static int check_uses(struct parser *p)
{
	for (size_t i = 0; i < p->nuses; i++) {
		const struct typed_use *u = &p->uses[i];
		const char *want = var_mismatch(u->var, u->d, u->numeric);
		char *text;
		int rc;

		if (!want)
			continue;
		text = var_text(u->var);
		if (u->var->overridden && !u->var->implicit) {
			/* the command line's value: no position in the file */
			rc = perr(p, 0, 0, "-s %s=%s: expected %s (%s of %s)", u->var->name,
				  text ? text : "", want, u->d->name, u->owner);
			snprintf(p->err->file, sizeof(p->err->file), "command line");
		} else if (u->var->line) {
			rc = perr(p, u->line, u->col, "%s of %s is $%s, which is '%s' (set on line %d): "
				  "expected %s",
				  u->d->name, u->owner, u->var->name, text ? text : "random",
				  u->var->line, want);
		} else {
			rc = perr(p, u->line, u->col, "%s of %s is $%s, which is '%s': expected %s",
				  u->d->name, u->owner, u->var->name, text ? text : "random", want);
		}
		free(text);
		return rc;
	}
	return 0;
}

static int apply_one(struct parser *p, const struct attr *a, const struct env *env, void *obj,
		     const char *what)
{
	const struct attr_desc *d = a->desc;
	struct wl_val *out = (struct wl_val *)((char *)obj + d->off);
	struct avalue v;
	int64_t i;
	double x;
	int rc;

	if (d->kind == AK_NAME || d->kind == AK_RV || d->kind == AK_TABLE)
		return 0;
	if (d->kind == AK_IGNORED) {
		warn(p, "line %d: attribute '%s' of %s is not supported and is ignored", a->line,
		     d->name, what);
		return 0;
	}
	if (d->kind == AK_FILESET) {
		struct wl_flowop *fo = obj;
		char *name;

		rc = resolve_name(p, a, env, &name);
		if (rc)
			return rc;
		free(fo->fileset_name);
		fo->fileset_name = name;
		p->refs = xrealloc(p->refs, (p->nrefs + 1) * sizeof(*p->refs));
		p->refs[p->nrefs].fo = fo;
		p->refs[p->nrefs].line = a->v.line;
		p->refs[p->nrefs].col = a->v.col;
		p->nrefs++;
		return 0;
	}

	wl_val_clear(out);
	if (!a->has_value) {
		/* A bare flag: `random`, `prealloc` (meaning all of it). */
		out->kind = d->kind == AK_PREALLOC ? WLV_INT : WLV_BOOL;
		out->i = d->kind == AK_PREALLOC ? 100 : 1;
		return 0;
	}

	v = subst(p, &a->v, env);
	switch (v.kind) {
	case AV_GVAR:
		out->kind = WLV_VAR;
		out->var = v.gvar;
		use_record(p, d, v.gvar, obj, what, v.line, v.col);
		return 0;
	case AV_RAND:
		if (d->kind == AK_NUM || d->kind == AK_INT || d->kind == AK_SIZE ||
		    d->kind == AK_VALUE) {
			out->kind = WLV_RAND;
			out->rv = v.rv;
			return 0;
		}
		return perr(p, v.line, v.col, "%s cannot be random", d->name);
	case AV_STRING:
		if (d->kind == AK_STR || d->kind == AK_VALUE) {
			out->kind = WLV_STR;
			out->s = xstrdup(v.text);
			return 0;
		}
		if (d->kind == AK_BOOL)
			return perr(p, v.line, v.col, "%s must be true or false, not a quoted string",
				    d->name);
		return perr(p, v.line, v.col, "%s must be a number, not a quoted string", d->name);
	case AV_WORD:
		break;
	default:
		return perr(p, v.line, v.col, "bad value for %s", d->name);
	}

	/* A bare word: what it means depends on the attribute. */
	if (d->kind == AK_STR) {
		out->kind = WLV_STR;
		out->s = xstrdup(v.text);
		return 0;
	}
	if ((d->kind == AK_BOOL || d->kind == AK_PREALLOC) &&
	    (!strcmp(v.text, "true") || !strcmp(v.text, "false"))) {
		int b = strcmp(v.text, "true") == 0;

		out->kind = d->kind == AK_BOOL ? WLV_BOOL : WLV_INT;
		out->i = d->kind == AK_BOOL ? b : 100 * b;
		return 0;
	}
	rc = wl_num_parse(v.text, &i, &x);
	if (rc == NUM_INT || rc == NUM_DBL) {
		if (d->kind == AK_BOOL) {
			out->kind = WLV_BOOL;
			out->i = rc == NUM_INT ? i != 0 : x != 0;
		} else if (d->kind == AK_PREALLOC) {
			if (rc == NUM_DBL) /* (checked before the conversion: 1e52 does not fit) */
				i = x >= 0 && x <= 100 ? (int64_t)x : -1;
			if (i < 0 || i > 100)
				return perr(p, v.line, v.col,
					    "prealloc %s is not a percentage (0 to 100)", v.text);
			out->kind = WLV_INT;
			out->i = i;
		} else if (rc == NUM_INT) {
			out->kind = WLV_INT;
			out->i = i;
		} else if (d->kind == AK_INT || d->kind == AK_SIZE) {
			/* a count or a size in bytes: 1e3 is one, 1.5 is not */
			if (!dbl_is_whole(x)) {
				char *ow = owner_text(obj, what);

				rc = perr(p, v.line, v.col, "%s of %s is '%s': expected %s", d->name,
					  ow, v.text, akind_expects(d->kind));
				free(ow);
				return rc;
			}
			out->kind = WLV_INT;
			out->i = (int64_t)x;
		} else {
			out->kind = WLV_DBL;
			out->d = x;
		}
		return 0;
	}
	if (d->kind == AK_VALUE) {
		out->kind = WLV_STR;
		out->s = xstrdup(v.text);
		return 0;
	}
	if (rc == -ERANGE)
		return perr(p, v.line, v.col, "%s '%s' is too large", d->name, v.text);
	if (d->kind == AK_BOOL)
		return perr(p, v.line, v.col, "%s '%s' is not true or false", d->name, v.text);
	if (d->kind == AK_PREALLOC)
		return perr(p, v.line, v.col, "prealloc '%s' is not a percentage (0 to 100)",
			    v.text);
	if (d->kind == AK_SIZE)
		return perr(p, v.line, v.col, "%s '%s' is not a size (" NUM_HINT ")", d->name,
			    v.text);
	return perr(p, v.line, v.col, "%s '%s' is not a number (" NUM_HINT ")", d->name, v.text);
}

static int apply_attrs(struct parser *p, const struct attr_list *al, const struct env *env,
		       void *obj, const char *what)
{
	for (size_t i = 0; i < al->n; i++) {
		int rc;

		if (!al->a[i].desc)
			continue;
		rc = apply_one(p, &al->a[i], env, obj, what);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- flowops -------------------------------------------------------------- */

static struct comp_def *comp_find(struct parser *p, const char *name)
{
	for (size_t i = 0; i < p->ncomps; i++)
		if (p->comps[i]->ready && strcmp(p->comps[i]->name, name) == 0)
			return p->comps[i];
	return NULL;
}

static void push_flowop(struct wl_flowop ***list, size_t *n, struct wl_flowop *fo)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = fo;
}

/* `flowop TYPE attrs`, after the keyword. */
static int parse_fo_ast(struct parser *p, struct fo_ast **out)
{
	struct token t = next(p, LEX_WORD);
	struct fo_ast *f;
	char hint[64];
	int rc;

	*out = NULL;
	if (t.kind != TOK_WORD)
		return perr_found(p, &t, "a flowop type after 'flowop'");
	f = xcalloc(1, sizeof(*f));
	*out = f;
	f->type = lex_text(&t);
	f->line = t.line;
	f->col = t.col;
	f->builtin = -1;
	f->comp = comp_find(p, f->type);
	if (!f->comp) {
		f->builtin = flowop_type_parse(f->type);
		if (f->builtin < 0) {
			struct suggest s = { 0 };

			for (int i = 0; i < FO__COUNT; i++)
				if (flowop_type_name(i) && i != FO_REPLAY)
					suggest_add(&s, f->type, flowop_type_name(i));
			for (size_t i = 0; i < p->ncomps; i++)
				if (p->comps[i]->ready)
					suggest_add(&s, f->type, p->comps[i]->name);
			return perr(p, t.line, t.col, "unknown flowop type '%s'%s", f->type,
				    suggest_text(&s, hint, sizeof(hint)));
		}
	}
	rc = parse_attr_list(p, f->comp ? comp_attrs : flowop_attrs,
			     f->comp ? "composite flowop" : "flowop",
			     f->comp ? AL_PARAMS | AL_PARAM_VALUE : 0, &f->attrs);
	if (rc)
		return rc;
	if (f->comp) {
		for (size_t i = 0; i < f->attrs.n; i++) {
			const struct attr *a = &f->attrs.a[i];

			if (a->param && !param_find(&f->comp->hdr, a->param))
				return perr(p, a->line, a->col,
					    "flowop '%s' has no parameter '$%s' (see its "
					    "definition at line %d)",
					    f->type, a->param, f->comp->line);
		}
	}
	if (!attr_find(&f->attrs, "name"))
		return perr(p, t.line, t.col, "flowop '%s' has no name (add name=...)", f->type);
	return 0;
}

static int instantiate(struct parser *p, const struct fo_ast *f, const struct env *env,
		       const char *prefix, struct wl_flowop ***list, size_t *n);

static int instantiate_comp(struct parser *p, const struct fo_ast *f, const struct env *env,
			    struct wl_flowop *fo)
{
	const struct comp_def *d = f->comp;
	struct env inner = { 0 };
	int rc = 0;

	if (p->depth >= MAX_COMPOSITE_DEPTH)
		return perr(p, f->line, f->col, "composite flowops nested more than %d deep",
			    MAX_COMPOSITE_DEPTH);
	fo->type = FO_COMPOSITE;
	fo->composite_name = xstrdup(d->name);
	/* iters: the call's, else the definition's. */
	rc = apply_attrs(p, attr_find(&f->attrs, "iters") ? &f->attrs : &d->hdr,
			 attr_find(&f->attrs, "iters") ? env : NULL, fo, "composite flowop");
	if (rc)
		return rc;

	for (size_t i = 0; i < d->hdr.n; i++) {
		const struct attr *decl = &d->hdr.a[i], *arg;
		struct binding *b;

		if (!decl->param)
			continue;
		arg = param_find(&f->attrs, decl->param);
		if (!arg && !decl->has_value) {
			rc = perr(p, f->line, f->col,
				  "flowop '%s' needs a value for '$%s' (add $%s=...)", d->name,
				  decl->param, decl->param);
			goto out;
		}
		inner.b = xrealloc(inner.b, (inner.n + 1) * sizeof(*inner.b));
		b = &inner.b[inner.n++];
		b->name = decl->param;
		/* Arguments are evaluated where the call is written: in the
		 * caller's bindings; defaults among the globals. */
		b->v = arg ? subst(p, &arg->v, env) : subst(p, &decl->v, NULL);
	}

	p->depth++;
	for (size_t i = 0; i < d->nbody && !rc; i++)
		rc = instantiate(p, d->body[i], &inner, fo->name, &fo->children, &fo->nchildren);
	p->depth--;
out:
	free(inner.b);
	return rc;
}

/* iodepth=: on read and write only, a constant (or a variable holding
 * one) from 1 to WL_IODEPTH_MAX. */
static int check_iodepth(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo)
{
	const struct attr *a = attr_find(&f->attrs, "iodepth");
	int line = a ? a->v.line : f->line, col = a ? a->v.col : f->col;
	int64_t n;

	if (!wl_val_isset(&fo->iodepth))
		return 0;
	if (fo->type != FO_READ && fo->type != FO_WRITE && fo->type != FO_RWMIX)
		return perr(p, line, col,
			    "flowop '%s': iodepth is for read, write and rwmix flowops only", fo->name);
	if (wl_val_israndom(&fo->iodepth))
		return perr(p, line, col, "flowop '%s': iodepth cannot be random", fo->name);
	n = wl_val_int(&fo->iodepth, NULL, 0);
	if (n < 1 || n > WL_IODEPTH_MAX)
		return perr(p, line, col,
			    "flowop '%s': iodepth %lld is out of range (1 to %d requests in flight)",
			    fo->name, (long long)n, WL_IODEPTH_MAX);
	/* a bufsize= stream goes through one user-space buffer in order */
	if (n > 1 && wl_val_isset(&fo->bufsize))
		return perr(p, line, col, "flowop '%s': iodepth above 1 and bufsize exclude each other",
			    fo->name);
	return 0;
}

/* iodepth_batch=: a constant (or a variable holding one) from 1 to the
 * flowop's iodepth=, which it needs. */
static int check_iodepth_batch(struct parser *p, const struct fo_ast *f,
			       const struct wl_flowop *fo)
{
	const struct attr *a = attr_find(&f->attrs, "iodepth_batch");
	int line = a ? a->v.line : f->line, col = a ? a->v.col : f->col;
	int64_t n, depth;

	if (!wl_val_isset(&fo->iodepth_batch))
		return 0;
	if (!wl_val_isset(&fo->iodepth))
		return perr(p, line, col, "flowop '%s': iodepth_batch needs iodepth", fo->name);
	if (wl_val_israndom(&fo->iodepth_batch))
		return perr(p, line, col, "flowop '%s': iodepth_batch cannot be random", fo->name);
	n = wl_val_int(&fo->iodepth_batch, NULL, 0);
	depth = wl_val_int(&fo->iodepth, NULL, 1);
	if (n < 1 || n > depth)
		return perr(p, line, col,
			    "flowop '%s': iodepth_batch %lld is out of range (1 to iodepth, %lld)",
			    fo->name, (long long)n, (long long)depth);
	return 0;
}

/* The flowops that move data a request at a time: read, write, rwmix. */
static int moves_blocks(enum flowop_type t)
{
	return t == FO_READ || t == FO_WRITE || t == FO_RWMIX;
}

/* readpct=: on rwmix only, a constant (or a variable holding one) from
 * 0 to 100. */
static int check_readpct(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo)
{
	const struct attr *a = attr_find(&f->attrs, "readpct");
	int line = a ? a->v.line : f->line, col = a ? a->v.col : f->col;
	int64_t n;

	if (!wl_val_isset(&fo->readpct))
		return 0;
	if (fo->type != FO_RWMIX)
		return perr(p, line, col, "flowop '%s': readpct is for rwmix flowops only", fo->name);
	if (wl_val_israndom(&fo->readpct))
		return perr(p, line, col, "flowop '%s': readpct cannot be random", fo->name);
	n = wl_val_int(&fo->readpct, NULL, 0);
	if (n < 0 || n > 100)
		return perr(p, line, col, "flowop '%s': readpct %lld is out of range (0 to 100 percent)",
			    fo->name, (long long)n);
	return 0;
}

/* A count attribute (iobytes=, ...): only on the flowop types `ok`
 * accepts (named in `types` for the message), a constant (or a variable
 * holding one) from 1 up. */
static int check_count(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo,
		       const char *attr, const struct wl_val *v, int (*ok)(enum flowop_type),
		       const char *types)
{
	const struct attr *a = attr_find(&f->attrs, attr);
	int line = a ? a->v.line : f->line, col = a ? a->v.col : f->col;

	if (!wl_val_isset(v))
		return 0;
	if (!ok(fo->type))
		return perr(p, line, col, "flowop '%s': %s is for %s flowops only", fo->name, attr,
			    types);
	if (wl_val_israndom(v))
		return perr(p, line, col, "flowop '%s': %s cannot be random", fo->name, attr);
	if (wl_val_int(v, NULL, 0) < 1)
		return perr(p, line, col, "flowop '%s': %s %lld is out of range (at least 1)",
			    fo->name, attr, (long long)wl_val_int(v, NULL, 0));
	return 0;
}

/* The attributes of the block flowops' fio-like extensions. */
static int check_block_attrs(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo)
{
	int rc = check_count(p, f, fo, "iobytes", &fo->iobytes, moves_blocks,
			     "read, write and rwmix");

	return rc ? rc : check_readpct(p, f, fo);
}

/* The place of attribute `name` in f (or of the flowop when absent). */
static void attr_place(const struct fo_ast *f, const char *name, int *line, int *col)
{
	const struct attr *a = attr_find(&f->attrs, name);

	/* a bare flag has no value token: the attribute's name */
	*line = a ? (a->has_value && a->v.line ? a->v.line : a->line) : f->line;
	*col = a ? (a->has_value && a->v.line ? a->v.col : a->col) : f->col;
}

/* A read/write-only attribute given elsewhere, or random where it cannot be. */
static int check_rw_attr(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo,
			 const char *name, const struct wl_val *v, int needs_random)
{
	int line, col;

	if (!wl_val_isset(v))
		return 0;
	attr_place(f, name, &line, &col);
	if (fo->type != FO_READ && fo->type != FO_WRITE)
		return perr(p, line, col, "flowop '%s': %s is for read and write flowops only",
			    fo->name, name);
	if (wl_val_israndom(v))
		return perr(p, line, col, "flowop '%s': %s cannot be random", fo->name, name);
	if (needs_random && !wl_val_bool(&fo->random, 0))
		return perr(p, line, col, "flowop '%s': %s needs random", fo->name, name);
	return 0;
}

/* random_distribution=, percentage_random=, randommap (util/dist.h). */
static int check_offsets(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo)
{
	struct dist_spec spec = { 0 };
	char err[256];
	int line, col, rc;

	rc = check_rw_attr(p, f, fo, "random_distribution", &fo->random_distribution, 1);
	if (!rc)
		rc = check_rw_attr(p, f, fo, "percentage_random", &fo->percentage_random, 1);
	if (!rc)
		rc = check_rw_attr(p, f, fo, "randommap", &fo->randommap, 1);
	if (rc)
		return rc;
	if (wl_val_isset(&fo->random_distribution)) {
		attr_place(f, "random_distribution", &line, &col);
		if (dist_parse(wl_val_str(&fo->random_distribution, ""), &spec, err, sizeof(err)))
			return perr(p, line, col, "flowop '%s': %s", fo->name, err);
	}
	if (wl_val_isset(&fo->percentage_random)) {
		int64_t n = wl_val_int(&fo->percentage_random, NULL, -1);

		attr_place(f, "percentage_random", &line, &col);
		if (n < 0 || n > 100)
			return perr(p, line, col,
				    "flowop '%s': percentage_random %lld is out of range (0 to 100)",
				    fo->name, (long long)n);
	}
	rc = check_rw_attr(p, f, fo, "offset", &fo->offset, 0);
	if (rc)
		return rc;
	if (wl_val_isset(&fo->offset) && wl_val_isset(&fo->bufsize)) {
		attr_place(f, "offset", &line, &col);
		return perr(p, line, col, "flowop '%s': offset and bufsize exclude each other",
			    fo->name);
	}
	if (wl_val_bool(&fo->randommap, 0) && spec.kind != DIST_UNIFORM) {
		attr_place(f, "randommap", &line, &col);
		return perr(p, line, col,
			    "flowop '%s': randommap takes every block once per pass: it needs the "
			    "uniform random_distribution",
			    fo->name);
	}
	return 0;
}

/* rate_iops=, rate=, rate_process=, rate_min=: an open-loop schedule. */
static int check_rate(struct parser *p, const struct fo_ast *f, const struct wl_flowop *fo)
{
	static const char *const names[] = { "rate_iops", "rate", "rate_process", "rate_min" };
	const struct wl_val *vals[] = { &fo->rate_iops, &fo->rate, &fo->rate_process,
					&fo->rate_min };
	int line, col, rc = 0;
	const char *proc;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !rc; i++)
		rc = check_rw_attr(p, f, fo, names[i], vals[i], 0);
	if (rc)
		return rc;
	if ((wl_val_isset(&fo->rate_iops) || wl_val_isset(&fo->rate)) &&
	    (wl_val_int(&fo->iodepth, NULL, 1) > 1 || wl_val_isset(&fo->bufsize))) {
		const char *what = wl_val_isset(&fo->rate_iops) ? "rate_iops" : "rate";
		int depth = wl_val_int(&fo->iodepth, NULL, 1) > 1;

		attr_place(f, what, &line, &col);
		return perr(p, line, col,
			    "flowop '%s': %s with %s is not supported (a schedule issues one "
			    "request at a time)",
			    fo->name, what, depth ? "iodepth above 1" : "bufsize");
	}
	if (wl_val_isset(&fo->rate_iops)) {
		double v = wl_val_double(&fo->rate_iops, NULL, 0);

		attr_place(f, "rate_iops", &line, &col);
		if (!(v > 0) || v > 1e9)
			return perr(p, line, col,
				    "flowop '%s': rate_iops %g is out of range (above 0, at most 1e9 "
				    "requests per second)",
				    fo->name, v);
		if (wl_val_isset(&fo->rate))
			return perr(p, line, col, "flowop '%s': rate_iops and rate exclude each other",
				    fo->name);
	}
	if (wl_val_isset(&fo->rate) && wl_val_int(&fo->rate, NULL, 0) <= 0) {
		attr_place(f, "rate", &line, &col);
		return perr(p, line, col, "flowop '%s': rate must be above 0 bytes per second",
			    fo->name);
	}
	if (wl_val_isset(&fo->rate_process)) {
		attr_place(f, "rate_process", &line, &col);
		proc = wl_val_str(&fo->rate_process, "");
		if (strcmp(proc, "linear") && strcmp(proc, "poisson"))
			return perr(p, line, col,
				    "flowop '%s': rate_process '%s' is not linear or poisson",
				    fo->name, proc);
		if (!wl_val_isset(&fo->rate) && !wl_val_isset(&fo->rate_iops))
			return perr(p, line, col, "flowop '%s': rate_process needs rate or rate_iops",
				    fo->name);
	}
	if (wl_val_isset(&fo->rate_min)) {
		attr_place(f, "rate_min", &line, &col);
		if (!wl_val_isset(&fo->rate))
			return perr(p, line, col, "flowop '%s': rate_min needs rate", fo->name);
		if (wl_val_int(&fo->rate_min, NULL, 0) > wl_val_int(&fo->rate, NULL, 0))
			return perr(p, line, col, "flowop '%s': rate_min is above rate", fo->name);
	}
	return 0;
}

static int instantiate(struct parser *p, const struct fo_ast *f, const struct env *env,
		       const char *prefix, struct wl_flowop ***list, size_t *n)
{
	struct wl_flowop *fo;
	char *name;
	int rc;

	if (++p->nflowops > MAX_FLOWOPS)
		return perr(p, f->line, f->col,
			    "too many flowops (more than %d once composite flowops are expanded)",
			    MAX_FLOWOPS);
	fo = xcalloc(1, sizeof(*fo));
	fo->line = f->line;
	push_flowop(list, n, fo); /* owned by the tree from here on */
	rc = resolve_name(p, attr_find(&f->attrs, "name"), env, &name);
	if (rc)
		return rc;
	/* Inner flowops of a composite are named "call.inner", as in
	 * filebench, so that their statistics stay apart. */
	if (prefix) {
		fo->name = xasprintf("%s.%s", prefix, name);
		free(name);
	} else {
		fo->name = name;
	}
	if (f->comp)
		return instantiate_comp(p, f, env, fo);

	fo->type = (enum flowop_type)f->builtin;
	rc = apply_attrs(p, &f->attrs, env, fo, "flowop");
	if (rc)
		return rc;
	rc = check_iodepth(p, f, fo);
	if (!rc)
		rc = check_iodepth_batch(p, f, fo);
	if (!rc)
		rc = check_block_attrs(p, f, fo);
	if (!rc)
		rc = check_offsets(p, f, fo);
	if (!rc)
		rc = check_rate(p, f, fo);
	if (rc)
		return rc;
	if (wl_val_bool(&fo->readdir, 0) && wl_val_bool(&fo->random, 0))
		return perr(p, f->line, f->col,
			    "flowop '%s': readdir and random exclude each other (a pass takes "
			    "the directory's order or a shuffled one)",
			    fo->name);
	if (fo->type == FO_PRINT) {
		if (fo->value.kind == WLV_STR) {
			fo->print_text = xstrdup(fo->value.s);
		} else if (fo->value.kind == WLV_VAR) {
			fo->print_text = var_text(fo->value.var);
		} else if (fo->value.kind != WLV_NONE) {
			struct sbuf sb;

			sbuf_init(&sb);
			wl_fmt_val(&sb, &fo->value);
			fo->print_text = sbuf_take(&sb);
		}
	}
	if (fo->type == FO_TESTRANDVAR && fo->rvar.kind == WLV_NONE)
		wl_val_copy(&fo->rvar, &fo->value);
	return 0;
}

/* --- define ------------------------------------------------------------------ */

static int check_fileset_name(struct parser *p, const struct attr *a, const char *name)
{
	char shown[DISPLAY_NAME_BUF];
	const char *s = display_name(name, shown, sizeof(shown));

	/* Fileset names become directory names under the run directory:
	 * one longer than a file name can be never works, and is refused
	 * before anything is created (it once ended in exit 3 and no word) */
	if (strlen(name) > NAME_MAX)
		return perr(p, a->v.line, a->v.col,
			    "name too long: '%s' (%zu bytes; a file or fileset name becomes a file "
			    "name, at most %d bytes)",
			    s, strlen(name), NAME_MAX);
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return perr(p, a->v.line, a->v.col,
			    "fileset name '%s' must not contain '/' or be '.' or '..'", s);
	/* fsgauge's own files in the run directory (its marker) are not the
	 * workload's to create or delete */
	if (!strncmp(name, ".fsgauge", 8))
		return perr(p, a->v.line, a->v.col,
			    "name '%s' is reserved: names starting with '.fsgauge' are fsgauge's own",
			    s);
	for (size_t i = 0; i < p->w->nfilesets; i++)
		if (strcmp(p->w->filesets[i]->name, name) == 0)
			return perr(p, a->v.line, a->v.col,
				    "fileset '%s' is already defined (line %d)", s,
				    p->w->filesets[i]->line);
	return 0;
}

static int define_fileset(struct parser *p, const struct token *kw, int is_file)
{
	struct attr_list al = { 0 };
	struct wl_fileset *fs;
	const struct attr *a;
	char *name = NULL;
	int rc;

	rc = parse_attr_list(p, is_file ? file_attrs : fileset_attrs, is_file ? "file" : "fileset",
			     0, &al);
	if (rc)
		goto out;
	a = attr_find(&al, "name");
	if (!a) {
		rc = perr(p, kw->line, kw->col, "%s has no name (add name=...)",
			  is_file ? "file" : "fileset");
		goto out;
	}
	rc = resolve_name(p, a, NULL, &name);
	if (!rc)
		rc = check_fileset_name(p, a, name);
	if (rc)
		goto out;
	fs = xcalloc(1, sizeof(*fs));
	fs->name = name;
	name = NULL;
	fs->is_file = is_file;
	fs->line = kw->line;
	p->w->filesets =
		xrealloc(p->w->filesets, (p->w->nfilesets + 1) * sizeof(*p->w->filesets));
	p->w->filesets[p->w->nfilesets++] = fs;
	if (is_file) {
		fs->entries.kind = WLV_INT;
		fs->entries.i = 1;
	}
	rc = apply_attrs(p, &al, NULL, fs, is_file ? "file" : "fileset");
out:
	free(name);
	attr_list_free(&al);
	return rc;
}

static int parse_thread(struct parser *p, struct wl_process *pr, const struct token *kw)
{
	struct attr_list al = { 0 };
	struct wl_thread *th;
	struct token lb, t;
	const struct attr *a;
	char *name = NULL;
	int rc;

	rc = parse_attr_list(p, thread_attrs, "thread", 0, &al);
	if (rc)
		goto out;
	a = attr_find(&al, "name");
	if (!a) {
		rc = perr(p, kw->line, kw->col, "thread in process '%s' has no name (add name=...)",
			  pr->name);
		goto out;
	}
	rc = resolve_name(p, a, NULL, &name);
	if (rc)
		goto out;
	for (size_t i = 0; i < pr->nthreads; i++) {
		if (strcmp(pr->threads[i]->name, name) == 0) {
			rc = perr(p, a->v.line, a->v.col,
				  "thread '%s' is already defined in process '%s' (line %d)", name,
				  pr->name, pr->threads[i]->line);
			goto out;
		}
	}
	rc = expect(p, TOK_LBRACE, "'{' after the thread's attributes", &lb);
	if (rc)
		goto out;
	th = xcalloc(1, sizeof(*th));
	th->name = name;
	name = NULL;
	th->line = kw->line;
	pr->threads = xrealloc(pr->threads, (pr->nthreads + 1) * sizeof(*pr->threads));
	pr->threads[pr->nthreads++] = th;
	rc = apply_attrs(p, &al, NULL, th, "thread");
	if (rc)
		goto out;
	a = attr_find(&al, "instances");
	if (a && !wl_val_israndom(&th->instances) && wl_val_int(&th->instances, NULL, 1) < 0) {
		rc = perr(p, a->v.line, a->v.col, "thread '%s': instances must not be negative (%lld)",
			  th->name, (long long)wl_val_int(&th->instances, NULL, 1));
		goto out;
	}

	for (;;) {
		char what[160];

		t = next(p, LEX_WORD);
		if (tok_is(&t, "flowop")) {
			struct fo_ast *f;

			rc = parse_fo_ast(p, &f);
			if (!rc)
				rc = instantiate(p, f, NULL, NULL, &th->flowops, &th->nflowops);
			fo_ast_free(f);
			if (rc)
				goto out;
		} else if (t.kind == TOK_RBRACE) {
			break;
		} else if (t.kind == TOK_EOF) {
			rc = perr(p, lb.line, lb.col,
				  "unbalanced '{': thread '%s' is not closed with '}'", th->name);
			goto out;
		} else {
			snprintf(what, sizeof(what), "'flowop' or '}' in thread '%s'", th->name);
			rc = perr_found(p, &t, what);
			goto out;
		}
	}
	if (th->nflowops == 0)
		rc = perr(p, kw->line, kw->col, "thread '%s' has no flowops", th->name);
out:
	free(name);
	attr_list_free(&al);
	return rc;
}

static int define_process(struct parser *p, const struct token *kw)
{
	struct attr_list al = { 0 };
	struct wl_process *pr;
	struct token lb, t;
	const struct attr *a;
	char *name = NULL;
	int rc;

	rc = parse_attr_list(p, process_attrs, "process", 0, &al);
	if (rc)
		goto out;
	a = attr_find(&al, "name");
	if (!a) {
		rc = perr(p, kw->line, kw->col, "process has no name (add name=...)");
		goto out;
	}
	rc = resolve_name(p, a, NULL, &name);
	if (rc)
		goto out;
	for (size_t i = 0; i < p->w->nprocesses; i++) {
		if (strcmp(p->w->processes[i]->name, name) == 0) {
			rc = perr(p, a->v.line, a->v.col, "process '%s' is already defined (line %d)",
				  name, p->w->processes[i]->line);
			goto out;
		}
	}
	rc = expect(p, TOK_LBRACE, "'{' after the process's attributes", &lb);
	if (rc)
		goto out;
	pr = xcalloc(1, sizeof(*pr));
	pr->name = name;
	name = NULL;
	pr->line = kw->line;
	p->w->processes =
		xrealloc(p->w->processes, (p->w->nprocesses + 1) * sizeof(*p->w->processes));
	p->w->processes[p->w->nprocesses++] = pr;
	rc = apply_attrs(p, &al, NULL, pr, "process");
	if (rc)
		goto out;
	a = attr_find(&al, "instances");
	if (a && !wl_val_israndom(&pr->instances) && wl_val_int(&pr->instances, NULL, 1) < 0) {
		rc = perr(p, a->v.line, a->v.col, "process '%s': instances must not be negative (%lld)",
			  pr->name, (long long)wl_val_int(&pr->instances, NULL, 1));
		goto out;
	}

	for (;;) {
		char what[160];

		t = next(p, LEX_WORD);
		if (tok_is(&t, "thread")) {
			rc = parse_thread(p, pr, &t);
			if (rc)
				goto out;
		} else if (t.kind == TOK_RBRACE) {
			break;
		} else if (t.kind == TOK_EOF) {
			rc = perr(p, lb.line, lb.col,
				  "unbalanced '{': process '%s' is not closed with '}'", pr->name);
			goto out;
		} else {
			snprintf(what, sizeof(what), "'thread' or '}' in process '%s'", pr->name);
			rc = perr_found(p, &t, what);
			goto out;
		}
	}
	if (pr->nthreads == 0)
		rc = perr(p, kw->line, kw->col, "process '%s' has no threads", pr->name);
out:
	free(name);
	attr_list_free(&al);
	return rc;
}

/* define flowop name=NAME[,iters=N][,$param[=default]]... { flowop ... } */
static int define_composite(struct parser *p, const struct token *kw)
{
	struct comp_def *d = xcalloc(1, sizeof(*d));
	struct token lb, t;
	const struct attr *a;
	int rc;

	/* On the parser's list at once, so that errors free it. */
	p->comps = xrealloc(p->comps, (p->ncomps + 1) * sizeof(*p->comps));
	p->comps[p->ncomps++] = d;
	d->line = kw->line;
	rc = parse_attr_list(p, comp_attrs, "define flowop", AL_PARAMS, &d->hdr);
	if (rc)
		return rc;
	a = attr_find(&d->hdr, "name");
	if (!a)
		return perr(p, kw->line, kw->col, "composite flowop has no name (add name=...)");
	rc = resolve_name(p, a, NULL, &d->name);
	if (rc)
		return rc;
	if (flowop_type_parse(d->name) >= 0)
		return perr(p, a->v.line, a->v.col,
			    "flowop type '%s' is built in; a composite flowop needs another name",
			    d->name);
	for (size_t i = 0; i + 1 < p->ncomps; i++)
		if (strcmp(p->comps[i]->name, d->name) == 0)
			return perr(p, a->v.line, a->v.col, "flowop '%s' is already defined (line %d)",
				    d->name, p->comps[i]->line);
	rc = expect(p, TOK_LBRACE, "'{' after the composite flowop's attributes", &lb);
	if (rc)
		return rc;
	for (;;) {
		char what[160];

		t = next(p, LEX_WORD);
		if (tok_is(&t, "flowop")) {
			struct fo_ast *f;

			rc = parse_fo_ast(p, &f);
			d->body = xrealloc(d->body, (d->nbody + 1) * sizeof(*d->body));
			d->body[d->nbody++] = f;
			if (rc)
				return rc;
		} else if (t.kind == TOK_RBRACE) {
			break;
		} else if (t.kind == TOK_EOF) {
			return perr(p, lb.line, lb.col,
				    "unbalanced '{': flowop '%s' is not closed with '}'", d->name);
		} else {
			snprintf(what, sizeof(what), "'flowop' or '}' in flowop '%s'", d->name);
			return perr_found(p, &t, what);
		}
	}
	if (d->nbody == 0)
		return perr(p, kw->line, kw->col, "composite flowop '%s' has no flowops", d->name);
	d->ready = 1;
	return 0;
}

static int define_randvar(struct parser *p, const struct token *kw)
{
	struct attr_list al = { 0 };
	const struct attr *a;
	struct randvar *rv;
	struct wl_var *var;
	int rc;

	rc = parse_attr_list(p, randvar_attrs, "randvar", 0, &al);
	if (rc)
		goto out;
	a = attr_find(&al, "name");
	if (!a) {
		rc = perr(p, kw->line, kw->col, "randvar has no name (add name=$variable)");
		goto out;
	}
	if (a->v.kind != AV_VAR && a->v.kind != AV_WORD) {
		rc = perr(p, a->v.line, a->v.col, "randvar name must be a variable ($name)");
		goto out;
	}
	rc = build_randvar(p, &al, 0, a->v.text, kw->line, kw->col, &rv);
	if (rc)
		goto out;
	var = wl_var_get(p->w, a->v.text);
	touch(p, var);
	if (!var->overridden) {
		struct wl_var tmp = { .kind = VAR_RAND, .rv = rv };

		var_assign(var, &tmp);
		if (!var->line)
			var->line = kw->line;
	}
out:
	attr_list_free(&al);
	return rc;
}

static int parse_define(struct parser *p)
{
	struct token t = next(p, LEX_WORD);

	if (tok_is(&t, "fileset") || tok_is(&t, "filesets"))
		return define_fileset(p, &t, 0);
	if (tok_is(&t, "file") || tok_is(&t, "files"))
		return define_fileset(p, &t, 1);
	if (tok_is(&t, "process") || tok_is(&t, "processes") || tok_is(&t, "proc"))
		return define_process(p, &t);
	if (tok_is(&t, "flowop"))
		return define_composite(p, &t);
	if (tok_is(&t, "randvar"))
		return define_randvar(p, &t);
	if (tok_is(&t, "posset"))
		return perr(p, t.line, t.col, "'define posset' is not supported");
	return perr_found(p, &t, "'fileset', 'file', 'process', 'flowop' or 'randvar' after 'define'");
}

/* --- set and arithmetic ----------------------------------------------------- */

struct num {
	int is_int;
	int64_t i;
	double d;
};

static double num_dbl(const struct num *n)
{
	return n->is_int ? (double)n->i : n->d;
}

static int parse_sum(struct parser *p, struct num *out);

static int parse_primary(struct parser *p, struct num *out)
{
	struct token t = next(p, LEX_EXPR);
	int rc;

	switch (t.kind) {
	case TOK_WORD: {
		char *s = lex_text(&t);

		if (!isdigit((unsigned char)*s) && *s != '.') {
			free(s);
			return perr_found(p, &t, "a number, a variable or '('");
		}
		rc = wl_num_parse(s, &out->i, &out->d);
		if (rc == NUM_INT || rc == NUM_DBL) {
			out->is_int = rc == NUM_INT;
			free(s);
			return 0;
		}
		if (rc == -ERANGE)
			rc = perr(p, t.line, t.col, "'%s' is too large", s);
		else
			rc = perr(p, t.line, t.col,
				  "'%s' is not a number (" NUM_HINT ", or quote text)", s);
		free(s);
		return rc;
	}
	case TOK_VAR: {
		char *name = lex_var_name(&t);
		struct wl_var *v = var_need(p, name, t.line, t.col);

		rc = 0;
		if (!v)
			rc = -EINVAL;
		else if (v->kind == VAR_INT)
			*out = (struct num){ .is_int = 1, .i = v->i };
		else if (v->kind == VAR_DBL)
			*out = (struct num){ .is_int = 0, .d = v->d };
		else if (v->kind == VAR_RAND)
			rc = perr(p, t.line, t.col,
				  "random variable '$%s' cannot be used in arithmetic", name);
		else
			rc = perr(p, t.line, t.col, "variable '$%s' is not a number", name);
		free(name);
		return rc;
	}
	case TOK_LPAREN:
		if (++p->expr_depth > MAX_EXPR_DEPTH)
			return perr(p, t.line, t.col, "expression nested too deeply");
		rc = parse_sum(p, out);
		p->expr_depth--;
		if (rc)
			return rc;
		t = next(p, LEX_EXPR);
		if (t.kind != TOK_RPAREN)
			return perr_found(p, &t, "')'");
		return 0;
	default:
		return perr_found(p, &t, "a number, a variable or '('");
	}
}

static int parse_unary(struct parser *p, struct num *out)
{
	struct token t = peek(p, LEX_EXPR);
	int rc;

	if (t.kind != TOK_MINUS)
		return parse_primary(p, out);
	next(p, LEX_EXPR);
	if (++p->expr_depth > MAX_EXPR_DEPTH)
		return perr(p, t.line, t.col, "expression nested too deeply");
	rc = parse_unary(p, out);
	p->expr_depth--;
	if (rc)
		return rc;
	if (out->is_int) {
		if (out->i == INT64_MIN)
			return perr(p, t.line, t.col, "integer overflow");
		out->i = -out->i;
	} else {
		out->d = -out->d;
	}
	return 0;
}

/* a op b; integers stay integers (division truncates), as in the shell. */
static int arith(struct parser *p, const struct token *op, struct num *a, const struct num *b)
{
	int overflow = 0;

	if (op->kind == TOK_SLASH && (b->is_int ? b->i == 0 : b->d == 0))
		return perr(p, op->line, op->col, "division by zero");
	if (a->is_int && b->is_int) {
		switch (op->kind) {
		case TOK_PLUS:
			overflow = __builtin_add_overflow(a->i, b->i, &a->i);
			break;
		case TOK_MINUS:
			overflow = __builtin_sub_overflow(a->i, b->i, &a->i);
			break;
		case TOK_STAR:
			overflow = __builtin_mul_overflow(a->i, b->i, &a->i);
			break;
		default:
			if (a->i == INT64_MIN && b->i == -1)
				overflow = 1;
			else
				a->i /= b->i;
			break;
		}
		if (overflow)
			return perr(p, op->line, op->col, "integer overflow");
		return 0;
	}
	double x = num_dbl(a), y = num_dbl(b);

	switch (op->kind) {
	case TOK_PLUS:
		x += y;
		break;
	case TOK_MINUS:
		x -= y;
		break;
	case TOK_STAR:
		x *= y;
		break;
	default:
		x /= y;
		break;
	}
	if (!isfinite(x))
		return perr(p, op->line, op->col, "arithmetic overflow");
	a->is_int = 0;
	a->d = x;
	return 0;
}

static int parse_product(struct parser *p, struct num *out)
{
	int rc = parse_unary(p, out);

	while (!rc) {
		struct token op = peek(p, LEX_EXPR);
		struct num b;

		if (op.kind != TOK_STAR && op.kind != TOK_SLASH)
			break;
		next(p, LEX_EXPR);
		rc = parse_unary(p, &b);
		if (!rc)
			rc = arith(p, &op, out, &b);
	}
	return rc;
}

static int parse_sum(struct parser *p, struct num *out)
{
	int rc = parse_product(p, out);

	while (!rc) {
		struct token op = peek(p, LEX_EXPR);
		struct num b;

		if (op.kind != TOK_PLUS && op.kind != TOK_MINUS)
			break;
		next(p, LEX_EXPR);
		rc = parse_product(p, &b);
		if (!rc)
			rc = arith(p, &op, out, &b);
	}
	return rc;
}

static int is_op(enum tok_kind k)
{
	return k == TOK_PLUS || k == TOK_MINUS || k == TOK_STAR || k == TOK_SLASH;
}

/*
 * The right-hand side of `set $name = ...` (or of a -s value), into the
 * scratch variable out:
 *   "text"                 a string
 *   true, false            a boolean
 *   randvar(...), cvar(...) a random variable
 *   $other                 a copy of another variable (random ones shared)
 *   numbers, $vars, + - * / ( )   arithmetic
 *   anything else          a bare word, kept as a string (paths, names)
 */
static int parse_set_value(struct parser *p, const char *name, struct wl_var *out)
{
	struct token t = peek(p, LEX_EXPR), t2;
	char what[96];
	int rc;

	memset(out, 0, sizeof(*out));
	switch (t.kind) {
	case TOK_STRING:
		next(p, LEX_EXPR);
		out->kind = VAR_STR;
		out->s = lex_string_value(&t, NULL, NULL);
		return 0;
	case TOK_VAR:
		if (is_op(peek2(p, LEX_EXPR).kind))
			break;
		next(p, LEX_EXPR);
		{
			char *vn = lex_var_name(&t);
			struct wl_var *v = var_need(p, vn, t.line, t.col);

			free(vn);
			if (!v)
				return -EINVAL;
			out->kind = v->kind;
			out->i = v->i;
			out->d = v->d;
			out->s = v->s ? xstrdup(v->s) : NULL;
			out->rv = v->rv;
		}
		return 0;
	case TOK_LPAREN:
	case TOK_MINUS:
		break;
	case TOK_WORD:
		if (isdigit((unsigned char)*t.start) || *t.start == '.')
			break;
		if (tok_is(&t, "true") || tok_is(&t, "false")) {
			next(p, LEX_EXPR);
			out->kind = VAR_BOOL;
			out->i = tok_is(&t, "true");
			return 0;
		}
		t2 = peek2(p, LEX_EXPR);
		if ((tok_is(&t, "randvar") || tok_is(&t, "cvar")) && t2.kind == TOK_LPAREN) {
			next(p, LEX_EXPR);
			out->kind = VAR_RAND;
			return parse_rv_call(p, tok_is(&t, "cvar"), name, &t, &out->rv);
		}
		/* anything else is a bare word */
		__attribute__((fallthrough));
	default:
		t = next(p, LEX_WORD);
		if (t.kind == TOK_WORD) {
			out->kind = VAR_STR;
			out->s = lex_text(&t);
			return 0;
		}
		snprintf(what, sizeof(what), "a value after '$%s='", name);
		return perr_found(p, &t, what);
	}

	struct num n;

	rc = parse_sum(p, &n);
	if (rc)
		return rc;
	out->kind = n.is_int ? VAR_INT : VAR_DBL;
	out->i = n.i;
	out->d = n.d;
	return 0;
}

static int parse_set(struct parser *p, const struct token *kw)
{
	struct token t = next(p, LEX_WORD);
	struct wl_var tmp, *var;
	char *name;
	int rc;

	if (tok_is(&t, "mode")) {
		t = next(p, LEX_WORD);
		if (tok_is(&t, "nousestats"))
			return 0;
		if (!tok_is(&t, "quit"))
			return perr_found(p, &t, "'quit' after 'set mode'");
		t = next(p, LEX_WORD);
		if (tok_is(&t, "timeout"))
			p->w->quit_mode = QUIT_TIMEOUT;
		else if (tok_is(&t, "alldone"))
			p->w->quit_mode = QUIT_ALLDONE;
		else if (tok_is(&t, "firstdone"))
			p->w->quit_mode = QUIT_FIRSTDONE;
		else
			return perr_found(p, &t,
					  "'timeout', 'alldone' or 'firstdone' after 'set mode quit'");
		return 0;
	}
	if (t.kind != TOK_VAR)
		return perr_found(p, &t, "a variable ($name) or 'mode' after 'set'");
	name = lex_var_name(&t);
	rc = expect(p, TOK_EQ, "'=' after the variable", &t);
	if (!rc)
		rc = parse_set_value(p, name, &tmp);
	if (rc) {
		free(name);
		return rc;
	}
	var = wl_var_get(p->w, name);
	touch(p, var);
	free(name);
	/* A -s override wins over every `set` in the file. */
	if (var->overridden) {
		free(tmp.s);
		return 0;
	}
	var_assign(var, &tmp);
	if (!var->line)
		var->line = kw->line;
	return 0;
}

/* --- other commands ---------------------------------------------------------- */

static int interp_lookup(void *ctx, const char *name, struct sbuf *out)
{
	struct parser *p = ctx;
	struct wl_var *v = workload_var(p->w, name);
	char *s;

	if (!v || v->kind == VAR_UNSET)
		return -1;
	v->used = 1;
	touch(p, v);
	if (v->kind == VAR_RAND) {
		randvar_format(out, v->rv);
		return 0;
	}
	s = var_text(v);
	sbuf_add(out, s ? s : "");
	free(s);
	return 0;
}

/* echo "text" / usage "text": $variables are replaced as they are now. */
static int parse_text_cmd(struct parser *p, const struct token *kw, char ***list, size_t *n)
{
	struct token t = next(p, LEX_WORD);
	char what[64];

	if (t.kind != TOK_STRING) {
		snprintf(what, sizeof(what), "a quoted string after '%.*s'", (int)kw->len, kw->start);
		return perr_found(p, &t, what);
	}
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = lex_string_value(&t, interp_lookup, p);
	return 0;
}

/* An optional number (or $variable) on the same line; 1 if there was one. */
static int opt_number(struct parser *p, const char *what, double *out, int allow_neg)
{
	struct token t = peek(p, LEX_WORD);
	struct avalue v = { 0 };
	int rc;

	if (t.line != p->last_line || (t.kind != TOK_WORD && t.kind != TOK_VAR))
		return 0;
	if (t.kind == TOK_WORD && !isdigit((unsigned char)*t.start) && *t.start != '-')
		return 0; /* the next command, on the same line */
	next(p, LEX_WORD);
	v.line = t.line;
	v.col = t.col;
	v.kind = t.kind == TOK_WORD ? AV_WORD : AV_VAR;
	v.text = t.kind == TOK_WORD ? lex_text(&t) : lex_var_name(&t);
	rc = avalue_number(p, &v, what, out);
	if (!rc && !allow_neg && *out < 0)
		rc = perr(p, v.line, v.col, "%s must not be negative", what);
	avalue_free(&v);
	return rc ? rc : 1;
}

static int parse_run(struct parser *p, const struct token *kw, int ps)
{
	double a = 0, b = 0;
	int rc, n = 0;

	struct token at = peek(p, LEX_WORD); /* where the duration is, for a message */

	if (p->w->has_run)
		return perr(p, kw->line, kw->col, "only one 'run' or 'psrun' is allowed");
	rc = opt_number(p, ps ? "psrun period" : "run duration", &a, ps);
	if (rc < 0)
		return rc;
	n += rc;
	if (ps && rc) {
		at = peek(p, LEX_WORD);
		rc = opt_number(p, "psrun duration", &b, 0);
		if (rc < 0)
			return rc;
		n += rc;
	}
	p->w->has_run = 1;
	/* psrun [period [duration]]: the period of its periodic reports is
	 * ignored; the duration is what matters. */
	if (ps)
		a = n == 2 ? b : 0;
	/* checked here, before anything converts it to nanoseconds */
	if (a > DURATION_MAX_SECONDS)
		return perr(p, at.line, at.col,
			    "invalid %s %.15g (expected seconds, from 0 to " DURATION_MAX_TEXT ")",
			    ps ? "psrun duration" : "run duration", a);
	if (a == 0)
		p->run_zero = 1;
	p->w->run_seconds = a > 0 ? a : DEFAULT_RUN_SECONDS;
	return 0;
}

static int parse_statement(struct parser *p)
{
	struct token t = next(p, LEX_WORD);
	struct workload *w = p->w;
	double d;
	int rc;

	switch (t.kind) {
	case TOK_EOF:
		return 1;
	case TOK_WORD:
		break;
	case TOK_RBRACE:
		return perr(p, t.line, t.col, "unbalanced '}'");
	default:
		return perr_found(p, &t, "a command");
	}

	if (tok_is(&t, "set"))
		return parse_set(p, &t);
	if (tok_is(&t, "define"))
		return parse_define(p);
	if (tok_is(&t, "echo"))
		return parse_text_cmd(p, &t, &w->echoes, &w->nechoes);
	if (tok_is(&t, "usage"))
		return parse_text_cmd(p, &t, &w->usages, &w->nusages);
	if (tok_is(&t, "run"))
		return parse_run(p, &t, 0);
	if (tok_is(&t, "psrun"))
		return parse_run(p, &t, 1);
	if (tok_is(&t, "eventgen")) {
		struct attr_list al = { 0 };

		rc = parse_attr_list(p, eventgen_attrs, "eventgen", AL_SAMELINE, &al);
		if (!rc)
			rc = apply_attrs(p, &al, NULL, w, "eventgen");
		attr_list_free(&al);
		return rc;
	}
	if (tok_is(&t, "debug")) {
		rc = opt_number(p, "debug level", &d, 0);
		if (rc == 0)
			return perr(p, t.line, t.col, "expected a number after 'debug'");
		if (rc < 0)
			return rc;
		w->debug_level = d > 10 ? 10 : (int)d;
		return 0;
	}
	if (tok_is(&t, "create") || tok_is(&t, "shutdown")) {
		/* The runner creates and removes everything itself. */
		struct token e = next(p, LEX_WORD);
		static const char *const ents[] = { "file",	 "files",     "fileset", "filesets",
						    "process",	 "processes", "proc",	 "procs",
						    "thread",	 "threads" };
		char what[96];

		for (size_t i = 0; i < ARRAY_SIZE(ents); i++)
			if (tok_is(&e, ents[i]))
				return 0;
		snprintf(what, sizeof(what), "'files', 'filesets' or 'processes' after '%.*s'",
			 (int)t.len, t.start);
		return perr_found(p, &e, what);
	}
	if (tok_is(&t, "sleep")) {
		rc = opt_number(p, "sleep time", &d, 0);
		return rc < 0 ? rc : 0;
	}
	if (tok_is(&t, "quit") || tok_is(&t, "exit")) {
		p->quit = 1;
		return 0;
	}
	if (tok_is(&t, "version"))
		return 0;
	if (tok_is(&t, "enable")) {
		struct token e = next(p, LEX_WORD);

		if (tok_is(&e, "lathist"))
			return 0; /* latency histograms are always on */
		if (tok_is(&e, "multi"))
			return perr(p, e.line, e.col,
				    "'enable multi' (multi-client synchronisation) is not supported");
		return perr_found(p, &e, "'lathist' after 'enable'");
	}
	if (tok_is(&t, "system"))
		return perr(p, t.line, t.col,
			    "'system' is not supported: fsgauge never runs shell commands "
			    "from a workload");
	if (tok_is(&t, "flowop"))
		return perr(p, t.line, t.col,
			    "'flowop' is only allowed inside a thread or a 'define flowop' block");
	if (tok_is(&t, "thread"))
		return perr(p, t.line, t.col, "'thread' is only allowed inside 'define process'");
	{
		static const char *const unsupported[] = { "load", "foreach", "domultisync", "stats",
							   "list", "log", "warmup", "fscheck",
							   "fsflush", "help", "vars" };
		static const char *const commands[] = { "set",	    "define",  "echo",   "usage",
							"run",	    "psrun",   "eventgen", "debug",
							"create",   "shutdown", "sleep",  "quit",
							"exit",	    "version", "enable" };
		struct suggest s = { 0 };
		char *word = lex_text(&t), hint[64];

		for (size_t i = 0; i < ARRAY_SIZE(unsupported); i++) {
			if (strcmp(word, unsupported[i]) == 0) {
				rc = perr(p, t.line, t.col, "'%s' is not supported", word);
				free(word);
				return rc;
			}
		}
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			suggest_add(&s, word, commands[i]);
		rc = perr(p, t.line, t.col, "unknown command '%s'%s", word,
			  suggest_text(&s, hint, sizeof(hint)));
		free(word);
		return rc;
	}
}

/* --- entry points ------------------------------------------------------------- */

static void parser_init(struct parser *p, struct workload *w, const char *text, const char *file,
			struct wl_error *err)
{
	memset(p, 0, sizeof(*p));
	lex_init(&p->lx, text ? text : "");
	p->w = w;
	p->err = err;
	p->file = file;
}

static void parser_free(struct parser *p)
{
	for (size_t i = 0; i < p->ncomps; i++)
		comp_def_free(p->comps[i]);
	free(p->comps);
	free(p->touched);
	free(p->refs);
	for (size_t i = 0; i < p->nuses; i++)
		free(p->uses[i].owner);
	free(p->uses);
}

/*
 * A value given as text (-s name=value, workload_set_var) into out, with
 * the file name used in messages.  Anything left over is an error, except
 * that a bare word swallows the rest: `-s dir=/mnt/my disk` needs no quotes.
 */
static int parse_value_text(struct workload *w, const char *name, const char *text,
			    const char *file, struct wl_error *err, struct wl_var *out)
{
	struct parser p;
	struct token t;
	int rc;

	parser_init(&p, w, text, file, err);
	rc = parse_set_value(&p, name, out);
	if (!rc) {
		t = peek(&p, LEX_WORD);
		if (t.kind != TOK_EOF) {
			if (out->kind == VAR_STR && text[0] != '"') {
				free(out->s);
				out->s = xstrdup(text);
			} else {
				rc = perr_found(&p, &t, "the end of the value");
			}
		}
	}
	if (rc) {
		free(out->s);
		memset(out, 0, sizeof(*out));
	}
	parser_free(&p);
	return rc;
}

static int valid_var_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int apply_override(struct workload *w, const struct wl_override *ov, struct wl_error *err)
{
	const char *name = ov->name ? ov->name : "";
	const char *value = ov->value ? ov->value : "";
	struct wl_var tmp, *var;
	int rc;

	if (*name == '$')
		name++;
	if (!valid_var_name(name)) {
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "command line");
		snprintf(err->msg, sizeof(err->msg),
			 "-s %s=%s: '%s' is not a variable name (letters, digits and _)", name,
			 value, name);
		return -EINVAL;
	}
	rc = parse_value_text(w, name, value, "command line", err, &tmp);
	if (rc) {
		char *msg = xasprintf("bad value for '$%s' in -s %s=%s: %s", name, name, value,
				      err->msg);

		snprintf(err->msg, sizeof(err->msg), "%s", msg);
		free(msg);
		/* Positions inside a command-line word mean little. */
		err->line = 0;
		err->col = 0;
		return rc;
	}
	var = wl_var_get(w, name);
	var_assign(var, &tmp);
	var->overridden = 1;
	var->implicit = ov->implicit;
	var->line = 0;
	return 0;
}

/* Is `name` the name of a flowop in v[0..n) or below (composites)? */
static int names_flowop(struct wl_flowop *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i]->name, name) || names_flowop(v[i]->children, v[i]->nchildren, name))
			return 1;
	return 0;
}

static int workload_has_flowop(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nprocesses; i++)
		for (size_t j = 0; j < w->processes[i]->nthreads; j++)
			if (names_flowop(w->processes[i]->threads[j]->flowops,
					 w->processes[i]->threads[j]->nflowops, name))
				return 1;
	return 0;
}

/* A target= must name a flowop: otherwise a sempost or wakeup would post
 * to nobody, a finishoncount would never end the run and a limit would
 * count the wrong operations, all silently. */
static int check_targets(struct parser *p, struct wl_flowop *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_flowop *fo = v[i];

		switch (fo->type) {
		case FO_SEMPOST:
		case FO_WAKEUP:
		case FO_FINISHONCOUNT:
		case FO_FINISHONBYTES:
		case FO_IOPSLIMIT:
		case FO_OPSLIMIT:
		case FO_BWLIMIT:
			if (wl_val_isset(&fo->target) &&
			    !workload_has_flowop(p->w, wl_val_str(&fo->target, "")))
				return perr(p, fo->line, 1,
					    "flowop '%s': target '%s' is not the name of any flowop",
					    fo->name, wl_val_str(&fo->target, ""));
			break;
		default:
			break;
		}
		if (check_targets(p, fo->children, fo->nchildren))
			return -1;
	}
	return 0;
}

static int finish(struct parser *p)
{
	struct workload *w = p->w;

	for (size_t i = 0; i < p->nrefs; i++) {
		struct pending_ref *r = &p->refs[i];
		struct wl_fileset *fs = NULL;

		for (size_t j = 0; j < w->nfilesets && !fs; j++)
			if (strcmp(w->filesets[j]->name, r->fo->fileset_name) == 0)
				fs = w->filesets[j];
		if (!fs) {
			char shown[DISPLAY_NAME_BUF];

			return perr(p, r->line, r->col, "fileset '%s' is not defined",
				    display_name(r->fo->fileset_name, shown, sizeof(shown)));
		}
		r->fo->fileset = fs;
	}
	for (size_t i = 0; i < w->nprocesses; i++)
		for (size_t j = 0; j < w->processes[i]->nthreads; j++)
			if (check_targets(p, w->processes[i]->threads[j]->flowops,
					  w->processes[i]->threads[j]->nflowops))
				return -1;
	if (check_uses(p))
		return -1;
	if (p->run_zero)
		w->run_seconds = w->quit_mode == QUIT_TIMEOUT ? DEFAULT_RUN_SECONDS : 0;
	for (size_t i = 0; i < w->nvars; i++) {
		struct wl_var *v = w->vars[i];
		int touched = i < p->ntouched && p->touched[i];

		if (v->overridden && !touched && !v->implicit)
			warn(p, "variable '$%s' given with -s is not used by workload '%s'", v->name,
			     w->name);
		else if (v->used && v->kind == VAR_UNSET)
			warn(p, "variable '$%s' is used but never set", v->name);
	}
	return 0;
}

static char *base_name(const char *source)
{
	const char *b = strrchr(source, '/');
	size_t n;

	b = b ? b + 1 : source;
	n = strlen(b);
	if (n > 2 && strcmp(b + n - 2, ".f") == 0)
		n -= 2;
	return xstrndup(b, n);
}

int workload_parse(const char *text, const char *source, const struct wl_override *ov,
		   size_t nov, struct workload **out, struct wl_error *err)
{
	struct workload *w = xcalloc(1, sizeof(*w));
	struct parser p;
	int rc = 0;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (!source || !*source)
		source = "<workload>";
	w->source = xstrdup(source);
	w->name = base_name(source);
	w->run_seconds = DEFAULT_RUN_SECONDS;

	for (size_t i = 0; i < nov && !rc; i++)
		rc = apply_override(w, &ov[i], err);
	if (rc) {
		workload_free(w);
		return rc;
	}

	parser_init(&p, w, text, source, err);
	while (!rc && !p.quit) {
		rc = parse_statement(&p);
		if (rc == 1) {
			rc = 0;
			break;
		}
	}
	if (!rc)
		rc = finish(&p);
	parser_free(&p);
	if (rc) {
		workload_free(w);
		return -EINVAL;
	}
	*out = w;
	return 0;
}

int workload_set_var(struct workload *w, const char *name, const char *text)
{
	struct wl_error err;
	struct wl_var tmp;

	if (!name || !valid_var_name(name))
		return -EINVAL;
	if (parse_value_text(w, name, text ? text : "", "set", &err, &tmp))
		return -EINVAL;
	var_assign(wl_var_get(w, name), &tmp);
	return 0;
}

/* --- freeing ------------------------------------------------------------------ */

static void flowop_free(struct wl_flowop *fo)
{
	free(fo->name);
	free(fo->fileset_name);
	free(fo->print_text);
	free(fo->composite_name);
	wl_val_clear(&fo->iosize);
	wl_val_clear(&fo->iters);
	wl_val_clear(&fo->fd);
	wl_val_clear(&fo->srcfd);
	wl_val_clear(&fo->random);
	wl_val_clear(&fo->dsync);
	wl_val_clear(&fo->directio);
	wl_val_clear(&fo->wss);
	wl_val_clear(&fo->value);
	wl_val_clear(&fo->target);
	wl_val_clear(&fo->blocking);
	wl_val_clear(&fo->highwater);
	wl_val_clear(&fo->rotatefd);
	wl_val_clear(&fo->indexed);
	wl_val_clear(&fo->opennext);
	wl_val_clear(&fo->dir);
	wl_val_clear(&fo->ordered);
	wl_val_clear(&fo->rvar);
	wl_val_clear(&fo->osync);
	wl_val_clear(&fo->reverse);
	wl_val_clear(&fo->stride);
	wl_val_clear(&fo->bufsize);
	wl_val_clear(&fo->stonewall);
	wl_val_clear(&fo->resume);
	wl_val_clear(&fo->dirsync);
	wl_val_clear(&fo->readdir);
	wl_val_clear(&fo->random_distribution);
	wl_val_clear(&fo->percentage_random);
	wl_val_clear(&fo->randommap);
	wl_val_clear(&fo->offset);
	wl_val_clear(&fo->rate_iops);
	wl_val_clear(&fo->rate);
	wl_val_clear(&fo->rate_process);
	wl_val_clear(&fo->rate_min);
	wl_val_clear(&fo->iodepth);
	wl_val_clear(&fo->iodepth_batch);
	wl_val_clear(&fo->iobytes);
	wl_val_clear(&fo->readpct);
	for (size_t i = 0; i < fo->nchildren; i++)
		flowop_free(fo->children[i]);
	free(fo->children);
	free(fo);
}

static void fileset_free(struct wl_fileset *fs)
{
	free(fs->name);
	free(fs->device_path);
	for (size_t i = 0; i < fs->nnames; i++)
		free(fs->names[i]);
	free(fs->names);
	wl_val_clear(&fs->path);
	wl_val_clear(&fs->size);
	wl_val_clear(&fs->entries);
	wl_val_clear(&fs->dirwidth);
	wl_val_clear(&fs->dirgamma);
	wl_val_clear(&fs->dirdepthrv);
	wl_val_clear(&fs->leafdirs);
	wl_val_clear(&fs->prealloc);
	wl_val_clear(&fs->reuse);
	wl_val_clear(&fs->paralloc);
	wl_val_clear(&fs->readonly);
	wl_val_clear(&fs->trusttree);
	wl_val_clear(&fs->cached);
	wl_val_clear(&fs->sizegamma);
	wl_val_clear(&fs->chunksize);
	free(fs);
}

static void strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void wl_process_free(struct wl_process *pr)
{
	if (!pr)
		return;
	for (size_t j = 0; j < pr->nthreads; j++) {
		struct wl_thread *th = pr->threads[j];

		for (size_t k = 0; k < th->nflowops; k++)
			flowop_free(th->flowops[k]);
		free(th->flowops);
		free(th->name);
		wl_val_clear(&th->instances);
		wl_val_clear(&th->memsize);
		wl_val_clear(&th->useism);
		free(th);
	}
	free(pr->threads);
	free(pr->name);
	wl_val_clear(&pr->instances);
	wl_val_clear(&pr->nice);
	free(pr);
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nprocesses; i++)
		wl_process_free(w->processes[i]);
	free(w->processes);
	for (size_t i = 0; i < w->nfilesets; i++)
		fileset_free(w->filesets[i]);
	free(w->filesets);
	for (size_t i = 0; i < w->nvars; i++) {
		wl_var_clear(w->vars[i]);
		free(w->vars[i]->name);
		free(w->vars[i]);
	}
	free(w->vars);
	for (size_t i = 0; i < w->nrandvars; i++)
		randvar_free(w->randvars[i]);
	free(w->randvars);
	wl_val_clear(&w->eventgen_rate);
	strings_free(w->echoes, w->nechoes);
	strings_free(w->usages, w->nusages);
	strings_free(w->warnings, w->nwarnings);
	free(w->name);
	free(w->source);
	free(w);
}
