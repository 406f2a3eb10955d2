/* test_syscall.c — engine/syscall.h: each inline system call does what
 * the libc function does, returns -errno on failure and leaves errno
 * alone (on x86-64 and AArch64 they bypass libc; elsewhere, and under
 * the sanitizers, they wrap it: the same checks hold for both). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/syscall.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/fsgauge-test-syscall.XXXXXX";
	char buf[16] = "";
	struct stat a, b;
	int dfd, fd;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return done_testing();
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ok(dfd >= 0, "open the test directory");
#ifdef FSG_INLINE_SYSCALLS
	printf("# inline system calls\n");
#else
	printf("# libc system calls\n");
#endif

	errno = 1234;
	is_int(sys_openat(dfd, "missing", O_RDONLY, 0), -ENOENT, "openat of a missing file: -ENOENT");
#ifdef FSG_INLINE_SYSCALLS
	is_int(errno, 1234, "errno untouched");
#endif
	fd = (int)sys_openat(dfd, "f", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ok(fd >= 0, "openat O_CREAT: a descriptor");
	ok(fcntl(fd, F_GETFD) & FD_CLOEXEC, "the flags reach the kernel (O_CLOEXEC set)");
	is_int(sys_openat(dfd, "f", O_RDWR | O_CREAT | O_EXCL, 0600), -EEXIST,
	       "openat O_EXCL of an existing file: -EEXIST");
	is_int(sys_pwrite(fd, "hello, world", 12, 100), 12, "pwrite at 100: 12 bytes");
	is_int(sys_pread(fd, buf, 5, 107), 5, "pread at 107: 5 bytes");
	ok(!memcmp(buf, "world", 5), "and they are the ones written");
	is_int(sys_pread(fd, buf, 16, 112), 0, "pread at end of file: 0");
	is_int(sys_fstatat(dfd, "f", &a, AT_SYMLINK_NOFOLLOW), 0, "fstatat: 0");
	ok(fstat(fd, &b) == 0 && a.st_ino == b.st_ino && a.st_size == 112 &&
		   (a.st_mode & 0777) == 0600,
	   "fstatat fills struct stat as fstat does (ino, size 112, mode 0600)");
	is_int(sys_fstatat(dfd, "missing", &a, 0), -ENOENT, "fstatat of a missing file: -ENOENT");
	is_int(sys_close(fd), 0, "close: 0");
	is_int(sys_close(fd), -EBADF, "close again: -EBADF");
	is_int(sys_pread(fd, buf, 1, 0), -EBADF, "pread of a closed descriptor: -EBADF");
	is_int(sys_mkdirat(dfd, "d", 0700), 0, "mkdirat: 0");
	is_int(sys_mkdirat(dfd, "d", 0700), -EEXIST, "mkdirat again: -EEXIST");
	is_int(sys_unlinkat(dfd, "d", 0), -EISDIR, "unlinkat of a directory without AT_REMOVEDIR: -EISDIR");
	is_int(sys_unlinkat(dfd, "d", AT_REMOVEDIR), 0, "unlinkat AT_REMOVEDIR: 0");
	is_int(sys_unlinkat(dfd, "f", 0), 0, "unlinkat: 0");
	is_int(sys_unlinkat(dfd, "f", 0), -ENOENT, "unlinkat again: -ENOENT");
#ifdef FSG_INLINE_SYSCALLS
	is_int(errno, 1234, "errno still untouched");
#endif
	close(dfd);
	ok(rmdir(dir) == 0, "nothing left in the test directory");
	return done_testing();
}
