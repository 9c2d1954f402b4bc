/* lex.c: Python tokenizer for kernel source.
 *
 * Input: c->src / c->srclen, any bytes (no final newline needed, NUL bytes
 * allowed; nothing past srclen is ever read).  Output: an arena array of
 * Tokens with 1-based line and byte-column Locs, following Python's rules:
 * NEWLINE ends a logical line, INDENT / DEDENT bracket indented blocks
 * (tabs advance to the next multiple of 8), newlines inside (), [] and {}
 * and after a backslash join lines, blank and comment-only lines produce
 * nothing.  The array always ends with NEWLINE (when the last line had
 * tokens), one DEDENT per open block and TK_EOF, so INDENT and DEDENT are
 * always balanced.
 *
 * The lexer never fails: whatever it cannot accept (a bad character, an
 * unterminated string, an inconsistent dedent, an unclosed bracket at end
 * of file, a complex literal) becomes a TK_ERROR token whose text is the
 * message.  The parser reports it only if it reaches it, so errors in
 * code nobody compiles (a helper class, an `if __name__` block) are
 * harmless.  The ellipsis `...` is one TK_OP token with op OT_DOT and
 * len 3. */
#include "mt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const optok_names[OT_COUNT] = {
    [OT_NONE] = "",        [OT_LPAREN] = "(",      [OT_RPAREN] = ")",
    [OT_LBRACKET] = "[",   [OT_RBRACKET] = "]",    [OT_LBRACE] = "{",
    [OT_RBRACE] = "}",     [OT_COMMA] = ",",       [OT_COLON] = ":",
    [OT_DOT] = ".",        [OT_SEMI] = ";",        [OT_AT] = "@",
    [OT_ARROW] = "->",     [OT_ASSIGN] = "=",      [OT_PLUS] = "+",
    [OT_MINUS] = "-",      [OT_STAR] = "*",        [OT_SLASH] = "/",
    [OT_DSLASH] = "//",    [OT_PERCENT] = "%",     [OT_DSTAR] = "**",
    [OT_AMP] = "&",        [OT_PIPE] = "|",        [OT_CARET] = "^",
    [OT_TILDE] = "~",      [OT_SHL] = "<<",        [OT_SHR] = ">>",
    [OT_LT] = "<",         [OT_LE] = "<=",         [OT_GT] = ">",
    [OT_GE] = ">=",        [OT_EQ] = "==",         [OT_NE] = "!=",
    [OT_PLUS_EQ] = "+=",   [OT_MINUS_EQ] = "-=",   [OT_STAR_EQ] = "*=",
    [OT_SLASH_EQ] = "/=",  [OT_DSLASH_EQ] = "//=", [OT_PERCENT_EQ] = "%=",
    [OT_DSTAR_EQ] = "**=", [OT_AMP_EQ] = "&=",     [OT_PIPE_EQ] = "|=",
    [OT_CARET_EQ] = "^=",  [OT_SHL_EQ] = "<<=",    [OT_SHR_EQ] = ">>=",
    [OT_WALRUS] = ":=",    [OT_AND] = "and",       [OT_OR] = "or",
    [OT_NOT] = "not",      [OT_IN] = "in",         [OT_IS] = "is",
    [OT_NOT_IN] = "not in", [OT_IS_NOT] = "is not",
};

const char *optok_str(OpTok op) {
    if ((int)op < 0 || op >= OT_COUNT || !optok_names[op])
        return "?";
    return optok_names[op];
}

/* Punctuation, longest first so that "**=" wins over "**" and "*". */
typedef struct OpSpell {
    const char *s;
    OpTok op;
} OpSpell;

