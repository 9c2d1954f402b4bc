/* test_int_rt.c: integer // % << >> where C leaves the value undefined
 * (issue 15): the runtime's functions (src/mt_kernel_rt.h, the host path
 * the constant folder calls too) and the constant folder (ctext_eval on
 * the ops' templates) against Triton 3.6's results on an H200.
 *
 * The record, tests/unit/data/triton_int_edges.txt, is the measurement as
 * it was taken: a line "DTYPE x//y a,b->r ..." per dtype and operator, for
 * a kernel z = x OP y on blocks.  Lines for a constant zero divisor
 * (garbage under Triton: undefined in LLVM) and for Triton's scalar kernel
 * (whose x % 0 gives x, unlike its blocks) are not the rule we follow;
 * the test checks that a constant zero folds to the runtime zero's value
 * instead, and that the scalar lines differ from the block rule only
 * there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"
#include "mt_kernel_rt.h"

static const struct {
    const char *name;
    DType d;
} dtypes[] = {
    {"int8", DT_I8},   {"int16", DT_I16},   {"int32", DT_I32},   {"int64", DT_I64},
    {"uint8", DT_U8},  {"uint16", DT_U16},  {"uint32", DT_U32},  {"uint64", DT_U64},
};

/* The runtime's C function for op (one of / % < >) at dtype d. */
static int64_t rt_op(char op, DType d, int64_t x, int64_t y) {
#define AT(F)                                                                          \
    switch (d) {                                                                       \
    case DT_I8: return mt_##F##_i8((signed char)x, (signed char)y);                    \
    case DT_I16: return mt_##F##_i16((short)x, (short)y);                              \
    case DT_I32: return mt_##F##_i32((int)x, (int)y);                                  \
    case DT_I64: return mt_##F##_i64(x, y);                                            \
    case DT_U8: return mt_##F##_u8((unsigned char)x, (unsigned char)y);                \
    case DT_U16: return mt_##F##_u16((unsigned short)x, (unsigned short)y);            \
    case DT_U32: return mt_##F##_u32((unsigned)x, (unsigned)y);                        \
    default: return (int64_t)mt_##F##_u64((uint64_t)x, (uint64_t)y);                   \
    }
    switch (op) {
    case '/': AT(div)
    case '%': AT(rem)
    case '<': AT(shl)
    default: AT(shr)
    }
#undef AT
}

static OpCode op_code(char op) {
    return op == '/' ? OP_DIV : op == '%' ? OP_REM : op == '<' ? OP_SHL : OP_SHR;
}

/* The constant folder's value of x OP y, both constants of dtype d. */
static int64_t folded(char op, DType d, int64_t x, int64_t y) {
    CScalar args[2] = {{(uint8_t)d, dtype_wrap_int(d, x), 0.0},
                       {(uint8_t)d, dtype_wrap_int(d, y), 0.0}};
    CScalar out;
    const char *tmpl = op_ctext(op_code(op), type_scalar(d));
    if (ctext_eval(tmpl, args, 2, d, &out) != 0)
        fail_msg("%s: \"%s\" does not fold", dtype_info[d].tl_name, tmpl);
    return out.i;
}

static int64_t parse_int(const char *s, char **end) {
    return *s == '-' ? (int64_t)strtoll(s, end, 10) : (int64_t)strtoull(s, end, 10);
}

