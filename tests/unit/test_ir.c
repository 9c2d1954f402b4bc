/* test_ir.c: the SSA IR printer, the verifier and the optimisation passes,
 * on IR built directly with the builders of ir.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

/* ---------------------------------------------------------------- helpers */

#include "ctx_fixture.h"

static const Loc L1 = {3, 5};

static Type sc(DType d) { return type_scalar(d); }

static Type vec(int n, DType d) {
    int32_t s[1] = {n};
    return type_block(type_scalar(d), 1, s);
}

static Type blk2(int m, int n, DType d) {
    int32_t s[2] = {m, n};
    return type_block(type_scalar(d), 2, s);
}

static Type vecp(int n, DType d) {
    int32_t s[1] = {n};
    return type_block(type_ptr(d), 1, s);
}

/* Appends an op typed by ir_infer_type (rtype is the requested type for
 * cast/broadcast/zeros/full/empty) and returns its result. */
static ValId emit(Func *f, Region *r, OpCode code, Type rtype, ValId a,
                  ValId b, ValId c, int64_t attr0, int64_t attr1) {
    ValId args[3] = {a, b, c};
    int n = op_info[code].nargs;
    int64_t attr[2] = {attr0, attr1};
    Type t = rtype;
    assert_int_equal(ir_infer_type(f, code, L1, args, n, attr, &t), 0);
    Op *op = op_new(f, r, code, L1, t, args, n);
    op->attr[0] = attr0;
    op->attr[1] = attr1;
    return op->nres ? op->res[0] : 0;
}

static ValId e2(Func *f, Region *r, OpCode code, ValId a, ValId b) {
    return emit(f, r, code, sc(DT_VOID), a, b, 0, 0, 0);
}

static ValId e1(Func *f, Region *r, OpCode code, ValId a) {
    return emit(f, r, code, sc(DT_VOID), a, 0, 0, 0, 0);
}

/* An op with an explicit (possibly wrong) result type, no checking. */
static Op *raw(Func *f, Region *r, OpCode code, Type t, ValId a, ValId b,
               ValId c) {
    ValId args[3] = {a, b, c};
    return op_new(f, r, code, L1, t, args, op_info[code].nargs);
}

static Op *store(Func *f, Region *r, ValId p, ValId v, ValId m) {
    ValId args[3] = {p, v, m};
    return op_new(f, r, OP_STORE, L1, sc(DT_VOID), args, 3);
}

static void expect_ir(Func *f, const char *want) {
    StrBuf sb;
    sb_init(&sb);
    ir_print(&sb, f);
    assert_string_equal(sb_str(&sb), want);
    sb_free(&sb);
}

static int count_code(const Region *r, OpCode code) {
    int n = 0;
    for (int i = 0; i < r->nops; i++) {
        n += r->ops[i]->code == code;
        if (r->ops[i]->body)
            n += count_code(r->ops[i]->body, code);
    }
    return n;
}

/* Verifier must fail with exactly this message (after "error: "). */
static void expect_verify(Ctx *c, Func *f, const char *msg) {
    c->status = MT_OK;
    sb_clear(&c->err);
    assert_int_equal(ir_verify(f), -1);
    assert_int_equal(c->status, MT_ERR_VERIFY);
    char want[512];
    snprintf(want, sizeof want, "k.py:3:5: error: ssa-verifier: %s\n", msg);
    assert_string_equal(sb_str(&c->err), want);
}

static void expect_ok(Ctx *c, Func *f) {
    int rc = ir_verify(f);
    if (rc != 0)
        fail_msg("verifier: %s", sb_str(&c->err));
}

static Func *new_func(Ctx *c) {
    c->status = MT_OK;
    sb_clear(&c->err);
    return func_new(c, "k");
}

/* ---------------------------------------------------------------- printer */

static Func *build_add_kernel(Ctx *c) {
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId x = func_add_param(f, "x_ptr", type_ptr(DT_F32));
    ValId y = func_add_param(f, "y_ptr", type_ptr(DT_F32));
    ValId out = func_add_param(f, "output_ptr", type_ptr(DT_F32));
    ValId n = func_add_param(f, "n_elements", sc(DT_I32));
    ValId pid = emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 0, 0);
    ValId start = e2(f, r, OP_MUL, pid, const_int(f, DT_I32, 8));
    ValId ar = emit(f, r, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    ValId offs = e2(f, r, OP_ADD, start, ar);
    ValId px = e2(f, r, OP_ADDPTR, x, offs);
    assert_true(type_eq(val_type(f, px), vecp(8, DT_F32)));
    ValId mask = e2(f, r, OP_CMP_LT, offs, n);
    ValId vx = emit(f, r, OP_LOAD, sc(DT_VOID), px, mask, 0, 0, 0);
    ValId py = e2(f, r, OP_ADDPTR, y, offs);
    ValId vy = emit(f, r, OP_LOAD, sc(DT_VOID), py, mask, 0, 0, 0);
    ValId sum = e2(f, r, OP_ADD, vx, vy);
    ValId po = e2(f, r, OP_ADDPTR, out, offs);
    store(f, r, po, sum, mask);
    return f;
}

static void test_print_add_kernel(void **state) {
    Ctx *c = *state;
    Func *f = build_add_kernel(c);
    expect_ok(c, f);
    expect_ir(f, "%0 = program_id {axis=0} : i32\n"
                 "%1 = mul %0, 8 : i32\n"
                 "%2 = arange {start=0, end=8} : vector<8 x i32>\n"
                 "%3 = add %1, %2 : vector<8 x i32>\n"
                 "%4 = addptr x_ptr, %3 : vector<8 x ptr<f32>>\n"
                 "%5 = cmp_lt %3, n_elements : vector<8 x bool>\n"
                 "%6 = load %4, %5, none : vector<8 x f32>\n"
                 "%7 = addptr y_ptr, %3 : vector<8 x ptr<f32>>\n"
                 "%8 = load %7, %5, none : vector<8 x f32>\n"
                 "%9 = add %6, %8 : vector<8 x f32>\n"
                 "%10 = addptr output_ptr, %3 : vector<8 x ptr<f32>>\n"
                 "store %10, %9, %5");
    /* the passes leave this kernel alone */
    assert_int_equal(run_passes(f), 0);
    assert_int_equal(f->body.nops, 12);
}

static void test_print_empty(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    expect_ir(f, "");
    expect_ok(c, f);
}

static void test_print_loop_two_carries(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId x = func_add_param(f, "x", type_ptr(DT_F32));
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId n = func_add_param(f, "n", sc(DT_I32));
    ValId inits[2] = {const_f32(f, 0.0), const_int(f, DT_I32, 0)};
    Op *loop = op_new_for(f, &f->body, L1, const_int(f, DT_I32, 0), n,
                          const_int(f, DT_I32, 1), inits, 2);
    Region *b = loop->body;
    ValId p = e2(f, b, OP_ADDPTR, x, loop->index);
    ValId v = emit(f, b, OP_LOAD, sc(DT_VOID), p, 0, 0, 0, 0);
    loop->yields[0] = e2(f, b, OP_ADD, loop->iters[0], v);
    loop->yields[1] = e2(f, b, OP_ADD, loop->iters[1], const_int(f, DT_I32, 1));
    store(f, &f->body, out, loop->res[0], 0);
    expect_ok(c, f);
    expect_ir(f, "%7, %8 = for %0 in range(0, n, 1) iter_args(%1 = 0.0, %2 = 0)"
                 " : f32, i32 {\n"
                 "  %3 = addptr x, %0 : ptr<f32>\n"
                 "  %4 = load %3, none, none : f32\n"
                 "  %5 = add %1, %4 : f32\n"
                 "  %6 = add %2, 1 : i32\n"
                 "  yield %5, %6\n"
                 "}\n"
                 "store out, %7, none");
}

