/* cuda_atomic.c: the CUDA C of the atomic ops (tl.atomic_*).
 *
 * Input: an atomic op (ops.def: OP_ATOMIC_*) of a Func after the back-end
 * passes; its operands are in the result's distribution (layout.c), and a
 * result that needs shared memory has its scratch buffer (smemplan.c asks
 * atomic_result_shared).  Output: the op's text in the kernel body, and
 * one helper function per (op, element type, memory order) written before
 * the kernel (Emit.pre), e.g. mt_atomic_add_f32_acq_rel_gpu.
 *
 * A helper has two bodies.  On the GPU (__CUDA_ARCH__) it is the PTX
 * instruction Triton emits on sm_90, `atom.global.<scope>.<sem>.<op>.<type>`
 * (cas: `atom.global.<sem>.<scope>.cas.b<n>`), on the element's bits; a
 * float max/min is Triton's pair (a signed max of the bits for a
 * non-negative value, an unsigned min for a negative one; the reverse for
 * min).  On the host it is a compare-and-swap loop on the element's memory
 * (mt_host.h, mt_host_atomic_update) computing the same new value, so the
 * worker threads that run programs in parallel see true atomics; a failed
 * cas lets other threads and programs run (mt_host_atomic_cas).
 *
 * Invariants, as in Triton's lowering:
 *   - every element's atomic runs exactly once: a scalar atomic on thread
 *     0, a block element on the thread that owns it (replicated copies
 *     never act);
 *   - a used result reaches every thread that holds a copy: a scalar's
 *     through shared memory (thread 0 writes, a barrier, all read), a
 *     block's whose layout replicates elements likewise (owners write the
 *     old values at their row-major index); every such use ends with a
 *     barrier, so the scratch is free again for the next user;
 *   - a masked-off element does not touch memory; its result is 0 (Triton
 *     leaves it undefined);
 *   - on the host, where a program's threads run one after another between
 *     barriers, each atomic is a barrier before and after
 *     (mt_atomic_host_sync, empty on the GPU): thread 0's scalar atomic
 *     cannot overtake another thread's earlier read of the same address
 *     (tutorial 05 reads its lock's count, then thread 0 sets it), nor
 *     fall behind a later one. */
#include "mt.h"

#include <string.h>

/* ----------------------------------------------------------- the helper */

static const char *const sem_names[MEM_NSEMS] = {"relaxed", "acquire", "release",
                                                 "acq_rel"};
static const char *const scope_names[MEM_NSCOPES] = {"gpu", "cta", "sys"};

/* The unsigned type, the asm register constraint and the bit conversions
 * of an element type's bits. */
typedef struct Bits {
    const char *utype, *reg;
    const char *to_fmt, *from_fmt; /* "%s" becomes the value */
    int n;
} Bits;

static Bits bits_of(DType d) {
    Bits b;
    b.n = dtype_info[d].bits;
    b.utype = b.n == 16 ? "unsigned short" : b.n == 32 ? "unsigned" : "unsigned long long";
    b.reg = b.n == 16 ? "h" : b.n == 32 ? "r" : "l";
    if (d == DT_F32) {
        b.to_fmt = "__float_as_uint(%s)";
        b.from_fmt = "__uint_as_float(%s)";
    } else if (d == DT_F64) {
        b.to_fmt = "(unsigned long long)__double_as_longlong(%s)";
        b.from_fmt = "__longlong_as_double((long long)%s)";
    } else {
        b.to_fmt = b.n == 16 ? "(unsigned short)%s" : b.n == 32 ? "(unsigned)%s"
                                                               : "(unsigned long long)%s";
        b.from_fmt = dtype_is_unsigned(d) || dtype_is_float(d) ? "%s" : NULL;
    }
    return b;
}

static const char *fmt1(Emit *e, const char *fmt, const char *x) {
    return ce_fmt(e, fmt, x);
}

/* The element's bits back as the element type. */
static const char *from_bits(Emit *e, DType d, const Bits *b, const char *x) {
    if (b->from_fmt)
        return fmt1(e, b->from_fmt, x);
    return ce_fmt(e, "(%s)%s", dtype_ctype(d), x);
}

