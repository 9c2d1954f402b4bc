/* mt.h: the one internal header of mytriton, in sections named after the
 * files that implement them:
 *
 *   kernel text --lex.c--> tokens --parse*.c--> AST --sig.c, elab.c,
 *   ctval.c, builtins.c--> SSA (ir.c) --verify.c--> --opt.c (fold, cse,
 *   dce)--> resources --layout.c, axis.c, dotplan.c, smemplan.c-->
 *   annotated SSA --cuda*.c--> CUDA C, the passes listed one a line in
 *   pipeline.c; then
 *   --cudart.c--> NVRTC cubin, launch       (dlopen'ed libnvrtc, libcuda)
 *   --host.c--> system C++ compiler + mt_host.h --> launch on a few worker
 *               threads, each CUDA thread a fiber (fiber.c)
 *   api.c holds the public API's handles, caches and errors; cache.c the
 *   on-disk cache.
 *
 * Invariants shared by every stage:
 *   - all memory of one compilation lives in its Arena and is freed at once;
 *   - errors are values: a stage records one diagnostic in its Ctx (first
 *     error wins) and returns -1 or NULL; nothing exits or aborts;
 *   - every token, AST node and IR op carries a Loc in the kernel file.
 */
#ifndef MT_INTERNAL_H
#define MT_INTERNAL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/mytriton.h"

#if defined(__GNUC__)
#define MT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MT_PRINTF(f, a)
#endif

/* ---------------------------------------------------------------- util.c */

/* Chunked bump allocator.  Memory is zeroed.  On exhaustion it longjmps to
 * *oom when set (the API entry points set it), else returns NULL. */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *head;
    jmp_buf *oom;
} Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) MT_PRINTF(2, 3);
/* Grows *arr (element size esz) to hold at least need elements. */
void arena_grow(Arena *a, void **arr, int *cap, int need, size_t esz);
#define VEC_PUSH(arena, arr, n, cap, x)                                        \
    do {                                                                       \
        if ((n) >= (cap))                                                      \
            arena_grow((arena), (void **)&(arr), &(cap), (n) + 1,              \
                       sizeof(*(arr)));                                        \
        if ((n) < (cap)) /* growth fails only without an oom handler */       \
            (arr)[(n)++] = (x);                                                \
    } while (0)

/* Growable text buffer on the C heap (outlives arenas: results, errors). */
typedef struct StrBuf {
    char *data;
    size_t len, cap;
    bool failed; /* an allocation failed; contents are truncated */
} StrBuf;

void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_clear(StrBuf *sb);
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) MT_PRINTF(2, 3);
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
void sb_indent(StrBuf *sb, int n); /* n spaces */
/* A line of generated code: indent spaces, the text, a newline. */
void sb_vline(StrBuf *sb, int indent, const char *fmt, va_list ap);
const char *sb_str(StrBuf *sb);    /* NUL-terminated, never NULL */

uint64_t hash_bytes(uint64_t h, const void *p, size_t n); /* FNV-1a step */
/* 0-15 for a hex digit character, -1 for any other value (EOF too). */
int hex_value(int c);
#define HASH_INIT 1469598103934665603ull

/* Python repr() of an f32 value: shortest digits that round-trip through
 * float, "0.0", "-0.0", "2.5", "1e-05", "1e+20", "inf", "-inf", "nan". */
void format_f32(char buf[32], float v);
/* The same for a double (Python floats in the AST). */
void format_f64(char buf[40], double v);

/* ---------------------------------------------------------------- diag.c */

typedef struct Loc {
    int32_t line, col; /* 1-based; 0 = unknown */
} Loc;

/* Per-compilation context: arena, source, and the first error. */
typedef struct Ctx {
    Arena *arena;
    const char *filename;
    const char *src;
    size_t srclen;
    mt_status status;  /* MT_OK until the first error */
    Loc err_loc;
    StrBuf err;        /* "file:line:col: error: msg\n<line>\n<caret>\n" */
} Ctx;

/* Records an error (only the first one counts) and returns -1. */
int diag_error(Ctx *c, Loc loc, mt_status st, const char *fmt, ...)
    MT_PRINTF(4, 5);
int diag_verror(Ctx *c, Loc loc, mt_status st, const char *fmt, va_list ap);
/* Forgets the error (a backend that does not need the failed stage). */
void diag_clear(Ctx *c);
#define HAS_ERROR(c) ((c)->status != MT_OK)

/* ----------------------------------------------------------------- lex.c */

typedef enum TokKind {
    TK_EOF, TK_NEWLINE, TK_INDENT, TK_DEDENT,
    TK_NAME, TK_INT, TK_FLOAT, TK_STRING,
    TK_OP,    /* punctuation and operators; Token.op holds which */
    TK_ERROR  /* bad character, unterminated string, bad dedent: .text says why */
} TokKind;

/* Operators and punctuation, also used as AST operator codes. */
typedef enum OpTok {
    OT_NONE,
    OT_LPAREN, OT_RPAREN, OT_LBRACKET, OT_RBRACKET, OT_LBRACE, OT_RBRACE,
    OT_COMMA, OT_COLON, OT_DOT, OT_SEMI, OT_AT, OT_ARROW, OT_ASSIGN,
    OT_PLUS, OT_MINUS, OT_STAR, OT_SLASH, OT_DSLASH, OT_PERCENT, OT_DSTAR,
    OT_AMP, OT_PIPE, OT_CARET, OT_TILDE, OT_SHL, OT_SHR,
    OT_LT, OT_LE, OT_GT, OT_GE, OT_EQ, OT_NE,
    /* augmented assignment (map to the plain operator with a switch) */
    OT_PLUS_EQ, OT_MINUS_EQ, OT_STAR_EQ, OT_SLASH_EQ, OT_DSLASH_EQ,
    OT_PERCENT_EQ, OT_DSTAR_EQ, OT_AMP_EQ, OT_PIPE_EQ, OT_CARET_EQ,
    OT_SHL_EQ, OT_SHR_EQ, OT_WALRUS,
    /* keywords that act as operators */
    OT_AND, OT_OR, OT_NOT, OT_IN, OT_IS, OT_NOT_IN, OT_IS_NOT,
    OT_COUNT
} OpTok;
const char *optok_str(OpTok op); /* "+", "//", "and", ... */

typedef struct Token {
    TokKind kind;
    OpTok op;         /* TK_OP */
    Loc loc;
    const char *text; /* start in source (TK_ERROR: message) */
    int len;          /* length in source */
    int64_t ival;     /* TK_INT (saturated; big = true when it overflowed) */
    bool big;
    double fval;      /* TK_FLOAT */
    const char *sval; /* TK_STRING: decoded contents (arena) */
    int slen;
} Token;

/* Tokenizes the whole source (Python's rules: INDENT/DEDENT, implicit line
 * joining inside brackets, backslash continuation, comments, all string
 * prefixes and triple quotes).  Never fails: problems become TK_ERROR
 * tokens, reported only if the parser reaches them.  Keywords come out as
 * TK_NAME except the operator keywords (and, or, not, in, is), which are
 * TK_OP. */
Token *lex(Ctx *c, int *ntok);

/* --------------------------------------------------------------- parse.c */

typedef enum NodeKind {
    /* expressions */
    ND_NAME,      /* name */
    ND_INT,       /* ival (big: out of int64 range) */
    ND_FLOAT,     /* fval */
    ND_STR,       /* sval, slen */
    ND_BOOL,      /* ival 0/1 */
    ND_NONE,
    ND_ELLIPSIS,
    ND_ATTR,      /* lhs.name */
    ND_CALL,      /* lhs(args...), args in items; keyword args are ND_KEYWORD */
    ND_KEYWORD,   /* name=rhs, only inside ND_CALL items */
    ND_BINOP,     /* lhs op rhs; op in OT_PLUS..OT_SHR */
    ND_UNARY,     /* op rhs; op in OT_MINUS, OT_PLUS, OT_TILDE, OT_NOT */
    ND_COMPARE,   /* items[0] ops[0] items[1] ops[1] items[2] ... (chained) */
    ND_BOOLOP,    /* items joined by op (OT_AND / OT_OR) */
    ND_IFEXP,     /* then if cond else els */
    ND_TUPLE,     /* items */
    ND_LIST,      /* items */
    ND_DICT,      /* keys in items (even), values (odd) */
    ND_SUBSCRIPT, /* lhs[rhs]; a tuple index is an ND_TUPLE rhs */
    ND_SLICE,     /* lower:upper:step, each may be NULL; only inside subscripts */
    ND_STARRED,   /* *rhs */
    ND_LAMBDA,    /* parsed only to be rejected */
    /* statements */
    ND_EXPR_STMT, /* rhs */
    ND_ASSIGN,    /* targets in items (a = b = c has two), value rhs */
    ND_ANNASSIGN, /* lhs: annotation then, rhs may be NULL; target in items[0] */
    ND_AUGASSIGN, /* items[0] op= rhs; op is the plain operator (OT_PLUS...) */
    ND_FOR,       /* for items[0] in rhs: body; orelse */
    ND_WHILE,     /* while cond: body; orelse */
    ND_IF,        /* if cond: body; else: orelse (elif: orelse holds an ND_IF) */
    ND_PASS, ND_BREAK, ND_CONTINUE,
    ND_RETURN,    /* rhs may be NULL */
    ND_ASSERT,    /* cond, rhs (message) may be NULL */
    ND_FUNCDEF,   /* name, params, decorators, body */
    ND_OTHER_STMT /* a statement kind we parse only to reject: name says which */
} NodeKind;

typedef struct Node Node;

typedef struct Param {
    const char *name;
    Loc loc;
    Node *annotation; /* may be NULL */
    Node *deflt;      /* default value, may be NULL */
} Param;

struct Node {
    NodeKind kind;
    Loc loc;
    OpTok op;
    const char *name;
    Node *lhs, *rhs;
    Node *cond, *then, *els;
    Node **items;     /* elements, call arguments, assignment targets */
    int nitems;
    OpTok *ops;       /* ND_COMPARE: nitems-1 operators */
    Node **body;      /* statements */
    int nbody;
    Node **orelse;
    int norelse;
    int64_t ival;
    bool big;         /* ND_INT did not fit int64 */
    double fval;
    const char *sval;
    int slen;
    Param *params;    /* ND_FUNCDEF */
    int nparams;
    Node **decorators;
    int ndecorators;
};

/* What the module holds at top level.  Only what elaboration asks for is
 * ever parsed: everything else is skipped by token bounds. */
typedef struct TopFunc {
    const char *name;
    Loc loc;
    int tok_begin, tok_end; /* first decorator .. end of body */
    bool is_jit;            /* a decorator's last name is "jit" */
    Node *ast;              /* parsed on demand, NULL until then */
} TopFunc;

typedef struct TopConst {
    const char *name;
    Loc loc;
    int tok_begin, tok_end; /* the value expression */
} TopConst;

typedef struct TopImport {     /* import a.b as x / from a import b as x */
    const char *alias;         /* bound name */
    const char *path;          /* "triton.language", "triton", "math" ... */
} TopImport;

typedef struct Module {
    Token *toks;
    int ntok;
    TopFunc *funcs;
    int nfuncs;
    TopConst *consts;
    int nconsts;
    TopImport *imports;
    int nimports;
} Module;

/* Lexes the source and indexes the top level; never parses function
 * bodies.  Fails only on something that stops indexing (an unterminated
 * triple-quoted string).  */
Module *parse_module(Ctx *c);
/* Parses a top-level function (once; cached in f->ast). */
Node *parse_function(Ctx *c, Module *m, TopFunc *f);
/* Parses a top-level constant's value expression. */
Node *parse_const_expr(Ctx *c, Module *m, TopConst *k);
TopFunc *module_find_func(Module *m, const char *name);

/* The parser's shared core (parse.c), for parseexpr.c and parsestmt.c
 * only.  A Parser reads tokens [pos, end) of one Module range; past end,
 * ps_peek returns an EOF token located at the range's end.  Every ps_*
 * that reports returns NULL / false after exactly one diagnostic. */
typedef struct Parser {
    Ctx *c;
    Token *toks;
    int pos, end; /* tokens [pos, end) remain */
    int depth;    /* expression recursion nesting */
    int blocks;   /* statement block nesting (elif chains count) */
    Token eof;    /* returned past end */
    TokKind eof_real; /* the kind of the token at end, for messages */
} Parser;

typedef struct NodeVec {
    Node **v;
    int n, cap;
} NodeVec;

bool tok_is_keyword(const Token *t);
bool tok_is_kw(const Token *t, const char *kw);
bool tok_is_op(const Token *t, OpTok op);
bool tok_is_ellipsis(const Token *t);
bool tok_is_plain_name(const Token *t);
void ps_init(Parser *p, Ctx *c, Module *m, int begin, int end);
Token *ps_peek(Parser *p);
Token *ps_peek_at(Parser *p, int k);
Token *ps_advance(Parser *p);
bool ps_at_op(Parser *p, OpTok op);
bool ps_at_kw(Parser *p, const char *kw);
const char *ps_tok_desc(Parser *p, const Token *t); /* for "saw ..." */
/* Reports at t; a TK_ERROR token reports its own message instead. */
Node *ps_error(Parser *p, const Token *t, mt_status st, const char *fmt, ...)
    MT_PRINTF(4, 5);
bool ps_expect_op(Parser *p, OpTok op, const char *after);
bool ps_enter(Parser *p, const Token *at, const char *what);
void ps_leave(Parser *p);
bool ps_enter_block(Parser *p, const Token *at);
void ps_leave_block(Parser *p);
Node *ps_new_node(Parser *p, NodeKind k, Loc loc);
char *ps_tok_name(Parser *p, const Token *t);
void ps_vec_push(Parser *p, NodeVec *v, Node *n);
Node *ps_check_height(Parser *p, Node *n);
void ps_skip_simple(Parser *p);          /* to ';' or NEWLINE, not eaten */
void ps_skip_line_and_block(Parser *p);  /* a line and its indented block */

/* parseexpr.c */
Node *parse_expr(Parser *p);        /* one expression, no bare tuple */
Node *parse_star_exprs(Parser *p);  /* a, *b, ... : a tuple if commas */
Node *parse_bitor(Parser *p);       /* a for-loop target */
bool can_start_expr(const Token *t);
/* parsestmt.c */
Node *parse_funcdef(Parser *p);

/* ----------------------------------------------------------------- ast.c */

/* Prints a function's AST as an indented tree (--emit ast). */
void ast_print(StrBuf *sb, const Node *fn);

/* ---------------------------------------------------------------- type.c */

/* Element types: Triton's scalar types.  f16, bf16 and the fp8 types are
 * bit patterns in registers and memory alike (unsigned short/char), so
 * loads, stores and moves keep every bit; ops that compute on them widen
 * to f32 and round back (ops.def, F_MOVE).  bool is a byte in memory. */
