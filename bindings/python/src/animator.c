/* sinew._sinew: Animator (a definition from JSON or a dict, bound to a
 * skeleton and clips, with one instance) and AnimatorBake. */
#include "py_common.h"

#include <string.h>

#include "sinew/tools/builders/animator_bake.h"
#include "sinew/tools/readers/animator_json.h"

#define PY_ANIMATOR_EVENTS 256u
#define PY_ANIMATOR_LIST 512u

typedef struct py_animator {
    PyObject_HEAD sw_animator_json def;
    PyObject* skeleton;
    PyObject* clips; /* tuple of the Clip objects bound */
    void* bound_mem;
    size_t bound_size;
    const sw_animator_bound* bound;
    void* inst_mem;
    size_t inst_size;
    sw_animator_instance* inst;
    void* scratch;
    size_t scratch_size;
    PyArrayObject* params;
    sw_animator_idle idle;
    sw_animator_event events[PY_ANIMATOR_EVENTS];
} py_animator;

static void py_animator_dealloc(PyObject* self) {
    py_animator* o = (py_animator*)self;
    Py_XDECREF(o->params);
    sw_free(NULL, o->scratch, o->scratch_size);
    sw_free(NULL, o->inst_mem, o->inst_size);
    sw_free(NULL, o->bound_mem, o->bound_size);
    sw_animator_json_free(&o->def, NULL);
    Py_XDECREF(o->clips);
    Py_XDECREF(o->skeleton);
    Py_TYPE(self)->tp_free(self);
}

static const sw_animator* py_def(const py_animator* o) {
    return o->def.animator;
}

/* Reads the definition: a dict (through json.dumps), JSON text (a str
 * starting with '{') or a file path. */
