/* mtarrays.c: what a runtime argument of a JIT call is.
 *
 * Input: argument i of a bound Call (mtargs.c).  Output: its class
 * (c->kind[i], AK_*), its launch value (c->val[i]: a scalar, or a data
 * pointer), its device, and for arrays the reference that keeps the
 * memory alive (c->keep[i], a DLPack capsule).  Scalars as Triton 3.6
 * specialises them: bool (i1), int (i32, i64 or u64 by value, plus the
 * ":16" divisibility bit), float (fp32).  Torch tensors, NumPy arrays,
 * objects with __cuda_array_interface__ and DLPack producers of every
 * element type in arg_dtypes (one row per mt_dtype) become pointers with
 * that dtype, device slot and the 16-byte alignment bit; tensor
 * descriptors carry their block shape and padding into the key
 * (desc_key).  Any other dtype (complex, quantized, object) is a TypeError
 * naming the argument, before anything compiles.  Nothing here imports
 * torch or NumPy: their types are looked up once they are imported. */
#include "mtmodule.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

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
enum {
    DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BFLOAT = 4, DL_BOOL = 6,
    DL_FLOAT8_E4M3FN = 10, DL_FLOAT8_E5M2 = 12
};

/* Every element type an argument can carry, one row per mt_dtype: its
 * torch and NumPy names (NULL where the library has none), its DLPack
 * code and bits, and its array-interface typestr without the byte-order
 * character (NULL: the interface cannot spell it).  The signature
 * spelling is the library's own (mt_dtype_name), so the key, the
 * signature and the compiled kernel cannot disagree. */
static const struct {
    const char *torch, *numpy;
    uint8_t dl_code, dl_bits;
    const char *typestr;
} arg_dtypes[MT_DTYPE_COUNT] = {
    [MT_DTYPE_I1] = {"bool", "bool_", DL_BOOL, 8, "b1"},
    [MT_DTYPE_I8] = {"int8", "int8", DL_INT, 8, "i1"},
    [MT_DTYPE_I16] = {"int16", "int16", DL_INT, 16, "i2"},
    [MT_DTYPE_I32] = {"int32", "int32", DL_INT, 32, "i4"},
    [MT_DTYPE_I64] = {"int64", "int64", DL_INT, 64, "i8"},
    [MT_DTYPE_U8] = {"uint8", "uint8", DL_UINT, 8, "u1"},
    [MT_DTYPE_U16] = {"uint16", "uint16", DL_UINT, 16, "u2"},
    [MT_DTYPE_U32] = {"uint32", "uint32", DL_UINT, 32, "u4"},
    [MT_DTYPE_U64] = {"uint64", "uint64", DL_UINT, 64, "u8"},
    [MT_DTYPE_FP8E4NV] = {"float8_e4m3fn", NULL, DL_FLOAT8_E4M3FN, 8, NULL},
    [MT_DTYPE_FP8E5] = {"float8_e5m2", NULL, DL_FLOAT8_E5M2, 8, NULL},
    [MT_DTYPE_FP16] = {"float16", "float16", DL_FLOAT, 16, "f2"},
    [MT_DTYPE_BF16] = {"bfloat16", NULL, DL_BFLOAT, 16, NULL},
    [MT_DTYPE_FP32] = {"float32", "float32", DL_FLOAT, 32, "f4"},
    [MT_DTYPE_FP64] = {"float64", "float64", DL_FLOAT, 64, "f8"},
};

/* Looks up torch/numpy types once their modules are imported (never
 * imports them itself).  A dtype the installed version lacks (torch 1.x
 * has no uint16 or float8) stays NULL and matches nothing. */