static const OpSpell op_spellings[] = {
    {"**=", OT_DSTAR_EQ}, {"//=", OT_DSLASH_EQ}, {">>=", OT_SHR_EQ},
    {"<<=", OT_SHL_EQ},   {"->", OT_ARROW},      {":=", OT_WALRUS},
    {"**", OT_DSTAR},     {"//", OT_DSLASH},     {"<<", OT_SHL},
    {">>", OT_SHR},       {"<=", OT_LE},         {">=", OT_GE},
    {"==", OT_EQ},        {"!=", OT_NE},         {"+=", OT_PLUS_EQ},
    {"-=", OT_MINUS_EQ},  {"*=", OT_STAR_EQ},    {"/=", OT_SLASH_EQ},
    {"%=", OT_PERCENT_EQ}, {"&=", OT_AMP_EQ},    {"|=", OT_PIPE_EQ},
    {"^=", OT_CARET_EQ},  {"(", OT_LPAREN},      {")", OT_RPAREN},
    {"[", OT_LBRACKET},   {"]", OT_RBRACKET},    {"{", OT_LBRACE},
    {"}", OT_RBRACE},     {",", OT_COMMA},       {":", OT_COLON},
    {".", OT_DOT},        {";", OT_SEMI},        {"@", OT_AT},
    {"=", OT_ASSIGN},     {"+", OT_PLUS},        {"-", OT_MINUS},
    {"*", OT_STAR},       {"/", OT_SLASH},       {"%", OT_PERCENT},
    {"&", OT_AMP},        {"|", OT_PIPE},        {"^", OT_CARET},
    {"~", OT_TILDE},      {"<", OT_LT},          {">", OT_GT},
};

typedef struct Lexer {
    Ctx *c;
    const char *s;
    size_t n, pos;
    int line;
    size_t line_start; /* offset of the current physical line */
    int *indents;      /* indentation widths of open blocks; [0] = 0 */
    int nindent, capindent;
    Loc *brackets; /* open brackets, for "'(' was never closed" */
    char *bracket_chars;
    int nbracket, capbracket, capbracket_chars;
    Token *toks;
    int ntok, cap;
    bool at_line_start;
} Lexer;

static int ch(const Lexer *L, size_t off) {
    size_t i = L->pos + off;
    return i < L->n ? (unsigned char)L->s[i] : -1;
}

static Loc loc_at(const Lexer *L, size_t pos) {
    Loc l;
    l.line = L->line;
    size_t col = pos - L->line_start + 1;
    l.col = col > 0x7fffffff ? 0x7fffffff : (int32_t)col;
    return l;
}

static void newline_at(Lexer *L, size_t pos_of_newline) {
    L->line++;
    L->line_start = pos_of_newline + 1;
}

static Token *push_tok(Lexer *L, TokKind kind, Loc loc, size_t start,
                       size_t end) {
    Token t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.loc = loc;
    t.text = L->s + (start <= L->n ? start : L->n);
    size_t len = end > start ? end - start : 0;
    t.len = len > 0x7fffffff ? 0x7fffffff : (int)len;
    VEC_PUSH(L->c->arena, L->toks, L->ntok, L->cap, t);
    return &L->toks[L->ntok - 1];
}

static void push_error(Lexer *L, Loc loc, size_t start, size_t end,
                       const char *msg) {
    Token *t = push_tok(L, TK_ERROR, loc, start, end);
    t->text = msg;
}

static bool is_name_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool is_name_char(int c) { return is_name_start(c) || is_digit(c); }

/* ---- strings ---- */

static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes Python escapes.  Every escape is at least as long as what it
 * produces, so the output fits in len + 1 bytes.  Escapes Python would
 * reject (a truncated \x) are kept as written. */
static void decode_string(Lexer *L, Token *t, const char *b, size_t len,
                          bool raw, bool bytes) {
    char *out = arena_alloc(L->c->arena, len + 1);
    if (!out)
        return;
    size_t o = 0;
    if (raw) {
        memcpy(out, b, len);
        o = len;
    } else {
        for (size_t i = 0; i < len;) {
            char c = b[i];
            if (c != '\\' || i + 1 >= len) {
                out[o++] = c;
                i++;
                continue;
            }
            char e = b[i + 1];
            size_t used = 2;
            switch (e) {
            case '\n': break;
            case '\r':
                if (i + 2 < len && b[i + 2] == '\n')
                    used = 3;
                break;
            case '\\': out[o++] = '\\'; break;
            case '\'': out[o++] = '\''; break;
            case '"': out[o++] = '"'; break;
            case 'a': out[o++] = '\a'; break;
            case 'b': out[o++] = '\b'; break;
            case 'f': out[o++] = '\f'; break;
            case 'n': out[o++] = '\n'; break;
            case 'r': out[o++] = '\r'; break;
            case 't': out[o++] = '\t'; break;
            case 'v': out[o++] = '\v'; break;
            case '0': case '1': case '2': case '3':
            case '4': case '5': case '6': case '7': {
                uint32_t v = 0;
                size_t k = 1;
                while (k <= 3 && i + k < len && b[i + k] >= '0' &&
                       b[i + k] <= '7') {
                    v = v * 8 + (uint32_t)(b[i + k] - '0');
                    k++;
                }
                used = k;
                if (bytes)
                    out[o++] = (char)(v & 0xFF);
                else
                    o += put_utf8(out + o, v);
                break;
            }
            case 'x': case 'u': case 'U': {
                size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                uint32_t v = 0;
                bool ok = i + 2 + digits <= len && !(bytes && e != 'x');
                for (size_t k = 0; ok && k < digits; k++) {
                    int h = hex_value((unsigned char)b[i + 2 + k]);
                    if (h < 0)
                        ok = false;
                    else
                        v = v * 16 + (uint32_t)h;
                }
                if (ok && v > 0x10FFFF)
                    ok = false;
                if (!ok) {
                    out[o++] = '\\';
                    used = 1;
                    break;
                }
                used = 2 + digits;
                if (bytes)
                    out[o++] = (char)v;
                else
                    o += put_utf8(out + o, v);
                break;
            }
            default: /* unknown escapes (and \N{...}) stay as written */
                out[o++] = '\\';
                used = 1;
                break;
            }
            i += used;
        }
    }
    out[o] = 0;
    t->sval = out;
    t->slen = o > 0x7fffffff ? 0x7fffffff : (int)o;
}

