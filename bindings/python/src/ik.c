/* sinew._sinew: IK jobs (two-bone, FABRIK, CCD, look-at, rotate), foot
 * placement with a Python ray callback, and springs. Poses are edited in
 * place; model matrices are read (foot placement also updates them). */
#include "py_common.h"

#include <string.h>

bool py_ik_common_init(py_ik_common* c, PyObject* so, PyObject* mo, PyObject* po, PyObject* root,
                       bool model_inout) {
    memset(c, 0, sizeof *c);
    c->skeleton = py_skeleton_arg(so, "skeleton");
    if (!c->skeleton) return false;
    if (root && root != Py_None) {
        if (!py_mat4(root, &c->root, "root")) return false;
        c->has_root = true;
    }
    c->pose = py_pose_inout(po, c->skeleton->packets_count, "pose");
    if (!c->pose) return false;
    c->model = model_inout ? py_mat_inout(mo, c->skeleton->joints_count, "model")
                           : py_mat_in(mo, c->skeleton->joints_count, "model");
    return c->model != NULL;
}

void py_ik_common_free(py_ik_common* c) {
    Py_XDECREF(c->model);
}

bool py_joint(const sw_skeleton* s, PyObject* o, uint32_t* out) {
    if (PyUnicode_Check(o)) {
        const char* name = PyUnicode_AsUTF8(o);
        const int32_t j = name ? sw_skeleton_find_joint(s, name) : -1;
        if (j < 0) {
            if (!PyErr_Occurred()) {
                sw_error err = SW_ERROR_INIT;
                err.check = "joint in the skeleton";
                snprintf(err.detail, sizeof err.detail, "no joint named \"%s\"", name);
                py_raise(SW_RESULT_NOT_FOUND, &err, NULL);
            }
            return false;
        }
        *out = (uint32_t)j;
        return true;
    }
    const long j = PyLong_AsLong(o);
    if (j == -1 && PyErr_Occurred()) return false;
    *out = (uint32_t)(j < 0 ? UINT32_MAX : (unsigned long)j); /* out of range: the job says so */
    return true;
}

