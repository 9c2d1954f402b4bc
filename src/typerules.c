/* typerules.c: the type rules of every op.
 *
 * Input: an op code, its operands (ValIds of a Func) and attributes.
 * Output: the result type, or a message.  ir_infer_type is THE definition
 * of the op type rules (ops.def names the rule of each op; `rules` below
 * maps a rule to its function, whether the result type is an input, and
 * the result count): the elaborator calls it to type each op it builds, so
 * its messages are user-facing (status MT_ERR_TYPE at the op's source
 * location), and ir_verify (verify.c) calls ir_rule_check again on every
 * op of a finished function, so the IR the passes see is always typed
 * exactly as the elaborator would have typed it.  For cast, broadcast,
 * zeros, full and empty (rtype_in) the result type is not a function of
 * the operands: the caller passes the requested type in *out and the rule
 * validates it.  Region ops (for, if, while) and the ops whose structure
 * the verifier checks itself (combine regions, inline asm) have rules
 * that only say so. */
#include "mt.h"

#include <stdio.h>
#include <string.h>

MT_PRINTF(2, 3)
static int fail(char *msg, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, MT_RULE_MSG_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

TypeText type_text(Type t) {
    TypeText r;
    StrBuf sb;
    sb_init(&sb);
    type_print(&sb, t);
    snprintf(r.s, sizeof r.s, "%s", sb_str(&sb));
    sb_free(&sb);
    return r;
}

static TypeText tt_elem(Type t) { return type_text(type_elem(t)); }

/* A shape as "4x8"; a scalar as "()". */
typedef struct ShapeText {
    char s[64];
} ShapeText;

static ShapeText shape_text(Type t) {
    ShapeText r;
    size_t n = 0;
    r.s[0] = 0;
    if (t.rank == 0)
        snprintf(r.s, sizeof r.s, "()");
    for (int i = 0; i < t.rank && n < sizeof r.s; i++)
        n += (size_t)snprintf(r.s + n, sizeof r.s - n, i ? "x%d" : "%d",
                              (int)t.shape[i]);
    return r;
}

/* Python str() of a shape tuple: "(8,)", "(4, 8)", "()". */
static ShapeText tuple_text(Type t) {
    ShapeText r;
    size_t n = 1;
    r.s[0] = '(';
    r.s[1] = 0;
    for (int i = 0; i < t.rank && n < sizeof r.s; i++)
        n += (size_t)snprintf(r.s + n, sizeof r.s - n, i ? ", %d" : "%d",
                              (int)t.shape[i]);
    if (n < sizeof r.s - 3)
        snprintf(r.s + n, sizeof r.s - n, t.rank == 1 ? ",)" : ")");
    return r;
}

static int bcast(Type a, Type b, Type *o, char *msg) {
    if (broadcast_shapes(a, b, o) < 0)
        return fail(msg, "cannot broadcast shapes %s and %s", shape_text(a).s,
                    shape_text(b).s);
    return 0;
}

static bool same_shape(Type a, Type b) {
    if (a.rank != b.rank)
        return false;
    for (int i = 0; i < a.rank; i++)
        if (a.shape[i] != b.shape[i])
            return false;
    return true;
}

static bool valid_dtype(int d) { return d > DT_VOID && d < DT_COUNT; }


/* Value conversion (not reinterpretation), as Triton's cast allows: any
 * number or bool to any number or bool, except between an fp8 type and
 * an integer, bool, f64 or another fp8 type; pointers never. */
static bool convertible(Type from, DType to) {
    if (from.is_ptr || !valid_dtype(from.dtype) || !valid_dtype(to))
        return false;
    bool from_int = !dtype_is_float((DType)from.dtype);
    bool to_int = !dtype_is_float(to);
    if (from.dtype == to)
        return true;
    if (dtype_is_fp8(from.dtype) && (dtype_is_fp8(to) || to == DT_F64))
        return false;
    if (dtype_is_fp8(to) && from.dtype == DT_F64)
        return false;
    return !((dtype_is_fp8(from.dtype) && to_int) || (dtype_is_fp8(to) && from_int));
}

static bool operand_optional(int code, int i) {
    return i < 8 && (op_info[code].optional >> i & 1);
}

static Type with_dtype(Type shape_from, DType d) {
    return type_with_elem(shape_from, type_scalar(d));
}

/* ------------------------------------------------------------ the rules */

/* One function per type rule of ops.def.  A rule sees the op's operands
 * (count and presence already checked), its attributes and, for rules
 * whose table entry says so, the requested result type in *out. */
typedef struct RuleIn {
    Func *f;
    int code;
    const OpInfo *oi;
    const ValId *args;
    const int64_t *attr;
    Type a, b; /* types of operands 0 and 1 (void when absent) */
    int nargs;
} RuleIn;

typedef int (*RuleFn)(const RuleIn *in, Type *out, char *msg);

static int rule_arith(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, b = in->b, r;
    if (!type_is_numeric(a) || !type_is_numeric(b))
        return fail(msg, "cannot combine %s and %s", tt_elem(a).s,
                    tt_elem(b).s);
    DType d = promote_dtype((DType)a.dtype, (DType)b.dtype);
    if (d == DT_VOID)
        return fail(msg, "cannot combine %s and %s", tt_elem(a).s,
                    tt_elem(b).s);
    if (bcast(a, b, &r, msg) < 0)
        return -1;
    *out = with_dtype(r, d);
    return 0;
}

static int int_or_logic(const RuleIn *in, bool logical, Type *out,
                        char *msg) {
    Type a = in->a, b = in->b, r;
    DType d;
    if (type_is_int(a) && type_is_int(b))
        d = promote_dtype((DType)a.dtype, (DType)b.dtype);
    else if (logical && type_is_bool(a) && type_is_bool(b))
        d = DT_I1;
    else if (logical)
        return fail(msg,
                    "'%s' requires two integer or two bool operands, got "
                    "%s and %s",
                    in->oi->name, tt_elem(a).s, tt_elem(b).s);
    else
        return fail(msg, "'%s' requires integer operands, got %s and %s",
                    in->oi->name, tt_elem(a).s, tt_elem(b).s);
    if (bcast(a, b, &r, msg) < 0)
        return -1;
    *out = with_dtype(r, d);
    return 0;
}

static int rule_int(const RuleIn *in, Type *out, char *msg) {
    return int_or_logic(in, false, out, msg);
}

static int rule_logic(const RuleIn *in, Type *out, char *msg) {
    return int_or_logic(in, true, out, msg);
}

static int compare(const RuleIn *in, bool eq, Type *out, char *msg) {
    Type a = in->a, b = in->b, r;
    bool ok = (type_is_numeric(a) && type_is_numeric(b) &&
               promote_dtype((DType)a.dtype, (DType)b.dtype) != DT_VOID) ||
              (eq && type_is_bool(a) && type_is_bool(b)) ||
              (eq && a.is_ptr && b.is_ptr && a.dtype == b.dtype);
    if (!ok)
        return fail(msg, "cannot compare %s and %s", tt_elem(a).s,
                    tt_elem(b).s);
    if (bcast(a, b, &r, msg) < 0)
        return -1;
    *out = with_dtype(r, DT_I1);
    return 0;
}

static int rule_order(const RuleIn *in, Type *out, char *msg) {
    return compare(in, false, out, msg);
}

static int rule_equal(const RuleIn *in, Type *out, char *msg) {
    return compare(in, true, out, msg);
}

static int rule_float1(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_float(in->a))
        return fail(msg, "%s requires a float operand, got %s", in->oi->name,
                    type_text(in->a).s);
    *out = in->a;
    return 0;
}

