/* mtargs.c: one call of a JITFunction, from Python arguments to a key.
 *
 * Input: the positional and keyword arguments of `kernel[grid](...)` and
 * the JITFunction's parameter table (names, constexpr flags, defaults).
 * Output (prepare): a filled Call (each argument bound, its class AK_* and
 * its value for the launch, the device) and the specialization key tuple
 * (one item per parameter, then num_warps) that mtjit.c looks up.
 *
 * Each runtime argument is classified once (mtarrays.c: scalars as
 * Triton 3.6 specialises them, arrays of every protocol as pointers with
 * their dtype, device and 16-byte alignment bit, so an aligned and a
 * misaligned call compile apart).  Constexpr values key by value,
 * tagged so True, 1 and 1.0 stay distinct.  The end of the file rounds
 * scalars of the narrow float types for the launch (pack_arg).
 *
 * A call holds a strong reference to every bound argument (and to each
 * DLPack capsule, so the producer's memory stays alive) from binding until
 * the launch returns, so Python code that runs in between (a grid
 * callable, __index__, a compile miss) cannot free what the launch reads;
 * pointers are read only after the grid callable ran.  Everything per
 * argument is static here: this is the hot half of a cache-hit launch. */
#include "mtmodule.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>


/* -------------------------------------------------------------- binding */

/* Triton's compile options that a launch may carry and that do not change
 * what mytriton's code computes.  The AMD ones are here because programs
 * that find no CUDA target (the host backend says "cpu") take their HIP
 * branch: tutorial 03's autotune configs carry matrix_instr_nonkdim. */
static const char *launch_options[] = {"num_stages", "num_ctas", "maxnreg",
                                       "launch_cooperative_grid", "launch_pdl",
                                       "matrix_instr_nonkdim", "waves_per_eu", "kpack", NULL};

/* Where CPU tensors run (issue 18), read at every launch: the cpu backend
 * (CPU_DEFAULT), unless MYTRITON_BACKEND is fiber or host (0); cpu says
 * the default, cuda and mlir name the GPU's backends.  A launch's
 * backend="cpu" asks for it (CPU_ASKED), which checked mode, the fiber
 * backend's, then refuses; the default gives way to it. */
enum { CPU_ASKED = 1, CPU_DEFAULT = 2 };
static int env_cpu(void) {
    const char *e = getenv("MYTRITON_BACKEND");
    return e && (!strcmp(e, "fiber") || !strcmp(e, "host")) ? 0 : CPU_DEFAULT;
}

/* 1 when environment variable `name` is set to a true value.  Read at
 * every launch, so a test's monkeypatch.setenv takes effect at once:
 * TRITON_DEBUG (Triton's knobs.runtime.debug) and MYTRITON_CHECKED
 * (checked mode for every launch that does not say checked=). */
static int env_true(const char *name) {
    const char *e = getenv(name);
    if (!e)
        return 0;
    static const char *const yes[] = {"1", "true", "on", "yes"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(e, yes[i]))
            return 1;
    return 0;
}

/* Triton's knobs.language.default_fp_fusion: TRITON_DEFAULT_FP_FUSION,
 * true when unset; read at every launch, as env_true. */
static int env_fp_fusion(void) {
    const char *e = getenv("TRITON_DEFAULT_FP_FUSION");
    return !e || !*e || env_true("TRITON_DEFAULT_FP_FUSION");
}