static bool py_animator_read(py_animator* o, PyObject* d) {
    sw_error err = SW_ERROR_INIT;
    sw_result r;
    PyObject* text = NULL;
    if (PyDict_Check(d)) {
        PyObject* json = PyImport_ImportModule("json");
        text = json ? PyObject_CallMethod(json, "dumps", "O", d) : NULL;
        Py_XDECREF(json);
        if (!text) return false;
    } else if (PyUnicode_Check(d)) {
        const char* s = PyUnicode_AsUTF8(d);
        while (s && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
            ++s;
        if (s && *s == '{') text = Py_NewRef(d);
    }
    if (text) {
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(text, &n);
        r = s ? sw_animator_json_read(s, (size_t)n, NULL, &o->def, &err) : SW_RESULT_OK;
        Py_DECREF(text);
        if (!s) return false;
        if (r != SW_RESULT_OK) py_raise(r, &err, "animator definition");
        return r == SW_RESULT_OK;
    }
    PyObject* path = NULL;
    if (!PyUnicode_FSConverter(d, &path)) return false;
    r = sw_animator_json_read_file(PyBytes_AS_STRING(path), NULL, &o->def, &err);
    if (r != SW_RESULT_OK) py_raise(r, &err, PyBytes_AS_STRING(path));
    Py_DECREF(path);
    return r == SW_RESULT_OK;
}

/* Binds the definition to the skeleton and the clips and builds the
 * instance, keeping `keep` (sw_animator_keep). */
static bool py_animator_bind(py_animator* o, const sw_skeleton* s, sw_animator_keep keep) {
    const Py_ssize_t n = PyTuple_GET_SIZE(o->clips);
    const sw_clip** clips = PyMem_Calloc(n ? (size_t)n : 1u, sizeof *clips);
    if (!clips) return PyErr_NoMemory() != NULL;
    for (Py_ssize_t i = 0; i < n; ++i) {
        clips[i] = py_clip_arg(PyTuple_GET_ITEM(o->clips, i), "clips");
        if (!clips[i]) {
            PyMem_Free(clips);
            return false;
        }
    }
    o->bound_size = sw_animator_bound_size(py_def(o), s);
    o->bound_mem = sw_alloc(NULL, o->bound_size, 16);
    sw_error err = SW_ERROR_INIT;
    sw_result r = o->bound_mem ? sw_animator_bind(py_def(o), s, clips, (uint32_t)n, o->bound_mem,
                                                  o->bound_size, &o->bound, &err)
                               : SW_RESULT_OUT_OF_MEMORY;
    PyMem_Free(clips);
    if (r == SW_RESULT_NOT_FOUND && err.check && strcmp(err.check, "clip slot has a clip") == 0)
        snprintf(err.detail, sizeof err.detail, "no clip named \"%s\" among the clips given",
                 sw_animator_clip_name(py_def(o), (uint32_t)err.index));
    if (r != SW_RESULT_OK) {
        o->bound = NULL;
        py_raise(r, &err, "animator bind");
        return false;
    }
    o->inst_size = sw_animator_instance_size_keeping(o->bound, keep);
    o->scratch_size = sw_animator_scratch_size(o->bound);
    o->inst_mem = sw_alloc(NULL, o->inst_size, 16);
    o->scratch = sw_alloc(NULL, o->scratch_size, 16);
    r = o->inst_mem && o->scratch
            ? sw_animator_instance_init_keeping(o->inst_mem, o->inst_size, o->bound, keep, &o->inst)
            : SW_RESULT_OUT_OF_MEMORY;
    if (r != SW_RESULT_OK) return py_raise(r, NULL, "animator instance") != NULL;
    const npy_intp count = (npy_intp)sw_animator_params_count(py_def(o)) + 1;
    o->params = (PyArrayObject*)PyArray_ZEROS(1, &count, NPY_FLOAT32, 0);
    if (!o->params) return false;
    sw_animator_params_reset(py_def(o), (float*)PyArray_DATA(o->params), (uint32_t)count);
    r = sw_animator_idle_init(&o->idle, o->def.idle, o->def.idle_count, o->def.idle_seed);
    return r == SW_RESULT_OK || py_raise(r, NULL, "animator idle") != NULL;
}

static PyObject* py_animator_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"definition", "skeleton", "clips", "keep", NULL};
    PyObject *d, *so, *co;
    const char* keep_word = "cursors";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$s:Animator", kwlist, &d, &so, &co, &keep_word))
        return NULL;
    const sw_animator_keep keep = strcmp(keep_word, "keys") == 0      ? SW_ANIMATOR_KEEP_KEYS
                                  : strcmp(keep_word, "cursors") == 0 ? SW_ANIMATOR_KEEP_CURSORS
                                                                      : SW_ANIMATOR_KEEP_COUNT;
    if (keep == SW_ANIMATOR_KEEP_COUNT)
        return PyErr_Format(PyExc_ValueError, "keep: \"cursors\" or \"keys\", not \"%s\"",
                            keep_word);
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    if (!s) return NULL;
    py_animator* o = (py_animator*)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->skeleton = Py_NewRef(so);
    o->clips = PySequence_Tuple(co);
    if (!o->clips || !py_animator_read(o, d) || !py_animator_bind(o, s, keep)) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject*)o;
}

/* ---- names ---- */

typedef const char* (*py_name_fn)(const sw_animator*, uint32_t);

static PyObject* py_names(const sw_animator* a, uint32_t n, py_name_fn fn) {
    PyObject* t = PyTuple_New((Py_ssize_t)n);
    for (uint32_t i = 0; t && i < n; ++i) {
        PyObject* s = PyUnicode_FromString(fn(a, i));
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, s);
    }
    return t;
}

static PyObject* py_animator_get(PyObject* self, void* closure) {
    py_animator* o = (py_animator*)self;
    const sw_animator* a = py_def(o);
    switch ((int)(intptr_t)closure) {
    case 0: {
        const npy_intp n = (npy_intp)sw_animator_params_count(a);
        return py_view(self, PyArray_DATA(o->params), 1, &n, NPY_FLOAT32, true);
    }
    case 1:
        return py_names(a, sw_animator_params_count(a), sw_animator_param_name);
    case 2:
        return py_names(a, sw_animator_states_count(a), sw_animator_state_name);
    case 3:
        return py_names(a, sw_animator_machines_count(a), sw_animator_machine_name);
    case 4:
        return py_names(a, sw_animator_layers_count(a), sw_animator_layer_name);
    case 5:
        return py_names(a, sw_animator_clips_count(a), sw_animator_clip_name);
    case 6:
        return Py_NewRef(o->skeleton);
    default:
        return PyBool_FromLong(sw_animator_pose_changed(o->inst, o->bound));
    }
}

