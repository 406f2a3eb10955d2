/*
 * builtin.h — the built-in workload personalities, embedded at build time
 * from workloads/NAME.f by tools/embed-workloads.sh.
 *
 * builtin_workloads[] ends with an entry whose name is NULL.  The strings
 * are static and never freed.
 */
#ifndef FSGAUGE_BUILTIN_H
#define FSGAUGE_BUILTIN_H

struct builtin_workload { const char *name; const char *description; const char *text; };
extern const struct builtin_workload builtin_workloads[];

#endif
