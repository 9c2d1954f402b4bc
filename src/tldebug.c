/* tldebug.c: printing and debug mode in kernels, as Triton has them.
 *
 * Input: calls of tl.device_print (and Python's print, which Triton maps
 * to it), tl.static_print, tl.device_assert, a Python assert statement on
 * a runtime value, and the + - * of integer tensors in debug mode.
 * Output: `print` and `assert` ops (ops.def, K_DEBUG) in the current
 * region, or text handed to the compilation's print callback
 * (static_print), or nothing.
 *
 * Semantics are Triton 3.6's (language/core.py, semantic.py):
 *   - device_print(prefix, *args, hex=False): the prefix must be a
 *     printable ASCII string; it is made to read "<space>prefix: " the way
 *     semantic.device_print does, and every argument becomes a tensor;
 *   - static_print(*values, sep=' ', end='\n') writes Python's print of
 *     the values at compile time: a tensor as Triton's str() gives it
 *     ("int32[constexpr[128]]"), a dtype by its name;
 *   - device_assert(cond, msg='', mask=None) is checked only in debug
 *     mode (ElabInput.debug: @jit(debug=True), TRITON_DEBUG=1); the
 *     condition is cond | ~mask; outside debug mode its arguments are
 *     still evaluated and checked, and nothing is emitted;
 *   - in debug mode, + - * on integers narrower than 64 bits also assert
 *     that the exact result fits the type (binary_op_sanitize_overflow:
 *     both sides widened to int64, "int32 overflow detected for operation
 *     add").
 * Invariants: nothing here prints by itself; the static_print text goes
 * to ElabInput.print, which the API points at its caller's sink. */
#include "mt.h"

#include <string.h>

/* ------------------------------------------------------------ printing */

/* Triton asserts the prefix is made of string.printable characters. */
static bool printable_ascii(const char *s, int n) {
    for (int i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= 0x20 && ch <= 0x7e) || (ch >= 0x09 && ch <= 0x0d)))
            return false;
    }
    return true;
}

/* semantic.device_print's spelling of the prefix: ends in ": " and starts
 * with a space when there are arguments to print after it. */
static const char *print_prefix(Elab *E, const char *s, int n, bool has_args) {
    StrBuf sb;
    sb_init(&sb);
    sb_putn(&sb, s, (size_t)n);
    if (has_args && (sb.len == 0 || sb_str(&sb)[sb.len - 1] != ' '))
        sb_putc(&sb, ' ');
    if (has_args && !(sb.len >= 2 && !strcmp(sb_str(&sb) + sb.len - 2, ": "))) {
        sb.len--; /* the last character (a space) becomes ": " */
        sb_puts(&sb, ": ");
    }
    const char *p = sb_str(&sb);
    const char *r = sb.len > 2 && p[0] != ' ' ? arena_printf(E->c->arena, " %s", p)
                                                : arena_strdup(E->c->arena, p);
    sb_free(&sb);
    return r;
}

/* tl.device_print(prefix, *args, hex=False) and print(prefix, *args). */
int h_device_print(Elab *E, Call *c, CV *out) {
    const Args *a = c->args;
    const char *fn = c->b->display;
    bool hex = false;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwname[k], "hex") != 0)
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got an unexpected keyword argument '%s'", fn, a->kwname[k]);
        if (cv_truth(E, a->kw[k], a->kwloc[k], "hex= must be a compile-time bool", &hex) < 0)
            return -1;
    }
    if (a->npos < 1)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() needs a prefix string", fn);
    CV p = a->pos[0];
    if (p.kind != CV_STR)
        return elab_err(E, a->posloc[0], MT_ERR_TYPE,
                        "%s() prefix must be a string literal, got %s", fn,
                        cv_kind_name(E, p));
    if (!printable_ascii(p.s, p.n))
        return elab_err(E, a->posloc[0], MT_ERR_TYPE,
                        "%s() prefix must be printable ASCII", fn);
    int n = a->npos - 1;
    ValId *args = arena_alloc(E->c->arena, sizeof(ValId) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        CV v = a->pos[i + 1];
        if (v.kind != CV_TENSOR && !cv_is_num(v))
            return elab_err(E, a->posloc[i + 1], MT_ERR_TYPE,
                            "%s() can print tensors and numbers, got %s", fn,
                            cv_kind_name(E, v));
        if (builtin_need_tensor(E, v, a->posloc[i + 1], fn, &args[i]) < 0)
            return -1;
    }
    if (elab_emit(E, OP_PRINT, c->loc, args, n, hex, 0, NULL) < 0)
        return -1;
    Region *r = E->region;
    r->ops[r->nops - 1]->str[0] = print_prefix(E, p.s, p.n, n > 0);
    *out = cv_none();
    return 0;
}

