/* result.c — the shared result model; see result.h. */
#include "stats/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

void op_stats_init(struct op_stats *s)
{
	memset(s, 0, offsetof(struct op_stats, lat));
	hist_init(&s->lat);
}

void op_stats_merge(struct op_stats *dst, const struct op_stats *src)
{
	dst->ops += src->ops;
	dst->errors += src->errors;
	dst->stalls += src->stalls;
	dst->bytes_read += src->bytes_read;
	dst->bytes_written += src->bytes_written;
	dst->cpu_ns += src->cpu_ns;
	dst->cpu_samples += src->cpu_samples;
	hist_merge(&dst->lat, &src->lat);
}

double op_stats_cpu_per_op(const struct op_stats *s)
{
	return s->cpu_samples ? (double)s->cpu_ns / (double)s->cpu_samples : 0.0;
}

void kv_add(struct kvlist *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = xstrdup("");
	va_end(ap);
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].key, key)) {
			free(l->v[i].value);
			l->v[i].value = v;
			return;
		}
	}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = v;
	l->n++;
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].value;
	return NULL;
}

void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

struct result *result_new(const char *suite, const char *workload)
{
	struct result *r = xcalloc(1, sizeof(*r));
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	r->suite = xstrdup(suite);
	r->workload = xstrdup(workload);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->started_at = xstrdup(buf);
	return r;
}

struct result_phase *result_add_phase(struct result *r, const char *name)
{
	struct result_phase *p;

	r->phases = xrealloc(r->phases, (r->nphases + 1) * sizeof(*r->phases));
	p = &r->phases[r->nphases++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	return p;
}

struct result_op *result_phase_add_op(struct result_phase *p, const char *name, const char *type,
				      enum op_class cls)
{
	struct result_op *o;

	p->ops = xrealloc(p->ops, (p->nops + 1) * sizeof(*p->ops));
	o = &p->ops[p->nops++];
	memset(o, 0, offsetof(struct result_op, st));
	o->name = xstrdup(name);
	o->type = xstrdup(type);
	o->cls = cls;
	op_stats_init(&o->st);
	o->extra_mean = o->extra_sd = 0;
	return o;
}

struct result_fileset *result_add_fileset(struct result *r, const char *name)
{
	struct result_fileset *f;

	r->filesets = xrealloc(r->filesets, (r->nfilesets + 1) * sizeof(*r->filesets));
	f = &r->filesets[r->nfilesets++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	return f;
}

void result_free(struct result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nphases; i++) {
		struct result_phase *p = &r->phases[i];

		for (size_t j = 0; j < p->nops; j++) {
			free(p->ops[j].name);
			free(p->ops[j].type);
		}
		free(p->ops);
		free(p->name);
		free(p->too_fast_reason);
		for (size_t j = 0; j < p->nexecs; j++)
			free(p->execs[j].op);
		free(p->execs);
	}
	for (size_t i = 0; i < r->nfilesets; i++)
		free(r->filesets[i].name);
	free(r->filesets);
	free(r->phases);
	kv_free(&r->params);
	kv_free(&r->env);
	free(r->suite);
	free(r->workload);
	free(r->label);
	free(r->engine);
	free(r->first_error);
	free(r->started_at);
	free(r);
}

void result_phase_totals(const struct result_phase *p, struct phase_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];

		t->ops += o->st.ops;
		t->errors += o->st.errors;
		t->bytes_read += o->st.bytes_read;
		t->bytes_written += o->st.bytes_written;
		t->lat_sum_ns += o->st.lat.sum;
		if (o->cls == OPC_READ)
			t->read_ops += o->st.ops;
		else if (o->cls == OPC_WRITE)
			t->write_ops += o->st.ops;
	}
}
