/*
 * common.h — small helpers shared by the subcommands.
 */
#ifndef FSGAUGE_CMD_COMMON_H
#define FSGAUGE_CMD_COMMON_H

#include "engine/engine.h"

/* engine_find(), printing "unknown engine 'x' (available: ...)" when it
 * fails.  Also accepts and checks a "faulty:ENGINE:RULE" spec (see
 * engine/faulty.h), printing what is wrong with it. */
const struct engine_ops *engine_find_checked(const char *name);

/*
 * --verify, shared by every measuring front end: write self-checking
 * blocks and check every block read (runner/verify.h).  A front end adds
 * VERIFY_LONGOPT to its options and passes unknown codes to
 * common_verify_opt() before reporting them.
 */
#define OPT_VERIFY 0x1100
#define VERIFY_LONGOPT { "verify", no_argument, NULL, OPT_VERIFY }
#define VERIFY_USAGE                                                                   \
	"      --verify           write self-checking 4 KiB blocks (header and XXH3\n"    \
	"                         checksum) and check every block read; data I/O is\n"    \
	"                         rounded to whole blocks; mismatches exit 1\n"
struct run_opts;
/* 1 when `c` was --verify (o->verify set), else 0. */
int common_verify_opt(int c, struct run_opts *o);

#endif
