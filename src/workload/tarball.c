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
#include <sys/stat.h>

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

int tarball_load(const char *path, struct replay *r, const struct tarball_sink *sink,
		 uint64_t *data_size, char *err, size_t errlen)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	char *last = NULL; /* the last entry read whole, for messages */
	unsigned char *buf = xmalloc(READ_CHUNK);
	uint64_t off = 0, nentries = 0;
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
	if (archive_read_open_filename(a, path, READ_CHUNK) != ARCHIVE_OK) {
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
	*data_size = off;
	archive_read_free(a);
	free(buf);
	free(last);
	return ret;
}

#endif