/* PTX op and type of an rmw on d (not the float max/min pair). */
static void ptx_rmw(Emit *e, int code, DType d, const char **op, const char **ty) {
    int n = dtype_info[d].bits;
    bool fl = dtype_is_float(d), un = dtype_is_unsigned(d);
    switch (code) {
    case OP_ATOMIC_ADD:
        *op = n == 16 ? "add.noftz" : "add";
        *ty = d == DT_BF16 ? "bf16" : fl ? ce_fmt(e, "f%d", n) : ce_fmt(e, "u%d", n);
        return;
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN:
        *op = code == OP_ATOMIC_MAX ? "max" : "min";
        *ty = ce_fmt(e, "%c%d", un ? 'u' : 's', n);
        return;
    default:
        *op = code == OP_ATOMIC_AND ? "and" : code == OP_ATOMIC_OR ? "or"
              : code == OP_ATOMIC_XOR ? "xor" : "exch";
        *ty = ce_fmt(e, "b%d", n);
        return;
    }
}

/* One asm statement: r = atom ... [p], operands. */
static const char *asm_line(Emit *e, const Bits *b, const char *instr, const char *operands,
                            const char *inputs) {
    return ce_fmt(e, "    asm volatile(\"%s %%0, [%%1], %s;\" : \"=%s\"(mt_r) : \"l\"(p), %s "
                     ": \"memory\");\n",
                  instr, operands, b->reg, inputs);
}

/* The device body of an rmw helper: mt_r = the old bits. */
static const char *device_rmw(Emit *e, int code, DType d, const Bits *b, const char *order) {
    const char *vin = ce_fmt(e, "\"%s\"(mt_v)", b->reg);
    const char *head = ce_fmt(e, "    %s mt_v = %s, mt_r;\n", b->utype,
                              fmt1(e, b->to_fmt, "v"));
    if (dtype_is_float(d) && (code == OP_ATOMIC_MAX || code == OP_ATOMIC_MIN)) {
        bool mx = code == OP_ATOMIC_MAX;
        const char *pos = ce_fmt(e, "atom.global.%s.%s.s%d", order, mx ? "max" : "min", b->n);
        const char *neg = ce_fmt(e, "atom.global.%s.%s.u%d", order, mx ? "min" : "max", b->n);
        return ce_fmt(e, "%s    if (mt_v >> %d)\n    %s    else\n    %s", head, b->n - 1,
                      asm_line(e, b, neg, "%2", vin), asm_line(e, b, pos, "%2", vin));
    }
    const char *op, *ty;
    ptx_rmw(e, code, d, &op, &ty);
    return ce_fmt(e, "%s%s", head,
                  asm_line(e, b, ce_fmt(e, "atom.global.%s.%s.%s", order, op, ty), "%2", vin));
}

/* The host's new value of an rmw from the old x and the operand v (the
 * fiber backend's helpers and the cpu backend's loops, cpu_ops.c). */
const char *atomic_update_text(Arena *a, int code, DType d) {
    bool fl = dtype_is_float(d);
    switch (code) {
    case OP_ATOMIC_ADD:
        if (d == DT_F16 || d == DT_BF16) /* exact in double: one rounding */
            return arena_printf(a, "mt_f64_to_%s((double)mt_%s_to_f32(x) + (double)mt_%s_to_f32(v))",
                          dtype_name(d), dtype_name(d), dtype_name(d));
        if (fl || dtype_is_unsigned(d))
            return "x + v";
        return arena_printf(a, "(%s)((%s)x + (%s)v)", dtype_ctype(d), bits_of(d).utype,
                      bits_of(d).utype);
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN: {
        bool mx = code == OP_ATOMIC_MAX;
        if (!fl)
            return mx ? "(v > x ? v : x)" : "(v < x ? v : x)";
        Bits b = bits_of(d);
        const char *bx = arena_printf(a, b.to_fmt, "x"), *bv = arena_printf(a, b.to_fmt, "v");
        const char *st = b.n == 32 ? "int" : "long long";
        /* Triton's pair: signed order of the bits for v >= 0, unsigned for v < 0 */
        return arena_printf(a, "(%s >> %d ? (%s %s %s ? v : x) : ((%s)%s %s (%s)%s ? v : x))", bv,
                      b.n - 1, bv, mx ? "<" : ">", bx, st, bv, mx ? ">" : "<", st, bx);
    }
    case OP_ATOMIC_AND: return "x & v";
    case OP_ATOMIC_OR: return "x | v";
    case OP_ATOMIC_XOR: return "x ^ v";
    default: return "v";
    }
}

