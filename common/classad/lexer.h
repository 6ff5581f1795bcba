/*
 * lexer.h: the ClassAd tokenizer, shared by the expression, ad and JSON
 * parsers of this folder (internal).
 */
#ifndef CA_LEXER_H
#define CA_LEXER_H

#include "classad_int.h"

enum ca_tok {
	T_END,
	T_ERROR,
	T_INT,
	T_REAL,
	T_BOOL,
	T_STRING,
	T_UNDEF,
	T_ERRLIT,
	T_IDENT,
	T_DOT,
	T_MUL,
	T_DIV,
	T_MOD,
	T_PLUS,
	T_MINUS,
	T_BITAND,
	T_BITOR,
	T_BITNOT,
	T_BITXOR,
	T_LSHIFT,
	T_RSHIFT,
	T_URSHIFT,
	T_AND,
	T_OR,
	T_NOT,
	T_LT,
	T_LE,
	T_GT,
	T_GE,
	T_EQ,
	T_NE,
	T_META_EQ,
	T_META_NE,
	T_ASSIGN,
	T_QMARK,
	T_ELVIS,
	T_COLON,
	T_SEMI,
	T_COMMA,
	T_LBOX,
	T_RBOX,
	T_LPAREN,
	T_RPAREN,
	T_LBRACE,
	T_RBRACE,
};

struct ca_token {
	int type;
	size_t start; /* offset of the token's first byte */
	int64_t i;
	double r;
	bool b;
	bool quoted_expr;  /* JSON: a "\/Expr(...)\/" string */
	struct ca_str *s;  /* T_STRING, T_IDENT: owned by the lexer */
	const char *why;   /* T_ERROR: what was wrong */
};

struct ca_lexer {
	const char *text;
	size_t len;   /* bytes of text; a NUL byte also ends the input */
	size_t pos;   /* next byte to read */
	int mode;     /* enum ca_lexmode */
	int prev;     /* type of the last token lexed */
	bool peeked;
	struct ca_token tok;
	struct classad_buf scratch;
	classad_cache *cache; /* interns identifiers when set */
};

void ca_lex_init(struct ca_lexer *lx, const char *text, size_t len,
		 int mode);
void ca_lex_done(struct ca_lexer *lx);
/* The next token, without consuming it. */
struct ca_token *ca_lex_peek(struct ca_lexer *lx);
/* Consumes the peeked token. */
void ca_lex_consume(struct ca_lexer *lx);
/* A short description of a token for messages: "identifier 'x'", "')'". */
void ca_tok_describe(const struct ca_lexer *lx, const struct ca_token *t,
		     char *buf, size_t size);
/* The spelling of a token type: "']'", "end of input". */
const char *ca_tok_name(int type);

#endif
