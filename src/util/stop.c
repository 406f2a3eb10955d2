/* stop.c — the registered stop flag; see stop.h. */
#include "util/stop.h"

#include <stddef.h>

const volatile int *stop_flag;

void stop_register(const volatile int *flag)
{
	__atomic_store_n(&stop_flag, flag, __ATOMIC_RELAXED);
}
