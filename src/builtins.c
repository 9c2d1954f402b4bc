/* builtins.c: the names of the kernel language and the builtins behind them.
 *
 * Input: a call of a builtin (tl.*, triton.*, a Python builtin, a tensor
 * method such as x.to(...), or a dtype such as tl.float32(x)) with its
 * evaluated arguments; or an attribute of a module, tensor or dtype.
 * Output: a CV, after emitting the ops the builtin stands for into the
 * elaboration's current region.
 *
 * One table, `builtins`, has a row per builtin: the name messages use, the
 * namespaces that name it (tl, triton, Python, tensor method), its
 * parameters and the check each one gets, its handler, the IR op it maps
 * to, and a one-line usage.  A call is bound to the parameters the way
 * Python binds them, then every parameter's check runs once, in parameter
 * order (tensor operand, pointer, block, compile-time int, new axis, block
 * shape, dtype), and the handler reads the checked values from the Call.
 * Builtins that are one IR op share a generic handler and differ only in
 * their row, so a unary math function such as tl.cos is one row here plus
 * its row in ops.def.  The same table lists the names for the Python
 * bindings (mt_language_name), so mytriton.language and the compiler
 * cannot disagree about what a kernel may call.
 *
 * Invariants: checks a handler could reorder stay in the handler (the
 * first error wins, so the order of checks is part of the behaviour);
 * messages name a builtin as its row's display name; nothing here keeps
 * state between calls. */
#include "mt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- the table */

/* Where a name is visible; UNBOUND builtins take any arguments and their
 * handler reads Call.args (print, min/max, the loop ranges, ...). */
enum { IN_TL = 1, IN_TRITON = 2, IN_PY = 4, IN_METHOD = 8, UNBOUND = 16, IN_DTYPE = 32,
       IN_LIBDEVICE = 64, /* tl.extra.cuda.libdevice (tlmath.c) */
       IN_CUDA = 128 /* tl.extra.cuda */, IN_DESC = 256 /* tensor descriptor methods */ };

static int h_cuda_threads(Elab *E, Call *c, CV *out);
static int h_dtype_method(Elab *E, Call *c, CV *out);

/* The methods of a dtype value (x.dtype.is_floating()), each a predicate
 * on the dtype, as Triton's tl.dtype defines them. */
#define DTYPE_METHODS(X)                                                           \
    X(is_floating) X(is_int) X(is_int_signed) X(is_int_unsigned) X(is_bool)       \
    X(is_fp8) X(is_fp16) X(is_bf16) X(is_fp32) X(is_fp64) X(is_int1) X(is_int8)  \
    X(is_int16) X(is_int32) X(is_int64) X(is_uint8) X(is_uint16) X(is_uint32)    \
    X(is_uint64) X(is_ptr) X(is_standard_floating) X(is_void) X(is_block)         \
    X(is_fp8e4nv) X(is_fp8e5)

#define TL_ (IN_TL)
#define TLM (IN_TL | IN_METHOD)
#define ANY(n) {n, P_ANY}

