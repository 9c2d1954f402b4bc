/* mytriton.h: the public C API of mytriton, a Triton-style GPU kernel
 * compiler.
 *
 * A kernel is the text of a Python function written in Triton's language
 * (tl.program_id, tl.arange, tl.load, tl.store, tl.dot, ...).  mt_compile
 * parses it, elaborates it for one signature (pointer/scalar types and the
 * values of tl.constexpr parameters), verifies and optimises the SSA IR,
 * emits CUDA C, and prepares it for a backend: the CUDA driver (via NVRTC)
 * or the host (the same CUDA C compiled by the system C++ compiler and run
 * on a few POSIX threads, every CUDA thread a fiber).  mt_launch runs it.
 *
 * Conventions:
 *   - every fallible call returns an mt_status; MT_OK is 0;
 *   - on failure mt_errmsg(ctx) holds the full diagnostic
 *     ("file:line:col: error: message", the source line, a caret) until
 *     the next call on that context; mt_error_loc gives the location;
 *   - handles are opaque; every create has a destroy, and destroy accepts
 *     NULL; see mt_compile for how long a kernel lives;
 *   - strings and arrays passed in are read during the call and copied
 *     where they are kept: the caller may free or reuse them as soon as
 *     the call returns;
 *   - option structs begin with their own size (MT_COMPILE_OPTIONS_INIT
 *     sets it), so a program built against another version of this header
 *     gets MT_ERR_ARG and a message, never a misread struct;
 *   - the library keeps no global mutable state: two contexts may be used
 *     from two threads at once; one context is not thread-safe;
 *   - the library never calls exit or abort.
 */
#ifndef MYTRITON_H
#define MYTRITON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_API_VERSION 3

typedef enum mt_status {
    MT_OK = 0,
    MT_ERR_SYNTAX,      /* lexing or parsing the kernel source */
    MT_ERR_NAME,        /* unknown name, kernel or helper function */
    MT_ERR_TYPE,        /* types, shapes, constexpr misuse */
    MT_ERR_VERIFY,      /* the SSA verifier rejected the IR */
    MT_ERR_UNSUPPORTED, /* valid Python the kernel language does not accept */
    MT_ERR_SIGNATURE,   /* malformed signature or constexpr value */
    MT_ERR_ARG,         /* bad argument to an API call (NULL, range, grid) */
    MT_ERR_RESOURCE,    /* too many threads, too much shared memory */
    MT_ERR_NOMEM,       /* out of memory */
    MT_ERR_NO_CUDA,     /* libcuda / libnvrtc missing or no device */
    MT_ERR_NVRTC,       /* NVRTC failed to compile the generated CUDA C */
    MT_ERR_CUDA,        /* a CUDA driver call failed */
    MT_ERR_HOST_CC,     /* the host C++ compiler failed */
    MT_ERR_IO,          /* cache or file input/output */
    MT_ERR_INTERNAL,    /* a bug in mytriton */
    MT_ERR_ASSERT       /* a device assertion failed (debug mode: tl.device_assert) */
} mt_status;

typedef enum mt_backend {
    MT_BACKEND_HOST = 0, /* CPU: host pointers */
    MT_BACKEND_CUDA = 1  /* GPU: device pointers */
} mt_backend;

/* Printable stages of a compiled kernel; mt_stage_name gives each its
 * name. */
typedef enum mt_stage {
    MT_STAGE_AST = 0,  /* parsed kernel function */
    MT_STAGE_SSA,      /* SSA right after elaboration (verified) */
    MT_STAGE_SSA_OPT,  /* SSA after fold, CSE and DCE (verified) */
    MT_STAGE_CUDA,     /* generated CUDA C */
    MT_STAGE_PTX,      /* PTX from NVRTC (needs libnvrtc, not a GPU) */
    MT_STAGE_CUBIN,    /* cubin from NVRTC (binary; use the length) */
    MT_STAGE_SSA_LAYOUT /* SSA after the back-end passes (layouts,
                           conversions, axis facts, dot plans, shared
                           buffers); comes between SSA_OPT and CUDA in the
                           pipeline, numbered last so the others keep
                           their values */
} mt_stage;

