/* mtmodule.h: what the three files of mytriton._C share.
 *
 *   mtmodule.c  the module: its state, errors, Context, Kernel, compile()
 *   mtargs.c    one call's arguments: binding, classification, key, grid
 *   mtjit.c     JITFunction and Launcher: cache lookup and the launch
 *
 * The launch path crosses files once per launch (jit_run -> prepare);
 * everything per argument stays static inside mtargs.c.  Every name here
 * is hidden, so calls between the files bind directly, not through the
 * PLT, and none is exported: the extension's own export is PyInit__C
 * (the library linked into it exports its own names as ever). */
#ifndef MTMODULE_H
#define MTMODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "mytriton.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#define MAX_PARAMS 128

/* Classes of runtime arguments, as small ints in the key (0: a constexpr).
 * Pointers carry the device slot (0 host, 1 + CUDA device index) above the
 * low nibble.  jit.py reads them through ARG_SIGNATURES and ARG_CLASS_MASK. */
enum {
    AK_I32 = 1, AK_I64 = 2, AK_F32 = 3, AK_I1 = 4,
    AK_PTR = 8, /* + 0 f32, 1 i32, 2 i1, 3 i64 */
    AK_ALIGN16 = 4, /* pointer kinds only: the address is a multiple of 16 */
    AK_DIV16 = 4,   /* int kinds only (I32 + 4 = 5, I64 + 4 = 6): multiple of 16 */
    AK_CLASS_MASK = 15 /* the class without the device slot */
};
enum { PD_F32 = 0, PD_I32 = 1, PD_I1 = 2, PD_I64 = 3 };

/* ------------------------------------------------------------ module state */

typedef struct {
    PyObject_HEAD
    mt_context *ctx;
} ContextObject;

/* Set once by PyInit__C (the str_* interned there too) or, for the torch
 * and numpy objects, looked up lazily once those modules are loaded. */
extern PyObject *compilation_error; /* mytriton.CompilationError */
extern PyObject *triton_error;      /* mytriton.TritonError, its base */
extern ContextObject *the_context;
extern PyObject *constexpr_cls;     /* tl.constexpr, registered by Python */
extern PyObject *dtype_cls;         /* tl.dtype, registered by Python */
extern PyObject *true_key, *false_key, *float_tag; /* key markers */
extern PyObject *torch_tensor_type, *torch_dtypes[4], *torch_stream_fn;
extern PyObject *np_ndarray_type, *np_dtypes[4];
extern PyObject *str_dtype, *str_data_ptr, *str_get_device, *str_array_interface,
    *str_cuda_array_interface, *str_data, *str_typestr, *str_num_warps,
    *str_compile_miss, *str_value, *str_dlpack, *str_dlpack_device, *str_is_cpu,
    *str_is_cuda, *str_numel;

/* Raises the Python exception that matches status st, with the library's
 * message (the full diagnostic for compile errors); returns NULL. */
PyObject *raise_status(mt_context *ctx, mt_status st);

/* ---------------------------------------------------------------- Kernel */

typedef struct {
    PyObject_HEAD
    ContextObject *ctxobj;
    mt_kernel *k;
    int nparams;
    mt_param_type *ptypes;
    int *argidx;     /* Python parameter index of each kernel parameter */
    int stages_only;
    PyObject *signature; /* str: the signature it was compiled for */
} KernelObject;

extern PyTypeObject KernelType;

/* ------------------------------------------------------------ JITFunction */

typedef struct {
    PyObject_HEAD
    PyObject *fn;
    PyObject *names;       /* tuple of str */
    PyObject *name_index;  /* str -> int */
    PyObject *defaults;    /* tuple; empty_marker where none */
    PyObject *empty_marker;
    PyObject *cache;       /* key tuple -> Kernel */
    char *is_const;
    int nparams;
    int active;            /* calls in progress (a grid callable may launch) */
    long long compiles, hits;
} JITObject;

extern PyTypeObject JITType, LauncherType;

/* Everything one call needs, on the C stack.  Owned references live from
 * prepare to call_release. */
typedef struct {
    PyObject *bound[MAX_PARAMS]; /* owned, nbound of them */
    PyObject *keep[MAX_PARAMS];  /* owned or NULL: DLPack capsules */
    int nbound;
    int kind[MAX_PARAMS];        /* AK_* for runtime args, 0 for constexprs */
    union { void *p; int64_t i; double f; } val[MAX_PARAMS];
    int num_warps;
    int device;                  /* -1 host, else CUDA device index */
    int has_tensor;
} Call;

static inline void call_release(Call *c) {
    for (int i = 0; i < c->nbound; i++) {
        Py_XDECREF(c->bound[i]);
        Py_XDECREF(c->keep[i]);
        c->bound[i] = c->keep[i] = NULL;
    }
    c->nbound = 0;
}

/* ------------------------------------------------------- mtargs.c: a call */

/* Binds, resolves the grid when gridobj is given (a grid callable runs
 * before any pointer is read), classifies and builds the key (new
 * reference).  The caller releases c with call_release, also on error. */
PyObject *prepare(JITObject *self, PyObject *args, PyObject *kw, Call *c,
                  PyObject *gridobj, uint32_t grid[3]);
/* grid from an int or a tuple / list of 1..3 ints, each >= 1; -1 on error. */
int parse_grid(PyObject *g, uint32_t grid[3]);
const char *jit_name(JITObject *self); /* the kernel's name, for messages */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
