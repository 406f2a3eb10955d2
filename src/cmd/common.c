/* common.c — helpers shared by the subcommands; see common.h. */
#include "cmd/common.h"

#include <stdio.h>
#include <string.h>

#include "engine/faulty.h"
#include "runner/runner.h"
#include "util/util.h"

const struct engine_ops *engine_find_checked(const char *name)
{
	const struct engine_ops *e;
	char list[256] = "";

	if (!strncmp(name, "faulty", 6) && (!name[6] || name[6] == ':')) {
		struct faulty_rule rule;
		char err[512];

		if (faulty_parse(name, &rule, err, sizeof(err)) < 0) {
			msg_err("%s", err);
			return NULL;
		}
		return &engine_faulty_ops;
	}
	e = engine_find(name);
	if (e)
		return e;
	for (const char *const *n = engine_names(); *n; n++) {
		if (*list)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, *n, sizeof(list) - strlen(list) - 1);
	}
	msg_err("unknown engine '%s' (available: %s)", name, list);
	return NULL;
}

int common_verify_opt(int c, struct run_opts *o)
{
	if (c != OPT_VERIFY)
		return 0;
	o->verify = 1;
	return 1;
}
