/* pipeline.c: the compiler as one list of passes, and the resource pass.
 *
 * Input: a Ctx holding the kernel source, and the kernel's name, signature,
 * globals and program size (PipelineInput).  Output: the CUDA C text, and
 * the final Func (in the Ctx's arena) for what the caller keeps of it (its
 * parameters, its shared-memory size).  pipeline_run reads top to bottom
 * as the list of passes, one call a line, in the QBE tradition.
 *
 * Invariants:
 *   - ir_verify runs after every pass that transforms IR, so a pass that
 *     breaks the IR is caught at the pass, not three passes later;
 *   - passes never print: the printable stages (ast, ssa, ssa-opt, cuda)
 *     leave through the caller's StageSink, and only when it has one;
 *   - every resource limit that is a compile-time fact is checked in one
 *     pass, check_resources, each with its own located error; what only a
 *     launch knows (grid size, the device's own thread limit) is checked
 *     at launch, and the shared-memory budget where the buffers are laid
 *     out (cuda.c today).
 *   - the first error stops the pipeline: the Ctx holds it.  One
 *     exception: the cpu backend lowers the optimised SSA itself, so an
 *     error of the GPU passes after it (gpu_backend) only takes away its
 *     CUDA stages; Func.cuda_refusal keeps the diagnostic. */
#include "mt.h"

/* -------------------------------------------------------- stage names */

/* One row per mt_stage, in enum order; the names are --emit's. */
static const char *const stage_names[] = {
    [MT_STAGE_AST] = "ast",
    [MT_STAGE_SSA] = "ssa",
    [MT_STAGE_SSA_OPT] = "ssa-opt",
    [MT_STAGE_CUDA] = "cuda",
    [MT_STAGE_PTX] = "ptx",
    [MT_STAGE_CUBIN] = "cubin",
    [MT_STAGE_SSA_LAYOUT] = "ssa-layout",
    [MT_STAGE_MLIR] = "mlir",
    [MT_STAGE_CPU] = "cpu",
};
_Static_assert(sizeof stage_names / sizeof stage_names[0] == MT_NSTAGES,
               "one stage name per mt_stage");

const char *mt_stage_name(mt_stage s) {
    return (unsigned)s < MT_NSTAGES ? stage_names[s] : NULL;
}

/* -------------------------------------------------------- resources */

/* A program is 32 * num_warps threads: a power of two (the layouts split
 * threads by halving) and at most the 1024 threads a CUDA block may have,
 * which the host backend keeps too. */
static int check_program_size(Func *f, Loc at) {
    int w = f->num_warps;
    if (w < 1 || (w & (w - 1)) != 0 || 32 * (int64_t)w > MT_MAX_THREADS)
        return diag_error(f->ctx, at, MT_ERR_ARG,
                          "num_warps must be a power of two from 1 to %d, got %d",
                          MT_MAX_THREADS / 32, w);
    if (f->num_stages < 0)
        return diag_error(f->ctx, at, MT_ERR_ARG, "num_stages must not be negative, got %d",
                          f->num_stages);
    return 0;
}

/* Every thread keeps its share of each block value in registers (local
 * arrays in the CUDA C): past a few hundred elements per thread the GPU
 * spills to local memory and the host backend's fiber stacks overflow, so
 * a block that gives each thread more than this is refused with advice. */
static int check_elems_per_thread(Func *f, Region *r) {
    int64_t threads = 32 * (int64_t)f->num_warps;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        for (int j = 0; j < op->nres; j++) {
            Type t = val_type(f, op->res[j]);
            int64_t per = (type_numel(t) + threads - 1) / threads;
            if (t.rank && per > MT_MAX_ELEMS_PER_THREAD) {
                StrBuf ty;
                sb_init(&ty);
                type_print(&ty, t);
                diag_error(f->ctx, op->loc, MT_ERR_RESOURCE,
                           "%s gives each of the %lld threads %lld elements, more than "
                           "%d; use a smaller block or more warps (num_warps=%d now)",
                           sb_str(&ty), (long long)threads, (long long)per,
                           MT_MAX_ELEMS_PER_THREAD, f->num_warps);
                sb_free(&ty);
                return -1;
            }
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (check_elems_per_thread(f, rs[k]) < 0)
                return -1;
    }
    return 0;
}

/* The size of a block (at most 2^24 elements, so shapes and indices fit
 * an i32) is checked where elaboration builds the shape, before any IR
 * exists; any block past it breaks the per-thread limit here first. */
int check_resources(Func *f, Loc kernel_loc) {
    if (check_program_size(f, kernel_loc) < 0)
        return -1;
    return check_elems_per_thread(f, &f->body);
}

/* The cpu backend's limits: the program size only, since it keeps whole
 * tiles in its frame, not elements in a thread's registers. */
static int check_cpu_resources(Func *f, Loc kernel_loc) {
    return check_program_size(f, kernel_loc);
}

/* -------------------------------------------------------- the pipeline */

/* Only a stage with a row in stage_names is delivered: a stage appended
 * to mt_stage without one (and without raising MT_NSTAGES) never reaches
 * a per-stage table. */
static void snap_text(const StageSink *sink, mt_stage s, StrBuf *sb) {
    if (sink && sink->put && mt_stage_name(s))
        sink->put(sink->user, s, sb->failed ? NULL : sb_str(sb), sb->len);
}

