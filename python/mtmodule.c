/* mtmodule.c: mytriton._C, the CPython extension over the public C API.
 *
 * Input: Python objects (kernel source text, launch arguments: torch
 * tensors, NumPy arrays, objects with __cuda_array_interface__, other
 * objects with __dlpack__/__dlpack_device__, Python scalars).  Output: compiled kernels (Kernel objects owning an mt_kernel)
 * and launches through mt_launch_unchecked.
 *
 * The launch path of `kernel[grid](*args, **kw)` lives here so that a cache
 * hit never runs Python bytecode: JITFunction (subclassed by
 * mytriton.jit.JITFunction) holds the parameter names, constexpr flags and
 * defaults prepared once by Python and a dict from specialization key to
 * Kernel.  A call binds arguments, classifies each one (tensor dtype and
 * device, int range, float, bool, constexpr value) into a key tuple, does
 * one dict lookup, marshals values into a stack array and launches.  Only
 * a miss calls back into Python (self._compile_miss) to build the signature
 * string and compile.
 *
 * Every pointer argument whose address is a multiple of 16 gets the ":16"
 * hint (Triton's divisibility specialisation) in its key class and so in
 * its signature entry: an aligned and a misaligned call compile apart.
 *
 * A call holds a strong reference to every bound argument (and to each
 * DLPack capsule, so the producer's memory stays alive) from binding until
 * the launch returns, so Python code that runs in between (a grid
 * callable, __index__, a compile miss) cannot free what the launch reads;
 * pointers are read only after the grid callable ran.
 *
 * Invariants: one mt_context per process (held by the module, GIL
 * protected; a Kernel keeps a reference to it so the context outlives every
 * kernel); every Kernel in a JITFunction's cache was compiled for exactly
 * the key it is stored under, so the argument classes seen at a hit match
 * the kernel's parameter types. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <string.h>

#include "mytriton.h"

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

/* DLPack (dlpack.h, the unversioned ABI that "dltensor" capsules carry),
 * declared here so that no header is needed. */
typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
enum { DL_CPU = 1, DL_CUDA = 2 };
enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BOOL = 6 };

/* CUDA device indices that fit the key's device slot. */
#define MAX_DEVICE 13

/* ------------------------------------------------------------ module state */

typedef struct {
    PyObject_HEAD
    mt_context *ctx;
} ContextObject;

static PyObject *compilation_error; /* mytriton.CompilationError */
static ContextObject *the_context;
static PyObject *constexpr_cls;     /* tl.constexpr, registered by Python */
static PyObject *true_key, *false_key, *float_tag; /* key markers */
/* torch and numpy objects, looked up lazily once the modules are loaded */
static PyObject *torch_tensor_type, *torch_dtypes[4], *torch_stream_fn;
static PyObject *np_ndarray_type, *np_dtypes[4];
static PyObject *str_dtype, *str_data_ptr, *str_get_device, *str_array_interface,
    *str_cuda_array_interface, *str_data, *str_typestr, *str_num_warps,
    *str_compile_miss, *str_value, *str_dlpack, *str_dlpack_device, *str_is_cpu,
    *str_is_cuda, *str_numel;

/* ---------------------------------------------------------------- errors */

static int is_compile_status(mt_status st) {
    switch (st) {
    case MT_ERR_SYNTAX: case MT_ERR_NAME: case MT_ERR_TYPE: case MT_ERR_VERIFY:
    case MT_ERR_UNSUPPORTED: case MT_ERR_SIGNATURE: case MT_ERR_RESOURCE:
        return 1;
    default:
        return 0;
    }
}

/* Raises the Python exception that matches status st, with the library's
 * message (the full diagnostic for compile errors). */
static PyObject *raise_status(mt_context *ctx, mt_status st) {
    const char *msg = ctx ? mt_errmsg(ctx) : "";
    if (!msg || !*msg)
        msg = mt_status_name(st);
    if (is_compile_status(st)) {
        const char *file = NULL;
        int line = 0, col = 0;
        if (ctx)
            mt_error_loc(ctx, &file, &line, &col);
        PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
        if (!text)
            return NULL;
        PyObject *exc = PyObject_CallOneArg(compilation_error, text);
        Py_DECREF(text);
        if (!exc)
            return NULL;
        PyObject *f = file ? PyUnicode_FromString(file) : Py_NewRef(Py_None);
        PyObject *l = PyLong_FromLong(line), *c = PyLong_FromLong(col);
        PyObject *s = PyUnicode_FromString(mt_status_name(st));
        if (f && l && c && s) {
            PyObject_SetAttrString(exc, "filename", f);
            PyObject_SetAttrString(exc, "lineno", l);
            PyObject_SetAttrString(exc, "col", c);
            PyObject_SetAttrString(exc, "status", s);
        }
        Py_XDECREF(f); Py_XDECREF(l); Py_XDECREF(c); Py_XDECREF(s);
        PyErr_SetObject(compilation_error, exc);
        Py_DECREF(exc);
        return NULL;
    }
    switch (st) {
    case MT_ERR_ARG:
        PyErr_SetString(PyExc_ValueError, msg);
        break;
    case MT_ERR_NOMEM:
        PyErr_SetString(PyExc_MemoryError, msg);
        break;
    case MT_ERR_NO_CUDA:
        PyErr_Format(PyExc_RuntimeError, "CUDA is not available: %s", msg);
        break;
    default:
        PyErr_SetString(PyExc_RuntimeError, msg);
        break;
    }
    return NULL;
}

/* --------------------------------------------------------------- Context */

static void context_dealloc(ContextObject *self) {
    mt_context_destroy(self->ctx);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mytriton._C.Context",
    .tp_basicsize = sizeof(ContextObject),
    .tp_dealloc = (destructor)context_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "an mt_context (one per process)",
};

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

