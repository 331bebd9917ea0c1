/* sinew._sinew: chains (points from model space, follow-the-leader, aim,
 * jiggle with its state) over numpy points and poses. */
#include "py_common.h"

#include <string.h>

#include "sinew/procedural/chain.h"

/* Points (n, 3) float32: a new contiguous array, or `o` itself when it is
 * written in place (then it must already be one). */
static PyArrayObject* py_points(PyObject* o, bool inout) {
    if (inout &&
        (!PyArray_Check(o) || PyArray_TYPE((PyArrayObject*)o) != NPY_FLOAT32 ||
         !PyArray_IS_C_CONTIGUOUS((PyArrayObject*)o) || !PyArray_ISWRITEABLE((PyArrayObject*)o))) {
        PyErr_SetString(PyExc_ValueError, "points written in place: a writable, C-contiguous "
                                          "float32 array of shape (n, 3)");
        return NULL;
    }
    PyArrayObject* a = inout ? (PyArrayObject*)Py_NewRef(o)
                             : (PyArrayObject*)PyArray_FROM_OTF(o, NPY_FLOAT32, PY_IN);
    if (a && (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != 3)) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "points: an array of shape (n, 3)");
        return NULL;
    }
    return a;
}

static PyObject* py_chain_points(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *so, *mo, *jo;
    if (!PyArg_ParseTuple(args, "OOO:chain_points", &so, &mo, &jo)) return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    uint32_t joints[SW_CHAIN_MAX_JOINTS], n = 0;
    if (!s || !py_chain(s, jo, joints, SW_CHAIN_MAX_JOINTS, &n)) return NULL;
    PyArrayObject* model = py_mat_in(mo, s->joints_count, "model");
    if (!model) return NULL;
    const npy_intp pd[2] = {(npy_intp)n, 3}, ld = n ? (npy_intp)n - 1 : 0;
    PyArrayObject* points = (PyArrayObject*)PyArray_ZEROS(2, pd, NPY_FLOAT32, 0);
    PyArrayObject* lengths = (PyArrayObject*)PyArray_ZEROS(1, &ld, NPY_FLOAT32, 0);
    sw_result r = points && lengths ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK)
        r = sw_chain_points_from_model(
            (const sw_mat4*)PyArray_DATA(model), (uint32_t)PyArray_DIM(model, 0), joints, n,
            (sw_vec3*)PyArray_DATA(points), (float*)PyArray_DATA(lengths));
    Py_DECREF(model);
    if (r != SW_RESULT_OK) {
        Py_XDECREF(points);
        Py_XDECREF(lengths);
        return PyErr_Occurred() ? NULL : py_raise(r, NULL, "chain_points");
    }
    return Py_BuildValue("(NN)", points, lengths);
}

static PyObject* py_chain_follow(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *po, *ho, *lo;
    sw_chain_follow_job job;
    memset(&job, 0, sizeof job);
    if (!PyArg_ParseTuple(args, "OOO:chain_follow", &po, &ho, &lo) ||
        !py_vec3(ho, &job.head, "head"))
        return NULL;
    PyArrayObject* points = py_points(po, true);
    PyArrayObject* lengths =
        points ? (PyArrayObject*)PyArray_FROM_OTF(lo, NPY_FLOAT32, PY_IN) : NULL;
    sw_result r = SW_RESULT_OK;
    if (lengths) {
        job.lengths = (const float*)PyArray_DATA(lengths);
        job.lengths_count = (uint32_t)PyArray_SIZE(lengths);
        job.points = (sw_vec3*)PyArray_DATA(points);
        job.points_count = (uint32_t)PyArray_DIM(points, 0);
        r = sw_chain_follow_job_run(&job);
    }
    const bool ok = lengths && (r == SW_RESULT_OK || py_raise(r, NULL, "chain_follow"));
    Py_XDECREF(points);
    Py_XDECREF(lengths);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject* py_chain_aim(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "model",  "pose", "joints",
                             "points",   "weight", "root", NULL};
    PyObject *so, *mo, *po, *jo, *pto, *root = Py_None;
    sw_chain_aim_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|$fO:chain_aim", kwlist, &so, &mo, &po, &jo,
                                     &pto, &job.weight, &root))
        return NULL;
    py_ik_common c;
    uint32_t joints[SW_CHAIN_MAX_JOINTS];
    PyArrayObject* points = NULL;
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_chain(c.skeleton, jo, joints, SW_CHAIN_MAX_JOINTS, &job.joints_count) &&
              (points = py_points(pto, false)) != NULL;
    if (ok) {
        PY_IK_FILL(job, &c);
        job.joints = joints;
        job.points = (const sw_vec3*)PyArray_DATA(points);
        job.points_count = (uint32_t)PyArray_DIM(points, 0);
        const sw_result r = sw_chain_aim_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "chain_aim") != NULL;
    }
    Py_XDECREF(points);
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* ---- jiggle ---- */

typedef struct py_jiggle_state {
    PyObject_HEAD sw_jiggle_state state;
    sw_jiggle_point points[SW_CHAIN_MAX_JOINTS];
} py_jiggle_state;

static PyObject* py_jiggle_state_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    if (!PyArg_ParseTuple(args, ":JiggleState") || (kw && PyDict_Size(kw))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "JiggleState() takes no arguments");
        return NULL;
    }
    py_jiggle_state* o = (py_jiggle_state*)type->tp_alloc(type, 0);
    if (o) {
        o->state.points = o->points;
        o->state.points_count = SW_CHAIN_MAX_JOINTS;
    }
    return (PyObject*)o;
}

