/* sinew._sinew: Walker, the multi-legged walker (sinew/procedural/walker.h):
 * body and feet driven by a velocity and a turn rate over ground found by a
 * Python ray, and the legs' pose job. */
#include "py_common.h"

#include <string.h>

#include "sinew/procedural/walker.h"

typedef struct py_walker {
    PyObject_HEAD sw_walker_desc desc;
    sw_walker_leg legs[SW_WALKER_MAX_LEGS];
    sw_walker_state state;
    PyObject* ray;
} py_walker;

static void py_walker_dealloc(PyObject* self) {
    Py_XDECREF(((py_walker*)self)->ray);
    Py_TYPE(self)->tp_free(self);
}

/* Legs: (x, z) or (x, z, group) rest positions in body space. */
static bool py_walker_legs(PyObject* o, py_walker* w) {
    PyObject* seq = PySequence_Fast(o, "legs: a sequence of (x, z[, group])");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= SW_WALKER_MAX_LEGS;
    if (!ok) PyErr_Format(PyExc_ValueError, "legs: at most %d", SW_WALKER_MAX_LEGS);
    for (Py_ssize_t i = 0; ok && i < k; ++i) {
        unsigned int group = 0;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ff|I", &w->legs[i].rest.x,
                              &w->legs[i].rest.z, &group);
        w->legs[i].group = group;
    }
    w->desc.legs = w->legs;
    w->desc.legs_count = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_walker_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"legs",
                             "height",
                             "stride",
                             "ray",
                             "position",
                             "heading",
                             "min_height",
                             "clearance",
                             "step_duration",
                             "step_height",
                             "move_dip",
                             "dip_speed",
                             "max_tilt",
                             "tilt",
                             "ray_up",
                             "ray_down",
                             "height_half_life",
                             "tilt_half_life",
                             "velocity_half_life",
                             "turn_half_life",
                             NULL};
    PyObject *lo, *ray, *pos = Py_None;
    float heading = 0.0f;
    int tilt = 1;
    py_walker* w = (py_walker*)type->tp_alloc(type, 0);
    if (!w) return NULL;
    sw_walker_desc* d = &w->desc;
    sw_vec3 position = {0, 0, 0};
    bool ok = PyArg_ParseTupleAndKeywords(
        args, kw, "OffO|$Offffffffpffffff:Walker", kwlist, &lo, &d->height, &d->stride, &ray, &pos,
        &heading, &d->min_height, &d->clearance, &d->step_duration, &d->step_height, &d->move_dip,
        &d->dip_speed, &d->max_tilt, &tilt, &d->ray_up, &d->ray_down, &d->height_half_life,
        &d->tilt_half_life, &d->velocity_half_life, &d->turn_half_life);
    ok = ok && py_walker_legs(lo, w) && (pos == Py_None || py_vec3(pos, &position, "position"));
    if (ok && !PyCallable_Check(ray)) {
        PyErr_SetString(PyExc_TypeError, "Walker: ray must be callable");
        ok = false;
    }
    if (ok) {
        d->no_tilt = !tilt;
        w->ray = Py_NewRef(ray);
        d->ray = py_ground_ray;
        d->ray_user = ray;
        const sw_result r = sw_walker_init(d, position, heading, &w->state);
        ok = !PyErr_Occurred() && (r == SW_RESULT_OK || py_raise(r, NULL, "Walker"));
    }
    if (!ok) Py_CLEAR(w);
    return (PyObject*)w;
}

static PyObject* py_walker_update(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"velocity", "turn_rate", "dt", NULL};
    PyObject* vo;
    py_walker* w = (py_walker*)self;
    sw_walker_job job = {&w->desc, &w->state, {0, 0, 0}, 0.0f, 0.0f};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Off:update", kwlist, &vo, &job.turn_rate,
                                     &job.dt) ||
        !py_vec3(vo, &job.velocity, "velocity"))
        return NULL;
    const sw_result r = sw_walker_job_run(&job);
    if (PyErr_Occurred()) return NULL;
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "walker update");
}

static PyObject* py_walker_body_matrix(PyObject* self, PyObject* unused) {
    (void)unused;
    const sw_mat4 m = sw_walker_body_matrix(&((py_walker*)self)->state);
    PyArrayObject* st = py_mat_new(1);
    if (!st) return NULL;
    memcpy(PyArray_DATA(st), &m, sizeof m);
    PyObject* v = py_mat_view(st); /* (1, 4, 4) [i, row, col] */
    PyObject* one = v ? PySequence_GetItem(v, 0) : NULL;
    Py_XDECREF(v);
    return one;
}

