/* tarball.c — archives into replay lists with libarchive; see tarball.h. */
#include "workload/tarball.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void tarball_unsupported(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "cannot read '%s': this fsgauge was built without libarchive, which --tarball "
		 "needs (install libarchive-dev and rebuild); --synthetic works without it",
		 path);
}

#ifndef HAVE_LIBARCHIVE

int tarball_supported(void)
{
	return 0;
}

int tarball_load(const char *path, struct replay *r, const struct tarball_sink *sink,
		 uint64_t *data_size, char *err, size_t errlen)
{
	*data_size = 0;
	tarball_unsupported(path, err, errlen);
	return -ENOTSUP;
}

#else

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/stop.h"

#define READ_CHUNK (256 * 1024)

int tarball_supported(void)
{
	return 1;
}

static const char *errstr(struct archive *a)
{
	const char *s = archive_error_string(a);

	return s ? s : "unknown error";
}

/* The archive's file, read by these callbacks instead of libarchive's
 * own file reader, which retries an interrupted read for ever: a pipe
 * (`--tarball <(zcat x.tar.gz)`) whose writer stalls must still let
 * SIGINT end the run (util/stop.h). */
struct source {
	int fd;
	int seekable; /* a regular file (or block device): skip and seek */
	int interrupted;
	off_t size;
	unsigned char *buf;
};

static la_ssize_t source_read(struct archive *a, void *arg, const void **out)
{
	struct source *s = arg;

	for (;;) {
		ssize_t n = read(s->fd, s->buf, READ_CHUNK);

		if (n >= 0) {
			*out = s->buf;
			return n;
		}
		if (errno != EINTR)
			break;
		if (stop_requested()) {
			s->interrupted = 1;
			break;
		}
	}
	archive_set_error(a, errno, "%s", strerror(errno));
	return -1;
}

/* Skip forward without reading, on a seekable file; 0 (libarchive then
 * reads and drops) otherwise.  Not past the end, as libarchive's own. */
static la_int64_t source_skip(struct archive *a, void *arg, la_int64_t want)
{
	struct source *s = arg;
	off_t cur;

	if (!s->seekable || want <= 0 || (cur = lseek(s->fd, 0, SEEK_CUR)) < 0 || cur >= s->size)
		return 0;
	if (want > s->size - cur)
		want = s->size - cur;
	return lseek(s->fd, (off_t)want, SEEK_CUR) < 0 ? 0 : want;
}

static la_int64_t source_seek(struct archive *a, void *arg, la_int64_t off, int whence)
{
	struct source *s = arg;
	off_t r = lseek(s->fd, (off_t)off, whence);

	if (r < 0) {
		archive_set_error(a, errno, "%s", strerror(errno));
		return ARCHIVE_FATAL;
	}
	return r;
}

/* Open `path` for reading, waiting (a FIFO waits for its writer) until
 * the process is asked to stop.  0, or -errno (-EINTR: stopped). */
