/*
 * syscall.h — the system calls on the per-operation path, issued inline.
 *
 * glibc's pread() and friends are a function call around the `syscall`
 * instruction, and in a multi-threaded process also two calls that make
 * the thread asynchronously cancellable for its duration.  What costs is
 * the return: coming back from the kernel, a `ret` is mispredicted (the
 * kernel's own calls have overwritten the return-stack predictor), and on
 * the machine fsgauge was measured on the first such return cost a few
 * percent of a cached 4 KiB pread (bench/overhead.sh; the figures are in
 * docs/measurements/2026-11-30-overhead-vs-bare-loop.md).  So on x86-64
 * and AArch64 the
 * psync engine issues pread/pwrite/openat/close/unlinkat/mkdirat/fstatat
 * itself, inline
 * in the code that times them: nothing to return through between the
 * kernel and the clock read.
 *
 * Under AddressSanitizer or ThreadSanitizer the libc functions are used,
 * so that their interceptors see the buffers and descriptors; elsewhere
 * too (other architectures).  Every function returns the result or
 * -errno (the inline ones leave errno alone).
 */
#ifndef FSGAUGE_ENGINE_SYSCALL_H
#define FSGAUGE_ENGINE_SYSCALL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FSG_LIBC_SYSCALLS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FSG_LIBC_SYSCALLS 1
#endif
#endif

#if !defined(FSG_LIBC_SYSCALLS) && defined(__x86_64__)
#define FSG_INLINE_SYSCALLS 1

static inline long fsg_syscall4(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif !defined(FSG_LIBC_SYSCALLS) && defined(__aarch64__)
#define FSG_INLINE_SYSCALLS 1

static inline long fsg_syscall4(long n, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}
#endif

#ifdef FSG_INLINE_SYSCALLS
static inline int64_t sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return fsg_syscall4(SYS_pread64, fd, (long)buf, (long)len, (long)off);
}

static inline int64_t sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return fsg_syscall4(SYS_pwrite64, fd, (long)buf, (long)len, (long)off);
}

static inline int64_t sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return fsg_syscall4(SYS_openat, dirfd, (long)path, flags, (long)mode);
}

static inline int64_t sys_close(int fd)
{
	return fsg_syscall4(SYS_close, fd, 0, 0, 0);
}

static inline int64_t sys_unlinkat(int dirfd, const char *path, int flags)
{
	return fsg_syscall4(SYS_unlinkat, dirfd, (long)path, flags, 0);
}

static inline int64_t sys_mkdirat(int dirfd, const char *path, mode_t mode)
{
	return fsg_syscall4(SYS_mkdirat, dirfd, (long)path, (long)mode, 0);
}

/* struct stat is the kernel's on both architectures (64-bit) */
static inline int64_t sys_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return fsg_syscall4(SYS_newfstatat, dirfd, (long)path, (long)st, flags);
}
#else
static inline int64_t sys_ret(int64_t r)
{
	return r < 0 ? -errno : r;
}

static inline int64_t sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return sys_ret(pread(fd, buf, len, (off_t)off));
}

static inline int64_t sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return sys_ret(pwrite(fd, buf, len, (off_t)off));
}

static inline int64_t sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return sys_ret(openat(dirfd, path, flags, mode));
}

static inline int64_t sys_close(int fd)
{
	return sys_ret(close(fd));
}

static inline int64_t sys_unlinkat(int dirfd, const char *path, int flags)
{
	return sys_ret(unlinkat(dirfd, path, flags));
}

static inline int64_t sys_mkdirat(int dirfd, const char *path, mode_t mode)
{
	return sys_ret(mkdirat(dirfd, path, mode));
}

static inline int64_t sys_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return sys_ret(fstatat(dirfd, path, st, flags));
}
#endif

#endif