static void kernel_dealloc(KernelObject *self) {
    mt_kernel_destroy(self->k);
    PyMem_Free(self->ptypes);
    PyMem_Free(self->argidx);
    Py_XDECREF(self->signature);
    Py_XDECREF(self->ctxobj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* STAGES: the stage names in mt_stage order, from the library. */
static PyObject *stage_tuple(void) {
    int n = 0;
    while (mt_stage_name((mt_stage)n))
        n++;
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *s = PyUnicode_FromString(mt_stage_name((mt_stage)i));
        if (!s) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static PyObject *kernel_stage(KernelObject *self, PyObject *arg) {
    int stage = -1;
    if (PyLong_Check(arg)) {
        long v = PyLong_AsLong(arg);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        stage = v >= 0 && v <= INT_MAX ? (int)v : -1;
    } else if (PyUnicode_Check(arg)) {
        const char *s = PyUnicode_AsUTF8(arg);
        if (!s)
            return NULL;
        for (int i = 0; mt_stage_name((mt_stage)i); i++)
            if (!strcmp(s, mt_stage_name((mt_stage)i)))
                stage = i;
    }
    if (stage < 0 || !mt_stage_name((mt_stage)stage)) {
        PyObject *names = stage_tuple();
        if (names) {
            PyErr_Format(PyExc_KeyError, "unknown stage %R; expected one of %R", arg, names);
            Py_DECREF(names);
        }
        return NULL;
    }
    const char *text = NULL;
    size_t len = 0;
    mt_status st = mt_kernel_stage(self->ctxobj->ctx, self->k, (mt_stage)stage, &text, &len);
    if (st != MT_OK)
        return raise_status(self->ctxobj->ctx, st);
    if (!text)
        text = "";
    if (stage == MT_STAGE_CUBIN)
        return PyBytes_FromStringAndSize(text, (Py_ssize_t)len);
    return PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
}

static const char *param_type_str(mt_param_type t) {
    static const char *const names[] = {"*fp32", "*i32", "*i1", "*i64",
                                        "i32", "i64", "fp32", "i1"};
    return (unsigned)t < 8 ? names[t] : "?";
}

/* ARG_SIGNATURES: the signature entry ("*fp32:16", "i32") of every
 * argument class, so that jit.py spells a key's kinds without numbers of
 * its own. */
static PyObject *arg_signatures(void) {
    static const struct { int kind; mt_param_type t; const char *hint; } rows[] = {
        {AK_I32, MT_PARAM_I32, ""},
        {AK_I64, MT_PARAM_I64, ""},
        {AK_F32, MT_PARAM_F32, ""},
        {AK_I1, MT_PARAM_I1, ""},
        {AK_I32 + AK_DIV16, MT_PARAM_I32, ":16"},
        {AK_I64 + AK_DIV16, MT_PARAM_I64, ":16"},
        {AK_PTR + PD_F32, MT_PARAM_PTR_F32, ""},
        {AK_PTR + PD_I32, MT_PARAM_PTR_I32, ""},
        {AK_PTR + PD_I1, MT_PARAM_PTR_I1, ""},
        {AK_PTR + PD_I64, MT_PARAM_PTR_I64, ""},
        {AK_PTR + PD_F32 + AK_ALIGN16, MT_PARAM_PTR_F32, ":16"},
        {AK_PTR + PD_I32 + AK_ALIGN16, MT_PARAM_PTR_I32, ":16"},
        {AK_PTR + PD_I1 + AK_ALIGN16, MT_PARAM_PTR_I1, ":16"},
        {AK_PTR + PD_I64 + AK_ALIGN16, MT_PARAM_PTR_I64, ":16"},
    };
    PyObject *d = PyDict_New();
    for (size_t i = 0; d && i < sizeof rows / sizeof rows[0]; i++) {
        PyObject *k = PyLong_FromLong(rows[i].kind);
        PyObject *v = PyUnicode_FromFormat("%s%s", param_type_str(rows[i].t), rows[i].hint);
        if (!k || !v || PyDict_SetItem(d, k, v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *kernel_get_params(KernelObject *self, void *unused) {
    PyObject *list = PyList_New(self->nparams);
    if (!list)
        return NULL;
    for (int i = 0; i < self->nparams; i++) {
        const char *name = mt_kernel_param_name(self->k, i);
        PyObject *t = Py_BuildValue("(ss)", name ? name : "", param_type_str(self->ptypes[i]));
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *kernel_get_name(KernelObject *self, void *unused) {
    const char *n = mt_kernel_name(self->k);
    return PyUnicode_FromString(n ? n : "");
}
static PyObject *kernel_get_num_warps(KernelObject *self, void *unused) {
    return PyLong_FromLong(mt_kernel_num_warps(self->k));
}
static PyObject *kernel_get_shared(KernelObject *self, void *unused) {
    return PyLong_FromSize_t(mt_kernel_shared_bytes(self->k));
}
static PyObject *kernel_get_backend(KernelObject *self, void *unused) {
    return PyUnicode_FromString(mt_kernel_backend(self->k) == MT_BACKEND_CUDA ? "cuda" : "host");
}
static PyObject *kernel_get_stages_only(KernelObject *self, void *unused) {
    return PyBool_FromLong(self->stages_only);
}
static PyObject *kernel_get_signature(KernelObject *self, void *unused) {
    return Py_NewRef(self->signature ? self->signature : Py_None);
}

static int parse_grid(PyObject *g, uint32_t grid[3]);

/* Kernel.launch(grid, args, stream=0): the checked path, arguments given
 * in the kernel's own parameter order (used by tests of the C API). */
static PyObject *kernel_launch(KernelObject *self, PyObject *args) {
    PyObject *gridobj, *seq;
    unsigned long long stream = 0;
    if (!PyArg_ParseTuple(args, "OO|K", &gridobj, &seq, &stream))
        return NULL;
    uint32_t grid[3];
    if (parse_grid(gridobj, grid) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(seq, "args must be a sequence");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != self->nparams || n > MAX_PARAMS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_TypeError, "kernel takes %d arguments, got %zd", self->nparams, n);
        return NULL;
    }
    union { void *p; int32_t i32; int64_t i64; float f; uint8_t b; } vals[MAX_PARAMS];
    void *argv[MAX_PARAMS];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
        switch (self->ptypes[i]) {
        case MT_PARAM_I32: vals[i].i32 = (int32_t)PyLong_AsLong(o); break;
        case MT_PARAM_I64: vals[i].i64 = PyLong_AsLongLong(o); break;
        case MT_PARAM_F32: vals[i].f = (float)PyFloat_AsDouble(o); break;
        case MT_PARAM_I1: vals[i].b = (uint8_t)PyObject_IsTrue(o); break;
        default: vals[i].p = PyLong_AsVoidPtr(o); break;
        }
        argv[i] = &vals[i];
    }
    Py_DECREF(fast);
    if (PyErr_Occurred())
        return NULL;
    mt_status st = mt_launch(self->ctxobj->ctx, self->k, grid, (void *)(uintptr_t)stream, argv);
    if (st != MT_OK)
        return raise_status(self->ctxobj->ctx, st);
    Py_RETURN_NONE;
}

static PyMethodDef kernel_methods[] = {
    {"stage", (PyCFunction)kernel_stage, METH_O,
     "stage(name) -> text of 'ast', 'ssa', 'ssa-opt', 'cuda', 'ptx' (str) or 'cubin' (bytes)"},
    {"launch", (PyCFunction)kernel_launch, METH_VARARGS,
     "launch(grid, args, stream=0): checked launch, args in kernel parameter order"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef kernel_getset[] = {
    {"params", (getter)kernel_get_params, NULL, "runtime parameters [(name, type)]", NULL},
    {"name", (getter)kernel_get_name, NULL, "kernel name", NULL},
    {"num_warps", (getter)kernel_get_num_warps, NULL, "warps per program", NULL},
    {"shared", (getter)kernel_get_shared, NULL, "static shared memory in bytes", NULL},
    {"backend", (getter)kernel_get_backend, NULL, "'host' or 'cuda'", NULL},
    {"stages_only", (getter)kernel_get_stages_only, NULL, "compiled without a backend", NULL},
    {"signature", (getter)kernel_get_signature, NULL,
     "the signature it was compiled for ('*fp32:16, i32, 64')", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mytriton._C.Kernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a compiled kernel (one specialization)",
    .tp_methods = kernel_methods,
    .tp_getset = kernel_getset,
};

/* compile(source, filename, kernel, signature, globals, num_warps, backend,
 *         stages_only=False) -> Kernel
 * globals: a sequence of (name, literal) pairs; backend: "host" or "cuda". */
static PyObject *mod_compile(PyObject *mod, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"source", "filename", "kernel", "signature", "globals",
                             "num_warps", "backend", "stages_only", NULL};
    const char *source, *filename, *kernel, *signature, *backend = "host";
    PyObject *globals = Py_None;
    int num_warps = 4, stages_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ssss|Oisp", kwlist, &source, &filename,
                                     &kernel, &signature, &globals, &num_warps, &backend,
                                     &stages_only))
        return NULL;
    mt_backend be;
    if (!strcmp(backend, "host") || !strcmp(backend, "cpu"))
        be = MT_BACKEND_HOST;
    else if (!strcmp(backend, "cuda"))
        be = MT_BACKEND_CUDA;
    else {
        PyErr_Format(PyExc_ValueError, "unknown backend '%s'; expected 'host' or 'cuda'", backend);
        return NULL;
    }
    PyObject *gfast = NULL;
    Py_ssize_t ng = 0;
    mt_global *gl = NULL;
    if (globals != Py_None) {
        gfast = PySequence_Fast(globals, "globals must be a sequence of (name, value) pairs");
        if (!gfast)
            return NULL;
        ng = PySequence_Fast_GET_SIZE(gfast);
        gl = PyMem_Calloc((size_t)ng + 1, sizeof *gl);
        if (!gl) {
            Py_DECREF(gfast);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < ng; i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(gfast, i);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !(gl[i].name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 0))) ||
                !(gl[i].value = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 1)))) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "globals must be (str, str) pairs");
                PyMem_Free(gl);
                Py_DECREF(gfast);
                return NULL;
            }
        }
    }
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = source;
    o.filename = filename;
    o.kernel = kernel;
    o.signature = signature;
    o.num_warps = num_warps;
    o.backend = be;
    o.globals = gl;
    o.nglobals = (int)ng;
    o.stages_only = stages_only;
    mt_kernel *k = NULL;
    mt_context *ctx = the_context->ctx;
    mt_status st = mt_compile(ctx, &o, &k);
    PyMem_Free(gl);
    Py_XDECREF(gfast);
    if (st != MT_OK)
        return raise_status(ctx, st);
    KernelObject *ko = PyObject_New(KernelObject, &KernelType);
    if (!ko) {
        mt_kernel_destroy(k);
        return NULL;
    }
    ko->ctxobj = (ContextObject *)Py_NewRef(the_context);
    ko->k = k;
    ko->stages_only = stages_only;
    ko->ptypes = NULL;
    ko->argidx = NULL;
    ko->signature = PyUnicode_FromString(signature);
    if (!ko->signature) {
        Py_DECREF(ko);
        return NULL;
    }
    ko->nparams = mt_kernel_num_params(k);
    ko->ptypes = PyMem_Calloc((size_t)ko->nparams + 1, sizeof *ko->ptypes);
    ko->argidx = PyMem_Calloc((size_t)ko->nparams + 1, sizeof *ko->argidx);
    if (!ko->ptypes || !ko->argidx) {
        Py_DECREF(ko);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < ko->nparams; i++) {
        ko->ptypes[i] = mt_kernel_param_type(k, i);
        ko->argidx[i] = i;
    }
    return (PyObject *)ko;
}

