/* common.c — helpers shared by the subcommands; see common.h. */
#include "cmd/common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/size.h"
#include "util/util.h"

const struct engine_ops *engine_find_checked(const char *name)
{
	char err[512];
	const struct engine_ops *e = engine_spec_find(name, NULL, err, sizeof(err));

	if (!e)
		msg_err("%s", err);
	return e;
}

static int parse_steady(const char *arg, struct run_opts *o)
{
	char buf[64], *comma, *pct;
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
		if (num_parse_u64(comma + 1, &w) < 0 || w < 2 || w > COMMON_STEADY_WINDOW_MAX)
			return -1;
	}
	pct = buf;
	if (*pct && pct[strlen(pct) - 1] == '%')
		pct[strlen(pct) - 1] = 0;
	if (num_parse_double(pct, &p) < 0 || !(p > 0) || p > 100)
		return -1;
	o->steady_pct = p;
	o->steady_window = (unsigned)w;
	return 0;
}

int common_run_opt(int c, const char *arg, struct run_opts *o)
{
	uint64_t u;
	double d;

	switch (c) {
	case OPT_DATA:
		if (!arg || data_pattern_parse(arg, &o->data) < 0) {
			msg_err("invalid data pattern '%s' (expected random, zero, compress=N%% or "
				"dedupe=N%%, N from 0 to 100)",
				arg);
			return -1;
		}
		return 1;
	case OPT_DIRECT:
		o->direct = 1;
		return 1;
	case OPT_DROP_CACHES:
		o->drop_caches = 1;
		return 1;
	case OPT_REPEAT:
		if (num_parse_u64(arg, &u) < 0 || u < 1 || u > COMMON_REPEAT_MAX) {
			msg_err("invalid --repeat '%s' (expected a whole number from 1 to %d)", arg,
				COMMON_REPEAT_MAX);
			return -1;
		}
		o->repeat = (unsigned)u;
		return 1;
	case OPT_REUSE:
		o->reuse = 1;
		return 1;
	case OPT_INTERVAL:
		if (duration_parse(arg, COMMON_INTERVAL_MIN, 0, &d) < 0) {
			msg_err("invalid --interval '%s' (expected seconds, from %g to "
				DURATION_MAX_TEXT ")", arg, COMMON_INTERVAL_MIN);
			return -1;
		}
		o->interval = d;
		return 1;
	case OPT_WARMUP:
		if (duration_parse(arg, 0, 0, &d) < 0) {
			msg_err("invalid --warmup '%s' (expected seconds, from 0 to " DURATION_MAX_TEXT
				")", arg);
			return -1;
		}
		o->warmup = d;
		return 1;
	case OPT_STEADY_STATE:
		if (parse_steady(arg, o) < 0) {
			msg_err("invalid --steady-state '%s' (expected PCT or PCT,N: a percentage "
				"above 0 and up to 100, and 2 to %d intervals)",
				arg, COMMON_STEADY_WINDOW_MAX);
			return -1;
		}
		return 1;
	case OPT_QUIET:
		o->quiet = 1;
		msg_quiet = 1;
		return 1;
	case OPT_VERIFY:
		o->verify = 1;
		return 1;
	case OPT_ALLOW_SHARED_TARGET:
		o->allow_shared_target = 1;
		return 1;
	case OPT_PROGRESS:
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
		return 1;
	default:
		return 0;
	}
}

int common_engine_stores_nothing(const char *e)
{
	return e && (engine_spec_caps(e) & ENGINE_DISKLESS) != 0;
}

int common_verify_check(const struct run_opts *o)
{
	/* a diskless engine (null, alone or wrapped by faulty) stores
	 * nothing, so every block read back would be reported */
	if (o->verify && common_engine_stores_nothing(o->engine)) {
		msg_err("--verify needs an engine that stores data: the null engine reads back "
			"nothing it was given");
		return -1;
	}
	return 0;
}

int common_run_check(const struct run_opts *o)
{
	if (common_verify_check(o) < 0)
		return -1;
	if (o->reuse && o->repeat < 2) {
		msg_err("--reuse keeps files between repeats: it needs --repeat N with N >= 2");
		return -1;
	}
	if (o->drop_caches && runner_drop_caches(1) < 0)
		return -1;
	return 0;
}

void common_run_usage(FILE *f)
{
	fprintf(f,
		"measurement options (docs/trust.md):\n"
		"      --data PATTERN     data written: random (default; incompressible, no\n"
		"                         repeated blocks), zero, compress=N%%, dedupe=N%%\n"
		"      --direct           open data files with O_DIRECT\n"
		"      --drop-caches      sync and drop the page cache before each measured\n"
		"                         phase (needs root)\n"
		"      --repeat N         run N times on fresh files; report each run and the\n"
		"                         mean, sd, cv and 95%% confidence interval\n"
		"      --reuse            with --repeat: keep the files between runs\n"
		"      --interval SECS    record a time series every SECS seconds (JSON)\n"
		"      --warmup SECS      exclude the first SECS seconds of each phase\n"
		"                         (durations: at most a year, 31536000 seconds)\n"
		"      --steady-state[=PCT[,N]]\n"
		"                         end the warm-up once the ops/s trend over the last N\n"
		"                         intervals changes by at most PCT%% (default 5%%, 5);\n"
		"                         --warmup then caps the warm-up (default: the run time)\n"
		"  -q, --quiet            no progress messages on stderr\n"
		"      --progress[=WHEN]  live status line: auto (default: when stderr is a\n"
		"                         terminal), always, never\n"
		"      --verify           write self-checking 4 KiB blocks (header and XXH3\n"
		"                         checksum) and check every block read; data I/O is\n"
		"                         rounded to whole blocks; mismatches exit 1\n");
	common_shared_target_usage(f);
}

void common_shared_target_usage(FILE *f)
{
	fprintf(f, "      --allow-shared-target\n"
		   "                         accept a target directory every user may write that\n"
		   "                         is not sticky (refused otherwise: another user could\n"
		   "                         swap the run directory; docs/reliability.md)\n");
}

void common_run_params(struct kvlist *params, const struct run_opts *o)
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
