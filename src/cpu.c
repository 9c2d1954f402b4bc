/* cpu.c: the cpu backend's C (issue 18): the SSA lowered tile by tile.
 *
 * Input: a verified, optimised Func (no GPU back-end pass: no layouts, no
 * dot plans, no shared memory).  Output: one C function per program,
 *
 *     static void mt_cpu_kernel(mt_host_thread *mt_self, <params>)
 *
 * which host.c compiles with mt_kernel_rt.h and mt_cpu_rt.h into an
 * object that the host backend's worker pool calls once per program.
 *
 * How values become C:
 *   - a scalar is a local (declared where its op is), a constant its
 *     literal (ctext_literal), a parameter v<id>;
 *   - a block value is either a tile, an array in the program's frame
 *     (the worker's scratch memory: tiles can be far larger than a
 *     worker's stack) written by one loop nest in row-major order, or
 *     fused: never stored, its element recomputed as C text wherever it is
 *     read.  Elementwise ops fuse when their only reader is in the same
 *     region and reads as many elements as they have (so no element is
 *     computed twice), and cheap index arithmetic (arange, splats, adds,
 *     compares, address arithmetic) fuses into every reader, so that
 *     `x_ptr + offsets` reaches the load as `v1 + (pid * 1024 + i)`, a
 *     contiguous access the C compiler vectorises;
 *   - broadcast and expand_dims are index arithmetic: a reader's loop
 *     coordinates map to an operand's by NumPy broadcasting, a unit dim
 *     reading coordinate 0 (cpu_map_coords);
 *   - every element's arithmetic is the op's C text of ops.def through
 *     ctext_expand, the very text the CUDA emitter writes, so the two
 *     backends compute the same values (narrow floats in f32, wrapping
 *     integer ops in unsigned arithmetic, Triton's division and shifts);
 *   - a masked load reads an element only where its mask is set (a C
 *     conditional, never a speculative read); a store writes only there;
 *   - a block load is fused too (read in its readers' loops, not into a
 *     tile first) when its readers read each element once, in its region,
 *     and are no reductions;
 *   - a program computes as if whole tile after whole tile, as in Triton's
 *     interpreter: a load is read before anything the program writes after
 *     it.  Before an op that writes memory (store, atomic, a region holding
 *     one), every fused value that reads memory and is still to be read
 *     becomes a tile (flush_live); a store reads the loads fused into its
 *     operands in its own loop only under a run-time check of their
 *     addresses against its own (store_guard) and of its mask being true
 *     for the whole block (mask_all: then unmasked), tiles otherwise; a
 *     tile whose loads share such a mask has an unmasked loop for it too;
 *   - a for loop's yield computed elementwise from its carried value (acc
 *     += x) overwrites the carried tile in place (mark_inplace).
 *
 * Invariants: every op the backend cannot lower yet stops the compilation
 * with a located MT_ERR_UNSUPPORTED error naming it (cpu_op_lowered decides
 * from the op's kind and C text, in one place); the text is deterministic
 * for a given Func. */
#include "mt.h"

#include <string.h>

/* ---------------------------------------------------------------- text */

void cpu_line(CpuEmit *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vline(&e->body, 4 * e->indent, fmt, ap);
    va_end(ap);
}

int cpu_unsupported(CpuEmit *e, const Op *op, const char *what) {
    return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                      "the cpu backend does not support '%s'%s%s yet (the fiber backend, "
                      "MYTRITON_BACKEND=host, does)",
                      op_info[op->code].name, what ? " " : "", what ? what : "");
}

const char *cpu_tmp(CpuEmit *e, const char *prefix) {
    return cpu_fmt(e, "%s%d", prefix, e->tmp++);
}

/* "#line" before an op's text when its line changed: the C compiler's
 * messages, and a debugger, point into the kernel's source. */
static void mark_line(CpuEmit *e, Loc loc) {
    if (loc.line <= 0 || loc.line == e->last_line)
        return;
    e->last_line = loc.line;
    sb_printf(&e->body, "#line %d\n", loc.line);
}

static const char *ctype(Type t) {
    return t.is_ptr ? NULL : dtype_ctype((DType)t.dtype);
}

/* A value's register type as C text (pointers: a pointer to the pointee's
 * memory type). */
static const char *reg_type(CpuEmit *e, Type t) {
    return t.is_ptr ? cpu_fmt(e, "%s *", dtype_mtype((DType)t.dtype)) : ctype(t);
}

/* ---------------------------------------------------------------- tiles */

static int open_loops_inner(CpuEmit *e, Type t, const char **c, int inner);

static int64_t elem_bytes(Type t) {
    return t.is_ptr ? (int64_t)sizeof(void *) : (int64_t)dtype_info[t.dtype].bytes;
}

void cpu_new_tile(CpuEmit *e, ValId v) {
    Type t = val_type(e->f, v);
    int64_t bytes = (type_numel(t) * elem_bytes(t) + 63) & ~(int64_t)63;
    const char *nm = cpu_fmt(e, "v%d", v);
    sb_printf(&e->decl, "    %s *const %s = (%s *)(mt_frame + %lld);\n", reg_type(e, type_elem(t)),
              nm, reg_type(e, type_elem(t)), (long long)e->frame);
    e->frame += bytes;
    e->name[v] = nm;
    e->how[v] = CPU_TILE;
}

int cpu_open_loops(CpuEmit *e, Type t, const char **c) {
    return open_loops_inner(e, t, c, -1);
}

/* The loops over t with dim `inner` innermost (-1: the last, row-major). */
static int open_loops_inner(CpuEmit *e, Type t, const char **c, int inner) {
    int n = 0;
    int order[CPU_MAX_RANK];
    for (int d = 0, k = 0; d < t.rank; d++)
        if (d != inner)
            order[k++] = d;
    if (inner >= 0)
        order[t.rank - 1] = inner;
    for (int k = 0; k < t.rank; k++) {
        int d = order[k];
        if (t.shape[d] == 1) {
            c[d] = "0";
            continue;
        }
        c[d] = cpu_fmt(e, "mt_i%d", d);
        cpu_line(e, "for (int %s = 0; %s < %d; %s++) {", c[d], c[d], t.shape[d], c[d]);
        e->indent++;
        n++;
    }
    return n;
}

void cpu_close_loops(CpuEmit *e, int n) {
    for (int i = 0; i < n; i++) {
        e->indent--;
        cpu_line(e, "}");
    }
}

