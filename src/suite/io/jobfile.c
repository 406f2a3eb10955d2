/* jobfile.c — fio's job files; see jobfile.h. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "suite/io/jobfile.h"
#include "util/util.h"

#define INCLUDE_DEPTH 8
#define LINE_MAX_LEN 4096

/* --- values ------------------------------------------------------------------- */

static int builtin_var(const char *name, size_t n, long long *v)
{
	if (n == 5 && !strncmp(name, "ncpus", 5)) {
		*v = sysconf(_SC_NPROCESSORS_ONLN);
		return 1;
	}
	if (n == 8 && !strncmp(name, "pagesize", 8)) {
		*v = sysconf(_SC_PAGESIZE);
		return 1;
	}
	if (n == 9 && !strncmp(name, "mb_memory", 9)) {
		*v = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / (1024 * 1024);
		return 1;
	}
	return 0;
}

/* Whether the n bytes after '$' at p are one of filename_format's
 * keywords (any case, as fio), which the job's files' names replace
 * (io.c), not the job file. */
static int format_keyword(const char *p, size_t n)
{
	static const char *const kw[] = { "jobname", "jobnum", "filenum", "clientuid", NULL };

	for (size_t i = 0; kw[i]; i++)
		if (n == strlen(kw[i]) && !strncasecmp(p + 1, kw[i], n))
			return 1;
	return 0;
}

/* An integer expression: + - * / % and parentheses over whole numbers. */
struct expr {
	const char *p;
	int bad;
};

static long long expr_sum(struct expr *e);

static void skip_ws(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long long expr_atom(struct expr *e)
{
	long long v;
	char *end;

	skip_ws(e);
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		skip_ws(e);
		if (*e->p != ')')
			e->bad = 1;
		else
			e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -expr_atom(e);
	}
	errno = 0;
	v = strtoll(e->p, &end, 10);
	if (end == e->p || errno)
		e->bad = 1;
	e->p = end;
	return v;
}

static long long expr_product(struct expr *e)
{
	long long v = expr_atom(e);

	for (;;) {
		skip_ws(e);
		char op = *e->p;

		if (op != '*' && op != '/' && op != '%')
			return v;
		e->p++;
		long long r = expr_atom(e);

		if ((op == '/' || op == '%') && r == 0) {
			e->bad = 1;
			return 0;
		}
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
}

static long long expr_sum(struct expr *e)
{
	long long v = expr_product(e);

	for (;;) {
		skip_ws(e);
		char op = *e->p;

		if (op != '+' && op != '-')
			return v;
		e->p++;
		long long r = expr_product(e);

		v = op == '+' ? v + r : v - r;
	}
}

static int append(char *out, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + n >= len)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = 0;
	return 0;
}