static FILE *open_record(void) {
    char path[512];
    const char *slash = strrchr(__FILE__, '/');
    snprintf(path, sizeof path, "%.*sdata/triton_int_edges.txt",
             slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    return fp;
}

/* Every block result of the record, from the runtime and from the folder
 * (both wrapped to the dtype, as the stored value is). */
static void test_block_results(void **state) {
    (void)state;
    FILE *fp = open_record();
    char line[16384];
    int checked = 0, lines = 0;
    while (fgets(line, sizeof line, fp)) {
        char name[16], opd[16];
        int n = 0;
        if (sscanf(line, "%15s %15s %n", name, opd, &n) != 2 || strstr(line, "(constant"))
            continue;
        int k = -1;
        for (int i = 0; i < (int)(sizeof dtypes / sizeof *dtypes); i++)
            if (strcmp(dtypes[i].name, name) == 0)
                k = i;
        if (k < 0)
            continue;
        DType d = dtypes[k].d;
        char op = strcmp(opd, "x//y") == 0 ? '/' : strcmp(opd, "x%y") == 0 ? '%'
                  : strcmp(opd, "x<<y") == 0 ? '<' : '>';
        lines++;
        for (char *p = line + n; *p && *p != '\n';) {
            char *e;
            int64_t x = parse_int(p, &e), y = parse_int(e + 1, &e), want = parse_int(e + 2, &e);
            want = dtype_wrap_int(d, want);
            int64_t got = dtype_wrap_int(d, rt_op(op, d, dtype_wrap_int(d, x), dtype_wrap_int(d, y)));
            if (got != want)
                fail_msg("runtime %s %lld %s %lld = %lld, Triton gives %lld", name, (long long)x,
                         opd, (long long)y, (long long)got, (long long)want);
            got = folded(op, d, x, y);
            if (got != want)
                fail_msg("folder %s %lld %s %lld = %lld, Triton gives %lld", name, (long long)x,
                         opd, (long long)y, (long long)got, (long long)want);
            checked++;
            p = e;
            while (*p == ' ')
                p++;
        }
    }
    fclose(fp);
    assert_int_equal(lines, 32); /* 8 dtypes x 4 operators */
    assert_int_equal(checked, 960); /* every pair of those lines */
}

/* Triton's scalar kernel (int32): // and the shifts follow the block rule,
 * % by zero gives x there (-1 on blocks); we keep the block rule. */
static void test_scalar_differs_only_in_rem(void **state) {
    (void)state;
    FILE *fp = open_record();
    char line[512];
    int checked = 0;
    while (fgets(line, sizeof line, fp)) {
        long long a, b, r[4];
        if (sscanf(line, "scalar_i32 %lld %lld -> [a//b, a%%b, a<<b, a>>b] = [%lld, %lld, %lld, %lld]",
                   &a, &b, &r[0], &r[1], &r[2], &r[3]) != 6)
            continue;
        const char ops[4] = {'/', '%', '<', '>'};
        for (int i = 0; i < 4; i++) {
            int64_t got = rt_op(ops[i], DT_I32, a, b);
            if (ops[i] == '%' && b == 0)
                assert_true(got == -1 && r[i] == a);
            else if (got != r[i])
                fail_msg("scalar %lld op%d %lld = %lld, Triton gives %lld", a, i, b,
                         (long long)got, r[i]);
        }
        checked++;
    }
    fclose(fp);
    assert_int_equal(checked, 7);
}

/* A constant zero divisor folds to what a runtime zero computes, and the
 * folder agrees with the runtime on a sweep of operands of every dtype. */
static void test_folder_matches_runtime(void **state) {
    (void)state;
    static const int64_t vals[] = {0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 63, 64, 65, 127, -128,
                                   255, 32767, -32768, 65535, INT32_MAX, INT32_MIN,
                                   4294967295LL, 4294967296LL, INT64_MAX, INT64_MIN};
    const char ops[4] = {'/', '%', '<', '>'};
    for (size_t k = 0; k < sizeof dtypes / sizeof *dtypes; k++) {
        DType d = dtypes[k].d;
        for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
            for (size_t j = 0; j < sizeof vals / sizeof *vals; j++)
                for (int o = 0; o < 4; o++) {
                    int64_t x = dtype_wrap_int(d, vals[i]), y = dtype_wrap_int(d, vals[j]);
                    assert_int_equal(folded(ops[o], d, x, y),
                                     dtype_wrap_int(d, rt_op(ops[o], d, x, y)));
                }
    }
    assert_int_equal(folded('/', DT_I64, 5, 0), 0xffffffffLL);
    assert_int_equal(folded('%', DT_I64, -5, 0), -1);
    assert_int_equal(folded('/', DT_U8, 5, 0), 255);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_results),
        cmocka_unit_test(test_scalar_differs_only_in_rem),
        cmocka_unit_test(test_folder_matches_runtime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
