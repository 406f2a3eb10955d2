/*
 * zfsstat.h — the ZFS view of a phase: OpenZFS's kstats on Linux, read at
 * the phase's start and end (docs/insight.md "The ZFS view").
 *
 * The root is $FSGAUGE_KSTAT_ROOT, else /proc/spl/kstat/zfs.  Under it:
 *
 *  - arcstats: the ARC (named kstat: hits, misses, demand_data_hits, ...,
 *    size, c, c_max), machine-wide;
 *  - zil: the ZIL (named: zil_commit_count, zil_itx_count,
 *    zil_itx_metaslab_normal_bytes, ...), machine-wide;
 *  - POOL/io: the pool's I/O (a raw "io" kstat: nread nwritten reads
 *    writes ...; older OpenZFS releases only);
 *  - POOL/objset-0xID: one dataset's reads and writes (named:
 *    dataset_name, writes, nwritten, reads, nread, ...).
 *
 * A named kstat is two header lines ("KID TYPE FLAGS NDATA SIZE CRTIME
 * SNAPTIME", then "name type data") and a line per value: its name, its
 * data type (1-6 numbers, 7 a string) and its value.
 *
 * A test hook: a root whose entry "1" is a directory, and that holds no
 * arcstats or zil of its own, is a series of recorded snapshots 1, 2, ...:
 * each sample of the process reads the next one, the last one repeating.
 * No real kstat root has such an entry (a pool's name starts with a
 * letter).  tests/fixtures/zfs-kstat/ is one.
 *
 * Usage: zfsstat_sample() at the start and the end, zfsstat_delta() into
 * the phase's struct result_zfs; zfsstat_line() says it in one line.
 */
#ifndef FSGAUGE_ZFSSTAT_H
#define FSGAUGE_ZFSSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "stats/result.h"

#define ZFSSTAT_ROOT_ENV "FSGAUGE_KSTAT_ROOT"
#define ZFSSTAT_ROOT_DEFAULT "/proc/spl/kstat/zfs"

enum zfs_group { ZG_ARC, ZG_ZIL, ZG_POOL, ZG_DATASET };

/* One field: its group, its key in the JSON ("hits") and its kstat's
 * name ("hits"; NULL for ZFS_ARC_SIZE_START, which is "size" at the
 * start), whether it is a gauge (the end's value) rather than a counter. */
struct zfs_field_def {
	enum zfs_group group;
	const char *key, *kstat;
	int gauge;
};
extern const struct zfs_field_def zfs_fields[ZFS__NFIELDS];
/* "arc", "zil", "pool", "dataset" */
const char *zfs_group_name(enum zfs_group g);

/* One sample of the kstats. */
struct zfs_snap {
	int read;			/* a file was read */
	uint64_t have;			/* bit f: v[f] read */
	uint64_t v[ZFS__NFIELDS];
	char pool[256], dataset[256], objset[32];
};

/* The root in use ($FSGAUGE_KSTAT_ROOT or the default; static string). */
const char *zfsstat_root(void);

/* Parse a named kstat's text into s's fields of group g (values that are
 * not a plain non-negative number, or of a string type, are skipped).
 * Returns how many were found. */
int zfsstat_parse_named(const char *text, enum zfs_group g, struct zfs_snap *s);
/* A named kstat's string value `name` (objset's dataset_name) into buf;
 * 0, or -ENOENT. */
int zfsstat_named_string(const char *text, const char *name, char *buf, size_t len);
/* Parse a raw "io" kstat (the header line, the field names, their
 * values) into s's pool fields.  Returns how many were found. */
int zfsstat_parse_io(const char *text, struct zfs_snap *s);

/* Sample `root`: arcstats, zil, and when `dataset` ("tank/fs") is not
 * NULL, its pool's io kstat and the objset kstat whose dataset_name is
 * it.  s->read is 0 when nothing could be read. */
void zfsstat_sample_root(const char *root, const char *dataset, struct zfs_snap *s);
/* Sample zfsstat_root() (with the snapshot-series hook above). */
void zfsstat_sample(const char *dataset, struct zfs_snap *s);

/* The phase's figures from its two samples: counters end - start, gauges
 * the end's (the ARC's size also the start's); present 0 when either
 * sample read nothing.  The pool and dataset figures only when both
 * samples found the same pool and objset. */
void zfsstat_delta(const struct zfs_snap *start, const struct zfs_snap *end,
		   struct result_zfs *out);

/* a += b (repeats): counters add (known when known in both), gauges
 * b's. */
void zfsstat_merge(struct result_zfs *a, const struct result_zfs *b);

/* Derived figures: the ARC's hit share in percent and the bytes the ZIL
 * wrote into log blocks (normal + slog); -1 when not known. */
double zfsstat_arc_hit_percent(const struct result_zfs *z);
int64_t zfsstat_zil_log_bytes(const struct result_zfs *z);

/* One line, without a prefix: "ARC 98.1% hits (1.2M hits, 23k misses),
 * size 3.1 GiB; ZIL 4,210 commits, 17.2 MiB to the log; ...", then the
 * dataset's properties from `env` (its zfs.* keys; env may be NULL).
 * buf is "" when z is not present. */
void zfsstat_line(const struct result_zfs *z, const struct kvlist *env, char *buf, size_t len);

#endif
