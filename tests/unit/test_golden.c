/*
 * test_golden.c — every tests/golden/NAME.f parses and dumps exactly to
 * tests/golden/NAME.out; every built-in personality parses (and matches
 * tests/golden/builtin/NAME.out when that file exists).
 *
 * Paths are relative to the working directory: `make check` runs from the
 * repository root.  FSGAUGE_UPDATE_GOLDEN=1 rewrites the .out files
 * instead of comparing (review the diff before committing them).
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "workload/builtin.h"
#include "workload/workload.h"

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	int ok_ = f && fputs(text, f) >= 0;

	if (f && fclose(f) != 0)
		ok_ = 0;
	return ok_;
}

/* Report the first differing line, so a failure says what changed. */
static void show_diff(const char *got, const char *want)
{
	int line = 1;

	while (*got && *want && *got == *want) {
		if (*got == '\n')
			line++;
		got++;
		want++;
	}
	while (line > 1 && got[-1] != '\n') {
		got--;
		want--;
	}
	printf("#   first difference at line %d\n#   got:  %.*s\n#   want: %.*s\n", line,
	       (int)strcspn(got, "\n"), got, (int)strcspn(want, "\n"), want);
}

static void check(const char *name, const char *text, const char *out_path, int update)
{
	struct workload *w;
	struct wl_error err;
	char *dump, *want;

	if (!ok(workload_parse(text, name, NULL, 0, &w, &err) == 0, "%s parses", name)) {
		printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		return;
	}
	dump = workload_dump(w);
	workload_free(w);
	if (update) {
		ok(write_file(out_path, dump), "%s: wrote %s", name, out_path);
		free(dump);
		return;
	}
	want = read_file(out_path);
	if (!want) {
		ok(0, "%s: %s exists", name, out_path);
	} else if (!ok(strcmp(dump, want) == 0, "%s dumps as %s", name, out_path)) {
		show_diff(dump, want);
	}
	free(want);
	free(dump);
}

int main(void)
{
	const char *upd = getenv("FSGAUGE_UPDATE_GOLDEN");
	int update = upd && *upd && strcmp(upd, "0") != 0;
	glob_t g;

	if (glob("tests/golden/*.f", 0, NULL, &g) != 0) {
		printf("1..0 # SKIP no tests/golden/*.f here (run from the repository root)\n");
		return 0;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		const char *base = strrchr(path, '/') + 1;
		char *text = read_file(path);
		char out[4096];

		if (!ok(text != NULL, "read %s", path))
			continue;
		snprintf(out, sizeof(out), "%.*s.out", (int)(strlen(path) - 2), path);
		check(base, text, out, update);
		free(text);
	}
	globfree(&g);

	for (const struct builtin_workload *b = builtin_workloads; b->name; b++) {
		char out[4096];
		FILE *f;

		snprintf(out, sizeof(out), "tests/golden/builtin/%s.out", b->name);
		f = fopen(out, "r");
		if (f || (update && stat("tests/golden/builtin", &(struct stat){ 0 }) == 0)) {
			if (f)
				fclose(f);
			check(b->name, b->text, out, update);
		} else {
			struct workload *w;
			struct wl_error err;

			if (!ok(workload_parse(b->text, b->name, NULL, 0, &w, &err) == 0,
				"built-in %s parses", b->name))
				printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
			else
				workload_free(w);
		}
	}
	return done_testing();
}