static PyObject* py_jiggle_state_positions(PyObject* self, void* closure) {
    (void)closure;
    /* the `position` member of each point: a strided view, no copy */
    npy_intp d[2] = {SW_CHAIN_MAX_JOINTS, 3};
    npy_intp strides[2] = {(npy_intp)sizeof(sw_jiggle_point), (npy_intp)sizeof(float)};
    PyObject* a = PyArray_New(&PyArray_Type, 2, d, NPY_FLOAT32, strides,
                              &((py_jiggle_state*)self)->points[0].position, 0, 0, NULL);
    if (a && PyArray_SetBaseObject((PyArrayObject*)a, Py_NewRef(self)) < 0) Py_CLEAR(a);
    return a;
}

static PyObject* py_jiggle_state_reset(PyObject* self, PyObject* unused) {
    (void)unused;
    ((py_jiggle_state*)self)->state.started = false;
    Py_RETURN_NONE;
}

static PyMethodDef k_jiggle_state_methods[] = {
    {"reset", py_jiggle_state_reset, METH_NOARGS,
     "reset(): the next run starts the points on the animated shape (after a cut)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_jiggle_state_getset[] = {
    {"positions", py_jiggle_state_positions, NULL,
     "Simulated positions (model space), a read-only (64, 3) view; the first joints_count "
     "rows are the chain's.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_jiggle_state_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.JiggleState",
    .tp_basicsize = sizeof(py_jiggle_state),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "JiggleState(): one jiggle chain's simulated points (sw_jiggle_state, up to 64), "
              "for sinew.jiggle.",
    .tp_methods = k_jiggle_state_methods,
    .tp_getset = k_jiggle_state_getset,
    .tp_new = py_jiggle_state_new,
};

/* Colliders: (a, b, radius) capsules. */
static bool py_colliders(PyObject* o, sw_jiggle_collider* out, uint32_t cap, uint32_t* n) {
    *n = 0;
    if (o == Py_None) return true;
    PyObject* seq = PySequence_Fast(o, "colliders: a sequence of (a, b, radius)");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= (Py_ssize_t)cap;
    if (!ok) PyErr_Format(PyExc_ValueError, "colliders: at most %u", cap);
    for (Py_ssize_t i = 0; ok && i < k; ++i) {
        PyObject *a, *b;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOf", &a, &b, &out[i].radius) &&
             py_vec3(a, &out[i].a, "collider a") && py_vec3(b, &out[i].b, "collider b");
    }
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

#define PY_JIGGLE_MAX_COLLIDERS 64

static PyObject* py_jiggle(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton",  "model",     "pose",    "joints",  "state",
                             "dt",        "stiffness", "damping", "gravity", "step",
                             "max_steps", "colliders", "weight",  "root",    NULL};
    PyObject *so, *mo, *po, *jo, *st, *grav = Py_None, *co = Py_None, *root = Py_None;
    sw_jiggle_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOf|$ffOfIOfO:jiggle", kwlist, &so, &mo, &po,
                                     &jo, &st, &job.dt, &job.stiffness, &job.damping, &grav,
                                     &job.step, &job.max_steps, &co, &job.weight, &root))
        return NULL;
    if (!PyObject_TypeCheck(st, &py_jiggle_state_type)) {
        PyErr_SetString(PyExc_TypeError, "jiggle: state must be a JiggleState");
        return NULL;
    }
    py_ik_common c;
    uint32_t joints[SW_CHAIN_MAX_JOINTS];
    sw_jiggle_collider colliders[PY_JIGGLE_MAX_COLLIDERS];
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_chain(c.skeleton, jo, joints, SW_CHAIN_MAX_JOINTS, &job.joints_count) &&
              (grav == Py_None || py_vec3(grav, &job.gravity, "gravity")) &&
              py_colliders(co, colliders, PY_JIGGLE_MAX_COLLIDERS, &job.colliders_count);
    if (ok) {
        PY_IK_FILL(job, &c);
        job.joints = joints;
        job.colliders = job.colliders_count ? colliders : NULL;
        job.state = &((py_jiggle_state*)st)->state;
        const sw_result r = sw_jiggle_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "jiggle") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef k_procedural_methods[] = {
    {"chain_points", py_chain_points, METH_VARARGS,
     "chain_points(skeleton, model, joints) -> (points, lengths): the chain joints' model "
     "positions (n, 3) and the distances between them (sw_chain_points_from_model)."},
    {"chain_follow", py_chain_follow, METH_VARARGS,
     "chain_follow(points, head, lengths): follow-the-leader (sw_chain_follow_job): points[0] "
     "moves to head, each next point is pulled along at its length; points (n, 3) float32 "
     "edited in place."},
    {"chain_aim", PY_KW(py_chain_aim),
     "chain_aim(skeleton, model, pose, joints, points, *, weight=1.0, root=None): turns the "
     "chain's joints so each bone points at the next point (sw_chain_aim_job), pose in place."},
    {"jiggle", PY_KW(py_jiggle),
     "jiggle(skeleton, model, pose, joints, state, dt, *, stiffness=0.0, damping=0.0, "
     "gravity=None, step=0.0, max_steps=0, colliders=None, weight=1.0, root=None)\n\n"
     "Verlet jiggle of a chain (tails, antennas; sw_jiggle_job) pulled toward the animated "
     "shape, colliders (a, b, radius) capsules; pose edited in place, state a JiggleState."},
    {NULL, NULL, 0, NULL}};

int py_procedural_init(PyObject* m) {
    if (PyType_Ready(&py_jiggle_state_type) < 0 ||
        PyModule_AddObjectRef(m, "JiggleState", (PyObject*)&py_jiggle_state_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, k_procedural_methods);
}
