/* sinew._sinew: module setup, errors and the numpy conversions shared by
 * every part of the extension (py_common.h). */
#define SINEW_PY_MODULE_MAIN
#include "py_common.h"

#include <string.h>

/* ---- errors ---- */

/* sinew.Error's subclass per sw_result, in the enum's order (OK: none). */
static const char* const k_error_names[SW_RESULT_COUNT] = {
    NULL,
    "InvalidArgumentError",
    "BufferTooSmallError",
    "OverlapError",
    "MisalignedError",
    "OutOfMemoryError",
    "LimitError",
    "NotFoundError",
    "TruncatedError",
    "BadMagicError",
    "BadVersionError",
    "BadChecksumError",
    "BadDataError",
    "ParseError",
    "FileError",
};
static PyObject* g_error;
static PyObject* g_errors[SW_RESULT_COUNT];

int py_errors_init(PyObject* m) {
    g_error = PyErr_NewExceptionWithDoc(
        "sinew.Error",
        "A sinew call failed. Attributes: result (the sw_result word, e.g. \"not found\"), "
        "code (its number), check (the rule that failed or None), offset (byte offset in "
        "the input, 0 when none), index (element or line, -1 when none), errno (system "
        "error, 0 when none), detail (what was asked for and what exists).",
        NULL, NULL);
    if (!g_error || PyModule_AddObjectRef(m, "Error", g_error) < 0) return -1;
    for (int r = 1; r < SW_RESULT_COUNT; ++r) {
        char name[64], doc[128];
        snprintf(name, sizeof name, "sinew.%s", k_error_names[r]);
        snprintf(doc, sizeof doc, "sinew.Error for the result \"%s\".",
                 sw_result_str((sw_result)r));
        g_errors[r] = PyErr_NewExceptionWithDoc(name, doc, g_error, NULL);
        if (!g_errors[r] || PyModule_AddObjectRef(m, k_error_names[r], g_errors[r]) < 0) return -1;
    }
    return 0;
}

/* The one-line message: "what: result: system error: detail (check "c",
 * offset N, index I)", as the CLI prints it. */
static void py_error_text(sw_result r, const sw_error* err, const char* what, char* buf,
                          size_t cap) {
    size_t n = 0;
#define PY__PUT(...)                                                                               \
    do {                                                                                           \
        int w_ = snprintf(buf + n, cap - n, __VA_ARGS__);                                          \
        if (w_ > 0) n = n + (size_t)w_ < cap ? n + (size_t)w_ : cap - 1;                           \
    } while (0)
    if (what) PY__PUT("%s: ", what);
    PY__PUT("%s", sw_result_str(r));
    if (err && err->sys_errno) PY__PUT(": %s", strerror(err->sys_errno));
    if (err && err->detail[0]) PY__PUT(": %s", err->detail);
    if (err && err->check) {
        PY__PUT(" (check \"%s\"", err->check);
        if (err->offset > 0) PY__PUT(", offset %llu", (unsigned long long)err->offset);
        if (err->index >= 0 && !err->detail[0]) PY__PUT(", index %lld", (long long)err->index);
        PY__PUT(")");
    }
#undef PY__PUT
}

/* Sets attribute `name` of o to v (a new reference, stolen; NULL: skipped). */
static void py_set_attr(PyObject* o, const char* name, PyObject* v) {
    if (v) PyObject_SetAttrString(o, name, v);
    Py_XDECREF(v);
}

