/*
 * builtin.h — personalities compiled into the binary (workloads/NAME.f,
 * embedded by tools/embed-workloads.sh).
 */
#ifndef FSGAUGE_BUILTIN_H
#define FSGAUGE_BUILTIN_H

struct builtin_workload {
	const char *name;
	const char *description;
	const char *text;
};

/* Terminated by an entry with name == NULL. */
extern const struct builtin_workload builtin_workloads[];

/* Look up by name; NULL if there is none. */
const struct builtin_workload *builtin_find(const char *name);

#endif
