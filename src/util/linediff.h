/*
 * linediff.h — the lines that differ between two lists of lines, as a
 * short unified-style diff: the changes in order ("-" for the first list's
 * lines, "+" for the second's), each run of changes with a few unchanged
 * lines around it (" "), runs far apart separated by "...".  Used by
 * compare and report to show how two resolved workloads differ.
 *
 *   size_t changed;
 *   char *d = linediff(a, na, b, nb, 1, 12, "  ", &changed);
 *   if (d) { fputs(d, stderr); free(d); }
 *
 * The lines are compared whole, as strings.  A longest common subsequence
 * gives the alignment; past LINEDIFF_MAX_CELLS cells of its table (the
 * lines left after the common head and tail, multiplied) the remaining
 * middle is shown as removed, then added.
 */
#ifndef FSGAUGE_UTIL_LINEDIFF_H
#define FSGAUGE_UTIL_LINEDIFF_H

#include <stddef.h>

#define LINEDIFF_MAX_CELLS (4u << 20)

/*
 * The diff of a[0..na) and b[0..nb): one line per shown line, each
 * "INDENT" then ' ', '-' or '+' and a space, then the line, ending in a
 * newline; `context` unchanged lines before and after each run of
 * changes; at most `max` changed lines shown (0: all), then
 * "INDENT... (N more lines differ)".  *changed (if not NULL) receives the
 * number of changed lines (removed plus added).  Returns NULL when the
 * lists are equal, else a string the caller frees.
 */
char *linediff(char *const *a, size_t na, char *const *b, size_t nb, size_t context,
	       size_t max, const char *indent, size_t *changed);

#endif