/* Element types, as Triton names them (mt_dtype_name gives the signature
 * spelling: "fp16", "u8", "fp8e4nv").  Memory layout: integers and fp32/
 * fp64 as in C; fp16, bf16 and the fp8 types as their IEEE-style bit
 * patterns; i1 (bool) as one byte, nonzero meaning true. */
typedef enum mt_dtype {
    MT_DTYPE_NONE = -1, /* no such parameter */
    MT_DTYPE_I1 = 0, MT_DTYPE_I8, MT_DTYPE_I16, MT_DTYPE_I32, MT_DTYPE_I64,
    MT_DTYPE_U8, MT_DTYPE_U16, MT_DTYPE_U32, MT_DTYPE_U64,
    MT_DTYPE_FP8E4NV, MT_DTYPE_FP8E5, MT_DTYPE_FP16, MT_DTYPE_BF16,
    MT_DTYPE_FP32, MT_DTYPE_FP64,
    MT_DTYPE_COUNT
} mt_dtype;

/* Type of a runtime (non-constexpr) kernel parameter, for the four types
 * of the first API; every other parameter is MT_PARAM_OTHER: use
 * mt_kernel_param_dtype and mt_kernel_param_is_pointer. */
typedef enum mt_param_type {
    MT_PARAM_NONE = -1, /* no such parameter: a bad index or no kernel */
    MT_PARAM_PTR_F32 = 0, MT_PARAM_PTR_I32, MT_PARAM_PTR_I1, MT_PARAM_PTR_I64,
    MT_PARAM_I32, MT_PARAM_I64, MT_PARAM_F32, MT_PARAM_I1,
    MT_PARAM_OTHER
} mt_param_type;

typedef struct mt_context mt_context;
typedef struct mt_kernel mt_kernel;

/* Module-level constant given by the caller (a Python global, say); it
 * overrides a module-level assignment of the same name in the source. */
typedef struct mt_global {
    const char *name;
    const char *value; /* a literal in signature syntax: 3, -1.5, True, 'ieee' */
} mt_global;

/* Start from MT_COMPILE_OPTIONS_INIT, then set fields: unset ones are
 * zero, which means the default. */
typedef struct mt_compile_options {
    size_t size;           /* sizeof(mt_compile_options), checked by mt_compile */
    const char *source;    /* kernel source text (a whole Python module is fine) */
    const char *filename;  /* for diagnostics and #line; NULL: "<kernel>" */
    const char *kernel;    /* name of the kernel function */
    /* Triton AOT signature: one comma-separated entry per parameter, in
     * order: *fp32 *i32 *i1 *i64 for pointers, i32 i64 fp32 i1 for scalars,
     * and a literal (256, -1.5, True, 'ieee') for each tl.constexpr. */
    const char *signature;
    int num_warps;         /* threads per program = 32 * num_warps; 0: 4 */
    mt_backend backend;
    const char *arch;      /* "sm_90"; NULL: the current device's */
    const mt_global *globals;
    int nglobals;
    /* Nonzero: stop after the CUDA C text (no host compiler, no NVRTC);
     * the kernel can be printed but not launched. */
    int stages_only;
    /* Nonzero: Triton's debug mode (TRITON_DEBUG, @jit(debug=True)):
     * tl.device_assert and Python assert statements are checked at run
     * time, and + - * on integers narrower than 64 bits check overflow. */
    int debug;
    /* tl.static_print's text, one call per print, while the kernel is
     * compiled (NULL: written to stdout). */
    void (*print)(void *user, const char *text);
    void *print_user;
} mt_compile_options;

#if defined(__cplusplus) && __cplusplus < 202002L
#define MT_COMPILE_OPTIONS_INIT {sizeof(mt_compile_options)}
#else
#define MT_COMPILE_OPTIONS_INIT {.size = sizeof(mt_compile_options)}
#endif

int mt_version(void); /* MT_API_VERSION of the library */

mt_status mt_context_create(mt_context **out);
void mt_context_destroy(mt_context *ctx);

