/* zfsstat.c — OpenZFS's kstats over a phase; see zfsstat.h. */
#include "stats/zfsstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/sysstat.h"
#include "util/human.h"
#include "util/util.h"

/* arcstats, the largest, is under 8 KiB */
#define KSTAT_MAX (64u * 1024)

const struct zfs_field_def zfs_fields[ZFS__NFIELDS] = {
	[ZFS_ARC_HITS] = { ZG_ARC, "hits", "hits", 0 },
	[ZFS_ARC_MISSES] = { ZG_ARC, "misses", "misses", 0 },
	[ZFS_ARC_DD_HITS] = { ZG_ARC, "demand_data_hits", "demand_data_hits", 0 },
	[ZFS_ARC_DD_MISSES] = { ZG_ARC, "demand_data_misses", "demand_data_misses", 0 },
	[ZFS_ARC_DM_HITS] = { ZG_ARC, "demand_metadata_hits", "demand_metadata_hits", 0 },
	[ZFS_ARC_DM_MISSES] = { ZG_ARC, "demand_metadata_misses", "demand_metadata_misses", 0 },
	[ZFS_ARC_PD_HITS] = { ZG_ARC, "prefetch_data_hits", "prefetch_data_hits", 0 },
	[ZFS_ARC_PD_MISSES] = { ZG_ARC, "prefetch_data_misses", "prefetch_data_misses", 0 },
	[ZFS_ARC_SIZE_START] = { ZG_ARC, "size_bytes_start", NULL, 1 },
	[ZFS_ARC_SIZE] = { ZG_ARC, "size_bytes", "size", 1 },
	[ZFS_ARC_C] = { ZG_ARC, "target_bytes", "c", 1 },
	[ZFS_ARC_C_MAX] = { ZG_ARC, "max_bytes", "c_max", 1 },
	[ZFS_ZIL_COMMITS] = { ZG_ZIL, "commits", "zil_commit_count", 0 },
	[ZFS_ZIL_COMMIT_WRITERS] = { ZG_ZIL, "commit_writers", "zil_commit_writer_count", 0 },
	[ZFS_ZIL_ITXS] = { ZG_ZIL, "itxs", "zil_itx_count", 0 },
	[ZFS_ZIL_INDIRECT_BYTES] = { ZG_ZIL, "indirect_bytes", "zil_itx_indirect_bytes", 0 },
	[ZFS_ZIL_COPIED_BYTES] = { ZG_ZIL, "copied_bytes", "zil_itx_copied_bytes", 0 },
	[ZFS_ZIL_NEEDCOPY_BYTES] = { ZG_ZIL, "needcopy_bytes", "zil_itx_needcopy_bytes", 0 },
	[ZFS_ZIL_NORMAL_BYTES] = { ZG_ZIL, "log_normal_bytes", "zil_itx_metaslab_normal_bytes", 0 },
	[ZFS_ZIL_SLOG_BYTES] = { ZG_ZIL, "log_slog_bytes", "zil_itx_metaslab_slog_bytes", 0 },
	[ZFS_POOL_READS] = { ZG_POOL, "reads", "reads", 0 },
	[ZFS_POOL_WRITES] = { ZG_POOL, "writes", "writes", 0 },
	[ZFS_POOL_BYTES_READ] = { ZG_POOL, "bytes_read", "nread", 0 },
	[ZFS_POOL_BYTES_WRITTEN] = { ZG_POOL, "bytes_written", "nwritten", 0 },
	[ZFS_DS_READS] = { ZG_DATASET, "reads", "reads", 0 },
	[ZFS_DS_WRITES] = { ZG_DATASET, "writes", "writes", 0 },
	[ZFS_DS_BYTES_READ] = { ZG_DATASET, "bytes_read", "nread", 0 },
	[ZFS_DS_BYTES_WRITTEN] = { ZG_DATASET, "bytes_written", "nwritten", 0 },
};

#define BIT(f) (1ull << (f))

const char *zfs_group_name(enum zfs_group g)
{
	static const char *const names[] = { "arc", "zil", "pool", "dataset" };

	return (unsigned)g < ARRAY_SIZE(names) ? names[g] : "?";
}

