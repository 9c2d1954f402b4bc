/* mtmodule.h: what the three files of mytriton._C share.
 *
 *   mtmodule.c  the module: its state, errors, Context, Kernel, compile()
 *   mtargs.c    one call's arguments: binding, key, grid, packing
 *   mtarrays.c  what a runtime argument is: scalars and every array protocol
 *   mtjit.c     JITFunction and Launcher: cache lookup and the launch
 *
 * The launch path crosses files once per launch (jit_run -> prepare) and
 * once per runtime argument (prepare -> classify_runtime).  Every name here
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
 * The low four bits are 1 + the mt_dtype (of the value, or of the pointee),
 * AK_PTR marks a pointer, AK_HINT16 a pointer's 16-byte alignment or an
 * integer's divisibility by 16 (Triton's 'D' specialisation), AK_ONE an
 * integer equal to 1 (Triton specialises it: the kernel is compiled with
 * the parameter known to be 1, so a unit stride makes accesses
 * contiguous), and the bits
 * from AK_DEVICE_SHIFT up hold a pointer's device slot (0 host, 1 + CUDA
 * device index).  jit.py spells a class through ARG_SIGNATURES and
 * ARG_CLASS_MASK, so no number here is known to Python. */
enum {
    AK_DTYPE_MASK = 15,
    AK_PTR = 16,
    AK_HINT16 = 32,
    AK_ONE = 64,        /* an integer equal to 1 (Triton's ":1") */
    /* a tensor descriptor made on the host (the class of its base, a
     * pointer, with AK_ONE, which pointers never carry otherwise); its key
     * item is (class, block shape, padding), its value the base's address */
    AK_DESC = AK_PTR | AK_ONE,
    AK_CLASS_MASK = 127, /* the class without the device slot */
    AK_DEVICE_SHIFT = 7
};
#define AK_SCALAR(d) ((int)(d) + 1) /* the class of a value of mt_dtype d */
enum { DESC_SHAPE = 1, DESC_STRIDE = 8 }; /* KernelObject.argpart */

/* How a launch writes one kernel parameter into its argument slot,
 * decided once per Kernel from mt_kernel_param_dtype/_is_pointer: a
 * scalar parameter's mt_dtype, or PK_PTR. */
enum { PK_PTR = MT_DTYPE_COUNT };

/* One argument slot in memory layout: what mt_launch's args[i] points at. */
typedef union {
    void *p;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
} ArgSlot;

/* A classified Python value: a pointer, an integer (two's complement bits:
 * a u64 above INT64_MAX keeps its bits) or a float. */
typedef union { void *p; int64_t i; double f; } ArgValue;

/* Bits of v in a binary float format with ebits exponent and mbits
 * mantissa bits (IEEE layout), rounded to nearest even.  fn: the format
 * has no infinities and only the all-ones pattern is NaN (fp8e4nv);
 * overflow then gives NaN, as torch's conversion does. */
uint32_t minifloat_bits(double v, int ebits, int mbits, int fn);

/* Writes v into slot s as parameter kind op (PK_PTR or an mt_dtype). */
static inline void pack_arg(int op, ArgValue v, ArgSlot *s) {
    switch (op) {
    case MT_DTYPE_I1: s->u8 = v.i != 0; break;
    case MT_DTYPE_I8: case MT_DTYPE_U8: s->u8 = (uint8_t)v.i; break;
    case MT_DTYPE_I16: case MT_DTYPE_U16: s->u16 = (uint16_t)v.i; break;
    case MT_DTYPE_I32: case MT_DTYPE_U32: s->u32 = (uint32_t)v.i; break;
    case MT_DTYPE_I64: case MT_DTYPE_U64: s->u64 = (uint64_t)v.i; break;
    case MT_DTYPE_FP32: s->f32 = (float)v.f; break;
    case MT_DTYPE_FP64: s->f64 = v.f; break;
    case MT_DTYPE_FP16: s->u16 = (uint16_t)minifloat_bits(v.f, 5, 10, 0); break;
    case MT_DTYPE_BF16: s->u16 = (uint16_t)minifloat_bits(v.f, 8, 7, 0); break;
    case MT_DTYPE_FP8E4NV: s->u8 = (uint8_t)minifloat_bits(v.f, 4, 3, 1); break;
    case MT_DTYPE_FP8E5: s->u8 = (uint8_t)minifloat_bits(v.f, 5, 2, 0); break;
    default: s->p = v.p; break;
    }
}

/* 1 for the float dtypes (their values travel as ArgValue.f): mt_dtype
 * lists them last, fp8e4nv to fp64. */
static inline int dtype_is_float(mt_dtype d) {
    return d >= MT_DTYPE_FP8E4NV && d <= MT_DTYPE_FP64;
}

/* ------------------------------------------------------------ module state */

typedef struct {
    PyObject_HEAD
    mt_context *ctx;
} ContextObject;

/* Set once by PyInit__C (the str_* interned there too) or, for the torch
 * and numpy objects, looked up lazily once those modules are loaded. */
