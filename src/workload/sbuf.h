/*
 * sbuf.h — a growable string buffer for building messages and dumps
 * (internal to workload/).  The buffer is always NUL-terminated; the caller
 * owns sb->s and frees it (or takes it with sbuf_take()).
 */
#ifndef FSGAUGE_WORKLOAD_SBUF_H
#define FSGAUGE_WORKLOAD_SBUF_H

#include <stddef.h>

struct sbuf {
	char *s;
	size_t len, cap;
};

void sbuf_init(struct sbuf *sb);
void sbuf_addn(struct sbuf *sb, const char *s, size_t n);
void sbuf_add(struct sbuf *sb, const char *s);
void sbuf_addc(struct sbuf *sb, char c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL) and resets sb to empty. */
char *sbuf_take(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);

#endif
