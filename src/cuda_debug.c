/* cuda_debug.c: the CUDA C of tldebug.c's ops, print and assert.
 *
 * Input: a `print` or `assert` op (ops.def, K_DEBUG) whose operands are
 * held where their producers left them (layout.c moves nothing for
 * them).  Output: text in the kernel body.
 *
 * print is Triton's PrintOpToLLVM: each thread prints every element it
 * holds of each operand (replicated copies too, as Triton's threads do),
 * one printf a line:
 *
 *     pid (<x>, <y>, <z>) idx (<i>, <j>)<prefix>[(operand <n>) ]<value>
 *
 * with each index padded to the digits of its dimension (%3u for 128),
 * "(operand n) " only when there are several operands, a scalar as
 * "idx ()", no operand as "pid (x, y, z)<prefix>".  Values print as
 * Triton formats them: %i/%u (%lli/%llu for 64 bits) by signedness, bool
 * as %u, floats widened to double as %f, pointers as %p, and hex=True as
 * 0x%0<bits/4>x (ll for 64 bits) of the integer promoted as C promotes it
 * (Triton's sign extension); a float narrower than 64 bits is widened to
 * double, as Triton passes it, whose low word Triton's 32-bit %x reads, so
 * that word is what prints (an f64, all its bits).  On the GPU this is
 * CUDA's printf; on the host the C library's, one call a line, so a line
 * is never split between threads.
 *
 * assert: every element a thread holds is tested; the first false one
 * calls __assertfail(message, file, line, function), which on the GPU
 * prints the assertion and traps (the launch fails with "device-side
 * assert triggered") and on the host ends the program's threads and the
 * launch with the same text (mt_host.h, fiber.c).  A block condition is
 * followed by a barrier, as Triton's lowering has, so that no thread runs
 * ahead into code the assertion guards. */
#include "mt.h"

#include <string.h>

/* s as the inside of a C string literal; percent signs doubled when the
 * text is a printf format. */
const char *debug_c_literal(Arena *ar, const char *s, bool format) {
    StrBuf sb;
    sb_init(&sb);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(&sb, "\\%c", *p);
        else if (*p == '%' && format)
            sb_puts(&sb, "%%");
        else if (*p < 0x20 || *p > 0x7e)
            sb_printf(&sb, "\\%03o", *p);
        else
            sb_putc(&sb, (char)*p);
    }
    const char *r = arena_strdup(ar, sb_str(&sb));
    sb_free(&sb);
    return r;
}
const char *ce_c_literal(Emit *e, const char *s, bool format) {
    return debug_c_literal(e->f->arena, s, format);
}

/* Digits of the largest index of a dimension (ceil(log10(n)), as Triton
 * pads them: 3 for 128, 0 for 1). */
int debug_index_width(int32_t n) {
    int w = 0;
    for (int64_t p = 1; p < n; p *= 10)
        w++;
    return w;
}

/* Triton's format of one element of type t, and the C argument for the
 * element text x (in its register type). */
void debug_value_format(Arena *ar, Type t, const char *x, bool hex, const char **fmt,
                        const char **arg) {
    DType d = (DType)t.dtype;
    int bits = dtype_info[d].bits;
    bool wide = bits > 32;
    if (t.is_ptr) {
        *fmt = "%p";
        *arg = arena_printf(ar, "(const void *)(%s)", x);
    } else if (hex) {
        *fmt = arena_printf(ar, "0x%%0%d%sx", bits / 4, wide ? "ll" : "");
        if (d == DT_F64)
            *arg = arena_printf(ar, "(unsigned long long)__double_as_longlong(%s)", x);
        else if (dtype_is_float(d)) /* the low word of the widened double */
            *arg = arena_printf(ar, "(unsigned)__double_as_longlong((double)(%s))",
                          ctext_convert(ar, x, type_scalar(d), type_scalar(DT_F32)));
        else
            *arg = arena_printf(ar, wide ? "(unsigned long long)(%s)"
                          : dtype_is_unsigned(d) || d == DT_I1 ? "(unsigned)(%s)" : "(int)(%s)",
                          x);
    } else if (dtype_is_float(d)) {
        *fmt = "%f";
        *arg = arena_printf(ar, "(double)(%s)", ctext_convert(ar, x, type_scalar(d), type_scalar(
                                                     d == DT_F64 ? DT_F64 : DT_F32)));
    } else if (dtype_is_unsigned(d) || d == DT_I1) {
        *fmt = wide ? "%llu" : "%u";
        *arg = arena_printf(ar, wide ? "(unsigned long long)(%s)" : "(unsigned)(%s)", x);
    } else {
        *fmt = wide ? "%lli" : "%i";
        *arg = arena_printf(ar, wide ? "(long long)(%s)" : "(int)(%s)", x);
    }
}

