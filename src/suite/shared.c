/* shared.c — the values of the options every suite shares; see shared.h. */
#include "suite/shared.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/size.h"
#include "util/util.h"

static int parse_steady(const char *arg, struct run_opts *o)
{
	char buf[64], *comma, *pct;
	size_t n;
	double p;
	uint64_t w = 5;

	o->steady_pct = 5;
	o->steady_window = 5;
	if (!arg)
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	comma = strchr(buf, ',');
	if (comma) {
		*comma = 0;
		if (num_parse_u64(comma + 1, &w) < 0 || w < 2 || w > SHARED_STEADY_WINDOW_MAX)
			return -1;
	}
	pct = buf;
	n = strlen(pct);
	if (n > 0 && pct[n - 1] == '%')
		pct[n - 1] = 0;
	if (num_parse_double(pct, &p) < 0 || !(p > 0) || p > 100)
		return -1;
	o->steady_pct = p;
	o->steady_window = (unsigned)w;
	return 0;
}

int shared_measure_opt(unsigned bit, const char *arg, struct run_opts *o)
{
	uint64_t u;
	double d;

	switch (bit) {
	case SH_DATA:
		if (!arg || data_pattern_parse(arg, &o->data) < 0) {
			msg_err("invalid data pattern '%s' (expected random, zero, compress=N%% or "
				"dedupe=N%%, N from 0 to 100)",
				arg);
			return -1;
		}
		return 0;
	case SH_DIRECT:
		o->direct = 1;
		return 0;
	case SH_DROP_CACHES:
		o->drop_caches = 1;
		return 0;
	case SH_REPEAT:
		if (num_parse_u64(arg, &u) < 0 || u < 1 || u > SHARED_REPEAT_MAX) {
			msg_err("invalid --repeat '%s' (expected a whole number from 1 to %d)", arg,
				SHARED_REPEAT_MAX);
			return -1;
		}
		o->repeat = (unsigned)u;
		return 0;
	case SH_REUSE:
		o->reuse = 1;
		return 0;
	case SH_INTERVAL:
		if (duration_parse(arg, SHARED_INTERVAL_MIN, 0, &d) < 0) {
			msg_err("invalid --interval '%s' (expected seconds, from %g to "
				DURATION_MAX_TEXT ")", arg, SHARED_INTERVAL_MIN);
			return -1;
		}
		o->interval = d;
		return 0;
	case SH_WARMUP:
		if (duration_parse(arg, 0, 0, &d) < 0) {
			msg_err("invalid --warmup '%s' (expected seconds, from 0 to " DURATION_MAX_TEXT
				")", arg);
			return -1;
		}
		o->warmup = d;
		return 0;
	case SH_STEADY:
		if (parse_steady(arg, o) < 0) {
			msg_err("invalid --steady-state '%s' (expected PCT or PCT,N: a percentage "
				"above 0 and up to 100, and 2 to %d intervals)",
				arg, SHARED_STEADY_WINDOW_MAX);
			return -1;
		}
		return 0;
	case SH_QUIET:
		o->quiet = 1;
		msg_quiet = 1;
		return 0;
	case SH_VERIFY:
		o->verify = 1;
		return 0;
	case SH_SHARED_TARGET:
		o->allow_shared_target = 1;
		return 0;
	case SH_PROGRESS:
		if (!arg || !strcmp(arg, "always"))
			o->progress = PROGRESS_ALWAYS;
		else if (!strcmp(arg, "auto"))
			o->progress = PROGRESS_AUTO;
		else if (!strcmp(arg, "never"))
			o->progress = PROGRESS_NEVER;
		else {
			msg_err("invalid --progress '%s' (expected auto, always or never)", arg);
			return -1;
		}
		return 0;
	default:
		return -1;
	}
}

int shared_engine_stores_nothing(const char *e)
{
	return e && (engine_spec_caps(e) & ENGINE_DISKLESS) != 0;
}

static int verify_check(const struct run_opts *o)
{
	/* a diskless engine (null, alone or wrapped by faulty) stores
	 * nothing, so every block read back would be reported */
	if (o->verify && shared_engine_stores_nothing(o->engine)) {
		msg_err("--verify needs an engine that stores data: the null engine reads back "
			"nothing it was given");
		return -1;
	}
	return 0;
}

int shared_run_check(const struct run_opts *o)
{
	if (verify_check(o) < 0)
		return -1;
	if (o->reuse && o->repeat < 2) {
		msg_err("--reuse keeps files between repeats: it needs --repeat N with N >= 2");
		return -1;
	}
	if (o->drop_caches && runner_drop_caches(1) < 0)
		return -1;
	return 0;
}

void shared_run_params(struct kvlist *params, const struct run_opts *o)
{
	char buf[64];

	kv_add(params, "data", "%s", data_pattern_name(&o->data, buf, sizeof(buf)));
	kv_add(params, "direct", "%s", o->direct ? "true" : "false");
	kv_add(params, "drop_caches", "%s", o->drop_caches ? "true" : "false");
	kv_add(params, "repeat", "%u", o->repeat ? o->repeat : 1);
	kv_add(params, "reuse", "%s", o->reuse ? "true" : "false");
	kv_add(params, "interval", "%g", o->interval);
	kv_add(params, "warmup", "%g", o->warmup);
	kv_add(params, "verify", "%s", o->verify ? "true" : "false");
	if (o->steady_pct > 0)
		kv_add(params, "steady_state", "%g%%,%u", o->steady_pct, o->steady_window);
	else
		kv_add(params, "steady_state", "off");
}