static int source_open(struct source *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	do {
		if (stop_requested())
			return -EINTR;
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
	} while (s->fd < 0 && errno == EINTR);
	if (s->fd < 0)
		return -errno;
	if (fstat(s->fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno;

		close(s->fd);
		s->fd = -1;
		return -e;
	}
	if (S_ISREG(st.st_mode)) {
		s->seekable = 1;
		s->size = st.st_size;
	}
	s->buf = xmalloc(READ_CHUNK);
	return 0;
}

static void source_close(struct source *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	s->fd = -1;
	s->buf = NULL;
}

int tarball_load(const char *path, struct replay *r, const struct tarball_sink *sink,
		 uint64_t *data_size, char *err, size_t errlen)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	char *last = NULL; /* the last entry read whole, for messages */
	unsigned char *buf = xmalloc(READ_CHUNK);
	uint64_t off = 0, nentries = 0;
	struct source src = { .fd = -1 };
	int ret = 0, rc;

	archive_read_support_filter_all(a);
	/* Every real archive format, but not mtree (a text description whose
	 * entries read files named in it from the local disk) and not
	 * "empty" (an empty file is no archive). */
	archive_read_support_format_7zip(a);
	archive_read_support_format_ar(a);
	archive_read_support_format_cab(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_iso9660(a);
	archive_read_support_format_lha(a);
	archive_read_support_format_rar(a);
	archive_read_support_format_rar5(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_warc(a);
	archive_read_support_format_xar(a);
	archive_read_support_format_zip(a);
	ret = source_open(&src, path);
	if (ret < 0) {
		if (ret == -EINTR)
			snprintf(err, errlen, "interrupted while opening archive '%s'", path);
		else
			snprintf(err, errlen, "cannot open archive '%s': %s", path, strerror(-ret));
		goto out;
	}
	archive_read_set_read_callback(a, source_read);
	archive_read_set_skip_callback(a, source_skip);
	if (src.seekable)
		archive_read_set_seek_callback(a, source_seek);
	archive_read_set_callback_data(a, &src);
	if (archive_read_open1(a) != ARCHIVE_OK) {
		int e = archive_errno(a);

		/* libarchive's "unrecognized format" (ARCHIVE_ERRNO_FILE_FORMAT)
		 * is EILSEQ on Linux: then its own words say more */
		if (e == EILSEQ || e == EINVAL)
			e = 0;
		if (e > 0)
			snprintf(err, errlen, "cannot open archive '%s': %s", path, strerror(e));
		else
			snprintf(err, errlen, "cannot open archive '%s': %s", path, errstr(a));
		ret = e > 0 ? -e : -EINVAL;
		goto out;
	}
	for (;;) {
		struct replay_entry e = { 0 };
		const char *name;
		uint64_t got = 0;

		rc = archive_read_next_header(a, &ent);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc == ARCHIVE_WARN) {
			msg_warn("archive '%s', entry '%s': %s", path,
				 archive_entry_pathname(ent) ? archive_entry_pathname(ent) : "?",
				 errstr(a));
		} else if (rc != ARCHIVE_OK) {
			if (last)
				snprintf(err, errlen, "cannot read archive '%s' after entry '%s': %s",
					 path, last, errstr(a));
			else
				snprintf(err, errlen, "cannot read archive '%s' at its first entry: %s",
					 path, errstr(a));
			ret = -EINVAL;
			goto out;
		}
		name = archive_entry_pathname(ent);
		if (!name) {
			snprintf(err, errlen, "cannot read archive '%s': the name of the entry after "
				 "'%s' cannot be decoded", path, last ? last : "(none)");
			ret = -EINVAL;
			goto out;
		}
		e.path = name;
		e.mode = (uint32_t)archive_entry_perm(ent);
		e.has_mtime = archive_entry_mtime_is_set(ent);
		e.mtime.tv_sec = archive_entry_mtime(ent);
		e.mtime.tv_nsec = archive_entry_mtime_nsec(ent);
		if (archive_entry_hardlink(ent)) {
			e.type = RPT_HARDLINK;
			e.target = archive_entry_hardlink(ent);
		} else {
			switch (archive_entry_filetype(ent)) {
			case AE_IFREG:
				e.type = RPT_FILE;
				break;
			case AE_IFDIR:
				e.type = RPT_DIR;
				break;
			case AE_IFLNK:
				e.type = RPT_SYMLINK;
				e.target = archive_entry_symlink(ent);
				break;
			default:
				replay_skip(r);
				free(last);
				last = xstrdup(name);
				continue;
			}
		}
		if (e.type == RPT_FILE) {
			e.data = off;
			for (;;) {
				la_ssize_t n = archive_read_data(a, buf, READ_CHUNK);

				if (n == 0)
					break;
				if (n < 0) {
					snprintf(err, errlen,
						 "cannot read archive '%s': entry '%s' is truncated or "
						 "corrupt: %s",
						 path, name, errstr(a));
					ret = -EINVAL;
					goto out;
				}
				if (sink) {
					ret = sink->put(sink->ctx, buf, (size_t)n);
					if (ret < 0) {
						snprintf(err, errlen, "cannot store entry '%s' of '%s'",
							 name, path);
						goto out;
					}
				}
				got += (uint64_t)n;
			}
			if (archive_entry_size_is_set(ent) &&
			    got != (uint64_t)archive_entry_size(ent)) {
				snprintf(err, errlen,
					 "cannot read archive '%s': entry '%s' is truncated (%llu of "
					 "%lld bytes)",
					 path, name, (unsigned long long)got,
					 (long long)archive_entry_size(ent));
				ret = -EINVAL;
				goto out;
			}
			e.size = got;
			off += got;
		}
		ret = replay_add(r, &e, err, errlen);
		if (ret < 0) {
			char *why = xstrdup(err);

			snprintf(err, errlen, "refusing archive '%s': %s", path, why);
			free(why);
			goto out;
		}
		nentries++;
		free(last);
		last = xstrdup(name);
	}
	if (!nentries && !r->st.skipped) {
		snprintf(err, errlen, "archive '%s' has no entries", path);
		ret = -EINVAL;
	}
out:
	if (src.interrupted) {
		/* whatever libarchive made of the failed read: it was the stop */
		snprintf(err, errlen, "interrupted while reading archive '%s'", path);
		ret = -EINTR;
	}
	*data_size = off;
	archive_read_free(a);
	source_close(&src);
	free(buf);
	free(last);
	return ret;
}

#endif