typedef enum DType {
    DT_VOID = 0, DT_I1, DT_I8, DT_I16, DT_I32, DT_I64, DT_U8, DT_U16, DT_U32,
    DT_U64, DT_F8E4, DT_F8E5, DT_F16, DT_BF16, DT_F32, DT_F64, DT_COUNT
} DType;

typedef enum DKind { DK_VOID, DK_BOOL, DK_SINT, DK_UINT, DK_FLOAT } DKind;

/* One row per DType (type.c). */
typedef struct DTypeInfo {
    const char *name;    /* IR spelling: bool i8 u32 f16 bf16 f8e4nv ... */
    const char *tl_name; /* Triton's tl.<name>: int1 int8 float16 ... */
    const char *short_name; /* Triton's dtype.name / signature: i1 fp16 */
    const char *ctype;   /* C type of a register: bool int float double */
    const char *mtype;   /* C type in memory (a pointer's pointee) */
    uint8_t kind;        /* DKind */
    uint8_t bits;        /* primitive bit width (i1: 1) */
    uint8_t mantissa;    /* float: mantissa bits (Triton's fp_mantissa_width) */
    uint8_t bytes;       /* size in memory */
} DTypeInfo;
extern const DTypeInfo dtype_info[DT_COUNT];

#define MT_MAX_RANK 16
/* the operands an elementwise op's template reads (libdevice's norm4d: 4) */
#define MT_ELEM_OPERANDS 4

/* A scalar, a pointer to a scalar, or a block (rank >= 1) of either. */
typedef struct Type {
    uint8_t dtype;  /* DType of the element, or of the pointee when is_ptr */
    uint8_t is_ptr;
    uint8_t rank;   /* 0 = scalar */
    int32_t shape[MT_MAX_RANK];
} Type;

Type type_scalar(DType d);
Type type_ptr(DType pointee);
Type type_block(Type elem, int rank, const int32_t *shape);
Type type_elem(Type t);         /* the scalar/pointer element of a block */
Type type_with_elem(Type shape_from, Type elem); /* same shape, other element */
bool type_eq(Type a, Type b);
bool type_is_numeric(Type t);   /* element int or float (not bool), not pointer */
bool type_is_int(Type t);       /* element signed or unsigned int, not bool */
bool type_is_bool(Type t);      /* element i1, not pointer */
bool type_is_float(Type t);     /* element of any float type */
int64_t type_numel(Type t);
const char *dtype_name(DType d);  /* "bool" "i32" "f16" ... */
const char *dtype_ctype(DType d); /* register type: "int" "float" ... */
const char *dtype_mtype(DType d); /* memory type: "unsigned short" for f16 */
bool dtype_is_float(DType d);
bool dtype_is_int(DType d);       /* signed or unsigned, not bool */
bool dtype_is_unsigned(DType d);
/* f16, bf16, fp8: computed in float registers, rounded after each op */
bool dtype_is_narrow_float(DType d);
bool dtype_is_fp8(int d); /* e4m3 (fp8e4nv) or e5m2 (fp8e5) */
/* "i32", "ptr<f32>", "vector<256 x i32>", "block<16x32 x bool>" */
void type_print(StrBuf *sb, Type t);
/* NumPy broadcasting of two shapes; -1 when incompatible. */
int broadcast_shapes(Type a, Type b, Type *out_shape);
/* Triton's computation type of two operand element types (semantic.py's
 * computation_type_impl for two tensors; div_or_mod: / // %).  DT_VOID
 * when Triton refuses the pair (fp8 with an int, mixed signedness under
 * / // %). */
DType promote_dtype2(DType a, DType b, bool div_or_mod);
DType promote_dtype(DType a, DType b); /* promote_dtype2(a, b, false) */
/* Triton's integer_promote_impl (C's usual arithmetic conversions). */
DType integer_promote(DType a, DType b);
/* v wrapped to integer dtype d (sign- or zero-extended into int64). */
int64_t dtype_wrap_int(DType d, int64_t v);
/* v rounded to float dtype d (to nearest even; overflow gives inf, or the
 * largest finite value for fp8e4nv, which has no inf). */
double dtype_round_float(DType d, double v);
/* The bit pattern of a value float dtype d represents exactly. */
uint64_t dtype_float_bits(DType d, double v);

/* ------------------------------------------------------------------ ir.c */

typedef int32_t ValId;  /* index into Func.vals; 0 means "none" */

typedef enum ValKind {
    VK_NONE, VK_OP, VK_PARAM, VK_CONST, VK_LOOP_INDEX, VK_LOOP_ARG
} ValKind;

/* ops.def's columns, in order: e, name, nargs, rule, flags, kind, attrs,
 * optional, identity, text, ftext, btext. */
typedef enum OpCode {
#define OP(e, ...) OP_##e,
#include "ops.def"
#undef OP
    OP_COUNT
} OpCode;

/* Type rules: one function each in typerules.c. */
enum {
    R_ARITH, R_INT, R_LOGIC, R_ORDER, R_EQUAL, R_FLOAT1, R_SAME1, R_NOT,
    R_REDUCE, R_GRID, R_RANGE, R_BLOCK, R_CAST, R_SELECT, R_ADDPTR, R_LOAD,
    R_STORE, R_EXPAND, R_BROADCAST, R_DOT, R_LOOP, R_CONVERT, R_BITCAST, R_IF,
    R_WHILE, R_EFFECT0,
    /* shape ops (tlshape.c) */
    R_RESHAPE, R_TRANS, R_JOIN, R_SPLIT, R_CAT, R_FLIP, R_GATHER,
    R_FLOAT2, R_FLOAT3, R_FPRED, /* the math set (issue 9) */
    R_PHILOX, /* random numbers (issue 9) */
    R_ATOMIC, /* tlatomic.c */
    R_SCAN, R_COMBINE, /* tlscan.c's ops */
    R_MAP, /* tl.map_elementwise (tlscan.c): checked by the verifier */
    R_HINT, /* tlblockptr.c's compiler hints */
    R_PRINT, R_ASSERT, /* tldebug.c: device_print, device_assert */
    R_ASM, /* tlasm.c: tl.inline_asm_elementwise */
    R_LIBDEVICE, /* libdevice.c: a libdevice symbol's argument and result dtypes */
    R_COUNT
};
enum {
    F_PURE = 1, F_READ = 2, F_EFFECT = 4, F_COMMUTE = 8, F_REGION = 16,
    F_MOVE = 32, F_WRAP = 64, F_DIVISOR = 128
};
typedef enum OpKind {
    K_ELEMENTWISE, K_CONSTRUCTOR, K_MEMORY, K_REDUCE, K_SHAPE, K_DOT, K_REGION,
    K_CONVERT, K_GATHER,
    K_SCAN, /* tlscan.c: a prefix combine along attr[0] (attr[1]: reverse) */
    K_DEBUG, /* tldebug.c: reads its operands where they are, no result */
    K_ASM, /* tlasm.c: inline asm over elements, several results */
    K_MAP, /* tl.map_elementwise: its region run on each element's scalars */
    K_COUNT
} OpKind;
typedef enum AttrSchema {
    AS_NONE, AS_AXIS, AS_RANGE, AS_SHAPE, AS_PRECISION, AS_CONVERT, AS_INDEX,
    AS_MEMORY, /* atomics: attr[0] = memory order (MemSem, MemScope) */
    AS_SCAN, /* tlscan.c: attr[0] = axis, attr[1] = reverse */
    AS_MEMHINT, /* load/store: attr[0] cache modifier, attr[1] eviction (MemHint) */
    AS_HINT,
    AS_PRINT,  /* tldebug.c: Op.str[0] prefix; attr[0] hex */
    AS_ASSERT, /* tldebug.c: Op.str[0] message, Op.str[1] function */
    AS_ASM, /* tlasm.c: Op.str[0] asm, Op.str[1] constraints; attr[0] pack, attr[1] pure */
    AS_STAGES, /* for: attr[0] = tl.range's num_stages (0: not given; pipeload.c) */
    AS_LIBDEVICE, /* libdevice: attr[0] = the symbol (libdevice.c's table) */
    AS_COUNT
} AttrSchema;
/* The values of AS_MEMHINT (load and store): attr[0] is Triton's cache
 * modifier, or volatile (PTX's ld.volatile takes no cache operator);
 * attr[1] its eviction policy.  0 is the default of both. */
typedef enum MemHint {
    MEM_DEFAULT, MEM_CA, MEM_CG, MEM_CV, MEM_WB, MEM_CS, MEM_WT, MEM_VOLATILE,
    MEM_EVICT_FIRST, MEM_EVICT_LAST, MEM_NHINTS
} MemHint;
typedef enum ReduceIdentity {
    ID_NONE, ID_ZERO, ID_LOWEST, ID_HIGHEST
} ReduceIdentity;

typedef struct OpInfo {
    const char *name;
    int nargs;         /* -1: variable */
    uint8_t rule;
    uint8_t flags;
    uint8_t kind;      /* OpKind */
    uint8_t attrs;     /* AttrSchema */
    uint8_t optional;  /* bit i: operand i may be none */
    uint8_t identity;  /* ReduceIdentity of a K_REDUCE op */
    const char *text;  /* C expression template (see ops.def), or NULL */
    const char *ftext; /* the template for f32 results, NULL: text */
    const char *btext; /* the template for bool results, NULL: text */
} OpInfo;
extern const OpInfo op_info[OP_COUNT];

/* What an attribute schema means: how many of Op.attr it uses and their
 * printed names; `values` names the values of an enumerated attribute
 * (input precisions), NULL for plain integers. */
typedef struct AttrInfo {
    int nattr;
    const char *names[2];
    const char *const *values;
    int nvalues;
    uint8_t sparse; /* bit i: attribute i prints (and reads back) only when
                       it is not 0 */
    const char *strs[2]; /* names of the string attributes Op.str[0..1]
                            (NULL: none), printed first, quoted */
    uint8_t plain;  /* bit i: attribute i is an integer even where `values`
                       names the others' */
} AttrInfo;
extern const AttrInfo attr_info[AS_COUNT];

typedef struct Op Op;

typedef struct Region {
    Op **ops;
    int nops, cap;
} Region;

typedef struct Value {
    Type type;
    uint8_t kind;      /* ValKind */
    union {
        int64_t i;     /* VK_CONST of bool and integers (dtype_wrap_int) */
        double f;      /* VK_CONST of floats (a value the dtype represents) */
    } c;
    const char *name;  /* VK_PARAM: parameter name */
    int param_index;   /* VK_PARAM: position among runtime params */
    Op *def;           /* VK_OP (and loop results): defining op */
    int layout;        /* set by layout.c: index into Func.layouts, -1 none */
    int32_t divisibility; /* VK_PARAM: signature hint (":16"): a pointer's
                             address in bytes, an integer's value, is a
                             multiple of it; 0 or 1 = nothing known */
} Value;

/* Attributes: ops.def's attribute schema of the op says which of attr[0..1]
 * mean something (axis, range, input precision); the others are 0.  For
 * zeros/full/empty/cast/broadcast the shape and dtype are the result type. */
struct Op {
    uint16_t code;     /* OpCode */
    Loc loc;
    ValId *args;       /* for: start, stop, step, then one init per carry */
    int nargs;
    ValId *res;        /* results (one, none for store, one per carry for for) */
    int nres;
    int64_t attr[2];
    /* region ops (for, if, while; op_regions lists an op's regions) */
    Region *body;      /* for, while: the loop body; if: the then branch */
    Region *alt;       /* if: the else branch; while: the condition, run
                          before each iteration */
    ValId index;       /* for: the induction variable (i32 or i64) */
    ValId *iters;      /* for, while: nres carried arguments, visible in
                          every region of the op */
    ValId *yields;     /* nres values yielded at the end of body */
    ValId *alt_yields; /* if: nres values yielded at the end of alt;
                          while: [0] is alt's i1 condition (the loop ends
                          when it is false; the results are the iters) */
    struct DotPlan *plan; /* dotplan.c: for and dot ops */
    const char *str[2];   /* string attributes (AttrInfo.strs), arena */
};

typedef struct Layout Layout; /* layout.c */
typedef struct AxisInfo AxisInfo; /* axis.c */
typedef struct DotPlan DotPlan;   /* dotplan.c */
typedef struct SmemPlan SmemPlan; /* smemplan.c */

typedef struct Func {
    Ctx *ctx;
    Arena *arena;
    const char *name;
    Value *vals;       /* vals[0] is the "none" value */
    int nvals, capvals;
    ValId *params;     /* runtime parameters in order */
    int nparams;
    Region body;
    int num_warps;
    int num_stages;    /* Triton's num_stages for dot loops; 0: default */
    int sm;            /* target compute capability (90), 0: not a GPU's */
    bool host;         /* the host backend compiles the CUDA C (no inline PTX) */
    bool wgmma;        /* some dot uses wgmma: NVRTC needs sm_90a */
    bool checked;      /* checked mode (cuda_check.c): the host text checks
                          accesses, divisors and index arithmetic */
    const char *cuda_refusal; /* the cpu backend's compile: why the CUDA
                                 lowering refused the kernel (its
                                 diagnostic); the CUDA stages are absent */
    const Op *unsliced;   /* unbatch.c: the first op of rank 3 or more it
                             could not slice (layout.c's error names it) */
    Layout *layouts;   /* layout.c */
    int nlayouts;
    int64_t shared_bytes; /* static shared memory of the emitted kernel (cuda.c) */
    AxisInfo *axis;       /* axis.c: per ValId */
    SmemPlan *smem;       /* smemplan.c */
    ValId *const_slots;   /* interning table of constants (ir.c) */
    int const_cap, nconsts;
} Func;

Func *func_new(Ctx *c, const char *name);
ValId func_new_value(Func *f, ValKind kind, Type t);
ValId func_add_param(Func *f, const char *name, Type t);
/* Interned constants: one ValId per (type, bits).  f32 values are rounded
 * to float first. */
ValId const_int(Func *f, DType d, int64_t v);
ValId const_f32(Func *f, double v);
/* v rounded to float dtype d (dtype_round_float) */
ValId const_float(Func *f, DType d, double v);
ValId const_bool(Func *f, bool v);
static inline Value *val(Func *f, ValId v) { return &f->vals[v]; }
static inline Type val_type(Func *f, ValId v) { return f->vals[v].type; }
bool val_is_const(Func *f, ValId v);

/* Creates an op with the given operands and, when rtype.dtype != DT_VOID,
 * one result of type rtype; appends it to region r.  No checking: the
 * caller (elab.c, passes) computes types with the rules of typerules.c. */
Op *op_new(Func *f, Region *r, OpCode code, Loc loc, Type rtype,
           const ValId *args, int nargs);
