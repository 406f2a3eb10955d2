/*
 * human.h — numbers as people read them in reports: bytes in binary units
 * ("16 KiB", "1 MiB", "23.5 GiB") and times in the unit that keeps them
 * between 1 and 1000 ("850 ns", "12.3 µs", "4.56 ms", "1.23 s").
 *
 * Unlike size_format() (util/size.h), which is exact so that a size it
 * prints parses back to the same bytes, these round to 3 significant
 * digits: they are for reading, never for parsing.  µ is UTF-8.
 *
 *	char b[HUMAN_BUF];
 *	fprintf(f, "%s", human_ns(p99_us * 1e3, b, sizeof(b)));
 *
 * No I/O, no allocation.
 */
#ifndef FSGAUGE_HUMAN_H
#define FSGAUGE_HUMAN_H

#include <stddef.h>

/* Enough for any value either function writes. */
#define HUMAN_BUF 32

/* Bytes: below 1024 "512 B", else the largest binary unit (KiB ... EiB)
 * that leaves at least 1, a whole number when exact ("1 MiB"), else 3
 * significant digits ("1.25 MiB", "23.5 GiB").  "-" for a value that is
 * negative or not finite.  Returns buf. */
const char *human_bytes(double bytes, char *buf, size_t len);

/* Nanoseconds: "0", "850 ns", "12.3 µs", "4.56 ms", "1.23 s" (3
 * significant digits, trailing zeros dropped; seconds beyond 999 as a
 * whole number, "3600 s").  "-" for a value that is negative or not
 * finite.  Returns buf. */
const char *human_ns(double ns, char *buf, size_t len);

#endif
