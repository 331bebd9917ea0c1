/* sinew._sinew: hit effects (camera shake, field-of-view pulse, hit pause,
 * pose shake) and spine wander. */
#include "py_common.h"

#include <string.h>

#include "sinew/procedural/hit.h"
#include "sinew/procedural/spine.h"

/* The time and the shake's description from the arguments of shake(). */
static bool py_shake_desc(PyObject* args, PyObject* kw, float* t, sw_shake_desc* d) {
    static char* kwlist[] = {"time",
                             "position_amplitude",
                             "position_frequency",
                             "rotation_amplitude",
                             "rotation_frequency",
                             "fov_amplitude",
                             "fov_frequency",
                             "fade_in",
                             "hold",
                             "fade_out",
                             "seed",
                             NULL};
    PyObject *pa = Py_None, *ra = Py_None;
    memset(d, 0, sizeof *d);
    return PyArg_ParseTupleAndKeywords(args, kw, "f|$OfOffffffI:shake", kwlist, t, &pa,
                                       &d->position_frequency, &ra, &d->rotation_frequency,
                                       &d->fov_amplitude, &d->fov_frequency, &d->fade_in, &d->hold,
                                       &d->fade_out, &d->seed) &&
           (pa == Py_None || py_vec3(pa, &d->position_amplitude, "position_amplitude")) &&
           (ra == Py_None || py_vec3(ra, &d->rotation_amplitude, "rotation_amplitude"));
}

static PyObject* py_shake(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    float t = 0.0f;
    sw_shake_desc d;
    if (!py_shake_desc(args, kw, &t, &d)) return NULL;
    const sw_shake_sample s = sw_shake_eval(&d, t);
    return Py_BuildValue("{s:N,s:N,s:d,s:d,s:(NNN),s:d}", "position", py_vec3_tuple(s.position),
                         "rotation", py_vec3_tuple(s.rotation), "fov", (double)s.fov, "envelope",
                         (double)s.envelope, "offset", py_vec3_tuple(s.offset.t),
                         py_quat_tuple(s.offset.r), py_vec3_tuple(s.offset.s), "duration",
                         (double)sw_shake_duration(&d));
}

static PyObject* py_fov_pulse(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"time", "amount", "attack", "hold", "release", NULL};
    float t;
    sw_fov_pulse_desc d;
    memset(&d, 0, sizeof d);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "f|$ffff:fov_pulse", kwlist, &t, &d.amount,
                                     &d.attack, &d.hold, &d.release))
        return NULL;
    return PyFloat_FromDouble((double)sw_fov_pulse_eval(&d, t));
}

static PyObject* py_pose_shake(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton",  "pose",      "joints", "time", "amplitude",
                             "frequency", "half_life", "seed",   NULL};
    PyObject *so, *po, *jo;
    sw_pose_shake_job job;
    memset(&job, 0, sizeof job);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOf|$fffI:pose_shake", kwlist, &so, &po, &jo,
                                     &job.time, &job.amplitude, &job.frequency, &job.half_life,
                                     &job.seed))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    uint32_t joints[SW_SKELETON_MAX_JOINTS];
    PyArrayObject* pose = s ? py_pose_inout(po, s->packets_count, "pose") : NULL;
    if (!pose || !py_chain(s, jo, joints, SW_SKELETON_MAX_JOINTS, &job.joints_count)) return NULL;
    job.joints = joints;
    job.pose = (sw_xform4*)PyArray_DATA(pose);
    job.pose_count = (uint32_t)PyArray_DIM(pose, 0);
    const sw_result r = sw_pose_shake_job_run(&job);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "pose_shake");
}

/* ---- hit pause ---- */

typedef struct py_hit_pause {
    PyObject_HEAD sw_hit_pause pause;
} py_hit_pause;

static PyObject* py_hit_pause_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    if (!PyArg_ParseTuple(args, ":HitPause") || (kw && PyDict_Size(kw))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "HitPause() takes no arguments");
        return NULL;
    }
    return type->tp_alloc(type, 0);
}

static PyObject* py_hit_pause_start(PyObject* self, PyObject* args) {
    float duration, scale = 0.0f;
    if (!PyArg_ParseTuple(args, "f|f:start", &duration, &scale)) return NULL;
    sw_hit_pause_start(&((py_hit_pause*)self)->pause, duration, scale);
    Py_RETURN_NONE;
}

static PyObject* py_hit_pause_scale_dt(PyObject* self, PyObject* args) {
    float dt;
    if (!PyArg_ParseTuple(args, "f:scale_dt", &dt)) return NULL;
    return PyFloat_FromDouble((double)sw_hit_pause_scale_dt(&((py_hit_pause*)self)->pause, dt));
}