/* Creates a for op in r with ncarry carried values: allocates index (of
 * start's type), iters and results (types of inits) and an empty body. */
Op *op_new_for(Func *f, Region *r, Loc loc, ValId start, ValId stop,
               ValId step, const ValId *inits, int ncarry);
/* An if op on the scalar i1 cond with empty then (body) and else (alt)
 * regions and nres results of the given types, yields to be filled. */
Op *op_new_if(Func *f, Region *r, Loc loc, ValId cond, const Type *types, int nres);
/* A while op carrying ncarry values (iters and results of the types of
 * inits) with empty condition (alt) and body regions. */
Op *op_new_while(Func *f, Region *r, Loc loc, const ValId *inits, int ncarry);
/* The regions of op in the order they run (while: condition, body; if:
 * then, else); returns how many (0 for an op without regions). */
int op_regions(const Op *op, Region *out[2]);
/* Whether `is` holds for op or for an op in its regions, at any depth. */
bool op_holds(const Op *op, bool (*is)(const Op *));
/* Is v an operand or a yield of an op of r or of a region inside it? */
bool region_uses(const Region *r, ValId v);
/* How many carried or combine parameters (Op.iters) an op has: a reduce
 * or scan combine (R_COMBINE) has 2n for its n results, a loop one per
 * result, others none (iters NULL). */
int op_niters(const Op *op);
void region_push(Func *f, Region *r, Op *op);
/* A reduce or scan (tlscan.c) over n operands with its region to fill:
 * iters (2n combine parameters), yields (n), results typed. */
Op *op_new_combine(Func *f, Region *r, OpCode code, Loc loc, const ValId *args,
                   int n, int64_t axis, int64_t reverse);
/* A copy of op d (no regions, at most one result: its code, location,
 * result type, attributes and strings) over the operands args, appended
 * to r (pipeload.c and unbatch.c copy ops onto other values). */
Op *op_copy(Func *f, Region *r, const Op *d, const ValId *args);
/* tl.map_elementwise over n operands of one shape: n scalar parameters
 * (iters) of their element types and an empty body; its results are
 * added by op_map_results once the body's yields are known. */
#define MT_MAX_MAP 16
Op *op_new_map(Func *f, Region *r, Loc loc, const ValId *args, int n);
/* op's nres results, of its operands' shape and the given element types,
 * and room for their yields. */
void op_map_results(Func *f, Op *op, const Type *elems, int nres);
/* An op without regions of nres results of the given types (inline asm:
 * tlasm.c); attributes and strings to set. */
Op *op_new_results(Func *f, Region *r, OpCode code, Loc loc, const ValId *args, int nargs,
                   const Type *types, int nres);

/* Textual IR in the original's syntax (see docs/ir.md).  Values are
 * renumbered %0, %1, ... in definition order; params print by name,
 * constants inline ("0.0", "256", "True", "-inf"), none as "none". */
void ir_print(StrBuf *sb, Func *f);
/* The whole function as an .ir file (docs/ir.md) without a trailing
 * newline: "func @name(x: ptr<f32>:16, n: i32) attributes {num_warps=4} {",
 * the body indented by two, "}".  irparse.c reads it back. */
void ir_print_func(StrBuf *sb, Func *f);
/* An op's attributes as the body prints them (" {axis=0}"), or nothing. */
void ir_print_attrs(StrBuf *sb, Func *f, const Op *op);
/* A string attribute as the printer quotes it (tldebug.c's ops). */
void ir_print_string(StrBuf *sb, const char *s);

/* ------------------------------------------------------------ irparse.c */

/* Reads the .ir text in c->src (c->srclen bytes, any bytes) that
 * ir_print_func writes back into a Func and runs ir_verify on it; NULL
 * with a located error in c (MT_ERR_SYNTAX, MT_ERR_NAME, MT_ERR_VERIFY).
 * print(parse(text)) == text for every printed function. */
Func *ir_parse(Ctx *c);

/* --------------------------------------------------------------- ctext.c */

/* The C expression templates of ops.def (syntax and evaluated subset: see
 * ops.def and ctext.c). */

/* A compile-time scalar of a C type: bool, int, long long or float. */
typedef struct CScalar {
    uint8_t dtype; /* any DType */
    int64_t i;     /* integers and bool: signed ones sign-extended, unsigned
                      ones zero-extended (u64 as its bit pattern) */
    double f;      /* floats: a value the dtype represents */
} CScalar;

/* The template of op `code` for a result of type rt: its f32 or bool
 * variant when it has one, else its text; NULL when the op has none. */
const char *op_ctext(int code, Type rt);
/* The template of op itself: op_ctext of its code, or for a libdevice op
 * the call of its symbol (libdevice.c); NULL when it has none. */
const char *op_template(const Op *op, Type rt);
/* Whether op has a template (for some result type). */
bool op_has_text(const Op *op);
/* C text of op `code`'s template (op_ctext) for a result of type rt:
 * args[i] is the C text of operand i, at[i] its type; conversions as
 * ctext_convert writes them; narrow floats computed in f32 and F_WRAP
 * ops in unsigned arithmetic (ops.def).  NULL when the op has no text. */
const char *ctext_expand(Arena *a, int code, const char *const *args,
                         const Type *at, int nargs, Type rt);
/* The same for op's own template (op_template). */
const char *ctext_expand_op(Arena *a, const Op *op, const char *const *args,
                            const Type *at, int nargs, Type rt);
/* x (a register of type from) converted to the element type of `to` as
 * Triton's cast converts: x itself when they agree, "(x != 0)" to bool,
 * the runtime's conversions (mt_kernel_rt.h) for narrow floats and float
 * to int, "((T)x)" otherwise. */
const char *ctext_convert(Arena *a, const char *x, Type from, Type to);
/* The C text of a constant (VK_CONST) value of type t: exact. */
const char *ctext_literal(Arena *a, Type t, const Value *v);
/* The lowest (-inf) or highest (+inf) value of d as C text. */
const char *ctext_limit(DType d, bool highest);
/* Evaluates the template on args with C's semantics and converts the
 * result to rd as the generated assignment would.  -1 when C leaves the
 * value undefined (division by zero, INT_MIN / -1, a shift out of range, a
 * float that no integer of the type holds; float division by zero too) or
 * the text is outside the evaluated subset. */
int ctext_eval(const char *tmpl, const CScalar *args, int nargs, DType rd,
               CScalar *out);
/* The C of a runtime for loop's head (the CUDA and cpu emitters'): lines
 * in order, the one that opens the body ending in '{'.  A constant step
 * of 1 is the plain `for (iv = lo; iv < hi; ++iv)`; otherwise a trip
 * count in the index's unsigned type (trip, k: fresh names), so that no
 * index past the bounds is ever formed (C leaves the signed overflow of
 * iv += step undefined) and a step that is not positive runs no
 * iteration.  Returns the number of lines (1 or 3). */
int ctext_for_head(Arena *a, bool wide, bool unit_step, const char *lo, const char *hi,
                   const char *st, const char *iv, const char *trip, const char *k,
                   const char *lines[3]);
/* name is a function templates may call (expf, cosf, isnan, ...). */
bool ctext_is_function(const char *name);

/* --------------------------------------------------- verify.c, typerules.c */

/* Checks every rule of inventory section 5.4 (ids defined before use and
 * once, arity, results, op type rules, loop rules) over all regions.
 * Reports "ssa-verifier: op #N 'name': message" at the op's location
 * through ctx, status MT_ERR_VERIFY.  Returns 0 or -1. */
int ir_verify(Func *f);
/* Result type of an op from its operand types and attrs, by the rules of
 * ops.def; -1 (with a located error) when the operands are invalid.
 * Defined in typerules.c; shared by elab.c (to type what it builds) and
 * verify.c (to check).
 * For cast, broadcast, zeros, full and empty *out is also an input: the
 * requested result type, which is validated and left as it is.  attr may
 * be NULL (all zero).  Errors: status MT_ERR_TYPE at loc. */
int ir_infer_type(Func *f, OpCode code, Loc loc, const ValId *args, int nargs,
                  const int64_t attr[2], Type *out);
/* Whether an op without regions defines a result (store and barrier do
 * not), by its type rule. */
bool op_has_result(OpCode code);
/* typerules.c: the rule of op `code` on its operands, as ir_infer_type
 * applies it, the message (at most MT_RULE_MSG_MAX bytes) in msg; and
 * whether the rule takes the result type in *out (cast, zeros, ...). */
#define MT_RULE_MSG_MAX 320
int ir_rule_check(Func *f, int code, const ValId *args, int nargs, const int64_t attr[2],
                  Type *out, char *msg);
bool ir_rule_rtype_in(int code);
/* Type text for messages ("vector<8 x i32>"), by value. */
typedef struct TypeText {
    char s[96];
} TypeText;
TypeText type_text(Type t);

/* ---------------------------------------------------------------- opt.c */

/* Each pass rewrites f in place, inside loop bodies too, never changes a
 * value's type, and returns 0 or -1. */
int pass_fold(Func *f);  /* exact f32/i32/i64 constant folding + identities */
int pass_cse(Func *f);   /* scoped CSE of F_PURE ops */
int pass_dce(Func *f);   /* removes unused F_PURE/F_READ ops and dead carries */
int pass_mem_order(Func *f); /* column accesses made row accesses (memorder.c) */
/* a tl.range(num_stages >= 2) loop's loads one iteration ahead (pipeload.c) */
int pass_pipeline_loads(Func *f);
/* rank-3 values as slices of rank 2 for the CUDA lowering (unbatch.c) */
int pass_unbatch(Func *f);
/* fp8 tl.dot operands widened to f16 (widenfp8.c): every dot's but one
 * that wgmma takes as fp8 (dot_unit DOT_WGMMA_F8), or every dot's */
int pass_widen_fp8_dots(Func *f);
int pass_widen_all_fp8_dots(Func *f);
/* Runs fold, cse, dce with ir_verify after each. */
int run_passes(Func *f);

/* ------------------------------------------------------------- layout.c */

/* Distribution of a block over the 32 * num_warps threads of a program
 * (a Triton "blocked" layout), with slice dims for broadcast operands:
 * along dim d a thread owns spt[d] consecutive elements, tpw[d] lanes and
 * wpc[d] warps tile the dim, the tile repeats to cover the shape, and a
 * shape smaller than the tile is replicated.  Dims whose size is 1 in the
 * value but not in the parent shape are "sliced": owned by every thread. */
typedef enum LayoutKind {
    LAYOUT_BLOCKED,  /* canonical blocked layout (or a slice of one) */
    LAYOUT_DOT_TILE, /* a dot's register tile: 4 x 4 blocks, no replication
                        for its parent shape (or a slice of one) */
    LAYOUT_MMA       /* a tensor-core dot's accumulator: blocked with spt
                        [1, 2], tpw [8, 4] (the m16n8 fragment), see
                        cuda_mma.c */
} LayoutKind;

struct Layout {
    int rank;
    int32_t kind; /* LayoutKind */
    int32_t shape[MT_MAX_RANK];  /* parent shape the params were made for */
    int32_t spt[MT_MAX_RANK];    /* size per thread */
    int32_t tpw[MT_MAX_RANK];    /* threads per warp (product 32) */
    int32_t wpc[MT_MAX_RANK];    /* warps per program (product num_warps) */
    int32_t order[MT_MAX_RANK];  /* order[0] fastest-varying dim */
    int32_t slice_dim;  /* rank-1 value held as a slice of this rank-2
                           layout: the parent dim it lacks; -1 otherwise */
};

/* Sets Value.layout for every block value, then inserts a convert_layout
 * op (attr[0] a ConvertHow) before every use that needs its operand in
 * another distribution. */
int layout_assign(Func *f);
typedef enum ConvertHow { CONVERT_SHARED, CONVERT_RECOMPUTE } ConvertHow;
/* Same distribution parameters (rank, spt, tpw, wpc, order)? */
bool layout_same_params(const Layout *a, const Layout *b);

/* ---------------------------------------------------------------- smem.c */

/* Version 18 shared buffer: a logical [rows, columns] tile with a physical
 * row stride (columns + row_padding) and stage_count ping-pong copies.
 * A Hopper wgmma tile (swizzle > 0, no padding) is laid out as the
 * instruction reads it instead: column blocks `swizzle` bytes wide, the
 * 16-byte chunks of each row XORed with the row bits the hardware takes
 * (mt_swz in mt_kernel_rt.h), and with perm_warps > 0 the rows of A
 * permuted so that the accumulator is LAYOUT_MMA with warps along M. */
typedef struct SharedBuffer {
    const char *name;
    int32_t rows, columns;
    DType elem;
    int row_padding; /* >= 0 */
    int stage_count; /* >= 1 */
    int swizzle;     /* 0, or the swizzle atom's row bytes: 32, 64, 128 */
    int perm_warps;  /* 0, or the warps of A's row permutation */
} SharedBuffer;

int smem_row_stride(const SharedBuffer *b);
int64_t smem_stage_size(const SharedBuffer *b);
int64_t smem_size(const SharedBuffer *b);   /* elements */
int64_t smem_nbytes(const SharedBuffer *b);
/* Element offset of (stage, row, column); -1 when out of range. */
int64_t smem_element(const SharedBuffer *b, int stage, int row, int column);
/* The same address as C text from C expressions ("dot_stage", "tile_i",
 * "dot_k"); writes into buf. */
void smem_element_text(StrBuf *sb, const SharedBuffer *b, const char *stage,
                       const char *row, const char *column);
/* "stage * stage_size + " of b, or nothing for one stage or stage "0":
 * the start of a stage, for addresses not made by smem_element_text. */
void smem_stage_text(StrBuf *sb, const SharedBuffer *b, const char *stage);
/* Padding rule: 1 when simultaneous_rows > 32 / gcd(columns, 32). */
int smem_bank_padding(int columns, int simultaneous_rows);
int smem_bank(int64_t word_offset); /* word_offset % 32 */

#define MT_SMEM_BUDGET 49152 /* bytes of static shared memory per program */
/* Past the static budget a kernel declares its shared memory dynamically
 * (cuda.c), up to what sm_90 lets one program opt into (227 KiB); the
 * launch checks the device's own limit. */
#define MT_SMEM_MAX 232448
/* Most shared-memory stages a pipelined dot loop gets (num_stages past it
 * is clamped: 7 tiles in flight hide any latency the tiles fit for). */
#define MT_MAX_STAGES 8

/* ------------------------------------------- IR reader (irread.c, irparse.c) */

typedef struct IrName {
    const char *s;
    int len;
    ValId id;
    Loc loc;       /* definition */
    bool visible;  /* false once its loop body has closed */
} IrName;

