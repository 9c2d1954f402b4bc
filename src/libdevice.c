/* libdevice.c: the table of libdevice functions that run as calls of the
 * runtime's mt_nv_* functions.
 *
 * Input: libdevice.def, one line per Triton function of
 * triton.language.extra.cuda.libdevice with its symbols.  Output: the
 * symbols in one flat array, whose index is a libdevice op's attr[0] (the
 * IR prints it by name: libdevice_symbol_names), each with its C template
 * ("mt_nv_clzll(%0)"; "mt_nv_fadd_rz_ftz(%0, %1)" for a Z row, the
 * flush-to-zero form Triton calls) and its argument and result dtypes, for the rule
 * (typerules.c), the emitters (op_template) and the elaborator's lookup by
 * Triton's name (libdevice_fn, tlmath.c's h_libdevice_call).
 *
 * Invariants: the table is constant data; LIBDEVICE_NSYMS is its length
 * (checked at compile time), so the attribute schema can name it. */
#include "mt.h"

#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* the number of a symbol's argument dtypes, and its call's argument list */
#define LD_COUNT(...) LD_COUNT_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define LD_COUNT_(a, b, c, d, n, ...) n
#define LD_CAT(a, b) LD_CAT_(a, b)
#define LD_CAT_(a, b) a##b
#define LD_CALL_1 "(%0)"
#define LD_CALL_2 "(%0, %1)"
#define LD_CALL_3 "(%0, %1, %2)"
#define LD_CALL_4 "(%0, %1, %2, %3)"

#define LD_SYM(sym, call, ret, ...)                                                    \
    {"__nv_" #sym, call LD_CAT(LD_CALL_, LD_COUNT(__VA_ARGS__)), ret, LD_COUNT(__VA_ARGS__), \
     {__VA_ARGS__}},
#define S(sym, ret, ...) LD_SYM(sym, "mt_nv_" #sym, ret, __VA_ARGS__)
#define Z(sym, ret, ...) LD_SYM(sym, "mt_nv_" #sym "_ftz", ret, __VA_ARGS__)
#define FN(name, nargs, to_bool, ...) __VA_ARGS__
static const LibdeviceSym syms[] = {
#include "libdevice.def"
};
#undef FN

#define FN(name, nargs, to_bool, ...)                                                  \
    {#name, nargs, to_bool, COUNT(((const LibdeviceSym[]){__VA_ARGS__}))},
static const struct {
    const char *name;
    int nargs;
    bool to_bool;
    int nsyms;
} fns[] = {
#include "libdevice.def"
};
#undef FN
#undef S
#undef Z

_Static_assert(COUNT(syms) == LIBDEVICE_NSYMS, "LIBDEVICE_NSYMS is the table's length");

#define S(sym, ...) "__nv_" #sym,
#define Z S
#define FN(name, nargs, to_bool, ...) __VA_ARGS__
const char *const libdevice_symbol_names[LIBDEVICE_NSYMS] = {
#include "libdevice.def"
};
#undef FN
#undef S
#undef Z

const LibdeviceSym *libdevice_sym(int64_t index) {
    return index >= 0 && index < COUNT(syms) ? &syms[index] : NULL;
}

int libdevice_fn(const char *name, int *first, bool *to_bool) {
    int at = 0;
    for (int i = 0; i < COUNT(fns); i++) {
        if (!strcmp(fns[i].name, name)) {
            *first = at;
            *to_bool = fns[i].to_bool;
            return fns[i].nsyms;
        }
        at += fns[i].nsyms;
    }
    return 0;
}
