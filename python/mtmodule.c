/* mtmodule.c: mytriton._C, the CPython extension over the public C API.
 *
 * Input: Python objects (kernel source text, launch arguments: torch
 * tensors, NumPy arrays, objects with __cuda_array_interface__, other
 * objects with __dlpack__/__dlpack_device__, Python scalars).  Output:
 * compiled kernels (Kernel objects owning an mt_kernel) and launches
 * through mt_launch_unchecked.
 *
 * This file holds the module (its state, PyInit__C, compile() and the
 * language-name tables), the mapping from mt_status to Python exceptions,
 * and the Context and Kernel types.  The launch path of
 * `kernel[grid](*args, **kw)` is in mtjit.c (JITFunction, cache lookup,
 * launch) and mtargs.c (binding and classifying one call's arguments);
 * mtmodule.h lists what the three share.
 *
 * Invariants: one mt_context per process (held by the module, GIL
 * protected; a Kernel keeps a reference to it so the context outlives every
 * kernel); every Kernel in a JITFunction's cache was compiled for exactly
 * the key it is stored under, so the argument classes seen at a hit match
 * the kernel's parameter types. */
#include "mtmodule.h"

#include <structmember.h>

#include <signal.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------ module state */

PyObject *compilation_error;
static PyObject *assertion_failure; /* mytriton.CompileTimeAssertionFailure */
PyObject *launch_error; /* mytriton.LaunchError */
PyObject *option_error; /* mytriton.OptionError */
PyObject *triton_error; /* mytriton.TritonError, the base of our errors */
ContextObject *the_context;
PyObject *constexpr_cls;
PyObject *dtype_cls;
PyObject *tensor_wrapper_cls;
PyObject *true_key, *false_key, *float_tag;
PyObject *torch_tensor_type, *torch_dtypes[MT_DTYPE_COUNT], *torch_stream_fn;
PyObject *np_ndarray_type, *np_dtypes[MT_DTYPE_COUNT];
PyObject *str_dtype, *str_data_ptr, *str_get_device, *str_array_interface,
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

/* Triton's CompilationError is raised from the front end's own exception,
 * and code (Triton's tests among it) reads the message off __cause__ or
 * error_message: a ValueError of the diagnostic's message, without
 * location and source line, stands in for the first, the message itself
 * is the second. */
static void set_cause(PyObject *exc, const char *msg) {
    const char *at = strstr(msg, "error: ");
    at = at ? at + strlen("error: ") : msg;
    const char *end = strchr(at, '\n');
    PyObject *text = PyUnicode_DecodeUTF8(at, end ? end - at : (Py_ssize_t)strlen(at), "replace");
    PyObject *cause = text ? PyObject_CallOneArg(PyExc_ValueError, text) : NULL;
    if (text && PyObject_SetAttrString(exc, "error_message", text) < 0)
        PyErr_Clear();
    Py_XDECREF(text);
    if (cause)
        PyException_SetCause(exc, cause); /* steals the reference */
    else
        PyErr_Clear();
}

/* Raises the Python exception that matches status st, with the library's
 * message (the full diagnostic for compile errors). */
