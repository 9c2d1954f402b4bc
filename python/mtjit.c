/* mtjit.c: JITFunction and Launcher, the cache-hit launch path.
 *
 * Input: `kernel[grid](*args, **kw)` on a JITFunction (subclassed by
 * mytriton.jit.JITFunction), which holds the parameter names, constexpr
 * flags and defaults prepared once by Python (_setup) and a dict from
 * specialization key to Kernel.  Output: a launch through
 * mt_launch_unchecked, or a Kernel (_specialize) or key (_key) for
 * inspection.
 *
 * A call runs no Python bytecode on a cache hit: prepare (mtargs.c) binds
 * and classifies the arguments into a key, one dict lookup finds the
 * Kernel, launch marshals the values into a stack array in the kernel's
 * parameter order.  Only a miss calls back into Python
 * (self._compile_miss) to build the signature string and compile; the
 * Kernel it returns is stored under the key it was compiled for. */
#include "mtmodule.h"

/* ---------------------------------------------------------- JITFunction */

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

/* ---------------------------------------------------- lookup and launch */

/* The Python parameter of a descriptor part's name ("d__shape_1") and the
 * part (DESC_SHAPE + 1); *idx stays NULL for any other name. */
static int desc_part(JITObject *self, const char *pn, PyObject **idx, int *part) {
    static const struct { const char *tag; int base; } tags[] = {
        {"__shape_", DESC_SHAPE}, {"__stride_", DESC_STRIDE}};
    for (int t = 0; t < 2; t++) {
        const char *at = strstr(pn, tags[t].tag);
        int k = at ? atoi(at + strlen(tags[t].tag)) : -1;
        if (!at || k < 0 || k > 4)
            continue;
        PyObject *name = PyUnicode_FromStringAndSize(pn, at - pn);
        if (!name)
            return -1;
        *idx = PyDict_GetItemWithError(self->name_index, name);
        Py_DECREF(name);
        if (!*idx)
            return PyErr_Occurred() ? -1 : 0;
        *part = tags[t].base + k;
        return 0;
    }
    return 0;
}

/* Part (DESC_SHAPE + k or DESC_STRIDE + k) of the descriptor d: the int
 * shape[k] (it must fit an i32) or strides[k]. */
