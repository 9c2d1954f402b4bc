/* dtypeval.c: dtypes as compile-time values of the kernel language.
 *
 * Input: a name (tl.float16, tl.half), or a dtype value (CV_DTYPE; CV.i
 * set for a pointer type, whose pointee is CV.sub) and an attribute or
 * method name.  Output: the dtype value, the attribute's value, or the
 * method's predicate, as Triton's tl.dtype defines them; names outside
 * dtype_info are located errors or "not a dtype" (1).  Everything reads
 * type.c's dtype_info; nothing here keeps state. */
#include "mt.h"

#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Triton's fp8 variants that no NVIDIA GPU since Hopper computes with;
 * kernels that name them get a located error. */
static const char *const unsupported_dtypes[] = {
    "float8e4b15", "float8e4b8", "float8e5b16",
};

/* tl.<name> as a dtype (dtype_info's tl_name, or Triton's aliases): 0
 * found, -1 a located error (a dtype not supported), 1 not a dtype name. */
int dtype_by_name(Elab *E, const char *name, Loc loc, CV *out) {
    static const struct { const char *alias; DType d; } aliases[] = {
        {"half", DT_F16}, {"float", DT_F32}, {"double", DT_F64},
    };
    for (int d = DT_I1; d < DT_COUNT; d++)
        if (!strcmp(dtype_info[d].tl_name, name)) {
            *out = cv_dtype(d);
            return 0;
        }
    for (int i = 0; i < COUNT(aliases); i++)
        if (!strcmp(aliases[i].alias, name)) {
            *out = cv_dtype(aliases[i].d);
            return 0;
        }
    if (!strcmp(name, "pi32_t")) { /* Triton's pointer_type(int32) */
        *out = cv_dtype(DT_I32);
        out->i = 1;
        return 0;
    }
    for (int i = 0; i < COUNT(unsupported_dtypes); i++)
        if (!strcmp(unsupported_dtypes[i], name))
            return elab_err(E, loc, MT_ERR_UNSUPPORTED, "dtype %s is not supported", name);
    return 1;
}

int builtin_dtype(Elab *E, const char *name, Loc loc, CV *out) {
    int rc = dtype_by_name(E, name, loc, out);
    return rc <= 0 ? rc : elab_err(E, loc, MT_ERR_TYPE, "'tl.%s' is not a dtype", name);
}


/* The predicate a dtype method computes; d is the dtype, ptr whether it is
 * a pointer type (CV.i of a CV_DTYPE). */
bool dtype_predicate(const char *m, DType d, bool ptr) {
    static const struct { const char *name; DType d; } exact[] = {
        {"is_fp16", DT_F16},   {"is_bf16", DT_BF16},   {"is_fp32", DT_F32},
        {"is_fp64", DT_F64},   {"is_int1", DT_I1},     {"is_bool", DT_I1},
        {"is_int8", DT_I8},    {"is_int16", DT_I16},   {"is_int32", DT_I32},
        {"is_int64", DT_I64},  {"is_uint8", DT_U8},    {"is_uint16", DT_U16},
        {"is_uint32", DT_U32}, {"is_uint64", DT_U64},  {"is_fp8e4nv", DT_F8E4},
        {"is_fp8e5", DT_F8E5},
    };
    if (!strcmp(m, "is_ptr"))
        return ptr;
    if (ptr || !strcmp(m, "is_void") || !strcmp(m, "is_block"))
        return false;
    for (int i = 0; i < COUNT(exact); i++)
        if (!strcmp(m, exact[i].name))
            return d == exact[i].d;
    if (!strcmp(m, "is_floating"))
        return dtype_is_float(d);
    if (!strcmp(m, "is_standard_floating"))
        return d == DT_F16 || d == DT_BF16 || d == DT_F32 || d == DT_F64;
    if (!strcmp(m, "is_fp8"))
        return dtype_is_fp8(d);
    if (!strcmp(m, "is_int"))
        return d == DT_I1 || dtype_is_int(d);
    if (!strcmp(m, "is_int_signed"))
        return d == DT_I1 || (dtype_is_int(d) && !dtype_is_unsigned(d));
    return dtype_is_unsigned(d); /* is_int_unsigned */
}

/* Attributes of a dtype value: element_ty of a pointer type, and the bit
 * widths and name Triton kernels read.  1 when name is none of them (the
 * methods are builtin rows, bound by builtins.c). */
int dtype_value_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    DType d = (DType)obj.sub;
    bool ptr = obj.i != 0;
    const DTypeInfo *di = &dtype_info[d];
    if (!strcmp(name, "element_ty")) {
        if (!ptr)
            return elab_err(E, loc, MT_ERR_TYPE, "'%s' has no element_ty: not a pointer type",
                            di->tl_name);
        *out = cv_dtype(d);
        return 0;
    }
    if (!strcmp(name, "scalar")) {
        *out = obj;
        return 0;
    }
    if (!strcmp(name, "primitive_bitwidth")) {
        *out = cv_int(ptr ? 64 : di->bits);
        return 0;
    }
    if (!strcmp(name, "int_bitwidth") && !ptr && (d == DT_I1 || dtype_is_int(d))) {
        *out = cv_int(di->bits);
        return 0;
    }
    if (!strcmp(name, "fp_mantissa_width") && !ptr && dtype_is_float(d)) {
        *out = cv_int(di->mantissa);
        return 0;
    }
    if (!strcmp(name, "name") && !ptr) {
        *out = cv_str(di->short_name, (int)strlen(di->short_name));
        return 0;
    }
    return 1;
}

