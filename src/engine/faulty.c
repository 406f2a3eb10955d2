/*
 * faulty.c — the fault-injecting engine; see faulty.h.
 *
 * Instances opened with the same spec share a counter found in a small
 * process-wide registry (looked up under a mutex when an instance is
 * opened, then updated with atomic adds on the hot path).  Injected
 * completions of submit() and queue() are kept in the instance's own
 * queue and handed out by reap() before the inner engine's; queue() and
 * flush() of the rest are the inner engine's (its reap() pushes what it
 * has queued).
 */
#include "engine/faulty.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/size.h"
#include "util/util.h"

struct faulty_shared {
	char *spec;
	uint64_t count;	   /* matching operations seen (atomic) */
	uint64_t injected; /* faults injected (atomic) */
	struct faulty_shared *next;
};

struct faulty {
	struct faulty_rule rule;
	struct faulty_shared *sh;
	struct engine_cq q; /* injected completions of submit() */
};

static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;
static struct faulty_shared *registry;

static const struct {
	const char *name;
	int err;
} err_names[] = {
	{ "EIO", EIO },	      { "ENOSPC", ENOSPC }, { "EINTR", EINTR },   { "EAGAIN", EAGAIN },
	{ "EDQUOT", EDQUOT }, { "EROFS", EROFS },   { "EACCES", EACCES }, { "EPERM", EPERM },
	{ "EMFILE", EMFILE }, { "ENFILE", ENFILE }, { "ENOENT", ENOENT }, { "EFBIG", EFBIG },
	{ "ENOMEM", ENOMEM }, { "EBADF", EBADF },   { "EEXIST", EEXIST }, { "ESTALE", ESTALE },
	{ "short", 0 },
	{ "corrupt", FAULTY_CORRUPT },
	{ "zero", FAULTY_ZERO },
	{ "eof", FAULTY_EOF },
};

#define DATA_OPS ((1u << IO_READ) | (1u << IO_WRITE))
#define ALL_OPS ((1u << IO__COUNT) - 1)

static int parse_ops(const char *v, uint32_t *mask)
{
	char buf[256];
	char *save = NULL;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, v);
	*mask = 0;
	for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		int found = 0;

		if (!strcmp(t, "any")) {
			*mask |= ALL_OPS;
			continue;
		}
		for (int op = 0; op < IO__COUNT; op++)
			if (!strcmp(t, io_op_name((enum io_op)op))) {
				*mask |= 1u << op;
				found = 1;
			}
		if (!found)
			return -EINVAL;
	}
	return *mask ? 0 : -EINVAL;
}