const char *zfsstat_root(void)
{
	const char *r = getenv(ZFSSTAT_ROOT_ENV);

	return r && *r ? r : ZFSSTAT_ROOT_DEFAULT;
}

/* A kstat file whole, NUL-terminated, in a new buffer (the caller frees
 * it), or NULL. */
static char *slurp(const char *path)
{
	char *buf = xmalloc(KSTAT_MAX);

	if (sysstat_read_file(path, buf, KSTAT_MAX) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A plain decimal number, the whole token: 0, or -1. */
static int parse_u64(const char *tok, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	if (!len || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(tok[i] - '0');

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* Split one line into up to n whitespace-separated tokens; returns how
 * many (more than n: n + 1). */
static size_t tokens(const char *line, const char *end, const char **tok, size_t *tlen, size_t n)
{
	size_t k = 0;

	for (const char *p = line; p < end;) {
		const char *s;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p >= end)
			break;
		s = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (k == n)
			return n + 1;
		tok[k] = s;
		tlen[k++] = (size_t)(p - s);
	}
	return k;
}

/* The data lines of a named kstat: after "name type data". */
static const char *named_body(const char *text)
{
	const char *p = strstr(text, "\nname");

	if (!p)
		return NULL;
	p = strchr(p + 1, '\n');
	return p ? p + 1 : NULL;
}

int zfsstat_parse_named(const char *text, enum zfs_group g, struct zfs_snap *s)
{
	const char *p = named_body(text);
	int found = 0;

	while (p && *p) {
		const char *end = strchr(p, '\n'), *tok[4];
		size_t len[4], n;
		uint64_t type, v;

		if (!end)
			end = p + strlen(p);
		n = tokens(p, end, tok, len, 3);
		p = *end ? end + 1 : end;
		/* 1-6: (u)int32, (u)int64, (u)long; 0 char and 7 string are text */
		if (n != 3 || parse_u64(tok[1], len[1], &type) || type < 1 || type > 6 ||
		    parse_u64(tok[2], len[2], &v))
			continue;
		for (int f = 0; f < ZFS__NFIELDS; f++) {
			const char *k = zfs_fields[f].kstat;

			if (zfs_fields[f].group != g || !k || strlen(k) != len[0] ||
			    memcmp(k, tok[0], len[0]))
				continue;
			s->v[f] = v;
			s->have |= BIT(f);
			found++;
		}
	}
	return found;
}

int zfsstat_named_string(const char *text, const char *name, char *buf, size_t len)
{
	size_t nl = strlen(name);

	for (const char *p = named_body(text); p && *p;) {
		const char *end = strchr(p, '\n'), *v;

		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) > nl + 1 && !memcmp(p, name, nl) &&
		    (p[nl] == ' ' || p[nl] == '\t')) {
			v = p + nl;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			while (v < end && *v >= '0' && *v <= '9') /* the type */
				v++;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			snprintf(buf, len, "%.*s", (int)(end - v), v);
			return 0;
		}
		p = *end ? end + 1 : end;
	}
	return -ENOENT;
}

int zfsstat_parse_io(const char *text, struct zfs_snap *s)
{
	const char *l1 = strchr(text, '\n'), *l2, *l3, *e2, *e3;
	const char *name[16], *val[16];
	size_t nlen[16], vlen[16], nn, nv;
	int found = 0;

	if (!l1)
		return 0;
	l2 = l1 + 1;
	e2 = strchr(l2, '\n');
	if (!e2)
		return 0;
	l3 = e2 + 1;
	e3 = strchr(l3, '\n');
	if (!e3)
		e3 = l3 + strlen(l3);
	nn = tokens(l2, e2, name, nlen, ARRAY_SIZE(name));
	nv = tokens(l3, e3, val, vlen, ARRAY_SIZE(val));
	if (nn != nv || nn > ARRAY_SIZE(name))
		return 0;
	for (size_t i = 0; i < nn; i++) {
		uint64_t v;

		if (parse_u64(val[i], vlen[i], &v))
			continue;
		for (int f = 0; f < ZFS__NFIELDS; f++) {
			const char *k = zfs_fields[f].kstat;

			if (zfs_fields[f].group != ZG_POOL || strlen(k) != nlen[i] ||
			    memcmp(k, name[i], nlen[i]))
				continue;
			s->v[f] = v;
			s->have |= BIT(f);
			found++;
		}
	}
	return found;
}

static int read_named(const char *path, enum zfs_group g, struct zfs_snap *s)
{
	char *t = slurp(path);
	int n;

	if (!t)
		return -1;
	n = zfsstat_parse_named(t, g, s);
	free(t);
	s->read = 1;
	return n;
}

/* The objset kstat of `dataset` under root/pool. */
static void sample_dataset(const char *root, const char *pool, const char *dataset,
			   struct zfs_snap *s)
{
	char dir[4096], path[4352], name[256];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", root, pool);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *t;

		if (strncmp(de->d_name, "objset-", 7))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		t = slurp(path);
		if (!t)
			continue;
		if (!zfsstat_named_string(t, "dataset_name", name, sizeof(name)) &&
		    !strcmp(name, dataset)) {
			zfsstat_parse_named(t, ZG_DATASET, s);
			snprintf(s->dataset, sizeof(s->dataset), "%s", dataset);
			snprintf(s->objset, sizeof(s->objset), "%.31s", de->d_name);
			s->read = 1;
			free(t);
			break;
		}
		free(t);
	}
	closedir(d);
}