/* ------------------------------------------------------------------ grid */

static int grid_error(PyObject *g) {
    PyObject *r = PyObject_Repr(g);
    if (r) {
        PyErr_Format(PyExc_ValueError, "invalid launch grid: %U", r);
        Py_DECREF(r);
    }
    return -1;
}

static int grid_entry(PyObject *x, uint32_t *out) {
    if (!PyLong_CheckExact(x))
        return -1;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || v < 1 || v > 0x7fffffffLL)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* A grid is an int or a tuple/list of 1..3 ints, each >= 1 (bools are not
 * ints here). */
static int parse_grid(PyObject *g, uint32_t grid[3]) {
    grid[0] = grid[1] = grid[2] = 1;
    if (PyLong_Check(g)) {
        if (grid_entry(g, &grid[0]) < 0)
            return grid_error(g);
        return 0;
    }
    if (PyTuple_Check(g) || PyList_Check(g)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(g);
        if (n < 1 || n > 3)
            return grid_error(g);
        PyObject **items = PySequence_Fast_ITEMS(g);
        for (Py_ssize_t i = 0; i < n; i++)
            if (grid_entry(items[i], &grid[i]) < 0)
                return grid_error(g);
        return 0;
    }
    return grid_error(g);
}

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

static int jit_traverse(JITObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->fn);
    Py_VISIT(self->names);
    Py_VISIT(self->name_index);
    Py_VISIT(self->defaults);
    Py_VISIT(self->empty_marker);
    Py_VISIT(self->cache);
    return 0;
}

static int jit_clear(JITObject *self) {
    Py_CLEAR(self->fn);
    Py_CLEAR(self->names);
    Py_CLEAR(self->name_index);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->empty_marker);
    Py_CLEAR(self->cache);
    return 0;
}

static void jit_dealloc(JITObject *self) {
    PyObject_GC_UnTrack(self);
    jit_clear(self);
    PyMem_Free(self->is_const);
    self->is_const = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *jit_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    JITObject *self = (JITObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->cache = PyDict_New();
    if (!self->cache) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* _setup(fn, names, constexpr_flags, defaults, empty_marker) */
static PyObject *jit_setup(JITObject *self, PyObject *args) {
    PyObject *fn, *names, *flags, *defaults, *empty;
    if (!PyArg_ParseTuple(args, "OO!O!O!O", &fn, &PyTuple_Type, &names, &PyTuple_Type, &flags,
                          &PyTuple_Type, &defaults, &empty))
        return NULL;
    if (self->active) {
        PyErr_SetString(PyExc_RuntimeError,
                        "cannot redefine a kernel while a call of it is in progress");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n > MAX_PARAMS || PyTuple_GET_SIZE(flags) != n || PyTuple_GET_SIZE(defaults) != n) {
        PyErr_Format(PyExc_ValueError, "a kernel takes at most %d parameters", MAX_PARAMS);
        return NULL;
    }
    PyObject *index = PyDict_New();
    char *is_const = PyMem_Calloc((size_t)n + 1, 1);
    if (!index || !is_const) {
        Py_XDECREF(index);
        PyMem_Free(is_const);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromSsize_t(i);
        if (!v || PyDict_SetItem(index, PyTuple_GET_ITEM(names, i), v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(index);
            PyMem_Free(is_const);
            return NULL;
        }
        Py_DECREF(v);
        is_const[i] = (char)PyObject_IsTrue(PyTuple_GET_ITEM(flags, i));
    }
    Py_XSETREF(self->fn, Py_NewRef(fn));
    Py_XSETREF(self->names, Py_NewRef(names));
    Py_XSETREF(self->name_index, index);
    Py_XSETREF(self->defaults, Py_NewRef(defaults));
    Py_XSETREF(self->empty_marker, Py_NewRef(empty));
    PyMem_Free(self->is_const);
    self->is_const = is_const;
    self->nparams = (int)n;
    PyDict_Clear(self->cache);
    Py_RETURN_NONE;
}

/* Everything one call needs, on the C stack.  Owned references live from
 * call_bind to call_release. */
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

static void call_release(Call *c) {
    for (int i = 0; i < c->nbound; i++) {
        Py_XDECREF(c->bound[i]);
        Py_XDECREF(c->keep[i]);
        c->bound[i] = c->keep[i] = NULL;
    }
    c->nbound = 0;
}

static const char *launch_options[] = {"num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
                                       "launch_cooperative_grid", "launch_pdl", "debug", NULL};

static const char *jit_name(JITObject *self) {
    if (self->fn) {
        PyObject *n = PyObject_GetAttrString(self->fn, "__name__");
        if (n) {
            const char *s = PyUnicode_Check(n) ? PyUnicode_AsUTF8(n) : NULL;
            Py_DECREF(n); /* the function keeps its name alive */
            if (s)
                return s;
        }
        PyErr_Clear();
    }
    return "kernel";
}

static int bind_args(JITObject *self, PyObject *args, PyObject *kw, Call *c) {
    int n = self->nparams;
    c->nbound = 0;
    if (!self->names) {
        PyErr_SetString(PyExc_RuntimeError, "JITFunction was not set up");
        return -1;
    }
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    if (na > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments but %zd were given",
                     jit_name(self), n, na);
        return -1;
    }
    for (int i = 0; i < n; i++)
        c->bound[i] = i < na ? PyTuple_GET_ITEM(args, i) : NULL;
    c->num_warps = 4;
    if (kw && PyDict_GET_SIZE(kw)) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kw, &pos, &k, &v)) {
            PyObject *idx = PyDict_GetItemWithError(self->name_index, k);
            if (idx) {
                Py_ssize_t i = PyLong_AsSsize_t(idx);
                if (c->bound[i]) {
                    PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument %R",
                                 jit_name(self), k);
                    return -1;
                }
                c->bound[i] = v;
                continue;
            }
            if (PyErr_Occurred())
                return -1;
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "num_warps")) {
                int overflow = 0;
                long w = PyLong_Check(v) && !PyBool_Check(v) ? PyLong_AsLongAndOverflow(v, &overflow) : -1;
                if (overflow || w < 1 || w > 32 || (w & (w - 1))) {
                    PyErr_Format(PyExc_ValueError,
                                 "num_warps must be a power of two between 1 and 32, got %R", v);
                    return -1;
                }
                c->num_warps = (int)w;
                continue;
            }
            int known = 0;
            for (int j = 0; launch_options[j] && PyUnicode_Check(k); j++)
                if (!PyUnicode_CompareWithASCIIString(k, launch_options[j]))
                    known = 1;
            if (!known) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R",
                             jit_name(self), k);
                return -1;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (c->bound[i])
            continue;
        PyObject *d = PyTuple_GET_ITEM(self->defaults, i);
        if (d == self->empty_marker) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument %R", jit_name(self),
                         PyTuple_GET_ITEM(self->names, i));
            return -1;
        }
        c->bound[i] = d;
    }
    for (int i = 0; i < n; i++) {
        Py_INCREF(c->bound[i]);
        c->keep[i] = NULL;
    }
    c->nbound = n;
    return 0;
}

