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

#endif
