/*
 * faulty.h — an engine that wraps another and fails chosen operations,
 * for testing what fsgauge does when storage misbehaves.
 *
 * Spec syntax (given to --engine or engine_open()):
 *
 *   faulty:INNER                       count only, inject nothing
 *   faulty:INNER:RULE                  RULE is a comma-separated list:
 *     op=KIND[|KIND...]                operations affected: open, close,
 *                                      read, write, fsync, trim (a discard),
 *                                      ... (io_op_name() names) or "any"
 *                                      (default: any)
 *     nth=N                            fail only the Nth matching operation
 *     after=N                          fail every matching operation after
 *                                      the Nth (after=0: all of them)
 *     err=E                            EIO (default), ENOSPC, EINTR, EAGAIN,
 *                                      EDQUOT, EROFS, EACCES, EMFILE, ... or
 *                                      "short": a read or write transfers
 *                                      half the bytes asked for, or
 *                                      "corrupt": a read succeeds but one
 *                                      bit of the data it returns is flipped,
 *                                      "zero": a read succeeds but returns
 *                                      zeros (a lost write), or "eof": a
 *                                      read finds the end of the file (it
 *                                      returns 0 bytes)
 *     delay=USEC                       instead of failing: the operations
 *                                      the rule picks wait USEC
 *                                      microseconds (1 to 10000000) and
 *                                      then run normally (no err=; without
 *                                      nth= or after=, every matching one)
 *
 *   --engine faulty:psync:op=write,nth=5,err=EIO
 *   --engine faulty:null:op=read,delay=2000   (every read takes 2 ms more)
 *
 * Exactly one of nth= and after= is required when a rule is given (a
 * delay= rule defaults to after=0).  A delay counts as an injection.
 * Counting is process-wide: every engine instance opened with the same
 * spec (the workers and the preallocation threads of a run) shares one
 * atomic counter, so "the 5th write of the run" is well defined however
 * many threads issue writes.  An injected error completes the request
 * without calling the inner engine, so nothing reaches the storage.
 */
#ifndef FSGAUGE_FAULTY_H
#define FSGAUGE_FAULTY_H

#include <stdint.h>

#include "engine/engine.h"

#define FAULTY_PREFIX "faulty:"
#define FAULTY_CORRUPT (-1)
#define FAULTY_ZERO (-2)
#define FAULTY_EOF (-3)

struct faulty_rule {
	const struct engine_ops *inner; /* the wrapped engine */
	uint32_t ops;			/* bit (1 << io_op) per affected operation */
	int active;			/* a rule was given (else count only) */
	int after;			/* 1: every one after n; 0: only the nth */
	uint64_t n;
	int err;			/* positive errno, 0 for a short transfer, or
					 * FAULTY_CORRUPT, FAULTY_ZERO, FAULTY_EOF */
	uint64_t delay_ns;		/* delay=: wait this long instead of failing */
};

/* Parse a "faulty:..." spec into *rule.  Returns 0, or -EINVAL with a
 * message in errbuf (for the caller to print). */
int faulty_parse(const char *spec, struct faulty_rule *rule, char *errbuf, size_t errlen);

/* How many operations matching the rule of `spec` were seen so far by all
 * instances opened with that spec (0 if none was opened). */
uint64_t faulty_count(const char *spec);

/* How many faults were injected so far under `spec`. */
uint64_t faulty_injected(const char *spec);

/* For engine_open(): set up instance `e` for a "faulty:..." spec, opening
 * the inner engine.  Returns 0 or -errno (message printed). */
int faulty_open(struct engine *e, const char *spec, unsigned depth);
extern const struct engine_ops engine_faulty_ops;

#endif