static const Builtin builtins[] = {
    /* the rows code refers to (BuiltinId) */
    [B_RANGE] = {"range", IN_PY | UNBOUND, h_loop_only, OP_COUNT, 0, {{0}}, NULL},
    [B_STATIC_RANGE] = {"tl.static_range", TL_ | UNBOUND, h_loop_only, OP_COUNT, 1,
        {ANY("arg1"), ANY("arg2"), ANY("step")},
        "static_range(arg1, arg2=None, step=None): a loop unrolled at compile time"},
    [B_TL_RANGE] = {"tl.range", TL_ | UNBOUND, h_loop_only, OP_COUNT, 1,
        {ANY("arg1"), ANY("arg2"), ANY("step"), ANY("num_stages"),
         ANY("loop_unroll_factor"), ANY("disallow_acc_multi_buffer"), ANY("flatten"),
         ANY("warp_specialize"), ANY("disable_licm")},
        "range(arg1, arg2=None, step=None, num_stages=None, ...): a runtime loop"},
    [B_CAST] = {"tl.cast", TLM, h_cast, OP_CAST, 2,
        {ANY("input"), {"dtype", P_DTYPE}, ANY("fp_downcast_rounding"), ANY("bitcast")},
        "cast(input, dtype)"},
    [B_FLOAT] = {"float", IN_PY, h_float, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_INT] = {"int", IN_PY, h_int, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_BOOL] = {"bool", IN_PY, h_bool, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_STR] = {"str", IN_PY, h_str, OP_COUNT, 0, {ANY("object")}, NULL},
    /* only as type(None), so in no namespace */
    [B_NONETYPE] = {"NoneType", UNBOUND, h_nonetype, OP_COUNT, 0, {{0}}, NULL},

    /* the others, found by their names only: a new builtin is one row */
    [B_NAMED] = {"tl.program_id", TL_, h_grid_axis, OP_PROGRAM_ID, 1, {{"axis", P_INT}},
        "program_id(axis) -> i32: index of this program along axis 0, 1 or 2"},
    {"tl.num_programs", TL_, h_grid_axis, OP_NUM_PROGRAMS, 1, {{"axis", P_INT}},
        "num_programs(axis) -> i32: grid size along axis"},
    {"tl.arange", TL_, h_arange, OP_ARANGE, 2, {ANY("start"), ANY("end")},
        "arange(start, end) -> block of i32 [start, end)"},
    {"tl.load", TL_, h_mem_load, OP_LOAD, 1,
        {ANY("pointer"), ANY("mask"), ANY("other"), ANY("boundary_check"),
         ANY("padding_option"), ANY("cache_modifier"), ANY("eviction_policy"),
         ANY("volatile")},
        "load(pointer, mask=None, other=None, boundary_check=(), padding_option='') -> block"},
    {"tl.store", TLM, h_mem_store, OP_STORE, 2,
        {ANY("pointer"), ANY("value"), ANY("mask"), ANY("boundary_check"),
         ANY("cache_modifier"), ANY("eviction_policy")},
        "store(pointer, value, mask=None, boundary_check=())"},
    {"tl.exp", TLM, h_math_f32_f64, OP_EXP, 1, {{"x", P_TENSOR}},
        "exp(x): elementwise e**x (f32)"},
    {"tl.log", TLM, h_math_f32_f64, OP_LOG, 1, {{"x", P_TENSOR}},
        "log(x): elementwise natural logarithm (f32)"},
    {"tl.cos", TLM, h_math_f32_f64, OP_COS, 1, {{"x", P_TENSOR}},
        "cos(x): elementwise cosine (f32)"},
    {"tl.sin", TLM, h_math_f32_f64, OP_SIN, 1, {{"x", P_TENSOR}},
        "sin(x): elementwise sine (f32, f64)"},
    {"tl.sqrt", TLM, h_math_f32_f64, OP_SQRT, 1, {{"x", P_TENSOR}},
        "sqrt(x): elementwise square root (f32)"},
    {"tl.abs", TLM, h_abs, OP_ABS, 1, {ANY("x")}, "abs(x): elementwise absolute value"},
    {"tl.minimum", TL_, h_maximum, OP_MINIMUM, 2,
        {ANY("x"), ANY("y"), ANY("propagate_nan")},
        "minimum(x, y, propagate_nan=tl.PropagateNan.NONE): elementwise minimum (ALL: "
        "a NaN operand gives NaN; NONE: the other operand)"},
    {"tl.maximum", TL_, h_maximum, OP_MAXIMUM, 2,
        {ANY("x"), ANY("y"), ANY("propagate_nan")},
        "maximum(x, y, propagate_nan=tl.PropagateNan.NONE): elementwise maximum (ALL: "
        "a NaN operand gives NaN; NONE: the other operand)"},
    {"tl.where", TL_, h_where, OP_SELECT, 3, {ANY("condition"), ANY("x"), ANY("y")},
        "where(condition, x, y): elementwise select"},
    {"tl.sum", TLM, h_reduce, OP_SUM, 1,
        {ANY("input"), ANY("axis"), ANY("keep_dims"), ANY("dtype")},
        "sum(input, axis=None, keep_dims=False, dtype=None): reduction (integers "
        "narrower than 32 bits sum in int32/uint32)"},
    {"tl.max", TLM, h_reduce, OP_MAX, 1,
        {ANY("input"), ANY("axis"), ANY("return_indices"),
         ANY("return_indices_tie_break_left"), ANY("keep_dims")},
        "max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, "
        "keep_dims=False): reduction (types narrower than 32 bits in int32/float32)"},
    {"tl.min", TLM, h_reduce, OP_MIN, 1,
        {ANY("input"), ANY("axis"), ANY("return_indices"),
         ANY("return_indices_tie_break_left"), ANY("keep_dims")},
        "min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, "
        "keep_dims=False): reduction (types narrower than 32 bits in int32/float32)"},
    {"tl.zeros", TL_, h_fill, OP_ZEROS, 2, {{"shape", P_SHAPE}, {"dtype", P_BLOCK_DTYPE}},
        "zeros(shape, dtype) -> block of zeros"},
    {"tl.full", TL_, h_fill, OP_FULL, 3,
        {{"shape", P_SHAPE}, ANY("value"), {"dtype", P_BLOCK_DTYPE}},
        "full(shape, value, dtype) -> block filled with value"},
    {"tl.empty", TL_, h_fill, OP_EMPTY, 2, {{"shape", P_SHAPE}, {"dtype", P_BLOCK_DTYPE}},
        "empty(shape, dtype) -> block with undefined contents"},
    {"tl.zeros_like", TL_, h_fill, OP_ZEROS, 1, {{"input", P_BLOCK}},
        "zeros_like(input) -> zeros of input's shape and dtype"},
    {"tl.full_like", TL_, h_fill, OP_FULL, 2, {{"input", P_BLOCK}, ANY("fill_value")},
        "full_like(input, fill_value) -> block of input's shape filled with fill_value"},
    {"tl.cdiv", IN_TL, h_tl_cdiv, OP_COUNT, 2, {ANY("x"), ANY("div")},
        "cdiv(x, div) = (x + div - 1) // div"},
    {"triton.cdiv", IN_TRITON, h_cdiv, OP_COUNT, 2, {ANY("x"), ANY("div")},
        "cdiv(x, div) = (x + div - 1) // div"},
    {"tl.dot", TL_, h_dot, OP_DOT, 2,
        {ANY("input"), ANY("other"), ANY("acc"), ANY("input_precision"),
         ANY("allow_tf32"), ANY("max_num_imprecise_acc"), ANY("out_dtype")},
        "dot(input, other, acc=None, input_precision=None) -> matrix product"},
    {"tl.inline_asm_elementwise", TL_, h_inline_asm, OP_INLINE_ASM, 6,
        {ANY("asm"), ANY("constraints"), ANY("args"), ANY("dtype"), ANY("is_pure"), ANY("pack")},
        "inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack) -> the PTX "
        "run over the args' elements, pack at a time (GPU only)"},
    {"tl.dot_scaled", TL_, h_dot_scaled, OP_DOT, 6,
        {ANY("lhs"), ANY("lhs_scale"), ANY("lhs_format"), ANY("rhs"), ANY("rhs_scale"),
         ANY("rhs_format"), ANY("acc"), ANY("fast_math"), ANY("lhs_k_pack"), ANY("rhs_k_pack"),
         ANY("out_dtype")},
        "dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, "
        "fast_math=False, lhs_k_pack=True, rhs_k_pack=True, out_dtype=float32) -> "
        "microscaled matrix product (formats e2m1, e4m3, e5m2, bf16, fp16; e8m0 uint8 "
        "scales per 32 elements along K, or None)"},
    {"tl.expand_dims", TLM, h_expand_dims, OP_EXPAND_DIMS, 2,
        {{"input", P_TENSOR}, ANY("axis")},
        "expand_dims(input, axis): a new axis of size 1"},
    {"tl.broadcast_to", TLM | UNBOUND, h_broadcast_to, OP_BROADCAST, 1, {{0}},
        "broadcast_to(input, *shape)"},
    {"to", IN_METHOD, h_cast, OP_CAST, 2,
        {ANY("self"), {"dtype", P_DTYPE}, ANY("fp_downcast_rounding"), ANY("bitcast")},
        "to(dtype): x cast to dtype"},
    {"tl.condition", TL_, h_condition, OP_COUNT, 1, {ANY("arg1"), ANY("disable_licm")},
        "condition(cond, disable_licm=False): a while loop's condition with a scheduling "
        "hint; the condition itself"},
    {"tl.multiple_of", TL_, h_hint, OP_MULTIPLE_OF, 2, {ANY("input"), ANY("values")},
        "multiple_of(input, values): a compiler hint: input's values are multiples of values"},
    {"tl.max_contiguous", TL_, h_hint, OP_MAX_CONTIGUOUS, 2, {ANY("input"), ANY("values")},
        "max_contiguous(input, values): a compiler hint: input comes in runs of values "
        "consecutive integers"},
    {"tl.max_constancy", TL_, h_hint, OP_MAX_CONSTANCY, 2, {ANY("input"), ANY("values")},
        "max_constancy(input, values): a compiler hint: input comes in runs of values "
        "equal elements"},
    {"tl.static_assert", TL_, h_static_assert, OP_COUNT, 1, {ANY("cond"), ANY("msg")},
        "static_assert(cond, msg=''): checked at compile time"},
    {"tl.static_print", TL_ | UNBOUND, h_static_print, OP_COUNT, 0, {{0}},
        "static_print(*values, sep=' ', end='\\n'): printed at compile time"},
    {"tl.device_print", TL_ | UNBOUND, h_device_print, OP_COUNT, 0, {{0}},
        "device_print(prefix, *values, hex=False): every element each thread holds, one "
        "line each: 'pid (x, y, z) idx (i, j) prefix: value'"},
    {"tl.pointer_type", TL_, h_pointer_type, OP_COUNT, 1, {ANY("element_ty"),
        ANY("address_space"), ANY("const")},
        "pointer_type(element_ty): the type of pointers to element_ty (for x.to(...))"},
    {"tl.debug_barrier", TL_, h_effect, OP_BARRIER, 0, {{0}},
        "debug_barrier(): every thread of the program waits for the others"},
    {"tl.assume", TL_, h_assume, OP_COUNT, 1, {ANY("cond")},
        "assume(cond): a hint that cond holds (not checked)"},
    {"tl.device_assert", TL_, h_device_assert, OP_COUNT, 1,
        {ANY("cond"), ANY("msg"), ANY("mask")},
        "device_assert(cond, msg='', mask=None): checked only in debug mode "
        "(TRITON_DEBUG=1, @jit(debug=True)), as in Triton"},
    {"tl.constexpr", TL_, h_identity, OP_COUNT, 1, {ANY("value")},
        "constexpr(value): a compile-time value"},
    {"triton.jit", IN_TRITON | UNBOUND, h_jit, OP_COUNT, 0, {{0}}, NULL},
    {"min", IN_PY | UNBOUND, h_py_min_max, OP_COUNT, 0, {{0}}, NULL},
    {"max", IN_PY | UNBOUND, h_py_min_max, OP_COUNT, 0, {{0}}, NULL},
    {"abs", IN_PY, h_abs, OP_ABS, 1, {ANY("x")}, NULL},
    {"len", IN_PY, h_len, OP_COUNT, 1, {ANY("obj")}, NULL},
    {"getattr", IN_PY, h_getattr, OP_COUNT, 2, {ANY("obj"), ANY("name")}, NULL},
    {"tl.extra.cuda.num_threads", IN_CUDA, h_cuda_threads, OP_COUNT, 0, {{0}},
        "num_threads() -> constexpr: 32 * num_warps, the threads of a program"},
    {"tl.extra.cuda.num_warps", IN_CUDA, h_cuda_threads, OP_COUNT, 0, {{0}},
        "num_warps() -> constexpr: the kernel's num_warps"},
    {"type", IN_PY, h_type, OP_COUNT, 1, {ANY("object")}, NULL},
    {"hasattr", IN_PY, h_hasattr, OP_COUNT, 2, {ANY("obj"), ANY("name")}, NULL},
    {"isinstance", IN_PY, h_isinstance, OP_COUNT, 2, {ANY("obj"), ANY("class_or_tuple")}, NULL},
    /* classes, for isinstance() only */
    {"tl.tensor", TL_ | UNBOUND, h_class, OP_COUNT, 0, {{0}},
        "tensor: the class of blocks, runtime scalars and block pointers"},
    {"tl.tensor_descriptor", TL_ | UNBOUND, h_class, OP_COUNT, 0, {{0}},
        "tensor_descriptor: the class of tensor descriptors"},
    {"tl.tensor_descriptor_base", TL_ | UNBOUND, h_class, OP_COUNT, 0, {{0}},
        "tensor_descriptor_base: the base class of tensor descriptors"},
    {"tl.dtype", TL_ | UNBOUND, h_class, OP_COUNT, 0, {{0}}, "dtype: the class of dtypes"},
    {"print", IN_PY | UNBOUND, h_device_print, OP_COUNT, 0, {{0}}, NULL},
    /* shape ops (tlshape.c) */
    {"tl.reshape", TLM | UNBOUND, h_reshape, OP_RESHAPE, 1, {{0}},
        "reshape(input, *shape, can_reorder=False): the elements, in row-major order, "
        "in a new shape"},
    {"tl.view", TLM | UNBOUND, h_reshape, OP_RESHAPE, 1, {{0}},
        "view(input, *shape): reshape (deprecated in Triton)"},
    {"item", IN_METHOD, h_item, OP_RESHAPE, 1, {{"self", P_TENSOR}},
        "item(): the one element of a one-element block, as a scalar"},
    {"tl.ravel", TLM, h_ravel, OP_RESHAPE, 1, {{"x", P_TENSOR}, ANY("can_reorder")},
        "ravel(x, can_reorder=False): x as one vector"},
    {"tl.trans", TLM | UNBOUND, h_permute, OP_TRANS, 1, {{0}},
        "trans(input, *dims): permute(input, *dims); no dims swaps the last two"},
    {"tl.permute", TLM | UNBOUND, h_permute, OP_TRANS, 1, {{0}},
        "permute(input, *dims): the dims in a new order"},
    {"tl.join", TL_, h_join, OP_JOIN, 2, {{"a", P_TENSOR}, {"b", P_TENSOR}},
        "join(a, b): a and b, broadcast to one shape, on a new last dim of 2"},
    {"tl.split", TLM, h_split, OP_SPLIT, 1, {{"a", P_TENSOR}},
        "split(a) -> (a[..., 0], a[..., 1]): the halves of a last dim of 2"},
    {"tl.cat", TL_, h_cat, OP_CAT, 2,
        {{"input", P_TENSOR}, {"other", P_TENSOR}, ANY("can_reorder")},
        "cat(input, other, can_reorder=True): two vectors, one after the other"},
    {"tl.interleave", TL_, h_interleave, OP_JOIN, 2, {{"a", P_TENSOR}, {"b", P_TENSOR}},
        "interleave(a, b): the elements of a and b alternating along the last dim"},
    {"tl.flip", TLM, h_flip, OP_FLIP, 1, {{"x", P_TENSOR}, ANY("dim")},
        "flip(x, dim=None): x reversed along dim (None: the last)"},
    {"tl.gather", TLM, h_gather, OP_GATHER, 3,
        {{"src", P_TENSOR}, {"index", P_TENSOR}, ANY("axis")},
        "gather(src, index, axis): src's elements at index along axis, index's shape"},
    {"tl.broadcast", TL_, h_broadcast, OP_BROADCAST, 2,
        {{"input", P_TENSOR}, {"other", P_TENSOR}},
        "broadcast(input, other) -> (input, other) in their common shape"},
    /* the math set and libdevice (issue 9, tlmath.c) */
    {"tl.exp2", TLM, h_math_f32_f64, OP_EXP2, 1, {{"x", P_TENSOR}},
        "exp2(x): elementwise 2**x (fp32, fp64)"},
    {"tl.log2", TLM, h_math_f32_f64, OP_LOG2, 1, {{"x", P_TENSOR}},
        "log2(x): elementwise base-2 logarithm (fp32, fp64)"},
    {"tl.rsqrt", TLM, h_math_f32_f64, OP_RSQRT, 1, {{"x", P_TENSOR}},
        "rsqrt(x): elementwise 1 / sqrt(x) (fp32, fp64)"},
    {"tl.erf", TLM, h_math_f32_f64, OP_ERF, 1, {{"x", P_TENSOR}},
        "erf(x): elementwise error function (fp32, fp64)"},
    {"tl.floor", TLM, h_math_f32_f64, OP_FLOOR, 1, {{"x", P_TENSOR}},
        "floor(x): elementwise floor (fp32, fp64)"},
    {"tl.ceil", TLM, h_math_f32_f64, OP_CEIL, 1, {{"x", P_TENSOR}},
        "ceil(x): elementwise ceiling (fp32, fp64)"},
    {"tl.sqrt_rn", TLM, h_math_f32, OP_SQRT_RN, 1, {{"x", P_TENSOR}},
        "sqrt_rn(x): elementwise square root, correctly rounded (fp32)"},
    {"tl.div_rn", TL_, h_math_f32, OP_DIV_RN, 2, {ANY("x"), ANY("y")},
        "div_rn(x, y): elementwise x / y, correctly rounded (fp32)"},
    {"tl.fdiv", TL_, h_fdiv, OP_DIV, 2, {ANY("x"), ANY("y"), ANY("ieee_rounding")},
        "fdiv(x, y, ieee_rounding=False): elementwise x / y of floats"},
    {"tl.umulhi", TL_, h_umulhi, OP_UMULHI, 2, {ANY("x"), ANY("y")},
        "umulhi(x, y): the high half of the double-width unsigned product (int32, int64, "
        "uint32, uint64)"},
    {"tl.fma", TL_, h_fma, OP_FMA, 3, {ANY("x"), ANY("y"), ANY("z")},
        "fma(x, y, z): elementwise x * y + z rounded once (floats)"},
    {"tl.clamp", TL_, h_clamp, OP_COUNT, 3,
        {ANY("x"), ANY("min"), ANY("max"), ANY("propagate_nan")},
        "clamp(x, min, max, propagate_nan=tl.PropagateNan.NONE): minimum(maximum(x, min), "
        "max) of floats"},
    {"tl.sigmoid", TLM, h_sigmoid, OP_COUNT, 1, {ANY("x")},
        "sigmoid(x): 1 / (1 + exp(-x))"},
    {"tl.softmax", TLM, h_softmax, OP_COUNT, 1,
        {ANY("x"), ANY("dim"), ANY("keep_dims"), ANY("ieee_rounding")},
        "softmax(x, dim=None, keep_dims=False, ieee_rounding=False): exp(x - max) / sum "
        "along dim (0 when None)"},
#define ARGS1 {ANY("arg0")}
#define ARGS2 {ANY("arg0"), ANY("arg1")}
#define ARGS3 {ANY("arg0"), ANY("arg1"), ANY("arg2")}
#define LD(name, fn, op, n, doc) \
    {"libdevice." #name, IN_LIBDEVICE, fn, op, n, ARGS##n, #name doc},
#define LD1(name, op, what) LD(name, h_libdevice, op, 1, "(arg0): " what " (fp32, fp64)")
/* no flush to zero: Triton's PTX of these has no .ftz form (tlmath.c) */
#define LDX(name, op, n, what) LD(name, h_libdevice_exact, op, n, what " (fp32, fp64)")
#define LD2(name, op, what) LD(name, h_libdevice, op, 2, "(arg0, arg1): " what " (fp32, fp64)")
#define LDF(name, op, n, what) LD(name, h_libdevice_f32, op, n, what " (fp32)")
    LD1(exp, OP_EXP_RN, "e**x") LD1(exp2, OP_EXP2, "2**x") LD1(expm1, OP_EXPM1, "e**x - 1")
    LD1(log, OP_LOG, "natural logarithm") LD1(log2, OP_LOG2, "base-2 logarithm")
    LD1(log10, OP_LOG10, "base-10 logarithm") LD1(log1p, OP_LOG1P, "log(1 + x)")
    LD1(sqrt, OP_SQRT, "square root") LD1(sqrt_rn, OP_SQRT_RN, "square root, correctly rounded")
    LD1(rsqrt, OP_RSQRT, "1 / sqrt(x)") LD1(cbrt, OP_CBRT, "cube root")
    LD1(sin, OP_SIN, "sine") LD1(cos, OP_COS, "cosine") LD1(tan, OP_TAN, "tangent")
    LD1(asin, OP_ASIN, "arc sine") LD1(acos, OP_ACOS, "arc cosine")
    LD1(atan, OP_ATAN, "arc tangent") LD1(sinh, OP_SINH, "hyperbolic sine")
    LD1(cosh, OP_COSH, "hyperbolic cosine") LD1(tanh, OP_TANH, "hyperbolic tangent")
    LD1(erf, OP_ERF, "error function") LD1(erfc, OP_ERFC, "1 - erf(x)")
    LD1(floor, OP_FLOOR, "floor") LD1(ceil, OP_CEIL, "ceiling") LDX(trunc, OP_TRUNC, 1, "(arg0): toward zero")
    LDX(rint, OP_RINT, 1, "(arg0): to nearest, ties to even")
    LDX(nearbyint, OP_RINT, 1, "(arg0): to nearest, ties to even")
    LD1(round, OP_ROUND, "to nearest, ties away from zero") LD1(fabs, OP_ABS, "absolute value")
    LDX(isnan, OP_ISNAN, 1, "(arg0): -> bool, x is NaN") LDX(isinf, OP_ISINF, 1, "(arg0): -> bool, x is infinite")
    LD2(atan2, OP_ATAN2, "arc tangent of arg0 / arg1") LD2(hypot, OP_HYPOT, "sqrt(x*x + y*y)")
    LDX(copysign, OP_COPYSIGN, 2, "(arg0, arg1): arg0 with the sign of arg1")
    LD2(fmod, OP_FMOD, "remainder with the sign of arg0")
    LD2(div_rn, OP_DIV_RN, "arg0 / arg1, correctly rounded")
    LD(fma, h_libdevice, OP_FMA, 3,
       "(arg0, arg1, arg2): arg0 * arg1 + arg2 rounded once (fp32, fp64)")
    LD(pow, h_libdevice_pow, OP_POW, 2,
       "(arg0, arg1): arg0 ** arg1 (fp32, fp64; an int32 arg1 too)")
    LDF(fast_expf, OP_EXP, 1, "(arg0): e**x") LDF(fast_logf, OP_LOG, 1, "(arg0): natural logarithm")
    LDF(fast_log2f, OP_LOG2, 1, "(arg0): base-2 logarithm")
    LDF(fast_log10f, OP_LOG10, 1, "(arg0): base-10 logarithm")
    LDF(fast_sinf, OP_SIN, 1, "(arg0): sine") LDF(fast_cosf, OP_COS, 1, "(arg0): cosine")
    LDF(fast_tanf, OP_TAN, 1, "(arg0): tangent") LDF(fast_tanhf, OP_TANH, 1, "(arg0): tanh")
    LDF(fast_powf, OP_POW, 2, "(arg0, arg1): arg0 ** arg1")
#define ARGS4 {ANY("arg0"), ANY("arg1"), ANY("arg2"), ANY("arg3")}
#define USAGE1 "(arg0)"
#define USAGE2 "(arg0, arg1)"
#define USAGE3 "(arg0, arg1, arg2)"
#define USAGE4 "(arg0, arg1, arg2, arg3)"
#define S(sym, ...) " __nv_" #sym
#define Z S
#define FN(name, n, to_bool, ...)                                                      \
    {"libdevice." #name, IN_LIBDEVICE, h_libdevice_call, OP_LIBDEVICE, n, ARGS##n,       \
     #name USAGE##n ": libdevice's" __VA_ARGS__},
#include "libdevice.def"
#undef FN
#undef S
#undef Z
#undef USAGE1
#undef USAGE2
#undef USAGE3
#undef USAGE4
#undef ARGS1
#undef ARGS2
#undef ARGS3
#undef ARGS4
#undef LD
#undef LD1
#undef LD2
#undef LDX
#undef LDF
    /* random numbers (issue 9, tlrandom.c) */
#define RAND(name, off, what)                                                          \
    {"tl." #name, TL_, h_philox_lanes, OP_PHILOX, 2, {ANY("seed"), ANY(off), ANY("n_rounds")}, \
     #name "(seed, " off ", n_rounds=10): " what},
    RAND(randint, "offset", "a block of random uint32 (Philox lane 0)")
    RAND(randint4x, "offset", "four blocks of random uint32 (the four Philox lanes)")
    RAND(rand, "offset", "a block of random float32 in [0, 1)")
    RAND(rand4x, "offsets", "four blocks of random float32 in [0, 1)")
    RAND(randn, "offset", "a block of random float32 from N(0, 1) (Box-Muller)")
    RAND(randn4x, "offset", "four blocks of random float32 from N(0, 1)")
#undef RAND
    {"tl.uint_to_uniform_float", TL_, h_uint_to_uniform_float, OP_COUNT, 1, {ANY("x")},
        "uint_to_uniform_float(x): random (u)int32/(u)int64 bits as float32 in [0, 1)"},
    {"tl.pair_uniform_to_normal", TL_, h_pair_uniform_to_normal, OP_COUNT, 2,
        {ANY("u1"), ANY("u2")},
        "pair_uniform_to_normal(u1, u2): two N(0, 1) samples from two uniforms (Box-Muller)"},
    {"tl.philox", TL_, h_philox, OP_COUNT, 5,
        {ANY("seed"), ANY("c0"), ANY("c1"), ANY("c2"), ANY("c3"), ANY("n_rounds")},
        "philox(seed, c0, c1, c2, c3, n_rounds=10): Philox of the counter (c0..c3) keyed by "
        "seed, 32 or 64-bit words"},
    {"tl.philox_impl", TL_, h_philox_impl, OP_COUNT, 6,
        {ANY("c0"), ANY("c1"), ANY("c2"), ANY("c3"), ANY("k0"), ANY("k1"), ANY("n_rounds")},
        "philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=10): Philox rounds on uint32 or uint64 "
        "words"},
    /* atomics (tlatomic.c) */
    {"tl.atomic_add", TLM, h_atomic_rmw, OP_ATOMIC_ADD, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_add(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic add (integers, fp16, bf16, fp32, fp64)"},
    {"tl.atomic_max", TLM, h_atomic_rmw, OP_ATOMIC_MAX, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_max(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic maximum (integers, fp32, fp64)"},
    {"tl.atomic_min", TLM, h_atomic_rmw, OP_ATOMIC_MIN, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_min(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic minimum (integers, fp32, fp64)"},
    {"tl.atomic_and", TLM, h_atomic_rmw, OP_ATOMIC_AND, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_and(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic bitwise and (32/64-bit integers)"},
    {"tl.atomic_or", TLM, h_atomic_rmw, OP_ATOMIC_OR, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_or(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic bitwise or (32/64-bit integers)"},
    {"tl.atomic_xor", TLM, h_atomic_rmw, OP_ATOMIC_XOR, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_xor(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic bitwise xor (32/64-bit integers)"},
    {"tl.atomic_xchg", TLM, h_atomic_rmw, OP_ATOMIC_XCHG, 2,
        {{"pointer", P_POINTER}, ANY("val"), ANY("mask"), ANY("sem"), ANY("scope")},
        "atomic_xchg(pointer, val, mask=None, sem=None, scope=None) -> old values: "
        "atomic exchange (32/64-bit integers, fp32, fp64)"},
    {"tl.atomic_cas", TLM, h_atomic_cas, OP_ATOMIC_CAS, 3,
        {{"pointer", P_POINTER}, ANY("cmp"), ANY("val"), ANY("sem"), ANY("scope")},
        "atomic_cas(pointer, cmp, val, sem=None, scope=None) -> old values: atomic "
        "compare-and-swap (16/32/64-bit elements, bits compared)"},
    /* tlscan.c: reductions and scans */
    {"tl.xor_sum", TLM, h_xor_sum, OP_XOR_SUM, 1, {ANY("input"), ANY("axis"), ANY("keep_dims")},
        "xor_sum(input, axis=None, keep_dims=False): xor reduction of integers"},
    {"tl.cumsum", TLM, h_scan, OP_CUMSUM, 1,
        {ANY("input"), ANY("axis"), ANY("reverse"), ANY("dtype")},
        "cumsum(input, axis=0, reverse=False, dtype=None): inclusive prefix sum "
        "(integers narrower than 32 bits in int32/uint32, bf16 in float32)"},
    {"tl.cumprod", TLM, h_scan, OP_CUMPROD, 1, {ANY("input"), ANY("axis"), ANY("reverse")},
        "cumprod(input, axis=0, reverse=False): inclusive prefix product (bf16 in float32)"},
    {"tl.map_elementwise", TL_ | UNBOUND, h_map_elementwise, OP_MAP, 2, {{0}},
        "map_elementwise(scalar_fn, *args, pack=1): scalar_fn's results on every element"},
    {"tl.reduce", TLM, h_reduce_fn, OP_REDUCE, 3,
        {ANY("input"), ANY("axis"), ANY("combine_fn"), ANY("keep_dims")},
        "reduce(input, axis, combine_fn, keep_dims=False): reduction of a tensor or a tuple "
        "of tensors with a @jit combine function"},
    {"tl.associative_scan", TLM, h_scan_fn, OP_SCAN, 3,
        {ANY("input"), ANY("axis"), ANY("combine_fn"), ANY("reverse")},
        "associative_scan(input, axis, combine_fn, reverse=False): inclusive scan of a tensor "
        "or a tuple of tensors with a @jit combine function"},
    {"tl.argmax", TLM, h_argmax, OP_REDUCE, 2,
        {ANY("input"), ANY("axis"), ANY("tie_break_left"), ANY("keep_dims")},
        "argmax(input, axis, tie_break_left=True, keep_dims=False) -> int32 index of the "
        "maximum (the first among equal values)"},
    {"tl.argmin", TLM, h_argmax, OP_REDUCE, 2,
        {ANY("input"), ANY("axis"), ANY("tie_break_left"), ANY("keep_dims")},
        "argmin(input, axis, tie_break_left=True, keep_dims=False) -> int32 index of the "
        "minimum (the first among equal values)"},
    {"tl.histogram", TLM, h_histogram, OP_COUNT, 2,
        {ANY("input"), ANY("num_bins"), ANY("mask")},
        "histogram(input, num_bins, mask=None) -> int32 counts of the values 0..num_bins-1 "
        "of a 1-D integer block"},
    {"tl.sort", TLM, h_sort, OP_COUNT, 1, {ANY("x"), ANY("dim"), ANY("descending")},
        "sort(x, dim=None, descending=False) -> x sorted (1-D blocks; NaN last, first when "
        "descending)"},
    /* memory: block pointers (tlblockptr.c) */
    {"tl.make_block_ptr", TL_, h_make_block_ptr, OP_COUNT, 6,
        {ANY("base"), ANY("shape"), ANY("strides"), ANY("offsets"), ANY("block_shape"),
         ANY("order")},
        "make_block_ptr(base, shape, strides, offsets, block_shape, order): a pointer to a "
        "block of a strided parent tensor"},
    {"tl.advance", TL_, h_advance, OP_COUNT, 2, {ANY("base"), ANY("offsets")},
        "advance(base, offsets): the block pointer moved by offsets (one per dim)"},
    /* memory: tensor descriptors (tldesc.c) */
    {"tl.make_tensor_descriptor", TL_, h_make_tensor_descriptor, OP_COUNT, 4,
        {ANY("base"), ANY("shape"), ANY("strides"), ANY("block_shape"), ANY("padding_option")},
        "make_tensor_descriptor(base, shape, strides, block_shape, padding_option='zero'): a "
        "descriptor of a strided tensor whose loads and stores move blocks of block_shape, "
        "bounds-checked on every dim"},
    {"tl.load_tensor_descriptor", TL_, h_desc_load, OP_COUNT, 2, {ANY("desc"), ANY("offsets")},
        "load_tensor_descriptor(desc, offsets): desc.load(offsets)"},
    {"tl.store_tensor_descriptor", TL_, h_desc_store, OP_COUNT, 3,
        {ANY("desc"), ANY("offsets"), ANY("value")},
        "store_tensor_descriptor(desc, offsets, value): desc.store(offsets, value)"},
    {"tensor_descriptor.load", IN_DESC, h_desc_load, OP_COUNT, 2, {ANY("self"), ANY("offsets")},
        NULL},
    {"tensor_descriptor.store", IN_DESC, h_desc_store, OP_COUNT, 3,
        {ANY("self"), ANY("offsets"), ANY("value")}, NULL},
#define DESC_ATOMIC(name, op)                                                              \
    {"tensor_descriptor." #name, IN_DESC, h_desc_atomic, op, 3,                            \
        {ANY("self"), ANY("offsets"), ANY("value")}, NULL},
    DESC_ATOMIC(atomic_add, OP_ATOMIC_ADD) DESC_ATOMIC(atomic_min, OP_ATOMIC_MIN)
    DESC_ATOMIC(atomic_max, OP_ATOMIC_MAX) DESC_ATOMIC(atomic_and, OP_ATOMIC_AND)
    DESC_ATOMIC(atomic_or, OP_ATOMIC_OR) DESC_ATOMIC(atomic_xor, OP_ATOMIC_XOR)
#undef DESC_ATOMIC
    {"tensor_descriptor.gather", IN_DESC, h_desc_gather, OP_LOAD, 3,
        {ANY("self"), ANY("x_offsets"), ANY("y_offset")}, NULL},
    {"tensor_descriptor.scatter", IN_DESC, h_desc_scatter, OP_STORE, 4,
        {ANY("self"), ANY("value"), ANY("x_offsets"), ANY("y_offset")}, NULL},
#define DTYPE_ROW(name) {"dtype." #name, IN_DTYPE, h_dtype_method, OP_COUNT, 1, {ANY("self")}, NULL},
    DTYPE_METHODS(DTYPE_ROW)
#undef DTYPE_ROW
};

#undef TL_
#undef TLM
#undef ANY

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define NBUILTINS COUNT(builtins)

const Builtin *builtin_row(int row) {
    return &builtins[row];
}

/* The name of a row in its namespaces: "tl.load" -> "load". */
static const char *short_name(const Builtin *b) {
    const char *dot = strrchr(b->display, '.');
    return dot ? dot + 1 : b->display;
}

/* The builtin a namespace (IN_*) calls `name`; -1 when none. */
static int find_builtin(int where, const char *name) {
    for (int i = 0; i < NBUILTINS; i++)
        if ((builtins[i].flags & where) && !strcmp(short_name(&builtins[i]), name))
            return i;
    return -1;
}

static int nparams(const Builtin *b) {
    int n = 0;
    while (n < MAX_BUILTIN_PARAMS && b->params[n].name)
        n++;
    return n;
}

/* ---------------------------------------------------- binding and checks */

/* Binds a call's arguments to the builtin's parameters (Python's rules
 * for positional and keyword arguments). */
static int bind_builtin(Elab *E, int id, Loc loc, const Args *a, Call *c) {
    const Builtin *bi = &builtins[id];
    int np = nparams(bi);
    c->b = bi;
    c->loc = loc;
    c->args = a;
    for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
        c->have[i] = false;
        c->a[i] = cv_none();
        c->locs[i] = loc;
    }
    if (a->npos > np)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() takes at most %d arguments, got %d",
                        bi->display, np, a->npos);
    for (int i = 0; i < a->npos; i++) {
        c->a[i] = a->pos[i];
        c->have[i] = true;
        c->locs[i] = a->posloc[i];
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (!strcmp(bi->params[i].name, a->kwname[k]))
                j = i;
        if (j < 0)
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got an unexpected keyword argument '%s'", bi->display,
                            a->kwname[k]);
        if (c->have[j])
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got multiple values for argument '%s'", bi->display,
                            a->kwname[k]);
        c->a[j] = a->kw[k];
        c->have[j] = true;
        c->locs[j] = a->kwloc[k];
    }
    for (int i = 0; i < bi->nreq && i < np; i++)
        if (!c->have[i])
            return elab_err(E, loc, MT_ERR_TYPE, "%s() missing required argument '%s'",
                            bi->display, bi->params[i].name);
    return 0;
}

/* A tensor operand; a compile-time number becomes a constant. */
int builtin_need_tensor(Elab *E, CV v, Loc loc, const char *fn, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    if (cv_is_num(v))
        return cv_materialise(E, v, loc, out);
    return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                    cv_kind_name(E, v));
}

static int block_shape(Elab *E, CV v, Loc loc, int *rank, int32_t shape[MT_MAX_RANK]) {
    CV one;
    const CV *items;
    int n;
    if (v.kind == CV_TUPLE) {
        items = v.items;
        n = v.n;
    } else {
        one = v;
        items = &one;
        n = 1;
    }
    if (v.kind != CV_TUPLE && v.kind != CV_INT && v.kind != CV_BOOL)
        return elab_err(E, loc, MT_ERR_TYPE, "block shape must be an int or a sequence of ints");
    /* () is the shape of a scalar (tl.full((), v, dtype), as Triton's) */
    if (n > MT_MAX_RANK)
        return elab_err(E, loc, MT_ERR_TYPE, "block rank %d exceeds the maximum %d", n,
                        MT_MAX_RANK);
    int64_t numel = 1;
    for (int i = 0; i < n; i++) {
        if (items[i].kind != CV_INT || items[i].i <= 0)
            return elab_err(E, loc, MT_ERR_TYPE, "block dimensions must be positive integers");
        if (items[i].i > MAX_BLOCK_NUMEL || (numel *= items[i].i) > MAX_BLOCK_NUMEL)
            return elab_err(E, loc, MT_ERR_TYPE, "block of more than %d elements is too large",
                            MAX_BLOCK_NUMEL);
        shape[i] = (int32_t)items[i].i;
    }
    *rank = n;
    return 0;
}

/* An axis in [-lim, lim) with lim = rank + extra, made non-negative. */
int builtin_norm_axis(Elab *E, CV v, int rank, int extra, Loc loc, int64_t *out) {
    int64_t ax = 0;
    if (cv_need_int(E, v, loc, "axis", &ax) < 0)
        return -1;
    int64_t lim = rank + extra;
    if (ax < 0)
        ax += lim;
    if (ax < 0 || ax >= lim)
        return elab_err(E, loc, MT_ERR_TYPE, "axis %lld is out of range for a rank-%d value",
                        (long long)v.i, rank);
    *out = ax;
    return 0;
}

/* Runs one parameter's check, keeping the checked value in c. */
static int check_param(Elab *E, Call *c, int i) {
    const char *fn = c->b->display;
    CV v = c->a[i];
    Loc loc = c->locs[i];
    switch ((ParamCheck)c->b->params[i].check) {
    case P_ANY:
        return 0;
    case P_TENSOR:
        if (builtin_need_tensor(E, v, loc, fn, &c->t[i]) < 0)
            return -1;
        c->a[i] = cv_tensor(c->t[i]); /* the generic handlers see a tensor */
        return 0;
    case P_POINTER:
        if (v.kind != CV_TENSOR || !cv_type(E, v).is_ptr)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a pointer, got %s", fn,
                            cv_kind_name(E, v));
        c->t[i] = v.v;
        return 0;
    case P_BLOCK:
        if (v.kind != CV_TENSOR)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                            cv_kind_name(E, v));
        c->block = cv_type(E, v);
        if (c->block.is_ptr || c->block.rank == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a block, got %s", fn,
                            elab_type_text(E, c->block));
        c->t[i] = v.v;
        return 0;
    case P_INT:
        return cv_need_int(E, v, loc, c->b->params[i].name, &c->i[i]);
    case P_NEW_AXIS:
        return builtin_norm_axis(E, v, val_type(E->f, c->t[0]).rank, 1, loc, &c->i[i]);
    case P_SHAPE:
        return block_shape(E, v, loc, &c->rank, c->shape);
    case P_BLOCK_DTYPE:
        if (v.kind != CV_DTYPE || v.i)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "block dtype must be a scalar tl dtype, got %s",
                            v.kind == CV_DTYPE ? "a pointer type" : cv_kind_name(E, v));
        c->dtype = (DType)v.sub;
        c->block = type_block(type_scalar(c->dtype), c->rank, c->shape);
        return 0;
    case P_DTYPE:
        if (v.kind != CV_DTYPE)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() dtype must be a tl dtype, got %s", fn,
                            cv_kind_name(E, v));
        c->dtype = (DType)v.sub;
        c->dtype_ptr = v.i != 0;
        return 0;
    }
    return 0;
}

/* Required parameters are always checked, optional ones when given. */
static int check_params(Elab *E, Call *c) {
    int np = nparams(c->b);
    for (int i = 0; i < np; i++)
        if ((i < c->b->nreq || (c->have[i] && c->a[i].kind != CV_NONE)) &&
            check_param(E, c, i) < 0)
            return -1;
    return 0;
}

static int call_builtin(Elab *E, int id, const Args *args, Loc loc, CV *out) {
    Call c;
    *out = cv_none();
    if (builtins[id].flags & UNBOUND) {
        memset(&c, 0, sizeof c);
        c.b = &builtins[id];
        c.loc = loc;
        c.args = args;
    } else if (bind_builtin(E, id, loc, args, &c) < 0 || check_params(E, &c) < 0) {
        return -1;
    }
    return builtins[id].fn(E, &c, out);
}

int builtin_call(Elab *E, CV callee, const Args *a, Loc loc, CV *out) {
    if (callee.kind == CV_BUILTIN)
        return call_builtin(E, callee.sub, a, loc, out);
    if (callee.kind == CV_BOUND) {
        /* x.sum(axis) is tl.sum(x, axis): the receiver is argument 0 */
        Args b = *a;
        b.npos = a->npos + 1;
        b.pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)b.npos);
        b.posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)b.npos);
        b.pos[0] = callee.items[0];
        b.posloc[0] = loc;
        for (int i = 0; i < a->npos; i++) {
            b.pos[i + 1] = a->pos[i];
            b.posloc[i + 1] = a->posloc[i];
        }
        return call_builtin(E, callee.sub, &b, loc, out);
    }
    /* tl.float32(x) is tl.cast(x, tl.float32) */
    if (a->npos != 1 || a->nkw)
        return elab_err(E, loc, MT_ERR_TYPE, "tl.%s() takes one argument",
                        dtype_info[callee.sub].tl_name);
    CV cargs[2] = {a->pos[0], callee};
    Loc pl[2] = {a->posloc[0], loc};
    Args b;
    memset(&b, 0, sizeof b);
    b.npos = 2;
    b.pos = cargs;
    b.posloc = pl;
    return call_builtin(E, B_CAST, &b, loc, out);
}

/* --------------------------------------------------------- tl.extra.cuda */

/* tl.extra.cuda.num_threads() and num_warps(): compile-time ints of the
 * kernel's num_warps, as Triton's builtins read its options. */
static int h_cuda_threads(Elab *E, Call *c, CV *out) {
    int w = E->f->num_warps > 0 ? E->f->num_warps : 4;
    *out = cv_int(strcmp(short_name(c->b), "num_threads") ? w : 32 * w);
    return 0;
}

/* ------------------------------------------------------------ loop headers */

/* The bounds of a range(), tl.range() or tl.static_range() header, bound
 * as Triton binds them: positionally or by keyword (arg1, arg2, step).
 * Python's range() takes no keywords; tl.range's scheduling hints
 * (num_stages, loop_unroll_factor, ...) never change results in Triton and
 * are checked for type; num_stages is kept for the loop (pipeload.c). */
int bind_range(Elab *E, int b, Loc loc, const Args *a, RangeArgs *out) {
    Call c;
    if (b == B_RANGE) {
        if (a->nkw)
            return elab_err(E, a->kwloc[0], MT_ERR_TYPE, "range() takes no keyword arguments");
        if (a->npos < 1 || a->npos > 3)
            return elab_err(E, loc, MT_ERR_TYPE, "range expected 1 to 3 arguments, got %d",
                            a->npos);
        for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
            c.have[i] = i < a->npos;
            c.a[i] = c.have[i] ? a->pos[i] : cv_none();
            c.locs[i] = c.have[i] ? a->posloc[i] : loc;
        }
    } else if (bind_builtin(E, b, loc, a, &c) < 0) {
        return -1;
    }
    for (int i = 3; b == B_TL_RANGE && i < MAX_BUILTIN_PARAMS; i++) {
        bool is_flag = i >= 5; /* disallow_acc_multi_buffer and after */
        if (!c.have[i] || c.a[i].kind == CV_NONE)
            continue;
        if (is_flag ? !cv_is_intlike(c.a[i]) : c.a[i].kind != CV_INT)
            return elab_err(E, c.locs[i], MT_ERR_TYPE, "tl.range %s must be a compile-time %s",
                            builtins[b].params[i].name, is_flag ? "bool" : "integer");
    }
    bool two = c.have[1] && c.a[1].kind != CV_NONE;
    out->start = two ? c.a[0] : cv_int(0);
    out->start_loc = two ? c.locs[0] : loc;
    out->stop = two ? c.a[1] : c.a[0];
    out->stop_loc = two ? c.locs[1] : c.locs[0];
    out->step = c.have[2] && c.a[2].kind != CV_NONE ? c.a[2] : cv_int(1);
    out->step_loc = c.have[2] ? c.locs[2] : loc;
    out->num_stages = 0;
    if (b == B_TL_RANGE && c.have[3] && c.a[3].kind == CV_INT) {
        if (c.a[3].i < 0 || c.a[3].i > INT32_MAX)
            return elab_err(E, c.locs[3], MT_ERR_TYPE,
                            "tl.range num_stages must be a non-negative integer, got %lld",
                            (long long)c.a[3].i);
        out->num_stages = (int)c.a[3].i;
    }
    return 0;
}

/* -------------------------------------------------------------- attributes */

static int module_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    int b;
    switch (obj.sub) {
    case MOD_TL:
        if ((b = find_builtin(IN_TL, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        if ((b = dtype_by_name(E, name, loc, out)) <= 0)
            return b;
        if (!strcmp(name, "PropagateNan") || !strcmp(name, "extra")) { /* tlmath.c */
            *out = name[0] == 'P' ? cv_module(MOD_PROPAGATE_NAN, "triton.language.PropagateNan")
                                  : cv_module(MOD_EXTRA, "triton.language.extra");
            return 0;
        }
        /* tl.math.exp, tl.random.rand and triton.language.language.exp are tl.* */
        if (!strcmp(name, "math") || !strcmp(name, "language") || !strcmp(name, "random")) {
            *out = obj;
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "tl.%s is not supported", name);
    case MOD_TRITON:
        if (!strcmp(name, "language")) {
            *out = cv_module(MOD_TL, "triton.language");
            return 0;
        }
        if ((b = find_builtin(IN_TRITON, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "triton.%s is not supported", name);
    case MOD_MATH: {
        static const struct {
            const char *n;
            double v;
        } mc[] = {
            {"pi", 3.141592653589793},   {"e", 2.718281828459045},
            {"tau", 6.283185307179586},  {"log2e", 1.4426950408889634},
            {"ln2", 0.6931471805599453},
        };
        if (!strcmp(name, "inf")) {
            *out = cv_float(INFINITY);
            return 0;
        }
        if (!strcmp(name, "nan")) {
            *out = cv_float(NAN);
            return 0;
        }
        for (int i = 0; i < COUNT(mc); i++)
            if (!strcmp(mc[i].n, name)) {
                *out = cv_float(mc[i].v);
                return 0;
            }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "math.%s is not supported", name);
    }
    case MOD_LIBDEVICE: /* tlmath.c */
        if ((b = find_builtin(IN_LIBDEVICE, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "libdevice.%s is not supported", name);
    case MOD_EXTRA:
    case MOD_PROPAGATE_NAN:
        if ((b = tlmath_module_attr(E, obj, name, out)) <= 0)
            return b;
        if (obj.sub == MOD_EXTRA && obj.s && !strcmp(obj.s, "triton.language.extra.cuda") &&
            (b = find_builtin(IN_CUDA, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "%s.%s is not supported", obj.s, name);
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "module '%s' is not supported in kernels",
                        obj.s ? obj.s : "?");
    }
}

/* obj.<row's name> as a method bound to obj (a tensor or a dtype). */
static CV bind_method(Elab *E, int b, CV obj) {
    CV m = cv_builtin(b);
    m.kind = CV_BOUND;
    m.items = arena_alloc(E->c->arena, sizeof(CV));
    m.items[0] = obj;
    return m;
}

/* A dtype's attribute (dtypeval.c) or one of its methods. */
static int dtype_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    int rc = dtype_value_attr(E, obj, name, loc, out);
    if (rc <= 0)
        return rc;
    for (int b = 0; b < NBUILTINS; b++)
        if ((builtins[b].flags & IN_DTYPE) && !strcmp(short_name(&builtins[b]), name)) {
            *out = bind_method(E, b, obj);
            return 0;
        }
    return 1;
}

/* x.dtype, x.shape, or a method bound to x. */
static int tensor_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    Type t = cv_type(E, obj);
    if (!strcmp(name, "dtype")) {
        *out = cv_dtype(t.dtype);
        out->i = t.is_ptr; /* a pointer type: its element_ty is t.dtype */
        return 0;
    }
    if (!strcmp(name, "shape")) {
        CV tup = cv_tuple(E, t.rank);
        for (int i = 0; i < t.rank; i++)
            tup.items[i] = cv_int(t.shape[i]);
        *out = tup;
        return 0;
    }
    if (!strcmp(name, "numel")) { /* a constexpr, as Triton's tensor.numel */
        int64_t n = 1;
        for (int i = 0; i < t.rank; i++)
            n *= t.shape[i];
        *out = cv_int(n);
        return 0;
    }
    if (!strcmp(name, "T")) /* as Triton's code generator: permute(x, (1, 0)) */
        return tl_shape_transpose(E, obj.v, loc, out);
    int b = find_builtin(IN_METHOD, name);
    if (b < 0)
        return 1;
    *out = bind_method(E, b, obj);
    return 0;
}

static int h_dtype_method(Elab *E, Call *c, CV *out) {
    CV self = c->a[0];
    *out = cv_bool(dtype_predicate(short_name(c->b), (DType)self.sub, self.i != 0));
    return 0;
}

int builtin_getattr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    if (!name)
        return elab_err(E, loc, MT_ERR_SYNTAX, "missing attribute name");
    if (obj.kind == CV_MODULE)
        return module_attr(E, obj, name, loc, out);
    if (obj.kind == CV_INT || obj.kind == CV_BOOL || obj.kind == CV_FLOAT) {
        /* a number a kernel assigned is a tensor in Triton (to_tensor in
         * its visit_Assign): `v = 1; v.dtype` is int32 */
        ValId t;
        if (cv_materialise(E, obj, loc, &t) < 0)
            return -1;
        obj = cv_tensor(t);
    }
    if (obj.kind == CV_TENSOR) {
        int rc = tensor_attr(E, obj, name, loc, out);
        if (rc <= 0)
            return rc;
    }
    if (obj.kind == CV_TENSORDESC) {
        int b = find_builtin(IN_DESC, name), rc;
        if (b >= 0) {
            *out = bind_method(E, b, obj);
            return 0;
        }
        if ((rc = tl_desc_attr(E, obj, name, loc, out)) <= 0)
            return rc;
    }
    if (obj.kind == CV_BLOCKPTR && !strcmp(name, "advance")) { /* bp.advance(...) */
        *out = bind_method(E, find_builtin(IN_TL, name), obj);
        return 0;
    }
    if (obj.kind == CV_DTYPE) {
        int rc = dtype_attr(E, obj, name, loc, out);
        if (rc <= 0)
            return rc;
    }
    return elab_err(E, loc, MT_ERR_TYPE, "'%s' object has no attribute '%s'",
                    cv_kind_name(E, obj), name);
}

bool builtin_global(const char *name, CV *out) {
    int b = find_builtin(IN_PY, name);
    if (b < 0)
        return false;
    *out = cv_builtin(b);
    return true;
}

/* ------------------------------------------------------- the public list */

const char *mt_language_name(mt_name_group group, int i, const char **doc) {
    static const int where[] = {
        [MT_NAMES_TL] = IN_TL, [MT_NAMES_METHOD] = IN_METHOD,
        [MT_NAMES_BUILTIN] = IN_PY, [MT_NAMES_TRITON] = IN_TRITON,
        [MT_NAMES_LIBDEVICE] = IN_LIBDEVICE,
    };
    if (doc)
        *doc = "";
    if (i < 0)
        return NULL;
    if (group == MT_NAMES_DTYPE)
        return i + DT_I1 < DT_COUNT ? dtype_info[i + DT_I1].tl_name : NULL;
    if ((int)group < 0 || (int)group >= COUNT(where) || !where[group])
        return NULL;
    for (int b = 0; b < NBUILTINS; b++)
        if ((builtins[b].flags & where[group]) && i-- == 0) {
            if (doc && builtins[b].doc)
                *doc = builtins[b].doc;
            return short_name(&builtins[b]);
        }
    return NULL;
}
