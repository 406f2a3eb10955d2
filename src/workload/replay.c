/* replay.c — building replay lists from archive entries; see replay.h. */
#include "workload/replay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define ARENA_CHUNK (64 * 1024)
#define NAME_MAX_LEN 255
#define SYMLINK_MAX 4095
#define DEFAULT_WRITE_SIZE (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	char buf[];
};

struct replay_priv {
	struct arena_chunk *arena;
	size_t *slots;	 /* open addressing: node index + 1, 0 = empty */
	size_t nslots;	 /* a power of two */
	size_t nused;
	size_t cap_ops, cap_nodes;
	uint32_t root_mode; /* the copy's root: 0755, or the archive's "." entry */
	struct timespec root_mtime;
	int root_has_mtime;
	int finished;
};

static const char *const kind_names[RPK__COUNT] = {
	[RPK_MKDIR] = "mkdir",	   [RPK_CREATE] = "create", [RPK_WRITE] = "write",
	[RPK_FSYNC] = "fsync",	   [RPK_CLOSE] = "close",   [RPK_SYMLINK] = "symlink",
	[RPK_LINK] = "link",	   [RPK_CHMOD] = "chmod",   [RPK_UTIMES] = "utimes",
	[RPK_FSYNCDIR] = "fsyncdir", [RPK_UNLINK] = "unlink", [RPK_RMDIR] = "rmdir",
};

const char *replay_kind_name(enum replay_kind k)
{
	return (unsigned)k < RPK__COUNT ? kind_names[k] : "?";
}