/* A stage printed from the IR by print (ir_print, or layout_ir_print for
 * the IR with the back-end plans). */
static void snap_ir(const StageSink *sink, mt_stage s, Func *f,
                    void (*print)(StrBuf *, Func *)) {
    if (!sink || !sink->put)
        return;
    StrBuf sb;
    sb_init(&sb);
    print(&sb, f);
    snap_text(sink, s, &sb);
    sb_free(&sb);
}

static void snap_ast(const StageSink *sink, TopFunc *tf) {
    if (!sink || !sink->put)
        return;
    StrBuf sb;
    sb_init(&sb);
    if (tf && tf->ast)
        ast_print(&sb, tf->ast);
    snap_text(sink, MT_STAGE_AST, &sb);
    sb_free(&sb);
}

/* Runs a pass that transforms IR, then the verifier. */
static int transform(Func *f, int (*pass)(Func *)) {
    return pass(f) < 0 || ir_verify(f) < 0 ? -1 : 0;
}

static int emit(Func *f, const StageSink *sink) {
    StrBuf cuda;
    sb_init(&cuda);
    int rc = cuda_emit(f, &cuda);
    if (rc == 0)
        snap_text(sink, MT_STAGE_CUDA, &cuda);
    sb_free(&cuda);
    return rc;
}

/* The MLIR backend's module (mlir.c), from the same laid-out IR. */
static int emit_mlir(Func *f, const StageSink *sink) {
    StrBuf sb;
    sb_init(&sb);
    int rc = mlir_emit(f, &sb);
    if (rc == 0)
        snap_text(sink, MT_STAGE_MLIR, &sb);
    sb_free(&sb);
    return rc;
}

/* The cpu backend's C (cpu.c), from the optimised SSA: it lowers whole
 * tiles, so the GPU's back-end passes (layouts, dot plans, shared memory)
 * do not run for it. */
static int emit_cpu(Func *f, const StageSink *sink) {
    StrBuf sb;
    sb_init(&sb);
    int rc = cpu_emit(f, &sb);
    if (rc == 0)
        snap_text(sink, MT_STAGE_CPU, &sb);
    sb_free(&sb);
    return rc;
}

/* The passes after the optimised SSA that lower it to CUDA C. */
static int gpu_backend(Func *f, Loc at, const PipelineInput *in, const StageSink *sink) {
    if (transform(f, in->mlir ? pass_widen_all_fp8_dots : pass_widen_fp8_dots) < 0) return -1;
    if (transform(f, pass_unbatch) < 0) return -1;
    if (check_resources(f, at) < 0) return -1;
    if (transform(f, pass_mem_order) < 0) return -1;
    if (!in->mlir && transform(f, pass_pipeline_loads) < 0) return -1;
    if (transform(f, pass_dce) < 0) return -1;
    if (transform(f, layout_assign) < 0) return -1;
    if (axis_analyze(f) < 0) return -1;
    if (plan_dots(f) < 0) return -1;
    if (smem_plan(f) < 0) return -1;
    snap_ir(sink, MT_STAGE_SSA_LAYOUT, f, layout_ir_print);
    if (emit(f, sink) < 0) return -1;
    if (in->mlir && emit_mlir(f, sink) < 0) return -1;
    return 0;
}

Func *pipeline_run(Ctx *c, const PipelineInput *in, const StageSink *sink) {
    SigEntry *sig;
    int nsig;
    Module *m = parse_module(c);
    if (!m || sig_parse(c, in->signature, &sig, &nsig) < 0)
        return NULL;
    ElabInput ei = {m, in->kernel, sig, nsig, in->globals, in->nglobals, in->num_warps,
                    in->debug, in->print, in->print_user, in->fp32_default};
    Func *f = elaborate(c, &ei);
    if (!f || ir_verify(f) < 0)
        return NULL;
    /* the program's size is the caller's: elaborate only defaults it */
    f->num_warps = in->num_warps;
    f->num_stages = in->num_stages;
    f->sm = in->sm;
    f->host = in->host;
    f->checked = in->checked;
    TopFunc *tf = module_find_func(m, in->kernel);
    snap_ast(sink, tf);
    snap_ir(sink, MT_STAGE_SSA, f, ir_print);
    if (transform(f, pass_fold) < 0) return NULL;
    if (transform(f, pass_cse) < 0) return NULL;
    if (transform(f, pass_dce) < 0) return NULL;
    snap_ir(sink, MT_STAGE_SSA_OPT, f, ir_print);
    Loc at = tf ? tf->loc : (Loc){0, 0};
    if (in->cpu) {
        if (transform(f, pass_widen_all_fp8_dots) < 0 || check_cpu_resources(f, at) < 0 ||
            emit_cpu(f, sink) < 0)
            return NULL;
        if (in->no_cuda)
            return f;
        /* the cpu backend runs its own C: where only the CUDA lowering
         * refuses the kernel (blocks of rank 3, more elements per thread
         * than registers hold), it still runs, without the CUDA stages */
        if (gpu_backend(f, at, in, sink) < 0) {
            f->cuda_refusal = arena_strdup(c->arena, sb_str(&c->err));
            diag_clear(c);
        }
        return f;
    }
    return gpu_backend(f, at, in, sink) < 0 ? NULL : f;
}