/* ---- lookups ---- */

static int32_t py_find(PyObject* self, PyObject* key, bool state) {
    const sw_animator* a = py_def((py_animator*)self);
    const uint32_t n = state ? sw_animator_states_count(a) : sw_animator_params_count(a);
    if (PyLong_Check(key)) {
        const long i = PyLong_AsLong(key);
        if (i >= 0 && (uint64_t)i < n) return (int32_t)i;
    } else {
        const char* name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!name && PyErr_Occurred()) return -1;
        const int32_t i = !name   ? -1
                          : state ? sw_animator_find_state(a, name)
                                  : sw_animator_find_param(a, name);
        if (i >= 0) return i;
    }
    PyObject* r = PyObject_Repr(key);
    sw_error err = SW_ERROR_INIT;
    err.check = state ? "state in the definition" : "parameter in the definition";
    snprintf(err.detail, sizeof err.detail, "no %s %s", state ? "state" : "parameter",
             r ? PyUnicode_AsUTF8(r) : "?");
    Py_XDECREF(r);
    py_raise(SW_RESULT_NOT_FOUND, &err, NULL);
    return -1;
}

static int32_t py_find_machine(PyObject* self, PyObject* key) {
    const sw_animator* a = py_def((py_animator*)self);
    const uint32_t n = sw_animator_machines_count(a);
    for (uint32_t i = 0; i < n; ++i) {
        PyObject* s = PyUnicode_FromString(sw_animator_machine_name(a, i));
        const int eq = s ? PyObject_RichCompareBool(s, key, Py_EQ) : -1;
        Py_XDECREF(s);
        if (eq < 0) return -1;
        if (eq || (PyLong_Check(key) && PyLong_AsLong(key) == (long)i)) return (int32_t)i;
    }
    sw_error err = SW_ERROR_INIT;
    err.check = "machine in the definition";
    py_raise(SW_RESULT_NOT_FOUND, &err, "machine");
    return -1;
}

static PyObject* py_animator_subscript(PyObject* self, PyObject* key) {
    const int32_t i = py_find(self, key, false);
    if (i < 0) return NULL;
    return PyFloat_FromDouble(
        (double)((const float*)PyArray_DATA(((py_animator*)self)->params))[i]);
}

static int py_animator_ass_subscript(PyObject* self, PyObject* key, PyObject* v) {
    const int32_t i = py_find(self, key, false);
    if (i < 0) return -1;
    const double d = v ? PyFloat_AsDouble(v) : 0.0;
    if (d == -1.0 && PyErr_Occurred()) return -1;
    ((float*)PyArray_DATA(((py_animator*)self)->params))[i] = (float)d;
    return 0;
}

static PyMappingMethods k_animator_mapping = {NULL, py_animator_subscript,
                                              py_animator_ass_subscript};

static PyObject* py_animator_trigger(PyObject* self, PyObject* key) {
    return py_animator_ass_subscript(self, key, PyFloat_FromDouble(1.0)) < 0 ? NULL
                                                                             : Py_NewRef(Py_None);
}

static PyObject* py_animator_reset_params(PyObject* self, PyObject* unused) {
    (void)unused;
    py_animator* o = (py_animator*)self;
    sw_animator_params_reset(py_def(o), (float*)PyArray_DATA(o->params),
                             sw_animator_params_count(py_def(o)));
    Py_RETURN_NONE;
}

/* ---- per frame ---- */