void cpu_map_coords(Type rt, const char *const *c, Type vt, const char **out) {
    int off = rt.rank - vt.rank;
    for (int d = 0; d < vt.rank; d++)
        out[d] = vt.shape[d] == 1 || d + off < 0 ? "0" : c[d + off];
}

const char *cpu_index(CpuEmit *e, Type t, const char *const *c) {
    const char *acc = NULL;
    int64_t stride = 1;
    for (int d = t.rank - 1; d >= 0; d--) {
        if (strcmp(c[d], "0") != 0) {
            const char *term = stride == 1 ? c[d] : cpu_fmt(e, "%s * %lld", c[d], (long long)stride);
            acc = acc ? cpu_fmt(e, "%s + %s", term, acc) : term;
        }
        stride *= t.shape[d];
    }
    return acc ? acc : "0";
}

/* ------------------------------------------------- element expressions */

static const char *fused_elem(CpuEmit *e, ValId v, const char *const *c);
static const char *load_elem(CpuEmit *e, Op *op, Type s, const char *const *c);

/* A signed offset, added to a pointer: computed exactly in long long
 * rather than wrapping.  The two differ only where the
 * wrapping sum overflowed, whose address is out of the tensor on the GPU
 * as well (so the access is masked off, or the program is wrong either
 * way); exact arithmetic is affine in the loop's coordinates, which is
 * what lets the C compiler see a contiguous access and vectorise it. */
static const char *exact_offset(CpuEmit *e, Op *op, const char *const *c) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]);
    const char *x[2];
    for (int i = 0; i < 2; i++) {
        const char *oc[CPU_MAX_RANK];
        cpu_map_coords(rt, c, val_type(f, op->args[i]), oc);
        x[i] = cpu_elem(e, op->args[i], oc);
    }
    const char *sym = op->code == OP_ADD ? "+" : op->code == OP_SUB ? "-" : "*";
    return cpu_fmt(e, "((long long)%s %s (long long)%s)", x[0], sym, x[1]);
}

/* The element of a fused value at its coordinates c. */
static const char *fused_elem(CpuEmit *e, ValId v, const char *const *c) {
    Func *f = e->f;
    Op *op = val(f, v)->def;
    Type rt = val_type(f, v);
    switch (op->code) {
    case OP_ARANGE:
        return strcmp(c[0], "0") == 0 ? cpu_fmt(e, "%lld", (long long)op->attr[0])
               : op->attr[0]          ? cpu_fmt(e, "(%lld + %s)", (long long)op->attr[0], c[0])
                                      : c[0];
    case OP_ZEROS:
    case OP_EMPTY:
        return ce_zero((DType)rt.dtype);
    case OP_EXPAND_DIMS: {
        const char *oc[CPU_MAX_RANK];
        for (int d = 0, k = 0; d < rt.rank; d++)
            if (d != op->attr[0])
                oc[k++] = c[d];
        return cpu_elem(e, op->args[0], oc);
    }
    case OP_LOAD:
        return load_elem(e, op, rt, c);
    default:
        break;
    }
    if (e->exact && (op->code == OP_ADD || op->code == OP_SUB || op->code == OP_MUL) &&
        dtype_is_int((DType)rt.dtype) && !dtype_is_unsigned((DType)rt.dtype))
        return exact_offset(e, op, c);
    if (op->code == OP_SELECT && op->args[0] == e->true_mask &&
        type_eq(type_elem(val_type(f, op->args[1])), type_elem(rt))) {
        const char *oc[CPU_MAX_RANK]; /* where(mask, x, y) where mask holds */
        cpu_map_coords(rt, c, val_type(f, op->args[1]), oc);
        return cpu_elem(e, op->args[1], oc);
    }
    bool offset = op->code == OP_ADDPTR;
    const char *a[MT_ELEM_OPERANDS] = {NULL, NULL, NULL, NULL};
    Type at[MT_ELEM_OPERANDS];
    for (int i = 0; i < op->nargs && i < MT_ELEM_OPERANDS; i++) {
        if (!op->args[i])
            continue;
        at[i] = val_type(f, op->args[i]);
        const char *oc[CPU_MAX_RANK];
        cpu_map_coords(rt, c, at[i], oc);
        e->exact += offset && i == 1;
        a[i] = cpu_elem(e, op->args[i], oc);
        e->exact -= offset && i == 1;
    }
    return ctext_expand_op(f->arena, op, a, at, op->nargs, rt);
}

const char *cpu_elem(CpuEmit *e, ValId v, const char *const *c) {
    Value *x = val(e->f, v);
    if (x->kind == VK_CONST)
        return ctext_literal(e->f->arena, x->type, x);
    if (x->type.rank == 0 || e->how[v] == CPU_NAMED)
        return e->name[v];
    if (e->how[v] == CPU_FUSED)
        return cpu_fmt(e, "(%s)", fused_elem(e, v, c));
    return cpu_fmt(e, "%s[%s]", e->name[v], cpu_index(e, x->type, c));
}

/* ------------------------------------------------------------- fusion */

/* Ops whose result may be recomputed at its readers: pure elementwise
 * ops with a C text, and the constructors and shape op that are index
 * arithmetic. */
static bool fusable_op(const Op *op) {
    const OpInfo *oi = &op_info[op->code];
    if (op->code == OP_ARANGE || op->code == OP_ZEROS || op->code == OP_EMPTY ||
        op->code == OP_EXPAND_DIMS)
        return true;
    return oi->kind == K_ELEMENTWISE && (oi->flags & F_PURE) && op->nres == 1 &&
           op_has_text(op);
}

/* Cheap enough to recompute at every reader: index and mask arithmetic. */
static bool cheap_op(const Op *op) {
    switch (op->code) {
    case OP_ARANGE: case OP_ZEROS: case OP_EMPTY: case OP_FULL: case OP_EXPAND_DIMS:
    case OP_BROADCAST: case OP_ADD: case OP_SUB: case OP_MUL: case OP_ADDPTR: case OP_CAST:
    case OP_CMP_LT: case OP_CMP_LE: case OP_CMP_GT: case OP_CMP_GE: case OP_CMP_EQ:
    case OP_CMP_NE: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_NEG:
    case OP_SELECT: case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY:
        return true;
    default:
        return false;
    }
}

#define CPU_CHEAP_COST 24 /* ops of one recomputed index expression at most */
#define CPU_LOAD_READERS 4 /* ops reading one fused load at most */
#define CPU_GUARD_LOADS 8  /* fused loads a store checks its addresses against */
#define CPU_FUSED_COST 64 /* ops of one fused chain: longer ones are cut into
                             tiles (an unrolled loop's chain of thousands of
                             ops would nest that deep in C) */

