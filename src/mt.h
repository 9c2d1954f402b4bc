/* mt.h: the one internal header of mytriton, in sections named after the
 * files that implement them, in pipeline order:
 *
 *   kernel text --lex.c--> tokens --parse.c--> AST --elab.c--> SSA (ir.c)
 *   --verify.c--> --opt.c (fold, cse, dce)--> --layout.c--> --cuda.c--> CUDA C
 *   --nvrtc.c/cuda_rt.c--> cubin, launch         (dlopen'ed libnvrtc, libcuda)
 *   --host.c--> system C++ compiler + mt_host.h --> launch on POSIX threads
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
const char *sb_str(StrBuf *sb);    /* NUL-terminated, never NULL */

uint64_t hash_bytes(uint64_t h, const void *p, size_t n); /* FNV-1a step */
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

/* ----------------------------------------------------------------- ast.c */

/* Prints a function's AST as an indented tree (--emit ast). */
void ast_print(StrBuf *sb, const Node *fn);

/* ---------------------------------------------------------------- type.c */

typedef enum DType { DT_VOID = 0, DT_I1, DT_I32, DT_I64, DT_F32 } DType;

#define MT_MAX_RANK 4

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
bool type_is_numeric(Type t);   /* element i32/i64/f32, not pointer */
bool type_is_int(Type t);       /* element i32/i64 */
bool type_is_bool(Type t);      /* element i1, not pointer */
bool type_is_float(Type t);
int64_t type_numel(Type t);
const char *dtype_name(DType d);  /* "bool" "i32" "i64" "f32" */
const char *dtype_ctype(DType d); /* "bool" "int" "long long" "float" */
/* "i32", "ptr<f32>", "vector<256 x i32>", "block<16x32 x bool>" */
void type_print(StrBuf *sb, Type t);
/* NumPy broadcasting of two shapes; -1 when incompatible. */
int broadcast_shapes(Type a, Type b, Type *out_shape);
/* Promotion of two numeric elements: f32 > i64 > i32. */
DType promote_dtype(DType a, DType b);

/* ------------------------------------------------------------------ ir.c */

typedef int32_t ValId;  /* index into Func.vals; 0 means "none" */

typedef enum ValKind {
    VK_NONE, VK_OP, VK_PARAM, VK_CONST, VK_LOOP_INDEX, VK_LOOP_ARG
} ValKind;

typedef enum OpCode {
#define OP(e, name, nargs, rule, flags) OP_##e,
#include "ops.def"
#undef OP
    OP_COUNT
} OpCode;

enum { R_ARITH, R_INT, R_CMP, R_FLOAT1, R_SAME1, R_REDUCE, R_SPECIAL };
enum { F_PURE = 1, F_READ = 2, F_EFFECT = 4, F_COMMUTE = 8, F_REGION = 16 };

typedef struct OpInfo {
    const char *name;
    int nargs; /* -1: variable */
    int rule;
    int flags;
} OpInfo;
extern const OpInfo op_info[OP_COUNT];

typedef struct Op Op;

typedef struct Region {
    Op **ops;
    int nops, cap;
} Region;

typedef struct Value {
    Type type;
    uint8_t kind;      /* ValKind */
    union {
        int64_t i;     /* VK_CONST of i1/i32/i64 */
        double f;      /* VK_CONST of f32 (an exactly representable float) */
    } c;
    const char *name;  /* VK_PARAM: parameter name */
    int param_index;   /* VK_PARAM: position among runtime params */
    Op *def;           /* VK_OP (and loop results): defining op */
    int layout;        /* set by layout.c: index into Func.layouts, -1 none */
    int32_t divisibility; /* VK_PARAM: signature hint (":16"): a pointer's
                             address in bytes, an integer's value, is a
                             multiple of it; 0 or 1 = nothing known */
} Value;

/* Attribute meanings per op:
 *   program_id, num_programs: attr[0] = axis (0..2)
 *   arange: attr[0] = start, attr[1] = end
 *   sum/max/min, expand_dims: attr[0] = axis
 *   dot: attr[0] = input precision (0 ieee, 1 tf32, 2 tf32x3)
 *   zeros/full/empty/cast/broadcast: shape and dtype are the result type */
