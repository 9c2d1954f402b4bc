/* fuzz_compiler.c: libFuzzer target for the whole compiler behind the
 * public API (elaboration, verifier, passes, layouts, CUDA emission).
 *
 * Input: arbitrary bytes taken as a kernel module.  For every top-level
 * function it builds a signature (a constexpr annotation gets the value 8,
 * the first plain parameter *fp32, then alternately i32 and *fp32) and
 * compiles it with stages_only, then prints every stage.  Any outcome but a
 * crash, leak, hang or sanitizer report is fine: bad kernels must end in a
 * located error. */
#include "mt.h"

#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_constexpr(const Node *ann) {
    return ann && ((ann->kind == ND_ATTR && ann->name && !strcmp(ann->name, "constexpr")) ||
                   (ann->kind == ND_NAME && ann->name && !strcmp(ann->name, "constexpr")));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *src = malloc(size + 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    src[size] = 0;
    if (strlen(src) != size) { /* the API takes NUL-terminated text */
        free(src);
        return 0;
    }
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = arena_new();
    c.src = src;
    c.srclen = size;
    c.filename = "fuzz.py";
    sb_init(&c.err);
    Module *m = c.arena ? parse_module(&c) : NULL;
    mt_context *ctx = NULL;
    if (m && mt_context_create(&ctx) == MT_OK) {
        for (int i = 0; i < m->nfuncs && i < 4; i++) {
            c.status = MT_OK;
            Node *fn = parse_function(&c, m, &m->funcs[i]);
            if (!fn)
                continue;
            StrBuf sig;
            sb_init(&sig);
            int plain = 0;
            for (int p = 0; p < fn->nparams; p++) {
                if (p)
                    sb_putc(&sig, ',');
                if (is_constexpr(fn->params[p].annotation))
                    sb_puts(&sig, "8");
                else
                    sb_puts(&sig, plain++ % 2 == 0 ? "*fp32" : "i32");
            }
            fuzz_compile_stages(ctx, src, "fuzz.py", m->funcs[i].name, sb_str(&sig));
            sb_free(&sig);
        }
    }
    mt_context_destroy(ctx);
    arena_free(c.arena);
    sb_free(&c.err);
    free(src);
    return 0;
}