static int rule_same1(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_numeric(in->a)) {
        if (in->code == OP_NEG) /* the message of Python's unary minus */
            return fail(msg, "cannot negate %s", type_text(in->a).s);
        return fail(msg, "%s requires a numeric operand, got %s",
                    in->oi->name, type_text(in->a).s);
    }
    *out = in->a;
    return 0;
}

static int rule_not(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_int(in->a) && !type_is_bool(in->a))
        return fail(msg, "'not' requires an integer or bool operand, got %s",
                    type_text(in->a).s);
    *out = in->a;
    return 0;
}

static int rule_reduce(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, r;
    const int64_t *attr = in->attr;
    if (a.rank == 0)
        return fail(msg, "%s expects a block, got %s", in->oi->name, type_text(a).s);
    if (!type_is_numeric(a))
        return fail(msg, "cannot reduce elements of type %s", tt_elem(a).s);
    if (attr[0] < 0 || attr[0] >= a.rank)
        return fail(msg, "invalid reduction axis %lld for %s",
                    (long long)attr[0], type_text(a).s);
    r = a;
    r.rank = (uint8_t)(a.rank - 1);
    for (int i = (int)attr[0]; i < r.rank; i++)
        r.shape[i] = a.shape[i + 1];
    r.shape[r.rank] = 0;
    *out = r;
    return 0;
}

static int rule_grid(const RuleIn *in, Type *out, char *msg) {
    if (in->attr[0] < 0 || in->attr[0] > 2)
        return fail(msg, "invalid axis %lld", (long long)in->attr[0]);
    *out = type_scalar(DT_I32);
    return 0;
}

static int rule_range(const RuleIn *in, Type *out, char *msg) {
    const int64_t *attr = in->attr;
    if (attr[1] <= attr[0] || attr[0] < INT32_MIN || attr[1] > INT32_MAX ||
        attr[1] - attr[0] > INT32_MAX)
        return fail(msg, "invalid range [%lld, %lld)", (long long)attr[0],
                    (long long)attr[1]);
    int32_t w = (int32_t)(attr[1] - attr[0]);
    *out = type_block(type_scalar(DT_I32), 1, &w);
    return 0;
}