/* The ops a fused value's text holds (fused operands counted in). */
static int fused_cost(CpuEmit *e, ValId v) {
    Value *x = val(e->f, v);
    if (x->kind != VK_OP || e->how[v] != CPU_FUSED)
        return 0;
    int n = 1;
    for (int i = 0; i < x->def->nargs; i++)
        if (x->def->args[i])
            n += fused_cost(e, x->def->args[i]);
    return n;
}

/* Whether op's result is fused: decided when the op is reached, its
 * operands' decisions made. */
static bool decide_fused(CpuEmit *e, Op *op, Region *r) {
    ValId v = op->res[0];
    Type t = val_type(e->f, v);
    if (!t.rank || !fusable_op(op) || e->whole[v])
        return false;
    bool cheap = cheap_op(op);
    int cost = 1;
    for (int i = 0; i < op->nargs; i++) {
        ValId a = op->args[i];
        if (!a)
            continue;
        if (val(e->f, a)->kind == VK_OP && e->how[a] == CPU_FUSED && !cheap_op(val(e->f, a)->def))
            cheap = false; /* an expensive chain is computed once */
        cost += fused_cost(e, a);
    }
    if (cheap && cost <= CPU_CHEAP_COST)
        return true;
    return e->readers[v] == 1 && e->home[v] == r && e->use_numel[v] == type_numel(t) &&
           cost <= CPU_FUSED_COST;
}

/* Marks v fused; one that reads memory (a fused load, or a fused operand
 * that does) joins the live list, which the next op writing memory
 * empties (flush_live). */
static void set_fused(CpuEmit *e, ValId v, bool reads) {
    Op *op = val(e->f, v)->def;
    for (int i = 0; i < op->nargs && !reads; i++)
        reads = op->args[i] && e->mem[op->args[i]] && e->how[op->args[i]] == CPU_FUSED;
    e->how[v] = CPU_FUSED;
    e->mem[v] = reads;
    if (!reads)
        return;
    if (e->nlive == e->cap_live) {
        int cap = e->cap_live ? 2 * e->cap_live : 16;
        ValId *nl = arena_alloc(e->f->arena, sizeof(ValId) * (size_t)cap);
        if (!nl) {
            e->body.failed = true; /* reported as out of memory by cpu_emit */
            return;
        }
        if (e->nlive)
            memcpy(nl, e->live, sizeof(ValId) * (size_t)e->nlive);
        e->live = nl;
        e->cap_live = cap;
    }
    e->live[e->nlive++] = v;
}

static int memory_inner(CpuEmit *e, ValId p, Type s);

static const char *mask_all(CpuEmit *e, ValId m, Type s, int d);
static int single_dim(Type t);

/* The mask every masked load in v's fused text (v's own op included)
 * reads under, into *m; false when they have several. */
static bool load_mask(CpuEmit *e, ValId v, bool top, ValId *m) {
    Value *x = val(e->f, v);
    if (x->kind != VK_OP || (!top && e->how[v] != CPU_FUSED))
        return true;
    Op *op = x->def;
    if (op->code == OP_LOAD && op->args[1]) {
        if (*m && *m != op->args[1])
            return false;
        *m = op->args[1];
    }
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i] && !load_mask(e, op->args[i], false, m))
            return false;
    return true;
}

/* v's elements computed into a tile of its own, here: one loop nest in
 * row-major order (a load's innermost along its contiguous dim).  A
 * loop's yield that may overwrite its carried value in place (inplace[v])
 * writes into that value's tile instead.  `version`: where the loads in
 * its text share one mask that mask_all can prove true for the whole
 * block, a second loop nest runs then, reading them (and selects on that
 * mask) without it (layer norm 10% faster, row moments 6%). */
static bool emit_tile(CpuEmit *e, ValId v, bool version) {
    Op *op = val(e->f, v)->def;
    Type rt = val_type(e->f, v);
    ValId m = 0, saved = e->true_mask;
    int d = single_dim(rt);
    const char *all = NULL;
    if (version && d >= 0 && load_mask(e, v, true, &m) && m)
        all = mask_all(e, m, rt, d);
    if (e->inplace[v]) {
        e->name[v] = e->name[e->inplace[v]];
        e->how[v] = CPU_TILE;
    } else {
        cpu_new_tile(e, v);
    }
    e->mem[v] = false;
    if (all) {
        cpu_line(e, "if (%s) {", all);
        e->indent++;
    }
    for (int pass = all ? 0 : 1; pass < 2; pass++) {
        const char *c[CPU_MAX_RANK];
        e->true_mask = pass ? saved : m;
        e->how[v] = CPU_FUSED; /* its element text, written into the tile */
        int n = open_loops_inner(e, rt, c, op->code == OP_LOAD ? memory_inner(e, op->args[0], rt) : -1);
        const char *x = fused_elem(e, v, c);
        e->how[v] = CPU_TILE;
        e->true_mask = saved;
        if (!x)
            return false;
        cpu_line(e, "%s[%s] = %s;", e->name[v], cpu_index(e, rt, c), x);
        cpu_close_loops(e, n);
        if (!pass) {
            e->indent--;
            cpu_line(e, "} else {");
            e->indent++;
        }
    }
    if (all) {
        e->indent--;
        cpu_line(e, "}");
    }
    return true;
}

/* Before an op that writes memory: every fused value that reads memory
 * and has a reader still to come becomes a tile here, so that it holds
 * what memory held before the write (a program loads whole tiles before
 * it stores, as Triton's semantics and the fiber backend have it).  The
 * writer's own operands are among them (a store's loop must not read
 * through a fused load memory it may be overwriting), except a store's
 * operands that only the store reads: emit_store checks their addresses.
 * Values already read by all their readers stay as they were (their
 * texts were written). */
static void flush_live(CpuEmit *e, const Op *w) {
    for (int i = 0; i < e->nlive; i++) {
        ValId v = e->live[i];
        if (e->how[v] != CPU_FUSED || e->pending[v] <= 0)
            continue;
        int mine = 0; /* a store's own operands: emit_store decides */
        for (int j = 0; j < w->nargs && w->code == OP_STORE; j++)
            mine += w->args[j] == v;
        if (mine < e->pending[v] && !emit_tile(e, v, false))
            cpu_unsupported(e, val(e->f, v)->def, NULL);
    }
    e->nlive = 0;
}

static bool is_memory_write(const Op *op) {
    return op->code == OP_STORE || (op_info[op->code].kind == K_MEMORY && op->code != OP_LOAD);
}