PyObject *raise_status(mt_context *ctx, mt_status st) {
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
        /* a failed tl.static_assert is its own class, as in Triton: the
         * autotuner skips a config that fails one */
        PyObject *cls = strstr(msg, "error: static assertion failed") ? assertion_failure
                                                                        : compilation_error;
        PyObject *exc = PyObject_CallOneArg(cls, text);
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
        set_cause(exc, msg);
        PyErr_SetObject(cls, exc);
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

/* A launch error with text msg: LaunchError for what went wrong running
 * the kernel (resources, a device assertion, the driver, the runtime),
 * never CompilationError, though a status such as MT_ERR_RESOURCE means
 * that at compile time; bad arguments are ValueError, no memory
 * MemoryError. */
static PyObject *raise_launch_text(const char *msg, mt_status st) {
    if (!msg || !*msg)
        msg = mt_status_name(st);
    if (st == MT_ERR_ARG || st == MT_ERR_NOMEM) {
        PyErr_SetString(st == MT_ERR_ARG ? PyExc_ValueError : PyExc_MemoryError, msg);
        return NULL;
    }
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    PyObject *exc = text ? PyObject_CallOneArg(launch_error, text) : NULL;
    Py_XDECREF(text);
    if (!exc)
        return NULL;
    PyObject *s = PyUnicode_FromString(mt_status_name(st));
    if (s)
        PyObject_SetAttrString(exc, "status", s);
    Py_XDECREF(s);
    PyErr_SetObject(launch_error, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *raise_launch_status(mt_context *ctx, mt_status st) {
    if (st == MT_ERR_NO_CUDA)
        return raise_status(ctx, st);
    return raise_launch_text(ctx ? mt_errmsg(ctx) : "", st);
}

/* ------------------------------------------------------ host launches */

/* Host launches run without the GIL (mt_launch_host touches no state of
 * the shared context), so other Python threads run, compile and launch
 * meanwhile.  A launch from the main thread is interruptible: for its
 * length a SIGINT handler of ours stands in front of Python's.  It raises
 * a flag and calls Python's handler (which only notes the signal); the
 * library polls between programs, and on the flag we take the GIL back
 * and let Python run its handler (PyErr_CheckSignals).  KeyboardInterrupt
 * stops the launch (programs already running finish); a handler that
 * returns lets it go on.  Only the main thread installs (Python runs
 * signal handlers there alone), so installs never overlap; a SIGINT that
 * is ignored or left to the default action is not taken over. */
static unsigned long main_thread_ident;
static volatile sig_atomic_t sigint_seen;
static struct sigaction python_sigint;

static void on_sigint(int sig, siginfo_t *info, void *uc) {
    sigint_seen = 1;
    if (python_sigint.sa_flags & SA_SIGINFO)
        python_sigint.sa_sigaction(sig, info, uc);
    else if (python_sigint.sa_handler != SIG_IGN && python_sigint.sa_handler != SIG_DFL)
        python_sigint.sa_handler(sig);
}

typedef struct {
    PyThreadState *ts;
} HostPoll;

static int poll_signals(void *p) {
    if (!sigint_seen)
        return 0;
    sigint_seen = 0;
    HostPoll *hp = p;
    PyEval_RestoreThread(hp->ts);
    int stop = PyErr_CheckSignals() < 0;
    hp->ts = PyEval_SaveThread();
    return stop;
}

/* True when our handler went in (the caller restores python_sigint). */
static int install_sigint(void) {
    if (!main_thread_ident || PyThread_get_thread_ident() != main_thread_ident)
        return 0;
    if (sigaction(SIGINT, NULL, &python_sigint) != 0 ||
        (!(python_sigint.sa_flags & SA_SIGINFO) &&
         (python_sigint.sa_handler == SIG_IGN || python_sigint.sa_handler == SIG_DFL)))
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigint;
    sa.sa_flags = SA_SIGINFO | (python_sigint.sa_flags & SA_ONSTACK);
    sigemptyset(&sa.sa_mask);
    sigint_seen = 0;
    return sigaction(SIGINT, &sa, NULL) == 0;
}

PyObject *launch_host_kernel(mt_kernel *k, const uint32_t grid[3], void **argv,
                             const mt_launch_options *lo) {
    char err[2048];
    int ours = install_sigint();
    HostPoll hp = {PyEval_SaveThread()};
    mt_status st = mt_launch_host_ex(k, grid, argv, lo, ours ? poll_signals : NULL, &hp, err,
                                     sizeof err);
    PyEval_RestoreThread(hp.ts);
    if (ours)
        sigaction(SIGINT, &python_sigint, NULL);
    if (PyErr_Occurred()) /* KeyboardInterrupt, from Python's handler */
        return NULL;
    if (st != MT_OK)
        return raise_launch_text(err, st);
    Py_RETURN_NONE;
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

static void kernel_dealloc(KernelObject *self) {
    mt_kernel_destroy(self->k);
    PyMem_Free(self->pack);
    PyMem_Free(self->argidx);
    PyMem_Free(self->argpart);
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

/* ARG_SIGNATURES: the signature entry ("*fp16:16", "i32") of every
 * argument class, so that jit.py spells a key's kinds without numbers of
 * its own: every dtype as a scalar and as a pointer, with ":16" on
 * pointers and on integers and ":1" on integers (the classes prepare can
 * give are a subset). */
static PyObject *arg_signatures(void) {
    PyObject *d = PyDict_New();
    for (int t = 0; d && t < MT_DTYPE_COUNT; t++) {
        const char *name = mt_dtype_name((mt_dtype)t);
        int is_int = !dtype_is_float((mt_dtype)t) && t != MT_DTYPE_I1;
        const struct { int kind; const char *fmt; } rows[] = {
            {AK_SCALAR(t), "%s"},
            {AK_SCALAR(t) + AK_HINT16, is_int ? "%s:16" : NULL},
            {AK_SCALAR(t) + AK_ONE, is_int ? "%s:1" : NULL},
            {AK_PTR + AK_SCALAR(t), "*%s"},
            {AK_PTR + AK_SCALAR(t) + AK_HINT16, "*%s:16"},
            /* jit.py adds the block shape and padding */
            {AK_DESC + AK_SCALAR(t) + AK_HINT16, "tensordesc<%s"},
        };
        for (size_t r = 0; d && r < sizeof rows / sizeof rows[0]; r++) {
            if (!rows[r].fmt)
                continue;
            PyObject *k = PyLong_FromLong(rows[r].kind);
            PyObject *v = PyUnicode_FromFormat(rows[r].fmt, name);
            if (!k || !v || PyDict_SetItem(d, k, v) < 0)
                Py_CLEAR(d);
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
    }
    return d;
}

/* A parameter's type as a signature spells it: "*fp16", "u64". */
static PyObject *param_type_str(const mt_kernel *k, int i) {
    const char *name = mt_dtype_name(mt_kernel_param_dtype(k, i));
    return PyUnicode_FromFormat("%s%s", mt_kernel_param_is_pointer(k, i) ? "*" : "",
                                name ? name : "?");
}

static PyObject *kernel_get_params(KernelObject *self, void *unused) {
    PyObject *list = PyList_New(self->nparams);
    if (!list)
        return NULL;
    for (int i = 0; i < self->nparams; i++) {
        const char *name = mt_kernel_param_name(self->k, i);
        PyObject *t = Py_BuildValue("(sN)", name ? name : "", param_type_str(self->k, i));
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
    mt_backend b = mt_kernel_backend(self->k);
    return PyUnicode_FromString(b == MT_BACKEND_CUDA ? "cuda" : b == MT_BACKEND_MLIR ? "mlir"
                                : b == MT_BACKEND_CPU  ? "cpu"
                                                       : "host");
}
static PyObject *kernel_get_stages_only(KernelObject *self, void *unused) {
    return PyBool_FromLong(self->stages_only);
}
static PyObject *kernel_get_signature(KernelObject *self, void *unused) {
    return Py_NewRef(self->signature ? self->signature : Py_None);
}

/* The value Python object o gives a parameter packed as op (PK_PTR or an
 * mt_dtype): an address, an integer (u64 by its bits; OverflowError
 * outside the parameter's range) or a float. */
static int arg_value(int op, PyObject *o, ArgValue *v) {
    if (op == PK_PTR)
        v->p = PyLong_AsVoidPtr(o);
    else if (dtype_is_float((mt_dtype)op))
        v->f = PyFloat_AsDouble(o);
    else if (op == MT_DTYPE_I1)
        v->i = PyObject_IsTrue(o);
    else if (op == MT_DTYPE_U64)
        v->i = (int64_t)PyLong_AsUnsignedLongLong(o);
    else {
        v->i = PyLong_AsLongLong(o); /* i64: OverflowError past its range */
        int bits = 8 * (int)mt_dtype_size((mt_dtype)op);
        int is_signed = op <= MT_DTYPE_I64; /* i8..i64 come before u8..u64 */
        if (bits < 64 && !PyErr_Occurred()) {
            int64_t lo = is_signed ? -(INT64_C(1) << (bits - 1)) : 0;
            int64_t hi = (INT64_C(1) << (is_signed ? bits - 1 : bits)) - 1;
            if (v->i < lo || v->i > hi)
                PyErr_Format(PyExc_OverflowError, "%S does not fit in a %s parameter", o,
                             mt_dtype_name((mt_dtype)op));
        }
    }
    return PyErr_Occurred() ? -1 : 0;
}

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
    ArgSlot vals[MAX_PARAMS];
    void *argv[MAX_PARAMS];
    for (Py_ssize_t i = 0; i < n; i++) {
        ArgValue v;
        if (arg_value(self->pack[i], PySequence_Fast_GET_ITEM(fast, i), &v) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        pack_arg(self->pack[i], v, &vals[i]);
        argv[i] = &vals[i];
    }
    Py_DECREF(fast);
    if (mt_kernel_backend(self->k) == MT_BACKEND_HOST ||
        mt_kernel_backend(self->k) == MT_BACKEND_CPU)
        return launch_host_kernel(self->k, grid, argv, NULL);
    mt_status st = mt_launch(self->ctxobj->ctx, self->k, grid, (void *)(uintptr_t)stream, argv);
    if (st != MT_OK)
        return raise_launch_status(self->ctxobj->ctx, st);
    Py_RETURN_NONE;
}

/* Kernel.usage() -> (registers, local bytes, max threads) per thread of
 * the compiled code (mt_kernel_usage: loads a CUDA kernel's module in the
 * current context first). */
static PyObject *kernel_usage(KernelObject *self, PyObject *unused) {
    int regs, local, threads;
    mt_status st = mt_kernel_usage(self->ctxobj->ctx, self->k, &regs, &local, &threads);
    if (st != MT_OK)
        return raise_status(self->ctxobj->ctx, st);
    return Py_BuildValue("(iii)", regs, local, threads);
}

static PyMethodDef kernel_methods[] = {
    {"stage", (PyCFunction)kernel_stage, METH_O,
     "stage(name) -> text of 'ast', 'ssa', 'ssa-opt', 'cuda', 'ptx' (str) or 'cubin' (bytes)"},
    {"launch", (PyCFunction)kernel_launch, METH_VARARGS,
     "launch(grid, args, stream=0): checked launch, args in kernel parameter order"},
    {"usage", (PyCFunction)kernel_usage, METH_NOARGS,
     "usage() -> (registers, local memory bytes, max threads) per thread"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef kernel_getset[] = {
    {"params", (getter)kernel_get_params, NULL, "runtime parameters [(name, type)]", NULL},
    {"name", (getter)kernel_get_name, NULL, "kernel name", NULL},
    {"num_warps", (getter)kernel_get_num_warps, NULL, "warps per program", NULL},
    {"shared", (getter)kernel_get_shared, NULL, "static shared memory in bytes", NULL},
    {"backend", (getter)kernel_get_backend, NULL, "'host', 'cpu', 'cuda' or 'mlir'", NULL},
    {"stages_only", (getter)kernel_get_stages_only, NULL, "compiled without a backend", NULL},
    {"signature", (getter)kernel_get_signature, NULL,
     "the signature it was compiled for ('*fp32:16, i32, 64')", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mytriton._C.Kernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "a compiled kernel (one specialization)",
    .tp_methods = kernel_methods,
    .tp_getset = kernel_getset,
};

/* tl.static_print's text goes to sys.stdout, as Python's print would
 * write it (mt_compile runs with the GIL held); a failed write is
 * dropped, as the compilation cannot stop for it. */
static void print_to_sys_stdout(void *user, const char *text) {
    (void)user;
    PyObject *out = PySys_GetObject("stdout");
    if (out && out != Py_None && PyFile_WriteString(text, out) < 0)
        PyErr_Clear();
}

/* compile(source, filename, kernel, signature, globals, num_warps, backend,
 *         stages_only=False, cls=Kernel, debug=False, num_stages=0,
 *         arch=None, device=-1, checked=False, fp32_default=None,
 *         fp_fusion=True) -> a cls
 * globals: a sequence of (name, literal) pairs; backend: "host" or "cuda";
 * cls: Kernel or a subclass (mytriton.jit.CompiledKernel), so the object
 * the JIT cache holds is the one a launch returns; device: the CUDA device
 * whose architecture to compile for (-1: the current one); fp_fusion:
 * Triton's enable_fp_fusion. */
static PyObject *mod_compile(PyObject *mod, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"source", "filename", "kernel", "signature", "globals",
                             "num_warps", "backend", "stages_only", "cls", "debug",
                             "num_stages", "arch", "device", "checked", "fp32_default",
                             "fp_fusion", NULL};
    const char *source, *filename, *kernel, *signature, *backend = "host", *arch = NULL,
               *fp32_default = NULL;
    PyObject *globals = Py_None;
    PyTypeObject *cls = &KernelType;
    int num_warps = 4, stages_only = 0, debug = 0, num_stages = 0, device = -1, checked = 0,
        fp_fusion = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ssss|OispO!pizipzp", kwlist, &source, &filename,
                                     &kernel, &signature, &globals, &num_warps, &backend,
                                     &stages_only, &PyType_Type, &cls, &debug, &num_stages,
                                     &arch, &device, &checked, &fp32_default, &fp_fusion))
        return NULL;
    if (!PyType_IsSubtype(cls, &KernelType)) {
        PyErr_Format(PyExc_TypeError, "cls must be a subclass of Kernel, got %R", (PyObject *)cls);
        return NULL;
    }
    mt_backend be;
    if (!strcmp(backend, "host") || !strcmp(backend, "fiber"))
        be = MT_BACKEND_HOST;
    else if (!strcmp(backend, "cpu")) /* issue 18: tiles as C loops */
        be = MT_BACKEND_CPU;
    else if (!strcmp(backend, "cuda"))
        be = MT_BACKEND_CUDA;
    else if (!strcmp(backend, "mlir")) /* issue 12: the GPU through MLIR */
        be = MT_BACKEND_MLIR;
    else {
        PyErr_Format(PyExc_ValueError, "unknown backend '%s'; expected 'host', 'cpu', 'cuda' or 'mlir'", backend);
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
    o.num_stages = num_stages;
    o.arch = arch;
    o.backend = be;
    o.globals = gl;
    o.nglobals = (int)ng;
    o.stages_only = stages_only;
    o.debug = debug;
    o.checked = checked;
    o.fp32_default = fp32_default;
    o.no_fp_fusion = !fp_fusion;
    o.device = device < 0 ? 0 : device + 1;
    o.print = print_to_sys_stdout;
    mt_kernel *k = NULL;
    mt_context *ctx = the_context->ctx;
    mt_status st = mt_compile(ctx, &o, &k);
    PyMem_Free(gl);
    Py_XDECREF(gfast);
    /* the library says it once per context, and this one lives as long as
     * the process: one warning per process */
    const char *cache_warning = mt_cache_warning(ctx);
    if (cache_warning && PyErr_WarnEx(PyExc_RuntimeWarning, cache_warning, 1) < 0) {
        if (st == MT_OK)
            mt_kernel_destroy(k);
        return NULL;
    }
    if (st != MT_OK)
        return raise_status(ctx, st);
    KernelObject *ko = (KernelObject *)cls->tp_alloc(cls, 0);
    if (!ko) {
        mt_kernel_destroy(k);
        return NULL;
    }
    ko->ctxobj = (ContextObject *)Py_NewRef(the_context);
    ko->k = k;
    ko->stages_only = stages_only;
    ko->pack = NULL;
    ko->argidx = NULL;
    ko->argpart = NULL;
    ko->signature = PyUnicode_FromString(signature);
    if (!ko->signature) {
        Py_DECREF(ko);
        return NULL;
    }
    ko->nparams = mt_kernel_num_params(k);
    ko->pack = PyMem_Calloc((size_t)ko->nparams + 1, sizeof *ko->pack);
    ko->argidx = PyMem_Calloc((size_t)ko->nparams + 1, sizeof *ko->argidx);
    ko->argpart = PyMem_Calloc((size_t)ko->nparams + 1, sizeof *ko->argpart);
    if (!ko->pack || !ko->argidx || !ko->argpart) {
        Py_DECREF(ko);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < ko->nparams; i++) {
        ko->pack[i] = (unsigned char)(mt_kernel_param_is_pointer(k, i)
                                          ? PK_PTR
                                          : mt_kernel_param_dtype(k, i));
        ko->argidx[i] = i;
    }
    return (PyObject *)ko;
}

/* ---------------------------------------------------------------- module */

static PyObject *mod_cuda_available(PyObject *mod, PyObject *unused) {
    return PyBool_FromLong(mt_cuda_available(the_context->ctx));
}

/* _pack_scalar(type, value) -> bytes: value as a launch writes it for a
 * scalar parameter of that type ("fp16", "u64"): a test hook. */
static PyObject *mod_pack_scalar(PyObject *mod, PyObject *args) {
    const char *name;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "sO", &name, &o))
        return NULL;
    int d = 0;
    while (d < MT_DTYPE_COUNT && strcmp(mt_dtype_name((mt_dtype)d), name))
        d++;
    if (d == MT_DTYPE_COUNT) {
        PyErr_Format(PyExc_ValueError, "unknown scalar type '%s'", name);
        return NULL;
    }
    ArgValue v;
    ArgSlot slot;
    if (arg_value(d, o, &v) < 0)
        return NULL;
    pack_arg(d, v, &slot);
    return PyBytes_FromStringAndSize((const char *)&slot,
                                     (Py_ssize_t)mt_dtype_size((mt_dtype)d));
}

static PyObject *mod_register(PyObject *mod, PyObject *cls) {
    Py_XSETREF(constexpr_cls, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyObject *mod_register_tensor_wrapper(PyObject *mod, PyObject *cls) {
    Py_XSETREF(tensor_wrapper_cls, Py_NewRef(cls));
    Py_RETURN_NONE;
}

PyObject *launch_enter, *launch_exit;

/* _set_launch_hooks(enter, exit): enter(jit, kernel, grid, args) before
 * each launch returns what exit(that) gets after it; None, None: none. */
static PyObject *mod_set_launch_hooks(PyObject *mod, PyObject *a) {
    PyObject *enter, *exit_;
    if (!PyArg_ParseTuple(a, "OO", &enter, &exit_))
        return NULL;
    Py_CLEAR(launch_enter);
    Py_CLEAR(launch_exit);
    if (enter != Py_None) {
        launch_enter = Py_NewRef(enter);
        launch_exit = Py_NewRef(exit_);
    }
    Py_RETURN_NONE;
}

static PyObject *mod_register_dtype(PyObject *mod, PyObject *cls) {
    Py_XSETREF(dtype_cls, Py_NewRef(cls));
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
        {MT_NAMES_TRITON, "triton"},   {MT_NAMES_LIBDEVICE, "libdevice"},
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
     "backend='host', stages_only=False, cls=Kernel, debug=False, num_stages=0, "
     "arch=None) -> Kernel"},
    {"cuda_available", (PyCFunction)mod_cuda_available, METH_NOARGS,
     "True when libcuda is found and a device exists"},
    {"_register_constexpr", (PyCFunction)mod_register, METH_O, NULL},
    {"_register_dtype", (PyCFunction)mod_register_dtype, METH_O, NULL},
    {"_register_tensor_wrapper", (PyCFunction)mod_register_tensor_wrapper, METH_O, NULL},
    {"_set_launch_hooks", (PyCFunction)mod_set_launch_hooks, METH_VARARGS, NULL},
    {"_pack_scalar", (PyCFunction)mod_pack_scalar, METH_VARARGS,
     "_pack_scalar(type, value) -> bytes: a scalar as a launch passes it"},
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
    triton_error = PyErr_NewExceptionWithDoc(
        "mytriton.TritonError",
        "The base of the errors mytriton raises for a kernel (Triton's "
        "triton.TritonError: programs catch it under that name).",
        PyExc_Exception, NULL);
    if (!triton_error)
        goto fail;
    compilation_error = PyErr_NewExceptionWithDoc(
        "mytriton.CompilationError",
        "A kernel failed to compile.  The message is the full diagnostic "
        "(file:line:col: error: ..., the source line and a caret); "
        ".filename, .lineno, .col and .status give its parts.",
        triton_error, NULL);
    assertion_failure = compilation_error ? PyErr_NewExceptionWithDoc(
        "mytriton.CompileTimeAssertionFailure",
        "A tl.static_assert failed while compiling (Triton's "
        "triton.compiler.errors.CompileTimeAssertionFailure).",
        compilation_error, NULL) : NULL;
    if (!assertion_failure)
        goto fail;
    PyObject *launch_bases = PyTuple_Pack(2, triton_error, PyExc_RuntimeError);
    launch_error = launch_bases ? PyErr_NewExceptionWithDoc(
        "mytriton.LaunchError",
        "A compiled kernel failed to launch or to run (resources, a device "
        "assertion, the driver).  Also a RuntimeError, as Triton's launch "
        "failures are; .status names the library's status.",
        launch_bases, NULL) : NULL;
    Py_XDECREF(launch_bases);
    if (!launch_error)
        goto fail;
    PyObject *option_bases = PyTuple_Pack(2, PyExc_ValueError, PyExc_AssertionError);
    option_error = option_bases ? PyErr_NewExceptionWithDoc(
        "mytriton.OptionError",
        "A launch option out of its range (num_warps, num_stages).  A "
        "ValueError, and an AssertionError as Triton's option checks are.",
        option_bases, NULL) : NULL;
    Py_XDECREF(option_bases);
    if (!option_error)
        goto fail;
    true_key = PyUnicode_FromString("\x01constexpr:True");
    false_key = PyUnicode_FromString("\x01constexpr:False");
    float_tag = PyUnicode_FromString("\x01constexpr:float");
    the_context = PyObject_New(ContextObject, &ContextType);
    if (!compilation_error || !true_key || !false_key || !float_tag || !the_context)
        goto fail;
    the_context->ctx = NULL;
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main_thread = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main_thread ? PyObject_GetAttrString(main_thread, "ident") : NULL;
    main_thread_ident = ident ? PyLong_AsUnsignedLong(ident) : 0;
    Py_XDECREF(threading);
    Py_XDECREF(main_thread);
    Py_XDECREF(ident);
    PyErr_Clear(); /* without it, launches are not interruptible */
    if (mt_context_create(&the_context->ctx) != MT_OK) {
        PyErr_SetString(PyExc_MemoryError, "cannot create an mt_context");
        goto fail;
    }
    if (PyModule_AddObjectRef(m, "TritonError", triton_error) < 0 ||
        PyModule_AddObjectRef(m, "CompilationError", compilation_error) < 0 ||
        PyModule_AddObjectRef(m, "CompileTimeAssertionFailure", assertion_failure) < 0 ||
        PyModule_AddObjectRef(m, "LaunchError", launch_error) < 0 ||
        PyModule_AddObjectRef(m, "OptionError", option_error) < 0 ||
        PyModule_AddObjectRef(m, "Kernel", (PyObject *)&KernelType) < 0 ||
        PyModule_AddObjectRef(m, "JITFunction", (PyObject *)&JITType) < 0 ||
        PyModule_AddObjectRef(m, "Launcher", (PyObject *)&LauncherType) < 0 ||
        PyModule_AddIntConstant(m, "API_VERSION", mt_version()) < 0)
        goto fail;
    PyObject *stages = stage_tuple(), *sigs = arg_signatures();
    int bad = !stages || !sigs || PyModule_AddObjectRef(m, "STAGES", stages) < 0 ||
              PyModule_AddObjectRef(m, "ARG_SIGNATURES", sigs) < 0 ||
              PyModule_AddIntConstant(m, "ARG_CLASS_MASK", AK_CLASS_MASK) < 0 ||
              PyModule_AddIntConstant(m, "ARG_DESC", AK_DESC) < 0;
    Py_XDECREF(stages);
    Py_XDECREF(sigs);
    if (bad)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}