int faulty_parse(const char *spec, struct faulty_rule *rule, char *errbuf, size_t errlen)
{
	char inner[64], *save = NULL, *args;
	const char *p;
	size_t n;
	int have_n = 0;

	int have_err = 0;

	memset(rule, 0, sizeof(*rule));
	rule->ops = ALL_OPS;
	rule->err = EIO;
	if (strncmp(spec, FAULTY_PREFIX, strlen(FAULTY_PREFIX))) {
		snprintf(errbuf, errlen, "engine spec '%s': expected faulty:ENGINE[:RULE]", spec);
		return -EINVAL;
	}
	p = spec + strlen(FAULTY_PREFIX);
	n = strcspn(p, ":");
	if (!n || n >= sizeof(inner)) {
		snprintf(errbuf, errlen, "engine spec '%s': expected faulty:ENGINE[:RULE]", spec);
		return -EINVAL;
	}
	memcpy(inner, p, n);
	inner[n] = 0;
	rule->inner = engine_find(inner);
	if (!rule->inner || (rule->inner->caps & ENGINE_WRAPPER)) {
		snprintf(errbuf, errlen, "engine spec '%s': unknown engine '%s' to wrap", spec,
			 inner);
		return -EINVAL;
	}
	if (!p[n])
		return 0;
	args = xstrdup(p + n + 1);
	rule->active = 1;
	for (char *kv = strtok_r(args, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		const char *key = kv, *val;

		if (!eq) {
			snprintf(errbuf, errlen, "engine spec '%s': expected KEY=VALUE, found '%s'",
				 spec, kv);
			goto bad;
		}
		*eq = 0;
		val = eq + 1;
		if (!strcmp(key, "op")) {
			if (parse_ops(val, &rule->ops) < 0) {
				snprintf(errbuf, errlen,
					 "engine spec '%s': unknown operation in op=%s (expected "
					 "open, read, write, fsync, ... or any, joined with '|')",
					 spec, val);
				goto bad;
			}
		} else if (!strcmp(key, "nth") || !strcmp(key, "after")) {
			if (have_n) {
				snprintf(errbuf, errlen,
					 "engine spec '%s': give only one of nth= and after=", spec);
				goto bad;
			}
			if (num_parse_u64(val, &rule->n) < 0 || (!strcmp(key, "nth") && !rule->n)) {
				snprintf(errbuf, errlen,
					 "engine spec '%s': invalid %s=%s (expected a %s integer)", spec,
					 key, val, strcmp(key, "nth") ? "non-negative" : "positive");
				goto bad;
			}
			rule->after = !strcmp(key, "after");
			have_n = 1;
		} else if (!strcmp(key, "err")) {
			size_t i;

			for (i = 0; i < ARRAY_SIZE(err_names); i++)
				if (!strcasecmp(val, err_names[i].name))
					break;
			if (i == ARRAY_SIZE(err_names)) {
				snprintf(errbuf, errlen,
					 "engine spec '%s': unknown error '%s' (expected EIO, ENOSPC, "
					 "EINTR, EAGAIN, short, ...)",
					 spec, val);
				goto bad;
			}
			rule->err = err_names[i].err;
			have_err = 1;
		} else if (!strcmp(key, "delay")) {
			uint64_t us;

			if (num_parse_u64(val, &us) < 0 || !us || us > 10000000) {
				snprintf(errbuf, errlen,
					 "engine spec '%s': invalid delay=%s (expected microseconds, "
					 "1 to 10000000)",
					 spec, val);
				goto bad;
			}
			rule->delay_ns = us * 1000;
		} else {
			snprintf(errbuf, errlen,
				 "engine spec '%s': unknown key '%s' (expected op, nth, after, err, delay)",
				 spec, key);
			goto bad;
		}
	}
	free(args);
	if (rule->delay_ns && have_err) {
		snprintf(errbuf, errlen, "engine spec '%s': give delay= or err=, not both", spec);
		return -EINVAL;
	}
	if (rule->delay_ns && !have_n) {
		rule->after = 1; /* every matching operation */
		have_n = 1;
	}
	if (!have_n) {
		snprintf(errbuf, errlen, "engine spec '%s': a rule needs nth=N or after=N", spec);
		return -EINVAL;
	}
	if (rule->err == FAULTY_CORRUPT || rule->err == FAULTY_ZERO || rule->err == FAULTY_EOF) {
		/* what a read returns */
		rule->ops &= 1u << IO_READ;
		if (!rule->ops) {
			snprintf(errbuf, errlen, "engine spec '%s': err=%s applies only to op=read",
				 spec,
				 rule->err == FAULTY_CORRUPT ? "corrupt"
				 : rule->err == FAULTY_ZERO  ? "zero"
							     : "eof");
			return -EINVAL;
		}
	}
	if (rule->err == 0) {
		/* a short transfer only makes sense for reads and writes */
		rule->ops &= DATA_OPS;
		if (!rule->ops) {
			snprintf(errbuf, errlen,
				 "engine spec '%s': err=short applies only to op=read or op=write",
				 spec);
			return -EINVAL;
		}
	}
	return 0;
bad:
	free(args);
	return -EINVAL;
}

static struct faulty_shared *shared_get(const char *spec, int create)
{
	struct faulty_shared *s;

	pthread_mutex_lock(&registry_mu);
	for (s = registry; s; s = s->next)
		if (!strcmp(s->spec, spec))
			break;
	if (!s && create) {
		s = xcalloc(1, sizeof(*s));
		s->spec = xstrdup(spec);
		s->next = registry;
		registry = s;
	}
	pthread_mutex_unlock(&registry_mu);
	return s;
}

uint64_t faulty_count(const char *spec)
{
	struct faulty_shared *s = shared_get(spec, 0);

	return s ? __atomic_load_n(&s->count, __ATOMIC_RELAXED) : 0;
}

uint64_t faulty_injected(const char *spec)
{
	struct faulty_shared *s = shared_get(spec, 0);

	return s ? __atomic_load_n(&s->injected, __ATOMIC_RELAXED) : 0;
}

int faulty_open(struct engine *e, const char *spec, unsigned depth)
{
	struct faulty *f;
	char err[512];
	int ret;

	f = xcalloc(1, sizeof(*f));
	if (faulty_parse(spec, &f->rule, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		free(f);
		return -EINVAL;
	}
	e->inner = xcalloc(1, sizeof(*e->inner));
	e->inner->ops = f->rule.inner;
	e->inner->opts = e->opts;
	ret = f->rule.inner->init(e->inner, depth);
	if (ret < 0) {
		engine_open_error(e->inner, f->rule.inner->name, ret);
		free(e->inner);
		e->inner = NULL;
		free(f);
		return ret;
	}
	f->sh = shared_get(spec, 1);
	engine_cq_init(&f->q, depth);
	e->ops = &engine_faulty_ops;
	e->priv = f;
	return 0;
}

static int faulty_init(struct engine *e, unsigned depth)
{
	/* only reachable through engine_open(), which calls faulty_open() */
	return -EINVAL;
}

static void faulty_exit(struct engine *e)
{
	struct faulty *f = e->priv;

	engine_close(e->inner);
	e->inner = NULL;
	engine_cq_free(&f->q);
	free(f);
}

/* Count the request if the rule covers it and say whether to fail it. */
static int should_fail(struct faulty *f, const struct io_req *req)
{
	uint64_t c;
	int fire;

	if (!(f->rule.ops & (1u << req->op)))
		return 0;
	c = __atomic_add_fetch(&f->sh->count, 1, __ATOMIC_RELAXED);
	if (!f->rule.active)
		return 0;
	fire = f->rule.after ? c > f->rule.n : c == f->rule.n;
	/* a one-byte transfer cannot be made shorter */
	if (fire && !f->rule.err && req->len < 2)
		fire = 0;
	if (fire)
		__atomic_add_fetch(&f->sh->injected, 1, __ATOMIC_RELAXED);
	if (fire && f->rule.delay_ns) {
		/* slowed, not failed: the inner engine runs it after the wait */
		struct timespec ts = { (time_t)(f->rule.delay_ns / 1000000000ull),
				       (long)(f->rule.delay_ns % 1000000000ull) };

		nanosleep(&ts, NULL); /* (a signal cuts it short: the run is stopping) */
		return 0;
	}
	return fire;
}

/* Complete an injected fault: an error, or a short transfer done by the
 * inner engine on the first half of the request. */
static int64_t inject(struct engine *e, struct faulty *f, struct io_req *req)
{
	struct io_req part;
	int64_t r;

	if (f->rule.err == FAULTY_CORRUPT || f->rule.err == FAULTY_ZERO) {
		/* the read succeeds, but one bit in the middle of what it
		 * returned is wrong, or all of it is zeros (a write the
		 * storage lost): what --verify exists to catch */
		r = e->inner->ops->exec(e->inner, req);
		if (r > 0 && req->buf && f->rule.err == FAULTY_CORRUPT)
			((unsigned char *)req->buf)[r / 2] ^= 0x10;
		else if (r > 0 && req->buf)
			memset(req->buf, 0, (size_t)r);
		return req->res = r;
	}
	if (f->rule.err == FAULTY_EOF)
		return req->res = 0; /* the file ends where the read starts */
	if (f->rule.err)
		return req->res = -f->rule.err;
	part = *req;
	part.len = req->len / 2;
	return req->res = e->inner->ops->exec(e->inner, &part);
}

static int64_t faulty_exec(struct engine *e, struct io_req *req)
{
	struct faulty *f = e->priv;

	if (should_fail(f, req))
		return inject(e, f, req);
	return req->res = e->inner->ops->exec(e->inner, req);
}

/* submit(), or queue() when `queue`: an injected fault completes at
 * once, in the instance's own queue; the rest go to the inner engine. */
static int faulty_take(struct engine *e, struct io_req *req, int queue)
{
	struct faulty *f = e->priv;
	const struct engine_ops *in = e->inner->ops;

	if (f->q.n >= f->q.depth)
		return -EAGAIN;
	if (should_fail(f, req)) {
		inject(e, f, req);
		return engine_cq_push(&f->q, req);
	}
	if (queue && in->queue)
		return in->queue(e->inner, req);
	return in->submit(e->inner, req);
}

static int faulty_submit(struct engine *e, struct io_req *req)
{
	return faulty_take(e, req, 0);
}

static int faulty_queue(struct engine *e, struct io_req *req)
{
	return faulty_take(e, req, 1);
}

static int faulty_flush(struct engine *e)
{
	return engine_flush(e->inner);
}

static int faulty_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct faulty *f = e->priv;
	int n = engine_cq_pop(&f->q, done, max);
	int r;

	if ((unsigned)n >= max)
		return n;
	r = e->inner->ops->reap(e->inner, done + n, min > (unsigned)n ? min - (unsigned)n : 0,
				max - (unsigned)n);
	if (r < 0)
		return n ? n : r;
	return n + r;
}

const struct engine_ops engine_faulty_ops = {
	.name = "faulty",
	.description = "wraps another engine and fails chosen operations (faulty:ENGINE:RULE)",
	.caps = ENGINE_WRAPPER,
	.init = faulty_init,
	.exit = faulty_exit,
	.exec = faulty_exec,
	.submit = faulty_submit,
	.reap = faulty_reap,
	.queue = faulty_queue,
	.flush = faulty_flush,
};