/* Does op write memory (a store, an atomic, or a region op holding one)? */
static bool writes_memory(const Op *op) { return op_holds(op, is_memory_write); }

/* ----------------------------------------------------- elementwise ops */

/* A tile (or scalar) result computed element by element from text. */
static int emit_computed(CpuEmit *e, Op *op, Region *r) {
    Func *f = e->f;
    ValId v = op->res[0];
    Type rt = val_type(f, v);
    if (rt.rank == 0) {
        const char *none[1] = {NULL};
        const char *x = fused_elem(e, v, none);
        if (!x)
            return cpu_unsupported(e, op, NULL);
        e->name[v] = cpu_fmt(e, "v%d", v);
        cpu_line(e, "%s %s = %s;", reg_type(e, rt), e->name[v], x);
        return 0;
    }
    if (decide_fused(e, op, r)) {
        set_fused(e, v, false);
        return 0;
    }
    if (op->code == OP_EXPAND_DIMS && e->how[op->args[0]] == CPU_TILE) {
        e->name[v] = e->name[op->args[0]]; /* the same elements in row-major order */
        e->how[v] = CPU_TILE;
        return 0;
    }
    return emit_tile(e, v, true) ? 0 : cpu_unsupported(e, op, NULL);
}

/* ------------------------------------------------------------- memory */

/* How v's element moves when coordinate d (of v's own rank) steps by one:
 * 0 not at all, 1 by one element, -1 otherwise or unknown.  Read off the
 * fused index arithmetic (arange, broadcasts, sums), for memory_inner. */
static int step_of(CpuEmit *e, ValId v, int d) {
    Value *x = val(e->f, v);
    if (x->type.rank == 0 || x->type.shape[d] == 1)
        return 0;
    if (x->kind != VK_OP || e->how[v] != CPU_FUSED)
        return -1;
    Op *op = x->def;
    if (op->code == OP_ARANGE)
        return 1;
    if (op->code == OP_ZEROS || op->code == OP_EMPTY)
        return 0;
    if (op->code == OP_EXPAND_DIMS)
        return d == op->attr[0] ? 0 : step_of(e, op->args[0], d < op->attr[0] ? d : d - 1);
    int st[3] = {0, 0, 0};
    for (int i = 0; i < op->nargs && i < 3; i++) {
        if (!op->args[i])
            continue;
        Type at = val_type(e->f, op->args[i]);
        int od = d - (x->type.rank - at.rank);
        st[i] = od < 0 || at.rank == 0 ? 0 : step_of(e, op->args[i], od);
        if (st[i] < 0)
            return -1;
    }
    switch (op->code) {
    case OP_ADD: case OP_ADDPTR: {
        int sum = st[0] + st[1];
        return sum <= 1 ? sum : -1;
    }
    case OP_SUB:
        return st[1] == 0 ? st[0] : -1;
    case OP_BROADCAST: case OP_CAST: case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY:
        return st[0];
    default:
        return st[0] || st[1] || st[2] ? -1 : 0;
    }
}

/* The dim a memory op's loops should run innermost: the one its pointer
 * steps through memory contiguously along, when that is not the last
 * (a transposed store writes rows of memory, not columns); -1: the last. */
static int memory_inner(CpuEmit *e, ValId p, Type s) {
    Type pt = val_type(e->f, p);
    if (s.rank < 2 || pt.rank != s.rank || step_of(e, p, s.rank - 1) == 1)
        return -1;
    for (int d = s.rank - 2; d >= 0; d--)
        if (step_of(e, p, d) == 1)
            return d;
    return -1;
}

/* The shape a memory op runs over: its operands broadcast together. */
static Type memory_shape(Func *f, const Op *op, int nops) {
    Type s = type_scalar(DT_I32);
    for (int i = 0; i < nops && i < op->nargs; i++) {
        Type t;
        if (op->args[i] && broadcast_shapes(s, val_type(f, op->args[i]), &t) == 0)
            s = t;
    }
    return s;
}

static const char *operand_at(CpuEmit *e, const Op *op, int i, Type s, const char *const *c) {
    const char *oc[CPU_MAX_RANK];
    cpu_map_coords(s, c, val_type(e->f, op->args[i]), oc);
    return cpu_elem(e, op->args[i], oc);
}

/* Volatile loads read through a volatile pointer; the cache hints mean
 * nothing to a CPU. */
static const char *deref(CpuEmit *e, const Op *op, const char *p, DType d) {
    if (op->attr[0] == MEM_VOLATILE)
        p = cpu_fmt(e, "((const volatile %s *)%s)", dtype_mtype(d), p);
    return d == DT_I1 ? cpu_fmt(e, "(*%s != 0)", p) : cpu_fmt(e, "*%s", p);
}

/* A load's element at coordinates c of the shape s it runs over: a
 * masked-off element is never read (a C conditional, which the C compiler
 * vectorises as a masked load). */
static const char *load_elem(CpuEmit *e, Op *op, Type s, const char *const *c) {
    Func *f = e->f;
    DType d = (DType)val_type(f, op->res[0]).dtype;
    const char *x = deref(e, op, operand_at(e, op, 0, s, c), d);
    if (!op->args[1] || op->args[1] == e->true_mask)
        return x;
    const char *other = op->args[2] ? ctext_convert(f->arena, operand_at(e, op, 2, s, c),
                                                    val_type(f, op->args[2]), type_scalar(d))
                                    : ce_zero(d);
    return cpu_fmt(e, "%s ? %s : %s", operand_at(e, op, 1, s, c), x, other);
}

/* Whether a block load is read where its readers run instead of into a
 * tile of its own: every reader reads it element by element, once per
 * element, in its own region; a volatile load is read exactly once.  A
 * load a reduction reads stays a tile: GCC 12 versions a reduction's lane
 * loop for aliasing when it reads through a pointer, row softmax ran 20%
 * slower.  Its readers are ahead; an op writing memory before they are
 * done makes it a tile after all (flush_live). */
static bool load_fused(CpuEmit *e, Op *op) {
    ValId v = op->res[0];
    if (op->attr[0] == MEM_VOLATILE || e->whole[v] || e->nested[v] || e->reduced[v] ||
        e->use_numel[v] != type_numel(val_type(e->f, v)) || e->readers[v] > CPU_LOAD_READERS)
        return false;
    int cost = 1;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i])
            cost += fused_cost(e, op->args[i]);
    return cost <= CPU_FUSED_COST;
}