/* zeros, full, empty: the requested block type, and full's fill value */
static int rule_block(const RuleIn *in, Type *out, char *msg) {
    Type t = *out;
    bool bad_shape = t.rank < 1 || t.rank > MT_MAX_RANK;
    for (int i = 0; i < t.rank && !bad_shape; i++)
        bad_shape = t.shape[i] <= 0;
    if (bad_shape)
        return fail(msg, "invalid block shape %s", tuple_text(t).s);
    if (t.is_ptr || !valid_dtype(t.dtype))
        return fail(msg, "invalid block dtype %s", tt_elem(t).s);
    if (in->oi->nargs == 1) {
        Type v = in->a;
        if (v.rank != 0)
            return fail(msg, "fill value must be scalar, got %s", type_text(v).s);
        if (!convertible(v, (DType)t.dtype))
            return fail(msg, "fill value must be convertible to %s, got %s",
                        dtype_name((DType)t.dtype), type_text(v).s);
    }
    return 0;
}

static int rule_cast(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, t = *out;
    if (t.is_ptr || !convertible(a, (DType)t.dtype) || !same_shape(a, t))
        return fail(msg, "cannot cast %s to %s", type_text(a).s, type_text(t).s);
    return 0;
}

/* the bits of one type read as another of the same width */
static int rule_bitcast(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, t = *out;
    /* an address: a pointer from or to a 64-bit integer, or to a pointer */
    bool addr = (a.is_ptr || t.is_ptr) && same_shape(a, t) &&
                (a.is_ptr || a.dtype == DT_I64 || a.dtype == DT_U64) &&
                (t.is_ptr || t.dtype == DT_I64 || t.dtype == DT_U64);
    if (addr)
        return 0;
    if (a.is_ptr || t.is_ptr || !valid_dtype(a.dtype) || !valid_dtype(t.dtype) ||
        !same_shape(a, t))
        return fail(msg, "cannot bitcast %s to %s", type_text(a).s, type_text(t).s);
    if (dtype_info[a.dtype].bits != dtype_info[t.dtype].bits)
        return fail(msg, "cannot bitcast data-type of size %d to data-type of size %d",
                    dtype_info[a.dtype].bits, dtype_info[t.dtype].bits);
    return 0;
}

static int rule_broadcast(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, t = *out, b;
    if (a.dtype != t.dtype || a.is_ptr != t.is_ptr)
        return fail(msg, "broadcast cannot change the element type: %s to %s",
                    type_text(a).s, type_text(t).s);
    if (t.rank > MT_MAX_RANK || broadcast_shapes(a, t, &b) < 0 ||
        !same_shape(b, t))
        return fail(msg, "cannot broadcast shape %s to %s", shape_text(a).s,
                    shape_text(t).s);
    return 0;
}

static int rule_select(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, x = in->b, y = val_type(in->f, in->args[2]), s, r;
    if (!type_is_bool(a))
        return fail(msg, "condition must be bool, got %s", type_text(a).s);
    Type elem;
    if (type_is_numeric(x) && type_is_numeric(y) &&
        promote_dtype((DType)x.dtype, (DType)y.dtype) != DT_VOID)
        elem = type_scalar(promote_dtype((DType)x.dtype, (DType)y.dtype));
    else if (type_is_bool(x) && type_is_bool(y))
        elem = type_scalar(DT_I1);
    else if (x.is_ptr && y.is_ptr && x.dtype == y.dtype)
        elem = type_elem(x);
    else
        return fail(msg, "cannot combine %s and %s", tt_elem(x).s,
                    tt_elem(y).s);
    if (bcast(a, x, &s, msg) < 0 || bcast(s, y, &r, msg) < 0)
        return -1;
    *out = type_with_elem(r, elem);
    return 0;
}

static int rule_addptr(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, o = in->b, r;
    if (!a.is_ptr)
        return fail(msg, "addptr base must be a pointer, got %s", type_text(a).s);
    if (!type_is_int(o))
        return fail(msg, "pointer offset must be an integer, got %s", type_text(o).s);
    if (bcast(a, o, &r, msg) < 0)
        return -1;
    *out = type_with_elem(r, type_elem(a));
    return 0;
}

/* The memory hints (AS_MEMHINT) a load or a store may carry. */
static int check_mem_hints(const RuleIn *in, bool store, char *msg) {
    int64_t c = in->attr[0], ev = in->attr[1];
    bool ok = store ? c == MEM_DEFAULT || c == MEM_WB || c == MEM_CG || c == MEM_CS ||
                          c == MEM_WT
                    : c == MEM_DEFAULT || c == MEM_CA || c == MEM_CG || c == MEM_CV ||
                          c == MEM_VOLATILE;
    if (!ok)
        return fail(msg, "invalid %s cache modifier %lld", store ? "store" : "load",
                    (long long)c);
    if (ev != MEM_DEFAULT && ev != MEM_EVICT_FIRST && ev != MEM_EVICT_LAST)
        return fail(msg, "invalid eviction policy %lld", (long long)ev);
    return 0;
}