static PyObject* py_event_dict(const sw_animator* a, const sw_animator_event* e) {
    const char* kind = sw_animator_enum_word(SW_ANIMATOR_ENUM_EVENT_KIND, (uint32_t)e->kind);
    const char* clip = e->clip != SW_ANIMATOR_NONE ? sw_animator_clip_name(a, e->clip) : NULL;
    return Py_BuildValue(
        "{s:s,s:I,s:s,s:z,s:O,s:s,s:d,s:d}", "kind", kind ? kind : "none", "layer", e->layer,
        "state", sw_animator_state_name(a, e->state), "clip", clip, "event",
        e->event != SW_ANIMATOR_NONE ? PyLong_FromUnsignedLong(e->event) : Py_NewRef(Py_None),
        "name", e->name ? e->name : "", "time", (double)e->time, "weight", (double)e->weight);
}

static PyObject* py_root_motion_dict(const sw_animator_root_motion* rm) {
    return Py_BuildValue("{s:N,s:d}", "translation", py_vec3_tuple(rm->translation), "yaw",
                         (double)rm->yaw);
}

static PyObject* py_animator_update(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"dt", NULL};
    float dt = 0.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "f:update", kwlist, &dt)) return NULL;
    py_animator* o = (py_animator*)self;
    uint32_t n = 0;
    sw_animator_root_motion rm;
    memset(&rm, 0, sizeof rm);
    const sw_result r = sw_animator_update(o->inst, o->bound, (float*)PyArray_DATA(o->params),
                                           sw_animator_params_count(py_def(o)), dt, o->events,
                                           PY_ANIMATOR_EVENTS, &n, &rm);
    if (r != SW_RESULT_OK) return py_raise(r, NULL, "animator update");
    if (n > PY_ANIMATOR_EVENTS) n = PY_ANIMATOR_EVENTS;
    PyObject* events = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; events && i < n; ++i) {
        PyObject* e = py_event_dict(py_def(o), &o->events[i]);
        if (!e) {
            Py_CLEAR(events);
            break;
        }
        PyList_SET_ITEM(events, (Py_ssize_t)i, e);
    }
    return events ? Py_BuildValue("(NN)", events, py_root_motion_dict(&rm)) : NULL;
}

static PyObject* py_animator_evaluate(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"out", NULL};
    PyObject* out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:evaluate", kwlist, &out)) return NULL;
    py_animator* o = (py_animator*)self;
    const sw_skeleton* s = py_skeleton_arg(o->skeleton, "skeleton");
    PyArrayObject* pose = py_pose_out(out, s->packets_count);
    if (!pose) return NULL;
    const sw_result r =
        sw_animator_evaluate(o->inst, o->bound, o->scratch, o->scratch_size,
                             (sw_xform4*)PyArray_DATA(pose), (uint32_t)PyArray_DIM(pose, 0));
    if (r != SW_RESULT_OK) {
        Py_DECREF(pose);
        return py_raise(r, NULL, "animator evaluate");
    }
    return (PyObject*)pose;
}

static PyObject* py_animator_play(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"state", "fade", NULL};
    PyObject* state;
    float fade = 0.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|f:play", kwlist, &state, &fade)) return NULL;
    const int32_t i = py_find(self, state, true);
    if (i < 0) return NULL;
    py_animator* o = (py_animator*)self;
    const sw_result r = sw_animator_play(o->inst, o->bound, (uint32_t)i, fade);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "animator play");
}

static PyObject* py_animator_seek(PyObject* self, PyObject* args) {
    PyObject* machine;
    double t = 0.0;
    if (!PyArg_ParseTuple(args, "Od:seek", &machine, &t)) return NULL;
    const int32_t m = py_find_machine(self, machine);
    if (m < 0) return NULL;
    py_animator* o = (py_animator*)self;
    const sw_result r = sw_animator_seek(o->inst, o->bound, (uint32_t)m, t);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "animator seek");
}

static PyObject* py_animator_reuse_pose(PyObject* self, PyObject* unused) {
    (void)unused;
    py_animator* o = (py_animator*)self;
    const sw_result r = sw_animator_reuse_pose(o->inst, o->bound);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "animator reuse_pose");
}

static PyObject* py_animator_idle_update(PyObject* self, PyObject* args) {
    float dt = 0.0f;
    if (!PyArg_ParseTuple(args, "f:idle_update", &dt)) return NULL;
    py_animator* o = (py_animator*)self;
    const sw_result r = sw_animator_idle_update(&o->idle, (float*)PyArray_DATA(o->params),
                                                sw_animator_params_count(py_def(o)), dt);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "animator idle");
}