static int emit_load(CpuEmit *e, Op *op) {
    ValId v = op->res[0];
    Type rt = val_type(e->f, v);
    if (rt.rank) {
        if (load_fused(e, op))
            set_fused(e, v, true);
        else if (!emit_tile(e, v, true))
            return cpu_unsupported(e, op, NULL);
        return 0;
    }
    e->name[v] = cpu_fmt(e, "v%d", v);
    cpu_line(e, "%s %s = %s;", reg_type(e, rt), e->name[v], load_elem(e, op, rt, NULL));
    return 0;
}

/* A condition that holds when mask m (a fused bool over the shape s, which
 * runs along its one dim d) is true for every element: for a comparison of
 * an index that steps by one along d with a bound that stays, the first
 * and last elements' (the index not wrapping in between), and both sides of
 * an and.  NULL for any other mask. */
static const char *mask_all(CpuEmit *e, ValId m, Type s, int d) {
    Value *x = val(e->f, m);
    if (x->kind == VK_CONST)
        return x->c.i ? "1" : NULL;
    if (x->type.rank == 0)
        return e->name[m];
    if (x->kind != VK_OP || e->how[m] != CPU_FUSED || x->type.rank != s.rank)
        return NULL;
    Op *op = x->def;
    if (op->code == OP_AND) {
        const char *a = mask_all(e, op->args[0], s, d), *b = mask_all(e, op->args[1], s, d);
        return a && b ? cpu_fmt(e, "(%s && %s)", a, b) : NULL;
    }
    bool lt = op->code == OP_CMP_LT || op->code == OP_CMP_LE;
    if (!lt && op->code != OP_CMP_GT && op->code != OP_CMP_GE)
        return NULL;
    ValId idx = op->args[lt ? 0 : 1], bound = op->args[lt ? 1 : 0];
    Type it = val_type(e->f, idx), bt = val_type(e->f, bound);
    if (!dtype_is_int((DType)it.dtype) || dtype_is_unsigned((DType)it.dtype) ||
        it.rank != s.rank || step_of(e, idx, d) != 1 ||
        (bt.rank && (bt.rank != s.rank || step_of(e, bound, d) != 0)))
        return NULL;
    const char *c[CPU_MAX_RANK];
    for (int k = 0; k < s.rank; k++)
        c[k] = "0";
    const char *i0 = cpu_elem(e, idx, c), *b = cpu_elem(e, bound, c);
    c[d] = cpu_fmt(e, "%d", s.shape[d] - 1);
    const char *i1 = cpu_elem(e, idx, c);
    bool eq = op->code == OP_CMP_LE || op->code == OP_CMP_GE;
    return cpu_fmt(e, "(%s <= %s && %s %s %s)", i0, i1, i1, eq ? "<=" : "<", b);
}

/* The store's loop over its shape, reading its operands' texts (without
 * its mask unless `masked`). */
static void store_loop(CpuEmit *e, Op *op, Type s, bool masked) {
    Func *f = e->f;
    Type pt = val_type(f, op->args[0]);
    const char *c[CPU_MAX_RANK];
    int n = open_loops_inner(e, s, c, memory_inner(e, op->args[0], s));
    const char *p = operand_at(e, op, 0, s, c);
    if (op->attr[0] == MEM_VOLATILE)
        p = cpu_fmt(e, "((volatile %s *)%s)", dtype_mtype((DType)pt.dtype), p);
    const char *x = ctext_convert(f->arena, operand_at(e, op, 1, s, c),
                                  type_elem(val_type(f, op->args[1])),
                                  type_scalar((DType)pt.dtype));
    if (op->args[2] && masked)
        cpu_line(e, "if (%s) *%s = %s;", operand_at(e, op, 2, s, c), p, x);
    else
        cpu_line(e, "*%s = %s;", p, x);
    cpu_close_loops(e, n);
}

/* The fused loads v's text reads (at most CPU_GUARD_LOADS; one more when
 * there are more), appended to out[0..n). */
static int fused_loads(CpuEmit *e, ValId v, ValId *out, int n) {
    Value *x = val(e->f, v);
    if (x->kind != VK_OP || e->how[v] != CPU_FUSED || !e->mem[v] || n > CPU_GUARD_LOADS)
        return n;
    if (x->def->code == OP_LOAD)
        out[n++] = v;
    for (int i = 0; i < x->def->nargs; i++)
        if (x->def->args[i])
            n = fused_loads(e, x->def->args[i], out, n);
    return n;
}

/* The one dim of t longer than 1; -1 when there are none or several. */
static int single_dim(Type t) {
    int d = -1;
    for (int k = 0; k < t.rank; k++)
        if (t.shape[k] > 1) {
            if (d >= 0)
                return -1;
            d = k;
        }
    return d;
}

/* The bytes [lo, hi) a memory op's pointer reaches over the shape s when
 * it runs along one dim, one element per step (read off the fused index
 * arithmetic): its addresses at the first and the last element, as
 * uintptr_t texts.  False for any other pointer. */
static bool byte_range(CpuEmit *e, const Op *op, Type s, const char **lo, const char **hi) {
    ValId p = op->args[0];
    int d = single_dim(s);
    if (d < 0 || val_type(e->f, p).rank != s.rank || step_of(e, p, d) != 1)
        return false;
    const char *c[CPU_MAX_RANK];
    for (int k = 0; k < s.rank; k++)
        c[k] = "0";
    *lo = cpu_fmt(e, "(uintptr_t)(%s)", operand_at(e, op, 0, s, c));
    c[d] = cpu_fmt(e, "%d", s.shape[d] - 1);
    *hi = cpu_fmt(e, "(uintptr_t)(%s + 1)", operand_at(e, op, 0, s, c));
    return true;
}

/* A run-time condition under which a store may read the loads fused into
 * its operands in its own loop, element by element in ascending order:
 * each load's bytes lie wholly before or after the store's, or (the same
 * element size and count) start at or after the store's first byte, so
 * that no element is read after the loop has written it (an in-place
 * update, x[i] = f(x[i]), and a shift towards lower addresses pass; a
 * shift towards higher ones does not).  NULL when the addresses are not
 * contiguous runs the text can bound. */
