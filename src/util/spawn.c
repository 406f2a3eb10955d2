/* spawn.c — run a helper command and capture its output; see spawn.h. */
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

int spawn_which(const char *cmd, char *buf, size_t len)
{
	const char *p = getenv("PATH");
	char dirs[4096], *save;

	snprintf(dirs, sizeof(dirs), "%s", p && *p ? p : "/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(buf, len, "%s/%s", d, cmd) >= (int)len)
			continue;
		if (access(buf, X_OK) == 0)
			return 0;
	}
	buf[0] = 0;
	return -ENOENT;
}

int spawn_capture(char *const argv[], char *buf, size_t len)
{
	int pfd[2], status = 0;
	size_t got = 0;
	pid_t pid;

	buf[0] = 0;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(pfd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char tmp[4096];
		ssize_t n = read(pfd[0], tmp, sizeof(tmp));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got + 1 < len) {
			size_t c = MIN((size_t)n, len - 1 - got);

			memcpy(buf + got, tmp, c);
			got += c;
		}
	}
	buf[got] = 0;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}