/* Looks up torch/numpy types once their modules are imported (never
 * imports them itself). */
static void refresh_foreign_types(void) {
    static const char *const torch_names[4] = {"float32", "int32", "bool", "int64"};
    static const char *const np_names[4] = {"float32", "int32", "bool_", "int64"};
    PyObject *modules = PyImport_GetModuleDict();
    if (!torch_tensor_type) {
        PyObject *torch = PyDict_GetItemString(modules, "torch");
        if (torch) {
            PyObject *t = PyObject_GetAttrString(torch, "Tensor");
            int ok = t != NULL;
            PyObject *dts[4] = {NULL, NULL, NULL, NULL};
            for (int i = 0; i < 4 && ok; i++)
                ok = (dts[i] = PyObject_GetAttrString(torch, torch_names[i])) != NULL;
            if (ok) {
                torch_tensor_type = t;
                for (int i = 0; i < 4; i++)
                    torch_dtypes[i] = dts[i];
            } else {
                Py_XDECREF(t);
                for (int i = 0; i < 4; i++)
                    Py_XDECREF(dts[i]);
            }
            PyErr_Clear();
        }
    }
    if (!np_ndarray_type) {
        PyObject *np = PyDict_GetItemString(modules, "numpy");
        if (np) {
            PyObject *t = PyObject_GetAttrString(np, "ndarray");
            PyObject *dtype_fn = PyObject_GetAttrString(np, "dtype");
            int ok = t && dtype_fn;
            PyObject *dts[4] = {NULL, NULL, NULL, NULL};
            for (int i = 0; i < 4 && ok; i++) {
                PyObject *sc = PyObject_GetAttrString(np, np_names[i]);
                ok = sc && (dts[i] = PyObject_CallOneArg(dtype_fn, sc)) != NULL;
                Py_XDECREF(sc);
            }
            if (ok) {
                np_ndarray_type = t;
                for (int i = 0; i < 4; i++)
                    np_dtypes[i] = dts[i];
            } else {
                Py_XDECREF(t);
                for (int i = 0; i < 4; i++)
                    Py_XDECREF(dts[i]);
            }
            Py_XDECREF(dtype_fn);
            PyErr_Clear();
        }
    }
}

static int arg_error(JITObject *self, int i, PyObject *exc, const char *what, PyObject *obj) {
    PyErr_Format(exc, "%s(): argument %R: %s%S", jit_name(self),
                 PyTuple_GET_ITEM(self->names, i), what, obj);
    return -1;
}

static int set_device(JITObject *self, Call *c, int i, int device) {
    if (!c->has_tensor) {
        c->has_tensor = 1;
        c->device = device;
        return 0;
    }
    if (c->device == device)
        return 0;
    PyErr_Format(PyExc_TypeError,
                 "%s(): all tensors must be on the same device; argument %R is on %s%d "
                 "but an earlier tensor is on %s%d (-1: cpu)",
                 jit_name(self), PyTuple_GET_ITEM(self->names, i),
                 device < 0 ? "cpu:" : "cuda:", device, c->device < 0 ? "cpu:" : "cuda:",
                 c->device);
    return -1;
}

/* Pointer dtype code from a typestr of the array interfaces ("<f4"). */
static int typestr_code(PyObject *ts) {
    const char *s = PyUnicode_Check(ts) ? PyUnicode_AsUTF8(ts) : NULL;
    if (!s || strlen(s) < 3)
        return -1;
    if (!strcmp(s + 1, "f4")) return PD_F32;
    if (!strcmp(s + 1, "i4")) return PD_I32;
    if (!strcmp(s + 1, "b1")) return PD_I1;
    if (!strcmp(s + 1, "i8")) return PD_I64;
    return -1;
}

/* An int argument's kind: its width, plus AK_DIV16 when it is a multiple
 * of 16 (Triton's 'D' specialisation: the compiler may then prove offsets
 * like row * n_cols aligned and use 128-bit accesses). */
static int int_kind(long long v) {
    int k = (v >= INT32_MIN && v <= INT32_MAX) ? AK_I32 : AK_I64;
    return v % 16 == 0 ? k + AK_DIV16 : k;
}

static int align_bit(const void *p) {
    return (uintptr_t)p % 16 == 0 ? AK_ALIGN16 : 0;
}

/* A tensor whose data pointer is NULL is fine when it has no elements; one
 * with elements has no memory (freed storage, a meta tensor). */
static int check_no_storage(JITObject *self, int i, PyObject *o) {
    PyObject *n = PyObject_CallMethodNoArgs(o, str_numel);
    if (!n)
        return -1;
    long long count = PyLong_AsLongLong(n);
    Py_DECREF(n);
    if (count == -1 && PyErr_Occurred())
        return -1;
    if (count == 0)
        return 0;
    PyErr_Format(PyExc_ValueError,
                 "%s(): argument %R: tensor has %lld elements but no memory "
                 "(data_ptr() is 0: freed storage or a meta tensor)",
                 jit_name(self), PyTuple_GET_ITEM(self->names, i), count);
    return -1;
}

/* The pointer class of a DLPack dtype, or -1. */
static int dlpack_code(DLDataType t) {
    if (t.lanes != 1)
        return -1;
    if (t.code == DL_FLOAT && t.bits == 32) return PD_F32;
    if (t.code == DL_INT && t.bits == 32) return PD_I32;
    if (t.code == DL_INT && t.bits == 64) return PD_I64;
    if (t.code == DL_BOOL && t.bits == 8) return PD_I1;
    return -1;
}

/* An object with __dlpack__ and __dlpack_device__: takes its "dltensor"
 * capsule without consuming it (no rename to "used_dltensor"; the
 * capsule's own destructor calls the deleter when the call releases it),
 * and keeps the capsule until the launch returns.  Returns 0 when
 * classified, 1 when o is not a DLPack producer (no exception set), -1 on
 * error. */
