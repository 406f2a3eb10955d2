/* test_shquote.c — unit tests for util/shquote.c: each case's line, and
 * the line read back by a real shell gives the words again. */
#include "tap.h"
#include "util/shquote.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The words sh -c reads from line, one per NUL-terminated string in
 * buf; returns how many bytes, or -1 when sh cannot be run. */
static long shell_words(const char *line, char *buf, size_t len)
{
	char *cmd = xasprintf("for w in %s; do printf '%%s\\0' \"$w\"; done", line);
	char *argv[] = { "sh", "-c", cmd, NULL };
	int fd[2], st;
	long got = 0;
	ssize_t r;
	pid_t pid;

	if (pipe(fd) < 0) {
		free(cmd);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv("/bin/sh", argv);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && (r = read(fd[0], buf + got, len - (size_t)got)) > 0)
		got += r;
	close(fd[0]);
	free(cmd);
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return got;
}

static void test_cases(void)
{
	static const struct {
		const char *words[6];
		const char *want;
	} cases[] = {
		{ { "fsgauge", "run", "varmail", NULL }, "fsgauge run varmail" },
		{ { "./fsgauge", "-s", "nthreads=4", "--json", "a/b-1.json", NULL },
		  "./fsgauge -s nthreads=4 --json a/b-1.json" },
		{ { "fsgauge", "--label", "zfs lz4", NULL }, "fsgauge --label 'zfs lz4'" },
		{ { "fsgauge", "", NULL }, "fsgauge ''" },
		{ { "fsgauge", "it's", NULL }, "fsgauge 'it'\\''s'" },
		{ { "fsgauge", "'", NULL }, "fsgauge ''\\'''" },
		{ { "a", "$HOME", "*.json", "x;y", "~", NULL }, "a '$HOME' '*.json' 'x;y' '~'" },
		{ { "a", "<b>&\"c\"", "`d`", "e\\f", NULL }, "a '<b>&\"c\"' '`d`' 'e\\f'" },
		{ { "a", "#c", "x y\tz", NULL }, "a '#c' 'x y\tz'" },
		{ { "a", "caf\xc3\xa9", NULL }, "a 'caf\xc3\xa9'" },
		{ { "a", "user@host:/p,q+r%", NULL }, "a user@host:/p,q+r%" },
		{ { "A=b", "c=d", NULL }, "'A=b' c=d" },
		{ { NULL }, "" },
	};
	char buf[512];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *s = shquote_argv((char *const *)cases[i].words);
		long n;
		size_t off = 0, k = 0;
		int same = 1;

		is_str(s, cases[i].want, "case %zu quoted", i);
		if (!cases[i].words[0]) {
			free(s);
			continue;
		}
		/* the shell gives the words back, none more, none less */
		n = shell_words(s, buf, sizeof(buf));
		for (; same && n >= 0 && cases[i].words[k]; k++) {
			size_t wl = strlen(cases[i].words[k]) + 1;

			same = off + wl <= (size_t)n && !memcmp(buf + off, cases[i].words[k], wl);
			off += wl;
		}
		ok(n >= 0 && same && off == (size_t)n, "case %zu: sh reads back the %zu words", i,
		   k);
		free(s);
	}
}

int main(void)
{
	test_cases();
	return done_testing();
}