static void test_print_nested_loop_no_carry(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId out = func_add_param(f, "out", type_ptr(DT_I32));
    ValId zero = const_int(f, DT_I32, 0), one = const_int(f, DT_I32, 1);
    Op *outer = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4), one,
                           NULL, 0);
    Op *inner = op_new_for(f, outer->body, L1, zero, outer->index, one, NULL, 0);
    ValId s = e2(f, inner->body, OP_ADD, outer->index, inner->index);
    ValId p = e2(f, inner->body, OP_ADDPTR, out, s);
    store(f, inner->body, p, s, 0);
    expect_ok(c, f);
    expect_ir(f, "for %0 in range(0, 4, 1) {\n"
                 "  for %1 in range(0, %0, 1) {\n"
                 "    %2 = add %0, %1 : i32\n"
                 "    %3 = addptr out, %2 : ptr<i32>\n"
                 "    store %3, %2, none\n"
                 "    yield\n"
                 "  }\n"
                 "  yield\n"
                 "}");
}

static void test_print_attrs_and_constants(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId a = func_add_param(f, "a", type_ptr(DT_F32));
    emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 1, 0);
    emit(f, r, OP_NUM_PROGRAMS, sc(DT_VOID), 0, 0, 0, 2, 0);
    emit(f, r, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 4, 12);
    emit(f, r, OP_ZEROS, vec(8, DT_F32), 0, 0, 0, 0, 0);
    ValId z2 = emit(f, r, OP_ZEROS, blk2(4, 8, DT_F32), 0, 0, 0, 0, 0);
    emit(f, r, OP_FULL, vec(8, DT_F32), const_f32(f, 2.5), 0, 0, 0, 0);
    emit(f, r, OP_EMPTY, vec(2, DT_I1), 0, 0, 0, 0, 0);
    emit(f, r, OP_SUM, sc(DT_VOID), z2, 0, 0, 1, 0);
    emit(f, r, OP_EXPAND_DIMS, sc(DT_VOID), z2, 0, 0, 2, 0);
    ValId bz = emit(f, r, OP_ZEROS, blk2(8, 4, DT_F32), 0, 0, 0, 0, 0);
    emit(f, r, OP_DOT, sc(DT_VOID), bz, z2, 0, 1, 0);
    emit(f, r, OP_CAST, blk2(4, 8, DT_I32), z2, 0, 0, 0, 0);
    ValId sel = emit(f, r, OP_SELECT, sc(DT_VOID), const_bool(f, true),
                     const_f32(f, -INFINITY), const_f32(f, 1e-5), 0, 0);
    (void)sel;
    ValId big = e2(f, r, OP_ADD, const_int(f, DT_I64, 5000000000LL),
                   const_int(f, DT_I32, -3));
    e2(f, r, OP_CMP_EQ, const_bool(f, false), const_bool(f, true));
    store(f, r, a, big, 0);
    expect_ok(c, f);
    expect_ir(f, "%0 = program_id {axis=1} : i32\n"
                 "%1 = num_programs {axis=2} : i32\n"
                 "%2 = arange {start=4, end=12} : vector<8 x i32>\n"
                 "%3 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                 "%4 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                 "%5 = full 2.5 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                 "%6 = empty {shape=(2,), dtype=bool} : vector<2 x bool>\n"
                 "%7 = sum %4 {axis=1} : vector<4 x f32>\n"
                 "%8 = expand_dims %4 {axis=2} : block<4x8x1 x f32>\n"
                 "%9 = zeros {shape=(8, 4), dtype=f32} : block<8x4 x f32>\n"
                 "%10 = dot %9, %4, none {input_precision=tf32} : block<8x8 x f32>\n"
                 "%11 = cast %4 : block<4x8 x i32>\n"
                 "%12 = select True, -inf, 1e-05 : f32\n"
                 "%13 = add 5000000000, -3 : i64\n"
                 "%14 = cmp_eq False, True : bool\n"
                 "store a, %13, none");
}

/* --------------------------------------------------------------- verifier */

static void test_verify_use_before_def(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId x = func_add_param(f, "x", sc(DT_F32));
    Op *later = raw(f, NULL, OP_NEG, sc(DT_F32), x, 0, 0);
    raw(f, &f->body, OP_EXP, sc(DT_F32), later->res[0], 0, 0);
    region_push(f, &f->body, later);
    char msg[128];
    snprintf(msg, sizeof msg, "op #0 'exp': %%%d used before definition",
             (int)later->res[0]);
    expect_verify(c, f, msg);
}

static void test_verify_duplicate_definition(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId x = func_add_param(f, "x", sc(DT_F32));
    Op *op = raw(f, &f->body, OP_NEG, sc(DT_F32), x, 0, 0);
    region_push(f, &f->body, op);
    char msg[128];
    snprintf(msg, sizeof msg, "op #1 'neg': duplicate definition of %%%d",
             (int)op->res[0]);
    expect_verify(c, f, msg);
}