typedef struct IrReader {
    Ctx *c;
    Func *f;
    const char *p, *end;
    const char *line_start;
    int line;
    /* value names: dense array in definition order, hashed by slots */
    IrName *names;
    int nnames, capnames;
    int *slots;    /* index into names + 1; 0 = empty */
    int nslots;    /* power of two */
} IrReader;

/* An operand as written: a value, or an integer literal whose type the
 * op decides (see rd_resolve_literals). */
typedef struct IrOperand {
    ValId id;
    bool is_int;
    int64_t i;
    Loc loc;
} IrOperand;

/* The reader's lower layer (irread.c), for irparse.c. */
Loc rd_here(const IrReader *r);
int rd_peek(const IrReader *r);
void rd_skip_space(IrReader *r);
bool rd_at_eol(IrReader *r);
void rd_skip_blank_lines(IrReader *r);
MT_PRINTF(4, 5) int rd_rerr(IrReader *r, Loc loc, mt_status st, const char *fmt, ...);
int rd_expected(IrReader *r, const char *what);
bool rd_accept(IrReader *r, char ch);
int rd_expect(IrReader *r, char ch);
int rd_expect_eol(IrReader *r);
const char *rd_need_ident(IrReader *r, const char *what, int *len, Loc *loc);
bool rd_is_word(const char *s, int len, const char *w);
bool rd_accept_word(IrReader *r, const char *w);
bool rd_peek_word(IrReader *r, const char *w);
int rd_expect_word(IrReader *r, const char *w);
int rd_integer(IrReader *r, int64_t *out);
int rd_name_define(IrReader *r, const char *s, int len, Loc loc, ValId id);
int rd_def_name(IrReader *r, const char **s, int *len, Loc *loc);
void rd_close_scope(IrReader *r, int mark);
int rd_parse_type(IrReader *r, Type *out);
int rd_operand(IrReader *r, IrOperand *o);
int rd_operand_list(IrReader *r, IrOperand **out, int *n);
ValId rd_default_const(IrReader *r, const IrOperand *o);
ValId rd_typed_const(IrReader *r, const IrOperand *o, Type t);
void rd_resolve_literals(IrReader *r, OpCode code, const IrOperand *ops, int n, ValId *args, bool has_result, Type rt);
int rd_attr_dict(IrReader *r, int64_t attr[2], const char *str[2], StrBuf *canon);
int rd_check_attrs(IrReader *r, const Op *op, const StrBuf *canon);

/* ---------------------------------------------------------------- axis.c */

/* Facts along a value's last dim (see axis.c): runs of `contig`
 * consecutive values starting at multiples of contig, whose first element
 * is a multiple of `div` (pointers: bytes), runs of `constancy` equal
 * values; powers of two, AXIS_BIG when unbounded.  `hinted`: a pointer
 * from a parameter promised 16-byte aligned. */
#define AXIS_BIG ((int64_t)1 << 30)

struct AxisInfo {
    int64_t contig, constancy, div;
    bool hinted;
};

int axis_analyze(Func *f); /* fills f->axis */
void axis_print(StrBuf *sb, const AxisInfo *a); /* "axis contig=4 div=16 ..." */

/* ------------------------------------------------------------ dotplan.c */

typedef enum DotForm { DOT_SINGLE_STAGE, DOT_TWO_STAGE, DOT_PIPELINED } DotForm;

/* What multiplies: CUDA-core FMAs in f32, or a tensor-core instruction
 * (cuda_mma.c) on f16, bf16 or TF32 operands (tf32x3: three TF32 products
 * per pair, Triton's split of each f32 into a big and a small part). */
typedef enum DotUnit {
    DOT_FMA, DOT_MMA_F16, DOT_MMA_BF16, DOT_MMA_TF32, DOT_MMA_TF32X3,
    DOT_WGMMA_F16, DOT_WGMMA_BF16, /* sm_90: one warpgroup per m64 blocks */
    DOT_MMA_S8, /* int8: mma.sync m16n8k32, B's tile transposed ([BN][BK]) */
    DOT_WGMMA_F8 /* fp8 (e4m3, e5m2) on sm_90: wgmma k32, both tiles K-major */
} DotUnit;
/* Hopper's wgmma units (one warpgroup per m64 blocks, sm_90a text). */
bool dot_unit_wgmma(DotUnit u);
/* The unit a dot can use by its operands alone (dtype, input precision,
 * shape): a tensor-core unit when M % 16, N % 8 and K % the instruction's
 * k are all 0, else DOT_FMA.  The layout pass gives such a dot the
 * LAYOUT_MMA accumulator; plan_dots uses the unit when it got it. */
DotUnit dot_unit(Func *f, const Op *dot);
const char *dot_unit_name(DotUnit u); /* "fma", "mma-f16", ... */
/* Input precision (attr[0] of a dot, AS_PRECISION): ieee, tf32, tf32x3;
 * bf16x3 and bf16x6 are tl.dot's and the fp32_default option's only
 * (tlops.c builds them from bf16 dots, the IR never holds them). */
enum { DOT_IEEE, DOT_TF32, DOT_TF32X3, DOT_BF16X3, DOT_BF16X6 };
#define DOT_IR_PRECISIONS 3
/* Their names, in that order (ir.c): the printer's (the first three),
 * tl.dot's and the fp32_default option's; dot_precision_of gives a
 * name's DOT_* (any case, as Triton), or -1. */
extern const char *const dot_precision_names[5];
int dot_precision_of(const char *name);

/* How one dot is lowered (see dotplan.c); the K loop of a two-stage or
 * pipelined dot points to the same plan. */
struct DotPlan {
    DotForm form;
    Op *loop;        /* the K loop (NULL: single stage) */
    Op *dot;
    Op *add;         /* the accumulate next = acc + dot (NULL: the dot
                        takes the accumulator itself, or single stage) */
    ValId next;      /* the yielded sum */
    bool in_place;   /* pipelined: the dot may add into the carried array */
    bool tiled;      /* the result's layout is a dot tile made for it */
    bool a_as_loaded; /* tiled: A's tile [BM][BK] as loaded (4-k quads),
                         else transposed [BK][BM] (dotplan.c) */
    DotUnit unit;    /* a tensor-core unit only with a LAYOUT_MMA result */
    /* A pipelined loop of the general shape (match_carried_pipeline): any
     * start and positive step, the accumulator the carried value acc_iter,
     * other carried values advanced by `advance` (pure ops, program order)
     * and the operands computed by `prefetch` (loads and pure ops). */
    bool carried;
    int acc_iter;
    Op **advance, **prefetch;
    int nadvance, nprefetch;
    int min_blocks;  /* blocks per SM its register tile allows (tiled) */
    SharedBuffer A, B; /* the dot_lhs and dot_rhs tiles */
};

int plan_dots(Func *f); /* sets Op.plan of every dot and K loop */

const char *dot_form_name(DotForm form); /* "single-stage" ... */

/* ----------------------------------------------------------- smemplan.c */

/* The arrays a kernel declares: the scratch of conversions and
 * reductions, and the dot tiles (see smemplan.c). */
enum { SMEM_SCRATCH, SMEM_DOT_LHS, SMEM_DOT_RHS, SMEM_NARRAYS };

typedef struct SmemEntry {
    SharedBuffer buf;
    const Op *op;    /* the convert_layout, reduction or dot it serves */
    int array;       /* SMEM_* */
    int64_t offset;  /* bytes from the start of the kernel's shared memory */
    bool after_dots; /* a scratch use after the last dot (in a top-level op
                        past SmemPlan.tiles_dead_after) */
} SmemEntry;

struct SmemPlan {
    SmemEntry *bufs;
    int nbufs;
    int64_t scratch_bytes;        /* mt_smem: the largest scratch use */
    SharedBuffer lhs, rhs;        /* dot_lhs, dot_rhs: the largest tiles,
                                     declared as f32 of at least their bytes */
    bool narrow_tiles;            /* some dot reads them as 16-bit elements
                                     through dot_lhs_h, dot_rhs_h */
    bool double_tiles;            /* ... or as f64 through dot_lhs_d, dot_rhs_d */
    bool byte_tiles;              /* ... or as int8 through dot_lhs_b, dot_rhs_b */
    bool fp8_tiles;               /* ... or as fp8 bytes through dot_lhs_q, dot_rhs_q */
    int tile_align;               /* bytes: 16, or 1024 for swizzled tiles */
    int64_t offset[SMEM_NARRAYS]; /* bytes, in declaration order */
    int64_t total;                /* bytes, what the budget checks */
    bool one_array;               /* the separate arrays would pass the
                                     static budget, or a dot has three or
                                     more stages and the scratch can lie
                                     over its tiles: all in one array at
                                     the offsets (dynamic past the budget) */
    /* -1, or the index in the body of the last top-level op holding a
     * dot when the scratch uses after it lie over the dead tiles (one
     * array): the emitter waits there for every thread before the first
     * such use writes */
    int tiles_dead_after;
};

/* Plans every buffer, sets f->smem and f->shared_bytes, checks the
 * budget (MT_ERR_RESOURCE). */
int smem_plan(Func *f);
/* The buffer op uses in `array` (SMEM_*), NULL when none. */
const SharedBuffer *smem_buffer_of(const SmemPlan *p, const Op *op, int array);
void smem_plan_print(StrBuf *sb, const SmemPlan *p);

/* --------------------------------------------------------- layoutprint.c */

void layout_print(StrBuf *sb, const Layout *l); /* "blocked shape=[..] ..." */
/* The IR after the back-end passes with their annotations (--emit
 * ssa-layout): layouts, conversions, axis facts, dot plans, buffers. */
void layout_ir_print(StrBuf *sb, Func *f);

/* ------------------------------------------------ cuda.c, cuda_dist.c */

/* Can x be recomputed in any distribution (aranges, fills, scalars and
 * pure elementwise ops only) instead of moved through shared memory?
 * (cuda_dist.c) */
bool cuda_recomputable(Func *f, ValId x);
/* Does every thread already hold what shape op `op` (K_GATHER) needs of
 * its operands, at slots the same in every thread?  Then map[s] (when not
 * NULL; room for MT_MAX_ELEMS_PER_THREAD, one per result slot) is operand
 * << 16 | operand slot, and the op needs no shared memory.  (cuda_shape.c) */
bool cuda_gather_free(Func *f, const Op *op, int32_t *map);
/* Elements of scratch shape op `op` needs (0: none, it is free or its
 * rank > 2 result is read through by its users).  (cuda_shape.c) */
int64_t cuda_gather_scratch(Func *f, const Op *op);

/* Emits the CUDA C text of f (verified, optimised, after the back-end
 * passes: layout_assign, axis_analyze, plan_dots, smem_plan).  (cuda.c,
 * with cuda_dist.c and cuda_dot.c) */
int cuda_emit(Func *f, StrBuf *out);
/* Does an atomic op's used result go through shared memory (a scalar, or a
 * block whose layout replicates elements)?  smemplan.c plans its scratch.
 * (cuda_atomic.c) */
bool atomic_result_shared(Func *f, const Op *op);
/* The new value of an element's read-modify-write (not cas) as C text of
 * the old value x and the operand v, both of d's register type; what the
 * fiber backend's and the cpu backend's compare-and-swap loops store. */
const char *atomic_update_text(Arena *a, int code, DType d);

/* ------------------------------------------- CUDA emitter internals
 * Shared by cuda_dist.c (distributions, operand texts), cuda_dot.c (dot
 * lowering) and cuda.c (the other ops, the driver); nothing else uses
 * them.  Texts are arena strings of the Func being emitted. */

/* How a block value's slots map to threads: see cuda_dist.c. */
typedef struct Dist {
    Layout L;          /* parameters; L.shape is not used */
    int vrank;         /* rank of the value */
    int pdim[2];       /* value dim -> parent dim */
    int32_t n[2];      /* effective size along each parent dim */
    int32_t E[2];      /* slots along each parent dim */
    int nE;            /* total slots */
    int base;          /* index of the parameter set (base variables) */
} Dist;

/* The state of one cuda_emit: the body text and what is known of every
 * value so far. */
typedef struct Emit {
    Func *f;
    Ctx *c;
    StrBuf body;
    int indent;
    int last_line;
    const char **name;   /* C name of every value */
    Dist *dist;          /* actual distribution of every block value */
    bool *has_dist;
    Layout *bases;       /* distinct parameter sets in use */
    int nbases, capbases;
    int tmp;             /* counter for temporaries */
    int min_blocks;      /* blocks per SM every tiled dot allows (0: none) */
    bool pipelined;      /* a K loop is software pipelined */
    bool tile_addresses; /* the body names mt_sa_lhs / mt_sa_rhs, the dot
                            tiles' shared addresses (cuda_mem.c, cuda_mma.c) */
    bool wgmma_inflight; /* that loop keeps one wgmma group in flight
                            across its back edge (cuda_dot.c) */
    const char *inflight_acc; /* ... into this accumulator array */
    int inflight_n;           /* of this many slots */
    /* a pipelined loop's prefetch issued by every thread, this predicate
     * ANDed into each cp.async's (zero fill past the last tile), instead
     * of a branch around it; the loop then drains the copies after it */
    const char *tile_guard;
    bool drain_cp_async;
    int depth;           /* nesting of recomputations */
    const char *pre;     /* cuda_atomic.c: helpers written before the kernel */
    /* loads since the last host barrier (ce_emit_op): -2 none, a layout
     * index, or -1 several or a value some other thread may store */
    int load_layout;
    /* checked mode (cuda_check.c; NULL otherwise): per value, the runtime
     * parameter a pointer derives from (CHECK_ANY: several or unknown),
     * and whether an i32 + - * result feeds a pointer offset */
    int *ptr_base;
    bool *index_arith;
} Emit;

/* A block operand as a reader sees it: its array and its distribution. */
typedef struct Access {
    const char *name;
    Dist d;
} Access;

/* The loop variable over a block value's slots in every emitted loop. */
#define CE_SLOT "mt_e"

/* Text: one indented body line, a formatted arena string, a C type, the
 * "#pragma unroll" line, a dtype's zero, a "#line" for loc. */
void ce_line(Emit *e, const char *fmt, ...) MT_PRINTF(2, 3);
const char *ce_fmt(Emit *e, const char *f, ...) MT_PRINTF(2, 3);
const char *ce_ctype(Emit *e, Type t);
void ce_unroll(Emit *e);
const char *ce_zero(DType d);
void ce_mark_line(Emit *e, Loc loc);

/* Distributions and the text of coordinates and ownership of slot text. */
int32_t ce_tile(const Layout *l, int p); /* spt * tpw * wpc along p */
bool ce_fast_runs(const Dist *d); /* slots along the fastest dim in spt runs */
Dist ce_dist(Emit *e, const Layout *l, Type t, int slice_dim);
/* The same without registering a parameter set (base -1): for questions
 * asked before any text exists (cuda_gather_free). */