/* The helper's name; defines it in e->pre on first use. */
static const char *helper(Emit *e, const Op *op) {
    DType d = (DType)val_type(e->f, op->args[0]).dtype;
    int sem = (int)(op->attr[0] / MEM_NSCOPES), scope = (int)(op->attr[0] % MEM_NSCOPES);
    const char *name = ce_fmt(e, "mt_%s_%s_%s_%s", op_info[op->code].name, dtype_name(d),
                              sem_names[sem], scope_names[scope]);
    const char *decl = ce_fmt(e, " %s(", name);
    if (e->pre && strstr(e->pre, decl))
        return name;
    const char *T = dtype_ctype(d);
    Bits b = bits_of(d);
    bool cas = op->code == OP_ATOMIC_CAS;
    const char *device, *host;
    if (cas) {
        const char *instr = ce_fmt(e, "atom.global.%s.%s.cas.b%d", sem_names[sem],
                                   scope_names[scope], b.n);
        device = ce_fmt(e, "    %s mt_c = %s, mt_v = %s, mt_r;\n%s", b.utype,
                        fmt1(e, b.to_fmt, "cmp"), fmt1(e, b.to_fmt, "v"),
                        asm_line(e, &b, instr, "%2, %3",
                                 ce_fmt(e, "\"%s\"(mt_c), \"%s\"(mt_v)", b.reg, b.reg)));
        host = "    return mt_host_atomic_cas(p, cmp, v);\n";
    } else {
        device = device_rmw(e, op->code, d, &b,
                            ce_fmt(e, "%s.%s", scope_names[scope], sem_names[sem]));
        host = ce_fmt(e, "    return mt_host_atomic_update(p, [v](%s x) -> %s { return %s; });\n",
                      T, T, atomic_update_text(e->f->arena, op->code, d));
    }
    e->pre = ce_fmt(e,
                    "%sstatic __device__ __forceinline__ %s%s%s *p, %s%s v) {\n"
                    "#if defined(__CUDA_ARCH__)\n"
                    "%s    return %s;\n"
                    "#else\n%s#endif\n}\n",
                    e->pre ? e->pre : "", T, decl, T, cas ? ce_fmt(e, "%s cmp, ", T) : "", T,
                    device, from_bits(e, d, &b, "mt_r"), host);
    return name;
}

/* --------------------------------------------------------- the op itself */

/* Does the value's layout hold some element in more than one thread? */
static bool replicated(Func *f, ValId v) {
    Type t = val_type(f, v);
    const Layout *l = &f->layouts[val(f, v)->layout];
    for (int p = 0; p < l->rank; p++) {
        int32_t n = l->rank == t.rank ? t.shape[p]
                    : p == (l->slice_dim == 0 ? 0 : 1) ? 1 : t.shape[0];
        if (n < ce_tile(l, p))
            return true;
    }
    return false;
}

bool atomic_result_shared(Func *f, const Op *op) {
    ValId r = op->res[0];
    if (!region_uses(&f->body, r))
        return false;
    return val_type(f, r).rank == 0 || replicated(f, r);
}

/* The helper's arguments for slot text of the operands. */
static const char *call(Emit *e, const Op *op, const char *fn, const char *const a[3]) {
    if (op->code == OP_ATOMIC_CAS)
        return ce_fmt(e, "%s(%s, %s, %s)", fn, a[0], a[1], a[2]);
    return ce_fmt(e, "%s(%s, %s)", fn, a[0], a[1]);
}

/* A scalar atomic: thread 0 acts; a used result goes through shared
 * memory to every thread. */
