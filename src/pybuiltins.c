/* pybuiltins.c: Python's own builtins inside a kernel.
 *
 * Input: a bound Call of one of the Python builtins the kernel language
 * keeps (min, max, float, int, bool, str, len, getattr, hasattr, type,
 * isinstance, and the classes isinstance() is given), with the arguments
 * builtins.c's binder checked.  Output: a CV; only min/max of tensors
 * emit IR (tl.minimum/tl.maximum folded left to right, as Triton does).
 *
 * Invariants: everything else is decided at compile time, the way
 * Triton's code generator runs these builtins on constexprs in Python;
 * a runtime value where Python needs a constant is a located
 * MT_ERR_UNSUPPORTED naming the tl.* spelling that works. */
#include "mt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* min/max with a tensor among the values: tl.minimum/tl.maximum folded
 * left to right, as Triton's builtin_min/max does. */
static int fold_min_max(Elab *E, Call *c, const CV *items, int n, bool is_max, CV *out) {
    if (n < 2)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() of tensors needs at least 2 values",
                        c->b->display);
    CV acc = items[0];
    for (int i = 1; i < n; i++) {
        CV pair[2] = {acc, items[i]};
        if (tl_call(E, is_max ? "maximum" : "minimum", pair, 2, NULL, cv_none(), c->loc,
                    &acc) < 0)
            return -1;
    }
    *out = acc;
    return 0;
}

/* min/max of compile-time values, as arguments or one sequence. */
int h_py_min_max(Elab *E, Call *c, CV *out) {
    const Args *a = c->args;
    bool is_max = !strcmp(c->b->display, "max");
    const CV *items = a->pos;
    int n = a->npos;
    const char *fn = c->b->display;
    if (a->nkw)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() keyword arguments are not supported",
                        fn);
    if (n == 1 && a->pos[0].kind == CV_TUPLE) {
        items = a->pos[0].items;
        n = a->pos[0].n;
    }
    if (n == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() arg is an empty sequence", fn);
    CV best = items[0];
    for (int i = 0; i < n; i++)
        if (items[i].kind == CV_TENSOR) /* Triton's builtin_min/max: tl.minimum/maximum */
            return fold_min_max(E, c, items, n, is_max, out);
    for (int i = 1; i < n; i++) {
        bool better = false;
        if (ct_compare(E, is_max ? OT_GT : OT_LT, items[i], best, c->loc, &better) < 0)
            return -1;
        if (better)
            best = items[i];
    }
    *out = best;
    return 0;
}

/* NoneType, reached as type(None): NoneType() is None. */
int h_nonetype(Elab *E, Call *c, CV *out) {
    if (c->args->npos || c->args->nkw)
        return elab_err(E, c->loc, MT_ERR_TYPE, "NoneType takes no arguments");
    return 0;
}

int h_float(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (!c->have[0]) {
        *out = cv_float(0);
        return 0;
    }
    if (cv_is_num(x)) {
        *out = cv_float(cv_num_f(x));
        return 0;
    }
    if (x.kind == CV_STR) {
        const char *s = x.s;
        char *end;
        while (*s == ' ')
            s++;
        errno = 0;
        double v = strtod(s, &end);
        while (*end == ' ')
            end++;
        if (end == s || *end)
            return elab_err(E, c->locs[0], MT_ERR_TYPE,
                            "could not convert string to float: '%s'", x.s);
        *out = cv_float(v);
        return 0;
    }
    if (x.kind == CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "float() of a runtime value is not supported; use .to(tl.float32)");
    return elab_err(E, c->locs[0], MT_ERR_TYPE,
                    "float() argument must be a number or a string, got %s",
                    cv_kind_name(E, x));
}

int h_int(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (!c->have[0]) {
        *out = cv_int(0);
        return 0;
    }
    if (cv_is_intlike(x)) {
        *out = cv_int(x.i);
        return 0;
    }
    if (x.kind == CV_FLOAT) {
        if (!isfinite(x.f) || x.f >= 9.2233720368547758e18 || x.f < -9.2233720368547758e18)
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "cannot convert float %g to int",
                            x.f);
        *out = cv_int((int64_t)x.f);
        return 0;
    }
    if (x.kind == CV_STR) {
        char *end;
        errno = 0;
        long long v = strtoll(x.s, &end, 10);
        if (end == x.s || *end || errno)
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "invalid literal for int(): '%s'",
                            x.s);
        *out = cv_int(v);
        return 0;
    }
    if (x.kind == CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "int() of a runtime value is not supported; use .to(tl.int32)");
    return elab_err(E, c->locs[0], MT_ERR_TYPE,
                    "int() argument must be a number or a string, got %s",
                    cv_kind_name(E, x));
}

int h_bool(Elab *E, Call *c, CV *out) {
    bool t = false;
    if (c->have[0] &&
        cv_truth(E, c->a[0], c->locs[0],
                 "bool() of a runtime value is not supported; use '!= 0'", &t) < 0)
        return -1;
    *out = cv_bool(t);
    return 0;
}