const char *jit_name(JITObject *self) {
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

/* extern_libs={'libdevice': path} (tutorial 07): Triton links that
 * bitcode; mytriton's libdevice functions are the CUDA math library the
 * generated C calls (and its host build), so the path is not read.  Any
 * other library is refused: its functions do not exist here. */
static int check_extern_libs(JITObject *self, PyObject *v) {
    if (v == Py_None)
        return 0;
    if (!PyDict_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s(): extern_libs must be a dict of name to path, got %R",
                     jit_name(self), v);
        return -1;
    }
    PyObject *name, *path;
    Py_ssize_t pos = 0;
    while (PyDict_Next(v, &pos, &name, &path))
        if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, "libdevice")) {
            PyErr_Format(PyExc_ValueError,
                         "%s(): extern library %R is not supported; only 'libdevice' (CUDA's "
                         "math library, which mytriton always uses)",
                         jit_name(self), name);
            return -1;
        }
    return 0;
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
    c->num_stages = 0;
    /* debug: the launch's option, else @jit's; or TRITON_DEBUG, as
     * Triton's `kwargs.get("debug", self.debug) or knobs.runtime.debug` */
    c->debug = self->debug;
    c->checked = -1; /* not said: MYTRITON_CHECKED decides */
    c->fp_fusion = env_fp_fusion();
    c->cpu = env_cpu();
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
                    PyErr_Format(option_error,
                                 "num_warps must be a power of 2 between 1 and 32, got %R", v);
                    return -1;
                }
                c->num_warps = (int)w;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "num_stages") &&
                v != Py_None) {
                int overflow = 0;
                long s = PyLong_Check(v) && !PyBool_Check(v) ? PyLong_AsLongAndOverflow(v, &overflow) : -1;
                if (overflow || s < 0) {
                    PyErr_Format(option_error,
                                 "num_stages must be a non-negative integer, got %R", v);
                    return -1;
                }
                /* the compiler clamps; 3, Triton's default, is no option */
                c->num_stages = s > 1000 ? 1000 : s == 3 ? 0 : (int)s;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "debug")) {
                int t = v == Py_None ? 0 : PyObject_IsTrue(v);
                if (t < 0)
                    return -1;
                c->debug = t;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "checked")) {
                int t = v == Py_None ? -1 : PyObject_IsTrue(v);
                if (t < 0 && v != Py_None)
                    return -1;
                c->checked = t;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "enable_fp_fusion")) {
                int t = v == Py_None ? c->fp_fusion : PyObject_IsTrue(v);
                if (t < 0)
                    return -1;
                c->fp_fusion = t;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "extern_libs")) {
                if (check_extern_libs(self, v) < 0)
                    return -1;
                continue;
            }
            if (PyUnicode_Check(k) && !PyUnicode_CompareWithASCIIString(k, "backend")) {
                /* CPU tensors: "cpu" (tiles as C loops) or "fiber" / "host"
                 * (the CUDA C, each CUDA thread a fiber); GPU tensors
                 * ignore it */
                const char *b = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
                if (!b || (strcmp(b, "cpu") && strcmp(b, "fiber") && strcmp(b, "host"))) {
                    PyErr_Format(PyExc_ValueError,
                                 "backend must be 'cpu', 'fiber' or 'host', got %R", v);
                    return -1;
                }
                c->cpu = !strcmp(b, "cpu") ? CPU_ASKED : 0;
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
    if (!c->debug)
        c->debug = env_true("TRITON_DEBUG");
    if (c->checked < 0)
        c->checked = env_true("MYTRITON_CHECKED");
    if (c->checked && c->cpu == CPU_DEFAULT) /* checked mode is the fiber backend's */
        c->cpu = 0;
    for (int i = 0; i < n; i++) {
        Py_INCREF(c->bound[i]);
        c->keep[i] = NULL;
    }
    c->nbound = n;
    return 0;
}

/* ------------------------------------------------------------- extents */

/* An integer attribute or method result of o as a size_t-sized value. */
static int call_size(PyObject *o, const char *method, unsigned long long *out) {
    PyObject *r = PyObject_CallMethod(o, method, NULL);
    if (!r)
        return -1;
    *out = PyLong_AsUnsignedLongLong(r);
    Py_DECREF(r);
    return PyErr_Occurred() ? -1 : 0;
}

/* Triton users pass views: the bounds are the storage's (torch) or the
 * root array's (NumPy), not the view's own elements. */
