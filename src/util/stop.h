/*
 * stop.h — whether the process has been asked to stop, for the layers
 * below the runner that retry or wait (the engines' EINTR/EAGAIN retries,
 * the archive reader of `untar --tarball`).
 *
 * The flag belongs to whoever handles the signals (the runner's
 * runner_stop_signal, set by its SIGINT/SIGTERM/SIGHUP handlers); it
 * registers the flag here once, so that an interrupted system call is not
 * simply retried after the user asked to stop, without the engine layer
 * depending on the runner.  Until a flag is registered nothing is ever
 * stopping (unit tests, `list`, `show`).
 *
 *	stop_register(&runner_stop_signal);	// with the signal handlers
 *	...
 *	if (r == -EINTR && stop_requested())
 *		return r;			// the user asked to stop
 */
#ifndef FSGAUGE_STOP_H
#define FSGAUGE_STOP_H

/* Set by stop_register(); read by stop_requested(). */
extern const volatile int *stop_flag;

/* Use *flag (nonzero: stopping) from now on; NULL unregisters.  Call it
 * before starting threads that read it. */
void stop_register(const volatile int *flag);

/* 1 when the registered flag is set, else 0.  Async-signal-safe and
 * cheap: one load of the pointer, one relaxed atomic load of the flag. */
static inline int stop_requested(void)
{
	const volatile int *f = __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);

	return f && __atomic_load_n(f, __ATOMIC_RELAXED) != 0;
}

#endif
