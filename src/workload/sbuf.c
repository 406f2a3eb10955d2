/* sbuf.c — growable string buffer; see sbuf.h. */
#include "workload/sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void sbuf_init(struct sbuf *sb)
{
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

static void sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	sb->s = xrealloc(sb->s, cap);
	sb->cap = cap;
}

void sbuf_addn(struct sbuf *sb, const char *s, size_t n)
{
	sbuf_grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sbuf_add(struct sbuf *sb, const char *s)
{
	sbuf_addn(sb, s, strlen(s));
}

void sbuf_addc(struct sbuf *sb, char c)
{
	sbuf_addn(sb, &c, 1);
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	sbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *sbuf_take(struct sbuf *sb)
{
	char *s = sb->s ? sb->s : xstrdup("");

	sbuf_init(sb);
	return s;
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->s);
	sbuf_init(sb);
}