static const char *store_guard(CpuEmit *e, Op *op, Type s, const ValId *loads, int n) {
    Func *f = e->f;
    const char *s0, *s1, *guard = NULL;
    if (op->attr[0] == MEM_VOLATILE || !byte_range(e, op, s, &s0, &s1))
        return NULL;
    int bytes = dtype_info[val_type(f, op->args[0]).dtype].bytes;
    for (int i = 0; i < n; i++) {
        Op *ld = val(f, loads[i])->def;
        Type lt = val_type(f, loads[i]);
        const char *l0, *l1;
        if (!byte_range(e, ld, lt, &l0, &l1))
            return NULL;
        bool same = dtype_info[lt.dtype].bytes == bytes && type_numel(lt) == type_numel(s);
        const char *ok = cpu_fmt(e, "(%s <= %s || %s >= %s)", l1, s0, l0, same ? s0 : s1);
        guard = guard ? cpu_fmt(e, "%s && %s", guard, ok) : ok;
    }
    return guard;
}

/* A store whose operands read fused loads runs them in its own loop where
 * store_guard holds at run time; otherwise (and where it cannot say) they
 * become tiles first, read before anything is written. */
static int emit_store(CpuEmit *e, Op *op) {
    Func *f = e->f;
    Type s = memory_shape(f, op, 3);
    ValId loads[CPU_GUARD_LOADS + 1];
    int nl = 0;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i])
            nl = fused_loads(e, op->args[i], loads, nl);
    if (!nl) {
        store_loop(e, op, s, true);
        return 0;
    }
    const char *guard = nl <= CPU_GUARD_LOADS ? store_guard(e, op, s, loads, nl) : NULL;
    /* a block wholly in bounds stores without its mask, and its loads and
     * selects on the same mask read without it; a partial block takes the
     * tiles (GCC 12 kept the masked-off lanes of loads under a store's
     * `if` in memory across iterations: saxpy ran 15% slower) */
    const char *all = guard && op->args[2] ? mask_all(e, op->args[2], s, single_dim(s)) : NULL;
    if (guard) {
        cpu_line(e, "if (%s%s%s) {", guard, all ? " && " : "", all ? all : "");
        e->indent++;
        e->true_mask = all ? op->args[2] : 0;
        store_loop(e, op, s, !all);
        e->true_mask = 0;
        e->indent--;
        cpu_line(e, "} else {");
        e->indent++;
    }
    for (int i = 0; i < op->nargs; i++) {
        ValId a = op->args[i];
        if (a && e->how[a] == CPU_FUSED && e->mem[a] && !emit_tile(e, a, false))
            return cpu_unsupported(e, val(f, a)->def, NULL);
    }
    store_loop(e, op, s, true);
    if (guard) {
        e->indent--;
        cpu_line(e, "}");
    }
    return 0;
}

/* ------------------------------------------------------- control flow */

/* A region op's results and a loop's carried values share storage: tiles
 * or locals declared before the op. */
static void declare_results(CpuEmit *e, Op *op) {
    for (int k = 0; k < op->nres; k++) {
        ValId r = op->res[k];
        Type t = val_type(e->f, r);
        if (t.rank) {
            cpu_new_tile(e, r);
        } else {
            e->name[r] = cpu_fmt(e, "v%d", r);
            cpu_line(e, "%s %s;", reg_type(e, t), e->name[r]);
        }
        if (op->iters && k < op_niters(op)) {
            e->name[op->iters[k]] = e->name[r];
            e->how[op->iters[k]] = e->how[r];
        }
    }
}

/* dst (a result's storage) = the value y, element by element. */
static void copy_value(CpuEmit *e, ValId r, const char *dst, ValId y) {
    Type t = val_type(e->f, r);
    const char *c[CPU_MAX_RANK];
    int n = cpu_open_loops(e, t, c);
    const char *yc[CPU_MAX_RANK];
    cpu_map_coords(t, c, val_type(e->f, y), yc);
    if (t.rank)
        cpu_line(e, "%s[%s] = %s;", dst, cpu_index(e, t, c), cpu_elem(e, y, yc));
    else
        cpu_line(e, "%s = %s;", dst, cpu_elem(e, y, yc));
    cpu_close_loops(e, n);
}

/* Does fused v's text read the storage of r (a loop's carried value)? */
static bool region_uses_name(CpuEmit *e, ValId v, ValId r) {
    Value *x = val(e->f, v);
    if (x->kind == VK_CONST)
        return false;
    if (e->how[v] != CPU_FUSED)
        return e->name[v] && strcmp(e->name[v], e->name[r]) == 0;
    for (int i = 0; i < x->def->nargs; i++)
        if (x->def->args[i] && region_uses_name(e, x->def->args[i], r))
            return true;
    return false;
}

/* A scratch of type t's shape for a parallel copy: a tile, or a local. */
static const char *temp_like(CpuEmit *e, Type t) {
    const char *nm = cpu_tmp(e, "mt_y");
    if (!t.rank) {
        cpu_line(e, "%s %s;", reg_type(e, t), nm);
        return nm;
    }
    int64_t bytes = (type_numel(t) * elem_bytes(t) + 63) & ~(int64_t)63;
    sb_printf(&e->decl, "    %s *const %s = (%s *)(mt_frame + %lld);\n",
              reg_type(e, type_elem(t)), nm, reg_type(e, type_elem(t)), (long long)e->frame);
    e->frame += bytes;
    return nm;
}

/* dst = src, two stores of type t's shape (tiles or scalars). */
static void copy_storage(CpuEmit *e, Type t, const char *dst, const char *src) {
    if (!t.rank) {
        cpu_line(e, "%s = %s;", dst, src);
        return;
    }
    cpu_line(e, "memcpy(%s, %s, %lld);", dst, src, (long long)(type_numel(t) * elem_bytes(t)));
}

static bool same_storage(CpuEmit *e, ValId y, ValId r) {
    return val(e->f, y)->kind != VK_CONST && e->how[y] != CPU_FUSED && e->name[y] &&
           strcmp(e->name[y], e->name[r]) == 0;
}

/* The values ys into the op's results: a parallel copy, through
 * temporaries when a yield reads a result another copy overwrites. */
static void copy_yields(CpuEmit *e, Op *op, const ValId *ys) {
    Func *f = e->f;
    int n = op->nres;
    bool clash = false;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            if (j != k && (same_storage(e, ys[k], op->res[j]) ||
                           (e->how[ys[k]] == CPU_FUSED && region_uses_name(e, ys[k], op->res[j]))))
                clash = true;
    const char **tmp = arena_alloc(f->arena, sizeof(char *) * (size_t)(n ? n : 1));
    for (int k = 0; k < n && clash; k++) {
        if (same_storage(e, ys[k], op->res[k]))
            continue;
        Type t = val_type(f, op->res[k]);
        tmp[k] = temp_like(e, t);
        copy_value(e, op->res[k], tmp[k], ys[k]);
    }
    for (int k = 0; k < n; k++) {
        if (same_storage(e, ys[k], op->res[k]))
            continue; /* yields itself */
        if (clash)
            copy_storage(e, val_type(f, op->res[k]), e->name[op->res[k]], tmp[k]);
        else
            copy_value(e, op->res[k], e->name[op->res[k]], ys[k]);
    }
}