static int desc_value(PyObject *d, int part, ArgValue *out) {
    int stride = part >= DESC_STRIDE, k = part - (stride ? DESC_STRIDE : DESC_SHAPE);
    PyObject *seq = PyObject_GetAttrString(d, stride ? "strides" : "shape");
    PyObject *v = seq ? PySequence_GetItem(seq, k) : NULL;
    Py_XDECREF(seq);
    long long x = v ? PyLong_AsLongLong(v) : -1;
    Py_XDECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (!stride && (x < 0 || x > INT32_MAX)) {
        PyErr_Format(PyExc_ValueError,
                     "a tensor descriptor's shape must fit int32 (Triton's type for it), got %lld",
                     x);
        return -1;
    }
    out->i = x;
    return 0;
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
    const char *backend = c->has_tensor && c->device >= 0 ? "cuda" : c->cpu ? "cpu" : "host";
    PyObject *r = PyObject_CallMethod((PyObject *)self, "_compile_miss", "OOisiiiiii",
                                      bound, kinds, c->num_warps, backend, c->device,
                                      stages_only, c->debug, c->num_stages, c->checked,
                                      c->fp_fusion);
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
    /* Map each kernel parameter to its Python parameter by name; a tensor
     * descriptor's parts are NAME__shape_K and NAME__stride_K. */
    for (int j = 0; j < ko->nparams; j++) {
        const char *pn = mt_kernel_param_name(ko->k, j);
        PyObject *idx = pn ? PyDict_GetItemString(self->name_index, pn) : NULL;
        ko->argpart[j] = 0;
        if (!idx && pn && desc_part(self, pn, &idx, &ko->argpart[j]) < 0) {
            Py_DECREF(r);
            return NULL;
        }
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
    if (!grid[0] || !grid[1] || !grid[2]) /* no programs: compiled, nothing runs */
        Py_RETURN_NONE;
    ArgSlot vals[MAX_PARAMS];
    void *argv[MAX_PARAMS];
    for (int j = 0; j < ko->nparams; j++) {
        int i = ko->argidx[j];
        ArgValue v = c->val[i];
        if (ko->argpart[j] && desc_value(c->bound[i], ko->argpart[j], &v) < 0)
            return NULL;
        /* an int or bool for a float-annotated scalar (`d: tl.float32`
         * given 2): its value, not its bits (jit.py refuses the reverse) */
        if (ko->pack[j] != PK_PTR && dtype_is_float((mt_dtype)ko->pack[j]) &&
            !(c->kind[i] & AK_PTR) && !dtype_is_float((mt_dtype)((c->kind[i] & AK_DTYPE_MASK) - 1)))
            v.f = (c->kind[i] & AK_DTYPE_MASK) == AK_SCALAR(MT_DTYPE_U64) ? (double)(uint64_t)v.i
                                                                          : (double)v.i;
        pack_arg(ko->pack[j], v, &vals[j]);
        argv[j] = &vals[j];
    }
    void *stream = NULL;
    mt_status st;
    if (c->has_tensor && c->device >= 0) {
        /* on the tensors' device: its current stream, its context */
        if (call_stream(c, &stream) < 0)
            return NULL;
        st = mt_launch_device(ko->k, c->device, grid, stream, argv);
    } else {
        /* without the GIL; the Call holds the tensors, and ko the kernel */
        if (!c->checked)
            return launch_host_kernel(ko->k, grid, argv, NULL);
        mt_extent ext[MAX_PARAMS];
        for (int j = 0; j < ko->nparams; j++) {
            ext[j] = (mt_extent){NULL, NULL};
            int i = ko->argidx[j];
            int desc = (c->kind[i] & AK_DESC) == AK_DESC; /* its base is kept */
            if ((c->kind[i] & AK_PTR) && !ko->argpart[j] &&
                arg_extent(desc ? c->keep[i] : c->bound[i], &ext[j]) < 0)
                return NULL;
        }
        mt_launch_options lo = MT_LAUNCH_OPTIONS_INIT;
        lo.extents = ext;
        lo.nextents = ko->nparams;
        return launch_host_kernel(ko->k, grid, argv, &lo);
    }
    if (st != MT_OK)
        return raise_launch_status(ko->ctxobj->ctx, st);
    Py_RETURN_NONE;
}

/* A launch between knobs.runtime's hooks: what the enter hook returns (the
 * launch metadata) goes to the exit hook, as in Triton's launcher. */
static PyObject *launch_with_hooks(JITObject *self, KernelObject *ko, Call *c,
                                   const uint32_t grid[3]) {
    PyObject *bound = PyTuple_New(c->nbound);
    if (!bound)
        return NULL;
    for (int i = 0; i < c->nbound; i++)
        PyTuple_SET_ITEM(bound, i, Py_NewRef(c->bound[i]));
    PyObject *md = PyObject_CallFunction(launch_enter, "OO(III)N", (PyObject *)self,
                                         (PyObject *)ko, grid[0], grid[1], grid[2], bound);
    if (!md)
        return NULL;
    PyObject *r = launch(self, ko, c, grid);
    if (r && launch_exit) {
        PyObject *x = PyObject_CallOneArg(launch_exit, md);
        if (!x)
            Py_CLEAR(r);
        Py_XDECREF(x);
    }
    Py_DECREF(md);
    return r;
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
        if (ko && launch_enter) {
            r = launch_with_hooks(self, ko, &c, grid);
            if (r)
                Py_SETREF(r, Py_NewRef((PyObject *)ko));
            Py_DECREF(ko);
        } else if (ko) {
            r = launch(self, ko, &c, grid);
            if (r) /* Triton's launch returns the compiled kernel */
                Py_SETREF(r, Py_NewRef((PyObject *)ko));
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

/* ------------------------------------------------------------- Launcher */

/* kernel[grid] -> Launcher */
typedef struct {
    PyObject_HEAD
    JITObject *jit;
    PyObject *grid;
} LauncherObject;

PyTypeObject LauncherType;

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

PyTypeObject LauncherType = {
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

static PyObject *jit_get_debug(JITObject *self, void *unused) {
    return PyBool_FromLong(self->debug);
}

static int jit_set_debug(JITObject *self, PyObject *v, void *unused) {
    int t = v ? PyObject_IsTrue(v) : 0;
    if (t < 0)
        return -1;
    self->debug = t;
    return 0;
}

static PyGetSetDef jit_getset[] = {
    {"cache", (getter)jit_get_cache, NULL, "specialization key -> Kernel", NULL},
    {"_debug", (getter)jit_get_debug, (setter)jit_set_debug,
     "@jit(debug=...): a launch's debug mode unless it says otherwise", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject JITType = {
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