Dist ce_dist_unregistered(const Layout *l, Type t, int slice_dim);
Dist ce_dist_of(Emit *e, ValId v);       /* v's assigned layout */
const char *ce_slot_along(Emit *e, const Dist *d, int p, const char *sv);
const char *ce_prologue_var(Emit *e, char kind, int base, int p);
const char *ce_coord(Emit *e, const Dist *d, int p, const char *s);
const char *ce_owner_along(Emit *e, const Dist *d, int p, const char *s);
const char *ce_owner(Emit *e, const Dist *d, const char *sv);
const char *ce_value_coord(Emit *e, const Dist *d, int i, const char *sv);
/* Row-major index of slot sv within the value's own shape t. */
const char *ce_linear_text(Emit *e, const Dist *d, Type t, const char *sv);
const char *ce_scratch(Emit *e, Type t);
const char *ce_bits_type(int bytes); /* unsigned, uint2, uint4 */
const char *ce_pack_text(Emit *e, int w, int es, const char *arr, const char *base);
const char *ce_smem_text(Emit *e, const SharedBuffer *b, const char *stage,
                         const char *row, const char *column);

/* Operands: a value's C name or literal, x as a reader distributed as r
 * sees it (materialising its conversion), x's element for slot CE_SLOT of
 * r, a conversion, an op's element text (NULL: none). */
const char *ce_vname(Emit *e, ValId v);
Access ce_operand(Emit *e, ValId x, const Dist *r, const int *xmap, Loc loc);
const char *ce_elem(Emit *e, ValId x, const Dist *r, Loc loc);
const char *ce_cast(Emit *e, const char *x, Type from, Type to);
const char *ce_elementwise_expr(Emit *e, Op *op, const Dist *r);
/* The element texts a (NULL: absent) and types at of op's first
 * MT_ELEM_OPERANDS operands for slot CE_SLOT of t, materialising
 * conversions in order. */
void ce_operand_texts(Emit *e, Op *op, const Dist *t, Loc loc,
                      const char *a[MT_ELEM_OPERANDS], Type at[MT_ELEM_OPERANDS]);
const char *ce_op_text(Emit *e, Op *op, const char **a, const Type *at,
                       const Dist *r);
/* The intrinsic (__ldcg, __stcs, ...) of a load's or store's memory
 * hints for element type d; NULL: a plain access. */
const char *ce_mem_intrinsic(const Op *op, DType d);

int ce_emit_op(Emit *e, Op *op);                         /* cuda.c */
/* The located "the CUDA backend cannot lower" error of op; -1. */
int ce_unsupported(Emit *e, const Op *op);
/* s as the inside of a C string literal; percent signs doubled when the
 * text is a printf format (cuda_debug.c). */
const char *ce_c_literal(Emit *e, const char *s, bool format);
/* cuda_check.c, checked mode (Func.checked): the facts its checks need,
 * found once per kernel, then the checks written before a memory op
 * (K_MEMORY) and before an elementwise op's result (a divisor, index
 * arithmetic); each returns -1 on an error. */
int ce_check_init(Emit *e);
int ce_check_access(Emit *e, Op *op);
int ce_check_arith(Emit *e, Op *op);
int ce_check_gather(Emit *e, Op *op); /* a tl.gather's indices against the dim */
/* cuda_scan.c: scans, and reductions of several operands or a region */
#define MT_MAX_COMBINE 8 /* operands of one reduce or scan */
int ce_emit_combine(Emit *e, Op *op);
int ce_emit_map(Emit *e, Op *op); /* tl.map_elementwise (cuda_scan.c) */
int ce_emit_dot(Emit *e, Op *op);                        /* cuda_dot.c */
int ce_emit_pipelined_loop(Emit *e, Op *loop, const DotPlan *plan);
/* Vector loads and stores (cuda_mem.c): 1 when emitted, 0 when the
 * access must go slot at a time, -1 on error; store text "*p = v" or
 * the store intrinsic of op's memory hints. */
int ce_emit_vector_load(Emit *e, Op *op);
int ce_emit_vector_store(Emit *e, const Op *op, ValId p, const Dist *r, const char *vx,
                         const char *mx, DType elem);
const char *ce_store_text(Emit *e, const Op *op, const char *p, const char *v);
/* A dot operand's load straight into its shared tile (cuda_mem.c), for
 * the pipelined K loop's prefetch. */
bool ce_load_to_tile_ok(Emit *e, const Op *ld, const SharedBuffer *sbuf);
bool ce_load_to_tile_async_only(Emit *e, const Op *ld);
int ce_emit_load_to_tile(Emit *e, Op *ld, const SharedBuffer *sbuf, const char *stage,
                         const char *offsets);
void ce_tile_offsets(Emit *e, Op *ld, const SharedBuffer *sbuf, const char *name);
/* The tensor-core loop over a tensor-core dot's staged tiles, adding into
 * the accumulator array dst of distribution r (cuda_mma.c). */
void ce_mma_compute(Emit *e, const DotPlan *p, const Dist *r, const char *stage,
                    const char *dst);
/* After a pipelined loop: retire a wgmma group it left in flight. */
void ce_end_pipelined_loop(Emit *e);
int ce_emit_gather(Emit *e, Op *op);                      /* cuda_shape.c */
int ce_emit_atomic(Emit *e, Op *op);                     /* cuda_atomic.c */
int ce_emit_asm(Emit *e, Op *op); /* cuda_asm.c: tl.inline_asm_elementwise */
int ce_emit_print(Emit *e, Op *op);                      /* cuda_debug.c */
/* cuda_debug.c, for the cpu backend's print and assert too: s as the
 * inside of a C string literal (a printf format: percent signs doubled);
 * Triton's printf format of an element of type t and its argument for the
 * element text x (hex: hex=True's). */
const char *debug_c_literal(Arena *a, const char *s, bool format);
int debug_index_width(int32_t n); /* digits of an index of a dim of n, as Triton pads */
void debug_value_format(Arena *a, Type t, const char *x, bool hex, const char **fmt,
                        const char **arg);
int ce_emit_assert(Emit *e, Op *op);

/* ------------------------------------------------ cpu.c, cpu_ops.c */

/* The cpu backend (issue 18): the C of f (verified, optimised; no GPU
 * back-end pass has run), one function mt_cpu_kernel(mt_host_thread *,
 * params...) per program that computes whole tiles with loops; a located
 * MT_ERR_UNSUPPORTED error names an op it cannot lower yet. */
int cpu_emit(Func *f, StrBuf *out);

/* ------------------------------------------- cpu emitter internals
 * Shared by cpu.c (values, loops, elementwise ops, memory, control flow,
 * the driver) and cpu_ops.c (reductions, scans, dots, shape ops,
 * atomics); nothing else uses them.  Texts are arena strings. */

typedef enum CpuHow {
    CPU_NAMED,  /* a scalar, parameter or constant: name[] is its text */
    CPU_TILE,   /* a tile in the program's frame: name[] is its array */
    CPU_FUSED   /* recomputed where it is read (an elementwise chain) */
} CpuHow;

typedef struct CpuEmit {
    Func *f;
    Ctx *c;
    StrBuf body;
    int indent;
    const char **name;  /* per value: C text of a scalar, or a tile's array */
    uint8_t *how;       /* CpuHow per value */
    int *uses;          /* operand and yield uses per value */
    bool *whole;        /* some user needs it as a tile (not element by element) */
    int64_t *use_numel; /* the largest loop a user reads it in */
    int *readers;       /* distinct ops reading it (mul(x, x) is one) */
    bool *nested;       /* some reader is in a region below its home */
    bool *reduced;      /* some reader is a reduction */
    Region **home;      /* the region that defines each op result */
    int *pending;       /* readers not emitted yet */
    ValId *inplace;     /* a loop's yield: the carried value it overwrites */
    bool *mem;          /* fused, and its text reads memory (a fused load) */
    ValId *live;        /* the fused values that read memory since the last
                           op that wrote memory */
    int nlive, cap_live;
    int64_t frame;      /* bytes of the frame's tiles so far */
    StrBuf decl;        /* the tiles' declarations */
    int tmp;            /* counter for temporaries */
    int last_line;
    int exact;          /* > 0: writing an address's offset (see fused_elem) */
    ValId true_mask;    /* a mask known true for every element of the loop
                           being written (mask_all), or 0 */
} CpuEmit;

#define CPU_MAX_RANK MT_MAX_RANK
/* cpu.c: text and values */
void cpu_line(CpuEmit *e, const char *fmt, ...) MT_PRINTF(2, 3);
#define cpu_fmt(e, ...) arena_printf((e)->f->arena, __VA_ARGS__)
int cpu_unsupported(CpuEmit *e, const Op *op, const char *what);
const char *cpu_tmp(CpuEmit *e, const char *prefix);
/* A new tile of v's type in the frame (how = CPU_TILE), or its alias of
 * another tile's array. */
void cpu_new_tile(CpuEmit *e, ValId v);
/* Opens one loop per dim of t (named mt_i<d>; a unit dim gets "0", no
 * loop) and fills c with the coordinate texts; returns the loops opened. */
int cpu_open_loops(CpuEmit *e, Type t, const char **c);
void cpu_close_loops(CpuEmit *e, int n);
/* The coordinates in an operand of type vt of the element a loop over a
 * result of type rt reads at coordinates c (NumPy broadcasting). */
void cpu_map_coords(Type rt, const char *const *c, Type vt, const char **out);
/* C text of v's element at coordinates c (v's own rank), of its register
 * type; its row-major index in a tile. */
const char *cpu_elem(CpuEmit *e, ValId v, const char *const *c);
const char *cpu_index(CpuEmit *e, Type t, const char *const *c);
int cpu_emit_region(CpuEmit *e, Region *r);
/* cpu_ops.c */
int cpu_emit_reduce(CpuEmit *e, Op *op);
int cpu_emit_combine(CpuEmit *e, Op *op); /* reduce/scan with a region, scans */
int cpu_emit_map(CpuEmit *e, Op *op); /* tl.map_elementwise */
int cpu_emit_dot(CpuEmit *e, Op *op);
int cpu_emit_gather(CpuEmit *e, Op *op);
int cpu_emit_atomic(CpuEmit *e, Op *op);
int cpu_emit_debug(CpuEmit *e, Op *op);   /* print, assert */

/* ----------------------------------------------------------------- sig.c */

/* One entry of a signature: a runtime parameter type or a constexpr. */
/* SIG_DESC: "tensordesc<fp16[64, 64]>" (",nan" before '>' for NaN
 * padding), a tensor descriptor made on the host: runtime parameters
 * NAME (the base, 16-byte aligned), NAME__shape_0 .. (i32, one per dim)
 * and NAME__stride_0 .. (i64, all dims but the last, whose stride is 1) */
typedef enum SigKind { SIG_PTR, SIG_SCALAR, SIG_CONST, SIG_DESC } SigKind;
typedef enum CKind { CK_INT, CK_FLOAT, CK_BOOL, CK_STR, CK_NONE, CK_DTYPE, CK_TUPLE } CKind;

typedef struct ConstVal {
    CKind kind;
    int64_t i;   /* CK_INT, CK_BOOL */
    double f;    /* CK_FLOAT */
    const char *s;
    struct ConstVal *items; /* CK_TUPLE: n literals, "(4, 8)" */
    int n;
} ConstVal;

typedef struct SigEntry {
    SigKind kind;
    DType dtype;    /* SIG_PTR: pointee; SIG_SCALAR: type */
    ConstVal value; /* SIG_CONST */
    int32_t hint;   /* SIG_PTR/SIG_SCALAR ":16" divisibility hint; 0 none */
    bool is_const;  /* SIG_PTR: "*k": to constant data (tl.const) */
    uint8_t desc_rank, desc_nan; /* SIG_DESC: dims, NaN padding */
    int32_t desc_block[5];       /* SIG_DESC: the block shape */
} SigEntry;

/* Parses "*fp32, i32, 256, -1.5, True, 'ieee'".  Errors are reported with
 * the column inside the signature string and status MT_ERR_SIGNATURE. */
int sig_parse(Ctx *c, const char *sig, SigEntry **out, int *n);
int sig_parse_literal(const char *text, ConstVal *out, Arena *a);

/* ---------------------------------------------------------------- elab.c */

typedef struct ElabInput {
    Module *module;
    const char *kernel;
    SigEntry *sig;
    int nsig;
    const mt_global *globals;
    int nglobals;
    int num_warps;
    /* tldebug.c: debug mode, and where tl.static_print writes */
    bool debug;
    void (*print)(void *user, const char *text);
    void *print_user;
    int fp32_default; /* tlops.c: 1 + the DOT_* of an fp32 dot naming no
                         precision; 0: Triton's rule */
} ElabInput;

/* Elaborates the kernel for one signature into verified-ready SSA.
 * Returns NULL with a located error. */
Func *elaborate(Ctx *c, const ElabInput *in);

/* ------------------------------- elaborator internals: elab.c,
 * elabflow.c, ctval.c, builtins.c, dtypeval.c and the tl*.c handlers (the
 * files of the elaborator; nothing else uses these) */

/* A compile-time value: a Python value of the kernel language, or a
 * TENSOR, an SSA value.  Python values stay compile-time until they meet a
 * tensor or are bound to a name (a number then becomes a tensor, cv_lift). */
typedef enum CVKind {
    CV_NONE, CV_INT, CV_FLOAT, CV_BOOL, CV_STR, CV_TUPLE, CV_DTYPE, CV_MODULE,
    CV_BUILTIN, CV_BOUND, CV_JITFN, CV_SLICE, CV_ELLIPSIS, CV_TENSOR,
    CV_BLOCKPTR, /* tlblockptr.c: items hold base, shape, strides, offsets,
                    block_shape, order (n = 1 + 5 * rank) */
    CV_TENSORDESC /* tldesc.c: items hold base, shape, strides, block_shape,
                     padding (n = 2 + 3 * rank) */
} CVKind;

typedef enum ModKind {
    MOD_TL, MOD_TRITON, MOD_MATH, MOD_OTHER,
    MOD_EXTRA, MOD_LIBDEVICE, MOD_PROPAGATE_NAN /* tlmath.c */
} ModKind;

typedef struct CV CV;
struct CV {
    uint8_t kind;
    uint8_t is_list;  /* CV_TUPLE: a list */
    uint8_t ptr_const; /* CV_TENSOR of pointers: to constant data (tl.const);
                          stores through it are refused */
    int16_t sub;      /* dtype, module kind, builtin row */
    int n;            /* tuple length, string length */
    int64_t i;
    double f;
    const char *s;    /* string, module path */
    CV *items;        /* tuple items; slice (3); bound method receiver (1) */
    TopFunc *fn;
    ValId v;
};

/* The builtins that code refers to: rows of builtins.c's table (the other
 * rows are found by their names).  CV.sub of a CV_BUILTIN is a row. */