bool py_chain(const sw_skeleton* s, PyObject* o, uint32_t* out, uint32_t cap, uint32_t* n) {
    PyObject* seq = PySequence_Fast(o, "joints: a sequence of joint indices or names");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= (Py_ssize_t)cap;
    if (!ok) PyErr_Format(PyExc_ValueError, "joints: at most %u", cap);
    for (Py_ssize_t i = 0; ok && i < k; ++i)
        ok = py_joint(s, PySequence_Fast_GET_ITEM(seq, i), &out[i]);
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

static bool py_float_item(PyObject* d, const char* key, float* out) {
    PyObject* v = PyMapping_HasKeyString(d, key) ? PyMapping_GetItemString(d, key) : NULL;
    if (!v) return true;
    *out = (float)PyFloat_AsDouble(v);
    Py_DECREF(v);
    return !PyErr_Occurred();
}

/* Limits: None or one dict (or None) per chain joint: {"type": "hinge",
 * "axis": (x, y, z), "min_angle", "max_angle"} or {"type": "cone",
 * "cone_angle"}, both with an optional "max_step_angle". */
bool py_ik_limits(PyObject* o, uint32_t n, sw_ik_limit* out) {
    memset(out, 0, sizeof(sw_ik_limit) * n);
    PyObject* seq = PySequence_Fast(o, "limits: a sequence of dicts, one per chain joint");
    if (!seq) return false;
    bool ok = PySequence_Fast_GET_SIZE(seq) == (Py_ssize_t)n;
    if (!ok) PyErr_SetString(PyExc_ValueError, "limits: one per chain joint");
    for (uint32_t i = 0; ok && i < n; ++i) {
        PyObject* d = PySequence_Fast_GET_ITEM(seq, i);
        if (d == Py_None) continue;
        PyObject* t = PyMapping_GetItemString(d, "type");
        const char* type = t ? PyUnicode_AsUTF8(t) : NULL;
        ok = type != NULL;
        if (ok && strcmp(type, "hinge") == 0) {
            out[i].type = SW_IK_LIMIT_TYPE_HINGE;
            PyObject* axis = PyMapping_GetItemString(d, "axis");
            ok = axis && py_vec3(axis, &out[i].axis, "hinge axis");
            Py_XDECREF(axis);
        } else if (ok && strcmp(type, "cone") == 0) {
            out[i].type = SW_IK_LIMIT_TYPE_CONE;
        } else if (ok) {
            PyErr_Format(PyExc_ValueError, "limit type \"hinge\" or \"cone\", got \"%s\"", type);
            ok = false;
        }
        Py_XDECREF(t);
        ok = ok && py_float_item(d, "min_angle", &out[i].min_angle) &&
             py_float_item(d, "max_angle", &out[i].max_angle) &&
             py_float_item(d, "cone_angle", &out[i].cone_angle) &&
             py_float_item(d, "max_step_angle", &out[i].max_step_angle);
    }
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_ik_two_bone(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "model",  "pose", "start",         "mid",
                             "end",      "target", "pole", "pole_is_point", "weight",
                             "softness", "twist",  "root", "end_rotation",  "end_rotation_weight",
                             NULL};
    PyObject *so, *mo, *po, *js, *jm, *je, *to, *pole = Py_None, *root = Py_None, *er = Py_None;
    int pole_point = 0;
    sw_ik_two_bone_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOOO|$OpfffOOf:ik_two_bone", kwlist, &so, &mo,
                                     &po, &js, &jm, &je, &to, &pole, &pole_point, &job.weight,
                                     &job.softness, &job.twist, &root, &er,
                                     &job.end_rotation_weight))
        return NULL;
    py_ik_common c;
    bool reached = false;
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_joint(c.skeleton, js, &job.start_joint) &&
              py_joint(c.skeleton, jm, &job.mid_joint) &&
              py_joint(c.skeleton, je, &job.end_joint) && py_vec3(to, &job.target, "target") &&
              (pole == Py_None || py_vec3(pole, &job.pole, "pole")) &&
              (er == Py_None || py_quat(er, &job.end_rotation, "end_rotation"));
    if (ok) {
        job.pole_mode = pole == Py_None ? SW_IK_POLE_MODE_NONE
                        : pole_point    ? SW_IK_POLE_MODE_TARGET
                                        : SW_IK_POLE_MODE_DIRECTION;
        PY_IK_FILL(job, &c);
        job.reached = &reached;
        const sw_result r = sw_ik_two_bone_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "ik_two_bone") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? PyBool_FromLong(reached) : NULL;
}

/* The fields sw_ik_fabrik_job and sw_ik_ccd_job share: the common part
 * (PY_IK_FILL), the chain and its limits, the target and the solve
 * settings. */
#define PY_IK_CHAIN_FILL(job, c, joints_, n_, limits_, target_, weight_, iterations_, tolerance_,  \
                         distance_)                                                                \
    do {                                                                                           \
        memset(&(job), 0, sizeof(job));                                                            \
        PY_IK_FILL(job, c);                                                                        \
        (job).joints = (joints_);                                                                  \
        (job).joints_count = (n_);                                                                 \
        (job).limits = (limits_);                                                                  \
        (job).target = (target_);                                                                  \
        (job).weight = (weight_);                                                                  \
        (job).iterations = (iterations_);                                                          \
        (job).tolerance = (tolerance_);                                                            \
        (job).distance = (distance_);                                                              \
    } while (0)