static int rule_load(const RuleIn *in, Type *out, char *msg) {
    Func *f = in->f;
    Type a = in->a, r = a;
    if (!a.is_ptr)
        return fail(msg, "load expects a pointer, got %s", type_text(a).s);
    if (check_mem_hints(in, false, msg) < 0)
        return -1;
    if (in->args[1]) {
        Type m = val_type(f, in->args[1]);
        if (!type_is_bool(m))
            return fail(msg, "mask must be bool, got %s", type_text(m).s);
        if (bcast(r, m, &r, msg) < 0)
            return -1;
    }
    if (in->args[2]) {
        Type o = val_type(f, in->args[2]);
        if (!convertible(o, (DType)a.dtype))
            return fail(msg, "fallback must be convertible to %s, got %s",
                        dtype_name((DType)a.dtype), type_text(o).s);
        if (bcast(r, o, &r, msg) < 0)
            return -1;
    }
    *out = with_dtype(r, (DType)a.dtype);
    return 0;
}

/* an effect of the program as a whole, without operands or result */
static int rule_effect0(const RuleIn *in, Type *out, char *msg) {
    *out = type_scalar(DT_VOID);
    return 0;
}

static int rule_store(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, v = in->b, r;
    if (!a.is_ptr)
        return fail(msg, "store expects a pointer, got %s", type_text(a).s);
    if (check_mem_hints(in, true, msg) < 0)
        return -1;
    if (!convertible(v, (DType)a.dtype))
        return fail(msg, "stored value must be convertible to %s, got %s",
                    dtype_name((DType)a.dtype), type_text(v).s);
    /* the value must fit the pointer's shape (a block through a scalar
     * pointer would make every thread write one address); the mask only
     * has to be compatible: `tl.store(out + row, total, mask=lanes < 1)`
     * stores a scalar from the lanes the mask selects */
    if (a.rank == 0 && v.rank > 0)
        return fail(msg, "cannot store a block through a scalar pointer");
    if (bcast(a, v, &r, msg) < 0)
        return -1;
    if (!same_shape(r, a))
        return fail(msg, "cannot broadcast shape %s to %s", shape_text(v).s,
                    shape_text(a).s);
    if (in->args[2]) {
        Type m = val_type(in->f, in->args[2]);
        if (!type_is_bool(m))
            return fail(msg, "mask must be bool, got %s", type_text(m).s);
        if (bcast(a, m, &r, msg) < 0)
            return -1;
    }
    *out = type_scalar(DT_VOID);
    return 0;
}

static int rule_expand(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    int64_t axis = in->attr[0];
    if (axis < 0 || axis > a.rank)
        return fail(msg, "invalid axis %lld for %s", (long long)axis, type_text(a).s);
    if (a.rank >= MT_MAX_RANK)
        return fail(msg, "expand_dims of %s exceeds the maximum rank %d",
                    type_text(a).s, MT_MAX_RANK);
    Type r = a;
    r.rank = (uint8_t)(a.rank + 1);
    for (int i = 0, j = 0; i < r.rank; i++)
        r.shape[i] = i == axis ? 1 : a.shape[j++];
    *out = r;
    return 0;
}

