/* fuzz_util.h: what the fuzz targets that compile through the public API
 * share: one stages_only compile whose every stage is printed, and whose
 * failure must say why. */
#ifndef MT_FUZZ_UTIL_H
#define MT_FUZZ_UTIL_H

#include <stdlib.h>

#include "mytriton.h"

static inline void fuzz_compile_stages(mt_context *ctx, const char *src, const char *filename,
                                       const char *kernel, const char *signature) {
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = filename;
    o.kernel = kernel;
    o.signature = signature;
    o.stages_only = 1;
    mt_kernel *k = NULL;
    if (mt_compile(ctx, &o, &k) == MT_OK) {
        const char *text;
        for (int s = MT_STAGE_AST; s <= MT_STAGE_CUDA; s++)
            (void)mt_kernel_stage(ctx, k, (mt_stage)s, &text, NULL);
        mt_kernel_destroy(k);
    } else if (!*mt_errmsg(ctx)) {
        abort(); /* every failure must say why */
    }
}

#endif