/* Scans a string literal whose prefix starts at `start` and whose opening
 * quote is at L->pos. */
static void lex_string(Lexer *L, size_t start, Loc loc) {
    bool raw = false, bytes = false, fstr = false;
    for (size_t i = start; i < L->pos; i++) {
        char p = L->s[i];
        raw |= p == 'r' || p == 'R';
        bytes |= p == 'b' || p == 'B';
        fstr |= p == 'f' || p == 'F';
    }
    int q = ch(L, 0);
    bool triple = ch(L, 1) == q && ch(L, 2) == q;
    size_t qlen = triple ? 3 : 1;
    L->pos += qlen;
    size_t body = L->pos;
    for (;;) {
        int c = ch(L, 0);
        if (c < 0 || (!triple && c == '\n')) {
            push_error(L, loc, start, L->pos,
                       triple ? "unterminated triple-quoted string literal"
                              : "unterminated string literal");
            return;
        }
        if (c == '\\') {
            int d = ch(L, 1);
            if (d < 0) {
                L->pos++;
                continue; /* reported as unterminated next round */
            }
            if (d == '\n')
                newline_at(L, L->pos + 1);
            if (d == '\r' && ch(L, 2) == '\n') {
                newline_at(L, L->pos + 2);
                L->pos++;
            }
            L->pos += 2;
            continue;
        }
        if (c == '\n') {
            newline_at(L, L->pos);
            L->pos++;
            continue;
        }
        if (c == q && (!triple || (ch(L, 1) == q && ch(L, 2) == q)))
            break;
        L->pos++;
    }
    size_t body_end = L->pos;
    L->pos += qlen;
    Token *t = push_tok(L, TK_STRING, loc, start, L->pos);
    if (fstr) /* the parser rejects f-strings; keep the raw text */
        decode_string(L, t, L->s + body, body_end - body, true, false);
    else
        decode_string(L, t, L->s + body, body_end - body, raw, bytes);
}

static bool is_string_prefix(const char *p, size_t n) {
    if (n == 0 || n > 2)
        return false;
    bool r = false, b = false, f = false, u = false;
    for (size_t i = 0; i < n; i++) {
        switch (p[i]) {
        case 'r': case 'R': if (r) return false; r = true; break;
        case 'b': case 'B': if (b) return false; b = true; break;
        case 'f': case 'F': if (f) return false; f = true; break;
        case 'u': case 'U': if (u) return false; u = true; break;
        default: return false;
        }
    }
    if (u)
        return n == 1;
    return !(b && f);
}

/* ---- numbers ---- */

/* Consumes digits of `base` with single underscores between them; returns
 * false on a misplaced underscore.  Accumulates into *v, setting *big on
 * int64 overflow. */
