/* test_random.c: the Philox core and umulhi of src/mt_kernel_rt.h (issue 9)
 * on its host path, and the philox op through the folder and the verifier.
 *
 * Philox4x32-10 is checked against the known-answer vectors of its authors
 * (Salmon et al., Random123's kat_vectors), which Triton's philox_impl
 * computes too (same rounds, same constants, the key raised after each
 * round); mt_philox against mt_philox4x32 lane by lane; umulhi against
 * 128-bit products; the op folds to what mt_philox returns and refuses a
 * selector that is not a constant. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "mt.h"
#include "mt_kernel_rt.h"

#include "ctx_fixture.h"

static const Loc L1 = {1, 1};

static void test_philox_known_answers(void **state) {
    (void)state;
    static const struct {
        unsigned ctr[4], key[2], out[4];
    } kat[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        unsigned c[4];
        memcpy(c, kat[i].ctr, sizeof c);
        mt_philox4x32(c, kat[i].key[0], kat[i].key[1], 10);
        for (int j = 0; j < 4; j++)
            assert_int_equal(c[j], kat[i].out[j]);
    }
}

/* mt_philox: lane (sel & 3) after (sel >> 2) rounds of counter (ctr, 0). */
static void test_philox_lanes(void **state) {
    (void)state;
    unsigned long long ctr = 0x0123456789abcdefull, key = 0xfedcba9876543210ull;
    for (int rounds = 0; rounds <= 12; rounds++) {
        unsigned c[4] = {(unsigned)ctr, (unsigned)(ctr >> 32), 0, 0};
        mt_philox4x32(c, (unsigned)key, (unsigned)(key >> 32), rounds);
        for (int lane = 0; lane < 4; lane++)
            assert_int_equal(mt_philox(ctr, key, lane + 4 * rounds), c[lane]);
    }
    /* no rounds: the counter itself */
    assert_int_equal(mt_philox(ctr, key, 1), 0x01234567u);
}

static void test_umulhi(void **state) {
    (void)state;
    static const unsigned long long v[] = {0, 1, 2, 3, 0xffffffffull, 0x100000000ull,
                                           0x8000000000000000ull, 0xffffffffffffffffull,
                                           0xd2e7470ee14c6c93ull, 0x123456789abcdefull};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
            __extension__ unsigned __int128 p = (unsigned __int128)v[i] * v[j];
            assert_true(mt_umulhi64(v[i], v[j]) == (unsigned long long)(p >> 64));
            unsigned a = (unsigned)v[i], b = (unsigned)v[j];
            assert_int_equal(mt_umulhi32(a, b), (unsigned)(((unsigned long long)a * b) >> 32));
        }
}

static Func *new_func(Ctx *c) {
    c->status = MT_OK;
    sb_clear(&c->err);
    return func_new(c, "k");
}

/* philox of constants folds to mt_philox's value; a selector that is not
 * a constant, or a counter that is not u64, is refused. */
static void test_philox_op(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    ValId ctr = const_int(f, DT_U64, 77), key = const_int(f, DT_U64, -5);
    ValId args[3] = {ctr, key, const_int(f, DT_I32, 2 + 4 * 10)};
    Op *op = op_new(f, &f->body, OP_PHILOX, L1, type_scalar(DT_U32), args, 3);
    ValId out = func_add_param(f, "out", type_ptr(DT_U32));
    ValId st[3] = {out, op->res[0], 0};
    Op *s = op_new(f, &f->body, OP_STORE, L1, type_scalar(DT_VOID), st, 3);
    assert_int_equal(ir_verify(f), 0);
    assert_int_equal(pass_fold(f), 0);
    assert_true(val_is_const(f, s->args[1]));
    assert_int_equal((unsigned)f->vals[s->args[1]].c.i,
                     mt_philox(77, 0xfffffffffffffffbull, 2 + 4 * 10));

    Type t;
    f = new_func(c);
    ValId n = func_add_param(f, "n", type_scalar(DT_I32));
    ValId bad[3] = {const_int(f, DT_U64, 1), const_int(f, DT_U64, 2), n};
    assert_int_equal(ir_infer_type(f, OP_PHILOX, L1, bad, 3, NULL, &t), -1);
    assert_non_null(strstr(sb_str(&c->err), "philox selector must be a non-negative i32 constant"));
    f = new_func(c);
    ValId narrow[3] = {const_int(f, DT_U32, 1), const_int(f, DT_U64, 2),
                       const_int(f, DT_I32, 0)};
    assert_int_equal(ir_infer_type(f, OP_PHILOX, L1, narrow, 3, NULL, &t), -1);
    assert_non_null(strstr(sb_str(&c->err), "philox requires u64 counter and key, got u32"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_philox_known_answers),
        cmocka_unit_test(test_philox_lanes),
        cmocka_unit_test(test_umulhi),
        cmocka_unit_test_setup_teardown(test_philox_op, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
