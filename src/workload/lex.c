/* lex.c — tokenizer of the workload language; see lex.h. */
#include "workload/lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void lex_init(struct lexer *lx, const char *text)
{
	lx->p = text;
	lx->line = 1;
	lx->col = 1;
}

static void advance(struct lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

static void skip_space(struct lexer *lx)
{
	for (;;) {
		unsigned char c = (unsigned char)*lx->p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == '#') {
			while (*lx->p && *lx->p != '\n')
				advance(lx);
		} else {
			return;
		}
	}
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Characters of a bare word: names, paths, sizes, cvar parameter lists. */
static int is_word(int c)
{
	return isalnum(c) || c >= 0x80 || (c && strchr("_./-:;~@%+", c));
}

struct token lex_next(struct lexer *lx, enum lex_mode mode)
{
	struct token t;
	unsigned char c;

	skip_space(lx);
	memset(&t, 0, sizeof(t));
	t.start = lx->p;
	t.line = lx->line;
	t.col = lx->col;
	c = (unsigned char)*lx->p;

	switch (c) {
	case '\0':
		t.kind = TOK_EOF;
		return t;
	case '{':
		t.kind = TOK_LBRACE;
		goto one;
	case '}':
		t.kind = TOK_RBRACE;
		goto one;
	case '(':
		t.kind = TOK_LPAREN;
		goto one;
	case ')':
		t.kind = TOK_RPAREN;
		goto one;
	case ',':
		t.kind = TOK_COMMA;
		goto one;
	case '=':
		t.kind = TOK_EQ;
		goto one;
	case '"':
		advance(lx);
		while (*lx->p && *lx->p != '"' && *lx->p != '\n') {
			if (*lx->p == '\\' && lx->p[1] && lx->p[1] != '\n')
				advance(lx);
			advance(lx);
		}
		if (*lx->p != '"') {
			/* Point at the opening quote: that is where the fix goes. */
			t.kind = TOK_ERROR;
			t.msg = "unterminated string";
			t.len = (size_t)(lx->p - t.start);
			return t;
		}
		advance(lx);
		t.kind = TOK_STRING;
		t.len = (size_t)(lx->p - t.start);
		return t;
	case '$': {
		char close = 0;

		advance(lx);
		if (*lx->p == '{' || *lx->p == '(') {
			close = *lx->p == '{' ? '}' : ')';
			advance(lx);
		}
		if (!is_ident_start((unsigned char)*lx->p)) {
			t.kind = TOK_ERROR;
			t.msg = "expected a variable name after '$'";
			t.len = 1;
			return t;
		}
		while (is_ident((unsigned char)*lx->p))
			advance(lx);
		if (close) {
			if (*lx->p != close) {
				t.kind = TOK_ERROR;
				t.msg = close == '}' ? "expected '}' to close '${'" :
						       "expected ')' to close '$('";
				t.len = (size_t)(lx->p - t.start);
				return t;
			}
			advance(lx);
		}
		t.kind = TOK_VAR;
		t.len = (size_t)(lx->p - t.start);
		return t;
	}
	default:
		break;
	}

	if (mode == LEX_EXPR) {
		switch (c) {
		case '+':
			t.kind = TOK_PLUS;
			goto one;
		case '-':
			t.kind = TOK_MINUS;
			goto one;
		case '*':
			t.kind = TOK_STAR;
			goto one;
		case '/':
			t.kind = TOK_SLASH;
			goto one;
		default:
			break;
		}
		if (isdigit(c) || (c == '.' && isdigit((unsigned char)lx->p[1]))) {
			/* Take everything number-like; the parser says what is wrong
			 * with "12q" as a whole rather than lexing "12" then "q". */
			while (is_ident((unsigned char)*lx->p) || *lx->p == '.')
				advance(lx);
			t.kind = TOK_WORD;
			t.len = (size_t)(lx->p - t.start);
			return t;
		}
		if (is_ident_start(c)) {
			while (is_ident((unsigned char)*lx->p))
				advance(lx);
			t.kind = TOK_WORD;
			t.len = (size_t)(lx->p - t.start);
			return t;
		}
	} else if (is_word(c)) {
		while (is_word((unsigned char)*lx->p))
			advance(lx);
		t.kind = TOK_WORD;
		t.len = (size_t)(lx->p - t.start);
		return t;
	}

	t.kind = TOK_ERROR;
	t.msg = "unexpected character";
	t.len = 1;
	return t;

one:
	advance(lx);
	t.len = 1;
	return t;
}

struct token lex_peek(const struct lexer *lx, enum lex_mode mode)
{
	struct lexer copy = *lx;

	return lex_next(&copy, mode);
}

char *lex_text(const struct token *t)
{
	return xstrndup(t->start, t->len);
}

char *lex_var_name(const struct token *t)
{
	const char *s = t->start + 1;
	size_t n = t->len - 1;

	if (n && (*s == '{' || *s == '(')) {
		s++;
		n -= 2;
	}
	return xstrndup(s, n);
}

char *lex_string_value(const struct token *t, lex_lookup_fn lookup, void *ctx)
{
	struct sbuf sb;
	const char *p = t->start + 1, *end = t->start + t->len - 1;

	sbuf_init(&sb);
	while (p < end) {
		if (*p == '\\' && p + 1 < end) {
			switch (p[1]) {
			case 'n':
				sbuf_addc(&sb, '\n');
				break;
			case 't':
				sbuf_addc(&sb, '\t');
				break;
			default: /* \" \\ \$ and anything else: the character itself */
				sbuf_addc(&sb, p[1]);
				break;
			}
			p += 2;
		} else if (*p == '$' && lookup && p + 1 < end &&
			   is_ident_start((unsigned char)p[1])) {
			const char *q = p + 1;

			while (q < end && is_ident((unsigned char)*q))
				q++;
			char *name = xstrndup(p + 1, (size_t)(q - p - 1));
			if (lookup(ctx, name, &sb) < 0)
				sbuf_addn(&sb, p, (size_t)(q - p));
			free(name);
			p = q;
		} else {
			sbuf_addc(&sb, *p++);
		}
	}
	return sbuf_take(&sb);
}

void lex_describe(const struct token *t, char *buf, size_t len)
{
	size_t n = t->len;
	const char *ell = "";

	if (t->kind == TOK_EOF) {
		snprintf(buf, len, "end of file");
		return;
	}
	if (t->kind == TOK_ERROR && t->len == 1) {
		unsigned char c = (unsigned char)*t->start;

		if (isprint(c))
			snprintf(buf, len, "'%c'", c);
		else
			snprintf(buf, len, "byte 0x%02x", c);
		return;
	}
	if (n > 40) {
		n = 37;
		ell = "...";
	}
	snprintf(buf, len, "'%.*s%s'", (int)n, t->start, ell);
}