/* Diagnostic text of the last failed call (empty when none). */
const char *mt_errmsg(const mt_context *ctx);
/* Location of the last error; line and col are 1-based, 0 when unknown. */
void mt_error_loc(const mt_context *ctx, const char **file, int *line, int *col);
/* A warning that the on-disk kernel cache is refused as untrusted (owned
 * by another user, writable by others, a symlink): returned once per
 * context, then NULL; the text lives as long as the context. */
const char *mt_cache_warning(mt_context *ctx);

/* Compiles (or finds in the caches) one specialization.  For the CUDA
 * backend the cubin is built here (NVRTC) and loaded at the first launch.
 * Stages up to MT_STAGE_CUDA never need CUDA.  opts->size must be the
 * size this library was built with (else MT_ERR_ARG, saying both sizes).
 *
 * Kernel lifetime: every kernel a context compiles stays in that
 * context's in-memory cache until mt_context_destroy, which frees them
 * all; the cache never evicts.  Compiling the same options again returns
 * the same handle.  So a kernel handle is valid until its context is
 * destroyed, mt_kernel_destroy only gives the caller's reference back,
 * and no kernel may be used or destroyed after its context.  A context
 * that compiles an unbounded number of specializations grows without
 * bound: destroy it to release them.  Beside the in-memory cache, built
 * host objects and cubins are cached on disk ($MYTRITON_CACHE_DIR, else
 * ~/.cache/mytriton) and shared by every process; a host kernel's shared
 * object stays loaded until the process exits. */
mt_status mt_compile(mt_context *ctx, const mt_compile_options *opts,
                     mt_kernel **out);
void mt_kernel_destroy(mt_kernel *k);

/* Text of a stage; borrowed, valid while the kernel lives.  PTX and CUBIN
 * are produced on demand (NVRTC); *len receives the length when len is not
 * NULL. */
mt_status mt_kernel_stage(mt_context *ctx, mt_kernel *k, mt_stage stage,
                          const char **text, size_t *len);

/* Runtime parameters of the kernel, in order (constexprs excluded). */
int mt_kernel_num_params(const mt_kernel *k);
/* MT_PARAM_NONE unless 0 <= i < mt_kernel_num_params(k). */
mt_param_type mt_kernel_param_type(const mt_kernel *k, int i);
/* The element type of parameter i, or its pointee's for a pointer;
 * MT_DTYPE_NONE unless 0 <= i < mt_kernel_num_params(k). */
mt_dtype mt_kernel_param_dtype(const mt_kernel *k, int i);
/* 1 when parameter i is a pointer, else 0. */
int mt_kernel_param_is_pointer(const mt_kernel *k, int i);
/* "fp16", "i32", "u8", "bf16", "fp8e4nv": the signature spelling; NULL for
 * a value outside the enum. */
const char *mt_dtype_name(mt_dtype d);
/* Bytes of one element in memory (i1: 1); 0 outside the enum. */
size_t mt_dtype_size(mt_dtype d);
/* NULL unless 0 <= i < mt_kernel_num_params(k). */
const char *mt_kernel_param_name(const mt_kernel *k, int i);
const char *mt_kernel_name(const mt_kernel *k);
int mt_kernel_num_warps(const mt_kernel *k);
mt_backend mt_kernel_backend(const mt_kernel *k);
size_t mt_kernel_shared_bytes(const mt_kernel *k);
/* What the compiled code uses per thread: registers, local memory in
 * bytes (spills), and the most threads per program it can run with.  On
 * CUDA the driver reports them (cuFuncGetAttribute) for the module loaded
 * in the current context, loading it first as a launch would; the host
 * backend has no register file or local memory: 0, 0 and its limit of
 * 1024 threads.  Any out pointer may be NULL. */
mt_status mt_kernel_usage(mt_context *ctx, mt_kernel *k, int *regs, int *local_bytes,
                          int *max_threads);

