/* options.c — option tables to getopt and to --help; see options.h. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/options.h"
#include "util/util.h"

static void add(struct opt_parser *p, const struct suite_opt *o, int letter)
{
	p->all = xrealloc(p->all, (p->nall + 1) * sizeof(*p->all));
	p->all[p->nall] = *o;
	p->all[p->nall].letter = letter;
	p->nall++;
}

static int own_letter(const struct suite_opt *own, int letter)
{
	for (; own && own->key; own++)
		if (own->letter == letter)
			return 1;
	return 0;
}

void opt_parser_init(struct opt_parser *p, const char *prog, unsigned flags,
		     const struct suite_opt *own, const struct suite_opt *const *shared,
		     size_t nshared)
{
	size_t nl = 0, ns;

	memset(p, 0, sizeof(*p));
	p->prog = prog;
	for (const struct suite_opt *o = own; o && o->key; o++)
		add(p, o, o->letter);
	for (size_t i = 0; i < nshared; i++)
		add(p, shared[i], own_letter(own, shared[i]->letter) ? 0 : shared[i]->letter);

	/* ':' first: a missing argument is ':' and not '?', and getopt
	 * prints nothing (opterr is cleared too) */
	p->shortopts = xmalloc(3 * p->nall + 3);
	ns = 0;
	if (flags & OPTP_IN_ORDER)
		p->shortopts[ns++] = '+';
	p->shortopts[ns++] = ':';
	p->longopts = xcalloc(p->nall + 1, sizeof(*p->longopts));
	for (size_t i = 0; i < p->nall; i++) {
		const struct suite_opt *o = &p->all[i];
		int has = o->arg == OPTARG_REQUIRED   ? required_argument
			  : o->arg == OPTARG_OPTIONAL ? optional_argument
						      : no_argument;

		if (o->letter) {
			p->shortopts[ns++] = (char)o->letter;
			if (has != no_argument)
				p->shortopts[ns++] = ':';
			if (has == optional_argument)
				p->shortopts[ns++] = ':';
		}
		if (o->name)
			p->longopts[nl++] = (struct option){ o->name, has, NULL, o->key };
	}
	p->shortopts[ns] = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed bundle */
	opterr = 0;
}

const struct suite_opt *opt_find(const struct opt_parser *p, int key)
{
	for (size_t i = 0; i < p->nall; i++)
		if (p->all[i].key == key)
			return &p->all[i];
	return NULL;
}

static const struct suite_opt *by_letter(const struct opt_parser *p, int letter)
{
	for (size_t i = 0; i < p->nall; i++)
		if (p->all[i].letter == letter)
			return &p->all[i];
	return NULL;
}

const char *opt_spelling(const struct suite_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->letter);
	return buf;
}

/* What the user typed for the option getopt just refused: the word
 * itself for a long option ("--frob", "--json"), "-X" for a short one. */
static void offending(char *buf, size_t len, int argc, char **argv, int letter)
{
	const char *w = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;

	if (w && w[0] == '-' && w[1] == '-') {
		size_t n = strcspn(w, "=");

		snprintf(buf, len, "%.*s", (int)MIN(n, (size_t)200), w);
	} else {
		snprintf(buf, len, "-%c", letter > 0 && letter < 0x80 ? letter : '?');
	}
}

int opt_next(struct opt_parser *p, int argc, char **argv, const char **arg)
{
	int idx = -1, c = getopt_long(argc, argv, p->shortopts, p->longopts, &idx);
	char word[256];

	*arg = NULL;
	if (c == -1)
		return 0;
	if (c == '?') {
		const char *w = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
		const char *why = p->unknown && w ? p->unknown(w) : NULL;

		if (why) {
			fprintf(stderr, "%s: %s\n", p->prog, why);
			return -1;
		}
		offending(word, sizeof(word), argc, argv, optopt);
		fprintf(stderr, "%s: unrecognized option '%s' (try '%s --help')\n", p->prog, word,
			p->prog);
		return -1;
	}
	if (c == ':') {
		const struct suite_opt *o = optopt >= OPT_OWN ? opt_find(p, optopt)
							      : by_letter(p, optopt);
		char sp[128];

		if (o)
			opt_spelling(o, sp, sizeof(sp));
		else
			offending(sp, sizeof(sp), argc, argv, optopt);
		fprintf(stderr, "%s: option '%s' needs an argument (try '%s --help')\n", p->prog,
			sp, p->prog);
		return -1;
	}
	if (c < OPT_OWN) {
		/* a short letter: the option's key */
		const struct suite_opt *o = by_letter(p, c);

		c = o ? o->key : c;
	}
	*arg = optarg;
	return c;
}

void opt_parser_free(struct opt_parser *p)
{
	free(p->all);
	free(p->longopts);
	free(p->shortopts);
	memset(p, 0, sizeof(*p));
}

#define HELP_COLUMN 25

void opt_help(FILE *f, const struct suite_opt *options, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct suite_opt *o = &options[i];
		char head[160];
		int len = 0;
		const char *h = o->help ? o->help : "";

		if (o->letter && o->name)
			len = snprintf(head, sizeof(head), "  -%c, --%s", o->letter, o->name);
		else if (o->letter)
			len = snprintf(head, sizeof(head), "  -%c", o->letter);
		else
			len = snprintf(head, sizeof(head), "      --%s", o->name);
		if (o->argname && len < (int)sizeof(head))
			len += snprintf(head + len, sizeof(head) - len,
					o->arg == OPTARG_OPTIONAL ? (o->name ? "[=%s]" : "[%s]")
								  : " %s",
					o->argname);
		fputs(head, f);
		if (len + 1 >= HELP_COLUMN) {
			fputc('\n', f);
			len = 0;
		}
		/* the text, each line at the help column */
		for (;;) {
			size_t l = strcspn(h, "\n");

			fprintf(f, "%*s%.*s\n", HELP_COLUMN - len, "", (int)l, h);
			len = 0;
			if (!h[l])
				break;
			h += l + 1;
		}
	}
}

void opt_help_table(FILE *f, const struct suite_opt *table)
{
	size_t n = 0;

	while (table[n].key)
		n++;
	opt_help(f, table, n);
}
