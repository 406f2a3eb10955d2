/* linediff.c — a short unified-style diff of two lists of lines; see linediff.h. */
#include "util/linediff.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Appends "INDENT" C ' ' LINE "\n" (or "INDENT" TEXT "\n" when c is 0) to
 * the growing string *out of *len bytes. */
static void emit(char **out, size_t *len, const char *indent, char c, const char *line)
{
	size_t il = strlen(indent), ll = strlen(line), n = il + (c ? 2 : 0) + ll + 1;
	char *p;

	*out = xrealloc(*out, *len + n + 1);
	p = *out + *len;
	memcpy(p, indent, il);
	p += il;
	if (c) {
		*p++ = c;
		*p++ = ' ';
	}
	memcpy(p, line, ll);
	p[ll] = '\n';
	p[ll + 1] = 0;
	*len += n;
}

/* One step of the edit script: a line of both lists, or of one. */
struct step {
	char op; /* ' ', '-', '+' */
	const char *line;
};

/*
 * The middle a[0..na), b[0..nb) (no common head or tail) into s[]: an
 * alignment by the longest common subsequence when its table fits, else
 * every line of a removed, then every line of b added.  Returns the
 * number of steps written (at most na + nb).
 */
static size_t middle_steps(struct step *s, char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t n = 0, i = 0, j = 0, w = nb + 1;
	uint32_t *t;

	if (na && nb && na <= LINEDIFF_MAX_CELLS / nb) {
		/* t[i][j]: the common subsequence of a[i..] and b[j..] */
		t = xcalloc((na + 1) * w, sizeof(*t));
		for (size_t x = na; x-- > 0;)
			for (size_t y = nb; y-- > 0;)
				t[x * w + y] = !strcmp(a[x], b[y]) ? t[(x + 1) * w + y + 1] + 1
				: t[(x + 1) * w + y] >= t[x * w + y + 1] ? t[(x + 1) * w + y]
									  : t[x * w + y + 1];
		while (i < na && j < nb) {
			if (!strcmp(a[i], b[j])) {
				s[n++] = (struct step){ ' ', a[i] };
				i++, j++;
			} else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) {
				s[n++] = (struct step){ '-', a[i++] };
			} else {
				s[n++] = (struct step){ '+', b[j++] };
			}
		}
		free(t);
	}
	while (i < na)
		s[n++] = (struct step){ '-', a[i++] };
	while (j < nb)
		s[n++] = (struct step){ '+', b[j++] };
	return n;
}

char *linediff(char *const *a, size_t na, char *const *b, size_t nb, size_t context,
	       size_t max, const char *indent, size_t *changed)
{
	size_t head = 0, tail = 0, n = 0, nchanged = 0, shown = 0, last = SIZE_MAX;
	struct step *s;
	char *out = NULL, more[64], *vis;
	size_t outlen = 0;

	while (head < na && head < nb && !strcmp(a[head], b[head]))
		head++;
	while (tail < na - head && tail < nb - head && !strcmp(a[na - 1 - tail], b[nb - 1 - tail]))
		tail++;
	if (changed)
		*changed = 0;
	if (head == na && head == nb)
		return NULL;
	s = xmalloc((na + nb) * sizeof(*s));
	for (size_t i = 0; i < head; i++)
		s[n++] = (struct step){ ' ', a[i] };
	n += middle_steps(s + n, a + head, na - head - tail, b + head, nb - head - tail);
	for (size_t i = na - tail; i < na; i++)
		s[n++] = (struct step){ ' ', a[i] };
	for (size_t k = 0; k < n; k++)
		nchanged += s[k].op != ' ';

	/* vis[k]: the first `max` changes, and unchanged lines within
	 * `context` steps of one of them */
	vis = xcalloc(n ? n : 1, 1);
	for (size_t k = 0; k < n; k++) {
		if (s[k].op == ' ' || (max && shown >= max))
			continue;
		shown++;
		for (size_t d = k >= context ? k - context : 0; d <= k + context && d < n; d++)
			vis[d] |= d == k || s[d].op == ' ';
	}
	for (size_t k = 0; k < n; k++) {
		if (!vis[k])
			continue;
		if (last != SIZE_MAX && k > last + 1)
			emit(&out, &outlen, indent, 0, "...");
		emit(&out, &outlen, indent, s[k].op, s[k].line);
		last = k;
	}
	free(vis);
	if (max && nchanged > max) {
		snprintf(more, sizeof(more), "... (%zu more lines differ)", nchanged - max);
		emit(&out, &outlen, indent, 0, more);
	}
	free(s);
	if (changed)
		*changed = nchanged;
	return out;
}
