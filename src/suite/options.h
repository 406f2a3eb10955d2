/*
 * options.h — a command's options declared once, as a table, and
 * everything derived from it: the getopt_long() tables, the --help text
 * (so help lists exactly what the command accepts), and one message style
 * for an option that is not accepted:
 *
 *   fsgauge run: unrecognized option '--frob' (try 'fsgauge run --help')
 *   fsgauge run: option '--json' needs an argument (try 'fsgauge run --help')
 *
 * and, from the suites' own checks, one style for a bad value:
 *
 *   fsgauge: invalid --repeat 'x' (expected a whole number from 1 to 1000)
 *
 * A table is an array of struct suite_opt ending with an entry whose key
 * is 0.  An option's key is what the parser returns for it: its short
 * letter, or an id of the command's own from OPT_OWN up.
 *
 *	static const struct suite_opt opts[] = {
 *		{ "files", 'n', 'n', OPTARG_REQUIRED, "N", "number of files (default 4)" },
 *		{ "write-only", 0, OPT_OWN + 1, OPTARG_NONE, NULL, "write and keep" },
 *		{ 0 },
 *	};
 *	struct opt_parser p;
 *	opt_parser_init(&p, "fsgauge verify", 0, opts, NULL, 0);
 *	while ((c = opt_next(&p, argc, argv, &arg)) > 0) ...
 *	if (c < 0) return EXIT_USAGE;	// message printed
 *	opt_parser_free(&p);
 */
#ifndef FSGAUGE_SUITE_OPTIONS_H
#define FSGAUGE_SUITE_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

enum optarg_kind {
	OPTARG_NONE = 0,
	OPTARG_REQUIRED,
	OPTARG_OPTIONAL, /* --name=VALUE only (getopt's optional argument) */
};

/* The first key of a command's own long-only options. */
#define OPT_OWN 0x100
/* Keys of the shared options (suite/suite.h): above every command's own. */
#define OPT_SHARED 0x1000

struct suite_opt {
	const char *name;      /* long name without "--"; NULL: short letter only */
	int letter;	       /* short option letter, or 0 */
	int key;	       /* what opt_next() returns; 0 ends the table */
	enum optarg_kind arg;
	const char *argname;   /* "DIR", "N[:MAX]"; NULL without an argument */
	const char *help;      /* help text; a '\n' starts a continuation line */
};

struct opt_parser {
	const char *prog;	     /* "fsgauge run": messages begin with it */
	struct suite_opt *all; /* the options accepted, in table order (copies:
				* a shared option may have lost its letter) */
	size_t nall;
	struct option *longopts;
	char *shortopts;
	/* an option that is not accepted, as typed ("--frob=1"): a message
	 * to print instead of "unrecognized option" (fsgauge io names fio's
	 * options it does not support), or NULL; set after init */
	const char *(*unknown)(const char *word);
};

/* Parse with the options of `own` and then `shared` (either may be NULL);
 * an option of `shared` whose short letter `own` also uses keeps only its
 * long name.  `flags`: OPTP_IN_ORDER stops at the first non-option ('+':
 * "-f 20" may then take the next word as the option's argument). */
#define OPTP_IN_ORDER 1u
void opt_parser_init(struct opt_parser *p, const char *prog, unsigned flags,
		     const struct suite_opt *own, const struct suite_opt *const *shared,
		     size_t nshared);
/* The next option's key (> 0) with *arg its argument (NULL when none);
 * 0 at the end (the operands start at optind); -1 after printing the
 * unrecognized-option or missing-argument message. */
int opt_next(struct opt_parser *p, int argc, char **argv, const char **arg);
void opt_parser_free(struct opt_parser *p);

/* The accepted option of key `key`, or NULL. */
const struct suite_opt *opt_find(const struct opt_parser *p, int key);
/* "--name" or "-c" as the user would write option `o`. */
const char *opt_spelling(const struct suite_opt *o, char *buf, size_t len);

/* Help lines for options[0..n): "  -d, --dir DIR          text", the text
 * at column 25 (on the next line when the option is longer). */
void opt_help(FILE *f, const struct suite_opt *options, size_t n);
/* The same for a whole table (up to its 0 key): a command's --help lists
 * exactly the options it parses. */
void opt_help_table(FILE *f, const struct suite_opt *table);

#endif