static PyObject* py_animator_apply_hit(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"direction", "strength", "facing", NULL};
    PyObject *dir_o, *facing_o = Py_None;
    sw_animator_hit hit;
    sw_quat facing = sw_quat_identity();
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Of|O:apply_hit", kwlist, &dir_o, &hit.strength,
                                     &facing_o) ||
        !py_vec3(dir_o, &hit.direction, "direction") ||
        (facing_o != Py_None && !py_quat(facing_o, &facing, "facing")))
        return NULL;
    py_animator* o = (py_animator*)self;
    const sw_result r =
        sw_animator_apply_hit(py_def(o), facing, &hit, (float*)PyArray_DATA(o->params),
                              sw_animator_params_count(py_def(o)));
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, NULL, "animator apply_hit");
}

/* ---- inspection ---- */

static PyObject* py_animator_states(PyObject* self, PyObject* unused) {
    (void)unused;
    py_animator* o = (py_animator*)self;
    sw_animator_state_info info[PY_ANIMATOR_LIST];
    uint32_t n = sw_animator_states(o->inst, o->bound, info, PY_ANIMATOR_LIST);
    if (n > PY_ANIMATOR_LIST) n = PY_ANIMATOR_LIST;
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; l && i < n; ++i)
        PyList_SET_ITEM(l, (Py_ssize_t)i,
                        Py_BuildValue("{s:s,s:s,s:d,s:d,s:O}", "machine",
                                      sw_animator_machine_name(py_def(o), info[i].machine), "state",
                                      sw_animator_state_name(py_def(o), info[i].state), "weight",
                                      (double)info[i].weight, "normalized_time",
                                      info[i].normalized_time, "current",
                                      info[i].current ? Py_True : Py_False));
    return l;
}

static PyObject* py_animator_contributions(PyObject* self, PyObject* unused) {
    (void)unused;
    py_animator* o = (py_animator*)self;
    sw_animator_contribution c[PY_ANIMATOR_LIST];
    uint32_t n = sw_animator_contributions(o->inst, o->bound, c, PY_ANIMATOR_LIST);
    if (n > PY_ANIMATOR_LIST) n = PY_ANIMATOR_LIST;
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; l && i < n; ++i)
        PyList_SET_ITEM(l, (Py_ssize_t)i,
                        Py_BuildValue("{s:I,s:s,s:s,s:d,s:d,s:d}", "layer", c[i].layer, "state",
                                      sw_animator_state_name(py_def(o), c[i].state), "clip",
                                      sw_animator_clip_name(py_def(o), c[i].clip), "weight",
                                      (double)c[i].weight, "time", (double)c[i].time, "phase",
                                      (double)c[i].phase));
    return l;
}

static PyObject* py_animator_layer_weight(PyObject* self, PyObject* arg) {
    const long layer = PyLong_AsLong(arg);
    if (layer == -1 && PyErr_Occurred()) return NULL;
    py_animator* o = (py_animator*)self;
    return PyFloat_FromDouble(
        (double)sw_animator_layer_weight(o->inst, o->bound, (uint32_t)(layer < 0 ? 0 : layer)));
}

static PyObject* py_animator_current_state(PyObject* self, PyObject* machine) {
    const int32_t m = py_find_machine(self, machine);
    if (m < 0) return NULL;
    py_animator* o = (py_animator*)self;
    const uint32_t s = sw_animator_current_state(o->inst, o->bound, (uint32_t)m);
    if (s == SW_ANIMATOR_NONE) Py_RETURN_NONE;
    return PyUnicode_FromString(sw_animator_state_name(py_def(o), s));
}

