/* shquote.c — a command line as a shell reads it back; see shquote.h. */
#include "util/shquote.h"

#include <string.h>

#include "util/util.h"

/* 1 when the shell reads c as itself wherever it stands in a word. */
static int bare_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_@%+=:,./-", c) != NULL;
}

/* first: the command's word, where "a=b" would be read as an assignment */
static int needs_quotes(const char *w, int first)
{
	if (!*w || (first && strchr(w, '=')))
		return 1;
	for (const unsigned char *p = (const unsigned char *)w; *p; p++)
		if (!bare_char(*p))
			return 1;
	return 0;
}

/* Writes word w (the first word when first), quoted when it needs it, at o (when o is not NULL);
 * returns the bytes it takes. */
static size_t put_word(char *o, const char *w, int first)
{
	size_t n = 0;

	if (!needs_quotes(w, first)) {
		n = strlen(w);
		if (o)
			memcpy(o, w, n);
		return n;
	}
	if (o)
		o[n] = '\'';
	n++;
	for (const char *p = w; *p; p++) {
		if (*p == '\'') {
			/* end the quotes, an escaped quote, quote again */
			if (o)
				memcpy(o + n, "'\\''", 4);
			n += 4;
			continue;
		}
		if (o)
			o[n] = *p;
		n++;
	}
	if (o)
		o[n] = '\'';
	return n + 1;
}

char *shquote_argv(char *const *argv)
{
	size_t len = 0, n = 0;
	char *s;

	for (size_t i = 0; argv[i]; i++)
		len += (i > 0) + put_word(NULL, argv[i], i == 0);
	s = xmalloc(len + 1);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			s[n++] = ' ';
		n += put_word(s + n, argv[i], i == 0);
	}
	s[n] = 0;
	return s;
}