static int emit_scalar(Emit *e, Op *op, const char *fn, bool shared) {
    Func *f = e->f;
    ValId res = op->res[0];
    DType d = (DType)val_type(f, res).dtype;
    const char *ct = dtype_ctype(d);
    const char *a[3];
    for (int i = 0; i < 3; i++)
        a[i] = op->args[i] ? ce_vname(e, op->args[i]) : NULL;
    bool masked = op->code != OP_ATOMIC_CAS && a[2];
    const char *cond = masked ? ce_fmt(e, "threadIdx.x == 0 && %s", a[2]) : "threadIdx.x == 0";
    e->name[res] = ce_fmt(e, "v%d", res);
    if (!shared) { /* the result is never read */
        ce_line(e, "if (%s) %s;", cond, call(e, op, fn, a));
        return 0;
    }
    const SharedBuffer *buf = smem_buffer_of(f->smem, op, SMEM_SCRATCH);
    const char *slot = ce_fmt(e, "%s[%s]", ce_scratch(e, val_type(f, res)),
                              ce_smem_text(e, buf, "0", "0", "0"));
    ce_line(e, "if (threadIdx.x == 0) %s = %s%s;", slot,
            masked ? ce_fmt(e, "!%s ? %s : ", a[2], ce_zero(d)) : "", call(e, op, fn, a));
    ce_line(e, "__syncthreads();");
    ce_line(e, "%s v%d = %s;", ct, res, slot);
    ce_line(e, "__syncthreads();");
    return 0;
}

/* A block atomic: each owner acts on its elements; a used result in a
 * replicating layout goes through shared memory to every copy. */
static int emit_block(Emit *e, Op *op, const char *fn, bool used, bool shared) {
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    Dist r = ce_dist_of(e, res);
    const char *a[3];
    for (int i = 0; i < 3; i++)
        a[i] = op->args[i] ? ce_elem(e, op->args[i], &r, op->loc) : NULL;
    const char *own = ce_owner(e, &r, CE_SLOT);
    const char *mk = op->code != OP_ATOMIC_CAS ? a[2] : NULL;
    const char *cond = *own && mk ? ce_fmt(e, "%s && %s", own, mk) : *own ? own : mk;
    const char *ct = dtype_ctype((DType)rt.dtype);
    DType d = (DType)rt.dtype;
    if (!used) { /* the result is never read */
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
        ce_line(e, cond ? "    if (%s) %s;" : "    %s%s;", cond ? cond : "", call(e, op, fn, a));
        return 0;
    }
    e->name[res] = ce_fmt(e, "v%d", res);
    e->dist[res] = r;
    e->has_dist[res] = true;
    ce_line(e, "%s v%d[%d];", ct, res, r.nE);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    if (cond)
        ce_line(e, "    v%d[%s] = (%s) ? %s : %s;", res, CE_SLOT, cond, call(e, op, fn, a),
                ce_zero(d));
    else
        ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT, call(e, op, fn, a));
    if (!shared)
        return 0;
    /* the owners' old values to every copy */
    const SharedBuffer *buf = smem_buffer_of(f->smem, op, SMEM_SCRATCH);
    const char *sm = ce_scratch(e, rt);
    const char *at = ce_smem_text(e, buf, "0", "0", ce_linear_text(e, &r, rt, CE_SLOT));
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    ce_line(e, "    if (%s) %s[%s] = v%d[%s];", own, sm, at, res, CE_SLOT);
    ce_line(e, "__syncthreads();");
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    ce_line(e, "    v%d[%s] = %s[%s];", res, CE_SLOT, sm, at);
    ce_line(e, "__syncthreads();");
    return 0;
}

/* A barrier on the host only (the helper is empty on the GPU, where the
 * text is Triton's): there threads run one after another between
 * barriers, so without it thread 0's scalar atomic could precede another
 * thread's earlier load of the same address, or follow its later one. */
static void host_sync(Emit *e) {
    static const char sync[] = "static __device__ __forceinline__ void mt_atomic_host_sync() {\n"
                               "#if !defined(__CUDA_ARCH__)\n"
                               "    __syncthreads();\n"
                               "#endif\n"
                               "}\n";
    if (!e->pre || !strstr(e->pre, sync))
        e->pre = ce_fmt(e, "%s%s", e->pre ? e->pre : "", sync);
    ce_line(e, "mt_atomic_host_sync();");
}

int ce_emit_atomic(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0];
    const char *fn = helper(e, op);
    bool used = region_uses(&f->body, res), shared = used && atomic_result_shared(f, op);
    host_sync(e);
    int rc = val_type(f, res).rank == 0 ? emit_scalar(e, op, fn, shared)
                                        : emit_block(e, op, fn, used, shared);
    if (!shared) /* else the broadcast ends with a barrier */
        host_sync(e);
    return rc;
}