typedef enum BuiltinId {
    B_RANGE, B_STATIC_RANGE, B_TL_RANGE, B_CAST, B_FLOAT, B_INT, B_BOOL, B_STR,
    B_NONETYPE,
    B_NAMED /* the first row without a name here */
} BuiltinId;

#define MAX_BUILTIN_PARAMS 11 /* tl.dot_scaled has the longest parameter list */

typedef struct Scope Scope; /* elab.c: names in scope */

/* One elaboration: where ops go, what is in scope, and the bounds that
 * keep every input finite (nesting, inlining, work, unrolling). */
typedef struct Elab {
    Ctx *c;
    Func *f;
    Module *m;
    const ElabInput *in;
    Region *region;   /* where ops go */
    Scope *scope;
    int nest;         /* recursion depth of eval/stmt */
    long work;        /* statements run + helper calls made: bounds inlining */
    int inline_depth;
    const char *fn_name; /* the function being run (tldebug.c's asserts) */
    int loop_depth;   /* loops enclosing the current statement (this function) */
    int64_t unrolled;
    int const_eval;   /* > 0: evaluating a module constant, no ops allowed */
    bool returned;
    CV retval;
    struct Segment *cont; /* elab.c: the statements still to run, innermost
                             block first (a runtime if with a return runs
                             them inside its branches) */
    CV *const_vals;   /* per TopConst */
    uint8_t *const_state; /* 0 new, 1 evaluating, 2 done */
} Elab;

/* The evaluated arguments of a call: positional, then keyword. */
typedef struct Args {
    int npos;
    CV *pos;
    Loc *posloc;
    int nkw;
    const char **kwname;
    CV *kw;
    Loc *kwloc;
} Args;

/* The bounds of a range(), tl.range() or tl.static_range() loop header. */
typedef struct RangeArgs {
    CV start, stop, step;
    Loc start_loc, stop_loc, step_loc;
    int num_stages; /* tl.range's num_stages, 0 when not given */
} RangeArgs;

static inline bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }
static inline bool cv_is_num(CV v) {
    return v.kind == CV_INT || v.kind == CV_FLOAT || v.kind == CV_BOOL;
}
static inline bool cv_is_intlike(CV v) { return v.kind == CV_INT || v.kind == CV_BOOL; }
static inline double cv_num_f(CV v) { return v.kind == CV_FLOAT ? v.f : (double)v.i; }
static inline Type cv_type(Elab *E, CV v) { return val_type(E->f, v.v); }

/* elab.c's scope and statement runner, shared with elabflow.c. */
#define MAX_NEST 1100         /* expression/statement recursion (parse.c allows trees 1000 tall) */
#define MAX_UNROLL 65536      /* total unrolled iterations per kernel */
/* SSA values a kernel may reach while unrolling (issue 15): the host C++
 * compiler needs ~8 s for 25k, and static_range(65536) of a load and an
 * add (200k) made it crash after 13 s */
#define MAX_UNROLLED_VALUES 32768
#define MAX_AUTO_UNROLL 64    /* range() with constant bounds unrolls up to */
typedef struct Binding {
    const char *name;
    CV v;
} Binding;

/* A flat list: kernels bind few names, and a helper's call gets a fresh
 * scope, so Python's function scoping needs no chain. */
struct Scope {
    Binding *b;
    int n, cap;
};

/* A block being run: its statements and the one running now.  The chain
 * (Elab.cont) is what is left of the function after the current
 * statement, block by block outwards. */
typedef struct Segment {
    Node **stmts;
    int n, pos;
    struct Segment *next;
} Segment;

Binding *elab_scope_find(Scope *s, const char *name);
void elab_scope_set(Elab *E, const char *name, CV v);
void elab_scope_remove(Scope *s, const char *name);
int elab_eval(Elab *E, Node *n, CV *out);
int elab_eval_args(Elab *E, Node *call, Args *a);
int elab_exec_block(Elab *E, Node **stmts, int n);
/* elabflow.c: loops and ifs on runtime values (see its header). */
int elab_exec_for(Elab *E, Node *s);
int elab_exec_while(Elab *E, Node *s);
int elab_exec_runtime_if(Elab *E, Node *s, CV c);
int elab_eval_runtime_ifexp(Elab *E, Node *n, CV c, CV *out);

/* elab.c: every error of the elaborator, located; the first one wins. */
int elab_err(Elab *E, Loc loc, mt_status st, const char *fmt, ...) MT_PRINTF(4, 5);
/* elab.c: a @jit function inlined at loc (tlscan.c's combine regions). */
int elab_call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out);

/* ctval.c: values, their Python operators, and the ops made from them.
 * Every op goes through elab_emit, which types it by ir_infer_type (none
 * while a module constant is evaluated); elab_emit_typed passes the
 * requested result type of cast, broadcast, zeros, full and empty. */
int elab_emit(Elab *E, OpCode code, Loc loc, const ValId *args, int n, int64_t a0,
              int64_t a1, ValId *out);
int elab_emit_typed(Elab *E, OpCode code, Loc loc, const ValId *args, int n,
                    int64_t a0, int64_t a1, Type want, ValId *out);
int elab_cast(Elab *E, ValId x, DType d, Loc loc, ValId *out);
int elab_expand_dims(Elab *E, ValId x, int axis, Loc loc, ValId *out);
CV cv_none(void);
CV cv_int(int64_t i);
CV cv_float(double f);
CV cv_bool(bool b);
CV cv_str(const char *s, int n);
CV cv_tuple(Elab *E, int n); /* n items to fill */
CV cv_tensor(ValId id);
CV cv_builtin(int b); /* row of the builtin table */
CV cv_module(ModKind k, const char *path);
CV cv_dtype(int d);
/* A signature or global literal as a value; a dtype literal (tl.float32)
 * the language does not support yet is a located error at loc. */
int cv_from_const(Elab *E, const ConstVal *k, Loc loc, CV *out);
const char *cv_kind_name(Elab *E, CV v); /* "int", "tuple", "vector<8 x f32>" */
const char *elab_type_text(Elab *E, Type t);
const char *elab_shape_text(Elab *E, Type t); /* "[64, 32]" */
/* A compile-time int; else "<what> must be a compile-time integer". */
int cv_need_int(Elab *E, CV v, Loc loc, const char *what, int64_t *out);
/* Python truth of a compile-time value; a tensor is an error saying `what`. */
int cv_truth(Elab *E, CV v, Loc loc, const char *what, bool *out);
int cv_materialise(Elab *E, CV v, Loc loc, ValId *out);
int cv_lift(Elab *E, CV v, Loc loc, CV *out); /* a name's value, as Triton binds it */
/* A number next to a tensor of type `like` takes its dtype (weak constant). */
int cv_materialise_like(Elab *E, CV v, Type like, Loc loc, ValId *out);
int cv_convert(Elab *E, CV v, DType d, Loc loc, ValId *out); /* number -> d */
int ct_overflow(Elab *E, Loc loc);
int ct_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out);
int ct_compare(Elab *E, OpTok op, CV a, CV b, Loc loc, bool *out);
int ct_index(Elab *E, CV seq, CV idx, Loc loc, CV *out); /* t[i], t[lo:hi] */
/* A Python operator on any two values: folded when both are compile-time,
 * else an op on tensors (numbers adopt the tensor's dtype). */
int cv_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out);
int cv_compare(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out);
int cv_unary(Elab *E, OpTok op, CV v, Loc loc, CV *out); /* + - ~ */

/* builtins.c: the table of builtins, each call bound to a row's
 * parameters and checked (a Call) before the row's handler runs. */
/* What a parameter must be; the checked value lands in the Call. */
typedef enum ParamCheck {
    P_ANY,         /* the handler looks at it */
    P_TENSOR,      /* a tensor; a number becomes a constant (Call.t) */
    P_POINTER,     /* a pointer tensor (Call.t) */
    P_BLOCK,       /* a block tensor, numbers refused (Call.t, Call.block) */
    P_INT,         /* a compile-time int (Call.i) */
    P_NEW_AXIS,    /* an axis of parameter 0's rank + 1, normalised (Call.i) */
    P_SHAPE,       /* a block shape: int or tuple of ints (Call.rank, shape) */
    P_BLOCK_DTYPE, /* the dtype of a new block (Call.dtype, Call.block) */
    P_DTYPE        /* a target dtype, maybe a pointer type (Call.dtype, dtype_ptr) */
} ParamCheck;

typedef struct BuiltinParam {
    const char *name;
    uint8_t check; /* ParamCheck */
} BuiltinParam;

typedef struct Call Call;
typedef int (*BuiltinFn)(Elab *E, Call *c, CV *out);

typedef struct Builtin {
    const char *display; /* in messages; the part after the last '.' is
                            the name in each namespace of `flags` */
    uint16_t flags;
    BuiltinFn fn;
    OpCode op;           /* what the generic handlers emit; OP_COUNT: none */
    int nreq;            /* leading parameters that are required */
    BuiltinParam params[MAX_BUILTIN_PARAMS];
    const char *doc;     /* usage for the Python bindings */
} Builtin;

/* A call bound to a builtin's parameters, and the checked values. */
struct Call {
    const Builtin *b;
    Loc loc;
    const Args *args;               /* as written (UNBOUND builtins) */
    CV a[MAX_BUILTIN_PARAMS];       /* bound arguments; None when absent */
    bool have[MAX_BUILTIN_PARAMS];
    Loc locs[MAX_BUILTIN_PARAMS];   /* the call's location when absent */
    ValId t[MAX_BUILTIN_PARAMS];    /* P_TENSOR, P_POINTER, P_BLOCK */
    int64_t i[MAX_BUILTIN_PARAMS];  /* P_INT, P_NEW_AXIS */
    int rank;                       /* P_SHAPE */
    int32_t shape[MT_MAX_RANK];
    DType dtype;                    /* P_BLOCK_DTYPE, P_DTYPE */
    bool dtype_ptr;                 /* P_DTYPE: a pointer to dtype */
    Type block;                     /* P_BLOCK, or P_SHAPE with P_BLOCK_DTYPE */
};

/* The checks of builtins.c's binder, and the handlers of the tl.*
 * builtins in tlops.c (the rows of builtins.c's table name them). */
int builtin_need_tensor(Elab *E, CV v, Loc loc, const char *fn, ValId *out);
/* The row `row` of builtins.c's table. */
const Builtin *builtin_row(int row);
/* An axis in [-lim, lim) with lim = rank + extra, made non-negative. */
int builtin_norm_axis(Elab *E, CV v, int rank, int extra, Loc loc, int64_t *out);
#define MAX_BLOCK_NUMEL (1 << 24)
int h_grid_axis(Elab *E, Call *c, CV *out);
int h_arange(Elab *E, Call *c, CV *out);
int h_load(Elab *E, Call *c, CV *out);
int h_store(Elab *E, Call *c, CV *out);
int h_elementwise(Elab *E, Call *c, CV *out);
int h_abs(Elab *E, Call *c, CV *out);
int h_where(Elab *E, Call *c, CV *out);
int h_reduce(Elab *E, Call *c, CV *out);
int h_fill(Elab *E, Call *c, CV *out);
int h_cdiv(Elab *E, Call *c, CV *out);
int h_tl_cdiv(Elab *E, Call *c, CV *out);
int h_dot(Elab *E, Call *c, CV *out);
/* tldotscaled.c: tl.dot_scaled, decomposed into upcasts, scaling and tl.dot */
int h_dot_scaled(Elab *E, Call *c, CV *out);
int h_axis_op(Elab *E, Call *c, CV *out);
int h_cast(Elab *E, Call *c, CV *out);
int h_identity(Elab *E, Call *c, CV *out);
int h_static_assert(Elab *E, Call *c, CV *out);
int h_loop_only(Elab *E, Call *c, CV *out);
int h_jit(Elab *E, Call *c, CV *out);
int h_effect(Elab *E, Call *c, CV *out);
int h_pointer_type(Elab *E, Call *c, CV *out);
int h_assume(Elab *E, Call *c, CV *out);
int h_condition(Elab *E, Call *c, CV *out);
/* pybuiltins.c: Python's builtins (min, max, int, isinstance, ...) */
int h_py_min_max(Elab *E, Call *c, CV *out);
int h_nonetype(Elab *E, Call *c, CV *out);
int h_float(Elab *E, Call *c, CV *out);
int h_int(Elab *E, Call *c, CV *out);
int h_bool(Elab *E, Call *c, CV *out);
int h_str(Elab *E, Call *c, CV *out);
int h_len(Elab *E, Call *c, CV *out);
int h_getattr(Elab *E, Call *c, CV *out);
int h_type(Elab *E, Call *c, CV *out);
int h_isinstance(Elab *E, Call *c, CV *out);
int h_hasattr(Elab *E, Call *c, CV *out);
int h_class(Elab *E, Call *c, CV *out);
/* tlshape.c: the shape builtins; x.T is tl_shape_transpose */
int h_reshape(Elab *E, Call *c, CV *out);
int h_ravel(Elab *E, Call *c, CV *out);
int h_item(Elab *E, Call *c, CV *out);
int tl_unsplat(Elab *E, ValId x, Loc loc, ValId *out);
int h_permute(Elab *E, Call *c, CV *out);
int h_join(Elab *E, Call *c, CV *out);
int h_split(Elab *E, Call *c, CV *out);
int h_cat(Elab *E, Call *c, CV *out);
int h_interleave(Elab *E, Call *c, CV *out);
int h_flip(Elab *E, Call *c, CV *out);
int h_gather(Elab *E, Call *c, CV *out);
int h_broadcast(Elab *E, Call *c, CV *out);
int h_broadcast_to(Elab *E, Call *c, CV *out);
/* x broadcast to the shape of `to` (its own element type kept) */
int tl_broadcast_to(Elab *E, ValId x, Type to, Loc loc, ValId *out);
int h_map_elementwise(Elab *E, Call *c, CV *out);
int h_expand_dims(Elab *E, Call *c, CV *out);
int tl_shape_transpose(Elab *E, ValId x, Loc loc, CV *out);
/* x as a block of `rank` dims `shape` in row-major order (x itself when it
 * has that shape already) */
int tl_shape_reshape(Elab *E, ValId x, int rank, const int32_t *shape, Loc loc, ValId *out);
/* tlmath.c: Triton's math set, libdevice, tl.PropagateNan. */
int h_math_f32_f64(Elab *E, Call *c, CV *out);
int h_math_f32(Elab *E, Call *c, CV *out);
int h_umulhi(Elab *E, Call *c, CV *out);
int h_fma(Elab *E, Call *c, CV *out);
int h_fdiv(Elab *E, Call *c, CV *out);
int h_maximum(Elab *E, Call *c, CV *out);
int h_clamp(Elab *E, Call *c, CV *out);
int h_sigmoid(Elab *E, Call *c, CV *out);
int h_softmax(Elab *E, Call *c, CV *out);
int h_libdevice(Elab *E, Call *c, CV *out);
int h_libdevice_exact(Elab *E, Call *c, CV *out);
int h_libdevice_f32(Elab *E, Call *c, CV *out);
int h_libdevice_pow(Elab *E, Call *c, CV *out);
int h_libdevice_call(Elab *E, Call *c, CV *out);

