/* A tagged union (OVS's json_token): the payload is read only under the
 * tag that wrote it. Keywords carry no payload; numbers and strings do.
 * A one-character token's tag is the character itself (< 256), never one
 * of the payload tags (past 255). The read under T_BAD is real: the only
 * function that makes a T_BAD token never writes its payload. */
#include <stdio.h>
#include <stdlib.h>

enum token_type { T_EOF = 0, T_FALSE = 256, T_TRUE, T_REAL, T_STRING, T_BAD };
struct token {
  enum token_type type;
  union {
    double real;
    const char *string;
  };
};

void parse(const struct token *token) {
  switch (token->type) {
  case T_REAL:
    printf("%g\n", token->real); /* EXPECT-NOT weir-uninit */
    break;
  case T_STRING:
    puts(token->string); /* EXPECT-NOT weir-uninit */
    break;
  case T_BAD:
    puts(token->string); /* EXPECT weir-uninit */
    break;
  default:
    break;
  }
  if (token->type == T_STRING) puts(token->string); /* EXPECT-NOT weir-uninit */
}

void lex_keyword(const char *s) {
  struct token token;
  token.type = s[0] == 't' ? T_TRUE : T_FALSE;
  parse(&token);
}

void lex_number(const char *s) {
  struct token token;
  token.type = T_REAL;
  token.real = atof(s);
  parse(&token);
}

void lex_string(const char *s) {
  struct token token;
  token.type = T_STRING;
  token.string = s;
  parse(&token);
}

void lex_char(unsigned char c) {
  struct token token;
  token.type = c;
  parse(&token);
}

void lex_bad(void) {
  struct token token;
  token.type = T_BAD;
  parse(&token);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  lex_keyword(argv[1]);
  lex_number(argv[1]);
  lex_string(argv[1]);
  lex_char((unsigned char)argv[1][0]);
  if (argc > 2) lex_bad();
  return 0;
}
