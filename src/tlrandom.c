/* tlrandom.c: Triton's random numbers (random.py) on its Philox stream.
 *
 * Input: a Call bound to a row of builtins.c's table (tl.rand, tl.randn,
 * tl.randint, tl.randint4x, their 4x forms, tl.uint_to_uniform_float,
 * tl.pair_uniform_to_normal, tl.philox, tl.philox_impl).  Output: the ops,
 * emitted through elab_emit and the builtins Triton's definitions call,
 * and the builtin's value (a tensor, or a tuple of them).
 *
 * The same seed and offsets give Triton's numbers bit for bit:
 *   - randint4x is Philox4x32 with counter (offset's low 32 bits, its high
 *     32 bits or 0 for offsets of 32 bits or fewer, 0, 0) and key (seed's
 *     low, high 32 bits) after seed.to(uint64); each lane is one philox op
 *     (ops.def), whose C text calls mt_philox (mt_kernel_rt.h), so the
 *     folder computes a constant lane with the very function the kernel
 *     runs.  Results are uint32, as Triton's are.
 *   - rand: the lane's bits as int32 x, (x < 0 ? -x - 1 : x) * 4.6566127342e-10
 *     in float32; randn: Box-Muller on two lanes, with tl.maximum, tl.log,
 *     tl.sqrt, tl.cos and tl.sin as Triton's pair_uniform_to_normal.
 *   - tl.philox and tl.philox_impl take any counter (uint32 or uint64
 *     words): their rounds are built from umulhi, mul, xor and add ops, as
 *     philox_impl's loop writes them.
 * Errors follow Triton's: a seed that is not an integer fails Triton's
 * static assertion, an offset must be a tensor (Triton calls offset.to),
 * a 64-bit float offset cannot be shifted, n_rounds is a compile-time
 * integer.  Invariants: nothing here keeps state; every error is located
 * at the argument it rejects. */
#include "mt.h"

#include <string.h>

enum { N_ROUNDS_DEFAULT = 10, MAX_ROUNDS = 1 << 20 };

/* Triton's dtype.name (int32, fp16) for messages. */
static const char *dname(Type t) {
    if (t.is_ptr)
        return "pointer";
    DType d = (DType)t.dtype;
    return dtype_is_float(d) ? dtype_info[d].short_name : dtype_info[d].tl_name;
}

/* n_rounds (parameter i): a compile-time integer, 10 when absent. */
static int rounds_of(Elab *E, Call *c, int i, int64_t *out) {
    *out = N_ROUNDS_DEFAULT;
    if (!c->have[i] || c->a[i].kind == CV_NONE)
        return 0;
    if (c->a[i].kind != CV_INT || c->a[i].i < 0 || c->a[i].i > MAX_ROUNDS)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "n_rounds must be a compile-time integer in [0, %d], got %s",
                        MAX_ROUNDS, cv_kind_name(E, c->a[i]));
    *out = c->a[i].i;
    return 0;
}

/* The seed as a tensor of an integer type (Triton's
 * static_assert(seed.dtype.is_int())). */
static int int_seed(Elab *E, CV seed, Loc loc, const char *fn, ValId *out) {
    if (cv_materialise(E, seed, loc, out) < 0)
        return -1;
    Type t = val_type(E->f, *out);
    if (t.is_ptr || !(type_is_int(t) || type_is_bool(t)))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "static assertion failed: the seed of %s() must be an integer, got %s",
                        fn, dname(t));
    return 0;
}

/* Philox's counter words (c0, c1) of randint4x as one uint64: the offset's
 * 64 bits, or offset.to(uint32) zero-extended for narrower offsets. */
