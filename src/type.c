/* type.c: scalar, pointer and block types, NumPy broadcasting and numeric
 * promotion.
 *
 * A Type is a small value (no allocation): an element dtype, a pointer
 * flag and a static shape of rank 0..MT_MAX_RANK.  Printing follows the
 * original's syntax: i32, ptr<f32>, vector<256 x i32> for rank 1,
 * block<16x32 x bool> for higher ranks; tl.int1 prints as bool. */
#include "mt.h"

#include <string.h>

Type type_scalar(DType d) {
    Type t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint8_t)d;
    return t;
}

Type type_ptr(DType pointee) {
    Type t = type_scalar(pointee);
    t.is_ptr = 1;
    return t;
}

Type type_block(Type elem, int rank, const int32_t *shape) {
    Type t = type_elem(elem);
    t.rank = (uint8_t)rank;
    for (int i = 0; i < rank; i++)
        t.shape[i] = shape[i];
    return t;
}

Type type_elem(Type t) {
    Type e = type_scalar((DType)t.dtype);
    e.is_ptr = t.is_ptr;
    return e;
}

Type type_with_elem(Type shape_from, Type elem) {
    Type t = shape_from;
    t.dtype = elem.dtype;
    t.is_ptr = elem.is_ptr;
    return t;
}

bool type_eq(Type a, Type b) {
    if (a.dtype != b.dtype || a.is_ptr != b.is_ptr || a.rank != b.rank)
        return false;
    for (int i = 0; i < a.rank; i++)
        if (a.shape[i] != b.shape[i])
            return false;
    return true;
}

bool type_is_numeric(Type t) {
    return !t.is_ptr &&
           (t.dtype == DT_I32 || t.dtype == DT_I64 || t.dtype == DT_F32);
}

bool type_is_int(Type t) {
    return !t.is_ptr && (t.dtype == DT_I32 || t.dtype == DT_I64);
}

bool type_is_bool(Type t) { return !t.is_ptr && t.dtype == DT_I1; }

bool type_is_float(Type t) { return !t.is_ptr && t.dtype == DT_F32; }

int64_t type_numel(Type t) {
    int64_t n = 1;
    for (int i = 0; i < t.rank; i++)
        n *= t.shape[i];
    return n;
}

const char *dtype_name(DType d) {
    switch (d) {
    case DT_I1: return "bool";
    case DT_I32: return "i32";
    case DT_I64: return "i64";
    case DT_F32: return "f32";
    default: return "void";
    }
}

const char *dtype_ctype(DType d) {
    switch (d) {
    case DT_I1: return "bool";
    case DT_I32: return "int";
    case DT_I64: return "long long";
    case DT_F32: return "float";
    default: return "void";
    }
}

static void print_elem(StrBuf *sb, Type t) {
    if (t.is_ptr)
        sb_printf(sb, "ptr<%s>", dtype_name((DType)t.dtype));
    else
        sb_puts(sb, dtype_name((DType)t.dtype));
}

void type_print(StrBuf *sb, Type t) {
    if (t.rank == 0) {
        print_elem(sb, t);
        return;
    }
    sb_puts(sb, t.rank == 1 ? "vector<" : "block<");
    for (int i = 0; i < t.rank; i++)
        sb_printf(sb, i ? "x%d" : "%d", t.shape[i]);
    sb_puts(sb, " x ");
    print_elem(sb, t);
    sb_putc(sb, '>');
}

int broadcast_shapes(Type a, Type b, Type *out) {
    int rank = a.rank > b.rank ? a.rank : b.rank;
    Type r = a;
    r.rank = (uint8_t)rank;
    for (int i = 0; i < rank; i++) {
        int ia = i - (rank - a.rank), ib = i - (rank - b.rank);
        int32_t da = ia >= 0 ? a.shape[ia] : 1;
        int32_t db = ib >= 0 ? b.shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return -1;
        r.shape[i] = da == 1 ? db : da;
    }
    for (int i = rank; i < MT_MAX_RANK; i++)
        r.shape[i] = 0;
    *out = r;
    return 0;
}

DType promote_dtype(DType a, DType b) {
    if (a == DT_F32 || b == DT_F32)
        return DT_F32;
    if (a == DT_I64 || b == DT_I64)
        return DT_I64;
    if (a == DT_I32 || b == DT_I32)
        return DT_I32;
    return DT_I1;
}