static void refresh_foreign_types(void) {
    PyObject *modules = PyImport_GetModuleDict();
    PyObject *torch = torch_tensor_type ? NULL : PyDict_GetItemString(modules, "torch");
    if (torch) {
        PyObject *t = PyObject_GetAttrString(torch, "Tensor");
        if (t) {
            for (int d = 0; d < MT_DTYPE_COUNT; d++)
                if (!(torch_dtypes[d] = PyObject_GetAttrString(torch, arg_dtypes[d].torch)))
                    PyErr_Clear();
            torch_tensor_type = t;
        }
        PyErr_Clear();
    }
    PyObject *np = np_ndarray_type ? NULL : PyDict_GetItemString(modules, "numpy");
    PyObject *dtype_fn = np ? PyObject_GetAttrString(np, "dtype") : NULL;
    PyObject *t = dtype_fn ? PyObject_GetAttrString(np, "ndarray") : NULL;
    if (t) {
        for (int d = 0; d < MT_DTYPE_COUNT; d++) {
            PyObject *sc = arg_dtypes[d].numpy ? PyObject_GetAttrString(np, arg_dtypes[d].numpy)
                                               : NULL;
            np_dtypes[d] = sc ? PyObject_CallOneArg(dtype_fn, sc) : NULL;
            Py_XDECREF(sc);
            PyErr_Clear();
        }
        np_ndarray_type = t;
    }
    Py_XDECREF(dtype_fn);
    PyErr_Clear();
}

static int arg_error(JITObject *self, int i, PyObject *exc, const char *what, PyObject *obj) {
    PyErr_Format(exc, "%s(): argument %R: %s%S", jit_name(self),
                 PyTuple_GET_ITEM(self->names, i), what, obj);
    return -1;
}

/* Writes "cpu" or "cuda:N" for device (-1: host memory). */
static void device_name(int device, char buf[16]) {
    if (device < 0)
        snprintf(buf, 16, "cpu");
    else
        snprintf(buf, 16, "cuda:%d", device);
}

/* Notes that argument i lives on device (-1: host memory).  The launch
 * runs on the tensors' device, so they must agree: a pointer of another
 * device is never passed; the error names both arguments and devices. */
static int set_device(JITObject *self, Call *c, int i, int device) {
    if (!c->has_tensor) {
        c->has_tensor = 1;
        c->device = device;
        c->device_arg = i;
        return 0;
    }
    if (c->device == device)
        return 0;
    char here[16], there[16];
    device_name(device, here);
    device_name(c->device, there);
    PyErr_Format(PyExc_TypeError,
                 "%s(): all tensors must be on the same device: argument %R is on %s but "
                 "argument %R is on %s",
                 jit_name(self), PyTuple_GET_ITEM(self->names, i), here,
                 PyTuple_GET_ITEM(self->names, c->device_arg), there);
    return -1;
}

/* The dtype of an array-interface typestr ("<f2", "|u1"), or -1: native
 * little-endian or byte-order free spellings only. */
static int typestr_code(PyObject *ts) {
    const char *s = PyUnicode_Check(ts) ? PyUnicode_AsUTF8(ts) : NULL;
    if (!s || (s[0] != '<' && s[0] != '|' && s[0] != '='))
        return -1;
    for (int d = 0; d < MT_DTYPE_COUNT; d++)
        if (arg_dtypes[d].typestr && !strcmp(s + 1, arg_dtypes[d].typestr))
            return d;
    return -1;
}

/* The class of a pointer to dtype d on device (-1: host memory), with
 * AK_HINT16 when p is 16-byte aligned (Triton's divisibility
 * specialisation: an aligned and a misaligned call compile apart). */
static int ptr_kind(int device, int d, const void *p) {
    return ((device + 1) << AK_DEVICE_SHIFT) + AK_PTR + AK_SCALAR(d) +
           ((uintptr_t)p % 16 == 0 ? AK_HINT16 : 0);
}

/* An int argument, as Triton 3.6 specialises it: i32 in [-2^31, 2^31),
 * i64 in [-2^63, 2^63), u64 up to 2^64 - 1, with AK_HINT16 on a multiple
 * of 16 (Triton's 'D': the compiler may then prove offsets like row *
 * n_cols aligned and use 128-bit accesses) and AK_ONE on 1 (a unit
 * stride: the compiler folds it).  Beyond: OverflowError. */