static int classify_dlpack(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    PyObject *devfn = PyObject_GetAttr(o, str_dlpack_device);
    if (!devfn) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 1;
    }
    int has = PyObject_HasAttr(o, str_dlpack); /* clears any error */
    if (!has) {
        Py_DECREF(devfn);
        return 1;
    }
    PyObject *dev = PyObject_CallNoArgs(devfn);
    Py_DECREF(devfn);
    if (!dev)
        return -1;
    long dtype = -1, did = -1;
    if (PyTuple_Check(dev) && PyTuple_GET_SIZE(dev) == 2) {
        dtype = PyLong_AsLong(PyTuple_GET_ITEM(dev, 0));
        did = PyLong_AsLong(PyTuple_GET_ITEM(dev, 1));
    }
    if (PyErr_Occurred()) {
        Py_DECREF(dev);
        return -1;
    }
    if ((dtype != DL_CPU && dtype != DL_CUDA) || did < 0 || did > MAX_DEVICE) {
        arg_error(self, i, PyExc_TypeError,
                  "DLPack arrays must be on the CPU (1) or a CUDA device (2), "
                  "__dlpack_device__() gave ", dev);
        Py_DECREF(dev);
        return -1;
    }
    Py_DECREF(dev);
    PyObject *cap = PyObject_CallMethodNoArgs(o, str_dlpack);
    if (!cap)
        return -1;
    if (!PyCapsule_IsValid(cap, "dltensor")) {
        arg_error(self, i, PyExc_TypeError,
                  "__dlpack__() must return an unused capsule named 'dltensor', got ", cap);
        Py_DECREF(cap);
        return -1;
    }
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, "dltensor");
    if (!mt) {
        Py_DECREF(cap);
        return -1;
    }
    c->keep[i] = cap; /* released by call_release, after the launch */
    const DLTensor *t = &mt->dl_tensor;
    int code = dlpack_code(t->dtype);
    if (code < 0) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument %R: unsupported DLPack dtype (code %d, bits %d, lanes %d); "
                     "expected float32, int32, int64 or bool",
                     jit_name(self), PyTuple_GET_ITEM(self->names, i), (int)t->dtype.code,
                     (int)t->dtype.bits, (int)t->dtype.lanes);
        return -1;
    }
    if ((t->device.device_type != DL_CPU && t->device.device_type != DL_CUDA) ||
        t->device.device_id < 0 || t->device.device_id > MAX_DEVICE ||
        t->device.device_type != dtype || t->device.device_id != did) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument %R: DLPack tensor is on device (%d, %d) but "
                     "__dlpack_device__() said (%ld, %ld)",
                     jit_name(self), PyTuple_GET_ITEM(self->names, i),
                     (int)t->device.device_type, (int)t->device.device_id, dtype, did);
        return -1;
    }
    if (t->ndim < 0 || (t->ndim > 0 && !t->shape)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument %R: malformed DLPack tensor",
                     jit_name(self), PyTuple_GET_ITEM(self->names, i));
        return -1;
    }
    int64_t count = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        count = t->shape[d] == 0 ? 0 : count;
    void *p = (char *)t->data + t->byte_offset;
    if (!t->data) {
        if (count != 0) {
            PyErr_Format(PyExc_ValueError,
                         "%s(): argument %R: DLPack tensor has elements but no memory",
                         jit_name(self), PyTuple_GET_ITEM(self->names, i));
            return -1;
        }
        p = NULL;
    }
    int d = t->device.device_type == DL_CUDA ? (int)t->device.device_id : -1;
    c->val[i].p = p;
    c->kind[i] = 16 * (d + 1) + AK_PTR + code + align_bit(p);
    return set_device(self, c, i, d);
}

/* Classifies runtime argument i: kind, value, device. */
static int classify_runtime(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    if (PyBool_Check(o)) {
        c->kind[i] = AK_I1;
        c->val[i].i = o == Py_True;
        return 0;
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_OverflowError,
                         "%s(): argument %R: integer %S does not fit in int64", jit_name(self),
                         PyTuple_GET_ITEM(self->names, i), o);
            return -1;
        }
        if (v == -1 && PyErr_Occurred())
            return -1;
        c->kind[i] = int_kind(v);
        c->val[i].i = v;
        return 0;
    }
    if (PyFloat_Check(o)) {
        c->kind[i] = AK_F32;
        c->val[i].f = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (!torch_tensor_type || !np_ndarray_type)
        refresh_foreign_types();
    if (torch_tensor_type && PyObject_TypeCheck(o, (PyTypeObject *)torch_tensor_type)) {
        PyObject *dt = PyObject_GetAttr(o, str_dtype);
        if (!dt)
            return -1;
        int code = -1;
        for (int k = 0; k < 4; k++)
            if (dt == torch_dtypes[k])
                code = k;
        if (code < 0) {
            arg_error(self, i, PyExc_TypeError, "unsupported tensor dtype ", dt);
            Py_DECREF(dt);
            return -1;
        }
        Py_DECREF(dt);
        PyObject *dev = PyObject_CallMethodNoArgs(o, str_get_device);
        if (!dev)
            return -1;
        long d = PyLong_AsLong(dev);
        Py_DECREF(dev);
        if (d == -1 && PyErr_Occurred())
            return -1;
        if (d < -1 || d > MAX_DEVICE)
            return arg_error(self, i, PyExc_ValueError, "unsupported device of tensor ", o);
        /* get_device() is -1 for meta tensors too, and other backends
         * (mps, xpu) have indices: only CPU and CUDA memory is usable. */
        PyObject *on = PyObject_GetAttr(o, d < 0 ? str_is_cpu : str_is_cuda);
        if (!on)
            return -1;
        int ok = PyObject_IsTrue(on);
        Py_DECREF(on);
        if (ok < 0)
            return -1;
        if (!ok) {
            PyObject *devobj = PyObject_GetAttrString(o, "device");
            if (!devobj)
                return -1;
            arg_error(self, i, PyExc_TypeError,
                      "tensors must be on the CPU or a CUDA device, got device ", devobj);
            Py_DECREF(devobj);
            return -1;
        }
        PyObject *ptr = PyObject_CallMethodNoArgs(o, str_data_ptr);
        if (!ptr)
            return -1;
        c->val[i].p = PyLong_AsVoidPtr(ptr);
        Py_DECREF(ptr);
        if (PyErr_Occurred())
            return -1;
        if (!c->val[i].p && check_no_storage(self, i, o) < 0)
            return -1;
        c->kind[i] = (int)(16 * (d + 1)) + AK_PTR + code + align_bit(c->val[i].p);
        return set_device(self, c, i, (int)d);
    }
    if (np_ndarray_type && PyObject_TypeCheck(o, (PyTypeObject *)np_ndarray_type)) {
        PyObject *dt = PyObject_GetAttr(o, str_dtype);
        if (!dt)
            return -1;
        int code = -1;
        for (int k = 0; k < 4 && code < 0; k++) {
            int eq = dt == np_dtypes[k] ? 1 : PyObject_RichCompareBool(dt, np_dtypes[k], Py_EQ);
            if (eq < 0) {
                Py_DECREF(dt);
                return -1;
            }
            if (eq)
                code = k;
        }
        if (code < 0) {
            arg_error(self, i, PyExc_TypeError, "unsupported array dtype ", dt);
            Py_DECREF(dt);
            return -1;
        }
        Py_DECREF(dt);
        PyObject *ai = PyObject_GetAttr(o, str_array_interface);
        if (!ai)
            return -1;
        PyObject *data = PyDict_Check(ai) ? PyDict_GetItemWithError(ai, str_data) : NULL;
        if (!data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1) {
            Py_DECREF(ai);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "bad __array_interface__");
            return -1;
        }
        c->val[i].p = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
        Py_DECREF(ai);
        if (PyErr_Occurred())
            return -1;
        c->kind[i] = AK_PTR + code + align_bit(c->val[i].p);
        return set_device(self, c, i, -1);
    }
    PyObject *cai = PyObject_GetAttr(o, str_cuda_array_interface);
    if (cai) {
        int code = -1;
        void *p = NULL;
        if (PyDict_Check(cai)) {
            PyObject *ts = PyDict_GetItemWithError(cai, str_typestr);
            PyObject *data = PyDict_GetItemWithError(cai, str_data);
            if (ts)
                code = typestr_code(ts);
            if (data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1)
                p = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
        }
        Py_DECREF(cai);
        if (PyErr_Occurred())
            return -1;
        if (code < 0)
            return arg_error(self, i, PyExc_TypeError,
                             "unsupported __cuda_array_interface__ typestr in ", o);
        c->val[i].p = p;
        c->kind[i] = 16 + AK_PTR + code + align_bit(p); /* the current device: index 0 */
        return set_device(self, c, i, 0);
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return -1;
    PyErr_Clear();
    int dl = classify_dlpack(self, c, i);
    if (dl <= 0)
        return dl;
    if (PyIndex_Check(o)) { /* NumPy integer scalars */
        PyObject *v = PyNumber_Index(o);
        if (!v)
            return -1;
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        Py_DECREF(v);
        if (overflow) {
            PyErr_Format(PyExc_OverflowError, "%s(): argument %R: integer does not fit in int64",
                         jit_name(self), PyTuple_GET_ITEM(self->names, i));
            return -1;
        }
        c->kind[i] = int_kind(x);
        c->val[i].i = x;
        return 0;
    }
    if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) { /* np.float32 */
        double f = PyFloat_AsDouble(o);
        if (f == -1.0 && PyErr_Occurred())
            return -1;
        c->kind[i] = AK_F32;
        c->val[i].f = f;
        return 0;
    }
    return arg_error(self, i, PyExc_TypeError, "unsupported argument type ", (PyObject *)Py_TYPE(o));
}