static int offset_counter(Elab *E, CV off, Loc loc, const char *fn, ValId *out) {
    if (off.kind != CV_TENSOR)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "%s() offset must be a tensor ('%s' object has no attribute 'to')", fn,
                        cv_kind_name(E, off));
    Type t = cv_type(E, off);
    if (t.is_ptr)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() offset must be integers, got pointers", fn);
    if (dtype_info[t.dtype].bits <= 32)
        return elab_cast(E, off.v, DT_U32, loc, out) < 0 ? -1
                                                         : elab_cast(E, *out, DT_U64, loc, out);
    if (dtype_is_float((DType)t.dtype)) /* Triton shifts it: offset >> 32 */
        return elab_err(E, loc, MT_ERR_TYPE,
                        "%s() offset of type %s: invalid operands of type %s and %s for >>", fn,
                        dname(t), dname(t), dname(t));
    return elab_cast(E, off.v, DT_U64, loc, out); /* the same bits */
}

/* Lanes 0..n-1 of randint4x(seed, offset, n_rounds): parameters 0, 1, 2
 * of the row.  The offset is checked first, as Triton converts it first. */
static int randint_lanes(Elab *E, Call *c, int n, CV lane[4]) {
    const char *fn = c->b->display;
    int64_t rounds;
    ValId ctr, key;
    if (offset_counter(E, c->a[1], c->locs[1], fn, &ctr) < 0 ||
        int_seed(E, c->a[0], c->locs[0], fn, &key) < 0 ||
        elab_cast(E, key, DT_U64, c->locs[0], &key) < 0 || rounds_of(E, c, 2, &rounds) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        ValId a[3] = {ctr, key, const_int(E->f, DT_I32, i + 4 * rounds)}, r;
        if (elab_emit(E, OP_PHILOX, c->loc, a, 3, 0, 0, &r) < 0)
            return -1;
        lane[i] = cv_tensor(r);
    }
    return 0;
}

/* uint_to_uniform_float: the bits as a signed integer x of their width,
 * (x < 0 ? -x - 1 : x) times the largest scale that keeps it below 1. */
static int uniform(Elab *E, CV x, Loc loc, CV *out) {
    ValId v;
    if (x.kind != CV_TENSOR)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "uint_to_uniform_float() takes a tensor of 32 or 64-bit integers, got %s",
                        cv_kind_name(E, x));
    Type t = cv_type(E, x);
    DType d = (DType)t.dtype;
    bool w32 = d == DT_U32 || d == DT_I32, w64 = d == DT_U64 || d == DT_I64;
    if (t.is_ptr || !(w32 || w64))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "static assertion failed: uint_to_uniform_float() takes int32, uint32, "
                        "int64 or uint64, got %s", dname(t));
    DType sd = w32 ? DT_I32 : DT_I64;
    if (elab_cast(E, x.v, sd, loc, &v) < 0) /* to(sd, bitcast=True): same width */
        return -1;
    CV s = cv_tensor(v), neg, less, flipped, picked;
    CV where[3];
    if (cv_compare(E, OT_LT, s, cv_int(0), loc, &less) < 0 ||
        cv_unary(E, OT_MINUS, s, loc, &neg) < 0 ||
        cv_binop(E, OT_MINUS, neg, cv_int(1), loc, &flipped) < 0)
        return -1;
    where[0] = less;
    where[1] = flipped;
    where[2] = s;
    if (tl_call(E, "where", where, 3, NULL, cv_none(), loc, &picked) < 0)
        return -1;
    return cv_binop(E, OT_STAR, picked, cv_float(w32 ? 4.6566127342e-10 : 1.0842020432385337e-19),
                    loc, out);
}

/* pair_uniform_to_normal: Box-Muller, n2 only when asked for. */
static int box_muller(Elab *E, CV u1, CV u2, Loc loc, CV *n1, CV *n2) {
    CV a[2] = {cv_float(1.0e-7), u1}, th, lg, m2, r, trig;
    if (tl_call(E, "maximum", a, 2, NULL, cv_none(), loc, &u1) < 0 ||
        cv_binop(E, OT_STAR, cv_float(6.283185307179586), u2, loc, &th) < 0 ||
        tl_call(E, "log", &u1, 1, NULL, cv_none(), loc, &lg) < 0 ||
        cv_binop(E, OT_STAR, cv_float(-2.0), lg, loc, &m2) < 0 ||
        tl_call(E, "sqrt", &m2, 1, NULL, cv_none(), loc, &r) < 0 ||
        tl_call(E, "cos", &th, 1, NULL, cv_none(), loc, &trig) < 0 ||
        cv_binop(E, OT_STAR, r, trig, loc, n1) < 0)
        return -1;
    if (!n2)
        return 0;
    if (tl_call(E, "sin", &th, 1, NULL, cv_none(), loc, &trig) < 0)
        return -1;
    return cv_binop(E, OT_STAR, r, trig, loc, n2);
}