int arg_extent(PyObject *o, mt_extent *out) {
    *out = (mt_extent){NULL, NULL};
    PyObject *held = NULL;
    if (tensor_wrapper_cls && PyObject_TypeCheck(o, (PyTypeObject *)tensor_wrapper_cls)) {
        if (!(held = PyObject_GetAttrString(o, "base")))
            return -1;
        o = held;
    }
    unsigned long long p = 0, n = 0;
    int rc = 0;
    if (torch_tensor_type && PyObject_TypeCheck(o, (PyTypeObject *)torch_tensor_type)) {
        /* torch < 2.0 (Debian's 1.13) has storage() alone; both give
         * data_ptr() and nbytes() of the whole storage */
        PyObject *st = PyObject_CallMethod(
            o, PyObject_HasAttrString(o, "untyped_storage") ? "untyped_storage" : "storage", NULL);
        rc = !st || call_size(st, "data_ptr", &p) < 0 || call_size(st, "nbytes", &n) < 0 ? -1
                                                                                         : 0;
        Py_XDECREF(st);
    } else if (np_ndarray_type && PyObject_TypeCheck(o, (PyTypeObject *)np_ndarray_type)) {
        PyObject *root = Py_NewRef(o);
        for (;;) { /* the array that owns (or wraps) the memory */
            PyObject *b = PyObject_GetAttrString(root, "base");
            if (!b || !PyObject_TypeCheck(b, (PyTypeObject *)np_ndarray_type)) {
                Py_XDECREF(b);
                rc = b ? 0 : -1;
                break;
            }
            Py_SETREF(root, b);
        }
        PyObject *ai = rc == 0 ? PyObject_GetAttr(root, str_array_interface) : NULL;
        PyObject *data = ai && PyDict_Check(ai) ? PyDict_GetItemWithError(ai, str_data) : NULL;
        PyObject *nb = data ? PyObject_GetAttrString(root, "nbytes") : NULL;
        if (nb && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1) {
            p = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(data, 0));
            n = PyLong_AsUnsignedLongLong(nb);
        }
        rc = PyErr_Occurred() ? -1 : 0;
        Py_XDECREF(nb);
        Py_XDECREF(ai);
        Py_DECREF(root);
    }
    Py_XDECREF(held);
    if (rc == 0 && p && n)
        *out = (mt_extent){(const void *)(uintptr_t)p, (const void *)(uintptr_t)(p + n)};
    return rc;
}

/* ------------------------------------------------------------------ key */

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
    if (dtype_cls && PyObject_TypeCheck(v, (PyTypeObject *)dtype_cls)) /* tl.float32 */
        return PyTuple_Pack(2, dtype_cls, v);                           /* hashed by name */
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
    if (PyTuple_Check(v)) { /* a shape: (tuple marker, each item's key) */
        Py_ssize_t n = PyTuple_GET_SIZE(v);
        PyObject *t = PyTuple_New(n + 1);
        if (!t)
            return NULL;
        PyTuple_SET_ITEM(t, 0, Py_NewRef((PyObject *)&PyTuple_Type));
        for (Py_ssize_t j = 0; j < n; j++) {
            PyObject *k = constexpr_key(self, i, PyTuple_GET_ITEM(v, j));
            if (!k) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, j + 1, k);
        }
        return t;
    }
    PyErr_Format(PyExc_TypeError,
                 "%R: constexpr value must be bool, int, float, str, a tl.dtype or a tuple of "
                 "them, got %R",
                 PyTuple_GET_ITEM(self->names, i), (PyObject *)Py_TYPE(v));
    return NULL;
}


static int resolve_grid(JITObject *self, PyObject *g, Call *c, uint32_t grid[3]);

/* The CUDA device a launch without tensors runs on, or -1 for the CPU.
 * Triton launches on the current CUDA device whatever the arguments, so
 * a kernel of scalars (a print, an assertion) runs on the GPU where there
 * is one; the CPU unless the launch or the environment asks for it
 * (backend="cpu", checked mode, MYTRITON_BACKEND=cpu, fiber or host).
 * The device is torch's current one when torch is loaded, else 0. */
static int no_tensor_device(const Call *c) {
    const char *e = getenv("MYTRITON_BACKEND");
    if (c->checked || c->cpu == CPU_ASKED ||
        (e && (!strcmp(e, "cpu") || !strcmp(e, "fiber") || !strcmp(e, "host"))) ||
        !mt_cuda_available(the_context->ctx))
        return -1;
    PyObject *torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");
    PyObject *cuda = torch ? PyObject_GetAttrString(torch, "cuda") : NULL;
    PyObject *dev = cuda ? PyObject_CallMethod(cuda, "current_device", NULL) : NULL;
    long device = dev ? PyLong_AsLong(dev) : 0;
    Py_XDECREF(dev);
    Py_XDECREF(cuda);
    PyErr_Clear();
    return device >= 0 && device <= MAX_DEVICE ? (int)device : 0;
}