/* libdevice.c: the libdevice functions that are calls of the runtime's
 * mt_nv_* (libdevice.def, mt_libdevice_rt.h).  A symbol's index is the
 * libdevice op's attr[0]. */
#define LIBDEVICE_NSYMS 228
#define LIBDEVICE_MAX_ARGS 4
typedef struct LibdeviceSym {
    const char *symbol;   /* libdevice's name, "__nv_clzll" */
    const char *tmpl;     /* its C template, "mt_nv_clzll(%0)" */
    DType ret;
    int nargs;
    DType args[LIBDEVICE_MAX_ARGS];
} LibdeviceSym;
extern const char *const libdevice_symbol_names[LIBDEVICE_NSYMS];
/* symbol `index`; NULL when there is none */
const LibdeviceSym *libdevice_sym(int64_t index);
/* Triton function `name`'s symbols: the index of its first, and their
 * number (0: no such function); *to_bool: its result converts to int1. */
int libdevice_fn(const char *name, int *first, bool *to_bool);
/* An attribute of tl.PropagateNan or tl.extra[.cuda]; 1: no such name. */
int tlmath_module_attr(Elab *E, CV obj, const char *name, CV *out);
/* tl.<name>(pos..., kw=kwv) through the builtin table, as Triton's @jit
 * library functions call builtins (kw NULL: none). */
int tl_call(Elab *E, const char *name, CV *pos, int npos, const char *kw, CV kwv, Loc loc,
            CV *out);
/* tlrandom.c: tl.rand and its family on Triton's Philox stream. */
int h_philox_lanes(Elab *E, Call *c, CV *out);
int h_uint_to_uniform_float(Elab *E, Call *c, CV *out);
int h_pair_uniform_to_normal(Elab *E, Call *c, CV *out);
int h_philox(Elab *E, Call *c, CV *out);
int h_philox_impl(Elab *E, Call *c, CV *out);
/* tlatomic.c: the tl.atomic_* builtins.  An atomic op's attr[0] is its
 * memory order, sem * MEM_NSCOPES + scope (printed "acq_rel_gpu"). */
typedef enum MemSem { SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, MEM_NSEMS } MemSem;
typedef enum MemScope { SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, MEM_NSCOPES } MemScope;
int h_atomic_rmw(Elab *E, Call *c, CV *out);
/* Can an atomic op (OP_ATOMIC_*) work on elements of d?  (typerules.c asks) */
bool atomic_dtype_ok(int code, DType d);
int h_atomic_cas(Elab *E, Call *c, CV *out);
/* tlscan.c: reductions and scans */
int h_xor_sum(Elab *E, Call *c, CV *out);
int h_scan(Elab *E, Call *c, CV *out);
int h_reduce_fn(Elab *E, Call *c, CV *out);      /* tl.reduce */
int h_scan_fn(Elab *E, Call *c, CV *out);        /* tl.associative_scan */
int h_argmax(Elab *E, Call *c, CV *out);         /* tl.argmax, tl.argmin */
/* max/min(return_indices=True): (values, indices) as Triton's
 * _reduce_with_indices; the row's op says which */
int h_reduce_indices(Elab *E, Call *c, CV *out);
int h_histogram(Elab *E, Call *c, CV *out);      /* tl.histogram */
int h_sort(Elab *E, Call *c, CV *out);           /* tl.sort */
/* tlblockptr.c: block pointers, and tl.load / tl.store (through a block
 * pointer, or checked and handed to h_load / h_store). */
int h_make_block_ptr(Elab *E, Call *c, CV *out);
int h_advance(Elab *E, Call *c, CV *out);
int h_mem_load(Elab *E, Call *c, CV *out);
int h_mem_store(Elab *E, Call *c, CV *out);
/* tl.multiple_of, tl.max_contiguous, tl.max_constancy: the row's op */
int h_hint(Elab *E, Call *c, CV *out);
/* A strided block in memory, as block pointers and tensor descriptors
 * (tldesc.c) address it: `rank` items each of shape (i64 or i32 scalars or
 * ints), strides (i64 scalars or ints) and offsets (i32 scalars or ints),
 * the block's compile-time dims, and the dims whose bounds mask the
 * access. */
typedef struct BlockRef {
    CV base; /* a scalar pointer */
    int rank;
    const CV *shape, *strides, *offsets;
    int64_t block[MT_MAX_RANK];
    unsigned checked;
} BlockRef;
enum { PAD_NONE, PAD_ZERO, PAD_NAN };
/* shapes or strides (i64) or offsets (i32) as Triton converts them: ints
 * or integer scalars, a list of them or one */
int block_scalars(Elab *E, CV v, Loc loc, bool i64, const char *what, CV *parts, int *n);
int block_ref_load(Elab *E, const BlockRef *b, int padding, const int64_t hints[2], Loc loc,
                   ValId *out);
int block_ref_store(Elab *E, const BlockRef *b, ValId v, const int64_t hints[2], Loc loc);
/* the pointers and mask (0: none) of the block in its access view (the
 * block up to rank 2, [rows, last dim] above) */
int block_ref_addresses(Elab *E, const BlockRef *b, Loc loc, ValId *ptr, ValId *mask);
/* base + sum of pos[d] * strides[d] and the mask of 0 <= pos[d] (dims
 * of checked[0]) and pos[d] < shape[d] (checked[1]), for i64 positions
 * already shaped */
int strided_addresses(Elab *E, CV base, int r, const CV *pos, const CV *shape,
                      const CV *strides, const unsigned checked[2], Loc loc, ValId *ptr,
                      ValId *mask);
/* tldesc.c: tensor descriptors (tl.make_tensor_descriptor, their loads,
 * stores, atomics, gathers and scatters, and attributes) */
int h_make_tensor_descriptor(Elab *E, Call *c, CV *out);
int h_desc_load(Elab *E, Call *c, CV *out);
int h_desc_store(Elab *E, Call *c, CV *out);
int h_desc_atomic(Elab *E, Call *c, CV *out);   /* the row's op */
int h_desc_gather(Elab *E, Call *c, CV *out);
int h_desc_scatter(Elab *E, Call *c, CV *out);
/* a "tensordesc<...>" parameter: its parts added as parameters of E->f */
int tl_desc_param(Elab *E, const char *name, const SigEntry *se, Loc loc, CV *out);
/* desc.<name> for the attributes that are not methods: 1 when none */
int tl_desc_attr(Elab *E, CV desc, const char *name, Loc loc, CV *out);
/* tldebug.c: printing, assertions and debug mode's overflow checks */
int h_device_print(Elab *E, Call *c, CV *out); /* tl.device_print, print */
int h_inline_asm(Elab *E, Call *c, CV *out); /* tlasm.c: tl.inline_asm_elementwise */
/* tlasm.c: the 32-bit (or 64-bit) registers that pack elements of dtype d
 * take in inline asm: elements of fewer than 32 bits share one */
int asm_registers(DType d, bool is_ptr, int pack);
/* tlasm.c: the constraints of inline asm, one letter per register (r h l
 * f d) and whether it is an output ("=r"); -1 for any other form, an
 * output after an input, or more than max; the bits of a letter's
 * register (0: not a letter); the located error for constraints that
 * asm_constraints refuses. */
int asm_constraints(const char *s, char *letters, bool *outs, int max);
int asm_letter_bits(char c);
int asm_constraint_error(Ctx *c, Loc loc, const char *constraints);
/* The located error of a backend that cannot run inline asm (PTX). */
int asm_only_on_gpu(Ctx *c, Loc loc, const char *backend);
int h_static_print(Elab *E, Call *c, CV *out);
int h_device_assert(Elab *E, Call *c, CV *out);
/* `assert cond, msg` on a runtime cond (msg: a string or None) */
int tldebug_assert_stmt(Elab *E, CV cond, CV msg, Loc loc);
/* In debug mode, before x + y, x - y or x * y (code) on integer tensors:
 * the assertion that the exact result fits the computation type. */
int tldebug_overflow_check(Elab *E, OpCode code, ValId x, ValId y, Loc loc);

/* builtins.c: the kernel language's names and the builtins behind them. */
/* Calls a builtin, a bound tensor method or a dtype (tl.float32(x)). */
int builtin_call(Elab *E, CV callee, const Args *a, Loc loc, CV *out);
int builtin_getattr(Elab *E, CV obj, const char *name, Loc loc, CV *out);
/* tl.<name> as a dtype value; unknown and not-yet-supported dtypes are
 * located errors. */
int builtin_dtype(Elab *E, const char *name, Loc loc, CV *out);
bool builtin_global(const char *name, CV *out); /* range, len, ... */
/* dtypeval.c: tl.<name> as a dtype (0), a located error (-1), or not a
 * dtype name (1); a dtype value's attribute (1: no such attribute); the
 * predicate of a dtype method (is_floating, ...) on dtype d. */
int dtype_by_name(Elab *E, const char *name, Loc loc, CV *out);
int dtype_value_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out);
bool dtype_predicate(const char *method, DType d, bool is_ptr);
int bind_range(Elab *E, int b, Loc loc, const Args *a, RangeArgs *out);

/* ------------------------------------------------------------ pipeline.c */

/* One past the last mt_stage: the size of per-stage tables.  A stage
 * appended to mt_stage raises it and adds a row to pipeline.c's
 * stage_names (a static assertion there checks the count). */
#define MT_NSTAGES (MT_STAGE_CPU + 1)

/* Where printed stages go: passes never print, pipeline_run hands each
 * snapshot (ast, ssa, ssa-opt, cuda) to put, which copies what it keeps;
 * text is NULL when printing ran out of memory.  No put: nothing is
 * printed but the CUDA C, which is the pipeline's product. */
typedef struct StageSink {
    void (*put)(void *user, mt_stage stage, const char *text, size_t len);
    void *user;
} StageSink;

typedef struct PipelineInput {
    const char *kernel;
    const char *signature;
    const mt_global *globals;
    int nglobals;
    int num_warps; /* as asked: checked by check_resources, no default */
    int num_stages; /* mt_compile_options' num_stages (0: default) */
    int sm;         /* the target's compute capability, 0: the host's text */
    bool debug;    /* tldebug.c: mt_compile_options' debug and print */
    void (*print)(void *user, const char *text);
    void *print_user;
    bool mlir;     /* also emit the MLIR module (mlir.c) */
    bool checked;  /* checked mode: cuda_check.c's checks in the host text */
    bool cpu;      /* the cpu backend's C (cpu.c) */
    bool no_cuda;  /* ... without the GPU's passes and CUDA C (a cpu build
                      needs neither; a stages_only one prints them too) */
    int fp32_default; /* ElabInput's; 0: Triton's rule */
    bool host;     /* the host backend compiles the CUDA C: no inline PTX */
} PipelineInput;

/* Source (in c) to CUDA C: parse, signature, elaborate, fold, cse, dce,
 * resources, layout, emit; ir_verify after every pass that transforms IR.
 * Returns the final Func (c's arena) or NULL with c's error. */
Func *pipeline_run(Ctx *c, const PipelineInput *in, const StageSink *sink);

#define MT_MAX_THREADS 1024         /* threads per program (a CUDA block) */
#define MT_MAX_ELEMS_PER_THREAD 512 /* elements of one block value per thread */
#define MT_MAX_ASM_RESULTS 16       /* results of one tl.inline_asm_elementwise */
#define MT_MAX_ASM_REGS 128         /* registers of one of its asm statements */

/* The resource pass: every limit that is a compile-time fact (program
 * size, elements per thread), each a located error; kernel_loc locates
 * what belongs to the whole kernel. */
int check_resources(Func *f, Loc kernel_loc);

/* --------------------------------------------------- mlir.c, mlirrun.c */

/* The MLIR module of f (after the back-end passes, like cuda_emit): a
 * located MT_ERR_UNSUPPORTED error for what the MLIR path does not lower. */
int mlir_emit(Func *f, StrBuf *out);
/* The module's PTX for arch ("sm_90"): from the disk cache (key: the
 * module text, arch and the pipeline's version; a cache hit needs no
 * tools), else mlir-opt, mlir-translate and llc run as processes (found
 * through MYTRITON_MLIR_BIN, PATH, then /usr/lib/llvm-N/bin), the result
 * stored; a missing tool is an MT_ERR_UNSUPPORTED error naming it. */
int mlir_ptx(Ctx *c, const char *module, const char *arch, StrBuf *ptx);
/* Where tool `name` ("mlir-opt") is, in buf; -1 when not found. */
int mlir_find_tool(const char *name, char *buf, size_t n);
/* The argument block of an MLIR kernel (memref descriptors for pointers:
 * allocated, aligned, offset 0, size, stride 1) built from the CUDA-style
 * args; store must hold 5 slots per parameter. */
void mlir_launch_args(const Type *ptypes, int nparams, void **args, void **out,
                      int64_t *store);

/* ------------------------------------------- MLIR emitter internals
 * Shared by mlir.c (the module, threads, values, regions) and mlir_ops.c
 * (the ops); nothing else uses them.  Texts are arena strings. */

typedef struct MEmit {
    Func *f;
    StrBuf body, consts, pro, wg;
    int indent;
    const char ***names; /* per ValId: one SSA name per slot */
    int *nslots;
    Dist *dist;          /* block values: how their slots map to threads */
    bool *has_dist;
    ValId *base;         /* pointer values: the parameter they index */
    int *num;            /* printed number of each value (irprint.c's) */
    int next_num;
    const char **cnames; /* interned constants: "type value" -> name */
    int ncnames, capcnames;
    Layout *bases;       /* layout parameter sets whose base vars exist */
    int nbases, capbases;
    bool axis[3], nprog[3];
    int tmp, nwg;
    int64_t wg_bytes;    /* workgroup memory declared so far */
} MEmit;

#define MLIR_ERR(m, loc, ...) diag_error((m)->f->ctx, (loc), MT_ERR_UNSUPPORTED, __VA_ARGS__)