/* FABRIK and CCD: the chain, limits and solve settings they share. */
static PyObject* py_ik_chain(PyObject* args, PyObject* kw, bool fabrik) {
    static char* kwlist[] = {"skeleton", "model",  "pose",       "joints",    "target", "pole",
                             "limits",   "weight", "iterations", "tolerance", "root",   NULL};
    PyObject *so, *mo, *po, *jo, *to, *pole = Py_None, *lo = Py_None, *root = Py_None;
    float weight = 1.0f, tolerance = 0.0f, distance = 0.0f;
    unsigned int iterations = 0;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, fabrik ? "OOOOO|$OOfIfO:ik_fabrik" : "OOOOO|$OOfIfO:ik_ccd", kwlist, &so, &mo,
            &po, &jo, &to, &pole, &lo, &weight, &iterations, &tolerance, &root))
        return NULL;
    if (!fabrik && pole != Py_None) {
        PyErr_SetString(PyExc_TypeError, "ik_ccd takes no pole");
        return NULL;
    }
    py_ik_common c;
    uint32_t joints[SW_IK_MAX_CHAIN], n = 0;
    sw_ik_limit limits[SW_IK_MAX_CHAIN];
    sw_vec3 target, pv = {0, 0, 0};
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_chain(c.skeleton, jo, joints, SW_IK_MAX_CHAIN, &n) &&
              py_vec3(to, &target, "target") && (pole == Py_None || py_vec3(pole, &pv, "pole")) &&
              (lo == Py_None || py_ik_limits(lo, n, limits));
    sw_result r = SW_RESULT_OK;
    const sw_ik_limit* lim = lo != Py_None ? limits : NULL;
    if (ok && fabrik) {
        sw_ik_fabrik_job job;
        PY_IK_CHAIN_FILL(job, &c, joints, n, lim, target, weight, iterations, tolerance, &distance);
        job.use_pole = pole != Py_None;
        job.pole = pv;
        r = sw_ik_fabrik_job_run(&job);
    } else if (ok) {
        sw_ik_ccd_job job;
        PY_IK_CHAIN_FILL(job, &c, joints, n, lim, target, weight, iterations, tolerance, &distance);
        r = sw_ik_ccd_job_run(&job);
    }
    if (ok && r != SW_RESULT_OK) ok = py_raise(r, NULL, fabrik ? "ik_fabrik" : "ik_ccd") != NULL;
    py_ik_common_free(&c);
    return ok ? PyFloat_FromDouble((double)distance) : NULL;
}

static PyObject* py_ik_fabrik(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    return py_ik_chain(args, kw, true);
}

static PyObject* py_ik_ccd(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    return py_ik_chain(args, kw, false);
}

/* (joint, share) pairs, or plain joints taking share 1 each. */
static bool py_look_joints(const sw_skeleton* s, PyObject* o, sw_ik_look_at_joint* out,
                           uint32_t* n) {
    PyObject* seq = PySequence_Fast(o, "joints: a sequence of joints or (joint, share)");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= SW_IK_MAX_CHAIN;
    if (!ok) PyErr_Format(PyExc_ValueError, "joints: at most %d", SW_IK_MAX_CHAIN);
    for (Py_ssize_t i = 0; ok && i < k; ++i) {
        PyObject* it = PySequence_Fast_GET_ITEM(seq, i);
        PyObject* j = it;
        out[i].share = 1.0f;
        if (PyTuple_Check(it) && !PyArg_ParseTuple(it, "Of", &j, &out[i].share)) ok = false;
        ok = ok && py_joint(s, j, &out[i].joint);
    }
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_ik_look_at(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "model",    "pose",        "joints", "forward", "target",
                             "up",       "model_up", "limit_angle", "weight", "root",    NULL};
    PyObject *so, *mo, *po, *jo, *fo, *to, *up = Py_None, *mup = Py_None, *root = Py_None;
    sw_ik_look_at_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOO|$OOffO:ik_look_at", kwlist, &so, &mo, &po,
                                     &jo, &fo, &to, &up, &mup, &job.limit_angle, &job.weight,
                                     &root))
        return NULL;
    py_ik_common c;
    sw_ik_look_at_joint joints[SW_IK_MAX_CHAIN];
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_look_joints(c.skeleton, jo, joints, &job.joints_count) &&
              py_vec3(fo, &job.forward, "forward") && py_vec3(to, &job.target, "target") &&
              (up == Py_None || py_vec3(up, &job.up, "up")) &&
              (mup == Py_None || py_vec3(mup, &job.model_up, "model_up"));
    if (ok) {
        PY_IK_FILL(job, &c);
        job.joints = joints;
        const sw_result r = sw_ik_look_at_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "ik_look_at") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject* py_ik_rotate(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton", "model",  "pose", "joint",
                             "rotation", "weight", "root", NULL};
    PyObject *so, *mo, *po, *jo, *ro, *root = Py_None;
    sw_ik_rotate_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|$fO:ik_rotate", kwlist, &so, &mo, &po, &jo,
                                     &ro, &job.weight, &root))
        return NULL;
    py_ik_common c;
    bool ok = py_ik_common_init(&c, so, mo, po, root, false) &&
              py_joint(c.skeleton, jo, &job.joint) && py_quat(ro, &job.rotation, "rotation");
    if (ok) {
        PY_IK_FILL(job, &c);
        const sw_result r = sw_ik_rotate_job_run(&job);
        if (r != SW_RESULT_OK) ok = py_raise(r, NULL, "ik_rotate") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject* py_ik_forward_from_rest(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *so, *jo, *co;
    if (!PyArg_ParseTuple(args, "OOO:ik_forward_from_rest", &so, &jo, &co)) return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    uint32_t j = 0, child = 0;
    if (!s || !py_joint(s, jo, &j) || !py_joint(s, co, &child)) return NULL;
    return py_vec3_tuple(sw_ik_forward_from_rest(s, j, child));
}

/* ---- foot placement ---- */

typedef struct py_foot_state {
    PyObject_HEAD sw_foot_state state;
} py_foot_state;

static PyObject* py_foot_state_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    if (!PyArg_ParseTuple(args, ":FootState") || (kw && PyDict_Size(kw))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "FootState() takes no arguments");
        return NULL;
    }
    return type->tp_alloc(type, 0); /* zeroed: the first run snaps the springs */
}

