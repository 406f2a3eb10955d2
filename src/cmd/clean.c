/*
 * clean.c — `fsgauge clean [DIR] [--dry-run]`: find the run directories
 * that runs killed with SIGKILL or by the OOM killer left in DIR, and
 * remove those whose run is over.
 *
 * A directory is only considered when it is named fsgauge-*, sits
 * directly in DIR, is owned by us, has mode 0700 and carries a marker
 * naming the run (util/rundir.h).  Its run is over when it ran on this
 * host and its process is gone: no process with that pid, or one with
 * another start time, or a reboot since (another boot id).  A live run,
 * one on another host or in another pid namespace, and a directory kept
 * on purpose (--keep, verify --write-only) are never touched.  Removal is
 * rundir_remove()'s: no symbolic link followed, no other file system
 * entered.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "suite/options.h"
#include "util/rundir.h"
#include "util/util.h"

static const struct suite_opt clean_opts[] = {
	{ "dry-run", 'n', 'n', OPTARG_NONE, NULL, "list what would be removed, remove nothing" },
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

static void clean_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge clean [DIR] [options]\n"
		"\n"
		"Lists the run directories (fsgauge-*) directly in DIR (default: $TMPDIR or\n"
		"/tmp) and removes those whose run is over: made on this host by a process\n"
		"that no longer runs (killed, out of memory, or before a reboot).  One line\n"
		"per directory: removed, would remove (--dry-run) or kept, with the reason.\n"
		"\n"
		"Never touched: a directory whose run is still going, one made on another\n"
		"host or in another pid namespace (it cannot be checked from here), one kept\n"
		"on purpose (--keep, verify --write-only), and any directory without a valid\n"
		"marker, not owned by you or not of mode 0700.  Removal follows no symbolic\n"
		"link and enters no other file system.\n"
		"\n"
		"options:\n");
	opt_help_table(f, clean_opts);
	fprintf(f, "\n"
		"exit status: 0 all went well (kept directories included), 1 a directory\n"
		"could not be removed completely, 2 usage error, 3 DIR cannot be read.\n");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The fsgauge-* names in directory dfd, sorted; NULL-terminated, caller
 * frees.  -errno on a read error. */
static int list_runs(int dfd, char ***out, size_t *n)
{
	int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d) {
		int e = -errno;

		if (fd >= 0)
			close(fd);
		return e;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "fsgauge-", 8))
			continue;
		if (*n + 2 > cap) {
			cap = cap ? 2 * cap : 16;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = xstrdup(de->d_name);
		errno = 0;
	}
	if (errno) {
		int e = -errno;

		closedir(d);
		for (size_t i = 0; i < *n; i++)
			free(v[i]);
		free(v);
		return e;
	}
	closedir(d);
	if (!v)
		v = xcalloc(1, sizeof(*v));
	v[*n] = NULL;
	qsort(v, *n, sizeof(*v), cmp_str);
	*out = v;
	return 0;
}

/* Whether the run directory `name` in dfd is one to remove; `why` says
 * why (either way).  1: its run is over; 0: keep it. */
static int stale(int dfd, const char *name, char *why, size_t len, struct stat *st)
{
	struct rundir_owner o;
	int fd, r;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOTDIR || errno == ELOOP)
			snprintf(why, len, "not a directory");
		else
			snprintf(why, len, "cannot open it: %s", strerror(errno));
		return 0;
	}
	r = 0;
	if (fstat(fd, st) < 0) {
		snprintf(why, len, "cannot stat it: %s", strerror(errno));
	} else if (st->st_uid != geteuid()) {
		snprintf(why, len, "owned by uid %ld, not by you (uid %ld)", (long)st->st_uid,
			 (long)geteuid());
	} else if ((st->st_mode & 07777) != 0700) {
		snprintf(why, len, "mode %04o, not 0700: not made as a run directory",
			 (unsigned)(st->st_mode & 07777));
	} else if ((r = rundir_marker_read(fd, &o)) < 0) {
		if (r == -ENOENT)
			snprintf(why, len, "no %s marker", RUNDIR_MARKER);
		else if (r == -ENODATA)
			snprintf(why, len,
				 "its marker names no host and start time (an older fsgauge's): "
				 "whether its run is over cannot be told");
		else
			snprintf(why, len, "%s is not a valid marker", RUNDIR_MARKER);
		r = 0;
	} else if (o.uid != (long)geteuid()) {
		snprintf(why, len, "its marker names uid %ld, not yours", o.uid);
	} else if (o.kept) {
		snprintf(why, len, "kept on purpose by its run (--keep or verify --write-only)");
	} else {
		r = rundir_owner_alive(&o, why, len) == 0;
	}
	close(fd);
	return r;
}

int cmd_clean(int argc, char **argv)
{
	struct opt_parser p;
	const char *arg;
	const char *dir;
	char **names = NULL, why[512];
	size_t n = 0;
	int c, dfd, r, dry = 0, ret = EXIT_OK;

	opt_parser_init(&p, argv[0], 0, clean_opts, NULL, 0);
	while ((c = opt_next(&p, argc, argv, &arg)) > 0 && c != 'h')
		dry = 1; /* -n, the one option besides --help */
	opt_parser_free(&p);
	if (c < 0)
		return EXIT_USAGE;
	if (c == 'h') {
		clean_usage(stdout);
		return EXIT_OK;
	}
	if (argc - optind > 1) {
		msg_err("unexpected argument '%s'", argv[optind + 1]);
		return EXIT_USAGE;
	}
	dir = optind < argc ? argv[optind] : rundir_default_parent();
	if (!*dir) {
		msg_err("empty directory name");
		return EXIT_USAGE;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err_errno(-errno, "cannot open directory '%s'", dir);
		return EXIT_SYSTEM;
	}
	r = list_runs(dfd, &names, &n);
	if (r < 0) {
		err_errno(r, "cannot read directory '%s'", dir);
		close(dfd);
		return EXIT_SYSTEM;
	}
	if (!n)
		printf("no fsgauge run directories in '%s'\n", dir);
	for (size_t i = 0; i < n; i++) {
		const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
		char *path = xasprintf("%s%s%s", dir, sep, names[i]);
		struct stat st, st2;
		struct rundir rd;

		if (!stale(dfd, names[i], why, sizeof(why), &st)) {
			printf("kept %s: %s\n", path, why);
		} else if (dry) {
			printf("would remove %s (%s)\n", path, why);
		} else if (rundir_adopt(&rd, path) < 0) {
			printf("not removed %s: it cannot be taken over (see above)\n", path);
			ret = EXIT_RUN_ERRORS;
		} else if (fstat(rd.fd, &st2) < 0 || st2.st_dev != st.st_dev ||
			   st2.st_ino != st.st_ino) {
			/* replaced between the look and the take-over */
			rundir_release(&rd);
			printf("kept %s: it changed while being looked at\n", path);
		} else if (rundir_remove(&rd) < 0) {
			printf("not removed %s: see the error above\n", path);
			ret = EXIT_RUN_ERRORS;
		} else {
			printf("removed %s (%s)\n", path, why);
		}
		fflush(stdout);
		free(path);
		free(names[i]);
	}
	free(names);
	close(dfd);
	return ret;
}