#define PY_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef k_animator_methods[] = {
    {"update", PY_KW(py_animator_update),
     "update(dt) -> (events, root_motion): advances by dt seconds with the current "
     "parameters (sw_animator_update). events: dicts with kind (\"event\", \"finished\", "
     "\"enter\"), layer, state, clip, event, name, time, weight; root_motion: dict with "
     "translation (x, y, z) in the character's frame and yaw (radians)."},
    {"evaluate", PY_KW(py_animator_evaluate),
     "evaluate(out=None) -> pose: the blended local pose (sw_animator_evaluate)."},
    {"play", PY_KW(py_animator_play),
     "play(state, fade=0.0): makes a state (name, \"Machine/State\" or index) current with "
     "a crossfade of `fade` seconds (sw_animator_play)."},
    {"seek", py_animator_seek, METH_VARARGS,
     "seek(machine, normalized_time): scrubs the current state of a machine (name or "
     "index; sw_animator_seek)."},
    {"reuse_pose", py_animator_reuse_pose, METH_NOARGS,
     "reuse_pose(): instead of evaluate when pose_changed is False and the last pose is "
     "kept (sw_animator_reuse_pose)."},
    {"trigger", py_animator_trigger, METH_O, "trigger(name): sets a trigger parameter to 1."},
    {"reset_params", py_animator_reset_params, METH_NOARGS,
     "reset_params(): every parameter back to its default."},
    {"idle_update", py_animator_idle_update, METH_VARARGS,
     "idle_update(dt): moves the definition's randomized idle channels (JSON \"idle\"; "
     "sw_animator_idle_update)."},
    {"apply_hit", PY_KW(py_animator_apply_hit),
     "apply_hit(direction, strength, facing=None): writes a hit into the parameters the "
     "definition's \"hit\" names (sw_animator_apply_hit); facing: the character's world "
     "rotation (x, y, z, w)."},
    {"states", py_animator_states, METH_NOARGS,
     "states() -> list of dicts: the playing states (machine, state, weight, "
     "normalized_time, current)."},
    {"contributions", py_animator_contributions, METH_NOARGS,
     "contributions() -> list of dicts: the playing clips (layer, state, clip, weight, time, "
     "phase)."},
    {"layer_weight", py_animator_layer_weight, METH_O,
     "layer_weight(layer) -> float: a layer's weight at the last update."},
    {"current_state", py_animator_current_state, METH_O,
     "current_state(machine) -> str | None: the machine's current state."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_animator_getset[] = {
    {"params", py_animator_get, NULL,
     "The parameters, a writable float32 view of the animator's own array (ints whole, "
     "bools and triggers 0 or 1); animator[\"speed\"] = 2 sets one by name.",
     (void*)0},
    {"param_names", py_animator_get, NULL, "Parameter names, in parameter order.", (void*)1},
    {"state_names", py_animator_get, NULL, "State names, across machines.", (void*)2},
    {"machine_names", py_animator_get, NULL, "Machine names.", (void*)3},
    {"layer_names", py_animator_get, NULL, "Layer names, base first.", (void*)4},
    {"clip_names", py_animator_get, NULL, "Clip slots by name.", (void*)5},
    {"skeleton", py_animator_get, NULL, "The skeleton it is bound to.", (void*)6},
    {"pose_changed", py_animator_get, NULL,
     "True when evaluate would give another pose than last time (sw_animator_pose_changed).",
     (void*)7},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_animator_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Animator",
    .tp_basicsize = sizeof(py_animator),
    .tp_dealloc = py_animator_dealloc,
    .tp_as_mapping = &k_animator_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Animator(definition, skeleton, clips, *, keep=\"cursors\")\n\n"
              "A parameter-driven controller (docs/animator.md) with one character's state. "
              "definition: a dict in the JSON schema of docs/animator.md, JSON text, or the "
              "path of a JSON file; clips: the Clips its clip names resolve to (by name); "
              "keep: what the instance keeps between frames (sw_animator_keep), \"cursors\" "
              "or \"keys\" (also quantized clips' decoded keys: faster per character, "
              "about 4 KB per clip). "
              "Per frame: set parameters (animator[\"speed\"] = 2), update(dt), evaluate().",
    .tp_methods = k_animator_methods,
    .tp_getset = k_animator_getset,
    .tp_new = py_animator_new,
};

/* ---- AnimatorBake ---- */

typedef struct py_animator_bake {
    PyObject_HEAD sw_animator_bake* bake;
    PyObject* skeleton;
} py_animator_bake;

static void py_animator_bake_dealloc(PyObject* self) {
    py_animator_bake* o = (py_animator_bake*)self;
    sw_animator_bake_destroy(o->bake);
    Py_XDECREF(o->skeleton);
    Py_TYPE(self)->tp_free(self);
}

static PyObject* py_animator_bake_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"skeleton", "fps", NULL};
    PyObject* so;
    double fps = 30.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Od:AnimatorBake", kwlist, &so, &fps)) return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    if (!s) return NULL;
    py_animator_bake* o = (py_animator_bake*)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->skeleton = Py_NewRef(so);
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_animator_bake_create(s, fps, NULL, &o->bake, &err);
    if (r != SW_RESULT_OK) {
        Py_DECREF(o);
        return py_raise(r, &err, "animator bake");
    }
    return (PyObject*)o;
}

