/* mtargs.c: one call of a JITFunction, from Python arguments to a key.
 *
 * Input: the positional and keyword arguments of `kernel[grid](...)` and
 * the JITFunction's parameter table (names, constexpr flags, defaults).
 * Output (prepare): a filled Call (each argument bound, its class AK_* and
 * its value for the launch, the device) and the specialization key tuple
 * (one item per parameter, then num_warps) that mtjit.c looks up.
 *
 * Classification reads each runtime argument once: bool, int (width plus
 * the ":16" divisibility bit), float; torch tensors, NumPy arrays, objects
 * with __cuda_array_interface__ and DLPack producers become pointers with
 * dtype code, device slot and the 16-byte alignment bit (Triton's
 * divisibility specialisation: an aligned and a misaligned call compile
 * apart).  Constexpr values key by value, tagged so True, 1 and 1.0 stay
 * distinct.
 *
 * A call holds a strong reference to every bound argument (and to each
 * DLPack capsule, so the producer's memory stays alive) from binding until
 * the launch returns, so Python code that runs in between (a grid
 * callable, __index__, a compile miss) cannot free what the launch reads;
 * pointers are read only after the grid callable ran.  Everything per
 * argument is static here: this is the hot half of a cache-hit launch. */
#include "mtmodule.h"

#include <string.h>

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


/* -------------------------------------------------------------- binding */

static const char *launch_options[] = {"num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
                                       "launch_cooperative_grid", "launch_pdl", "debug", NULL};

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

/* ------------------------------------------------------- classification */

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

/* A torch.Tensor: dtype, device (CPU or CUDA only), data_ptr. */
static int classify_torch(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
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

/* A numpy.ndarray: dtype, and the address from __array_interface__. */
static int classify_ndarray(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
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

/* An object with __cuda_array_interface__, on the current device.
 * Returns 0 when classified, 1 when o has no such attribute (no exception
 * set), -1 on error. */
static int classify_cuda_array(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    PyObject *cai = PyObject_GetAttr(o, str_cuda_array_interface);
    if (!cai) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 1;
    }
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
    if (torch_tensor_type && PyObject_TypeCheck(o, (PyTypeObject *)torch_tensor_type))
        return classify_torch(self, c, i);
    if (np_ndarray_type && PyObject_TypeCheck(o, (PyTypeObject *)np_ndarray_type))
        return classify_ndarray(self, c, i);
    int found = classify_cuda_array(self, c, i);
    if (found <= 0)
        return found;
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
    PyErr_Format(PyExc_TypeError, "%R: constexpr value must be bool, int, float, str or a tl.dtype, got %R",
                 PyTuple_GET_ITEM(self->names, i), (PyObject *)Py_TYPE(v));
    return NULL;
}


static int resolve_grid(JITObject *self, PyObject *g, Call *c, uint32_t grid[3]);

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
int parse_grid(PyObject *g, uint32_t grid[3]) {
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