/* Chains: joint lists, or (joints, solver, pole) tuples, one per leg. */
static bool py_walker_chains(const sw_skeleton* s, PyObject* o, sw_walker_chain* chains,
                             uint32_t (*joints)[SW_IK_MAX_CHAIN], uint32_t* n) {
    PyObject* seq = PySequence_Fast(o, "chains: one joint list per leg");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= SW_WALKER_MAX_LEGS;
    if (!ok) PyErr_Format(PyExc_ValueError, "chains: at most %d", SW_WALKER_MAX_LEGS);
    for (Py_ssize_t i = 0; ok && i < k; ++i) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i), *jo = it, *pole = Py_None;
        const char* solver = NULL;
        memset(&chains[i], 0, sizeof chains[i]);
        if (PyTuple_Check(it)) ok = PyArg_ParseTuple(it, "O|zO", &jo, &solver, &pole);
        ok = ok && py_chain(s, jo, joints[i], SW_IK_MAX_CHAIN, &chains[i].joints_count) &&
             (pole == Py_None || py_vec3(pole, &chains[i].pole, "pole"));
        if (ok && solver && strcmp(solver, "two_bone") != 0 && strcmp(solver, "fabrik") != 0) {
            PyErr_Format(PyExc_ValueError, "solver \"two_bone\" or \"fabrik\", got \"%s\"", solver);
            ok = false;
        }
        chains[i].joints = joints[i];
        chains[i].solver = !solver            ? SW_WALKER_SOLVER_DEFAULT
                           : solver[0] == 't' ? SW_WALKER_SOLVER_TWO_BONE
                                              : SW_WALKER_SOLVER_FABRIK;
    }
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_walker_pose(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"skeleton",   "model",  "pose", "chains",
                             "iterations", "weight", "root", NULL};
    PyObject *so, *mo, *po, *co, *root = Py_None;
    py_walker* w = (py_walker*)self;
    sw_walker_pose_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$IfO:pose", kwlist, &so, &mo, &po, &co,
                                     &job.iterations, &job.weight, &root))
        return NULL;
    py_ik_common c;
    sw_walker_chain chains[SW_WALKER_MAX_LEGS];
    uint32_t joints[SW_WALKER_MAX_LEGS][SW_IK_MAX_CHAIN];
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_walker_chains(c.skeleton, co, chains, joints, &job.chains_count);
    if (ok) {
        if (!c.has_root) { /* the body matrix, as local-to-model was given it */
            c.root = sw_walker_body_matrix(&w->state);
            c.has_root = true;
        }
        PY_IK_FILL(job, &c);
        job.state = &w->state;
        job.chains = chains;
        const sw_result r = sw_walker_pose_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "walker pose") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject* py_walker_get(PyObject* self, void* closure) {
    const sw_walker_state* s = &((py_walker*)self)->state;
    if (closure == NULL) return py_vec3_tuple(s->position);
    if (closure == (void*)1) return PyFloat_FromDouble((double)s->heading);
    if (closure == (void*)2) return py_quat_tuple(s->rotation);
    PyObject* l = PyList_New((Py_ssize_t)s->legs_count);
    for (uint32_t i = 0; l && i < s->legs_count; ++i) {
        const sw_walker_foot* f = &s->feet[i];
        PyList_SET_ITEM(
            l, (Py_ssize_t)i,
            Py_BuildValue("{s:N,s:N,s:d,s:O,s:I}", "position", py_vec3_tuple(f->position), "target",
                          py_vec3_tuple(f->target), "phase", (double)f->phase, "airborne",
                          f->airborne ? Py_True : Py_False, "steps", f->steps));
    }
    return l;
}

static PyMethodDef k_walker_methods[] = {
    {"update", (PyCFunction)(void (*)(void))py_walker_update, METH_VARARGS | METH_KEYWORDS,
     "update(velocity, turn_rate, dt): moves the body and steps the feet (sw_walker_job); "
     "velocity in world space (m/s), turn_rate about +Y (rad/s)."},
    {"body_matrix", py_walker_body_matrix, METH_NOARGS,
     "body_matrix() -> 4x4: the body's world transform, the root for local_to_model."},
    {"pose", (PyCFunction)(void (*)(void))py_walker_pose, METH_VARARGS | METH_KEYWORDS,
     "pose(skeleton, model, pose, chains, *, iterations=0, weight=1.0, root=None): puts each "
     "leg chain's tip on its foot (sw_walker_pose_job), pose in place. chains: per leg a "
     "joint list or (joints, \"two_bone\"|\"fabrik\", pole). root: the body matrix given to "
     "local_to_model (None: body_matrix())."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_walker_getset[] = {
    {"position", py_walker_get, NULL, "Body position (world).", NULL},
    {"heading", py_walker_get, NULL, "Heading about +Y (radians; 0 faces +Z).", (void*)1},
    {"rotation", py_walker_get, NULL, "Body rotation (tilt * heading), (x, y, z, w).", (void*)2},
    {"feet", py_walker_get, NULL,
     "Per leg: position, target, phase, airborne, steps (world space).", (void*)3},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_walker_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Walker",
    .tp_basicsize = sizeof(py_walker),
    .tp_dealloc = py_walker_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Walker(legs, height, stride, ray, *, position=None, heading=0.0, ...)\n\n"
              "A multi-legged walker (docs/walker.md): legs as (x, z[, group]) rest positions "
              "in body space, ray(origin, direction, max_distance) -> None | (point, normal) "
              "in world space (down for ground, up for overhead). The other keywords are "
              "sw_walker_desc's fields (tilt=False for no_tilt).",
    .tp_methods = k_walker_methods,
    .tp_getset = k_walker_getset,
    .tp_new = py_walker_new,
};

int py_walker_init(PyObject* m) {
    if (PyType_Ready(&py_walker_type) < 0) return -1;
    return PyModule_AddObjectRef(m, "Walker", (PyObject*)&py_walker_type);
}