void zfsstat_sample_root(const char *root, const char *dataset, struct zfs_snap *s)
{
	char path[4352], pool[256];
	char *t;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/arcstats", root);
	if (read_named(path, ZG_ARC, s) >= 0 && (s->have & BIT(ZFS_ARC_SIZE))) {
		s->v[ZFS_ARC_SIZE_START] = s->v[ZFS_ARC_SIZE];
		s->have |= BIT(ZFS_ARC_SIZE_START);
	}
	snprintf(path, sizeof(path), "%s/zil", root);
	read_named(path, ZG_ZIL, s);
	if (!dataset || !*dataset || *dataset == '/')
		return;
	snprintf(pool, sizeof(pool), "%.*s", (int)strcspn(dataset, "/@"), dataset);
	snprintf(path, sizeof(path), "%s/%s/io", root, pool);
	t = slurp(path);
	if (t) {
		if (zfsstat_parse_io(t, s) > 0)
			snprintf(s->pool, sizeof(s->pool), "%s", pool);
		s->read = 1;
		free(t);
	}
	sample_dataset(root, pool, dataset, s);
}

/* The snapshot-series hook (zfsstat.h): root/N for this process's Nth
 * sample, or root/<the last N> once past it; NULL when root is no
 * series. */
static const char *series_dir(const char *root, char *buf, size_t len)
{
	static unsigned seq;
	struct stat st;
	unsigned n;

	snprintf(buf, len, "%s/1", root);
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	snprintf(buf, len, "%s/arcstats", root);
	if (!access(buf, F_OK))
		return NULL;
	snprintf(buf, len, "%s/zil", root);
	if (!access(buf, F_OK))
		return NULL;
	n = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	for (; n > 1; n--) {
		snprintf(buf, len, "%s/%u", root, n);
		if (!stat(buf, &st) && S_ISDIR(st.st_mode))
			return buf;
	}
	snprintf(buf, len, "%s/1", root);
	return buf;
}

void zfsstat_sample(const char *dataset, struct zfs_snap *s)
{
	const char *root = zfsstat_root(), *dir;
	char buf[4096];

	dir = series_dir(root, buf, sizeof(buf));
	zfsstat_sample_root(dir ? dir : root, dataset, s);
}