/* Key item of a constexpr value: ints as themselves, bools and floats
 * tagged so that True, 1 and 1.0 (and 0.0, -0.0) stay distinct. */
static PyObject *constexpr_key(JITObject *self, int i, PyObject *v) {
    if (v == Py_True)
        return Py_NewRef(true_key);
    if (v == Py_False)
        return Py_NewRef(false_key);
    if (PyLong_CheckExact(v) || PyUnicode_CheckExact(v) || v == Py_None)
        return Py_NewRef(v);
    if (PyFloat_CheckExact(v)) {
        double d = PyFloat_AS_DOUBLE(v);
        unsigned long long bits;
        memcpy(&bits, &d, sizeof bits);
        PyObject *b = PyLong_FromUnsignedLongLong(bits);
        if (!b)
            return NULL;
        PyObject *t = PyTuple_Pack(2, float_tag, b);
        Py_DECREF(b);
        return t;
    }
    if (constexpr_cls && PyObject_TypeCheck(v, (PyTypeObject *)constexpr_cls)) {
        PyObject *inner = PyObject_GetAttr(v, str_value);
        if (!inner)
            return NULL;
        PyObject *r = constexpr_cls && PyObject_TypeCheck(inner, (PyTypeObject *)constexpr_cls)
                          ? NULL
                          : constexpr_key(self, i, inner);
        if (!r && !PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "nested constexpr");
        Py_DECREF(inner);
        return r;
    }
    if (PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v)) { /* subclasses */
        PyObject *t = PyTuple_Pack(2, (PyObject *)Py_TYPE(v), v);
        return t;
    }
    if (PyIndex_Check(v) && !strncmp(Py_TYPE(v)->tp_name, "numpy.", 6)) { /* np.int32(8) */
        PyObject *n = PyNumber_Index(v);
        if (!n)
            return NULL;
        PyObject *r = constexpr_key(self, i, n);
        Py_DECREF(n);
        return r;
    }
    PyErr_Format(PyExc_TypeError, "%R: constexpr value must be bool, int, float, or str, got %R",
                 PyTuple_GET_ITEM(self->names, i), (PyObject *)Py_TYPE(v));
    return NULL;
}

static int resolve_grid(JITObject *self, PyObject *g, Call *c, uint32_t grid[3]);

/* Binds, resolves the grid when gridobj is given (a grid callable runs
 * before any pointer is read), classifies and builds the key (new
 * reference).  The caller releases c with call_release, also on error. */
static PyObject *prepare(JITObject *self, PyObject *args, PyObject *kw, Call *c,
                         PyObject *gridobj, uint32_t grid[3]) {
    c->has_tensor = 0;
    c->device = -1;
    if (bind_args(self, args, kw, c) < 0)
        return NULL;
    if (gridobj && resolve_grid(self, gridobj, c, grid) < 0)
        return NULL;
    int n = c->nbound;
    PyObject *key = PyTuple_New(n + 1);
    if (!key)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item;
        if (self->is_const[i]) {
            c->kind[i] = 0;
            item = constexpr_key(self, i, c->bound[i]);
        } else {
            if (classify_runtime(self, c, i) < 0) {
                Py_DECREF(key);
                return NULL;
            }
            item = PyLong_FromLong(c->kind[i]);
        }
        if (!item) {
            Py_DECREF(key);
            return NULL;
        }
        PyTuple_SET_ITEM(key, i, item);
    }
    PyObject *nw = PyLong_FromLong(c->num_warps);
    if (!nw) {
        Py_DECREF(key);
        return NULL;
    }
    PyTuple_SET_ITEM(key, n, nw);
    return key;
}