/* The lines of operand i of a print op. */
static void print_operand(Emit *e, Op *op, int i, const char *prefix) {
    ValId x = op->args[i];
    Type t = val_type(e->f, x);
    const char *fmt, *arg;
    StrBuf f, a;
    sb_init(&f);
    sb_init(&a);
    sb_puts(&f, "pid (%u, %u, %u) idx (");
    sb_puts(&a, "blockIdx.x, blockIdx.y, blockIdx.z");
    Dist r;
    if (t.rank)
        r = e->has_dist[x] ? e->dist[x] : ce_dist_of(e, x);
    for (int k = 0; k < t.rank; k++) {
        sb_printf(&f, "%s%%%du", k ? ", " : "", debug_index_width(t.shape[k]));
        sb_printf(&a, ", (unsigned)(%s)", ce_value_coord(e, &r, k, CE_SLOT));
    }
    sb_printf(&f, ")%s", prefix);
    if (op->nargs > 1)
        sb_printf(&f, "(operand %d) ", i);
    debug_value_format(e->f->arena, t, t.rank ? ce_elem(e, x, &r, op->loc) : ce_vname(e, x),
                       op->attr[0] != 0, &fmt, &arg);
    sb_printf(&f, "%s\\n", fmt);
    sb_printf(&a, ", %s", arg);
    if (t.rank) {
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
        ce_line(e, "    printf(\"%s\", %s);", sb_str(&f), sb_str(&a));
    } else {
        ce_line(e, "printf(\"%s\", %s);", sb_str(&f), sb_str(&a));
    }
    sb_free(&f);
    sb_free(&a);
}

int ce_emit_print(Emit *e, Op *op) {
    const char *prefix = ce_c_literal(e, op->str[0], true);
    if (op->nargs == 0) {
        ce_line(e, "printf(\"pid (%%u, %%u, %%u)%s\\n\", blockIdx.x, blockIdx.y, blockIdx.z);",
                prefix);
        return 0;
    }
    for (int i = 0; i < op->nargs; i++)
        print_operand(e, op, i, prefix);
    return 0;
}

int ce_emit_assert(Emit *e, Op *op) {
    ValId x = op->args[0];
    Type t = val_type(e->f, x);
    const char *call = ce_fmt(e, "__assertfail(\"%s\", \"%s\", %d, \"%s\", sizeof(char));",
                              ce_c_literal(e, op->str[0], false),
                              ce_c_literal(e, e->c->filename, false), (int)op->loc.line,
                              ce_c_literal(e, op->str[1], false));
    if (!t.rank) {
        ce_line(e, "if (!%s)", ce_vname(e, x));
        ce_line(e, "    %s", call);
        return 0;
    }
    Dist r = e->has_dist[x] ? e->dist[x] : ce_dist_of(e, x);
    const char *c = ce_elem(e, x, &r, op->loc);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    ce_line(e, "    if (!%s)", c);
    ce_line(e, "        %s", call);
    ce_line(e, "__syncthreads();");
    return 0;
}