PyObject* py_raise(sw_result r, const sw_error* err, const char* what) {
    if ((int)r <= 0 || (int)r >= SW_RESULT_COUNT) r = SW_RESULT_INVALID_ARGUMENT;
    char text[1024];
    py_error_text(r, err, what, text, sizeof text);
    PyObject* cls = g_errors[r];
    PyObject* e = PyObject_CallFunction(
        cls, "N", PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace"));
    if (!e) return NULL;
    const char* detail = err ? err->detail : "";
    py_set_attr(e, "result", PyUnicode_FromString(sw_result_str(r)));
    py_set_attr(e, "code", PyLong_FromLong((long)r));
    py_set_attr(e, "check",
                err && err->check ? PyUnicode_FromString(err->check) : Py_NewRef(Py_None));
    py_set_attr(e, "offset", PyLong_FromUnsignedLongLong(err ? err->offset : 0u));
    py_set_attr(e, "index", PyLong_FromLongLong(err ? err->index : -1));
    py_set_attr(e, "errno", PyLong_FromLong(err ? err->sys_errno : 0));
    py_set_attr(e, "detail", PyUnicode_DecodeUTF8(detail, (Py_ssize_t)strlen(detail), "replace"));
    PyErr_Clear();
    PyErr_SetObject(cls, e);
    Py_DECREF(e);
    return NULL;
}

/* ---- numpy ---- */

static bool py_aligned16(PyArrayObject* a) {
    return ((uintptr_t)PyArray_DATA(a) & 15u) == 0;
}

PyArrayObject* py_pose_new(uint32_t packets) {
    const npy_intp dims[3] = {(npy_intp)packets, 10, 4};
    PyArrayObject* a = (PyArrayObject*)PyArray_ZEROS(3, dims, NPY_FLOAT32, 0);
    if (a && !py_aligned16(a)) { /* numpy allocates with malloc: 16 bytes on 64-bit targets */
        Py_DECREF(a);
        PyErr_SetString(PyExc_MemoryError, "numpy gave a pose buffer that is not 16-byte aligned");
        return NULL;
    }
    return a;
}

static bool py_pose_shape(PyArrayObject* a, uint32_t packets, const char* what) {
    if (PyArray_NDIM(a) != 3 || PyArray_DIM(a, 1) != 10 || PyArray_DIM(a, 2) != 4 ||
        PyArray_DIM(a, 0) < (npy_intp)packets) {
        PyErr_Format(PyExc_ValueError,
                     "%s: a pose is a float32 array of shape (packets, 10, 4) with at least %u "
                     "packets",
                     what, packets);
        return false;
    }
    return true;
}

PyArrayObject* py_pose_in(PyObject* o, uint32_t packets, const char* what) {
    PyArrayObject* a = (PyArrayObject*)PyArray_FROM_OTF(o, NPY_FLOAT32, PY_IN);
    if (!a) return NULL;
    if (!py_pose_shape(a, packets, what)) {
        Py_DECREF(a);
        return NULL;
    }
    if (py_aligned16(a)) return a;
    PyArrayObject* c = py_pose_new((uint32_t)PyArray_DIM(a, 0));
    if (c && PyArray_CopyInto(c, a) < 0) Py_CLEAR(c);
    Py_DECREF(a);
    return c;
}

PyArrayObject* py_pose_inout(PyObject* o, uint32_t packets, const char* what) {
    if (!PyArray_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: a pose array (numpy) is written in place", what);
        return NULL;
    }
    PyArrayObject* a = (PyArrayObject*)o;
    if (PyArray_TYPE(a) != NPY_FLOAT32 || !PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISWRITEABLE(a) ||
        !py_aligned16(a)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: a pose written in place must be a writable, C-contiguous, 16-byte "
                     "aligned float32 array (as sinew returns them)",
                     what);
        return NULL;
    }
    return py_pose_shape(a, packets, what) ? a : NULL;
}

PyArrayObject* py_pose_out(PyObject* out, uint32_t packets) {
    if (out && out != Py_None) {
        PyArrayObject* a = py_pose_inout(out, packets, "out");
        Py_XINCREF(a);
        return a;
    }
    return py_pose_new(packets);
}

PyArrayObject* py_mat_new(uint32_t n) {
    const npy_intp dims[3] = {(npy_intp)n, 4, 4};
    return (PyArrayObject*)PyArray_ZEROS(3, dims, NPY_FLOAT32, 0);
}

PyObject* py_mat_view(PyArrayObject* st) {
    if (!st) return NULL;
    PyArray_Dims perm;
    npy_intp axes[3] = {0, 2, 1};
    perm.ptr = axes;
    perm.len = 3;
    PyObject* v = PyArray_Transpose(st, &perm);
    Py_DECREF(st);
    return v;
}

static PyArrayObject* py_mat_storage(PyObject* o, uint32_t min, const char* what, int flags) {
    PyArrayObject* a = (PyArrayObject*)PyArray_FROM_OTF(o, NPY_FLOAT32, NPY_ARRAY_FORCECAST);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 3 || PyArray_DIM(a, 1) != 4 || PyArray_DIM(a, 2) != 4 ||
        PyArray_DIM(a, 0) < (npy_intp)min) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "%s: matrices are an array of shape (n, 4, 4), n >= %u",
                     what, min);
        return NULL;
    }
    PyObject* t = py_mat_view(a); /* [i, col, row]: sw_mat4's memory order */
    if (!t) return NULL;
    PyArrayObject* c = (PyArrayObject*)PyArray_FROM_OTF(t, NPY_FLOAT32, flags | PY_IN);
    Py_DECREF(t);
    return c;
}

PyArrayObject* py_mat_in(PyObject* o, uint32_t min, const char* what) {
    return py_mat_storage(o, min, what, 0);
}