static CV tuple_of(Elab *E, const CV *items, int n) {
    CV t = cv_tuple(E, n);
    for (int i = 0; i < n; i++)
        t.items[i] = items[i];
    return t;
}

/* randint, randint4x, rand, rand4x, randn, randn4x: the row's name says
 * which; all take (seed, offset, n_rounds). */
int h_philox_lanes(Elab *E, Call *c, CV *out) {
    const char *name = strchr(c->b->display, '.') + 1;
    bool four = strstr(name, "4x") != NULL;
    bool normal = !strncmp(name, "randn", 5), uniform_float = !strncmp(name, "rand", 4) &&
                                                              strncmp(name, "randint", 7);
    CV lane[4];
    int n = four ? 4 : normal ? 2 : 1;
    if (randint_lanes(E, c, n, lane) < 0)
        return -1;
    if (uniform_float)
        for (int i = 0; i < n; i++)
            if (uniform(E, lane[i], c->loc, &lane[i]) < 0)
                return -1;
    if (normal) {
        for (int i = 0; i < n; i += 2)
            if (box_muller(E, lane[i], lane[i + 1], c->loc, &lane[i],
                           four ? &lane[i + 1] : NULL) < 0)
                return -1;
    }
    *out = four ? tuple_of(E, lane, 4) : lane[0];
    return 0;
}

int h_uint_to_uniform_float(Elab *E, Call *c, CV *out) {
    return uniform(E, c->a[0], c->locs[0], out);
}

int h_pair_uniform_to_normal(Elab *E, Call *c, CV *out) {
    CV n[2];
    if (box_muller(E, c->a[0], c->a[1], c->loc, &n[0], &n[1]) < 0)
        return -1;
    *out = tuple_of(E, n, 2);
    return 0;
}

/* ------------------------------------------------- philox of any counter */

/* philox_impl's rounds on counter c[4] and key k[2], built from ops: the
 * constants are tensors of the counter's type (uint32 or uint64), as
 * Triton's Python ints above the int64 range become. */
static int philox_rounds(Elab *E, CV c[4], CV k[2], int64_t rounds, Loc loc) {
    static const uint64_t words[2][4] = {
        {0xD2511F53u, 0xCD9E8D57u, 0x9E3779B9u, 0xBB67AE85u},
        {0xD2E7470EE14C6C93ull, 0xCA5A826395121157ull, 0x9E3779B97F4A7C15ull,
         0xBB67AE8584CAA73Bull},
    };
    Type t = c[0].kind == CV_TENSOR ? cv_type(E, c[0]) : type_scalar(DT_VOID);
    if (t.is_ptr || (t.dtype != DT_U32 && t.dtype != DT_U64))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "static assertion failed: dtype not supported in philox_impl: the "
                        "counter must be uint32 or uint64, got %s",
                        c[0].kind == CV_TENSOR ? dname(t) : cv_kind_name(E, c[0]));
    DType d = (DType)t.dtype;
    const uint64_t *w = words[d == DT_U64];
    CV A = cv_tensor(const_int(E->f, d, (int64_t)w[0]));
    CV B = cv_tensor(const_int(E->f, d, (int64_t)w[1]));
    CV KA = cv_tensor(const_int(E->f, d, (int64_t)w[2]));
    CV KB = cv_tensor(const_int(E->f, d, (int64_t)w[3]));
    for (int64_t r = 0; r < rounds; r++) {
        CV c0 = c[0], c2 = c[2], h[2], x;
        CV hb[2] = {B, c2}, ha[2] = {A, c0};
        if (tl_call(E, "umulhi", hb, 2, NULL, cv_none(), loc, &h[0]) < 0 ||
            tl_call(E, "umulhi", ha, 2, NULL, cv_none(), loc, &h[1]) < 0 ||
            cv_binop(E, OT_CARET, h[0], c[1], loc, &x) < 0 ||
            cv_binop(E, OT_CARET, x, k[0], loc, &c[0]) < 0 ||
            cv_binop(E, OT_CARET, h[1], c[3], loc, &x) < 0 ||
            cv_binop(E, OT_CARET, x, k[1], loc, &c[2]) < 0 ||
            cv_binop(E, OT_STAR, B, c2, loc, &c[1]) < 0 ||
            cv_binop(E, OT_STAR, A, c0, loc, &c[3]) < 0 ||
            cv_binop(E, OT_PLUS, k[0], KA, loc, &k[0]) < 0 ||
            cv_binop(E, OT_PLUS, k[1], KB, loc, &k[1]) < 0)
            return -1;
    }
    return 0;
}

/* philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=10) */
int h_philox_impl(Elab *E, Call *c, CV *out) {
    int64_t rounds;
    CV ctr[4] = {c->a[0], c->a[1], c->a[2], c->a[3]}, key[2] = {c->a[4], c->a[5]};
    if (rounds_of(E, c, 6, &rounds) < 0 || philox_rounds(E, ctr, key, rounds, c->loc) < 0)
        return -1;
    *out = tuple_of(E, ctr, 4);
    return 0;
}

/* philox(seed, c0, c1, c2, c3, n_rounds=10): the seed as uint64 split
 * into two uint32 key words for 32-bit counters, or whole (and 0) for
 * 64-bit ones; the counters bit cast to the unsigned type of c0's width. */
int h_philox(Elab *E, Call *c, CV *out) {
    int64_t rounds;
    ValId seed, x;
    CV ctr[4], key[2], hi, lo;
    if (int_seed(E, c->a[0], c->locs[0], "philox", &seed) < 0 ||
        elab_cast(E, seed, DT_U64, c->locs[0], &seed) < 0 || rounds_of(E, c, 5, &rounds) < 0)
        return -1;
    for (int i = 0; i < 4; i++) {
        if (cv_materialise(E, c->a[i + 1], c->locs[i + 1], &x) < 0)
            return -1;
        ctr[i] = cv_tensor(x);
    }
    Type t0 = cv_type(E, ctr[0]);
    int bits = t0.is_ptr ? 64 : dtype_info[t0.dtype].bits;
    if (bits != 32 && bits != 64)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "static assertion failed: bitwidth not supported in philox: c0 is %s",
                        dname(t0));
    DType d = bits == 32 ? DT_U32 : DT_U64;
    CV s = cv_tensor(seed), mask = cv_int(0xffffffff);
    if (d == DT_U32) {
        if (cv_binop(E, OT_SHR, s, cv_int(32), c->loc, &hi) < 0 ||
            cv_binop(E, OT_AMP, hi, mask, c->loc, &hi) < 0 ||
            cv_binop(E, OT_AMP, s, mask, c->loc, &lo) < 0 ||
            elab_cast(E, hi.v, DT_U32, c->loc, &hi.v) < 0 ||
            elab_cast(E, lo.v, DT_U32, c->loc, &lo.v) < 0)
            return -1;
    } else {
        CV full[3] = {cv_tuple(E, 1), cv_int(0), cv_dtype(DT_U64)};
        full[0].items[0] = cv_int(1);
        if (tl_call(E, "full", full, 3, NULL, cv_none(), c->loc, &hi) < 0)
            return -1;
        lo = s;
    }
    key[0] = lo;
    key[1] = hi;
    for (int i = 0; i < 4; i++) {
        CV args[2] = {ctr[i], cv_dtype(d)};
        if (tl_call(E, "cast", args, 2, "bitcast", cv_bool(true), c->locs[i + 1], &ctr[i]) < 0)
            return -1;
    }
    if (philox_rounds(E, ctr, key, rounds, c->loc) < 0)
        return -1;
    *out = tuple_of(E, ctr, 4);
    return 0;
}