void zfsstat_delta(const struct zfs_snap *a, const struct zfs_snap *b, struct result_zfs *out)
{
	int pool_ok = a->pool[0] && !strcmp(a->pool, b->pool);
	int ds_ok = a->objset[0] && !strcmp(a->objset, b->objset);

	memset(out, 0, sizeof(*out));
	if (!a->read || !b->read)
		return;
	for (int f = 0; f < ZFS__NFIELDS; f++) {
		enum zfs_group g = zfs_fields[f].group;

		if ((g == ZG_POOL && !pool_ok) || (g == ZG_DATASET && !ds_ok))
			continue;
		if (f == ZFS_ARC_SIZE_START) {
			if (a->have & BIT(f)) {
				out->v[f] = a->v[f];
				out->have |= BIT(f);
			}
			continue;
		}
		if (!(b->have & BIT(f)))
			continue;
		if (zfs_fields[f].gauge) {
			out->v[f] = b->v[f];
			out->have |= BIT(f);
			continue;
		}
		/* a counter that went backwards was reset: its change is unknown */
		if (!(a->have & BIT(f)) || b->v[f] < a->v[f])
			continue;
		out->v[f] = b->v[f] - a->v[f];
		out->have |= BIT(f);
	}
	out->present = out->have != 0;
	if (pool_ok)
		snprintf(out->pool, sizeof(out->pool), "%s", b->pool);
	if (ds_ok) {
		snprintf(out->dataset, sizeof(out->dataset), "%s", b->dataset);
		snprintf(out->objset, sizeof(out->objset), "%s", b->objset);
	}
}

void zfsstat_merge(struct result_zfs *a, const struct result_zfs *b)
{
	if (!b->present)
		return;
	if (!a->present) {
		*a = *b;
		return;
	}
	for (int f = 0; f < ZFS__NFIELDS; f++) {
		if (f == ZFS_ARC_SIZE_START)
			continue; /* the first run's start */
		if (zfs_fields[f].gauge) {
			if (b->have & BIT(f)) {
				a->v[f] = b->v[f];
				a->have |= BIT(f);
			}
			continue;
		}
		if ((a->have & b->have & BIT(f)) && a->v[f] <= UINT64_MAX - b->v[f])
			a->v[f] += b->v[f];
		else
			a->have &= ~BIT(f);
	}
	if (strcmp(a->pool, b->pool))
		a->pool[0] = 0;
	if (strcmp(a->objset, b->objset))
		a->dataset[0] = a->objset[0] = 0;
}

static int known(const struct result_zfs *z, int f)
{
	return (z->have & BIT(f)) != 0;
}

double zfsstat_arc_hit_percent(const struct result_zfs *z)
{
	double h, m;

	if (!known(z, ZFS_ARC_HITS) || !known(z, ZFS_ARC_MISSES))
		return -1;
	h = (double)z->v[ZFS_ARC_HITS];
	m = (double)z->v[ZFS_ARC_MISSES];
	return h + m > 0 ? 100.0 * h / (h + m) : -1;
}

int64_t zfsstat_zil_log_bytes(const struct result_zfs *z)
{
	if (!known(z, ZFS_ZIL_NORMAL_BYTES) || !known(z, ZFS_ZIL_SLOG_BYTES))
		return -1;
	return (int64_t)(z->v[ZFS_ZIL_NORMAL_BYTES] + z->v[ZFS_ZIL_SLOG_BYTES]);
}

/* A count: "4,210" below 100000, else "123k", "1.2M", "3.45G". */
static const char *count_str(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "kMGTPE";
	double x = (double)v;
	int u = -1;

	if (v < 1000) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
	if (v < 100000) {
		snprintf(buf, len, "%llu,%03llu", (unsigned long long)(v / 1000),
			 (unsigned long long)(v % 1000));
		return buf;
	}
	while (x >= 999.95 && u < 5) {
		x /= 1000;
		u++;
	}
	snprintf(buf, len, x < 9.995 ? "%.2f%c" : x < 99.95 ? "%.1f%c" : "%.0f%c", x, units[u]);
	return buf;
}

#define PUT(...)                                                               \
	do {                                                                   \
		if (at < len)                                                  \
			at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__); \
	} while (0)

