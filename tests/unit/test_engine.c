/*
 * test_engine.c — the engine registry: the capabilities (ENGINE_*) of an
 * engine spec, plain and wrapped, what engine_spec_find() accepts and
 * says about what it refuses, and engine_open() taking the inline
 * system-call path from the capability, not from the engine's name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/faulty.h"
#include "tap.h"

static void test_caps(void)
{
	static const struct {
		const char *spec;
		int valid;
		unsigned caps;
	} cases[] = {
		{ "null", 1, ENGINE_DISKLESS },
		{ "psync", 1, ENGINE_INLINE_SYSCALLS },
#ifdef HAVE_LIBURING
		{ "io_uring", 1, ENGINE_ASYNC | ENGINE_SQPOLL | ENGINE_REGFILES | ENGINE_FIXEDBUFS },
#endif
#ifdef HAVE_LIBAIO
		{ "libaio", 1, ENGINE_ASYNC },
#endif
		/* a wrapper has what it wraps, plus ENGINE_WRAPPER, but never
		 * the inline path (its exec() is its own) */
		{ "faulty:null", 1, ENGINE_DISKLESS | ENGINE_WRAPPER },
		{ "faulty:null:op=read,nth=1,err=EIO", 1, ENGINE_DISKLESS | ENGINE_WRAPPER },
		{ "faulty:psync", 1, ENGINE_WRAPPER },
		{ "faulty:psync:op=write,nth=5,err=EIO", 1, ENGINE_WRAPPER },
#ifdef HAVE_LIBURING
		{ "faulty:io_uring:op=read,after=0", 1,
		  ENGINE_WRAPPER | ENGINE_ASYNC | ENGINE_SQPOLL | ENGINE_REGFILES |
			  ENGINE_FIXEDBUFS },
#endif
#ifdef HAVE_LIBAIO
		{ "faulty:libaio", 1, ENGINE_WRAPPER | ENGINE_ASYNC },
#endif
		/* unknown or invalid: no capabilities, and refused */
		{ "nosuch", 0, 0 },
		{ "", 0, 0 },
		{ "null:x", 0, 0 },
		{ "nullx", 0, 0 },
		{ "faultyx", 0, 0 },
		{ "faulty", 0, 0 },
		{ "faulty:", 0, 0 },
		{ "faulty:nosuch", 0, 0 },
		{ "faulty:faulty:null", 0, 0 },
		{ "faulty:null:op=write", 0, 0 }, /* a rule needs nth= or after= */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char err[512] = "";
		unsigned caps = 0xdead;
		const struct engine_ops *ops = engine_spec_find(cases[i].spec, &caps, err, sizeof(err));

		is_int(engine_spec_caps(cases[i].spec), cases[i].caps, "engine_spec_caps('%s')",
		       cases[i].spec);
		if (cases[i].valid) {
			ok(ops != NULL, "engine_spec_find accepts '%s'", cases[i].spec);
			is_int(caps, cases[i].caps, "engine_spec_find('%s') caps", cases[i].spec);
		} else {
			ok(ops == NULL && *err, "engine_spec_find refuses '%s' with a reason (%s)",
			   cases[i].spec, err);
			is_int(caps, 0xdead, "engine_spec_find('%s') leaves caps alone",
			       cases[i].spec);
		}
	}
	is_int(engine_spec_caps(NULL), 0, "engine_spec_caps(NULL) is 0");
}

static void test_find(void)
{
	char err[512] = "";
	const struct engine_ops *ops;

	ops = engine_spec_find("faulty:null:nth=1", NULL, err, sizeof(err));
	ok(ops == &engine_faulty_ops, "a wrapper spec finds the wrapper's ops table");
	ops = engine_spec_find("null", NULL, err, sizeof(err));
	ok(ops && !strcmp(ops->name, "null"), "a name finds its ops table");

	engine_spec_find("turbo", NULL, err, sizeof(err));
	ok(!strncmp(err, "unknown engine 'turbo' (available: psync", 40),
	   "an unknown engine is named with the list of engines (%s)", err);
	ok(strstr(err, "null") && strstr(err, "faulty"), "the list holds null and faulty");
	engine_spec_find("faulty:nosuch", NULL, err, sizeof(err));
	ok(strstr(err, "unknown engine 'nosuch' to wrap") != NULL,
	   "a bad wrapper spec gets the wrapper's own reason (%s)", err);
	/* a NULL buffer is allowed (engine_spec_caps() passes one) */
	ok(engine_spec_find("faulty:nosuch", NULL, NULL, 0) == NULL, "NULL errbuf");
	ok(engine_spec_find("nosuch", NULL, NULL, 0) == NULL, "NULL errbuf, unknown engine");
}

static void test_open(void)
{
	static const struct {
		const char *spec;
		int inline_syscalls;
	} cases[] = {
		{ "psync", 1 },
		{ "null", 0 },
		{ "faulty:psync", 0 },
		{ "faulty:null", 0 },
#ifdef HAVE_LIBAIO
		{ "libaio", 0 },
		{ "faulty:libaio", 0 },
#endif
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct engine *e = NULL;

		if (engine_open(&e, cases[i].spec, 1) < 0) {
			ok(0, "engine_open('%s')", cases[i].spec);
			continue;
		}
		is_int(e->inline_syscalls, cases[i].inline_syscalls,
		       "engine_open('%s'): inline system calls", cases[i].spec);
		is_int(!!(engine_spec_caps(cases[i].spec) & ENGINE_INLINE_SYSCALLS),
		       cases[i].inline_syscalls, "... as its capabilities say");
		engine_close(e);
	}
}

int main(void)
{
	test_caps();
	test_find();
	test_open();
	return done_testing();
}