static bool scan_digits(Lexer *L, int base, uint64_t *v, bool *big,
                        int *ndigits) {
    bool ok = true;
    for (;;) {
        int c = ch(L, 0);
        int d = hex_value(c);
        if (c == '_') {
            int nx = hex_value(ch(L, 1));
            if (nx < 0 || nx >= base)
                ok = false;
            L->pos++;
            if (!ok)
                return false;
            continue;
        }
        if (d < 0 || d >= base)
            return ok;
        if (*v > (uint64_t)(INT64_MAX - d) / (uint64_t)base)
            *big = true;
        else
            *v = *v * (uint64_t)base + (uint64_t)d;
        (*ndigits)++;
        L->pos++;
    }
}

static void skip_name_chars(Lexer *L) {
    while (is_name_char(ch(L, 0)))
        L->pos++;
}

static void lex_number(Lexer *L) {
    size_t start = L->pos;
    Loc loc = loc_at(L, start);
    uint64_t v = 0;
    bool big = false;
    int nd = 0;
    int c1 = ch(L, 1);
    if (ch(L, 0) == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' ||
                            c1 == 'O' || c1 == 'b' || c1 == 'B')) {
        int base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
        const char *what = base == 16 ? "invalid hexadecimal literal"
                           : base == 8 ? "invalid octal literal"
                                       : "invalid binary literal";
        L->pos += 2;
        if (ch(L, 0) == '_')
            L->pos++;
        bool ok = scan_digits(L, base, &v, &big, &nd);
        if (!ok || nd == 0 || is_name_char(ch(L, 0))) {
            skip_name_chars(L);
            push_error(L, loc, start, L->pos, what);
            return;
        }
        Token *t = push_tok(L, TK_INT, loc, start, L->pos);
        t->ival = big ? INT64_MAX : (int64_t)v;
        t->big = big;
        return;
    }
    bool ok = true, is_float = false;
    if (ch(L, 0) != '.')
        ok = scan_digits(L, 10, &v, &big, &nd);
    if (ok && ch(L, 0) == '.' && !(ch(L, 1) == '.' && ch(L, 2) == '.' && nd)) {
        is_float = true;
        L->pos++;
        uint64_t fv = 0;
        bool fbig = false;
        int fnd = 0;
        if (is_digit(ch(L, 0)))
            ok = scan_digits(L, 10, &fv, &fbig, &fnd);
    }
    if (ok && (ch(L, 0) == 'e' || ch(L, 0) == 'E')) {
        size_t save = L->pos;
        L->pos++;
        if (ch(L, 0) == '+' || ch(L, 0) == '-')
            L->pos++;
        if (is_digit(ch(L, 0))) {
            uint64_t ev = 0;
            bool ebig = false;
            int end = 0;
            ok = scan_digits(L, 10, &ev, &ebig, &end);
            is_float = true;
        } else {
            L->pos = save + 1;
            ok = false;
        }
    }
    if (ok && (ch(L, 0) == 'j' || ch(L, 0) == 'J')) {
        L->pos++;
        skip_name_chars(L);
        push_error(L, loc, start, L->pos, "complex literals are not supported");
        return;
    }
    if (!ok || is_name_char(ch(L, 0))) {
        skip_name_chars(L);
        push_error(L, loc, start, L->pos, "invalid decimal literal");
        return;
    }
    if (!is_float) {
        /* "007" is an error in Python 3, "000" is not */
        if (L->s[start] == '0') {
            for (size_t i = start; i < L->pos; i++)
                if (L->s[i] != '0' && L->s[i] != '_') {
                    push_error(L, loc, start, L->pos,
                               "leading zeros in decimal integer literals are "
                               "not permitted; use an 0o prefix for octal "
                               "integers");
                    return;
                }
        }
        Token *t = push_tok(L, TK_INT, loc, start, L->pos);
        t->ival = big ? INT64_MAX : (int64_t)v;
        t->big = big;
        return;
    }
    size_t len = L->pos - start;
    char *buf = arena_alloc(L->c->arena, len + 1);
    Token *t = push_tok(L, TK_FLOAT, loc, start, L->pos);
    if (!buf)
        return;
    size_t k = 0;
    for (size_t i = start; i < L->pos; i++)
        if (L->s[i] != '_')
            buf[k++] = L->s[i];
    buf[k] = 0;
    t->fval = strtod(buf, NULL);
}

/* ---- the main loop ---- */

static void push_bracket(Lexer *L, Loc loc, char c) {
    VEC_PUSH(L->c->arena, L->brackets, L->nbracket, L->capbracket, loc);
    int n = L->nbracket - 1;
    VEC_PUSH(L->c->arena, L->bracket_chars, n, L->capbracket_chars, c);
}