static PyObject* py_foot_state_reset(PyObject* self, PyObject* unused) {
    (void)unused;
    ((py_foot_state*)self)->state.started = false;
    Py_RETURN_NONE;
}

static PyObject* py_foot_state_get(PyObject* self, void* closure) {
    const sw_foot_state* s = &((py_foot_state*)self)->state;
    if (!closure) return PyFloat_FromDouble((double)s->pelvis.value);
    PyObject* l = PyList_New(SW_FOOT_MAX_LEGS);
    for (int i = 0; l && i < SW_FOOT_MAX_LEGS; ++i)
        PyList_SET_ITEM(l, i,
                        Py_BuildValue("{s:d,s:N,s:O}", "offset", (double)s->legs[i].offset.value,
                                      "target", py_vec3_tuple(s->legs[i].target), "grounded",
                                      s->legs[i].grounded ? Py_True : Py_False));
    return l;
}

static PyMethodDef k_foot_state_methods[] = {
    {"reset", py_foot_state_reset, METH_NOARGS,
     "reset(): the next run snaps every spring to its goal (after a cut)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_foot_state_getset[] = {
    {"pelvis", py_foot_state_get, NULL, "The pelvis offset along up (metres).", NULL},
    {"legs", py_foot_state_get, NULL,
     "Per leg slot: offset, target (model space) and grounded of the last run.", (void*)1},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_foot_state_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.FootState",
    .tp_basicsize = sizeof(py_foot_state),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "FootState(): one character's foot placement springs (sw_foot_state), for "
              "sinew.foot_placement.",
    .tp_methods = k_foot_state_methods,
    .tp_getset = k_foot_state_getset,
    .tp_new = py_foot_state_new,
};

/* The Python ray: ray(origin, direction, max_distance) -> None | (point, normal). */
bool py_ground_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                   sw_vec3* normal) {
    PyObject* r = PyObject_CallFunction((PyObject*)user, "NNd", py_vec3_tuple(from),
                                        py_vec3_tuple(dir), (double)max_distance);
    bool hit = false;
    if (r && r != Py_None) {
        PyObject *p, *n;
        hit = PyArg_ParseTuple(r, "OO", &p, &n) && py_vec3(p, point, "ray point") &&
              py_vec3(n, normal, "ray normal");
    }
    Py_XDECREF(r);
    return hit && !PyErr_Occurred();
}