static void test_verify_op_rules(void **state) {
    Ctx *c = *state;
    Func *f;
    ValId i, p;

    f = new_func(c);
    i = func_add_param(f, "i", sc(DT_I32));
    raw(f, &f->body, OP_ADD, sc(DT_F32), i, i, 0);
    expect_verify(c, f, "op #0 'add': expected i32, got f32");

    f = new_func(c);
    i = func_add_param(f, "i", sc(DT_I32));
    raw(f, &f->body, OP_EXP, sc(DT_I32), i, 0, 0);
    expect_verify(c, f, "op #0 'exp': exp requires a float operand, got i32");

    f = new_func(c);
    i = func_add_param(f, "i", sc(DT_I32));
    raw(f, &f->body, OP_SELECT, sc(DT_I32), i, i, i);
    expect_verify(c, f, "op #0 'select': condition must be bool, got i32");

    f = new_func(c);
    ValId v = emit(f, &f->body, OP_ZEROS, vec(8, DT_F32), 0, 0, 0, 0, 0);
    Op *s = raw(f, &f->body, OP_SUM, sc(DT_F32), v, 0, 0);
    s->attr[0] = 1;
    expect_verify(c, f,
                  "op #1 'sum': invalid reduction axis 1 for vector<8 x f32>");

    f = new_func(c);
    v = emit(f, &f->body, OP_ZEROS, vec(8, DT_I1), 0, 0, 0, 0, 0);
    raw(f, &f->body, OP_MAX, sc(DT_I1), v, 0, 0);
    expect_verify(c, f, "op #1 'max': cannot reduce elements of type bool");

    f = new_func(c);
    i = func_add_param(f, "i", sc(DT_I32));
    raw(f, &f->body, OP_ADD, sc(DT_I32), i, i, 0)->nargs = 1;
    expect_verify(c, f, "op #0 'add': expected 2 operands, got 1");

    f = new_func(c);
    i = func_add_param(f, "i", sc(DT_I32));
    raw(f, &f->body, OP_ADD, sc(DT_I32), i, 0, 0);
    expect_verify(c, f, "op #0 'add': operand 2 is missing");

    f = new_func(c);
    p = func_add_param(f, "p", type_ptr(DT_F32));
    raw(f, &f->body, OP_STORE, sc(DT_F32), p, const_f32(f, 1), 0);
    expect_verify(c, f, "op #0 'store': unexpected result");

    f = new_func(c);
    raw(f, &f->body, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0);
    expect_verify(c, f, "op #0 'program_id': missing result");

    f = new_func(c);
    raw(f, &f->body, OP_PROGRAM_ID, sc(DT_I32), 0, 0, 0)->attr[0] = 3;
    expect_verify(c, f, "op #0 'program_id': invalid axis 3");

    f = new_func(c);
    ValId a4 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 4);
    ValId a8 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    raw(f, &f->body, OP_ADD, vec(8, DT_I32), a4, a8, 0);
    expect_verify(c, f, "op #2 'add': cannot broadcast shapes 4 and 8");

    f = new_func(c);
    p = func_add_param(f, "p", type_ptr(DT_F32));
    a8 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    ValId pp = e2(f, &f->body, OP_ADDPTR, p, a8);
    raw(f, &f->body, OP_LOAD, vec(8, DT_F32), pp, a8, 0);
    expect_verify(c, f, "op #2 'load': mask must be bool, got vector<8 x i32>");

    f = new_func(c);
    p = func_add_param(f, "p", type_ptr(DT_F32));
    a8 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    store(f, &f->body, p, a8, 0);
    expect_verify(c, f,
                  "op #1 'store': cannot store a block through a scalar pointer");

    f = new_func(c);
    p = func_add_param(f, "p", type_ptr(DT_F8E5));
    store(f, &f->body, p, const_bool(f, true), 0);
    expect_verify(c, f, "op #0 'store': stored value must be convertible to "
                        "f8e5, got bool");

    f = new_func(c);
    ValId ma = emit(f, &f->body, OP_ZEROS, blk2(4, 16, DT_F32), 0, 0, 0, 0, 0);
    ValId mb = emit(f, &f->body, OP_ZEROS, blk2(32, 8, DT_F32), 0, 0, 0, 0, 0);
    raw(f, &f->body, OP_DOT, blk2(4, 8, DT_F32), ma, mb, 0);
    expect_verify(c, f, "op #2 'dot': dot inner dimensions differ: 16 and 32");

    f = new_func(c);
    /* Triton has no cast between fp8 and integers */
    raw(f, &f->body, OP_FULL, vec(8, DT_F8E4), const_bool(f, true), 0, 0);
    expect_verify(c, f, "op #0 'full': fill value must be convertible to f8e4nv, "
                        "got bool");

    f = new_func(c);
    raw(f, &f->body, OP_ZEROS, sc(DT_F32), 0, 0, 0);
    expect_verify(c, f, "op #0 'zeros': invalid block shape ()");

    f = new_func(c);
    a8 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    raw(f, &f->body, OP_CAST, vec(4, DT_F32), a8, 0, 0);
    expect_verify(c, f, "op #1 'cast': cannot cast vector<8 x i32> to "
                        "vector<4 x f32>");

    f = new_func(c);
    a8 = emit(f, &f->body, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    raw(f, &f->body, OP_BROADCAST, blk2(4, 8, DT_I32), a8, 0, 0);
    raw(f, &f->body, OP_BROADCAST, blk2(8, 4, DT_I32), a8, 0, 0);
    expect_verify(c, f, "op #2 'broadcast': cannot broadcast shape 8 to 8x4");
}

/* The elaborator's view: located, user-facing type errors. */
static void test_infer_type_messages(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId b = func_add_param(f, "b", sc(DT_I1));
    ValId x = func_add_param(f, "x", sc(DT_F32));
    ValId args[2] = {b, x};
    Type t = sc(DT_VOID);
    assert_int_equal(ir_infer_type(f, OP_ADD, L1, args, 2, NULL, &t), -1);
    assert_int_equal(c->status, MT_ERR_TYPE);
    assert_string_equal(sb_str(&c->err),
                        "k.py:3:5: error: cannot combine bool and f32\n");

    f = new_func(c);
    ValId i = func_add_param(f, "i", sc(DT_I32));
    ValId i64 = func_add_param(f, "j", sc(DT_I64));
    ValId xs[2] = {i, const_f32(f, 2)};
    assert_int_equal(ir_infer_type(f, OP_MUL, L1, xs, 2, NULL, &t), 0);
    assert_true(type_eq(t, sc(DT_F32)));
    ValId ij[2] = {i, i64};
    assert_int_equal(ir_infer_type(f, OP_SHL, L1, ij, 2, NULL, &t), 0);
    assert_true(type_eq(t, sc(DT_I64)));
    int64_t ar[2] = {2, 10};
    assert_int_equal(ir_infer_type(f, OP_ARANGE, L1, NULL, 0, ar, &t), 0);
    assert_true(type_eq(t, vec(8, DT_I32)));
    ValId ex[1] = {i};
    assert_int_equal(ir_infer_type(f, OP_EXP, L1, ex, 1, NULL, &t), -1);
    assert_string_equal(sb_str(&c->err),
                        "k.py:3:5: error: exp requires a float operand, got i32\n");
}

/* Infers the type of code(a, b, c) with attrs; returns 0 or -1, *t the
 * type; on failure *msg the message without location. */
static int infer(Ctx *c, Func *f, OpCode code, ValId a, ValId b, ValId cc,
                 int64_t at0, int64_t at1, Type *t) {
    c->status = MT_OK;
    sb_clear(&c->err);
    ValId args[3] = {a, b, cc};
    int64_t attr[2] = {at0, at1};
    return ir_infer_type(f, code, L1, args, op_info[code].nargs, attr, t);
}

static void expect_type(Ctx *c, Func *f, OpCode code, ValId a, ValId b,
                        ValId cc, int64_t at0, Type req, Type want) {
    Type t = req;
    if (infer(c, f, code, a, b, cc, at0, 0, &t) != 0)
        fail_msg("'%s' rejected: %s", op_info[code].name, sb_str(&c->err));
    if (!type_eq(t, want))
        fail_msg("'%s' typed wrongly", op_info[code].name);
}

static void expect_type_error(Ctx *c, Func *f, OpCode code, ValId a, ValId b,
                              ValId cc, int64_t at0, Type req,
                              const char *msg) {
    Type t = req;
    assert_int_equal(infer(c, f, code, a, b, cc, at0, 0, &t), -1);
    assert_int_equal(c->status, MT_ERR_TYPE);
    char want[256];
    snprintf(want, sizeof want, "k.py:3:5: error: %s\n", msg);
    assert_string_equal(sb_str(&c->err), want);
}