int h_str(Elab *E, Call *c, CV *out) {
    if (c->a[0].kind != CV_STR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "str() is only supported on strings");
    *out = c->a[0];
    return 0;
}

int h_len(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (x.kind == CV_TUPLE || x.kind == CV_STR) {
        *out = cv_int(x.n);
        return 0;
    }
    if (x.kind == CV_TENSOR && cv_type(E, x).rank > 0) {
        *out = cv_int(cv_type(E, x).shape[0]);
        return 0;
    }
    return elab_err(E, c->locs[0], MT_ERR_TYPE, "object of type '%s' has no len()",
                    cv_kind_name(E, x));
}

/* getattr(obj, "name") with a compile-time name: obj.name, as Triton's
 * code generator evaluates it (getattr(tl, func), getattr(tl.PropagateNan,
 * mode) in Triton's tests). */
int h_getattr(Elab *E, Call *c, CV *out) {
    if (c->a[1].kind != CV_STR)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "getattr() attribute name must be a compile-time string, got %s",
                        cv_kind_name(E, c->a[1]));
    return builtin_getattr(E, c->a[0], c->a[1].s, c->loc, out);
}

/* type(x) is the builtin that converts to x's type, so type(x)(y) works. */
int h_type(Elab *E, Call *c, CV *out) {
    switch (c->a[0].kind) {
    case CV_INT: *out = cv_builtin(B_INT); return 0;
    case CV_FLOAT: *out = cv_builtin(B_FLOAT); return 0;
    case CV_BOOL: *out = cv_builtin(B_BOOL); return 0;
    case CV_STR: *out = cv_builtin(B_STR); return 0;
    case CV_NONE: *out = cv_builtin(B_NONETYPE); return 0;
    default:
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "type() is only supported on compile-time numbers, strings and None");
    }
}

/* Whether x is an instance of the class row `row` (Triton unwraps
 * constexprs before calling Python's isinstance, so a compile-time 3 is
 * an int and nothing is a tl.constexpr).  -1: the row is not a class. */
static int instance_of(const CV *x, int row) {
    const char *n = builtin_row(row)->display;
    if (!strcmp(n, "int"))
        return x->kind == CV_INT || x->kind == CV_BOOL;
    if (!strcmp(n, "float"))
        return x->kind == CV_FLOAT;
    if (!strcmp(n, "bool"))
        return x->kind == CV_BOOL;
    if (!strcmp(n, "str"))
        return x->kind == CV_STR;
    if (!strcmp(n, "NoneType"))
        return x->kind == CV_NONE;
    if (!strcmp(n, "tl.constexpr"))
        return 0;
    if (!strcmp(n, "tl.tensor"))
        return x->kind == CV_TENSOR || x->kind == CV_BLOCKPTR;
    if (!strcmp(n, "tl.tensor_descriptor") || !strcmp(n, "tl.tensor_descriptor_base"))
        return x->kind == CV_TENSORDESC;
    if (!strcmp(n, "tl.dtype"))
        return x->kind == CV_DTYPE;
    /* Triton's pointer_type is a dtype subclass as well as the constructor */
    if (!strcmp(n, "tl.pointer_type"))
        return x->kind == CV_DTYPE && x->i;
    return -1;
}

/* isinstance(obj, class_or_tuple), decided at compile time. */
int h_isinstance(Elab *E, Call *c, CV *out) {
    CV cls = c->a[1];
    int n = cls.kind == CV_TUPLE ? cls.n : 1;
    bool yes = false;
    for (int i = 0; i < n; i++) {
        CV k = cls.kind == CV_TUPLE ? cls.items[i] : cls;
        int r = k.kind == CV_BUILTIN ? instance_of(&c->a[0], k.sub) : -1;
        if (r < 0)
            return elab_err(E, c->locs[1], MT_ERR_TYPE,
                            "isinstance() arg 2 must be a type or tuple of types, got %s",
                            cv_kind_name(E, k));
        yes |= r;
    }
    *out = cv_bool(yes);
    return 0;
}

/* hasattr(obj, "name"): whether obj.name would elaborate (its error,
 * should it fail, is forgotten). */
int h_hasattr(Elab *E, Call *c, CV *out) {
    if (c->a[1].kind != CV_STR)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "hasattr(): attribute name must be a compile-time string, got %s",
                        cv_kind_name(E, c->a[1]));
    CV ignored;
    bool yes = builtin_getattr(E, c->a[0], c->a[1].s, c->loc, &ignored) == 0;
    if (!yes)
        diag_clear(E->c);
    *out = cv_bool(yes);
    return 0;
}

int h_class(Elab *E, Call *c, CV *out) {
    return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                    "%s cannot be constructed in a kernel (use it in isinstance())",
                    c->b->display);
}
