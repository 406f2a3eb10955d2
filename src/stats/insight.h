/*
 * insight.h — what limited a phase: a "limited by" verdict, decided from
 * figures the phase already measured (docs/insight.md has every rule, its
 * evidence and its threshold):
 *
 *   rate_limit    the workers slept for their rate_iops=/rate=/eventgen cap
 *                 at least INSIGHT_RATE_WAIT % of their time;
 *   fsgauge       fsgauge's own code (the process's user time) took at least
 *                 INSIGHT_SELF_SHARE % of the CPU the workers could use;
 *   sync_latency  the workers spent at least INSIGHT_SYNC_SHARE % of their
 *                 time in fsync/fdatasync/syncfs or O_SYNC/O_DSYNC writes;
 *   device        a device under the target busy at least INSIGHT_DEVICE_BUSY %;
 *   contention    the workers were asleep (off a CPU, not on a run queue) at
 *                 least INSIGHT_CONTENTION_SHARE % of their time, with no
 *                 device I/O, rate cap or delay to explain it: they waited
 *                 for each other (a lock, a fileset entry);
 *   page_cache    a cache warning (stats/cache.h) on a file system with
 *                 storage behind it: the figure is memory's, not the storage's;
 *   cpu           the CPUs the run could use at least INSIGHT_CPU_BUSY % busy,
 *                 or one worker at INSIGHT_THREAD_BUSY % of a core;
 *   undetermined  none holds: the rules closest to their thresholds are named.
 *
 * Every rule that could be evaluated is kept with its figures; the verdict
 * is the first that holds in the order above (the others that hold are
 * "also").  Pure computation on a struct result_phase: the output writers
 * call it, so a merged phase (--repeat, MPI) is judged on its merged
 * figures.  No allocation: nothing to free.
 */
#ifndef FSGAUGE_INSIGHT_H
#define FSGAUGE_INSIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "stats/result.h"

/* Thresholds, in percent. */
#define INSIGHT_RATE_WAIT 25.0	 /* of the workers' time asleep for the cap */
#define INSIGHT_SELF_SHARE 50.0	 /* of the usable CPU time in fsgauge's own code */
#define INSIGHT_SYNC_SHARE 50.0	 /* of the workers' time in synchronous operations */
#define INSIGHT_DEVICE_BUSY 90.0 /* of the phase a device had requests in flight */
#define INSIGHT_CONTENTION_SHARE 50.0 /* of the workers' time asleep on each other */
#define INSIGHT_CPU_BUSY 90.0	 /* of the usable CPUs busy */
#define INSIGHT_THREAD_BUSY 90.0 /* of one core used by one worker */
/* The CPU verdict says "other processes" when this process used less than
 * this share of the busy CPU time. */
#define INSIGHT_OTHERS_SHARE 50.0

enum insight_kind {
	INSIGHT_UNDETERMINED = 0,
	INSIGHT_RATE,
	INSIGHT_SELF,
	INSIGHT_SYNC,
	INSIGHT_DEVICE,
	INSIGHT_CONTENTION,
	INSIGHT_CACHE,
	INSIGHT_CPU,
	INSIGHT__COUNT
};

#define INSIGHT_MAX_FIGURES 8

struct insight_figure {
	const char *name; /* static: "busy_percent" */
	double value;
};

struct insight_rule {
	int evaluated;	  /* its figures were measured */
	int holds;
	double value;	  /* the rule's figure, in percent (NAN: a yes/no rule) */
	double threshold; /* the threshold it is held to (NAN: yes/no) */
	char part[64];	  /* which part: "system", "sda", "fsync1", "thread" */
	char evidence[480]; /* the figures in words */
	struct insight_figure fig[INSIGHT_MAX_FIGURES];
	size_t nfig;
};

/* Flush plausibility (docs/insight.md): the synchronous operation with the
 * most time, its p50 against what a flush costs on the devices written.
 * On rotating disks (class "hdd") a flush that reaches the medium waits
 * for the platter: a p50 under INSIGHT_FLUSH_HDD_US means a write cache
 * acknowledged it.  Judged when every device written in the phase is an
 * "hdd", their write requests are at least half the synchronous calls
 * (the calls had data to make durable), the phase wrote and the
 * operation has at least INSIGHT_FLUSH_MIN_OPS calls. */
#define INSIGHT_FLUSH_HDD_US 1000.0
#define INSIGHT_FLUSH_MIN_OPS 10

struct insight_flush {
	int present;	   /* the phase has a synchronous operation */
	int judged;	   /* ... and the conditions above held */
	int implausible;   /* judged, and p50 < INSIGHT_FLUSH_HDD_US */
	char op[64];	   /* the operation ("fsyncfile3") and its type ("fsync") */
	char type[32];
	double p50_us;
	uint64_t calls;
	char device[64];   /* the written device ("sda"; several: the first) */
	uint64_t device_writes; /* write requests of the devices written */
	char evidence[640];	/* the warning, or why it is not judged */
};

struct insight {
	enum insight_kind verdict;
	struct insight_flush flush;
	struct insight_rule rule[INSIGHT__COUNT]; /* by kind; [UNDETERMINED]: why */
	/* undetermined: the evaluated rules nearest their thresholds, nearest first */
	enum insight_kind closest[3];
	size_t nclosest;
};

void insight_assess(const struct result_phase *p, struct insight *out);

/* "cpu", "device", "sync_latency", "contention", "page_cache",
 * "rate_limit", "fsgauge", "undetermined": the JSON names. */
const char *insight_name(enum insight_kind k);
/* Look a JSON name up: its kind, or -1. */
int insight_kind_of(const char *name);

/* The verdict in one line, without the "limited by: " prefix:
 * "cpu (system): the 2 usable CPUs were 97% busy ...; also: page cache",
 * then "; implausible flushes: ..." when the flush check warns. */
void insight_line(const struct insight *in, char *buf, size_t len);

#endif