static void test_infer_type_rules(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Type V = sc(DT_VOID);
    ValId bo = func_add_param(f, "b", sc(DT_I1));
    ValId i = func_add_param(f, "i", sc(DT_I32));
    ValId j = func_add_param(f, "j", sc(DT_I64));
    ValId x = func_add_param(f, "x", sc(DT_F32));
    ValId p = func_add_param(f, "p", type_ptr(DT_F32));
    ValId a8 = emit(f, &f->body, OP_ARANGE, V, 0, 0, 0, 0, 8);
    ValId a4 = emit(f, &f->body, OP_ARANGE, V, 0, 0, 0, 0, 4);
    ValId m8 = e2(f, &f->body, OP_CMP_LT, a8, i);
    ValId p8 = e2(f, &f->body, OP_ADDPTR, p, a8);
    ValId z48 = emit(f, &f->body, OP_ZEROS, blk2(4, 8, DT_F32), 0, 0, 0, 0, 0);
    ValId z84 = emit(f, &f->body, OP_ZEROS, blk2(8, 4, DT_F32), 0, 0, 0, 0, 0);
    ValId z44 = emit(f, &f->body, OP_ZEROS, blk2(4, 4, DT_F32), 0, 0, 0, 0, 0);

    expect_type(c, f, OP_AND, bo, bo, 0, 0, V, sc(DT_I1));
    expect_type(c, f, OP_XOR, i, j, 0, 0, V, sc(DT_I64));
    expect_type(c, f, OP_OR, m8, bo, 0, 0, V, vec(8, DT_I1));
    expect_type_error(c, f, OP_AND, i, bo, 0, 0, V,
                      "'and' requires two integer or two bool operands, got "
                      "i32 and bool");
    expect_type_error(c, f, OP_SHL, bo, bo, 0, 0, V,
                      "'shl' requires integer operands, got bool and bool");
    expect_type(c, f, OP_REM, x, i, 0, 0, V, sc(DT_F32));
    expect_type_error(c, f, OP_ADD, p, i, 0, 0, V,
                      "cannot combine ptr<f32> and i32");
    expect_type(c, f, OP_CMP_EQ, bo, m8, 0, 0, V, vec(8, DT_I1));
    expect_type(c, f, OP_CMP_NE, p, p8, 0, 0, V, vec(8, DT_I1));
    expect_type(c, f, OP_CMP_GE, j, x, 0, 0, V, sc(DT_I1));
    expect_type_error(c, f, OP_CMP_LT, bo, bo, 0, 0, V,
                      "cannot compare bool and bool");
    expect_type(c, f, OP_NOT, bo, 0, 0, 0, V, sc(DT_I1));
    expect_type(c, f, OP_NOT, a8, 0, 0, 0, V, vec(8, DT_I32));
    expect_type_error(c, f, OP_NOT, x, 0, 0, 0, V,
                      "'not' requires an integer or bool operand, got f32");
    expect_type_error(c, f, OP_NEG, m8, 0, 0, 0, V,
                      "cannot negate vector<8 x bool>");
    expect_type(c, f, OP_ABS, j, 0, 0, 0, V, sc(DT_I64));
    expect_type(c, f, OP_SQRT, z48, 0, 0, 0, V, blk2(4, 8, DT_F32));
    expect_type(c, f, OP_SELECT, m8, p, p8, 0, V, vecp(8, DT_F32));
    expect_type(c, f, OP_SELECT, bo, i, x, 0, V, sc(DT_F32));
    expect_type_error(c, f, OP_SELECT, bo, bo, x, 0, V,
                      "cannot combine bool and f32");
    expect_type_error(c, f, OP_SELECT, m8, i, a4, 0, V,
                      "cannot broadcast shapes 8 and 4");
    expect_type(c, f, OP_ADDPTR, p8, j, 0, 0, V, vecp(8, DT_F32));
    expect_type_error(c, f, OP_ADDPTR, p, x, 0, 0, V,
                      "pointer offset must be an integer, got f32");
    expect_type_error(c, f, OP_ADDPTR, i, i, 0, 0, V,
                      "addptr base must be a pointer, got i32");
    expect_type(c, f, OP_LOAD, p8, m8, const_int(f, DT_I32, 0), 0, V,
                vec(8, DT_F32));
    expect_type(c, f, OP_LOAD, p, m8, 0, 0, V, vec(8, DT_F32));
    expect_type(c, f, OP_LOAD, p8, m8, bo, 0, V, vec(8, DT_F32));
    expect_type_error(c, f, OP_LOAD, p8, m8, p, 0, V,
                      "fallback must be convertible to f32, got ptr<f32>");
    expect_type_error(c, f, OP_LOAD, i, 0, 0, 0, V,
                      "load expects a pointer, got i32");
    expect_type(c, f, OP_STORE, p8, x, m8, 0, V, V);
    expect_type(c, f, OP_STORE, p8, a8, bo, 0, V, V);
    expect_type_error(c, f, OP_STORE, p8, a4, 0, 0, V,
                      "cannot broadcast shapes 8 and 4");
    /* a scalar through a scalar pointer under a block mask: one lane */
    expect_type(c, f, OP_STORE, p, x, m8, 0, V, V);
    expect_type_error(c, f, OP_STORE, p8, x, e2(f, &f->body, OP_CMP_LT, a4, i),
                      0, V, "cannot broadcast shapes 8 and 4");
    expect_type_error(c, f, OP_STORE, p8, x, a8, 0, V,
                      "mask must be bool, got vector<8 x i32>");
    expect_type(c, f, OP_SUM, z48, 0, 0, 0, V, vec(8, DT_F32));
    expect_type(c, f, OP_MIN, z48, 0, 0, 1, V, vec(4, DT_F32));
    expect_type(c, f, OP_MAX, a8, 0, 0, 0, V, sc(DT_I32));
    expect_type_error(c, f, OP_SUM, x, 0, 0, 0, V, "sum expects a block, got f32");
    expect_type(c, f, OP_EXPAND_DIMS, x, 0, 0, 0, V, vec(1, DT_F32));
    expect_type(c, f, OP_EXPAND_DIMS, p8, 0, 0, 0, V,
                type_block(type_ptr(DT_F32), 2, (int32_t[]){1, 8}));
    expect_type_error(c, f, OP_EXPAND_DIMS, a8, 0, 0, 2, V,
                      "invalid axis 2 for vector<8 x i32>");
    expect_type(c, f, OP_DOT, z48, z84, z44, 0, V, blk2(4, 4, DT_F32));
    expect_type_error(c, f, OP_DOT, z48, z84, z48, 0, V,
                      "dot accumulator expected block<4x4 x f32>, got "
                      "block<4x8 x f32>");
    expect_type_error(c, f, OP_DOT, z48, z84, 0, 3, V,
                      "invalid input precision 3");
    expect_type(c, f, OP_BROADCAST, a8, 0, 0, 0, blk2(4, 8, DT_I32),
                blk2(4, 8, DT_I32));
    expect_type_error(c, f, OP_BROADCAST, a8, 0, 0, 0, blk2(4, 8, DT_F32),
                      "broadcast cannot change the element type: "
                      "vector<8 x i32> to block<4x8 x f32>");
    expect_type(c, f, OP_CAST, m8, 0, 0, 0, vec(8, DT_F32), vec(8, DT_F32));
    expect_type_error(c, f, OP_CAST, p, 0, 0, 0, sc(DT_I64),
                      "cannot cast ptr<f32> to i64");
    expect_type(c, f, OP_FULL, i, 0, 0, 0, vec(8, DT_F32), vec(8, DT_F32));
    expect_type_error(c, f, OP_FULL, a8, 0, 0, 0, vec(8, DT_I32),
                      "fill value must be scalar, got vector<8 x i32>");
    expect_type_error(c, f, OP_ZEROS, 0, 0, 0, 0, blk2(0, 8, DT_F32),
                      "invalid block shape (0, 8)");
    expect_type_error(c, f, OP_EMPTY, 0, 0, 0, 0, vecp(8, DT_F32),
                      "invalid block dtype ptr<f32>");
    Type t = V;
    assert_int_equal(infer(c, f, OP_ARANGE, 0, 0, 0, 4, 4, &t), -1);
    assert_string_equal(sb_str(&c->err),
                        "k.py:3:5: error: invalid range [4, 4)\n");
}