/* Root motion from the dict update returns (or None: zero). */
static bool py_root_motion_arg(PyObject* o, sw_animator_root_motion* rm) {
    memset(rm, 0, sizeof *rm);
    if (o == Py_None) return true;
    PyObject* t = PyMapping_GetItemString(o, "translation");
    PyObject* y = t ? PyMapping_GetItemString(o, "yaw") : NULL;
    const bool ok = y && py_vec3(t, &rm->translation, "root_motion translation") &&
                    !((rm->yaw = (float)PyFloat_AsDouble(y)) == -1.0f && PyErr_Occurred());
    Py_XDECREF(t);
    Py_XDECREF(y);
    return ok;
}

static PyObject* py_animator_bake_append(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"pose", "root_motion", NULL};
    PyObject *po, *rmo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:append", kwlist, &po, &rmo)) return NULL;
    py_animator_bake* o = (py_animator_bake*)self;
    const sw_skeleton* s = py_skeleton_arg(o->skeleton, "skeleton");
    sw_animator_root_motion rm;
    if (!py_root_motion_arg(rmo, &rm)) return NULL;
    PyArrayObject* pose = py_pose_in(po, s->packets_count, "pose");
    if (!pose) return NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_animator_bake_append(o->bake, (const sw_xform4*)PyArray_DATA(pose),
                                                (uint32_t)PyArray_DIM(pose, 0), &rm, &err);
    Py_DECREF(pose);
    return r == SW_RESULT_OK ? Py_NewRef(Py_None) : py_raise(r, &err, "animator bake");
}

static PyObject* py_animator_bake_build(PyObject* self, PyObject* unused) {
    (void)unused;
    const sw_clip* clip = NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_animator_bake_build(((py_animator_bake*)self)->bake, NULL, &clip, &err);
    return r == SW_RESULT_OK ? py_clip_wrap(clip, NULL) : py_raise(r, &err, "animator bake");
}

static PyMethodDef k_animator_bake_methods[] = {
    {"append", PY_KW(py_animator_bake_append),
     "append(pose, root_motion=None): one frame, with the root motion of the update that "
     "led to it (the dict Animator.update returns; None: zero)."},
    {"build", py_animator_bake_build, METH_NOARGS,
     "build() -> Clip: the clip \"baked\" of the frames so far (sw_animator_bake_build)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject py_animator_bake_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.AnimatorBake",
    .tp_basicsize = sizeof(py_animator_bake),
    .tp_dealloc = py_animator_bake_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "AnimatorBake(skeleton, fps)\n\nRecords an animator run frame by frame into a "
              "clip, root motion summed onto the first root (sinew/tools/builders/"
              "animator_bake.h).",
    .tp_methods = k_animator_bake_methods,
    .tp_new = py_animator_bake_new,
};

int py_animator_types_init(PyObject* m) {
    if (PyType_Ready(&py_animator_type) < 0 || PyType_Ready(&py_animator_bake_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "Animator", (PyObject*)&py_animator_type) < 0 ||
        PyModule_AddObjectRef(m, "AnimatorBake", (PyObject*)&py_animator_bake_type) < 0)
        return -1;
    return 0;
}