static const char *arena_strdup(struct replay_priv *p, const char *s)
{
	size_t n = strlen(s) + 1;
	struct arena_chunk *c = p->arena;

	if (!c || c->cap - c->used < n) {
		size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;

		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = p->arena;
		p->arena = c;
	}
	memcpy(c->buf + c->used, s, n);
	c->used += n;
	return c->buf + c->used - n;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot holding path, or the empty slot where it would go. */
static size_t *slot_of(const struct replay *r, const char *path)
{
	struct replay_priv *p = r->priv;
	size_t i = (size_t)hash_str(path) & (p->nslots - 1);

	for (;; i = (i + 1) & (p->nslots - 1)) {
		size_t *s = &p->slots[i];

		if (!*s || !strcmp(r->nodes[*s - 1].path, path))
			return s;
	}
}

/* The live node named path, or NULL. */
static struct replay_node *lookup(const struct replay *r, const char *path)
{
	size_t *s = slot_of(r, path);

	return *s ? &r->nodes[*s - 1] : NULL;
}

static void index_grow(struct replay *r)
{
	struct replay_priv *p = r->priv;
	size_t *old = p->slots, nold = p->nslots;

	p->nslots = nold ? nold * 2 : 1024;
	p->slots = xcalloc(p->nslots, sizeof(*p->slots));
	for (size_t i = 0; i < nold; i++)
		if (old[i])
			*slot_of(r, r->nodes[old[i] - 1].path) = old[i];
	free(old);
}

/* Append a node and make it the live entry for its path. */
static size_t node_add(struct replay *r, const struct replay_node *n)
{
	struct replay_priv *p = r->priv;
	size_t *s;

	if (p->nused * 2 >= p->nslots)
		index_grow(r);
	if (r->nnodes == p->cap_nodes) {
		p->cap_nodes = p->cap_nodes ? p->cap_nodes * 2 : 256;
		r->nodes = xrealloc(r->nodes, p->cap_nodes * sizeof(*r->nodes));
	}
	r->nodes[r->nnodes] = *n;
	r->nodes[r->nnodes].path = arena_strdup(p, n->path);
	if (n->target)
		r->nodes[r->nnodes].target = arena_strdup(p, n->target);
	s = slot_of(r, n->path);
	if (!*s)
		p->nused++;
	*s = r->nnodes + 1;
	return r->nnodes++;
}

static struct replay_op *op_add(struct replay *r, enum replay_kind kind, const char *path)
{
	struct replay_priv *p = r->priv;
	struct replay_op *op;

	if (r->nops == p->cap_ops) {
		p->cap_ops = p->cap_ops ? p->cap_ops * 2 : 1024;
		r->ops = xrealloc(r->ops, p->cap_ops * sizeof(*r->ops));
	}
	op = &r->ops[r->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->path = path;
	return op;
}

static struct replay *replay_alloc(const struct replay_opts *opts)
{
	struct replay *r = xcalloc(1, sizeof(*r));

	r->priv = xcalloc(1, sizeof(*r->priv));
	if (opts)
		r->opts = *opts;
	if (!r->opts.write_size)
		r->opts.write_size = DEFAULT_WRITE_SIZE;
	r->data_fd = -1;
	r->priv->root_mode = 0755;
	index_grow(r);
	return r;
}

struct replay *replay_new(const struct replay_opts *opts)
{
	struct replay *r = replay_alloc(opts);

	/* the first operation of every extraction: the copy's root */
	op_add(r, RPK_MKDIR, "")->mode = 0755;
	return r;
}

void replay_free(struct replay *r)
{
	if (!r)
		return;
	for (struct arena_chunk *c = r->priv->arena, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(r->priv->slots);
	free(r->priv);
	free(r->ops);
	free(r->nodes);
	free(r);
}

int replay_path_clean(const char *in, char *out, size_t outlen, const char **why)
{
	size_t n = 0;
	const char *s = in;

	if (!in || !*in) {
		*why = "empty path";
		return -EINVAL;
	}
	if (*in == '/') {
		*why = "absolute path";
		return -EINVAL;
	}
	while (*s) {
		const char *e = strchr(s, '/');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == 2 && s[0] == '.' && s[1] == '.') {
			*why = "path has a '..' component";
			return -EINVAL;
		}
		if (len && !(len == 1 && s[0] == '.')) {
			if (len > NAME_MAX_LEN) {
				*why = "a name in the path is too long";
				return -EINVAL;
			}
			if (n + !!n + len >= outlen || n + !!n + len > REPLAY_PATH_MAX) {
				*why = "path is too long";
				return -EINVAL;
			}
			if (n)
				out[n++] = '/';
			memcpy(out + n, s, len);
			n += len;
		}
		s += len;
		while (*s == '/')
			s++;
	}
	if (!outlen) {
		*why = "path is too long";
		return -EINVAL;
	}
	out[n] = 0;
	return 0;
}

static int refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static uint32_t dir_mode(uint32_t mode)
{
	/* owner rwx always: the tree must stay removable by whoever made it */
	return (mode & 01777) | 0700;
}

static uint32_t file_mode(uint32_t mode)
{
	/* no set-id bits: a benchmark has no business creating them */
	return mode & 0777;
}

/* Make sure every parent of path (cleaned, non-empty) is a directory we
 * created, creating the missing ones.  *parent gets the innermost. */
static int parents(struct replay *r, const char *entry, char *path, size_t *parent, char *err,
		   size_t errlen)
{
	*parent = REPLAY_ROOT;
	for (char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		struct replay_node *n;

		*s = 0;
		n = lookup(r, path);
		if (!n) {
			struct replay_node d = { .type = RPT_DIR, .mode = dir_mode(0755),
						 .mode_made = dir_mode(0755), .implicit = 1,
						 .path = path, .parent = *parent };

			*parent = node_add(r, &d);
			op_add(r, RPK_MKDIR, r->nodes[*parent].path)->mode = d.mode;
		} else if (n->type == RPT_SYMLINK) {
			refuse(err, errlen,
			       "entry '%s': path crosses the symbolic link '%s' created earlier in "
			       "the archive",
			       entry, path);
			*s = '/';
			return -EINVAL;
		} else if (n->type != RPT_DIR) {
			refuse(err, errlen, "entry '%s': '%s' is not a directory", entry, path);
			*s = '/';
			return -EINVAL;
		} else {
			*parent = (size_t)(n - r->nodes);
		}
		*s = '/';
	}
	return 0;
}

/* chmod when the mode the entry was made with, less the umask, is not
 * its final mode; then its time. */
static void add_meta(struct replay *r, const struct replay_node *n)
{
	uint32_t m = n->mode;

	if ((n->mode_made & ~(uint32_t)r->opts.umask) != m)
		op_add(r, RPK_CHMOD, n->path)->mode = m;
	if (n->has_mtime)
		op_add(r, RPK_UTIMES, n->path)->mtime = n->mtime;
}

static void add_file_ops(struct replay *r, const struct replay_node *n)
{
	struct replay_op *op = op_add(r, RPK_CREATE, n->path);

	op->mode = n->mode_made;
	for (uint64_t off = 0; off < n->size;) {
		uint64_t len = MIN((uint64_t)r->opts.write_size, n->size - off);

		op = op_add(r, RPK_WRITE, n->path);
		op->off = off;
		op->len = (uint32_t)len;
		op->data = n->data == REPLAY_PATTERN ? REPLAY_PATTERN : n->data + off;
		off += len;
	}
	if (r->opts.fsync != REPLAY_FSYNC_NONE)
		op_add(r, RPK_FSYNC, n->path);
	op_add(r, RPK_CLOSE, n->path);
	add_meta(r, n);
}

int replay_add(struct replay *r, const struct replay_entry *e, char *err, size_t errlen)
{
	char path[REPLAY_PATH_MAX + 1], tpath[REPLAY_PATH_MAX + 1];
	const char *why;
	struct replay_node n = { .type = e->type, .data = e->data, .size = e->size,
				 .mtime = e->mtime, .has_mtime = e->has_mtime };
	struct replay_node *old;
	size_t idx;

	if (replay_path_clean(e->path, path, sizeof(path), &why) < 0)
		return refuse(err, errlen, "entry '%s': %s", e->path ? e->path : "", why);
	if (!*path) {
		/* "." or "./": the copy's root itself */
		if (e->type != RPT_DIR)
			return refuse(err, errlen, "entry '%s': the top directory must be a directory",
				      e->path);
		r->priv->root_mode = dir_mode(e->mode);
		r->priv->root_mtime = e->mtime;
		r->priv->root_has_mtime = e->has_mtime;
		return 0;
	}
	if (parents(r, e->path, path, &n.parent, err, errlen) < 0)
		return -EINVAL;
	n.path = path;
	old = lookup(r, path);
	if (old && old->type == RPT_DIR) {
		if (e->type != RPT_DIR)
			return refuse(err, errlen,
				      "entry '%s': a directory of that name is earlier in the archive",
				      e->path);
		/* a directory listed again, or after its contents: its metadata */
		old->mode = dir_mode(e->mode);
		old->mtime = e->mtime;
		old->has_mtime = e->has_mtime;
		old->implicit = 0;
		return 0;
	}
	switch (e->type) {
	case RPT_DIR:
		n.mode = dir_mode(e->mode);
		n.size = 0;
		break;
	case RPT_FILE:
		n.mode = file_mode(e->mode);
		break;
	case RPT_SYMLINK:
		if (!e->target || !*e->target)
			return refuse(err, errlen, "entry '%s': symbolic link without a target",
				      e->path);
		if (strlen(e->target) > SYMLINK_MAX)
			return refuse(err, errlen, "entry '%s': symbolic link target is too long",
				      e->path);
		n.mode = 0777;
		n.size = 0;
		n.target = e->target;
		break;
	case RPT_HARDLINK: {
		struct replay_node *t;

		if (replay_path_clean(e->target, tpath, sizeof(tpath), &why) < 0)
			return refuse(err, errlen, "entry '%s': hard link to '%s': %s", e->path,
				      e->target ? e->target : "", why);
		t = lookup(r, tpath);
		if (!strcmp(tpath, path) || !t || t->type == RPT_DIR)
			return refuse(err, errlen,
				      "entry '%s': hard link to '%s', which is not an earlier file "
				      "of the archive",
				      e->path, e->target);
		n.mode = t->mode;
		n.size = t->size;
		n.target = tpath;
		break;
	}
	default:
		return refuse(err, errlen, "entry '%s': unknown entry type", e->path);
	}
	if (old) {
		/* as tar does: the later entry replaces the earlier name */
		old->removed = 1;
		op_add(r, RPK_UNLINK, old->path);
	}
	n.mode_made = n.mode;
	idx = node_add(r, &n);
	const struct replay_node *nn = &r->nodes[idx];

	switch (nn->type) {
	case RPT_DIR:
		op_add(r, RPK_MKDIR, nn->path)->mode = nn->mode_made;
		break;
	case RPT_FILE:
		add_file_ops(r, nn);
		break;
	case RPT_SYMLINK: {
		struct replay_op *op = op_add(r, RPK_SYMLINK, nn->path);

		op->path2 = nn->target;
		if (nn->has_mtime)
			op_add(r, RPK_UTIMES, nn->path)->mtime = nn->mtime;
		break;
	}
	case RPT_HARDLINK:
		op_add(r, RPK_LINK, nn->path)->path2 = nn->target;
		break;
	}
	return 0;
}

void replay_skip(struct replay *r)
{
	r->st.skipped++;
}

static uint64_t nearest_rank(const uint64_t *v, size_t n, double q)
{
	size_t k;

	if (!n)
		return 0;
	k = (size_t)((double)n * q);
	if ((double)k < (double)n * q)
		k++; /* ceil */
	return v[k ? k - 1 : 0];
}

static void compute_stats(struct replay *r)
{
	struct replay_stats *st = &r->st;
	uint64_t *sizes = xmalloc((r->nnodes ? r->nnodes : 1) * sizeof(*sizes));
	size_t nsizes = 0;

	st->files = st->dirs = st->symlinks = st->hardlinks = st->bytes = 0;
	st->max_depth = 0;
	for (size_t i = 0; i < r->nnodes; i++) {
		const struct replay_node *n = &r->nodes[i];
		unsigned depth = 1;

		if (n->removed)
			continue;
		for (const char *s = n->path; *s; s++)
			depth += *s == '/';
		if (depth > st->max_depth)
			st->max_depth = depth;
		switch (n->type) {
		case RPT_DIR:
			st->dirs++;
			break;
		case RPT_FILE:
			st->files++;
			st->bytes += n->size;
			sizes[nsizes++] = n->size;
			break;
		case RPT_SYMLINK:
			st->symlinks++;
			break;
		case RPT_HARDLINK:
			st->hardlinks++;
			break;
		}
	}
	qsort(sizes, nsizes, sizeof(*sizes), cmp_u64);
	st->size_median = nearest_rank(sizes, nsizes, 0.5);
	st->size_p90 = nearest_rank(sizes, nsizes, 0.9);
	st->size_p99 = nearest_rank(sizes, nsizes, 0.99);
	st->size_max = nsizes ? sizes[nsizes - 1] : 0;
	free(sizes);
}

void replay_finish(struct replay *r)
{
	struct replay_priv *p = r->priv;
	struct replay_node root = { .type = RPT_DIR, .mode = p->root_mode, .mode_made = 0755,
				    .path = "",
				    .mtime = p->root_mtime, .has_mtime = p->root_has_mtime };

	if (p->finished)
		return;
	p->finished = 1;
	/* Directory modes and times last, deepest first (reverse creation
	 * order puts every directory after its descendants), as tar does:
	 * creating an entry changes its directory's time. */
	for (size_t i = r->nnodes; i-- > 0;)
		if (r->nodes[i].type == RPT_DIR && !r->nodes[i].removed)
			add_meta(r, &r->nodes[i]);
	add_meta(r, &root);
	if (r->opts.fsync == REPLAY_FSYNC_DIR) {
		for (size_t i = r->nnodes; i-- > 0;)
			if (r->nodes[i].type == RPT_DIR && !r->nodes[i].removed)
				op_add(r, RPK_FSYNCDIR, r->nodes[i].path);
		op_add(r, RPK_FSYNCDIR, "");
	}
	compute_stats(r);
}

struct tree_links {
	size_t *first, *next, *last; /* children lists; index nnodes is the root */
};

static void remove_dir(struct replay *rm, const struct replay *r, const struct tree_links *t,
		       size_t dir)
{
	struct replay_priv *p = rm->priv;

	for (size_t c = t->first[dir]; c != SIZE_MAX; c = t->next[c])
		if (r->nodes[c].type != RPT_DIR)
			op_add(rm, RPK_UNLINK, arena_strdup(p, r->nodes[c].path));
	for (size_t c = t->first[dir]; c != SIZE_MAX; c = t->next[c])
		if (r->nodes[c].type == RPT_DIR) {
			remove_dir(rm, r, t, c);
			op_add(rm, RPK_RMDIR, arena_strdup(p, r->nodes[c].path));
		}
}

struct replay *replay_removal(const struct replay *r)
{
	struct replay *rm = replay_alloc(&r->opts);
	size_t n = r->nnodes;
	struct tree_links t;

	t.first = xmalloc((n + 1) * sizeof(size_t));
	t.next = xmalloc((n + 1) * sizeof(size_t));
	t.last = xmalloc((n + 1) * sizeof(size_t));
	for (size_t i = 0; i <= n; i++)
		t.first[i] = t.next[i] = t.last[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t par;

		if (r->nodes[i].removed)
			continue;
		par = r->nodes[i].parent == REPLAY_ROOT ? n : r->nodes[i].parent;
		if (t.last[par] == SIZE_MAX)
			t.first[par] = i;
		else
			t.next[t.last[par]] = i;
		t.last[par] = i;
	}
	remove_dir(rm, r, &t, n);
	op_add(rm, RPK_RMDIR, "");
	free(t.first);
	free(t.next);
	free(t.last);
	rm->st = r->st;
	rm->priv->finished = 1;
	return rm;
}
