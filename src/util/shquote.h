/*
 * shquote.h — a command line as a POSIX shell reads it back: the words
 * that need it in single quotes, so that a recorded argv can be pasted
 * into a shell and runs as it was given.
 *
 *	char *s = shquote_argv(rf->command_line);  // "fsgauge run -s 'x=a b'"
 *	...
 *	free(s);
 *
 * A word made only of letters, digits and "_@%+=:,./-" stays bare
 * (none of them is special to the shell, in any position); any other word
 * goes in single quotes, each ' in it written '\'' (the one character a
 * single-quoted word cannot hold), and so does an empty word ('') and a
 * first word with a '=' (else read as an assignment).  Bytes above
 * 0x7f and control characters are quoted, not escaped: inside single
 * quotes the shell takes every byte as it is.  No I/O.
 */
#ifndef FSGAUGE_SHQUOTE_H
#define FSGAUGE_SHQUOTE_H

/* The NULL-terminated argv as one line, words quoted as above and
 * separated by one space ("" for an empty argv).  The caller frees it;
 * dies on out of memory. */
char *shquote_argv(char *const *argv);

#endif