/* The meta dict for a callable grid: constexpr name -> bound value. */
static PyObject *meta_dict(JITObject *self, Call *c) {
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (int i = 0; i < self->nparams; i++) {
        if (!self->is_const[i])
            continue;
        PyObject *v = c->bound[i];
        PyObject *unwrapped = NULL;
        if (constexpr_cls && PyObject_TypeCheck(v, (PyTypeObject *)constexpr_cls)) {
            unwrapped = PyObject_GetAttr(v, str_value);
            if (!unwrapped) {
                Py_DECREF(d);
                return NULL;
            }
            v = unwrapped;
        }
        int rc = PyDict_SetItem(d, PyTuple_GET_ITEM(self->names, i), v);
        Py_XDECREF(unwrapped);
        if (rc < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

static int resolve_grid(JITObject *self, PyObject *g, Call *c, uint32_t grid[3]) {
    if (!PyLong_Check(g) && !PyTuple_Check(g) && !PyList_Check(g) && PyCallable_Check(g)) {
        PyObject *meta = meta_dict(self, c);
        if (!meta)
            return -1;
        PyObject *r = PyObject_CallOneArg(g, meta);
        Py_DECREF(meta);
        if (!r)
            return -1;
        int rc = parse_grid(r, grid);
        Py_DECREF(r);
        return rc;
    }
    return parse_grid(g, grid);
}

/* The kernel for key: a dict hit, or a compile through Python. */
static KernelObject *lookup(JITObject *self, PyObject *key, Call *c, int stages_only) {
    PyObject *k = PyDict_GetItemWithError(self->cache, key);
    if (k) {
        self->hits++;
        return (KernelObject *)Py_NewRef(k);
    }
    if (PyErr_Occurred())
        return NULL;
    int n = c->nbound;
    PyObject *bound = PyTuple_New(n), *kinds = PyTuple_New(n);
    if (!bound || !kinds)
        goto fail;
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(bound, i, Py_NewRef(c->bound[i]));
        PyObject *kk = PyLong_FromLong(c->kind[i]);
        if (!kk)
            goto fail;
        PyTuple_SET_ITEM(kinds, i, kk);
    }
    const char *backend = c->has_tensor && c->device >= 0 ? "cuda" : "host";
    PyObject *r = PyObject_CallMethod((PyObject *)self, "_compile_miss", "OOisii", bound, kinds,
                                      c->num_warps, backend, c->device, stages_only);
    Py_DECREF(bound);
    Py_DECREF(kinds);
    if (!r)
        return NULL;
    if (!PyObject_TypeCheck(r, &KernelType)) {
        PyErr_SetString(PyExc_TypeError, "_compile_miss must return a Kernel");
        Py_DECREF(r);
        return NULL;
    }
    KernelObject *ko = (KernelObject *)r;
    /* Map each kernel parameter to its Python parameter by name. */
    for (int j = 0; j < ko->nparams; j++) {
        const char *pn = mt_kernel_param_name(ko->k, j);
        PyObject *idx = pn ? PyDict_GetItemString(self->name_index, pn) : NULL;
        if (!idx) {
            PyErr_Format(PyExc_RuntimeError, "compiled kernel parameter '%s' is not a parameter of %s",
                         pn ? pn : "?", jit_name(self));
            Py_DECREF(r);
            return NULL;
        }
        ko->argidx[j] = (int)PyLong_AsLong(idx);
    }
    self->compiles++;
    if (!ko->stages_only && PyDict_SetItem(self->cache, key, r) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return ko;
fail:
    Py_XDECREF(bound);
    Py_XDECREF(kinds);
    return NULL;
}

static PyObject *launch(JITObject *self, KernelObject *ko, Call *c, const uint32_t grid[3]) {
    union { void *p; int32_t i32; int64_t i64; float f; uint8_t b; } vals[MAX_PARAMS];
    void *argv[MAX_PARAMS];
    for (int j = 0; j < ko->nparams; j++) {
        int i = ko->argidx[j];
        switch (ko->ptypes[j]) {
        case MT_PARAM_I32: vals[j].i32 = (int32_t)c->val[i].i; break;
        case MT_PARAM_I64: vals[j].i64 = c->val[i].i; break;
        case MT_PARAM_F32: vals[j].f = (float)c->val[i].f; break;
        case MT_PARAM_I1: vals[j].b = (uint8_t)(c->val[i].i != 0); break;
        default: vals[j].p = c->val[i].p; break;
        }
        argv[j] = &vals[j];
    }
    void *stream = NULL;
    mt_status st;
    if (c->has_tensor && c->device >= 0) {
        if (!torch_stream_fn && torch_tensor_type) {
            PyObject *modules = PyImport_GetModuleDict();
            PyObject *torch = PyDict_GetItemString(modules, "torch");
            PyObject *tc = torch ? PyObject_GetAttrString(torch, "_C") : NULL;
            torch_stream_fn = tc ? PyObject_GetAttrString(tc, "_cuda_getCurrentRawStream") : NULL;
            Py_XDECREF(tc);
            PyErr_Clear();
        }
        if (torch_stream_fn) {
            PyObject *dev = PyLong_FromLong(c->device);
            PyObject *s = dev ? PyObject_CallOneArg(torch_stream_fn, dev) : NULL;
            Py_XDECREF(dev);
            if (!s)
                return NULL;
            stream = PyLong_AsVoidPtr(s);
            Py_DECREF(s);
            if (PyErr_Occurred())
                return NULL;
        }
        st = mt_launch_unchecked(ko->k, grid, stream, argv);
    } else {
        /* The GIL stays held: a failed launch writes its message into the
         * shared mt_context, which is not thread-safe, and another thread
         * could be compiling on it.  The host runtime still spreads the
         * programs over its own worker threads. */
        st = mt_launch_unchecked(ko->k, grid, stream, argv);
    }
    if (st != MT_OK)
        return raise_status(ko->ctxobj->ctx, st);
    Py_RETURN_NONE;
}

static PyObject *jit_run(JITObject *self, PyObject *gridobj, PyObject *args, PyObject *kw) {
    Call c;
    uint32_t grid[3];
    PyObject *r = NULL;
    self->active++;
    PyObject *key = prepare(self, args, kw, &c, gridobj, grid);
    if (key) {
        KernelObject *ko = lookup(self, key, &c, 0);
        Py_DECREF(key);
        if (ko) {
            r = launch(self, ko, &c, grid);
            Py_DECREF(ko);
        }
    }
    call_release(&c);
    self->active--;
    return r;
}

/* _run(grid, args, kwargs): the launch, callable from Python too. */
static PyObject *jit_run_method(JITObject *self, PyObject *a) {
    PyObject *grid, *args, *kw;
    if (!PyArg_ParseTuple(a, "OO!O", &grid, &PyTuple_Type, &args, &kw))
        return NULL;
    return jit_run(self, grid, args, kw == Py_None ? NULL : kw);
}

/* _specialize(args, kwargs, stages_only) -> Kernel, without launching. */
static PyObject *jit_specialize(JITObject *self, PyObject *a) {
    PyObject *args, *kw;
    int stages_only = 0;
    if (!PyArg_ParseTuple(a, "O!O|p", &PyTuple_Type, &args, &kw, &stages_only))
        return NULL;
    Call c;
    KernelObject *ko = NULL;
    self->active++;
    PyObject *key = prepare(self, args, kw == Py_None ? NULL : kw, &c, NULL, NULL);
    if (key) {
        ko = lookup(self, key, &c, stages_only);
        Py_DECREF(key);
    }
    call_release(&c);
    self->active--;
    return (PyObject *)ko;
}

/* _key(args, kwargs) -> (key, bound values, num_warps) for inspection. */
static PyObject *jit_key(JITObject *self, PyObject *a) {
    PyObject *args, *kw;
    if (!PyArg_ParseTuple(a, "O!O", &PyTuple_Type, &args, &kw))
        return NULL;
    Call c;
    PyObject *key = prepare(self, args, kw == Py_None ? NULL : kw, &c, NULL, NULL);
    PyObject *bound = key ? PyTuple_New(c.nbound) : NULL;
    if (!bound) {
        Py_XDECREF(key);
        call_release(&c);
        return NULL;
    }
    for (int i = 0; i < c.nbound; i++)
        PyTuple_SET_ITEM(bound, i, Py_NewRef(c.bound[i]));
    int nw = c.num_warps;
    call_release(&c);
    return Py_BuildValue("(NNi)", key, bound, nw);
}

static PyObject *jit_cache_info(JITObject *self, PyObject *unused) {
    return Py_BuildValue("{s:L,s:L,s:n}", "compiles", self->compiles, "hits", self->hits,
                         "size", PyDict_GET_SIZE(self->cache));
}

static PyObject *jit_clear_cache(JITObject *self, PyObject *unused) {
    PyDict_Clear(self->cache);
    Py_RETURN_NONE;
}

static PyObject *jit_get_cache(JITObject *self, void *unused) {
    return Py_NewRef(self->cache);
}

/* kernel[grid] -> Launcher */
typedef struct {
    PyObject_HEAD
    JITObject *jit;
    PyObject *grid;
} LauncherObject;

static PyTypeObject LauncherType;

static PyObject *jit_subscript(JITObject *self, PyObject *grid) {
    LauncherObject *l = PyObject_New(LauncherObject, &LauncherType);
    if (!l)
        return NULL;
    l->jit = (JITObject *)Py_NewRef(self);
    l->grid = Py_NewRef(grid);
    return (PyObject *)l;
}

static void launcher_dealloc(LauncherObject *self) {
    Py_DECREF(self->jit);
    Py_DECREF(self->grid);
    PyObject_Free(self);
}

static PyObject *launcher_call(LauncherObject *self, PyObject *args, PyObject *kw) {
    return jit_run(self->jit, self->grid, args, kw);
}

static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mytriton._C.Launcher",
    .tp_basicsize = sizeof(LauncherObject),
    .tp_dealloc = (destructor)launcher_dealloc,
    .tp_call = (ternaryfunc)launcher_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "kernel[grid]: call it with the kernel's arguments to launch",
};

static PyMappingMethods jit_as_mapping = {
    .mp_subscript = (binaryfunc)jit_subscript,
};

static PyMethodDef jit_methods[] = {
    {"_setup", (PyCFunction)jit_setup, METH_VARARGS, NULL},
    {"_run", (PyCFunction)jit_run_method, METH_VARARGS, "_run(grid, args, kwargs)"},
    {"_specialize", (PyCFunction)jit_specialize, METH_VARARGS,
     "_specialize(args, kwargs, stages_only=False) -> Kernel"},
    {"_key", (PyCFunction)jit_key, METH_VARARGS, "_key(args, kwargs) -> (key, bound, num_warps)"},
    {"cache_info", (PyCFunction)jit_cache_info, METH_NOARGS,
     "{'compiles': n, 'hits': n, 'size': n}"},
    {"clear_cache", (PyCFunction)jit_clear_cache, METH_NOARGS, "forget every compiled kernel"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef jit_getset[] = {
    {"cache", (getter)jit_get_cache, NULL, "specialization key -> Kernel", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject JITType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mytriton._C.JITFunction",
    .tp_basicsize = sizeof(JITObject),
    .tp_dealloc = (destructor)jit_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "base of mytriton.jit.JITFunction: the launch path",
    .tp_traverse = (traverseproc)jit_traverse,
    .tp_clear = (inquiry)jit_clear,
    .tp_methods = jit_methods,
    .tp_getset = jit_getset,
    .tp_as_mapping = &jit_as_mapping,
    .tp_new = jit_new,
};

/* ---------------------------------------------------------------- module */

static PyObject *mod_cuda_available(PyObject *mod, PyObject *unused) {
    return PyBool_FromLong(mt_cuda_available(the_context->ctx));
}

static PyObject *mod_register(PyObject *mod, PyObject *cls) {
    Py_XSETREF(constexpr_cls, Py_NewRef(cls));
    Py_RETURN_NONE;
}

/* language_names() -> {group: [(name, usage), ...]}: the names the kernel
 * language knows, listed from the compiler's own tables; mytriton.language
 * is built from them, so it offers what the compiler accepts. */
static PyObject *mod_language_names(PyObject *mod, PyObject *unused) {
    static const struct {
        mt_name_group group;
        const char *key;
    } groups[] = {
        {MT_NAMES_TL, "tl"},           {MT_NAMES_DTYPE, "dtype"},
        {MT_NAMES_METHOD, "method"},   {MT_NAMES_BUILTIN, "builtin"},
        {MT_NAMES_TRITON, "triton"},
    };
    PyObject *d = PyDict_New();
    for (size_t g = 0; d && g < sizeof groups / sizeof groups[0]; g++) {
        PyObject *list = PyList_New(0);
        const char *name, *doc;
        for (int i = 0; list && (name = mt_language_name(groups[g].group, i, &doc)); i++) {
            PyObject *entry = Py_BuildValue("(ss)", name, doc);
            if (!entry || PyList_Append(list, entry) < 0)
                Py_CLEAR(list);
            Py_XDECREF(entry);
        }
        if (!list || PyDict_SetItemString(d, groups[g].key, list) < 0)
            Py_CLEAR(d);
        Py_XDECREF(list);
    }
    return d;
}

static PyMethodDef module_methods[] = {
    {"compile", (PyCFunction)(void (*)(void))mod_compile, METH_VARARGS | METH_KEYWORDS,
     "compile(source, filename, kernel, signature, globals=None, num_warps=4, "
     "backend='host', stages_only=False) -> Kernel"},
    {"cuda_available", (PyCFunction)mod_cuda_available, METH_NOARGS,
     "True when libcuda is found and a device exists"},
    {"_register_constexpr", (PyCFunction)mod_register, METH_O, NULL},
    {"language_names", (PyCFunction)mod_language_names, METH_NOARGS,
     "language_names() -> {group: [(name, usage)]}: the kernel language's names"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "mytriton._C",
    "C extension of mytriton: compilation and the launch path", -1, module_methods,
    NULL, NULL, NULL, NULL};

static int intern_strings(void) {
    struct { PyObject **slot; const char *s; } t[] = {
        {&str_dtype, "dtype"}, {&str_data_ptr, "data_ptr"}, {&str_get_device, "get_device"},
        {&str_array_interface, "__array_interface__"},
        {&str_cuda_array_interface, "__cuda_array_interface__"}, {&str_data, "data"},
        {&str_typestr, "typestr"}, {&str_num_warps, "num_warps"},
        {&str_compile_miss, "_compile_miss"}, {&str_value, "value"},
        {&str_dlpack, "__dlpack__"}, {&str_dlpack_device, "__dlpack_device__"},
        {&str_is_cpu, "is_cpu"}, {&str_is_cuda, "is_cuda"}, {&str_numel, "numel"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!(*t[i].slot = PyUnicode_InternFromString(t[i].s)))
            return -1;
    return 0;
}

PyMODINIT_FUNC PyInit__C(void);

PyMODINIT_FUNC PyInit__C(void) {
    if (PyType_Ready(&ContextType) < 0 || PyType_Ready(&KernelType) < 0 ||
        PyType_Ready(&LauncherType) < 0 || PyType_Ready(&JITType) < 0)
        return NULL;
    if (intern_strings() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    compilation_error = PyErr_NewExceptionWithDoc(
        "mytriton.CompilationError",
        "A kernel failed to compile.  The message is the full diagnostic "
        "(file:line:col: error: ..., the source line and a caret); "
        ".filename, .lineno, .col and .status give its parts.",
        PyExc_Exception, NULL);
    true_key = PyUnicode_FromString("\x01constexpr:True");
    false_key = PyUnicode_FromString("\x01constexpr:False");
    float_tag = PyUnicode_FromString("\x01constexpr:float");
    the_context = PyObject_New(ContextObject, &ContextType);
    if (!compilation_error || !true_key || !false_key || !float_tag || !the_context)
        goto fail;
    the_context->ctx = NULL;
    if (mt_context_create(&the_context->ctx) != MT_OK) {
        PyErr_SetString(PyExc_MemoryError, "cannot create an mt_context");
        goto fail;
    }
    if (PyModule_AddObjectRef(m, "CompilationError", compilation_error) < 0 ||
        PyModule_AddObjectRef(m, "Kernel", (PyObject *)&KernelType) < 0 ||
        PyModule_AddObjectRef(m, "JITFunction", (PyObject *)&JITType) < 0 ||
        PyModule_AddObjectRef(m, "Launcher", (PyObject *)&LauncherType) < 0 ||
        PyModule_AddIntConstant(m, "API_VERSION", mt_version()) < 0)
        goto fail;
    PyObject *stages = stage_tuple(), *sigs = arg_signatures();
    int bad = !stages || !sigs || PyModule_AddObjectRef(m, "STAGES", stages) < 0 ||
              PyModule_AddObjectRef(m, "ARG_SIGNATURES", sigs) < 0 ||
              PyModule_AddIntConstant(m, "ARG_CLASS_MASK", AK_CLASS_MASK) < 0;
    Py_XDECREF(stages);
    Py_XDECREF(sigs);
    if (bad)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