static int classify_int(JITObject *self, Call *c, int i, PyObject *o) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow) {
        int k = AK_SCALAR(v >= INT32_MIN && v <= INT32_MAX ? MT_DTYPE_I32 : MT_DTYPE_I64);
        c->kind[i] = v == 1 ? k + AK_ONE : v % 16 == 0 ? k + AK_HINT16 : k;
        c->val[i].i = v;
        return 0;
    }
    unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
    if (overflow < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_OverflowError,
                     "%s(): integer argument %R out of range: %S is outside [-2**63, 2**64) "
                     "(the range of i32, i64 and u64)",
                     jit_name(self), PyTuple_GET_ITEM(self->names, i), o);
        return -1;
    }
    c->kind[i] = AK_SCALAR(MT_DTYPE_U64) + (u % 16 == 0 ? AK_HINT16 : 0);
    c->val[i].i = (int64_t)u; /* the bits; packed back as uint64_t */
    return 0;
}

/* Raises the TypeError for argument i, whose element type (described by
 * what, a new reference or NULL) has no row in arg_dtypes. */
static int unsupported_dtype(JITObject *self, int i, PyObject *what) {
    char list[256] = "";
    for (int d = 0; d < MT_DTYPE_COUNT; d++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", d ? ", " : "", arg_dtypes[d].torch);
    }
    if (what)
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument %R: unsupported %U: it has no Triton equivalent "
                     "(supported: %s)",
                     jit_name(self), PyTuple_GET_ITEM(self->names, i), what, list);
    Py_XDECREF(what);
    return -1;
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

/* The dtype of a DLPack element type, or -1 (vectors, complex, the fp8
 * variants Triton has no name for). */
static int dlpack_code(DLDataType t) {
    if (t.lanes != 1)
        return -1;
    for (int d = 0; d < MT_DTYPE_COUNT; d++)
        if (t.code == arg_dtypes[d].dl_code && t.bits == arg_dtypes[d].dl_bits)
            return d;
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
        return unsupported_dtype(self, i,
                                 PyUnicode_FromFormat("DLPack dtype (code %d, bits %d, lanes %d)",
                                                      (int)t->dtype.code, (int)t->dtype.bits,
                                                      (int)t->dtype.lanes));
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
    c->kind[i] = ptr_kind(d, code, p);
    return set_device(self, c, i, d);
}

/* A torch.Tensor o for argument i: dtype (or `forced`, an mt_dtype, when
 * it is not -1: triton.reinterpret's), device (CPU or CUDA only),
 * data_ptr. */