static int rule_dot(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, b = in->b;
    /* rank 3: a batch of dots, [B, M, K] x [B, K, N] */
    bool i8 = a.dtype == DT_I8 && !a.is_ptr;
    if ((!type_is_float(a) && !i8) || (a.rank != 2 && a.rank != 3))
        return fail(msg, "dot expects a rank-2 or rank-3 float or i8 block, got %s", type_text(a).s);
    if ((!type_is_float(b) && !i8) || b.rank != a.rank)
        return fail(msg, "dot expects a rank-%d block like its first operand, got %s", a.rank,
                    type_text(b).s);
    /* fp8 operands (either kind on each side) for wgmma's fp8 tiles */
    bool f8 = dtype_is_fp8(a.dtype) && dtype_is_fp8(b.dtype) && !a.is_ptr && !b.is_ptr;
    if (!f8 && (a.dtype != b.dtype || (a.dtype != DT_F32 && a.dtype != DT_F16 &&
                                       a.dtype != DT_BF16 && a.dtype != DT_F64 && !i8)))
        return fail(msg, "dot operands must be both f64, f32, f16, bf16, fp8 or i8, got %s "
                    "and %s", type_text(a).s, type_text(b).s);
    int r0 = a.rank - 2;
    if (r0 && a.shape[0] != b.shape[0])
        return fail(msg, "dot batch dimensions differ: %d and %d", (int)a.shape[0],
                    (int)b.shape[0]);
    if (a.shape[r0 + 1] != b.shape[r0])
        return fail(msg, "dot inner dimensions differ: %d and %d",
                    (int)a.shape[r0 + 1], (int)b.shape[r0]);
    int32_t mn[3] = {a.shape[0], a.shape[r0], b.shape[r0 + 1]};
    ValId acc = in->args[2];
    /* f16 operands may accumulate in f16 (Triton's out_dtype=float16):
     * the accumulator's dtype says which */
    DType rd = a.dtype == DT_F64 ? DT_F64 : i8 ? DT_I32
               : a.dtype == DT_F16 && acc && val_type(in->f, acc).dtype == DT_F16 ? DT_F16
                                                                          : DT_F32;
    Type r = type_block(type_scalar(rd), a.rank, mn + (r0 ? 0 : 1));
    if (acc && !type_eq(val_type(in->f, acc), r))
        return fail(msg, "dot accumulator expected %s, got %s", type_text(r).s,
                    type_text(val_type(in->f, acc)).s);
    const AttrInfo *ai = &attr_info[in->oi->attrs];
    if (in->attr[0] < 0 || in->attr[0] >= ai->nvalues)
        return fail(msg, "invalid input precision %lld",
                    (long long)in->attr[0]);
    if (in->attr[1] < 0 || (in->attr[1] && !f8))
        return fail(msg, "imprecise_acc %lld needs fp8 operands and is not negative",
                    (long long)in->attr[1]);
    *out = r;
    return 0;
}

/* convert_layout moves a block between thread distributions: the value and
 * its type are unchanged; attr[0] says how (a ConvertHow). */
static int rule_convert(const RuleIn *in, Type *out, char *msg) {
    if (in->a.rank == 0)
        return fail(msg, "convert_layout expects a block, got %s", type_text(in->a).s);
    const AttrInfo *ai = &attr_info[in->oi->attrs];
    if (in->attr[0] < 0 || in->attr[0] >= ai->nvalues)
        return fail(msg, "invalid conversion method %lld", (long long)in->attr[0]);
    *out = in->a;
    return 0;
}

/* for, if, while: their regions are checked by the verifier (verify_for,
 * verify_if, verify_while), never inferred from operands */
static int rule_loop(const RuleIn *in, Type *out, char *msg) {
    return fail(msg, "%s ops are checked by the verifier", in->oi->name);
}

/* ------------------------------------------------- shape ops (tlshape.c) */

/* reshape: the requested type, with the operand's element and number of
 * elements (a block of one element may become a scalar) */
static int rule_reshape(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, t = *out;
    if (a.rank == 0)
        return fail(msg, "reshape expects a block, got %s", type_text(a).s);
    if (a.dtype != t.dtype || a.is_ptr != t.is_ptr)
        return fail(msg, "reshape cannot change the element type: %s to %s",
                    type_text(a).s, type_text(t).s);
    bool bad_shape = t.rank > MT_MAX_RANK;
    for (int i = 0; i < t.rank && !bad_shape; i++)
        bad_shape = t.shape[i] <= 0;
    if (bad_shape || type_numel(a) != type_numel(t))
        return fail(msg, "reshape cannot change the number of elements: %s to %s",
                    shape_text(a).s, shape_text(t).s);
    return 0;
}

/* trans: the last two dims swapped (a batched 2-D transpose) */
static int rule_trans(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    if (a.rank < 2)
        return fail(msg, "trans expects a block of rank 2 or more, got %s", type_text(a).s);
    int32_t last = a.shape[a.rank - 1];
    a.shape[a.rank - 1] = a.shape[a.rank - 2];
    a.shape[a.rank - 2] = last;
    *out = a;
    return 0;
}

/* join: two values of one type side by side on a new last dim of 2 */
static int rule_join(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    if (!type_eq(a, in->b))
        return fail(msg, "join operands must have the same type, got %s and %s",
                    type_text(a).s, type_text(in->b).s);
    if (a.rank >= MT_MAX_RANK)
        return fail(msg, "join of %s exceeds the maximum rank %d", type_text(a).s,
                    MT_MAX_RANK);
    int32_t shape[MT_MAX_RANK];
    for (int i = 0; i < a.rank; i++)
        shape[i] = a.shape[i];
    shape[a.rank] = 2;
    *out = type_block(type_elem(a), a.rank + 1, shape);
    return 0;
}

/* split: half attr[0] of a last dim of 2 (a scalar from a 2-element
 * vector) */
static int rule_split(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    if (a.rank == 0 || a.shape[a.rank - 1] != 2)
        return fail(msg, "split expects a block whose last dim is 2, got %s", type_text(a).s);
    if (in->attr[0] < 0 || in->attr[0] > 1)
        return fail(msg, "invalid split index %lld", (long long)in->attr[0]);
    Type r = a;
    r.rank = (uint8_t)(a.rank - 1);
    r.shape[r.rank] = 0;
    *out = r;
    return 0;
}