/* Triton's str() of a dtype: int32, uint8, int1, fp32, bf16. */
static const char *dtype_str(Elab *E, DType d, bool is_ptr) {
    const char *n = dtype_is_float(d) ? dtype_info[d].short_name : dtype_info[d].tl_name;
    return is_ptr ? arena_printf(E->c->arena, "pointer<%s>", n) : n;
}

/* Python's str() of a value, as Triton's static_print shows it. */
static int put_str(Elab *E, StrBuf *sb, CV v, Loc loc) {
    switch (v.kind) {
    case CV_STR: sb_putn(sb, v.s, (size_t)v.n); return 0;
    case CV_INT: sb_printf(sb, "%lld", (long long)v.i); return 0;
    case CV_BOOL: sb_puts(sb, v.i ? "True" : "False"); return 0;
    case CV_FLOAT: {
        char buf[40];
        format_f64(buf, v.f);
        sb_puts(sb, buf);
        return 0;
    }
    case CV_NONE: sb_puts(sb, "None"); return 0;
    case CV_DTYPE: sb_puts(sb, dtype_str(E, (DType)v.sub, v.i != 0)); return 0;
    case CV_TENSOR: { /* float32[constexpr[16], constexpr[32]] */
        Type t = cv_type(E, v);
        sb_puts(sb, dtype_str(E, (DType)t.dtype, t.is_ptr));
        sb_putc(sb, '[');
        for (int i = 0; i < t.rank; i++)
            sb_printf(sb, i ? ", constexpr[%d]" : "constexpr[%d]", (int)t.shape[i]);
        sb_putc(sb, ']');
        return 0;
    }
    case CV_TUPLE: /* Triton's tuple: str() of the list of its items' str() */
        sb_putc(sb, '[');
        for (int i = 0; i < v.n; i++) {
            sb_puts(sb, i ? ", '" : "'");
            if (put_str(E, sb, v.items[i], loc) < 0)
                return -1;
            sb_putc(sb, '\'');
        }
        sb_putc(sb, ']');
        return 0;
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "tl.static_print() cannot print %s",
                        cv_kind_name(E, v));
    }
}

/* tl.static_print(*values, sep=' ', end='\n', file=None, flush=False). */
int h_static_print(Elab *E, Call *c, CV *out) {
    const Args *a = c->args;
    const char *sep = " ", *end = "\n";
    for (int k = 0; k < a->nkw; k++) {
        const char *kw = a->kwname[k];
        CV v = a->kw[k];
        bool is_text = !strcmp(kw, "sep") || !strcmp(kw, "end");
        if (is_text && v.kind == CV_STR) {
            const char *s = arena_printf(E->c->arena, "%.*s", v.n, v.s);
            *(kw[0] == 's' ? &sep : &end) = s;
        } else if (is_text && v.kind != CV_NONE) {
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE, "%s must be None or a string, not %s",
                            kw, cv_kind_name(E, v));
        } else if (!strcmp(kw, "file") && v.kind != CV_NONE) {
            return elab_err(E, a->kwloc[k], MT_ERR_UNSUPPORTED,
                            "tl.static_print() writes to stdout only (file=None)");
        } else if (!is_text && strcmp(kw, "file") && strcmp(kw, "flush")) {
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "tl.static_print() got an unexpected keyword argument '%s'", kw);
        }
    }
    StrBuf sb;
    sb_init(&sb);
    int rc = 0;
    for (int i = 0; i < a->npos && rc == 0; i++) {
        if (i)
            sb_puts(&sb, sep);
        rc = put_str(E, &sb, a->pos[i], a->posloc[i]);
    }
    sb_puts(&sb, end);
    if (rc == 0 && E->in->print)
        E->in->print(E->in->print_user, sb_str(&sb));
    sb_free(&sb);
    *out = cv_none();
    return rc;
}

/* ------------------------------------------------------------ assertions */

/* An assert op on cond (a scalar or block of any integer or bool type:
 * an element is false when it is 0, as Triton's lowering tests it). */
static int emit_assert(Elab *E, ValId cond, const char *msg, Loc loc) {
    Type t = val_type(E->f, cond);
    if (!type_is_bool(t)) {
        ValId zero = 0;
        if (!type_is_int(t))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "device_assert() condition must be a bool or integer tensor, got %s",
                            elab_type_text(E, t));
        if (cv_materialise_like(E, cv_int(0), t, loc, &zero) < 0)
            return -1;
        ValId ab[2] = {cond, zero};
        if (elab_emit(E, OP_CMP_NE, loc, ab, 2, 0, 0, &cond) < 0)
            return -1;
    }
    if (elab_emit(E, OP_ASSERT, loc, &cond, 1, 0, 0, NULL) < 0)
        return -1;
    Op *op = E->region->ops[E->region->nops - 1];
    op->str[0] = arena_strdup(E->c->arena, msg);
    op->str[1] = E->fn_name ? E->fn_name : E->f->name;
    return 0;
}