static Op *simple_loop(Func *f, ValId start, ValId stop, ValId step) {
    ValId init[1] = {const_f32(f, 0.0)};
    Op *loop = op_new_for(f, &f->body, L1, start, stop, step, init, 1);
    loop->yields[0] = e2(f, loop->body, OP_ADD, loop->iters[0],
                         const_f32(f, 1.0));
    return loop;
}

static void test_verify_loop_rules(void **state) {
    Ctx *c = *state;
    Func *f;
    ValId zero, n;

    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    n = func_add_param(f, "n", sc(DT_I32));
    simple_loop(f, zero, n, const_int(f, DT_I32, 1));
    expect_ok(c, f);

    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    simple_loop(f, zero, zero, zero);
    expect_verify(c, f, "op #0 'for': loop step must be positive");

    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    simple_loop(f, zero, zero, const_int(f, DT_I32, -1));
    expect_verify(c, f, "op #0 'for': loop step must be positive");

    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    n = func_add_param(f, "n", sc(DT_I32));
    simple_loop(f, zero, n, const_int(f, DT_I64, 1));
    expect_verify(c, f, "op #0 'for': loop step must be scalar i32, got i64");

    f = new_func(c);
    n = func_add_param(f, "n", sc(DT_I32));
    simple_loop(f, const_f32(f, 0), n, const_int(f, DT_I32, 1));
    expect_verify(c, f, "op #0 'for': loop index must be i32 or i64, got f32");

    /* if on a non-bool, while whose condition is not bool */
    f = new_func(c);
    n = func_add_param(f, "n", sc(DT_I32));
    op_new_if(f, &f->body, L1, n, NULL, 0);
    expect_verify(c, f, "op #0 'if': if condition must be scalar bool, got i32");

    f = new_func(c);
    n = func_add_param(f, "n", sc(DT_I32));
    Op *w = op_new_while(f, &f->body, L1, &n, 1);
    w->alt_yields[0] = w->iters[0];
    w->yields[0] = w->iters[0];
    expect_verify(c, f, "op #0 'while': while condition must be scalar bool, got i32");

    /* carried type change: the yield is a block */
    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    ValId init[1] = {const_f32(f, 0.0)};
    Op *loop = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4),
                          const_int(f, DT_I32, 1), init, 1);
    ValId z = emit(f, loop->body, OP_ZEROS, vec(8, DT_F32), 0, 0, 0, 0, 0);
    loop->yields[0] = e2(f, loop->body, OP_ADD, loop->iters[0], z);
    expect_verify(c, f, "op #0 'for': yield expected f32, got vector<8 x f32>");

    /* a yield defined only after the loop */
    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    init[0] = const_f32(f, 0.0);
    loop = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4),
                      const_int(f, DT_I32, 1), init, 1);
    ValId after = e1(f, &f->body, OP_NEG, init[0]);
    loop->yields[0] = after;
    char msg[128];
    snprintf(msg, sizeof msg, "op #0 'for': yield %%%d used before definition",
             (int)after);
    expect_verify(c, f, msg);

    /* a body value used after the loop */
    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    init[0] = const_f32(f, 0.0);
    loop = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4),
                      const_int(f, DT_I32, 1), init, 1);
    ValId inner = e1(f, loop->body, OP_NEG, loop->iters[0]);
    loop->yields[0] = inner;
    e1(f, &f->body, OP_EXP, inner);
    snprintf(msg, sizeof msg, "op #1 'exp': %%%d used before definition",
             (int)inner);
    expect_verify(c, f, msg);

    /* the loop index is invisible after the loop too */
    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    loop = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4),
                      const_int(f, DT_I32, 1), NULL, 0);
    e1(f, &f->body, OP_NEG, loop->index);
    snprintf(msg, sizeof msg, "op #1 'neg': %%%d used before definition",
             (int)loop->index);
    expect_verify(c, f, msg);

    /* errors inside a body are numbered in the body */
    f = new_func(c);
    zero = const_int(f, DT_I32, 0);
    loop = op_new_for(f, &f->body, L1, zero, const_int(f, DT_I32, 4),
                      const_int(f, DT_I32, 1), NULL, 0);
    e1(f, loop->body, OP_NEG, loop->index);
    raw(f, loop->body, OP_EXP, sc(DT_I32), loop->index, 0, 0);
    expect_verify(c, f, "op #1 'exp': exp requires a float operand, got i32");

    /* loop result with the wrong type */
    f = new_func(c);
    loop = simple_loop(f, const_int(f, DT_I32, 0), const_int(f, DT_I32, 2),
                       const_int(f, DT_I32, 1));
    f->vals[loop->res[0]].type = sc(DT_I32);
    expect_verify(c, f, "op #0 'for': result expected f32, got i32");

    /* carried input defined only later */
    f = new_func(c);
    Op *late = raw(f, NULL, OP_PROGRAM_ID, sc(DT_I32), 0, 0, 0);
    init[0] = late->res[0];
    loop = op_new_for(f, &f->body, L1, const_int(f, DT_I32, 0),
                      const_int(f, DT_I32, 2), const_int(f, DT_I32, 1), init, 1);
    loop->yields[0] = loop->iters[0];
    region_push(f, &f->body, late);
    snprintf(msg, sizeof msg,
             "op #0 'for': carried input %%%d used before definition",
             (int)late->res[0]);
    expect_verify(c, f, msg);
}

/* ------------------------------------------------------------------- fold */

/* Builds `r = code a, b; store out, r` in a fresh function, folds, and
 * returns what the store now stores. */
static ValId fold2(Ctx *c, Func **pf, OpCode code, ValId (*mk)(Func *, int),
                   int ka, int kb) {
    Func *f = new_func(c);
    ValId a = mk(f, ka), b = mk(f, kb);
    ValId r = e2(f, &f->body, code, a, b);
    ValId out = func_add_param(f, "out", type_ptr((DType)val_type(f, r).dtype));
    Op *st = store(f, &f->body, out, r, 0);
    expect_ok(c, f);
    assert_int_equal(pass_fold(f), 0);
    expect_ok(c, f);
    *pf = f;
    return st->args[1];
}

static const float fvals[] = {0.1f, 0.2f, 0.0f, -0.0f, NAN, 1.0f, 3.0f, 16777216.0f};
static ValId mkf(Func *f, int k) { return const_f32(f, fvals[k]); }
static const int64_t ivals[] = {INT32_MAX, 1, 7, 0, -7, 2, INT32_MIN, -1, 65536, 31, 32};
static ValId mki(Func *f, int k) { return const_int(f, DT_I32, ivals[k]); }

static float folded_f(Func *f, ValId v) {
    assert_true(val_is_const(f, v));
    assert_int_equal(val_type(f, v).dtype, DT_F32);
    return (float)f->vals[v].c.f;
}

static int64_t folded_i(Func *f, ValId v) {
    assert_true(val_is_const(f, v));
    return f->vals[v].c.i;
}