/* cat: two vectors of one element type, the second after the first */
static int rule_cat(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, b = in->b;
    if (a.rank != 1 || b.rank != 1)
        return fail(msg, "cat expects two rank-1 blocks, got %s and %s", type_text(a).s,
                    type_text(b).s);
    if (a.dtype != b.dtype || a.is_ptr != b.is_ptr)
        return fail(msg, "cat operands must have the same element type, got %s and %s",
                    type_text(a).s, type_text(b).s);
    int32_t n = a.shape[0] + b.shape[0];
    *out = type_block(type_elem(a), 1, &n);
    return 0;
}

/* flip: the same type, dim attr[0] reversed */
static int rule_flip(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    if (a.rank == 0)
        return fail(msg, "flip expects a block, got %s", type_text(a).s);
    if (in->attr[0] < 0 || in->attr[0] >= a.rank)
        return fail(msg, "invalid flip axis %lld for %s", (long long)in->attr[0], type_text(a).s);
    *out = a;
    return 0;
}

/* gather: index's shape, src's element; the two agree but along attr[0] */
static int rule_gather(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a, b = in->b;
    if (a.rank == 0 || b.rank != a.rank)
        return fail(msg, "gather expects a block and an index of its rank, got %s and %s",
                    type_text(a).s, type_text(b).s);
    if (!type_is_int(b))
        return fail(msg, "gather index must be integers, got %s", type_text(b).s);
    if (in->attr[0] < 0 || in->attr[0] >= a.rank)
        return fail(msg, "invalid gather axis %lld for %s", (long long)in->attr[0], type_text(a).s);
    for (int d = 0; d < a.rank; d++)
        if (d != in->attr[0] && a.shape[d] != b.shape[d])
            return fail(msg, "gather index %s does not match %s but along axis %lld",
                        type_text(b).s, type_text(a).s, (long long)in->attr[0]);
    *out = type_with_elem(b, type_elem(a));
    return 0;
}

/* The math set (issue 9): float functions of two or three float operands,
 * promoted and broadcast as arithmetic is, and float predicates. */
static int rule_float2(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_float(in->a) || !type_is_float(in->b))
        return fail(msg, "%s requires float operands, got %s and %s", in->oi->name,
                    tt_elem(in->a).s, tt_elem(in->b).s);
    return rule_arith(in, out, msg);
}

static int rule_float3(const RuleIn *in, Type *out, char *msg) {
    Type c = val_type(in->f, in->args[2]), ab;
    if (!type_is_float(in->a) || !type_is_float(in->b) || !type_is_float(c))
        return fail(msg, "%s requires float operands, got %s, %s and %s", in->oi->name,
                    tt_elem(in->a).s, tt_elem(in->b).s, tt_elem(c).s);
    if (rule_arith(in, &ab, msg) < 0 || bcast(ab, c, out, msg) < 0)
        return -1;
    *out = with_dtype(*out, promote_dtype((DType)ab.dtype, (DType)c.dtype));
    return 0;
}

/* philox: a counter and a key of 64 bits each (the 32-bit words Philox
 * takes in pairs) and a constant selector of lane and rounds (ops.def). */
static int rule_philox(const RuleIn *in, Type *out, char *msg) {
    const Value *sel = &in->f->vals[in->args[2]];
    Type st = val_type(in->f, in->args[2]);
    if (in->a.is_ptr || in->b.is_ptr || in->a.dtype != DT_U64 || in->b.dtype != DT_U64)
        return fail(msg, "philox requires u64 counter and key, got %s and %s",
                    tt_elem(in->a).s, tt_elem(in->b).s);
    if (sel->kind != VK_CONST || st.rank || st.is_ptr || st.dtype != DT_I32 || sel->c.i < 0)
        return fail(msg, "philox selector must be a non-negative i32 constant, got %s",
                    type_text(st).s);
    if (bcast(in->a, in->b, out, msg) < 0)
        return -1;
    *out = with_dtype(*out, DT_U32);
    return 0;
}

static int rule_fpred(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_float(in->a))
        return fail(msg, "%s requires a float operand, got %s", in->oi->name,
                    type_text(in->a).s);
    *out = with_dtype(in->a, DT_I1);
    return 0;
}

/* Atomics (tlatomic.c): a pointer and operands of its pointee type (cas:
 * compare and value; the others: value and an optional bool mask) that
 * broadcast to its shape, a pointee the op supports (atomic_dtype_ok); the
 * result is the old value, of the pointer's shape; attr[0] a memory
 * order. */
