/* widenfp8.c: fp8 tl.dot operands widened to f16 where only f16 units
 * take them.
 *
 * Input: a verified Func after the SSA optimisations, whose dots may have
 * fp8 operands (e4m3 and e5m2, mixed or not; f32 result): tl.dot keeps
 * them so that Hopper's wgmma can read fp8 tiles (dot_unit
 * DOT_WGMMA_F8).  Output: the same Func where every other such dot reads
 * its operands through a cast to f16, inserted just before it.  The cast
 * is exact (e5m2 is f16's top byte; e4m3's range and precision lie
 * inside f16's) and the products of the widened values are exact in f32,
 * so the dot's value is the same either way; only the tiles and units
 * differ (f16 tiles, half the shared memory of f32 ones), and the
 * imprecise_acc attribute goes (f16 units accumulate in f32 as they go).
 *
 * pass_widen_fp8_dots keeps the dots wgmma takes (the CUDA lowering);
 * pass_widen_all_fp8_dots widens every one (the cpu and MLIR backends,
 * which have no fp8 dot).  Invariant afterwards: ir_verify holds; a dot
 * with fp8 operands is one dot_unit gives DOT_WGMMA_F8, or none. */
#include "mt.h"

static bool fp8_dot(Func *f, const Op *op) {
    if (op->code != OP_DOT)
        return false;
    return dtype_is_fp8(val_type(f, op->args[0]).dtype);
}

/* The new op list of r: each widened dot preceded by its two casts. */
static void widen_region(Func *f, Region *r, bool keep_wgmma) {
    Region out = {NULL, 0, 0};
    bool changed = false;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            widen_region(f, rs[k], keep_wgmma);
        if (fp8_dot(f, op) && !(keep_wgmma && dot_unit(f, op) == DOT_WGMMA_F8)) {
            for (int k = 0; k < 2; k++) {
                Type t = type_with_elem(val_type(f, op->args[k]), type_scalar(DT_F16));
                op->args[k] = op_new(f, &out, OP_CAST, op->loc, t, &op->args[k], 1)->res[0];
            }
            op->attr[1] = 0; /* f16 products add exactly in f32: no partial sums */
            changed = true;
        }
        region_push(f, &out, op);
    }
    if (changed)
        *r = out;
}

int pass_widen_fp8_dots(Func *f) {
    widen_region(f, &f->body, true);
    return 0;
}

int pass_widen_all_fp8_dots(Func *f) {
    widen_region(f, &f->body, false);
    return 0;
}