static int classify_torch_as(JITObject *self, Call *c, int i, PyObject *o, int forced) {
    PyObject *dt = PyObject_GetAttr(o, str_dtype);
    if (!dt)
        return -1;
    int code = forced;
    for (int k = 0; k < MT_DTYPE_COUNT && code < 0; k++)
        if (dt == torch_dtypes[k])
            code = k;
    if (code < 0) {
        unsupported_dtype(self, i, PyUnicode_FromFormat("tensor dtype %S", dt));
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
    c->kind[i] = ptr_kind((int)d, code, c->val[i].p);
    return set_device(self, c, i, (int)d);
}

static int classify_torch(JITObject *self, Call *c, int i) {
    return classify_torch_as(self, c, i, c->bound[i], -1);
}

/* triton.tools.tensor_descriptor.TensorDescriptor (Triton's or ours). */
static int is_tensor_descriptor(PyObject *o) {
    return !strcmp(Py_TYPE(o)->tp_name, "TensorDescriptor") &&
           PyObject_HasAttrString(o, "block_shape");
}

/* An integer sequence attribute of a descriptor as a tuple of n ints (n
 * < 0: any length, set). */
static PyObject *int_tuple(JITObject *self, int i, PyObject *o, const char *attr, int *n) {
    PyObject *v = PyObject_GetAttrString(o, attr);
    PyObject *t = v ? PySequence_Tuple(v) : NULL;
    Py_XDECREF(v);
    if (!t)
        return NULL;
    Py_ssize_t len = PyTuple_GET_SIZE(t);
    int bad = *n >= 0 && len != *n;
    for (Py_ssize_t k = 0; k < len && !bad; k++)
        bad = !PyLong_Check(PyTuple_GET_ITEM(t, k));
    if (bad) {
        arg_error(self, i, PyExc_ValueError,
                  *n >= 0 ? "a tensor descriptor's shape, strides and block_shape must be "
                            "int sequences of one length, got "
                          : "a tensor descriptor's block_shape must be ints, got ",
                  t);
        Py_DECREF(t);
        return NULL;
    }
    *n = (int)len;
    return t;
}

/* A TensorDescriptor: its base classified as a tensor (kept in keep[i]),
 * bound[i] stays the descriptor for the launch to read its shape and
 * strides; what the kernel relies on is checked (Triton's constructor
 * checks it too, but fields can be reassigned). */
static int classify_desc(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    PyObject *base = PyObject_GetAttrString(o, "base");
    if (!base)
        return -1;
    if (!torch_tensor_type || !PyObject_TypeCheck(base, (PyTypeObject *)torch_tensor_type)) {
        arg_error(self, i, PyExc_TypeError, "a tensor descriptor's base must be a torch tensor, got ",
                  (PyObject *)Py_TYPE(base));
        Py_DECREF(base);
        return -1;
    }
    c->bound[i] = base;
    int rc = classify_torch(self, c, i);
    c->bound[i] = o;
    c->keep[i] = base;
    if (rc < 0)
        return -1;
    if (!(c->kind[i] & AK_HINT16))
        return arg_error(self, i, PyExc_ValueError,
                         "a tensor descriptor's base must be 16-byte aligned, got the tensor ",
                         base);
    int n = -1;
    PyObject *block = int_tuple(self, i, o, "block_shape", &n);
    PyObject *shape = block ? int_tuple(self, i, o, "shape", &n) : NULL;
    PyObject *strides = shape ? int_tuple(self, i, o, "strides", &n) : NULL;
    int ok = strides && n >= 1 && PyLong_AsLongLong(PyTuple_GET_ITEM(strides, n - 1)) == 1;
    Py_XDECREF(block);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    if (!ok)
        return PyErr_Occurred() ? -1
                                : arg_error(self, i, PyExc_ValueError,
                                            "a tensor descriptor's last stride must be 1, got ",
                                            o);
    c->kind[i] |= AK_DESC;
    return 0;
}

/* The key item of a descriptor: (class, block shape, padding). */
PyObject *desc_key(JITObject *self, Call *c, int i) {
    int n = -1;
    PyObject *block = int_tuple(self, i, c->bound[i], "block_shape", &n);
    PyObject *pad = block ? PyObject_GetAttrString(c->bound[i], "padding") : NULL;
    PyObject *item = pad ? Py_BuildValue("(iOO)", c->kind[i], block, pad) : NULL;
    Py_XDECREF(block);
    Py_XDECREF(pad);
    return item;
}

/* triton.reinterpret(tensor, dtype): a TensorWrapper (registered by
 * Python) whose torch tensor `base` is passed as a pointer to `_mt_dtype`
 * (the mt_dtype of its tl dtype), whatever the tensor's own dtype. */
static int classify_wrapper(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    PyObject *base = PyObject_GetAttrString(o, "base");
    if (!base)
        return -1;
    PyObject *code = PyObject_GetAttrString(o, "_mt_dtype");
    long d = code ? PyLong_AsLong(code) : -1;
    Py_XDECREF(code);
    int rc = -1;
    if (!PyErr_Occurred()) {
        if (d < 0 || d >= MT_DTYPE_COUNT || !torch_tensor_type ||
            !PyObject_TypeCheck(base, (PyTypeObject *)torch_tensor_type))
            arg_error(self, i, PyExc_TypeError,
                      "a reinterpreted tensor needs a torch tensor and a tl dtype, got ", o);
        else
            rc = classify_torch_as(self, c, i, base, (int)d);
    }
    Py_DECREF(base);
    return rc;
}

/* A numpy.ndarray: dtype, and the address from __array_interface__. */
static int classify_ndarray(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    PyObject *dt = PyObject_GetAttr(o, str_dtype);
    if (!dt)
        return -1;
    int code = -1;
    for (int k = 0; k < MT_DTYPE_COUNT && code < 0; k++)
        if (dt == np_dtypes[k])
            code = k;
    /* equal but not the same object: a dtype built another way */
    for (int k = 0; k < MT_DTYPE_COUNT && code < 0; k++) {
        int eq = np_dtypes[k] ? PyObject_RichCompareBool(dt, np_dtypes[k], Py_EQ) : 0;
        if (eq < 0) {
            Py_DECREF(dt);
            return -1;
        }
        if (eq)
            code = k;
    }
    if (code < 0) {
        unsupported_dtype(self, i, PyUnicode_FromFormat("array dtype %S", dt));
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
    c->kind[i] = ptr_kind(-1, code, c->val[i].p);
    return set_device(self, c, i, -1);
}

/* An object with __cuda_array_interface__, on the device the driver says
 * its memory is on.
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
    /* the interface does not say which device the memory is on: the
     * driver does.  Memory it does not know (no driver, a stand-in
     * address) is taken as device 0's, as before there were several: a
     * wrong guess fails in the driver at the launch. */
    int device = 0;
    if (p && mt_cuda_pointer_device(the_context->ctx, p, &device) != MT_OK)
        device = 0;
    if (device < 0 || device > MAX_DEVICE)
        return arg_error(self, i, PyExc_ValueError, "unsupported device of ", o);
    c->val[i].p = p;
    c->kind[i] = ptr_kind(device, code, p);
    return set_device(self, c, i, device);
}

/* 1 when o is a NumPy bool scalar (np.True_): numpy.bool_, numpy.bool in
 * NumPy 2.  It has __index__ (deprecated), but it is a bool, not an int. */
static int is_numpy_bool(PyObject *o) {
    const char *n = Py_TYPE(o)->tp_name;
    return !strcmp(n, "numpy.bool_") || !strcmp(n, "numpy.bool");
}

/* Classifies runtime argument i: kind, value, device.  Scalars follow
 * Triton: bool -> i1, int -> i32/i64/u64 by value, float (np.float64
 * too: it is one) -> fp32.  NumPy integer, bool and other float scalars,
 * which Triton refuses, are taken as the Python value they convert to. */
int classify_runtime(JITObject *self, Call *c, int i) {
    PyObject *o = c->bound[i];
    if (PyBool_Check(o)) {
        c->kind[i] = AK_SCALAR(MT_DTYPE_I1);
        c->val[i].i = o == Py_True;
        return 0;
    }
    if (PyLong_Check(o))
        return classify_int(self, c, i, o);
    if (PyFloat_Check(o)) {
        c->kind[i] = AK_SCALAR(MT_DTYPE_FP32);
        c->val[i].f = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (!torch_tensor_type || !np_ndarray_type)
        refresh_foreign_types();
    if (torch_tensor_type && PyObject_TypeCheck(o, (PyTypeObject *)torch_tensor_type))
        return classify_torch(self, c, i);
    if (np_ndarray_type && PyObject_TypeCheck(o, (PyTypeObject *)np_ndarray_type))
        return classify_ndarray(self, c, i);
    if (tensor_wrapper_cls && PyObject_TypeCheck(o, (PyTypeObject *)tensor_wrapper_cls))
        return classify_wrapper(self, c, i);
    if (is_tensor_descriptor(o))
        return classify_desc(self, c, i);
    int found = classify_cuda_array(self, c, i);
    if (found <= 0)
        return found;
    int dl = classify_dlpack(self, c, i);
    if (dl <= 0)
        return dl;
    if (is_numpy_bool(o)) {
        int t = PyObject_IsTrue(o);
        if (t < 0)
            return -1;
        c->kind[i] = AK_SCALAR(MT_DTYPE_I1);
        c->val[i].i = t;
        return 0;
    }
    if (PyIndex_Check(o)) { /* NumPy integer scalars */
        PyObject *v = PyNumber_Index(o);
        if (!v)
            return -1;
        int rc = classify_int(self, c, i, v);
        Py_DECREF(v);
        return rc;
    }
    if (PyComplex_Check(o) || !strncmp(Py_TYPE(o)->tp_name, "numpy.complex", 13))
        return arg_error(self, i, PyExc_TypeError,
                         "a complex scalar has no Triton equivalent; got ",
                         (PyObject *)Py_TYPE(o));
    if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) { /* np.float32 */
        double f = PyFloat_AsDouble(o);
        if (f == -1.0 && PyErr_Occurred())
            return -1;
        c->kind[i] = AK_SCALAR(MT_DTYPE_FP32);
        c->val[i].f = f;
        return 0;
    }
    return arg_error(self, i, PyExc_TypeError, "unsupported argument type ", (PyObject *)Py_TYPE(o));
}