/* Binds, resolves the grid when gridobj is given (a grid callable runs
 * before any pointer is read), classifies and builds the key (new
 * reference).  The caller releases c with call_release, also on error. */
PyObject *prepare(JITObject *self, PyObject *args, PyObject *kw, Call *c,
                         PyObject *gridobj, uint32_t grid[3]) {
    c->has_tensor = 0;
    c->device = -1;
    if (bind_args(self, args, kw, c) < 0)
        return NULL;
    if (gridobj && resolve_grid(self, gridobj, c, grid) < 0)
        return NULL;
    int n = c->nbound;
    /* (runtime kinds and constexprs..., num_warps[, ("num_stages", S)]
     *  [, ("host_arch", A)][, ("fp32_default", P)][, True in debug mode]
     *  [, "checked"][, "cpu"][, "no_fp_fusion"]); MYTRITON_HOST_ARCH (jit.py) changes the
     *  host backend's text, read at every launch */
    const char *host_arch = getenv("MYTRITON_HOST_ARCH");
    /* TRITON_F32_DEFAULT (knobs.language.fp32_default) changes the text
     * of an fp32 tl.dot, so it is in the key like the host arch */
    const char *f32 = getenv("TRITON_F32_DEFAULT");
    int staged = c->num_stages != 0, arched = host_arch && *host_arch, f32d = f32 && *f32;
    /* the optional items after num_warps, in this order; the flags after */
    PyObject *extra[3] = {staged ? Py_BuildValue("(si)", "num_stages", c->num_stages) : NULL,
                          arched ? Py_BuildValue("(ss)", "host_arch", host_arch) : NULL,
                          f32d ? Py_BuildValue("(ss)", "fp32_default", f32) : NULL};
    int nextra = staged + arched + f32d;
    PyObject *flags[4] = {c->debug ? Py_NewRef(Py_True) : NULL,
                          /* strings, so that they never equal debug's True */
                          c->checked ? PyUnicode_FromString("checked") : NULL,
                          c->cpu ? PyUnicode_FromString("cpu") : NULL,
                          !c->fp_fusion ? PyUnicode_FromString("no_fp_fusion") : NULL};
    int nflags = (c->debug != 0) + (c->checked != 0) + (c->cpu != 0) + !c->fp_fusion;
    PyObject *key = (staged && !extra[0]) || (arched && !extra[1]) || (f32d && !extra[2]) ||
                            (c->checked && !flags[1]) || (c->cpu && !flags[2]) ||
                            (!c->fp_fusion && !flags[3])
                        ? NULL
                        : PyTuple_New(n + 1 + nextra + nflags);
    if (!key) {
        for (int i = 0; i < 3; i++)
            Py_XDECREF(extra[i]);
        for (int i = 0; i < 4; i++)
            Py_XDECREF(flags[i]);
        return NULL;
    }
    int at = n + 1;
    for (int i = 0; i < 3; i++)
        if (extra[i])
            PyTuple_SET_ITEM(key, at++, extra[i]);
    for (int i = 0; i < 4; i++)
        if (flags[i])
            PyTuple_SET_ITEM(key, at++, flags[i]);
    for (int i = 0; i < n; i++) {
        PyObject *item;
        /* None for a runtime parameter is specialised as Triton does: a
         * constexpr None (the kernel may test `x is None`) */
        if (self->is_const[i] || c->bound[i] == Py_None) {
            c->kind[i] = 0;
            item = constexpr_key(self, i, c->bound[i]);
        } else {
            if (classify_runtime(self, c, i) < 0) {
                Py_DECREF(key);
                return NULL;
            }
            item = (c->kind[i] & AK_DESC) == AK_DESC ? desc_key(self, c, i)
                                                    : PyLong_FromLong(c->kind[i]);
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
    int device = c->has_tensor ? -1 : no_tensor_device(c);
    if (device >= 0) { /* a GPU kernel: a key of its own */
        c->has_tensor = 1;
        c->device = device;
        c->device_arg = -1;
        PyObject *item = Py_BuildValue("((si))", "device", device);
        Py_SETREF(key, item ? PySequence_Concat(key, item) : NULL);
        Py_XDECREF(item);
    }
    return key;
}

/* The meta dict for a callable grid, as Triton gives it: every parameter
 * name -> its bound value (constexprs unwrapped), so `META['BLOCK']` and
 * `META['n_elements']` both read the call's arguments. */
static PyObject *meta_dict(JITObject *self, Call *c) {
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (int i = 0; i < self->nparams; i++) {
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

/* ---------------------------------------------------------------- stream */

/* The stream of a launch on CUDA device c->device: torch's current stream
 * of that device (not of torch's current device), or the default stream
 * when torch is not loaded or has no CUDA. */
int call_stream(const Call *c, void **stream) {
    *stream = NULL;
    if (!torch_stream_fn && torch_tensor_type) {
        PyObject *modules = PyImport_GetModuleDict();
        PyObject *torch = PyDict_GetItemString(modules, "torch");
        PyObject *tc = torch ? PyObject_GetAttrString(torch, "_C") : NULL;
        torch_stream_fn = tc ? PyObject_GetAttrString(tc, "_cuda_getCurrentRawStream") : NULL;
        Py_XDECREF(tc);
        PyErr_Clear();
    }
    if (!torch_stream_fn)
        return 0;
    PyObject *dev = PyLong_FromLong(c->device);
    PyObject *s = dev ? PyObject_CallOneArg(torch_stream_fn, dev) : NULL;
    Py_XDECREF(dev);
    if (!s)
        return -1;
    *stream = PyLong_AsVoidPtr(s);
    Py_DECREF(s);
    return PyErr_Occurred() ? -1 : 0;
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

/* An int, or an integer Python indexes with (NumPy's np.int64 from a
 * shape computation, issue 15); never a bool. */
static int grid_int_like(PyObject *x) { return !PyBool_Check(x) && PyIndex_Check(x); }

static int grid_entry(PyObject *x, uint32_t *out) {
    if (!grid_int_like(x))
        return -1;
    PyObject *i = PyNumber_Index(x);
    if (!i) {
        PyErr_Clear();
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow || v < 0 || v > 0x7fffffffLL)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* A grid is an int or a tuple/list of 1..3 ints, each >= 0 (bools are not
 * ints here, NumPy integers are); a grid with a 0 has no programs: the caller launches
 * nothing, as Triton does. */
int parse_grid(PyObject *g, uint32_t grid[3]) {
    grid[0] = grid[1] = grid[2] = 1;
    if (PyLong_Check(g) || grid_int_like(g)) {
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


/* --------------------------------------------------------------- packing */

/* Scalars of the narrow float types reach the launch as their bits.  The
 * rounding is done once, from the double, so no value is rounded twice
 * (double -> float -> half can be off by one in the last place). */
uint32_t minifloat_bits(double v, int ebits, int mbits, int fn) {
    uint32_t sign = signbit(v) ? 1u << (ebits + mbits) : 0;
    uint32_t top = (1u << ebits) - 1;   /* the all-ones exponent field */
    uint32_t nan = fn ? (top << mbits) | ((1u << mbits) - 1) : (top << mbits) | (1u << (mbits - 1));
    if (isnan(v))
        return sign | nan;
    if (isinf(v))
        return sign | (fn ? nan : top << mbits);
    double a = fabs(v);
    if (a == 0)
        return sign;
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, e;
    frexp(a, &e); /* a = f * 2^e, 0.5 <= f < 1: the exponent of a is e - 1 */
    int ex = e - 1 < emin ? emin : e - 1;
    double q = ldexp(a, mbits - ex); /* a in units of its last place, exact */
    double r = floor(q), diff = q - r;
    if (diff > 0.5 || (diff == 0.5 && fmod(r, 2) == 1))
        r += 1;
    /* subnormals (ex == emin, r < 2^mbits) and a carry into the next
     * binade (r == 2^(mbits+1)) both fall out of the same sum */
    uint32_t bits = ((uint32_t)(ex - emin) << mbits) + (uint32_t)r;
    uint32_t max = fn ? nan - 1 : (top << mbits) - 1;
    if (bits > max)
        return sign | (fn ? nan : top << mbits);
    return sign | bits;
}