/* The loop's head (ctext_for_head, as cuda.c's). */
static void open_for(CpuEmit *e, Op *op, const char *iv) {
    Func *f = e->f;
    const char *none[1] = {NULL}, *lines[3];
    const char *trip = cpu_tmp(e, "mt_trip"), *k = cpu_tmp(e, "mt_k"); /* in this order */
    int n = ctext_for_head(f->arena, val_type(f, op->index).dtype == DT_I64,
                           val_is_const(f, op->args[2]) && val(f, op->args[2])->c.i == 1,
                           cpu_elem(e, op->args[0], none), cpu_elem(e, op->args[1], none),
                           cpu_elem(e, op->args[2], none), iv, trip, k, lines);
    for (int i = 0; i < n; i++) {
        cpu_line(e, "%s", lines[i]);
        if (lines[i][strlen(lines[i]) - 1] == '{')
            e->indent++;
    }
}

/* A region's ops and then its yields into op's results, one level in. */
static int emit_branch(CpuEmit *e, Op *op, Region *r, const ValId *ys) {
    e->indent++;
    if (cpu_emit_region(e, r) < 0)
        return -1;
    copy_yields(e, op, ys);
    e->indent--;
    return 0;
}

/* A for loop's yield computed into its carried value's tile in place: an
 * elementwise op (acc + x) that is the yield's only reader and reads the
 * carried value, which nothing else reads, at its own coordinates (the
 * same shape): each element reads the old value of the one it writes, and
 * nothing reads the old tile afterwards.  Saves the copy back at the end
 * of every iteration (emit_tile, copy_yields). */
static void mark_inplace(CpuEmit *e, Op *op) {
    Func *f = e->f;
    for (int k = 0; k < op->nres; k++) {
        ValId y = op->yields[k], it = op->iters[k];
        Value *yv = val(f, y);
        if (yv->kind != VK_OP || e->home[y] != op->body || e->uses[y] != 1 || e->uses[it] != 1)
            continue;
        Op *d = yv->def;
        Type yt = val_type(f, y);
        if (op_info[d->code].kind != K_ELEMENTWISE || !yt.rank || !type_eq(yt, val_type(f, it)))
            continue;
        for (int i = 0; i < d->nargs; i++)
            if (d->args[i] == it)
                e->inplace[y] = it;
    }
}

static int emit_for(CpuEmit *e, Op *op) {
    declare_results(e, op);
    mark_inplace(e, op);
    for (int k = 0; k < op->nres; k++)
        copy_value(e, op->res[k], e->name[op->res[k]], op->args[3 + k]);
    const char *iv = cpu_fmt(e, "v%d", op->index);
    e->name[op->index] = iv;
    open_for(e, op, iv); /* one level in already */
    e->indent--;
    if (emit_branch(e, op, op->body, op->yields) < 0)
        return -1;
    cpu_line(e, "}");
    return 0;
}

static int emit_if(CpuEmit *e, Op *op) {
    declare_results(e, op);
    const char *none[1] = {NULL};
    cpu_line(e, "if (%s) {", cpu_elem(e, op->args[0], none));
    if (emit_branch(e, op, op->body, op->yields) < 0)
        return -1;
    cpu_line(e, "} else {");
    if (emit_branch(e, op, op->alt, op->alt_yields) < 0)
        return -1;
    cpu_line(e, "}");
    return 0;
}

/* while: the condition region, a break when it is false, the body. */
static int emit_while(CpuEmit *e, Op *op) {
    declare_results(e, op);
    for (int k = 0; k < op->nres; k++)
        copy_value(e, op->res[k], e->name[op->res[k]], op->args[k]);
    cpu_line(e, "for (;;) {");
    e->indent++;
    if (cpu_emit_region(e, op->alt) < 0)
        return -1;
    const char *none[1] = {NULL};
    cpu_line(e, "if (!%s)", cpu_elem(e, op->alt_yields[0], none));
    cpu_line(e, "    break;");
    e->indent--;
    if (emit_branch(e, op, op->body, op->yields) < 0)
        return -1;
    cpu_line(e, "}");
    return 0;
}

/* ------------------------------------------------------------- driver */

static int emit_grid(CpuEmit *e, Op *op) {
    ValId v = op->res[0];
    e->name[v] = cpu_fmt(e, "v%d", v);
    cpu_line(e, "int %s = (int)mt_self->%s.%c;", e->name[v],
             op->code == OP_PROGRAM_ID ? "block_idx" : "grid_dim", "xyz"[op->attr[0] % 3]);
    return 0;
}

static int emit_op(CpuEmit *e, Op *op, Region *r) {
    const OpInfo *oi = &op_info[op->code];
    mark_line(e, op->loc);
    if (e->nlive && writes_memory(op))
        flush_live(e, op);
    switch (op->code) {
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS: return emit_grid(e, op);
    case OP_LOAD: return emit_load(e, op);
    case OP_STORE: return emit_store(e, op);
    case OP_FOR: return emit_for(e, op);
    case OP_IF: return emit_if(e, op);
    case OP_WHILE: return emit_while(e, op);
    case OP_BARRIER: return 0; /* the whole program is one thread */
    case OP_DOT: return cpu_emit_dot(e, op);
    case OP_CONVERT_LAYOUT: return cpu_unsupported(e, op, "(a GPU back-end op)");
    default: break;
    }
    if (oi->kind == K_MEMORY) /* the atomics */
        return cpu_emit_atomic(e, op);
    if (oi->kind == K_REDUCE && !op->body && op->nres == 1 && oi->text)
        return cpu_emit_reduce(e, op);
    if (oi->kind == K_REDUCE || oi->kind == K_SCAN)
        return cpu_emit_combine(e, op);
    if (oi->kind == K_GATHER)
        return cpu_emit_gather(e, op);
    if (oi->kind == K_MAP)
        return cpu_emit_map(e, op);
    if (oi->kind == K_DEBUG)
        return cpu_emit_debug(e, op);
    if (oi->kind == K_ASM)
        return asm_only_on_gpu(e->c, op->loc, "cpu");
    if (op->nres == 1 && (fusable_op(op) || op_has_text(op)))
        return emit_computed(e, op, r);
    return cpu_unsupported(e, op, NULL);
}