/* Launches a grid of programs.  args[i] points at the value of runtime
 * parameter i, as for cuLaunchKernel: a pointer parameter points at a
 * device pointer (CUDA) or host pointer (host), a scalar at its value in
 * memory layout (mt_dtype): an i32 at an int32_t, an fp32 at a float, an
 * fp16 at its uint16_t bits, an i1 at a bool-sized uint8_t.  grid entries must be
 * >= 1 and within the device limits.  stream is a CUstream (NULL: default)
 * and is ignored by the host backend, which runs synchronously. */
mt_status mt_launch(mt_context *ctx, mt_kernel *k, const uint32_t grid[3],
                    void *stream, void **args);

/* Launches without checking the arguments again: the fast path for
 * callers that built args from the kernel's own parameter list. */
mt_status mt_launch_unchecked(mt_kernel *k, const uint32_t grid[3],
                              void *stream, void **args);

/* Launches a host kernel without touching its context's state, so that
 * threads may launch while others compile or launch on the same context
 * (the Python extension runs it without the GIL): an error's text goes to
 * err (may be NULL), not to the context.  poll(poll_arg), when poll is
 * not NULL, runs on the calling thread between programs; a nonzero answer
 * stops the launch, which then fails with "interrupted".  Arguments are
 * not checked (as mt_launch_unchecked); a CUDA kernel gives MT_ERR_ARG. */
mt_status mt_launch_host(mt_kernel *k, const uint32_t grid[3], void **args,
                         int (*poll)(void *), void *poll_arg, char *err, size_t errlen);

/* Memory for examples and C programs that have no CUDA runtime of their
 * own.  Host backend: malloc/free/memcpy.  CUDA: cuMemAlloc in the current
 * context (device 0's primary context when none is current). */
mt_status mt_malloc(mt_context *ctx, mt_backend backend, size_t bytes, void **out);
mt_status mt_free(mt_context *ctx, mt_backend backend, void *ptr);
/* Direction of mt_memcpy; "device" is the backend's memory (host memory
 * for the host backend). */
typedef enum mt_memcpy_kind {
    MT_MEMCPY_HOST_TO_DEVICE = 1,
    MT_MEMCPY_DEVICE_TO_HOST = 2
} mt_memcpy_kind;
/* Any other kind is MT_ERR_ARG. */
mt_status mt_memcpy(mt_context *ctx, mt_backend backend, void *dst,
                    const void *src, size_t bytes, mt_memcpy_kind kind);
/* Waits for all launched work (CUDA); a no-op on the host backend. */
mt_status mt_synchronize(mt_context *ctx, mt_backend backend);

/* CUDA is usable: driver found, at least one device. */
int mt_cuda_available(mt_context *ctx);

/* Name of a status ("MT_ERR_SYNTAX"). */
const char *mt_status_name(mt_status s);
/* Name of a stage as the CLI's --emit and Python's .asm spell it ("ssa-opt");
 * NULL for a value that names no stage, so that
 * `for (s = 0; mt_stage_name(s); s++)` visits every stage. */
const char *mt_stage_name(mt_stage s);

/* The names the kernel language knows, listed from the compiler's own
 * tables (the source of the Python module mytriton.language): entry i of
 * a group, i = 0, 1, ... until NULL.  When doc is not NULL, *doc receives
 * a one-line usage ("exp(x): elementwise e**x (f32)"), or "" when the
 * name has none.  The strings are static. */
typedef enum mt_name_group {
    MT_NAMES_TL,      /* tl.* functions: "program_id", "load", "exp", ... */
    MT_NAMES_DTYPE,   /* tl.* dtypes: "int1", "int8", ... "float64" */
    MT_NAMES_METHOD,  /* tensor methods: "to", "sum", ... */
    MT_NAMES_BUILTIN, /* Python builtins a kernel may call: "range", "len", ... */
    MT_NAMES_TRITON,  /* triton.* functions: "cdiv", "jit" */
    MT_NAMES_LIBDEVICE /* tl.extra.cuda.libdevice functions: "pow", "tanh", ... */
} mt_name_group;
const char *mt_language_name(mt_name_group group, int i, const char **doc);

#ifdef __cplusplus
}
#endif
#endif