extern PyObject *compilation_error; /* mytriton.CompilationError */
extern PyObject *launch_error;      /* mytriton.LaunchError */
extern PyObject *option_error;      /* mytriton.OptionError: ValueError, AssertionError */
extern PyObject *triton_error;      /* mytriton.TritonError, its base */
extern ContextObject *the_context;
extern PyObject *constexpr_cls;     /* tl.constexpr, registered by Python */
extern PyObject *dtype_cls;         /* tl.dtype, registered by Python */
extern PyObject *tensor_wrapper_cls; /* triton.TensorWrapper, registered by Python */
/* knobs.runtime.launch_enter_hook / launch_exit_hook, through jit.py's
 * wrappers (NULL: none set, the launch calls no Python) */
extern PyObject *launch_enter, *launch_exit;
extern PyObject *true_key, *false_key, *float_tag; /* key markers */
extern PyObject *torch_tensor_type, *torch_dtypes[MT_DTYPE_COUNT], *torch_stream_fn;
extern PyObject *np_ndarray_type, *np_dtypes[MT_DTYPE_COUNT]; /* NULL where absent */
extern PyObject *str_dtype, *str_data_ptr, *str_get_device, *str_array_interface,
    *str_cuda_array_interface, *str_data, *str_typestr, *str_num_warps,
    *str_compile_miss, *str_value, *str_dlpack, *str_dlpack_device, *str_is_cpu,
    *str_is_cuda, *str_numel;

/* Raises the Python exception that matches status st, with the library's
 * message (the full diagnostic for compile errors); returns NULL. */
PyObject *raise_status(mt_context *ctx, mt_status st);
/* raise_status for a failed launch: LaunchError, never CompilationError. */
PyObject *raise_launch_status(mt_context *ctx, mt_status st);
/* Launches a host kernel without the GIL, interruptible from the main
 * thread (KeyboardInterrupt); None, or NULL with an exception set. */
PyObject *launch_host_kernel(mt_kernel *k, const uint32_t grid[3], void **argv,
                             const mt_launch_options *lo);
/* Checked mode's extent of pointer argument o (the whole storage of a
 * torch tensor, the root array's buffer of a NumPy view); {NULL, NULL}
 * when unknown; -1 with an exception set on error. */
int arg_extent(PyObject *o, mt_extent *out);

/* ---------------------------------------------------------------- Kernel */

typedef struct {
    PyObject_HEAD
    ContextObject *ctxobj;
    mt_kernel *k;
    int nparams;
    unsigned char *pack;  /* per parameter: PK_PTR or its mt_dtype */
    int *argidx;     /* Python parameter index of each kernel parameter */
    int *argpart;    /* 0, or the part of a tensor descriptor argument a
                        kernel parameter is: DESC_SHAPE + k, DESC_STRIDE + k */
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
    int debug;             /* @jit(debug=True): the default of a launch's debug */
} JITObject;

extern PyTypeObject JITType, LauncherType;

/* Everything one call needs, on the C stack.  Owned references live from
 * prepare to call_release. */
typedef struct {
    PyObject *bound[MAX_PARAMS]; /* owned, nbound of them */
    PyObject *keep[MAX_PARAMS];  /* owned or NULL: DLPack capsules */
    int nbound;
    int kind[MAX_PARAMS];        /* AK_* for runtime args, 0 for constexprs */
    ArgValue val[MAX_PARAMS];
    int num_warps;
    int num_stages;              /* Triton's num_stages; 0: not given */
    int debug;                   /* Triton's debug mode for this launch */
    int checked;                 /* checked mode (host): checked= or MYTRITON_CHECKED */
    int fp_fusion;               /* enable_fp_fusion=, else TRITON_DEFAULT_FP_FUSION
                                    (knobs.language.default_fp_fusion), else 1 */
    int cpu;                     /* CPU tensors on the cpu backend (issue 18),
                                    not the fiber backend: by default
                                    (2), or asked by the launch's
                                    backend="cpu" (1); 0: fiber */
    int device;                  /* -1 host, else CUDA device index */
    int device_arg;              /* the argument that set device */
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
/* CUDA device indices that fit the key's device slot. */
#define MAX_DEVICE 13
/* mtarrays.c: runtime argument i classified (kind, value, device, the
 * reference that keeps its memory); -1 with a Python error naming it. */
int classify_runtime(JITObject *self, Call *c, int i);
/* The key item of tensor descriptor argument i: (class, block shape,
 * padding); new reference, NULL with a Python error. */
PyObject *desc_key(JITObject *self, Call *c, int i);
/* grid from an int or a tuple / list of 1..3 ints, each >= 0 (0: no
 * programs, nothing to launch); -1 on error. */
int parse_grid(PyObject *g, uint32_t grid[3]);
const char *jit_name(JITObject *self); /* the kernel's name, for messages */
/* The stream a launch on CUDA device c->device runs on: torch's current
 * stream of that device, NULL without torch; -1 with a Python error. */
int call_stream(const Call *c, void **stream);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