PyArrayObject* py_mat_inout(PyObject* o, uint32_t min, const char* what) {
    if (!PyArray_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: model matrices (numpy) are written in place", what);
        return NULL;
    }
    PyArrayObject* c = py_mat_storage(o, min, what, 0);
    if (!c) return NULL;
    PyArrayObject* t = (PyArrayObject*)py_mat_view((PyArrayObject*)Py_NewRef(c));
    const bool same = t && PyArray_DATA(t) == PyArray_DATA((PyArrayObject*)o) &&
                      PyArray_STRIDES(t)[1] == PyArray_STRIDES((PyArrayObject*)o)[1] &&
                      PyArray_ISWRITEABLE((PyArrayObject*)o);
    Py_XDECREF(t);
    if (!same) {
        Py_DECREF(c);
        PyErr_Format(PyExc_ValueError,
                     "%s: matrices written in place must be writable float32 matrices as "
                     "local_to_model returns them",
                     what);
        return NULL;
    }
    return c;
}

PyObject* py_view(PyObject* owner, const void* data, int nd, const npy_intp* dims, int type,
                  bool writable) {
    PyObject* a = PyArray_New(&PyArray_Type, nd, (npy_intp*)(uintptr_t)dims, type, NULL,
                              (void*)(uintptr_t)data, 0,
                              writable ? NPY_ARRAY_CARRAY : NPY_ARRAY_CARRAY_RO, NULL);
    if (!a) return NULL;
    if (PyArray_SetBaseObject((PyArrayObject*)a, Py_NewRef(owner)) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static bool py_floats(PyObject* o, float* out, int n, const char* what) {
    PyObject* seq = PySequence_Fast(o, what);
    if (!seq) return false;
    bool ok = PySequence_Fast_GET_SIZE(seq) == n;
    for (int i = 0; ok && i < n; ++i) {
        const double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        ok = !(v == -1.0 && PyErr_Occurred());
        out[i] = (float)v;
    }
    Py_DECREF(seq);
    if (!ok && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: %d numbers expected", what, n);
    return ok;
}

bool py_vec3(PyObject* o, sw_vec3* out, const char* what) {
    float v[3];
    if (!py_floats(o, v, 3, what)) return false;
    *out = sw_vec3_make(v[0], v[1], v[2]);
    return true;
}

bool py_quat(PyObject* o, sw_quat* out, const char* what) {
    float v[4];
    if (!py_floats(o, v, 4, what)) return false;
    *out = sw_quat_make(v[0], v[1], v[2], v[3]);
    return true;
}

PyObject* py_vec3_tuple(sw_vec3 v) {
    return Py_BuildValue("(ddd)", (double)v.x, (double)v.y, (double)v.z);
}

PyObject* py_quat_tuple(sw_quat q) {
    return Py_BuildValue("(dddd)", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
}

/* ---- module ---- */

static PyObject* py_result_str(PyObject* self, PyObject* arg) {
    (void)self;
    const long r = PyLong_AsLong(arg);
    if (r == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(sw_result_str((sw_result)r));
}

static PyMethodDef k_module_methods[] = {
    {"result_str", py_result_str, METH_O,
     "result_str(code) -> str: the text of an sw_result number (\"not found\")."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef k_module = {
    PyModuleDef_HEAD_INIT,
    "sinew._sinew",
    "The C extension of the sinew package (use the package `sinew`, not this module).",
    -1,
    k_module_methods,
    NULL,
    NULL,
    NULL,
    NULL};

static int py_add_functions(PyObject* m, PyMethodDef* defs) {
    return PyModule_AddFunctions(m, defs);
}

PyMODINIT_FUNC PyInit__sinew(void);
PyMODINIT_FUNC PyInit__sinew(void) {
    import_array();
    PyObject* m = PyModule_Create(&k_module);
    if (!m) return NULL;
    if (py_errors_init(m) < 0 || py_asset_types_init(m) < 0 ||
        py_add_functions(m, py_jobs_methods) < 0 || py_animator_types_init(m) < 0 ||
        py_ik_types_init(m) < 0 || py_procedural_init(m) < 0 || py_hit_init(m) < 0 ||
        py_walker_init(m) < 0 || py_add_functions(m, py_ik_methods) < 0 ||
        py_retarget_types_init(m) < 0 || py_add_functions(m, py_tools_methods) < 0 ||
        PyModule_AddIntConstant(m, "VERSION_MAJOR", SINEW_VERSION_MAJOR) < 0 ||
        PyModule_AddIntConstant(m, "VERSION_MINOR", SINEW_VERSION_MINOR) < 0 ||
        PyModule_AddIntConstant(m, "VERSION_PATCH", SINEW_VERSION_PATCH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