static int rule_atomic(const RuleIn *in, Type *out, char *msg) {
    Type p = in->a, want = with_dtype(p, (DType)p.dtype);
    const char *name = in->oi->name;
    if (!p.is_ptr)
        return fail(msg, "%s expects a pointer, got %s", name, type_text(p).s);
    if (!atomic_dtype_ok(in->code, (DType)p.dtype))
        return fail(msg, "%s does not support %s", name, dtype_name((DType)p.dtype));
    for (int i = 1; i < 3; i++) {
        if (!in->args[i])
            continue;
        Type t = val_type(in->f, in->args[i]), r;
        DType d = in->code != OP_ATOMIC_CAS && i == 2 ? DT_I1 : (DType)p.dtype;
        if (t.is_ptr || t.dtype != d)
            return fail(msg, "%s operand %d expected %s, got %s", name, i + 1,
                        dtype_name(d), type_text(t).s);
        if (broadcast_shapes(p, t, &r) < 0 || !same_shape(r, p))
            return fail(msg, "%s cannot broadcast shape %s to %s", name,
                        shape_text(t).s, shape_text(p).s);
    }
    if (in->attr[0] < 0 || in->attr[0] >= MEM_NSEMS * MEM_NSCOPES)
        return fail(msg, "invalid memory order %lld", (long long)in->attr[0]);
    *out = want;
    return 0;
}

/* multiple_of, max_contiguous, max_constancy: the operand unchanged; what
 * they promise (attr[0]) is a positive count */
static int rule_hint(const RuleIn *in, Type *out, char *msg) {
    if (in->attr[0] < 1)
        return fail(msg, "%s expects a positive value, got %lld", in->oi->name,
                    (long long)in->attr[0]);
    *out = in->a;
    return 0;
}

/* tlscan.c: reduce and scan ops with a region have several results; the
 * verifier checks them (verify_combine). */
static int rule_combine(const RuleIn *in, Type *out, char *msg) {
    (void)out;
    return fail(msg, "'%s' is checked by the verifier", in->oi->name);
}

/* tlscan.c: a scan keeps its operand's type; attr[0] is an axis of it,
 * attr[1] (reverse) 0 or 1. */
static int rule_scan(const RuleIn *in, Type *out, char *msg) {
    Type a = in->a;
    if (a.rank == 0)
        return fail(msg, "%s expects a block, got %s", in->oi->name, type_text(a).s);
    if (!type_is_numeric(a))
        return fail(msg, "cannot scan elements of type %s", tt_elem(a).s);
    if (in->attr[0] < 0 || in->attr[0] >= a.rank)
        return fail(msg, "invalid scan axis %lld for %s", (long long)in->attr[0], type_text(a).s);
    if (in->attr[1] != 0 && in->attr[1] != 1)
        return fail(msg, "reverse must be 0 or 1, got %lld", (long long)in->attr[1]);
    *out = a;
    return 0;
}

/* libdevice.c: attr[0] is a symbol, whose argument dtypes the operands
 * have exactly (scalars or blocks that broadcast together), and whose
 * result dtype the result has. */
static int rule_libdevice(const RuleIn *in, Type *out, char *msg) {
    const LibdeviceSym *s = libdevice_sym(in->attr[0]);
    if (!s)
        return fail(msg, "libdevice: no symbol %lld", (long long)in->attr[0]);
    if (in->nargs != s->nargs)
        return fail(msg, "%s takes %d operands, got %d", s->symbol, s->nargs, in->nargs);
    Type shape = val_type(in->f, in->args[0]);
    for (int i = 0; i < in->nargs; i++) {
        Type t = val_type(in->f, in->args[i]);
        if (t.is_ptr || t.dtype != s->args[i])
            return fail(msg, "%s operand %d must be %s, got %s", s->symbol, i,
                        dtype_name(s->args[i]), type_text(t).s);
        if (bcast(shape, t, &shape, msg) < 0)
            return -1;
    }
    *out = with_dtype(shape, s->ret);
    return 0;
}

/* tldebug.c: print reads any number of values (numbers, bools,
 * pointers; scalars or blocks); attr[0] (hex) is 0 or 1. */
static int rule_print(const RuleIn *in, Type *out, char *msg) {
    for (int i = 0; i < in->nargs; i++) {
        Type t = val_type(in->f, in->args[i]);
        if (!valid_dtype(t.dtype))
            return fail(msg, "cannot print a value of type %s", type_text(t).s);
    }
    if (in->attr[0] != 0 && in->attr[0] != 1)
        return fail(msg, "hex must be 0 or 1, got %lld", (long long)in->attr[0]);
    *out = type_scalar(DT_VOID);
    return 0;
}

/* tldebug.c: assert checks one bool condition, a scalar or a block. */
static int rule_assert(const RuleIn *in, Type *out, char *msg) {
    if (!type_is_bool(in->a))
        return fail(msg, "assert expects a bool condition, got %s", type_text(in->a).s);
    *out = type_scalar(DT_VOID);
    return 0;
}

/* Each rule, whether the caller passes the result type in (the type is not
 * a function of the operands), and how many results its ops have. */