static size_t arc_text(const struct result_zfs *z, char *buf, size_t len, size_t at)
{
	double hp = zfsstat_arc_hit_percent(z);
	char a[HUMAN_BUF], b[HUMAN_BUF];

	if (!known(z, ZFS_ARC_HITS) && !known(z, ZFS_ARC_SIZE))
		return at;
	PUT("ARC");
	if (hp >= 0)
		PUT(" %.1f%% hits (%s hits, %s misses)", hp,
		    count_str(z->v[ZFS_ARC_HITS], a, sizeof(a)),
		    count_str(z->v[ZFS_ARC_MISSES], b, sizeof(b)));
	else if (known(z, ZFS_ARC_HITS) && known(z, ZFS_ARC_MISSES))
		PUT(" no lookups");
	else
		PUT(" hits unknown");
	if (known(z, ZFS_ARC_SIZE)) {
		PUT(", size %s", human_bytes((double)z->v[ZFS_ARC_SIZE], a, sizeof(a)));
		if (known(z, ZFS_ARC_C_MAX))
			PUT(" of %s", human_bytes((double)z->v[ZFS_ARC_C_MAX], b, sizeof(b)));
	}
	return at;
}

static size_t zil_text(const struct result_zfs *z, char *buf, size_t len, size_t at)
{
	int64_t lb = zfsstat_zil_log_bytes(z);
	char a[HUMAN_BUF], b[HUMAN_BUF];

	if (!known(z, ZFS_ZIL_COMMITS))
		return at;
	PUT("%sZIL %s commits", at ? "; " : "", count_str(z->v[ZFS_ZIL_COMMITS], a, sizeof(a)));
	if (lb >= 0) {
		PUT(", %s to the log", human_bytes((double)lb, a, sizeof(a)));
		if (z->v[ZFS_ZIL_SLOG_BYTES])
			PUT(" (%s on a log device)",
			    human_bytes((double)z->v[ZFS_ZIL_SLOG_BYTES], b, sizeof(b)));
	}
	if (known(z, ZFS_ZIL_INDIRECT_BYTES) && z->v[ZFS_ZIL_INDIRECT_BYTES])
		PUT(", %s written indirectly",
		    human_bytes((double)z->v[ZFS_ZIL_INDIRECT_BYTES], a, sizeof(a)));
	return at;
}

/* "pool tank: 120 reads (1.5 MiB), 3,400 writes (210 MiB)" */
static size_t io_text(const struct result_zfs *z, const char *what, const char *name, int first,
		      char *buf, size_t len, size_t at)
{
	char a[HUMAN_BUF], b[HUMAN_BUF];

	if (!name[0] || !known(z, first) || !known(z, first + 1) || !known(z, first + 2) ||
	    !known(z, first + 3))
		return at;
	PUT("%s%s %s: %s reads (%s), ", at ? "; " : "", what, name,
	    count_str(z->v[first], a, sizeof(a)), human_bytes((double)z->v[first + 2], b, sizeof(b)));
	PUT("%s writes (%s)", count_str(z->v[first + 1], a, sizeof(a)),
	    human_bytes((double)z->v[first + 3], b, sizeof(b)));
	return at;
}

/* The dataset's properties env_capture() recorded (zfs.recordsize, ...). */
static size_t props_text(const struct kvlist *env, char *buf, size_t len, size_t at)
{
	static const char *const keys[] = { "recordsize", "compression", "sync", "logbias",
					    "primarycache", "atime", "dedup", "copies" };
	int n = 0;

	if (!env)
		return at;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char k[32];
		const char *v;

		snprintf(k, sizeof(k), "zfs.%s", keys[i]);
		v = kv_get(env, k);
		if (!v)
			continue;
		PUT("%s%s=%s", n++ ? " " : at ? "; properties: " : "properties: ", keys[i], v);
	}
	return at;
}

void zfsstat_line(const struct result_zfs *z, const struct kvlist *env, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = 0;
	if (!z->present)
		return;
	at = arc_text(z, buf, len, at);
	at = zil_text(z, buf, len, at);
	at = io_text(z, "pool", z->pool, ZFS_POOL_READS, buf, len, at);
	at = io_text(z, "dataset", z->dataset, ZFS_DS_READS, buf, len, at);
	at = props_text(env, buf, len, at);
	if (!at)
		snprintf(buf, len, "no figure known (a counter was reset or missing)");
}