static void test_fold_float_exact(void **state) {
    Ctx *c = *state;
    Func *f;
    volatile float a = 0.1f, b = 0.2f;
    float want = a + b;
    ValId v = fold2(c, &f, OP_ADD, mkf, 0, 1);
    assert_true(folded_f(f, v) == want);
    assert_true(f->vals[v].c.f == (double)want);
    assert_true(f->vals[v].c.f != 0.1 + 0.2);
    assert_int_equal(f->body.nops, 1); /* only the store is left */
    expect_ir(f, "store out, 0.3, none");

    v = fold2(c, &f, OP_DIV, mkf, 5, 6); /* 1 / 3 in float */
    volatile float one = 1.0f, three = 3.0f;
    assert_true(folded_f(f, v) == one / three);

    v = fold2(c, &f, OP_DIV, mkf, 5, 2); /* division by zero: unfolded */
    assert_false(val_is_const(f, v));

    /* exp in float: expf, rounded to f32 */
    f = new_func(c);
    ValId e = e1(f, &f->body, OP_EXP, const_f32(f, 0.1));
    Op *st = store(f, &f->body, func_add_param(f, "o", type_ptr(DT_F32)), e, 0);
    assert_int_equal(pass_fold(f), 0);
    assert_true(folded_f(f, st->args[1]) == expf(0.1f));
}

static void test_fold_int_wrap_and_traps(void **state) {
    Ctx *c = *state;
    Func *f;
    ValId v = fold2(c, &f, OP_ADD, mki, 0, 1); /* INT32_MAX + 1 */
    assert_int_equal(folded_i(f, v), INT32_MIN);
    v = fold2(c, &f, OP_MUL, mki, 8, 8); /* 65536 * 65536 */
    assert_int_equal(folded_i(f, v), 0);
    /* what C leaves undefined folds to Triton's GPU values (issue 15) */
    v = fold2(c, &f, OP_DIV, mki, 2, 3); /* 7 / 0 */
    assert_int_equal(folded_i(f, v), -1);
    assert_int_equal(f->body.nops, 1);
    v = fold2(c, &f, OP_REM, mki, 2, 3); /* 7 % 0 */
    assert_int_equal(folded_i(f, v), -1);
    v = fold2(c, &f, OP_DIV, mki, 6, 7); /* INT_MIN / -1 wraps */
    assert_int_equal(folded_i(f, v), INT32_MIN);
    v = fold2(c, &f, OP_REM, mki, 6, 7); /* INT_MIN % -1 */
    assert_int_equal(folded_i(f, v), 0);
    v = fold2(c, &f, OP_DIV, mki, 4, 5); /* -7 / 2 truncates */
    assert_int_equal(folded_i(f, v), -3);
    v = fold2(c, &f, OP_REM, mki, 4, 5); /* -7 % 2 */
    assert_int_equal(folded_i(f, v), -1);
    v = fold2(c, &f, OP_SHL, mki, 1, 9); /* 1 << 31 */
    assert_int_equal(folded_i(f, v), INT32_MIN);
    v = fold2(c, &f, OP_SHL, mki, 1, 10); /* 1 << 32 */
    assert_int_equal(folded_i(f, v), 0);
    v = fold2(c, &f, OP_SHR, mki, 4, 10); /* -7 >> 32: the sign fill */
    assert_int_equal(folded_i(f, v), -1);
    v = fold2(c, &f, OP_SHR, mki, 4, 1); /* -7 >> 1 */
    assert_int_equal(folded_i(f, v), -4);
    v = fold2(c, &f, OP_CMP_LT, mki, 4, 3);
    assert_int_equal(folded_i(f, v), 1);
    assert_int_equal(val_type(f, v).dtype, DT_I1);

    /* i64 does not wrap at 32 bits */
    f = new_func(c);
    ValId r = e2(f, &f->body, OP_ADD, const_int(f, DT_I64, INT32_MAX),
                 const_int(f, DT_I32, 1));
    Op *st = store(f, &f->body, func_add_param(f, "o", type_ptr(DT_I64)), r, 0);
    assert_int_equal(pass_fold(f), 0);
    assert_int_equal(folded_i(f, st->args[1]), (int64_t)INT32_MAX + 1);
    assert_int_equal(val_type(f, st->args[1]).dtype, DT_I64);

    /* mixed i32 + f32 folds in float */
    f = new_func(c);
    r = e2(f, &f->body, OP_ADD, const_int(f, DT_I32, 16777217),
           const_f32(f, 0.0));
    st = store(f, &f->body, func_add_param(f, "o", type_ptr(DT_F32)), r, 0);
    assert_int_equal(pass_fold(f), 0);
    assert_true(folded_f(f, st->args[1]) == 16777216.0f);
}

static void test_fold_max_min_nan_zero(void **state) {
    Ctx *c = *state;
    Func *f;
    /* fvals: 2 = 0.0, 3 = -0.0, 4 = nan, 5 = 1.0 */
    /* -0.0 orders below +0.0 in either operand order (Triton's maxnumf and
     * maximumf on the GPU) */
    ValId v = fold2(c, &f, OP_MAXIMUM, mkf, 2, 3);
    assert_true(folded_f(f, v) == 0.0f && !signbit(folded_f(f, v)));
    v = fold2(c, &f, OP_MAXIMUM, mkf, 3, 2);
    assert_true(folded_f(f, v) == 0.0f && !signbit(folded_f(f, v)));
    v = fold2(c, &f, OP_MINIMUM, mkf, 2, 3);
    assert_true(signbit(folded_f(f, v)));
    v = fold2(c, &f, OP_MINIMUM, mkf, 3, 2);
    assert_true(signbit(folded_f(f, v)));
    /* Triton's default ignores a NaN operand; maximum_nan gives NaN */
    v = fold2(c, &f, OP_MAXIMUM, mkf, 4, 5);
    assert_true(folded_f(f, v) == 1.0f);
    v = fold2(c, &f, OP_MAXIMUM, mkf, 5, 4);
    assert_true(folded_f(f, v) == 1.0f);
    v = fold2(c, &f, OP_MINIMUM, mkf, 5, 4);
    assert_true(folded_f(f, v) == 1.0f);
    v = fold2(c, &f, OP_MAXIMUM, mkf, 4, 4);
    assert_true(isnan(folded_f(f, v)));
    v = fold2(c, &f, OP_MAXIMUM_NAN, mkf, 4, 5);
    assert_true(isnan(folded_f(f, v)));
    v = fold2(c, &f, OP_MAXIMUM_NAN, mkf, 5, 4);
    assert_true(isnan(folded_f(f, v)));
    v = fold2(c, &f, OP_MINIMUM_NAN, mkf, 5, 4);
    assert_true(isnan(folded_f(f, v)));
    v = fold2(c, &f, OP_MAXIMUM_NAN, mkf, 2, 3);
    assert_true(folded_f(f, v) == 0.0f && !signbit(folded_f(f, v)));
    v = fold2(c, &f, OP_MINIMUM_NAN, mkf, 2, 3);
    assert_true(folded_f(f, v) == 0.0f && signbit(folded_f(f, v)));
    v = fold2(c, &f, OP_MAXIMUM, mkf, 5, 6);
    assert_true(folded_f(f, v) == 3.0f);
    v = fold2(c, &f, OP_MINIMUM, mkf, 5, 6);
    assert_true(folded_f(f, v) == 1.0f);
}