/* Legs: (hip, knee, ankle) or (hip, knee, ankle, pole). */
static bool py_foot_legs(const sw_skeleton* s, PyObject* o, sw_foot_leg* legs, uint32_t* n) {
    PyObject* seq = PySequence_Fast(o, "legs: a sequence of (hip, knee, ankle[, pole])");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    bool ok = k <= SW_FOOT_MAX_LEGS;
    if (!ok) PyErr_Format(PyExc_ValueError, "legs: at most %d", SW_FOOT_MAX_LEGS);
    memset(legs, 0, sizeof(sw_foot_leg) * SW_FOOT_MAX_LEGS);
    for (Py_ssize_t i = 0; ok && i < k; ++i) {
        PyObject *h, *kn, *a, *pole = Py_None;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOO|O", &h, &kn, &a, &pole) &&
             py_joint(s, h, &legs[i].hip) && py_joint(s, kn, &legs[i].knee) &&
             py_joint(s, a, &legs[i].ankle) &&
             (pole == Py_None || py_vec3(pole, &legs[i].pole, "pole"));
    }
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

static PyObject* py_foot_placement(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    static char* kwlist[] = {"skeleton",
                             "model",
                             "pose",
                             "pelvis",
                             "legs",
                             "ray",
                             "state",
                             "dt",
                             "weight",
                             "up",
                             "floor_height",
                             "max_step_up",
                             "max_step_down",
                             "max_tilt",
                             "tilt",
                             "foot_half_life",
                             "pelvis_half_life",
                             "tilt_half_life",
                             "root",
                             NULL};
    PyObject *so, *mo, *po, *pelvis, *lo, *ray, *st, *up = Py_None, *root = Py_None;
    int tilt = 1;
    sw_foot_job job;
    memset(&job, 0, sizeof job);
    job.weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOOOf|$fOffffpfffO:foot_placement", kwlist, &so,
                                     &mo, &po, &pelvis, &lo, &ray, &st, &job.dt, &job.weight, &up,
                                     &job.floor_height, &job.max_step_up, &job.max_step_down,
                                     &job.max_tilt, &tilt, &job.foot_half_life,
                                     &job.pelvis_half_life, &job.tilt_half_life, &root))
        return NULL;
    if (!PyCallable_Check(ray) || !PyObject_TypeCheck(st, &py_foot_state_type)) {
        PyErr_SetString(PyExc_TypeError, "foot_placement: ray must be callable, state a FootState");
        return NULL;
    }
    py_ik_common c;
    sw_foot_leg legs[SW_FOOT_MAX_LEGS];
    bool ok = py_ik_common_init(&c, so, mo, po, root, true) &&
              py_joint(c.skeleton, pelvis, &job.pelvis) &&
              py_foot_legs(c.skeleton, lo, legs, &job.legs_count) &&
              (up == Py_None || py_vec3(up, &job.up, "up"));
    if (ok) {
        PY_IK_FILL(job, &c);
        job.legs = legs;
        job.ray = py_ground_ray;
        job.ray_user = ray;
        job.no_tilt = !tilt;
        job.state = &((py_foot_state*)st)->state;
        const sw_result r = sw_foot_job_run(&job);
        ok = !PyErr_Occurred(); /* the ray raised */
        if (ok && r != SW_RESULT_OK) ok = py_raise(r, NULL, "foot_placement") != NULL;
    }
    py_ik_common_free(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* ---- springs ---- */

/* A float or a 3-vector; *is_vec tells which. */
static bool py_scalar_or_vec3(PyObject* o, sw_vec3* v, bool* is_vec, const char* what) {
    if (PyNumber_Check(o) && !PySequence_Check(o)) {
        const double d = PyFloat_AsDouble(o);
        *v = sw_vec3_make((float)d, 0.0f, 0.0f);
        *is_vec = false;
        return !PyErr_Occurred();
    }
    *is_vec = true;
    return py_vec3(o, v, what);
}

static PyObject* py_value(sw_vec3 v, bool is_vec) {
    return is_vec ? py_vec3_tuple(v) : PyFloat_FromDouble((double)v.x);
}

/* spring_update and its moving-goal and velocity variants (mode 0, 1, 2). */
static PyObject* py_spring_common(PyObject* args, PyObject* kw, int mode) {
    static char* kwlist[] = {"value", "velocity", "goal", "half_life", "dt", "goal_velocity", NULL};
    PyObject *vo, *velo, *go, *gvo = Py_None;
    float half_life, dt;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOff|O:spring_update", kwlist, &vo, &velo, &go,
                                     &half_life, &dt, &gvo))
        return NULL;
    sw_vec3 v, vel, g, gv = {0, 0, 0};
    bool vec = false, vec2 = false, vec3 = false, vec4 = false;
    if (!py_scalar_or_vec3(vo, &v, &vec, "value") ||
        !py_scalar_or_vec3(velo, &vel, &vec2, "velocity") ||
        !py_scalar_or_vec3(go, &g, &vec3, "goal") ||
        (gvo != Py_None && !py_scalar_or_vec3(gvo, &gv, &vec4, "goal_velocity")))
        return NULL;
    if (vec != vec2 || vec != vec3 || (gvo != Py_None && vec != vec4)) {
        PyErr_SetString(PyExc_TypeError, "spring: all floats or all 3-vectors");
        return NULL;
    }
    if (!vec) {
        sw_spring_float s = {v.x, vel.x};
        if (mode == 0) sw_spring_float_update(&s, g.x, half_life, dt);
        if (mode == 1) sw_spring_float_update_moving(&s, g.x, gv.x, half_life, dt);
        return Py_BuildValue("(dd)", (double)s.value, (double)s.velocity);
    }
    sw_spring_vec3 s = {v, vel};
    if (mode == 0) sw_spring_vec3_update(&s, g, half_life, dt);
    if (mode == 1) sw_spring_vec3_update_moving(&s, g, gv, half_life, dt);
    if (mode == 2) sw_spring_vec3_update_velocity(&s, g, half_life, dt);
    return Py_BuildValue("(NN)", py_value(s.value, true), py_value(s.velocity, true));
}