struct Op {
    uint16_t code;     /* OpCode */
    Loc loc;
    ValId *args;       /* for: start, stop, step, then one init per carry */
    int nargs;
    ValId *res;        /* results (one, none for store, one per carry for for) */
    int nres;
    int64_t attr[2];
    /* for only */
    Region *body;
    ValId index;       /* loop induction variable (i32) */
    ValId *iters;      /* nres carried arguments visible in the body */
    ValId *yields;     /* nres values yielded at the end of the body */
    struct DotPlan *plan; /* dotplan.c: for and dot ops */
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
ValId const_bool(Func *f, bool v);
static inline Value *val(Func *f, ValId v) { return &f->vals[v]; }
static inline Type val_type(Func *f, ValId v) { return f->vals[v].type; }
bool val_is_const(Func *f, ValId v);

/* Creates an op with the given operands and, when rtype.dtype != DT_VOID,
 * one result of type rtype; appends it to region r.  No checking: the
 * caller (elab.c, passes) computes types with the rules of verify.c. */
Op *op_new(Func *f, Region *r, OpCode code, Loc loc, Type rtype,
           const ValId *args, int nargs);
/* Creates a for op in r with ncarry carried values: allocates index,
 * iters and results (types of inits) and an empty body. */
Op *op_new_for(Func *f, Region *r, Loc loc, ValId start, ValId stop,
               ValId step, const ValId *inits, int ncarry);
void region_push(Func *f, Region *r, Op *op);

/* Textual IR in the original's syntax (see docs/ir.md).  Values are
 * renumbered %0, %1, ... in definition order; params print by name,
 * constants inline ("0.0", "256", "True", "-inf"), none as "none". */
void ir_print(StrBuf *sb, Func *f);

/* ------------------------------------------------------------ verify.c */

/* Checks every rule of inventory section 5.4 (ids defined before use and
 * once, arity, results, op type rules, loop rules) over all regions.
 * Reports "ssa-verifier: op #N 'name': message" at the op's location
 * through ctx, status MT_ERR_VERIFY.  Returns 0 or -1. */
int ir_verify(Func *f);
/* Result type of an op from its operand types and attrs, by the rules of
 * ops.def; -1 (with a located error) when the operands are invalid.
 * Shared by elab.c (to type what it builds) and verify.c (to check).
 * For cast, broadcast, zeros, full and empty *out is also an input: the
 * requested result type, which is validated and left as it is.  attr may
 * be NULL (all zero).  Errors: status MT_ERR_TYPE at loc. */
int ir_infer_type(Func *f, OpCode code, Loc loc, const ValId *args, int nargs,
                  const int64_t attr[2], Type *out);

/* ---------------------------------------------------------------- opt.c */

/* Each pass rewrites f in place, inside loop bodies too, never changes a
 * value's type, and returns 0 or -1. */
int pass_fold(Func *f);  /* exact f32/i32/i64 constant folding + identities */
int pass_cse(Func *f);   /* scoped CSE of F_PURE ops */
int pass_dce(Func *f);   /* removes unused F_PURE/F_READ ops and dead carries */
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
    LAYOUT_DOT_TILE  /* a dot's register tile: 4 x 4 blocks, no replication
                        for its parent shape (or a slice of one) */
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
 * row stride (columns + row_padding) and stage_count ping-pong copies. */
typedef struct SharedBuffer {
    const char *name;
    int32_t rows, columns;
    DType elem;
    int row_padding; /* >= 0 */
    int stage_count; /* >= 1 */
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
/* Padding rule: 1 when simultaneous_rows > 32 / gcd(columns, 32). */
int smem_bank_padding(int columns, int simultaneous_rows);
int smem_bank(int64_t word_offset); /* word_offset % 32 */

#define MT_SMEM_BUDGET 49152 /* bytes of static shared memory per program */

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
} SmemEntry;

struct SmemPlan {
    SmemEntry *bufs;
    int nbufs;
    int64_t scratch_bytes;        /* mt_smem: the largest scratch use */
    SharedBuffer lhs, rhs;        /* dot_lhs, dot_rhs: the largest tiles */
    int64_t offset[SMEM_NARRAYS]; /* bytes, in declaration order */
    int64_t total;                /* bytes, what the budget checks */
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

/* --------------------------------------------------------------- cuda.c */

/* Can x be recomputed in any distribution (aranges, fills, scalars and
 * pure elementwise ops only) instead of moved through shared memory? */
bool cuda_recomputable(Func *f, ValId x);

/* Emits the CUDA C text of f (verified, optimised, after the back-end
 * passes: layout_assign, axis_analyze, plan_dots, smem_plan). */
int cuda_emit(Func *f, StrBuf *out);

/* ----------------------------------------------------------------- sig.c */

/* One entry of a signature: a runtime parameter type or a constexpr. */
typedef enum SigKind { SIG_PTR, SIG_SCALAR, SIG_CONST } SigKind;
typedef enum CKind { CK_INT, CK_FLOAT, CK_BOOL, CK_STR, CK_NONE } CKind;

typedef struct ConstVal {
    CKind kind;
    int64_t i;   /* CK_INT, CK_BOOL */
    double f;    /* CK_FLOAT */
    const char *s;
} ConstVal;

typedef struct SigEntry {
    SigKind kind;
    DType dtype;    /* SIG_PTR: pointee; SIG_SCALAR: type */
    ConstVal value; /* SIG_CONST */
    int32_t hint;   /* SIG_PTR/SIG_SCALAR ":16" divisibility hint; 0 none */
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
} ElabInput;

/* Elaborates the kernel for one signature into verified-ready SSA.
 * Returns NULL with a located error. */
Func *elaborate(Ctx *c, const ElabInput *in);

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
/* NVRTC: CUDA C -> PTX and cubin for arch ("sm_90").  Either output may be
 * NULL.  Needs libnvrtc only, not a GPU. */
int nvrtc_compile(Ctx *c, CudaDriver *d, const char *src, const char *arch,
                  StrBuf *ptx, StrBuf *cubin);
/* Version of NVRTC as "major.minor" (part of cache keys). */
const char *nvrtc_version(CudaDriver *d);
/* Loads a cubin in the current context (retaining device 0's primary
 * context when none is current) and finds the kernel function. */
int cuda_module_load(Ctx *c, CudaDriver *d, const void *cubin, size_t n,
                     const char *kernel, CudaModule **out);
void cuda_module_unload(CudaDriver *d, CudaModule *m);
/* The CUDA context current on this thread (NULL when none), and the one a
 * module was loaded in: a kernel keeps one module per context it runs in. */
int cuda_current_context(Ctx *c, CudaDriver *d, void **out);
void *cuda_module_context(const CudaModule *m);
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
 * warp shuffles, math) into a shared object, then run one program at a
 * time with one POSIX thread per CUDA thread. */
typedef struct HostModule HostModule;

/* ctypes[i] is the C type of runtime parameter i ("float*", "int"). */
int host_build(Ctx *c, const char *cuda_src, const char *kernel,
               const char *const *ctypes, int nparams, HostModule **out);
int host_launch(Ctx *c, HostModule *m, const uint32_t grid[3], int threads,
                void **args);
void host_module_free(HostModule *m);

/* -------------------------------------------------------------- cache.c */

/* On-disk cache under $MYTRITON_CACHE_DIR (default ~/.cache/mytriton):
 * one file per key and kind; writes go to a temporary file renamed into
 * place, so concurrent processes never see a partial entry. */
char *cache_dir(Arena *a); /* NULL when no directory can be made */
/* Reads the entry into *out (malloc'ed); 0 when found, -1 when not. */
int cache_get(const char *dir, const char *key, const char *ext, void **out,
              size_t *n);
int cache_put(const char *dir, const char *key, const char *ext,
              const void *data, size_t n);
/* 128-bit hex digest (32 chars + NUL) of bytes, for cache keys. */
void cache_digest(const void *data, size_t n, char out[33]);

#endif