int io_jobfile_expand(const char *in, char *out, size_t len, char *err, size_t errlen)
{
	char buf[LINE_MAX_LEN];
	size_t o = 0;

	buf[0] = 0;
	for (const char *p = in; *p;) {
		char num[32];
		long long v;

		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}');
			char name[256];
			const char *val;

			if (!end || (size_t)(end - p - 2) >= sizeof(name)) {
				snprintf(err, errlen, "unterminated '${' in '%s'", in);
				return -EINVAL;
			}
			memcpy(name, p + 2, (size_t)(end - p - 2));
			name[end - p - 2] = 0;
			val = getenv(name);
			if (!val) {
				snprintf(err, errlen, "environment variable '%s' is not set", name);
				return -EINVAL;
			}
			if (append(buf, sizeof(buf), &o, val, strlen(val)) < 0)
				goto toolong;
			p = end + 1;
			continue;
		}
		if (p[0] == '$') {
			size_t n = 0;

			while (isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_')
				n++;
			if (builtin_var(p + 1, n, &v)) {
				snprintf(num, sizeof(num), "%lld", v);
				if (append(buf, sizeof(buf), &o, num, strlen(num)) < 0)
					goto toolong;
				p += 1 + n;
				continue;
			}
			if (format_keyword(p, n)) { /* filename_format's, kept */
				if (append(buf, sizeof(buf), &o, p, 1 + n) < 0)
					goto toolong;
				p += 1 + n;
				continue;
			}
			snprintf(err, errlen, "unknown variable '$%.*s' (fio's are $ncpus, $pagesize, "
					      "$mb_memory; ${NAME} reads the environment)",
				 (int)n, p + 1);
			return -EINVAL;
		}
		if (append(buf, sizeof(buf), &o, p, 1) < 0)
			goto toolong;
		p++;
	}
	if (buf[0] == '(') {
		/* "(256*$ncpus)k": the expression, then an optional unit */
		struct expr e = { buf + 1, 0 };
		long long v = expr_sum(&e);
		char unit[16];

		skip_ws(&e);
		if (e.bad || *e.p != ')' || strlen(e.p + 1) >= sizeof(unit)) {
			snprintf(err, errlen, "invalid expression '%s'", buf);
			return -EINVAL;
		}
		strcpy(unit, e.p + 1);
		for (const char *u = unit; *u; u++)
			if (!isalpha((unsigned char)*u)) {
				snprintf(err, errlen, "invalid expression '%s'", buf);
				return -EINVAL;
			}
		snprintf(buf, sizeof(buf), "%lld%s", v, unit);
	}
	if (strlen(buf) >= len)
		goto toolong;
	strcpy(out, buf);
	return 0;
toolong:
	snprintf(err, errlen, "value too long");
	return -EINVAL;
}

/* --- the file ---------------------------------------------------------------- */

struct jf {
	struct io_jobs *js;
	struct io_job global;
	struct io_job *cur;	/* the section being read (global or a job) */
	struct io_job scratch;	/* a job section other than `only`: checked, dropped */
	const char *only;
	int depth;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int parse_text(struct jf *jf, const char *text, const char *name, const char *dir);

static int load_file(struct jf *jf, const char *path, const char *from, int line)
{
	FILE *f = fopen(path, "re");
	char *text = NULL, *dir, *slash;
	size_t len = 0;
	int ret;

	if (!f) {
		if (from)
			return err_errno(-errno, "%s:%d: cannot read included file '%s'", from, line,
					 path);
		return err_errno(-errno, "cannot read job file '%s'", path);
	}
	if (getdelim(&text, &len, 0, f) < 0 && ferror(f)) {
		int e = -errno;

		fclose(f);
		free(text);
		return err_errno(e, "cannot read job file '%s'", path);
	}
	fclose(f);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	ret = parse_text(jf, text ? text : "", path, dir);
	free(dir);
	free(text);
	return ret;
}

static int section(struct jf *jf, char *line, const char *name, int ln)
{
	char *end = strchr(line, ']');
	char *sec;

	if (!end || *trim(end + 1)) {
		msg_err("%s:%d: expected a section header '[name]'", name, ln);
		return -EINVAL;
	}
	*end = 0;
	sec = trim(line + 1);
	if (!*sec) {
		msg_err("%s:%d: a section needs a name", name, ln);
		return -EINVAL;
	}
	if (!strcmp(sec, "global")) {
		jf->cur = &jf->global;
		return 0;
	}
	if (jf->only && strcmp(jf->only, sec)) {
		/* its options are still checked, into a scratch job */
		io_job_free(&jf->scratch);
		io_job_copy(&jf->scratch, &jf->global, sec);
		jf->cur = &jf->scratch;
		return 0;
	}
	for (size_t i = 0; i < jf->js->n; i++)
		if (!strcmp(jf->js->jobs[i].name, sec)) {
			msg_err("%s:%d: job '%s' is defined twice", name, ln, sec);
			return -EINVAL;
		}
	jf->js->jobs = xrealloc(jf->js->jobs, (jf->js->n + 1) * sizeof(*jf->js->jobs));
	io_job_copy(&jf->js->jobs[jf->js->n], &jf->global, sec);
	jf->cur = &jf->js->jobs[jf->js->n++];
	return 0;
}

static int include(struct jf *jf, const char *arg, const char *name, const char *dir, int ln)
{
	char path[PATH_MAX];

	if (!*arg) {
		msg_err("%s:%d: include needs a file name", name, ln);
		return -EINVAL;
	}
	if (jf->depth >= INCLUDE_DEPTH) {
		msg_err("%s:%d: includes nested deeper than %d (a loop?)", name, ln, INCLUDE_DEPTH);
		return -EINVAL;
	}
	if (arg[0] == '/')
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, arg);
	jf->depth++;
	int ret = load_file(jf, path, name, ln);