int cpu_emit_region(CpuEmit *e, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (emit_op(e, op, r) < 0 || HAS_ERROR(e->c))
            return -1;
        for (int j = 0; j < op->nargs; j++)
            if (op->args[j])
                e->pending[op->args[j]]--;
    }
    return 0;
}

/* Does op read its operand i element by element (so a fused operand can
 * be recomputed inside its loop)?  Dots, scans and combine regions want
 * whole tiles. */
static bool reads_elements(const Op *op, int i) {
    const OpInfo *oi = &op_info[op->code];
    switch (oi->kind) {
    case K_ELEMENTWISE: case K_MEMORY: case K_SHAPE: case K_GATHER: case K_CONSTRUCTOR:
        return true;
    case K_REDUCE:
        return !op->body && oi->text;
    case K_REGION: /* bounds, conditions and initial values are copied */
        return true;
    case K_DOT:
        return i == 2; /* the accumulator is copied into the result */
    default:
        return false;
    }
}

/* The loop a reader of op's operands runs: the elements it reads. */
static int64_t reader_numel(Func *f, const Op *op) {
    int64_t n = 1;
    for (int j = 0; j < op->nres; j++) {
        int64_t m = type_numel(val_type(f, op->res[j]));
        n = m > n ? m : n;
    }
    for (int j = 0; j < op->nargs; j++) {
        if (!op->args[j])
            continue;
        int64_t m = type_numel(val_type(f, op->args[j]));
        n = m > n ? m : n;
    }
    return n;
}

static void note_use(CpuEmit *e, ValId v, bool whole, int64_t numel) {
    if (!v)
        return;
    e->uses[v]++;
    e->pending[v]++;
    e->whole[v] |= whole;
    if (numel > e->use_numel[v])
        e->use_numel[v] = numel;
}

/* Uses, readers' loops, and where each value is defined, over every
 * region (what decide_fused needs before any text exists). */
static void scan_uses(CpuEmit *e, Region *r) {
    Func *f = e->f;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        for (int j = 0; j < op->nres; j++)
            e->home[op->res[j]] = r;
        int64_t numel = reader_numel(f, op);
        for (int j = 0; j < op->nargs; j++) {
            ValId a = op->args[j];
            note_use(e, a, !reads_elements(op, j), numel);
            if (!a)
                continue;
            e->nested[a] |= e->home[a] && e->home[a] != r;
            e->reduced[a] |= op_info[op->code].kind == K_REDUCE;
            bool again = false; /* mul(x, x) is one reader */
            for (int k = 0; k < j; k++)
                again |= op->args[k] == a;
            e->readers[a] += !again;
        }
        int ny = op->yields ? op->nres : 0;
        if (op->code == OP_REDUCE || op->code == OP_SCAN)
            ny = op->nres;
        for (int j = 0; j < ny; j++) {
            note_use(e, op->yields[j], true, 0);
            e->readers[op->yields[j]]++;
            if (op->code == OP_IF && op->alt_yields) {
                note_use(e, op->alt_yields[j], true, 0);
                e->readers[op->alt_yields[j]]++;
            }
        }
        if (op->code == OP_WHILE && op->alt_yields) {
            note_use(e, op->alt_yields[0], true, 0);
            e->readers[op->alt_yields[0]]++;
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            scan_uses(e, rs[k]);
    }
}

int cpu_emit(Func *f, StrBuf *out) {
    Ctx *c = f->ctx;
    CpuEmit e;
    memset(&e, 0, sizeof e);
    e.f = f;
    e.c = c;
    e.indent = 1;
    size_t n = (size_t)f->nvals;
    e.name = arena_alloc(f->arena, sizeof(char *) * n);
    e.how = arena_alloc(f->arena, n);
    e.uses = arena_alloc(f->arena, sizeof(int) * n);
    e.whole = arena_alloc(f->arena, sizeof(bool) * n);
    e.use_numel = arena_alloc(f->arena, sizeof(int64_t) * n);
    e.home = arena_alloc(f->arena, sizeof(Region *) * n);
    e.readers = arena_alloc(f->arena, sizeof(int) * n);
    e.nested = arena_alloc(f->arena, sizeof(bool) * n);
    e.reduced = arena_alloc(f->arena, sizeof(bool) * n);
    e.pending = arena_alloc(f->arena, sizeof(int) * n);
    e.inplace = arena_alloc(f->arena, sizeof(ValId) * n);
    e.mem = arena_alloc(f->arena, sizeof(bool) * n);
    if (!e.name || !e.how || !e.uses || !e.whole || !e.use_numel || !e.home || !e.readers ||
        !e.nested || !e.reduced || !e.pending || !e.inplace || !e.mem)
        return diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    sb_init(&e.body);
    sb_init(&e.decl);
    scan_uses(&e, &f->body);
    StrBuf sig;
    sb_init(&sig);
    for (int i = 0; i < f->nparams; i++) {
        ValId p = f->params[i];
        Type t = val_type(f, p);
        e.name[p] = cpu_fmt(&e, "v%d", p);
        /* no restrict: Triton promises nothing about aliasing */
        sb_printf(&sig, ", %s %s", t.is_ptr ? cpu_fmt(&e, "%s *", dtype_mtype((DType)t.dtype))
                                             : dtype_ctype((DType)t.dtype),
                  e.name[p]);
    }
    int rc = cpu_emit_region(&e, &f->body);
    if (rc == 0 && (e.body.failed || e.decl.failed))
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    if (rc == 0) {
        sb_printf(out, "/* %s: the cpu backend's program */\n", f->name);
        sb_printf(out, "static void mt_cpu_kernel(mt_host_thread *mt_self%s) {\n", sb_str(&sig));
        if (e.frame) {
            sb_printf(out, "    char *mt_frame = (char *)mt_self->ops->scratch(mt_self->worker, "
                           "%lldull);\n", (long long)e.frame);
            sb_puts(out, "    if (!mt_frame) {\n"
                         "        mt_self->ops->fail(mt_self->worker, \"out of memory for the "
                         "program's tiles\", \"<cpu>\", 0, \"\");\n"
                         "        return;\n    }\n");
            sb_puts(out, sb_str(&e.decl));
        }
        sb_puts(out, sb_str(&e.body));
        sb_puts(out, "}\n");
    }
    sb_free(&sig);
    sb_free(&e.body);
    sb_free(&e.decl);
    return rc;
}