static bool last_is_line_token(const Lexer *L) {
    if (L->ntok == 0)
        return false;
    TokKind k = L->toks[L->ntok - 1].kind;
    return k != TK_NEWLINE && k != TK_INDENT && k != TK_DEDENT;
}

/* At the start of a logical line: measures indentation, skips blank and
 * comment-only lines, emits INDENT / DEDENT.  Returns false at EOF. */
static bool start_line(Lexer *L) {
    for (;;) {
        int width = 0;
        while (L->pos < L->n) {
            char c = L->s[L->pos];
            if (c == ' ')
                width++;
            else if (c == '\t')
                width = (width / 8 + 1) * 8;
            else if (c == '\f')
                width = 0;
            else if (c != '\r')
                break;
            if (width > 1000000)
                width = 1000000;
            L->pos++;
        }
        if (L->pos >= L->n)
            return false;
        char c = L->s[L->pos];
        if (c == '#') {
            while (L->pos < L->n && L->s[L->pos] != '\n')
                L->pos++;
            continue;
        }
        if (c == '\n') {
            newline_at(L, L->pos);
            L->pos++;
            continue;
        }
        Loc loc = loc_at(L, L->pos);
        int top = L->indents[L->nindent - 1];
        if (width > top) {
            VEC_PUSH(L->c->arena, L->indents, L->nindent, L->capindent, width);
            push_tok(L, TK_INDENT, loc, L->pos, L->pos);
        } else if (width < top) {
            while (L->nindent > 1 && L->indents[L->nindent - 1] > width) {
                L->nindent--;
                push_tok(L, TK_DEDENT, loc, L->pos, L->pos);
            }
            if (L->indents[L->nindent - 1] != width)
                push_error(L, loc, L->pos, L->pos,
                           "unindent does not match any outer indentation "
                           "level");
        }
        L->at_line_start = false;
        return true;
    }
}

static void lex_op(Lexer *L) {
    size_t start = L->pos;
    Loc loc = loc_at(L, start);
    if (ch(L, 0) == '.' && ch(L, 1) == '.' && ch(L, 2) == '.') {
        L->pos += 3;
        Token *t = push_tok(L, TK_OP, loc, start, L->pos);
        t->op = OT_DOT;
        return;
    }
    if (ch(L, 0) == '@' && ch(L, 1) == '=') {
        L->pos += 2;
        push_error(L, loc, start, L->pos,
                   "the matrix multiplication operator '@=' is not supported");
        return;
    }
    for (size_t i = 0; i < sizeof op_spellings / sizeof op_spellings[0]; i++) {
        const char *s = op_spellings[i].s;
        size_t n = strlen(s);
        if (L->pos + n > L->n || memcmp(L->s + L->pos, s, n) != 0)
            continue;
        L->pos += n;
        OpTok op = op_spellings[i].op;
        Token *t = push_tok(L, TK_OP, loc, start, L->pos);
        t->op = op;
        if (op == OT_LPAREN || op == OT_LBRACKET || op == OT_LBRACE)
            push_bracket(L, loc, s[0]);
        else if ((op == OT_RPAREN || op == OT_RBRACKET || op == OT_RBRACE) &&
                 L->nbracket > 0)
            L->nbracket--;
        return;
    }
    int c = ch(L, 0);
    const char *msg;
    if (c == 0)
        msg = "source code cannot contain null bytes";
    else if (c > 0x20 && c < 0x7f)
        msg = arena_printf(L->c->arena, "invalid character '%c'", c);
    else
        msg = arena_printf(L->c->arena, "invalid character (byte 0x%02x)", c);
    L->pos++;
    push_error(L, loc, start, L->pos, msg ? msg : "invalid character");
}

static void lex_name(Lexer *L) {
    size_t start = L->pos;
    Loc loc = loc_at(L, start);
    skip_name_chars(L);
    size_t n = L->pos - start;
    const char *p = L->s + start;
    int q = ch(L, 0);
    if ((q == '\'' || q == '"') && is_string_prefix(p, n)) {
        lex_string(L, start, loc);
        return;
    }
    static const struct {
        const char *kw;
        OpTok op;
    } kwops[] = {{"and", OT_AND}, {"or", OT_OR}, {"not", OT_NOT},
                 {"in", OT_IN},   {"is", OT_IS}};
    for (size_t i = 0; i < sizeof kwops / sizeof kwops[0]; i++)
        if (strlen(kwops[i].kw) == n && memcmp(kwops[i].kw, p, n) == 0) {
            Token *t = push_tok(L, TK_OP, loc, start, L->pos);
            t->op = kwops[i].op;
            return;
        }
    push_tok(L, TK_NAME, loc, start, L->pos);
}