static PyObject* py_spring_update(PyObject* self, PyObject* args, PyObject* kw) {
    (void)self;
    const bool moving = kw && PyDict_GetItemString(kw, "goal_velocity");
    return py_spring_common(args, kw, moving || PyTuple_GET_SIZE(args) > 5 ? 1 : 0);
}

static PyObject* py_spring_velocity(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *vo, *velo, *go;
    float h, dt;
    if (!PyArg_ParseTuple(args, "OOOff:spring_velocity_update", &vo, &velo, &go, &h, &dt))
        return NULL;
    PyObject* a = Py_BuildValue("(OOOff)", vo, velo, go, h, dt);
    PyObject* r = a ? py_spring_common(a, NULL, 2) : NULL;
    Py_XDECREF(a);
    return r;
}

static PyObject* py_spring_quat_update(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *qo, *vo, *go;
    float h, dt;
    sw_spring_quat s;
    sw_quat goal;
    if (!PyArg_ParseTuple(args, "OOOff:spring_quat_update", &qo, &vo, &go, &h, &dt) ||
        !py_quat(qo, &s.value, "value") || !py_vec3(vo, &s.velocity, "velocity") ||
        !py_quat(go, &goal, "goal"))
        return NULL;
    sw_spring_quat_update(&s, goal, h, dt);
    return Py_BuildValue("(NN)", py_quat_tuple(s.value), py_vec3_tuple(s.velocity));
}