/* tl.device_assert(cond, msg='', mask=None). */
int h_device_assert(Elab *E, Call *c, CV *out) {
    const char *fn = c->b->display;
    CV m = c->a[1], k = c->a[2];
    ValId cond, mask = 0;
    *out = cv_none();
    if (c->a[0].kind != CV_TENSOR && !cv_is_num(c->a[0]))
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "%s() condition must be a tensor or a number, got %s", fn,
                        cv_kind_name(E, c->a[0]));
    if (m.kind != CV_NONE && m.kind != CV_STR)
        return elab_err(E, c->locs[1], MT_ERR_TYPE, "%s() msg must be a string", fn);
    if (builtin_need_tensor(E, c->a[0], c->locs[0], fn, &cond) < 0 ||
        (k.kind != CV_NONE && builtin_need_tensor(E, k, c->locs[2], fn, &mask) < 0))
        return -1;
    if (!E->in->debug)
        return 0; /* Triton drops the check outside debug mode */
    if (mask) { /* cond | ~mask */
        CV nm;
        if (cv_unary(E, OT_TILDE, cv_tensor(mask), c->locs[2], &nm) < 0 ||
            cv_binop(E, OT_PIPE, cv_tensor(cond), nm, c->loc, &nm) < 0)
            return -1;
        cond = nm.v;
    }
    const char *msg = m.kind == CV_STR ? arena_printf(E->c->arena, "%.*s", m.n, m.s) : "";
    return emit_assert(E, cond, msg, c->loc);
}

/* `assert cond, msg` on a runtime value: device_assert(cond, msg), as
 * Triton's code generator makes it (checked in debug mode only). */
int tldebug_assert_stmt(Elab *E, CV cond, CV msg, Loc loc) {
    ValId id;
    if (msg.kind != CV_NONE && msg.kind != CV_STR)
        return elab_err(E, loc, MT_ERR_TYPE, "an assert's message must be a string, got %s",
                        cv_kind_name(E, msg));
    if (builtin_need_tensor(E, cond, loc, "assert", &id) < 0)
        return -1;
    if (!E->in->debug)
        return 0;
    const char *m = msg.kind == CV_STR ? arena_printf(E->c->arena, "%.*s", msg.n, msg.s) : "";
    return emit_assert(E, id, m, loc);
}

/* Debug mode's overflow check of x <op> y (integers narrower than 64 bits;
 * the computation type is the promotion of the two): the exact result,
 * computed in int64, must lie in the type's range. */
int tldebug_overflow_check(Elab *E, OpCode code, ValId x, ValId y, Loc loc) {
    DType d = promote_dtype((DType)val_type(E->f, x).dtype, (DType)val_type(E->f, y).dtype);
    if (!E->in->debug || !dtype_is_int(d) || dtype_info[d].bits >= 64)
        return 0;
    int bits = dtype_info[d].bits;
    int64_t hi = dtype_is_unsigned(d) ? (int64_t)((1ULL << bits) - 1)
                                      : (int64_t)((1ULL << (bits - 1)) - 1);
    int64_t lo = dtype_is_unsigned(d) ? 0 : -hi - 1;
    ValId w[2], r, le, ge, ok;
    if (elab_cast(E, x, d, loc, &w[0]) < 0 || elab_cast(E, w[0], DT_I64, loc, &w[0]) < 0 ||
        elab_cast(E, y, d, loc, &w[1]) < 0 || elab_cast(E, w[1], DT_I64, loc, &w[1]) < 0 ||
        elab_emit(E, code, loc, w, 2, 0, 0, &r) < 0)
        return -1;
    ValId rh[2] = {r, const_int(E->f, DT_I64, hi)}, rl[2] = {r, const_int(E->f, DT_I64, lo)};
    if (elab_emit(E, OP_CMP_LE, loc, rh, 2, 0, 0, &le) < 0 ||
        elab_emit(E, OP_CMP_GE, loc, rl, 2, 0, 0, &ge) < 0)
        return -1;
    ValId both[2] = {le, ge};
    if (elab_emit(E, OP_AND, loc, both, 2, 0, 0, &ok) < 0)
        return -1;
    const char *name = code == OP_ADD ? "add" : code == OP_SUB ? "sub" : "mul";
    return emit_assert(E, ok, arena_printf(E->c->arena, "int%d overflow detected for operation %s",
                                           bits, name), loc);
}