static void test_fold_identities_keep_types(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId n = func_add_param(f, "n", sc(DT_I32));
    ValId x = func_add_param(f, "x", sc(DT_F32));
    ValId pid = emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 0, 0);
    /* pid * 1.0 is f32: must not become the i32 pid */
    ValId m = e2(f, r, OP_MUL, pid, const_f32(f, 1.0));
    ValId d = e2(f, r, OP_DIV, m, const_int(f, DT_I32, 2));
    store(f, r, out, d, 0);
    /* select(True, n, 2.0) is f32: must not become the i32 n */
    ValId s = emit(f, r, OP_SELECT, sc(DT_VOID), const_bool(f, true), n,
                   const_f32(f, 2.0), 0, 0);
    store(f, r, out, s, 0);
    /* select(True, 3, 2.0) becomes the f32 constant 3.0 */
    ValId s3 = emit(f, r, OP_SELECT, sc(DT_VOID), const_bool(f, true),
                    const_int(f, DT_I32, 3), const_f32(f, 2.0), 0, 0);
    store(f, r, out, s3, 0);
    /* exact identities do apply */
    ValId n0 = e2(f, r, OP_ADD, n, const_int(f, DT_I32, 0));
    ValId n1 = e2(f, r, OP_MUL, n0, const_int(f, DT_I32, 1));
    store(f, r, out, n1, 0);
    ValId x1 = e2(f, r, OP_DIV, x, const_f32(f, 1.0));
    store(f, r, out, x1, 0);
    /* x + 0.0 is not x (x = -0.0) */
    ValId xz = e2(f, r, OP_ADD, x, const_f32(f, 0.0));
    store(f, r, out, xz, 0);
    /* select with identical arms */
    ValId cond = e2(f, r, OP_CMP_LT, n, const_int(f, DT_I32, 4));
    ValId same = emit(f, r, OP_SELECT, sc(DT_VOID), cond, x, x, 0, 0);
    store(f, r, out, same, 0);
    expect_ok(c, f);
    assert_int_equal(run_passes(f), 0);
    expect_ir(f, "%0 = program_id {axis=0} : i32\n"
                 "%1 = mul %0, 1.0 : f32\n"
                 "%2 = div %1, 2 : f32\n"
                 "store out, %2, none\n"
                 "%3 = select True, n, 2.0 : f32\n"
                 "store out, %3, none\n"
                 "store out, 3.0, none\n"
                 "store out, n, none\n"
                 "store out, x, none\n"
                 "%4 = add x, 0.0 : f32\n"
                 "store out, %4, none\n"
                 "store out, x, none");
}

static void test_fold_in_loop_body(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId init[1] = {const_f32(f, 1.0)};
    Op *loop = op_new_for(f, &f->body, L1, const_int(f, DT_I32, 0),
                          const_int(f, DT_I32, 4), const_int(f, DT_I32, 1),
                          init, 1);
    ValId k = e2(f, loop->body, OP_MUL, const_f32(f, 2.0), const_f32(f, 3.0));
    loop->yields[0] = e2(f, loop->body, OP_ADD, loop->iters[0], k);
    store(f, &f->body, out, loop->res[0], 0);
    assert_int_equal(run_passes(f), 0);
    expect_ir(f, "%3 = for %0 in range(0, 4, 1) iter_args(%1 = 1.0) : f32 {\n"
                 "  %2 = add %1, 6.0 : f32\n"
                 "  yield %2\n"
                 "}\n"
                 "store out, %3, none");
}

/* -------------------------------------------------------------------- cse */

static void test_cse_merges_commuted(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId a = func_add_param(f, "a", sc(DT_F32));
    ValId b = func_add_param(f, "b", sc(DT_F32));
    ValId s1 = e2(f, r, OP_ADD, a, b);
    ValId s2 = e2(f, r, OP_ADD, b, a);
    ValId s3 = e2(f, r, OP_ADD, a, b);
    ValId d1 = e2(f, r, OP_SUB, a, b);
    ValId d2 = e2(f, r, OP_SUB, b, a); /* not commutative */
    ValId m = e2(f, r, OP_MUL, s2, s3); /* becomes s1 * s1 */
    ValId z1 = e2(f, r, OP_ADD, a, const_f32(f, 0.0));
    ValId z2 = e2(f, r, OP_ADD, a, const_f32(f, -0.0));
    ValId vals[] = {s1, s2, s3, d1, d2, m, z1, z2};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        store(f, r, out, vals[i], 0);
    assert_int_equal(pass_cse(f), 0);
    expect_ok(c, f);
    expect_ir(f, "%0 = add a, b : f32\n"
                 "%1 = sub a, b : f32\n"
                 "%2 = sub b, a : f32\n"
                 "%3 = mul %0, %0 : f32\n"
                 "%4 = add a, 0.0 : f32\n"
                 "%5 = add a, -0.0 : f32\n"
                 "store out, %0, none\n"
                 "store out, %0, none\n"
                 "store out, %0, none\n"
                 "store out, %1, none\n"
                 "store out, %2, none\n"
                 "store out, %3, none\n"
                 "store out, %4, none\n"
                 "store out, %5, none");
}

static void test_cse_loads_and_stores(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId p = func_add_param(f, "p", type_ptr(DT_F32));
    ValId q = func_add_param(f, "q", type_ptr(DT_F32));
    ValId l1 = emit(f, r, OP_LOAD, sc(DT_VOID), p, 0, 0, 0, 0);
    store(f, r, p, const_f32(f, 2.0), 0);
    ValId l2 = emit(f, r, OP_LOAD, sc(DT_VOID), p, 0, 0, 0, 0);
    ValId l3 = emit(f, r, OP_LOAD, sc(DT_VOID), p, 0, 0, 0, 0);
    ValId e1v = emit(f, r, OP_EMPTY, vec(4, DT_F32), 0, 0, 0, 0, 0);
    ValId e2v = emit(f, r, OP_EMPTY, vec(4, DT_F32), 0, 0, 0, 0, 0);
    (void)e1v;
    (void)e2v;
    store(f, r, q, l1, 0);
    store(f, r, q, l2, 0);
    store(f, r, q, l3, 0);
    assert_int_equal(pass_cse(f), 0);
    expect_ok(c, f);
    assert_int_equal(count_code(&f->body, OP_LOAD), 3);
    assert_int_equal(count_code(&f->body, OP_EMPTY), 2);
}

static void test_cse_loop_scopes(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_I32));
    ValId n = func_add_param(f, "n", sc(DT_I32));
    ValId t = e2(f, r, OP_MUL, n, const_int(f, DT_I32, 2));
    ValId init[1] = {const_int(f, DT_I32, 0)};
    Op *l1 = op_new_for(f, r, L1, const_int(f, DT_I32, 0), n,
                        const_int(f, DT_I32, 1), init, 1);
    ValId u = e2(f, l1->body, OP_MUL, const_int(f, DT_I32, 2), n); /* = t */
    ValId w = e2(f, l1->body, OP_ADD, n, const_int(f, DT_I32, 5));
    l1->yields[0] = e2(f, l1->body, OP_ADD, u, w);
    /* a sibling loop must not see l1's body values */
    Op *l2 = op_new_for(f, r, L1, const_int(f, DT_I32, 0), n,
                        const_int(f, DT_I32, 1), init, 1);
    l2->yields[0] = e2(f, l2->body, OP_ADD, n, const_int(f, DT_I32, 5));
    /* after the loops, neither is visible */
    ValId w3 = e2(f, r, OP_ADD, n, const_int(f, DT_I32, 5));
    store(f, r, out, t, 0);
    store(f, r, out, w3, 0);
    store(f, r, out, l1->res[0], 0);
    store(f, r, out, l2->res[0], 0);
    assert_int_equal(pass_cse(f), 0);
    expect_ok(c, f);
    expect_ir(f, "%0 = mul n, 2 : i32\n"
                 "%5 = for %1 in range(0, n, 1) iter_args(%2 = 0) : i32 {\n"
                 "  %3 = add n, 5 : i32\n"
                 "  %4 = add %0, %3 : i32\n"
                 "  yield %4\n"
                 "}\n"
                 "%9 = for %6 in range(0, n, 1) iter_args(%7 = 0) : i32 {\n"
                 "  %8 = add n, 5 : i32\n"
                 "  yield %8\n"
                 "}\n"
                 "%10 = add n, 5 : i32\n"
                 "store out, %0, none\n"
                 "store out, %10, none\n"
                 "store out, %5, none\n"
                 "store out, %9, none");
}