static const struct {
    RuleFn fn;
    bool rtype_in;
    int nres;
} rules[R_COUNT] = {
    [R_ARITH] = {rule_arith, false, 1},   [R_INT] = {rule_int, false, 1},
    [R_LOGIC] = {rule_logic, false, 1},   [R_ORDER] = {rule_order, false, 1},
    [R_EQUAL] = {rule_equal, false, 1},   [R_FLOAT1] = {rule_float1, false, 1},
    [R_SAME1] = {rule_same1, false, 1},   [R_NOT] = {rule_not, false, 1},
    [R_REDUCE] = {rule_reduce, false, 1}, [R_GRID] = {rule_grid, false, 1},
    [R_RANGE] = {rule_range, false, 1},   [R_BLOCK] = {rule_block, true, 1},
    [R_CAST] = {rule_cast, true, 1},      [R_SELECT] = {rule_select, false, 1},
    [R_ADDPTR] = {rule_addptr, false, 1}, [R_LOAD] = {rule_load, false, 1},
    [R_STORE] = {rule_store, false, 0},   [R_EXPAND] = {rule_expand, false, 1},
    [R_BROADCAST] = {rule_broadcast, true, 1},
    [R_DOT] = {rule_dot, false, 1},       [R_LOOP] = {rule_loop, false, -1},
    [R_CONVERT] = {rule_convert, false, 1},
    [R_BITCAST] = {rule_bitcast, true, 1},
    [R_IF] = {rule_loop, false, -1},      [R_WHILE] = {rule_loop, false, -1},
    [R_EFFECT0] = {rule_effect0, false, 0},
    [R_RESHAPE] = {rule_reshape, true, 1}, [R_TRANS] = {rule_trans, false, 1},
    [R_JOIN] = {rule_join, false, 1},     [R_SPLIT] = {rule_split, false, 1},
    [R_CAT] = {rule_cat, false, 1},       [R_FLIP] = {rule_flip, false, 1},
    [R_GATHER] = {rule_gather, false, 1},
    [R_FLOAT2] = {rule_float2, false, 1}, [R_FLOAT3] = {rule_float3, false, 1},
    [R_FPRED] = {rule_fpred, false, 1},
    [R_PHILOX] = {rule_philox, false, 1},
    [R_ATOMIC] = {rule_atomic, false, 1},
    [R_SCAN] = {rule_scan, false, 1},
    [R_COMBINE] = {rule_combine, false, -1},
    [R_ASM] = {rule_combine, false, -1}, /* verify_asm */
    [R_MAP] = {rule_combine, false, -1}, /* verify_map */
    [R_HINT] = {rule_hint, false, 1},
    [R_PRINT] = {rule_print, false, 0},   [R_ASSERT] = {rule_assert, false, 0},
    [R_LIBDEVICE] = {rule_libdevice, false, 1},
};

bool op_has_result(OpCode code) {
    return code < OP_COUNT && rules[op_info[code].rule].nres != 0;
}

bool ir_rule_rtype_in(int code) {
    return code >= 0 && code < OP_COUNT && rules[op_info[code].rule].rtype_in;
}

int ir_rule_check(Func *f, int code, const ValId *args, int nargs, const int64_t attr[2],
                  Type *out, char *msg) {
    if (code < 0 || code >= OP_COUNT)
        return fail(msg, "unsupported operation");
    const OpInfo *oi = &op_info[code];
    if (oi->flags & F_REGION)
        return fail(msg, "%s ops are checked by the verifier", oi->name);
    if (oi->nargs >= 0 && nargs != oi->nargs)
        return fail(msg, "expected %d operands, got %d", oi->nargs, nargs);
    for (int i = 0; i < nargs; i++) {
        if (args[i] < 0 || args[i] >= f->nvals)
            return fail(msg, "invalid operand %%%d", (int)args[i]);
        if (args[i] == 0 && !operand_optional(code, i))
            return fail(msg, "operand %d of '%s' is missing", i + 1, oi->name);
    }
    RuleIn in = {f, code, oi, args, attr,
                 nargs > 0 ? val_type(f, args[0]) : type_scalar(DT_VOID),
                 nargs > 1 ? val_type(f, args[1]) : type_scalar(DT_VOID), nargs};
    if (oi->rule >= R_COUNT || !rules[oi->rule].fn)
        return fail(msg, "missing verifier rule");
    return rules[oi->rule].fn(&in, out, msg);
}

int ir_infer_type(Func *f, OpCode code, Loc loc, const ValId *args, int nargs,
                  const int64_t attr[2], Type *out) {
    static const int64_t no_attr[2] = {0, 0};
    char msg[MT_RULE_MSG_MAX];
    Type t = *out;
    if (ir_rule_check(f, (int)code, args, nargs, attr ? attr : no_attr, &t, msg) < 0)
        return diag_error(f->ctx, loc, MT_ERR_TYPE, "%s", msg);
    *out = t;
    return 0;
}