/* Python reads a lone CR as a line break (universal newlines), as old Mac
 * files have them: such a source is copied with '\n' for every lone '\r'
 * (the same length, so every offset stays) and the copy becomes c->src,
 * so that diagnostics quote the text that was lexed. */
static void lone_cr_to_lf(Ctx *c) {
    const char *s = c->src;
    size_t n = c->srclen, i = 0;
    while (i < n && !(s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n')))
        i++;
    if (i == n || !c->arena)
        return;
    char *copy = arena_alloc(c->arena, n + 1);
    if (!copy)
        return; /* the text as it is: lone CRs stay blanks */
    memcpy(copy, s, n);
    copy[n] = 0;
    for (; i < n; i++)
        if (copy[i] == '\r' && (i + 1 == n || copy[i + 1] != '\n'))
            copy[i] = '\n';
    c->src = copy;
}

Token *lex(Ctx *c, int *ntok) {
    Lexer L;
    memset(&L, 0, sizeof L);
    if (c->src)
        lone_cr_to_lf(c);
    L.c = c;
    L.s = c->src ? c->src : "";
    L.n = c->src ? c->srclen : 0;
    L.line = 1;
    L.at_line_start = true;
    int zero = 0;
    VEC_PUSH(c->arena, L.indents, L.nindent, L.capindent, zero);
    for (;;) {
        if (L.at_line_start && L.nbracket == 0) {
            if (!start_line(&L))
                break;
        }
        int c0 = ch(&L, 0);
        if (c0 < 0)
            break;
        if (c0 == ' ' || c0 == '\t' || c0 == '\f' || c0 == '\r') {
            L.pos++;
            continue;
        }
        if (c0 == '#') {
            while (L.pos < L.n && L.s[L.pos] != '\n')
                L.pos++;
            continue;
        }
        if (c0 == '\n') {
            if (L.nbracket == 0) {
                if (last_is_line_token(&L))
                    push_tok(&L, TK_NEWLINE, loc_at(&L, L.pos), L.pos, L.pos + 1);
                L.at_line_start = true;
            }
            newline_at(&L, L.pos);
            L.pos++;
            continue;
        }
        if (c0 == '\\') {
            int c1 = ch(&L, 1);
            size_t skip = c1 == '\n' ? 1 : (c1 == '\r' && ch(&L, 2) == '\n') ? 2 : 0;
            if (skip) {
                newline_at(&L, L.pos + skip);
                L.pos += skip + 1;
                continue;
            }
            Loc loc = loc_at(&L, L.pos);
            L.pos++;
            push_error(&L, loc, L.pos - 1, L.pos,
                       c1 < 0 ? "unexpected end of file after line "
                                "continuation character"
                              : "unexpected character after line "
                                "continuation character");
            continue;
        }
        if (c0 == '\'' || c0 == '"') {
            lex_string(&L, L.pos, loc_at(&L, L.pos));
            continue;
        }
        if (is_digit(c0) || (c0 == '.' && is_digit(ch(&L, 1)))) {
            lex_number(&L);
            continue;
        }
        if (is_name_start(c0)) {
            lex_name(&L);
            continue;
        }
        lex_op(&L);
    }
    Loc end = loc_at(&L, L.pos);
    if (L.nbracket > 0) {
        char b = L.bracket_chars[0];
        push_error(&L, L.brackets[0], L.pos, L.pos,
                   b == '(' ? "'(' was never closed"
                   : b == '[' ? "'[' was never closed"
                              : "'{' was never closed");
    }
    if (last_is_line_token(&L))
        push_tok(&L, TK_NEWLINE, end, L.pos, L.pos);
    while (L.nindent > 1) {
        L.nindent--;
        push_tok(&L, TK_DEDENT, end, L.pos, L.pos);
    }
    push_tok(&L, TK_EOF, end, L.pos, L.pos);
    if (ntok)
        *ntok = L.ntok;
    return L.toks;
}