static PyObject* py_damp(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *vo, *go;
    float h, dt;
    if (!PyArg_ParseTuple(args, "OOff:damp", &vo, &go, &h, &dt)) return NULL;
    PyObject* seq = PySequence_Check(vo) ? PySequence_Fast(vo, "value") : NULL;
    const Py_ssize_t n = seq ? PySequence_Fast_GET_SIZE(seq) : 1;
    Py_XDECREF(seq);
    if (n == 4) {
        sw_quat a, b;
        if (!py_quat(vo, &a, "value") || !py_quat(go, &b, "goal")) return NULL;
        return py_quat_tuple(sw_spring_damp_quat(a, b, h, dt));
    }
    sw_vec3 a, b;
    bool va = false, vb = false;
    if (!py_scalar_or_vec3(vo, &a, &va, "value") || !py_scalar_or_vec3(go, &b, &vb, "goal"))
        return NULL;
    if (!va) return PyFloat_FromDouble((double)sw_spring_damp_float(a.x, b.x, h, dt));
    return py_vec3_tuple(sw_spring_damp_vec3(a, b, h, dt));
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef py_ik_methods[] = {
    {"ik_two_bone", PY_KW(py_ik_two_bone),
     "ik_two_bone(skeleton, model, pose, start, mid, end, target, *, pole=None, "
     "pole_is_point=False, weight=1.0, softness=0.0, twist=0.0, root=None, end_rotation=None, "
     "end_rotation_weight=0.0) -> reached\n\n"
     "Two-bone IK (sw_ik_two_bone_job) on `pose` in place; joints by index or name, target "
     "and pole in model space (pole: a direction, or a point with pole_is_point). model: the "
     "pose's model matrices (not updated: run local_to_model again). Returns whether the end "
     "reached the target."},
    {"ik_fabrik", PY_KW(py_ik_fabrik),
     "ik_fabrik(skeleton, model, pose, joints, target, *, pole=None, limits=None, "
     "weight=1.0, iterations=0, tolerance=0.0, root=None) -> distance\n\n"
     "FABRIK over a chain (root first; sw_ik_fabrik_job), pose edited in place. limits: one "
     "dict (or None) per joint: {\"type\": \"hinge\", \"axis\": (x, y, z), \"min_angle\", "
     "\"max_angle\"} or {\"type\": \"cone\", \"cone_angle\"}. Returns the tip's distance to "
     "the target."},
    {"ik_ccd", PY_KW(py_ik_ccd),
     "ik_ccd(skeleton, model, pose, joints, target, *, limits=None, weight=1.0, "
     "iterations=0, tolerance=0.0, root=None) -> distance: CCD (sw_ik_ccd_job), as ik_fabrik "
     "(limits may add \"max_step_angle\")."},
    {"ik_look_at", PY_KW(py_ik_look_at),
     "ik_look_at(skeleton, model, pose, joints, forward, target, *, up=None, model_up=None, "
     "limit_angle=0.0, weight=1.0, root=None)\n\n"
     "Turns the forward axis (local to the last joint) toward target (sw_ik_look_at_job); "
     "joints: indices, names or (joint, share) pairs, root first."},
    {"ik_rotate", PY_KW(py_ik_rotate),
     "ik_rotate(skeleton, model, pose, joint, rotation, *, weight=1.0, root=None): applies a "
     "model-space rotation (x, y, z, w) to one joint of the pose (sw_ik_rotate_job)."},
    {"ik_forward_from_rest", py_ik_forward_from_rest, METH_VARARGS,
     "ik_forward_from_rest(skeleton, joint, child) -> (x, y, z): the rest direction from "
     "joint to its descendant child in the joint's local space."},
    {"foot_placement", PY_KW(py_foot_placement),
     "foot_placement(skeleton, model, pose, pelvis, legs, ray, state, dt, *, weight=1.0, "
     "up=None, floor_height=0.0, max_step_up=0.0, max_step_down=0.0, max_tilt=0.0, "
     "tilt=True, foot_half_life=0.0, pelvis_half_life=0.0, tilt_half_life=0.0, root=None)\n\n"
     "Foot placement on uneven ground (sw_foot_job): pose edited and model matrices updated "
     "in place. legs: (hip, knee, ankle[, pole]); ray(origin, direction, max_distance) "
     "returns None or (point, normal) in model space; state: a FootState."},
    {"spring_update", PY_KW(py_spring_update),
     "spring_update(value, velocity, goal, half_life, dt, goal_velocity=None) -> (value, "
     "velocity)\n\nA critically damped spring step (sw_spring_*_update) on floats or "
     "3-vectors; with goal_velocity the goal moves (sw_spring_*_update_moving)."},
    {"spring_velocity_update", py_spring_velocity, METH_VARARGS,
     "spring_velocity_update(position, velocity, goal_velocity, half_life, dt) -> "
     "(position, velocity): the velocity spring of character movement "
     "(sw_spring_vec3_update_velocity)."},
    {"spring_quat_update", py_spring_quat_update, METH_VARARGS,
     "spring_quat_update(value, velocity, goal, half_life, dt) -> (quat, angular velocity) "
     "(sw_spring_quat_update)."},
    {"damp", py_damp, METH_VARARGS,
     "damp(value, goal, half_life, dt) -> value: exponential smoothing by half-life of a "
     "float, 3-vector or quaternion (sw_spring_damp_*)."},
    {NULL, NULL, 0, NULL}};

int py_ik_types_init(PyObject* m) {
    if (PyType_Ready(&py_foot_state_type) < 0) return -1;
    return PyModule_AddObjectRef(m, "FootState", (PyObject*)&py_foot_state_type);
}