/* -------------------------------------------------------------------- dce */

static void test_dce(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId x = func_add_param(f, "x", sc(DT_F32));
    e1(f, r, OP_NEG, x);                                   /* unused */
    emit(f, r, OP_LOAD, sc(DT_VOID), out, 0, 0, 0, 0);     /* unused load */
    ValId init[2] = {x, const_f32(f, 0.0)};
    Op *loop = op_new_for(f, r, L1, const_int(f, DT_I32, 0),
                          const_int(f, DT_I32, 4), const_int(f, DT_I32, 1),
                          init, 2);
    Region *b = loop->body;
    e1(f, b, OP_EXP, loop->iters[0]);                      /* unused */
    ValId s = e2(f, b, OP_ADD, loop->iters[0], x);
    store(f, b, out, s, 0);                                /* kept */
    loop->yields[0] = s;
    loop->yields[1] = e2(f, b, OP_ADD, loop->iters[1], s); /* dead carry */
    /* an effect-free loop whose result is unused disappears */
    Op *dead = op_new_for(f, r, L1, const_int(f, DT_I32, 0),
                          const_int(f, DT_I32, 4), const_int(f, DT_I32, 1),
                          init, 1);
    dead->yields[0] = e1(f, dead->body, OP_NEG, dead->iters[0]);
    assert_int_equal(run_passes(f), 0);
    expect_ir(f, "%3 = for %0 in range(0, 4, 1) iter_args(%1 = x) : f32 {\n"
                 "  %2 = add %1, x : f32\n"
                 "  store out, %2, none\n"
                 "  yield %2\n"
                 "}");

    /* no stores: everything goes */
    f = new_func(c);
    ValId v = e2(f, &f->body, OP_ADD, func_add_param(f, "y", sc(DT_F32)),
                 const_f32(f, 1.0));
    e1(f, &f->body, OP_NEG, v);
    assert_int_equal(pass_dce(f), 0);
    assert_int_equal(f->body.nops, 0);
}

/* A carried value that feeds a live carry stays. */
static void test_dce_carry_chain(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId out = func_add_param(f, "out", type_ptr(DT_I32));
    ValId init[2] = {const_int(f, DT_I32, 0), const_int(f, DT_I32, 1)};
    Op *loop = op_new_for(f, &f->body, L1, const_int(f, DT_I32, 0),
                          const_int(f, DT_I32, 4), const_int(f, DT_I32, 1),
                          init, 2);
    /* a' = b, b' = b + 1; only a's result is used, but a needs b */
    loop->yields[0] = loop->iters[1];
    loop->yields[1] = e2(f, loop->body, OP_ADD, loop->iters[1],
                         const_int(f, DT_I32, 1));
    store(f, &f->body, out, loop->res[0], 0);
    assert_int_equal(pass_dce(f), 0);
    expect_ok(c, f);
    assert_int_equal(f->body.ops[0]->nres, 2);
    assert_int_equal(f->body.nops, 2);
}

/* ------------------------------------------------------------- run_passes */

static void test_run_passes_verifies_each_pass(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId i = func_add_param(f, "i", sc(DT_I32));
    /* ill-typed and dead: DCE would delete it, but the verifier after the
     * fold pass already rejects it */
    raw(f, &f->body, OP_ADD, sc(DT_F32), i, i, 0);
    assert_int_equal(run_passes(f), -1);
    assert_int_equal(c->status, MT_ERR_VERIFY);
    assert_non_null(strstr(sb_str(&c->err), "expected i32, got f32"));
}

static void test_run_passes_add_kernel_constant_chain(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId k = e2(f, r, OP_MUL, const_int(f, DT_I32, 4), const_int(f, DT_I32, 8));
    ValId ar = emit(f, r, OP_ARANGE, sc(DT_VOID), 0, 0, 0, 0, 8);
    ValId o1 = e2(f, r, OP_ADD, ar, k);
    ValId o2 = e2(f, r, OP_ADD, ar, const_int(f, DT_I32, 32));
    ValId p1 = e2(f, r, OP_ADDPTR, out, o1);
    ValId p2 = e2(f, r, OP_ADDPTR, out, o2);
    ValId cf = emit(f, r, OP_CAST, vec(8, DT_F32), o2, 0, 0, 0, 0);
    store(f, r, p1, cf, 0);
    store(f, r, p2, cf, 0);
    assert_int_equal(run_passes(f), 0);
    expect_ir(f, "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
                 "%1 = add %0, 32 : vector<8 x i32>\n"
                 "%2 = addptr out, %1 : vector<8 x ptr<f32>>\n"
                 "%3 = cast %1 : vector<8 x f32>\n"
                 "store %2, %3, none\n"
                 "store %2, %3, none");
}

/* -------------------------------------------------------------- op table */

/* The schema says which attributes exist: the printer names them, the
 * verifier rejects the others, and CSE tells ops apart by them. */
static void test_table_attr_schema(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    Region *r = &f->body;
    ValId out = func_add_param(f, "out", type_ptr(DT_I32));
    ValId p0 = emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 0, 0);
    ValId p1 = emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 1, 0);
    ValId p0b = emit(f, r, OP_PROGRAM_ID, sc(DT_VOID), 0, 0, 0, 0, 0);
    ValId s = e2(f, r, OP_ADD, p0, p1);
    s = e2(f, r, OP_ADD, s, p0b);
    store(f, r, out, s, 0);
    expect_ok(c, f);
    assert_int_equal(pass_cse(f), 0);
    expect_ir(f, "%0 = program_id {axis=0} : i32\n"
                 "%1 = program_id {axis=1} : i32\n"
                 "%2 = add %0, %1 : i32\n"
                 "%3 = add %2, %0 : i32\n"
                 "store out, %3, none");
    /* an attribute the schema does not name must be 0 */
    r->ops[2]->attr[0] = 7;
    expect_verify(c, f, "op #2 'add': unexpected attribute 0 = 7");
    r->ops[2]->attr[0] = 0;
    r->ops[0]->attr[1] = 1;
    expect_verify(c, f, "op #0 'program_id': unexpected attribute 1 = 1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_print_add_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print_loop_two_carries, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_print_nested_loop_no_carry, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_print_attrs_and_constants, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify_use_before_def, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify_duplicate_definition, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify_op_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_infer_type_messages, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_infer_type_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify_loop_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_float_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_int_wrap_and_traps, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fold_max_min_nan_zero, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fold_identities_keep_types, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fold_in_loop_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cse_merges_commuted, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cse_loads_and_stores, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cse_loop_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dce, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dce_carry_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_passes_verifies_each_pass,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_passes_add_kernel_constant_chain,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_attr_schema, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
