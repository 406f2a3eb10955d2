/*
 * lex.h — the tokenizer of the workload language (internal to workload/).
 *
 * The language is free-form like filebench's: newlines are white space,
 * `#` starts a comment, and commands are recognised by their keywords.
 * Tokens do not own memory: they point into the text, so peeking is just
 * copying the lexer.  Two modes, chosen by the parser per token, because
 * `/tmp` is a word in an attribute but `$a / 2` is a division in `set`:
 *
 *   LEX_WORD  words may contain letters, digits and _ . / - : ; ~ @ % +
 *   LEX_EXPR  + - * / are operators; words are identifiers or numbers
 *
 * Both modes: "strings", $var (or ${var}), { } ( ) , =.
 */
#ifndef FSGAUGE_WORKLOAD_LEX_H
#define FSGAUGE_WORKLOAD_LEX_H

#include <stddef.h>

#include "workload/sbuf.h"

enum lex_mode {
	LEX_WORD,
	LEX_EXPR,
};

enum tok_kind {
	TOK_EOF,
	TOK_WORD,
	TOK_VAR,
	TOK_STRING,
	TOK_LBRACE,
	TOK_RBRACE,
	TOK_LPAREN,
	TOK_RPAREN,
	TOK_COMMA,
	TOK_EQ,
	TOK_PLUS,
	TOK_MINUS,
	TOK_STAR,
	TOK_SLASH,
	TOK_ERROR, /* msg says what is wrong; line/col point at it */
};

struct token {
	enum tok_kind kind;
	const char *start; /* the token as written (strings with their quotes) */
	size_t len;
	int line, col;	   /* 1-based */
	const char *msg;   /* TOK_ERROR */
};

struct lexer {
	const char *p;
	int line, col;
};

void lex_init(struct lexer *lx, const char *text);
struct token lex_next(struct lexer *lx, enum lex_mode mode);
/* The next token without consuming it. */
struct token lex_peek(const struct lexer *lx, enum lex_mode mode);

/* Copy of the token text; caller frees. */
char *lex_text(const struct token *t);
/* TOK_VAR: the variable name without '$' or braces; caller frees. */
char *lex_var_name(const struct token *t);

/*
 * TOK_STRING: the contents with escapes decoded (\" \\ \$ \n \t).  When
 * lookup is not NULL, an unescaped $name is replaced by what lookup appends
 * to out (it returns 0), or kept as written when lookup returns -1.
 * Caller frees.
 */
typedef int (*lex_lookup_fn)(void *ctx, const char *name, struct sbuf *out);
char *lex_string_value(const struct token *t, lex_lookup_fn lookup, void *ctx);

/* A short description for messages: "','", "'thread'", "end of file". */
void lex_describe(const struct token *t, char *buf, size_t len);

#endif