	jf->depth--;
	return ret;
}

static int option_line(struct jf *jf, char *line, const char *name, int ln)
{
	char *eq = strchr(line, '='), *key = line, val[LINE_MAX_LEN], err[512];
	int ret;

	if (eq)
		*eq = 0;
	key = trim(key);
	if (!jf->cur) {
		msg_err("%s:%d: option '%s' before any section ([global] or a job)", name, ln, key);
		return -EINVAL;
	}
	if (eq && io_jobfile_expand(trim(eq + 1), val, sizeof(val), err, sizeof(err)) < 0) {
		msg_err("%s:%d: %s", name, ln, err);
		return -EINVAL;
	}
	if (!strcmp(key, "name")) {
		msg_err("%s:%d: name= in a job file: the section header names the job", name, ln);
		return -EINVAL;
	}
	ret = io_job_set(jf->cur, key, eq ? val : NULL, err, sizeof(err));
	if (ret < 0) {
		msg_err("%s:%d: %s", name, ln, err);
		return -EINVAL;
	}
	return 0;
}

static int parse_text(struct jf *jf, const char *text, const char *name, const char *dir)
{
	const char *p = text;
	int ln = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char buf[LINE_MAX_LEN], *line;
		int ret = 0;

		ln++;
		if (n >= sizeof(buf)) {
			msg_err("%s:%d: line too long", name, ln);
			return -EINVAL;
		}
		memcpy(buf, p, n);
		buf[n] = 0;
		p += n + (nl ? 1 : 0);
		line = trim(buf);
		if (!*line || *line == ';' || *line == '#')
			continue;
		if (*line == '[')
			ret = section(jf, line, name, ln);
		else if (!strncmp(line, "include", 7) && isspace((unsigned char)line[7]))
			ret = include(jf, trim(line + 7), name, dir, ln);
		else
			ret = option_line(jf, line, name, ln);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int finish(struct jf *jf, int ret, const char *name)
{
	io_job_free(&jf->global);
	io_job_free(&jf->scratch);
	if (ret < 0)
		return ret;
	if (jf->only && !jf->js->n) {
		msg_err("%s: no job '%s' (--section)", name, jf->only);
		return -EINVAL;
	}
	if (!jf->js->n) {
		msg_err("%s: no jobs (only [global] sections)", name);
		return -EINVAL;
	}
	return 0;
}

int io_jobfile_parse(struct io_jobs *js, const char *text, const char *name, const char *dir,
		     const struct io_job *defaults, const char *only)
{
	struct jf jf = { .js = js, .only = only };

	io_job_copy(&jf.global, defaults, "global");
	return finish(&jf, parse_text(&jf, text, name, dir), name);
}

int io_jobfile_load(struct io_jobs *js, const char *path, const struct io_job *defaults,
		    const char *only)
{
	struct jf jf = { .js = js, .only = only };

	io_job_copy(&jf.global, defaults, "global");
	return finish(&jf, load_file(&jf, path, NULL, 0), path);
}

void io_jobs_free(struct io_jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		io_job_free(&js->jobs[i]);
	free(js->jobs);
	js->jobs = NULL;
	js->n = 0;
}