static PyObject* py_hit_pause_active(PyObject* self, void* closure) {
    (void)closure;
    return PyBool_FromLong(sw_hit_pause_active(&((py_hit_pause*)self)->pause));
}

static PyMethodDef k_hit_pause_methods[] = {
    {"start", py_hit_pause_start, METH_VARARGS,
     "start(duration, scale=0.0): pause for `duration` seconds of real time, game time "
     "running at `scale` meanwhile (sw_hit_pause_start)."},
    {"scale_dt", py_hit_pause_scale_dt, METH_VARARGS,
     "scale_dt(dt) -> float: the game time of a real-time step dt (sw_hit_pause_scale_dt)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_hit_pause_getset[] = {
    {"active", py_hit_pause_active, NULL, "True while the pause lasts.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_hit_pause_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.HitPause",
    .tp_basicsize = sizeof(py_hit_pause),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "HitPause(): a hit pause (hit stop) scaling game time (sw_hit_pause).",
    .tp_methods = k_hit_pause_methods,
    .tp_getset = k_hit_pause_getset,
    .tp_new = py_hit_pause_new,
};

/* ---- spine wander ---- */

static PyObject* py_spine_wander(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton",   "model",     "pose",   "joints", "time",
                             "range",      "frequency", "seed",   "solver", "limits",
                             "iterations", "tolerance", "weight", "root",   NULL};
    PyObject *so, *mo, *po, *jo, *ro, *lo = Py_None, *root = Py_None;
    const char* solver = "fabrik";
    sw_spine_wander_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOfO|$fIsOIffO:spine_wander", kwlist, &so, &mo,
                                     &po, &jo, &job.time, &ro, &job.frequency, &job.seed, &solver,
                                     &lo, &job.iterations, &job.tolerance, &job.weight, &root))
        return NULL;
    if (strcmp(solver, "fabrik") != 0 && strcmp(solver, "ccd") != 0) {
        PyErr_Format(PyExc_ValueError, "solver: \"fabrik\" or \"ccd\", got \"%s\"", solver);
        return NULL;
    }
    job.solver = solver[0] == 'c' ? SW_SPINE_SOLVER_CCD : SW_SPINE_SOLVER_FABRIK;
    py_ik_common c;
    uint32_t joints[SW_IK_MAX_CHAIN];
    sw_ik_limit limits[SW_IK_MAX_CHAIN];
    sw_vec3 target = {0, 0, 0};
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_chain(c.skeleton, jo, joints, SW_IK_MAX_CHAIN, &job.joints_count) &&
              py_vec3(ro, &job.range, "range") &&
              (lo == Py_None || py_ik_limits(lo, job.joints_count, limits));
    if (ok) {
        PY_IK_FILL(job, &c);
        job.joints = joints;
        job.limits = lo != Py_None ? limits : NULL;
        job.target = &target;
        const sw_result r = sw_spine_wander_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "spine_wander") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? py_vec3_tuple(target) : NULL;
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef k_hit_methods[] = {
    {"shake", PY_KW(py_shake),
     "shake(time, *, position_amplitude=None, position_frequency=0.0, "
     "rotation_amplitude=None, rotation_frequency=0.0, fov_amplitude=0.0, fov_frequency=0.0, "
     "fade_in=0.0, hold=0.0, fade_out=0.0, seed=0) -> dict\n\n"
     "A camera shake at `time` seconds (sw_shake_eval): position, rotation (camera space), "
     "fov, envelope, offset (t, r, s) and the shake's duration."},
    {"fov_pulse", PY_KW(py_fov_pulse),
     "fov_pulse(time, *, amount=0.0, attack=0.0, hold=0.0, release=0.0) -> float: radians "
     "the field of view narrows by at `time` (sw_fov_pulse_eval)."},
    {"pose_shake", PY_KW(py_pose_shake),
     "pose_shake(skeleton, pose, joints, time, *, amplitude=0.0, frequency=0.0, "
     "half_life=0.0, seed=0): decaying noise rotations on joints (sw_pose_shake_job), pose "
     "edited in place."},
    {"spine_wander", PY_KW(py_spine_wander),
     "spine_wander(skeleton, model, pose, joints, time, range, *, frequency=0.0, seed=0, "
     "solver=\"fabrik\", limits=None, iterations=0, tolerance=0.0, weight=1.0, root=None) -> "
     "target\n\nSends the chain's tip toward a smoothly wandering model-space target "
     "(sw_spine_wander_job); returns the target."},
    {NULL, NULL, 0, NULL}};

int py_hit_init(PyObject* m) {
    if (PyType_Ready(&py_hit_pause_type) < 0 ||
        PyModule_AddObjectRef(m, "HitPause", (PyObject*)&py_hit_pause_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, k_hit_methods);
}