/* mlir.c: text, types, constants, threads and values */
#define ml_fmt(m, ...) arena_printf((m)->f->arena, __VA_ARGS__)
void ml_line(MEmit *m, const char *f, ...) MT_PRINTF(2, 3);
const char *ml_tmp(MEmit *m);              /* a fresh %mt_t<n> */
int ml_unsupported(MEmit *m, const Op *op); /* the original's message */
const char *ml_mtype(DType d);   /* MLIR register type; NULL for fp8 */
const char *ml_memtype(DType d); /* in memory: a bool is i8 */
int ml_bits(DType d);
bool ml_is_f(DType d);
bool ml_is_u(DType d);
bool ml_narrow(DType d);         /* f16, bf16: computed in f32 */
const char *ml_const_int(MEmit *m, DType d, int64_t v);
const char *ml_const_float(MEmit *m, DType d, double v);
const char *ml_const_index(MEmit *m, int64_t v);
const char *ml_program_id(MEmit *m, int axis); /* %block_id_<axis> */
const char *ml_lane_var(MEmit *m, const Layout *l, char kind, int p);
int ml_slot_along(const Dist *d, int p, int s);
const char *ml_coord(MEmit *m, const Dist *d, int p, int s, const char **own);
const char *ml_owner(MEmit *m, const Dist *d, int s);
Dist ml_dist_of_layout(MEmit *m, ValId v);
const char **ml_define(MEmit *m, ValId v, const Dist *d);
const char *ml_scalar(MEmit *m, ValId v);
const char *ml_elem(MEmit *m, ValId x, const Dist *r, int s, Loc loc);
ValId ml_ptr_base(MEmit *m, ValId x, Loc loc);
/* mlir_ops.c */
const char *ml_convert(MEmit *m, const char *v, DType from, DType to);
int ml_emit_elementwise(MEmit *m, Op *op);
int ml_emit_constructor(MEmit *m, Op *op);
int ml_emit_load(MEmit *m, Op *op);
int ml_emit_store(MEmit *m, Op *op);
int ml_emit_reduce(MEmit *m, Op *op);
int ml_emit_gather(MEmit *m, Op *op);
int ml_emit_convert(MEmit *m, Op *op);
int ml_emit_dot(MEmit *m, Op *op);
int ml_emit_atomic(MEmit *m, Op *op);

/* ------------------------------------------------------------- cudart.c */

/* libcuda.so.1 and libnvrtc opened with dlopen at first use, with the few
 * prototypes the project declares itself: the library links without CUDA.
 * Every failing call is reported with the CUDA error's name
 * (CUDA_ERROR_OUT_OF_MEMORY), status MT_ERR_CUDA / MT_ERR_NVRTC /
 * MT_ERR_NO_CUDA. */
typedef struct CudaDriver CudaDriver;
typedef struct CudaModule CudaModule;

CudaDriver *cuda_driver_open(Ctx *c);  /* NULL (error recorded) if missing */
/* A handle with NVRTC loaded (PTX/cubin without a GPU); the driver half
 * is loaded at first use.  cuda_driver_open likewise loads NVRTC lazily.
 * nvrtc_compile also accepts d == NULL (NVRTC opened for that call). */
CudaDriver *cuda_nvrtc_open(Ctx *c);
void cuda_driver_close(CudaDriver *d);
bool cuda_driver_has_device(CudaDriver *d);
/* "sm_90" of the current context's device (device 0 when none). */
int cuda_device_arch(Ctx *c, CudaDriver *d, char arch[16]);
/* ... of device `device` (an ordinal; -1: as cuda_device_arch); a device
 * the driver does not report is an MT_ERR_ARG naming it. */
int cuda_device_arch_at(Ctx *c, CudaDriver *d, int device, char arch[16]);
/* NVRTC: CUDA C -> PTX and cubin for arch ("sm_90").  Either output may be
 * NULL.  Needs libnvrtc only, not a GPU.  fmad false: no multiply-add
 * contraction (--fmad=false, Triton's enable_fp_fusion=False). */
int nvrtc_compile(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                  StrBuf *ptx, StrBuf *cubin);
/* A kernel's cubin (d not NULL), with its registers fitted to an
 * occupancy step where ptxas left it just above one (cudart.c,
 * nvrtc_build_fitted); shared_bytes: its shared memory per block; *regs
 * (when not NULL): the registers of the cubin kept, per ptxas (0: not
 * known). */
int nvrtc_compile_kernel(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                         size_t shared_bytes, StrBuf *cubin, int *regs);
/* The register cap that lifts a kernel of `threads` threads and `regs`
 * registers (per ptxas) by one block per SM on arch, when that costs it
 * at most 8 registers; 0 otherwise, or when the arch's limits are not
 * known (sm_80, 86, 87, 89, 90 are).  *blocks (when not NULL) is the
 * blocks per SM that cap gives. */
int occupancy_register_cap(const char *arch, int threads, size_t shared_bytes, int regs,
                           int *blocks);
/* Version of NVRTC as "major.minor" (part of cache keys). */
const char *nvrtc_version(CudaDriver *d);
/* Loads a cubin in the current context (retaining device 0's primary
 * context when none is current) and finds the kernel function. */
int cuda_module_load(Ctx *c, CudaDriver *d, const void *cubin, size_t n,
                     const char *kernel, CudaModule **out);
void cuda_module_unload(CudaDriver *d, CudaModule *m);
/* The device (an ordinal) that CUDA memory at p belongs to. */
int cuda_pointer_device(Ctx *c, CudaDriver *d, const void *p, int *device);
/* A launch's context: device >= 0 makes that device's primary context
 * (retained once per handle) current until cuda_scope_exit, which puts the
 * caller's back; -1 takes the current context (device 0's primary one
 * when none is current, left current).  ctx is the context in use. */
typedef struct CudaScope {
    void *ctx, *prev;
    bool switched;
} CudaScope;
int cuda_scope_enter(Ctx *c, CudaDriver *d, int device, CudaScope *s);
void cuda_scope_exit(CudaDriver *d, CudaScope *s);
/* A kernel's modules, one per context it ran in (at most 16), safe to use
 * from several threads at once: cuda_modules_get finds the module of the
 * scope's context or loads the cubin there (the context is current). */
typedef struct CudaModules CudaModules;
CudaModules *cuda_modules_new(void); /* NULL: out of memory */
void cuda_modules_free(CudaDriver *d, CudaModules *t);
int cuda_modules_get(Ctx *c, CudaDriver *d, CudaModules *t, const CudaScope *s,
                     const void *cubin, size_t n, const char *kernel, CudaModule **out);
/* Registers per thread, local (spill) bytes per thread and the most
 * threads per block of the module's function (cuFuncGetAttribute). */
void cuda_module_usage(const CudaModule *m, int *regs, int *local_bytes, int *max_threads);
/* Device memory for mt_malloc & co. (cuMemAlloc_v2, cuMemFree_v2,
 * cuMemcpyHtoD_v2 / DtoH_v2, cuCtxSynchronize), in the current context
 * (device 0's primary context when none is current). */
int cuda_mem_alloc(Ctx *c, CudaDriver *d, size_t n, void **out);
int cuda_mem_free(Ctx *c, CudaDriver *d, void *p);
int cuda_memcpy(Ctx *c, CudaDriver *d, void *dst, const void *src, size_t n,
                int to_device);
int cuda_synchronize(Ctx *c, CudaDriver *d);
/* Checks grid and block limits of the device, then cuLaunchKernel. */
int cuda_launch(Ctx *c, CudaDriver *d, CudaModule *m, const uint32_t grid[3],
                int threads, size_t smem, void *stream, void **args);

/* --------------------------------------------------------------- host.c */

/* The host backend: the CUDA C of a kernel, compiled by the system C++
 * compiler with mt_host.h (blockIdx, threadIdx, __shared__, __syncthreads,
 * warp shuffles, math) into a shared object, then run on a few worker
 * threads that each run one program at a time, every CUDA thread of it a
 * fiber (fiber.c). */
typedef struct HostModule HostModule;

/* ctypes[i] is the C type of runtime parameter i ("float*", "int"). */
/* The cpu backend's object (issue 18): cpu.c's C text, the runtime
 * headers and a trampoline compiled by the system C compiler for this CPU,
 * cached under cache_subdir("cpu") with the CPU's model in the key; it
 * launches through host_launch, one call per program. */
int cpu_build(Ctx *c, const char *csrc, const char *kernel, const char *const *ctypes,
              int nparams, HostModule **out);
int host_build(Ctx *c, const char *cuda_src, const char *kernel,
               const char *const *ctypes, int nparams, HostModule **out);
/* A context's host runtime (fiber.c's FiberRuntime: the worker pool and
 * the fiber stacks of each thread, one set per thread, whatever the number
 * of modules). */
typedef struct FiberRuntime HostStacks;
struct FiberPoll;
struct mt_host_extent;
HostStacks *host_stacks_new(void); /* NULL: out of memory */
void host_stacks_free(HostStacks *s);
/* Runs a grid; safe from many threads at once on one HostStacks.  poll
 * (may be NULL) is asked between programs whether to stop. */
int host_launch(Ctx *c, HostStacks *s, HostModule *m, const uint32_t grid[3], int threads,
                void **args, const struct mt_host_extent *extents, unsigned nextents,
                const struct FiberPoll *poll);
void host_module_free(HostModule *m);
/* Runs argv[0] (a path) in its own process group, stdout and stderr into
 * out, killed after timeout seconds: the wait status, -1 when it could not
 * start, -2 status unknown, -3 timed out (mlirrun.c's tools). */
int host_run_tool(char *const argv[], double timeout, StrBuf *out);
/* True when a launch runs thread 0 of each program alone (a kernel of
 * scalars, whose other threads would repeat it without effect). */
bool host_module_one_thread(const HostModule *m);
/* The unit host_build compiles (aot.c writes it self-contained, the
 * header's text pasted in), and the MT_HOST_RUN_* flags its launch needs. */
void host_unit(StrBuf *sb, const char *cuda_src, const char *kernel,
               const char *const *ctypes, int nparams, bool self_contained);
unsigned host_kernel_flags(const char *cuda_src);

/* -------------------------------------------------------------- fiber.c */

#include "mt_host.h" /* its C part: the contract with kernel objects */

/* A context's host runtime: its persistent worker pool and the fiber
 * stacks of every thread that ran programs, each kept for that thread's
 * next launch of any kernel and freed at its exit (or with the runtime). */
typedef struct FiberRuntime FiberRuntime;
FiberRuntime *fiber_runtime_new(void); /* NULL: out of memory */
void fiber_runtime_free(FiberRuntime *rt);
/* Stacks kept for the calling thread (what tests measure). */
unsigned fiber_thread_stacks(FiberRuntime *rt);

/* Asked by the launching thread between programs: nonzero stops the run
 * (a pending Ctrl-C); fn may be NULL. */
typedef struct FiberPoll {
    int (*fn)(void *arg);
    void *arg;
} FiberPoll;

/* Runs a grid of programs of `threads` CUDA threads each, every thread a
 * call of entry(args, ...): on its own fiber when the kernel `waits`
 * (calls __syncthreads or a warp shuffle), else one after the other on the
 * worker's own stack, with no switch at all.  Safe to call from many
 * threads at once.  Returns 0, or -1 with the reason (deadlock, bad shape,
 * no memory, "interrupted" after poll said stop) in err, -2 when a
 * thread failed a device assertion, -3 when a check of checked mode failed
 * (their text in err).  extents (may be NULL) are checked mode's, one per
 * runtime parameter (mt_host.h). */
int fiber_run(FiberRuntime *rt, mt_host_entry_fn *entry, void **args, const uint32_t grid[3],
              unsigned threads, bool waits, const mt_host_extent *extents, unsigned nextents,
              const FiberPoll *poll, char *err, size_t errlen);
/* The same, a worker taking `chunked` programs a few at a time (the cpu
 * backend's programs, which never wait for one another: a kernel that may
 * spin on a lock takes them one at a time, so that a started worker never
 * holds the program the spinning one waits for). */
int fiber_run_chunked(FiberRuntime *rt, mt_host_entry_fn *entry, void **args,
                      const uint32_t grid[3], unsigned threads, bool waits, bool chunked,
                      const mt_host_extent *extents, unsigned nextents,
                      const FiberPoll *poll, char *err, size_t errlen);

/* -------------------------------------------------------------- cache.c */

/* On-disk cache under $MYTRITON_CACHE_DIR (default ~/.cache/mytriton):
 * one file per key and kind; writes go to a temporary file renamed into
 * place, so concurrent processes never see a partial entry.  Every entry
 * carries its key and a digest of its content: a damaged or foreign
 * entry reads as a miss. */
char *cache_dir(Arena *a); /* NULL when no trusted directory can be made */
/* <cache_dir>/<name>, made 0700 and checked like the base; NULL if not. */
char *cache_subdir(Arena *a, const char *name);
/* Why cache_dir, or cache_subdir(sub) when sub is not NULL, refuses an
 * existing directory as untrusted; NULL when it does not. */
const char *cache_untrusted(Arena *a, const char *sub);
/* Reads the entry's content into *out (malloc'ed); 0 when found whole,
 * -1 when not (missing, damaged, foreign, not a regular file we own). */
int cache_get(const char *dir, const char *key, const char *ext, void **out,
              size_t *n);
/* A descriptor of the checked entry file (for dlopen), else -1. */
int cache_open(const char *dir, const char *key, const char *ext);
int cache_put(const char *dir, const char *key, const char *ext,
              const void *data, size_t n);
/* cache_put of the content of the file at path. */
int cache_put_file(const char *dir, const char *key, const char *ext,
                   const char *path);
/* Removes least recently used entries under base (and its subdirectories)
 * while they exceed MYTRITON_CACHE_MAX_BYTES; cache_put calls it. */
void cache_trim(const char *base);
/* 128-bit hex digest (32 chars + NUL) of bytes, for cache keys. */
void cache_digest(const void *data, size_t n, char out[33]);

/* ---------------------------------------------------------------- aot.c */

/* mt_aot_generate (public) lives there, mt_aot_link in aotlink.c; they
 * report errors through api.c's context, with this: */
mt_status api_take_error(mt_context *ctx, Ctx *c);

/* One runtime parameter of a generated launch function. */
typedef struct AotParam {
    const char *name;
    mt_dtype dtype;
    bool is_ptr;
    int hint; /* the signature's ":N", 0 when none */
} AotParam;
/* ", float *x, int32_t n": the parameters of a launch function */
void aot_put_params(StrBuf *sb, const AotParam *ps, int n);
/* A generated header's guard, status enum, CUstream and extern "C"; and
 * its end: NAME_load, NAME_unload, NAME_errmsg. */
void aot_header_open(StrBuf *sb, const char *name);
void aot_header_close(StrBuf *sb, const char *name);
bool aot_is_identifier(const char *s);
/* mt_aot_rt.h's text; without the driver part when !driver */
void aot_put_runtime(StrBuf *sb, bool driver);
/* user text inside a generated comment, unable to end it */
void aot_put_comment_text(StrBuf *sb, const char *s);
/* Moves the two texts into malloc'ed strings (MT_ERR_NOMEM: neither). */
mt_status aot_finish(StrBuf *h, StrBuf *s, char **header, char **source);

#endif
