/* sinew._sinew: Mirror (mirror data of a skeleton: the pose job and the
 * clip bake) and RetargetMap (the automatic joint map, the runtime map: the
 * pose job, ground fitting and the clip bake). */
#include "py_common.h"

#include <string.h>

#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/builders/retarget_map.h"

/* Meshes and clips from sequences of Mesh / Clip into new arrays (PyMem). */
static bool py_blocks(PyObject* o, PyTypeObject* type, const void*** out, uint32_t* n) {
    *out = NULL;
    *n = 0;
    if (!o || o == Py_None) return true;
    PyObject* seq = PySequence_Fast(o, "a sequence of sinew objects");
    if (!seq) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    *out = PyMem_Calloc(k ? (size_t)k : 1u, sizeof(void*));
    bool ok = *out != NULL;
    for (Py_ssize_t i = 0; ok && i < k; ++i)
        ok = ((*out)[i] = py_block_arg(PySequence_Fast_GET_ITEM(seq, i), type, "sequence")) != NULL;
    *n = (uint32_t)k;
    Py_DECREF(seq);
    return ok;
}

/* ---- Mirror ---- */

typedef struct py_mirror {
    PyObject_HEAD const sw_mirror* mirror;
    PyObject* skeleton;
} py_mirror;

static void py_mirror_dealloc(PyObject* self) {
    py_mirror* o = (py_mirror*)self;
    sw_mirror_destroy(o->mirror, NULL);
    Py_XDECREF(o->skeleton);
    Py_TYPE(self)->tp_free(self);
}

/* Pairs: a sequence of (a, b) joint names into pairs[] (names owned by seq). */
static bool py_mirror_pairs(PyObject* seq, sw_mirror_pair* pairs, uint32_t cap, uint32_t* n) {
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > (Py_ssize_t)cap) {
        PyErr_Format(PyExc_ValueError, "pairs: at most %u", cap);
        return false;
    }
    for (Py_ssize_t i = 0; i < k; ++i)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ss", &pairs[i].a, &pairs[i].b))
            return false;
    *n = (uint32_t)k;
    return true;
}

static bool py_mirror_axis(const char* s, sw_mirror_axis* out) {
    const char c = s && s[0] && !s[1] ? (char)(s[0] | 0x20) : '\0';
    if (!s) return true;
    if (c < 'x' || c > 'z') {
        PyErr_Format(PyExc_ValueError, "axis: \"x\", \"y\" or \"z\", got \"%s\"", s);
        return false;
    }
    *out = c == 'x' ? SW_MIRROR_AXIS_X : c == 'y' ? SW_MIRROR_AXIS_Y : SW_MIRROR_AXIS_Z;
    return true;
}

#define PY_MIRROR_MAX_PAIRS SW_SKELETON_MAX_JOINTS

static PyObject* py_mirror_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"skeleton", "pairs", "axis", "patterns", "frames", NULL};
    PyObject *so, *po = Py_None, *fo = Py_None;
    const char* axis = NULL;
    int patterns = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OzpO:Mirror", kwlist, &so, &po, &axis, &patterns,
                                     &fo))
        return NULL;
    sw_mirror_desc d;
    memset(&d, 0, sizeof d);
    d.skeleton = py_skeleton_arg(so, "skeleton");
    d.no_patterns = !patterns;
    if (!d.skeleton || !py_mirror_axis(axis, &d.axis)) return NULL;
    sw_mirror_pair pairs[PY_MIRROR_MAX_PAIRS];
    PyObject* seq = po != Py_None ? PySequence_Fast(po, "pairs: a sequence of (a, b)") : NULL;
    PyArrayObject* frames = NULL;
    PyObject* result = NULL;
    if (po != Py_None &&
        (!seq || !py_mirror_pairs(seq, pairs, PY_MIRROR_MAX_PAIRS, &d.pairs_count)))
        goto done;
    d.pairs = d.pairs_count ? pairs : NULL;
    if (fo != Py_None) {
        frames = py_mat_in(fo, d.skeleton->joints_count, "frames");
        if (!frames) goto done;
        d.frames = (const sw_mat4*)PyArray_DATA(frames);
        d.frames_count = (uint32_t)PyArray_DIM(frames, 0);
    }
    const sw_mirror* m = NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_mirror_create(&d, NULL, &m, &err);
    if (r == SW_RESULT_BAD_DATA && err.index >= 0 && err.check &&
        strcmp(err.check, "twin of parent is parent of twin") == 0)
        snprintf(err.detail, sizeof err.detail, "joint %s: give its twin in pairs",
                 sw_skeleton_joint_name(d.skeleton, (uint32_t)err.index));
    if (r != SW_RESULT_OK) {
        py_raise(r, &err, "mirror");
        goto done;
    }
    py_mirror* o = (py_mirror*)type->tp_alloc(type, 0);
    if (!o) {
        sw_mirror_destroy(m, NULL);
        goto done;
    }
    o->mirror = m;
    o->skeleton = Py_NewRef(so);
    result = (PyObject*)o;
done:
    Py_XDECREF(seq);
    Py_XDECREF(frames);
    return result;
}

static PyObject* py_mirror_apply(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"pose", "out", NULL};
    PyObject *po, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$O:apply", kwlist, &po, &out)) return NULL;
    const sw_mirror* m = ((py_mirror*)self)->mirror;
    PyArrayObject* in = py_pose_in(po, m->packets_count, "pose");
    PyArrayObject* o = in ? py_pose_out(out, m->packets_count) : NULL;
    if (o) {
        const sw_mirror_job job = {m, (const sw_xform4*)PyArray_DATA(in),
                                   (uint32_t)PyArray_DIM(in, 0), (sw_xform4*)PyArray_DATA(o),
                                   (uint32_t)PyArray_DIM(o, 0)};
        const sw_result r = sw_mirror_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(o);
            py_raise(r, NULL, "mirror");
        }
    }
    Py_XDECREF(in);
    return (PyObject*)o;
}

static PyObject* py_mirror_bake(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"clip", "name", NULL};
    PyObject* co;
    const char* name = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|z:bake", kwlist, &co, &name)) return NULL;
    py_mirror* o = (py_mirror*)self;
    const sw_clip* c = py_clip_arg(co, "clip");
    if (!c) return NULL;
    const sw_mirror_bake_options opt = {name};
    const sw_clip* out = NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_skeleton* s = py_skeleton_arg(o->skeleton, "skeleton");
    sw_result r;
    Py_BEGIN_ALLOW_THREADS;
    r = sw_mirror_bake_clip(s, o->mirror, c, &opt, NULL, &out, &err);
    Py_END_ALLOW_THREADS;
    if (r != SW_RESULT_OK) {
        char what[300];
        snprintf(what, sizeof what, "mirror bake of clip \"%s\"", sw_clip_name(c));
        return py_raise(r, &err, what);
    }
    return py_clip_wrap(out, NULL);
}

static PyObject* py_mirror_get(PyObject* self, void* closure) {
    py_mirror* o = (py_mirror*)self;
    const sw_mirror* m = o->mirror;
    if (closure == NULL) {
        const npy_intp n = (npy_intp)m->joints_count;
        return py_view(self, (const char*)m + m->twins_offset, 1, &n, NPY_UINT16, false);
    }
    if (closure == (void*)1) return PyUnicode_FromStringAndSize(&"?xyz"[m->axis & 3u], 1);
    if (closure == (void*)2) return PyLong_FromUnsignedLong(m->pairs_count);
    return Py_NewRef(o->skeleton);
}

static PyMethodDef k_mirror_methods[] = {
    {"apply", (PyCFunction)(void (*)(void))py_mirror_apply, METH_VARARGS | METH_KEYWORDS,
     "apply(pose, *, out=None) -> pose: the mirrored local pose (sw_mirror_job)."},
    {"bake", (PyCFunction)(void (*)(void))py_mirror_bake, METH_VARARGS | METH_KEYWORDS,
     "bake(clip, name=None) -> Clip: the mirrored clip, key by key (sw_mirror_bake_clip; "
     "name None: the clip's name + \"_mirrored\")."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_mirror_getset[] = {
    {"twins", py_mirror_get, NULL, "Twin of each joint (itself when none), a uint16 view.", NULL},
    {"axis", py_mirror_get, NULL, "The mirror plane's normal: \"x\", \"y\" or \"z\".", (void*)1},
    {"pairs_count", py_mirror_get, NULL, "Twin pairs found or given.", (void*)2},
    {"skeleton", py_mirror_get, NULL, "The skeleton it mirrors.", (void*)3},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_mirror_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.Mirror",
    .tp_basicsize = sizeof(py_mirror),
    .tp_dealloc = py_mirror_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Mirror(skeleton, *, pairs=None, axis=None, patterns=True, frames=None)\n\n"
              "Mirror data of a skeleton (sw_mirror_create): twins from Left/Right name "
              "patterns and/or pairs [(a, b), ...], the plane's axis (None: detected), "
              "frames: model-space reference matrices (see mirror_bind_frames). "
              "docs/mirroring.md.",
    .tp_methods = k_mirror_methods,
    .tp_getset = k_mirror_getset,
    .tp_new = py_mirror_new,
};

static PyObject* py_mirror_bind_frames(PyObject* self, PyObject* args) {
    (void)self;
    PyObject *so, *mo;
    if (!PyArg_ParseTuple(args, "OO:mirror_bind_frames", &so, &mo)) return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "skeleton");
    const void** meshes = NULL;
    uint32_t n = 0;
    if (!s || !py_blocks(mo, &py_mesh_type, &meshes, &n)) {
        PyMem_Free(meshes);
        return NULL;
    }
    PyArrayObject* st = py_mat_new(s->joints_count);
    const sw_result r = st ? sw_mirror_bind_frames(s, (const sw_mesh* const*)meshes, n,
                                                   (sw_mat4*)PyArray_DATA(st), s->joints_count)
                           : SW_RESULT_OUT_OF_MEMORY;
    PyMem_Free(meshes);
    if (r != SW_RESULT_OK) {
        Py_XDECREF(st);
        return st ? py_raise(r, NULL, "mirror_bind_frames") : NULL;
    }
    return py_mat_view(st);
}

/* ---- RetargetMap ---- */

typedef struct py_retarget_map {
    PyObject_HEAD sw_retarget_joint_map* joints;
    sw_retarget_map* map;
    PyObject* source;
    PyObject* target;
    bool ik;
} py_retarget_map;

static void py_retarget_map_dealloc(PyObject* self) {
    py_retarget_map* o = (py_retarget_map*)self;
    PyMem_Free(o->joints);
    PyMem_Free(o->map);
    Py_XDECREF(o->source);
    Py_XDECREF(o->target);
    Py_TYPE(self)->tp_free(self);
}

/* Marks a skeleton's own joints (sw_retarget_skeleton_joints) from its meshes and clips. */
static bool py_skeleton_mask(const sw_skeleton* s, PyObject* meshes_o, PyObject* clips_o,
                             uint8_t* mask) {
    const void **meshes = NULL, **clips = NULL;
    uint32_t nm = 0, nc = 0;
    const bool ok = py_blocks(meshes_o, &py_mesh_type, &meshes, &nm) &&
                    py_blocks(clips_o, &py_clip_type, &clips, &nc);
    if (ok)
        sw_retarget_skeleton_joints(s, (const sw_mesh* const*)meshes, nm,
                                    (const sw_clip* const*)clips, nc, mask);
    PyMem_Free(meshes);
    PyMem_Free(clips);
    return ok;
}

/* The roles the map leaves unmapped, "a, b" into out. */
static void py_missing_roles(const sw_retarget_joint_map* jm, char* out, size_t cap) {
    const uint32_t bits = sw_retarget_joint_map_missing(jm);
    size_t n = 0;
    out[0] = '\0';
    for (int b = 1; b < SW_RETARGET_BONE_COUNT && n + 1 < cap; ++b) {
        if (!(bits & (1u << b))) continue;
        const int w = snprintf(out + n, cap - n, "%s%s", n ? ", " : "",
                               sw_retarget_bone_str((sw_retarget_bone)b));
        if (w > 0) n += (size_t)w;
    }
}

/* The runtime map from the joint map; a failure names what is mapped. */
static bool py_retarget_prepare(py_retarget_map* o, float root_scale) {
    sw_retarget_pair* pairs = PyMem_Calloc(SW_SKELETON_MAX_JOINTS, sizeof *pairs);
    if (!pairs) return PyErr_NoMemory() != NULL;
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    sw_error err = SW_ERROR_INIT;
    err.check = "a joint of the target mapped";
    sw_result r = sw_retarget_joint_map_desc(o->joints, o->ik, pairs, limbs, &desc);
    if (r == SW_RESULT_OK) {
        desc.root_scale = root_scale;
        r = sw_retarget_map_init(&desc, o->map, &err);
    }
    PyMem_Free(pairs);
    if (r == SW_RESULT_OK) return true;
    char missing[200];
    py_missing_roles(o->joints, missing, sizeof missing);
    snprintf(err.detail, sizeof err.detail, "%u of %u target joints mapped%s%s",
             sw_retarget_joint_map_count(o->joints), o->joints->target->joints_count,
             missing[0] ? ", unmapped roles: " : "", missing);
    py_raise(r, &err, "retarget map");
    return false;
}

static PyObject* py_retarget_map_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {
        "source",        "target",       "map",           "ik",           "root_scale",
        "source_meshes", "source_clips", "target_meshes", "target_clips", NULL};
    PyObject *so, *to, *sm = Py_None, *sc = Py_None, *tm = Py_None, *tc = Py_None;
    const char* text = NULL;
    Py_ssize_t text_size = 0;
    int ik = 1;
    float root_scale = 0.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$z#pfOOOO:RetargetMap", kwlist, &so, &to, &text,
                                     &text_size, &ik, &root_scale, &sm, &sc, &tm, &tc))
        return NULL;
    const sw_skeleton* s = py_skeleton_arg(so, "source");
    const sw_skeleton* t = s ? py_skeleton_arg(to, "target") : NULL;
    if (!t) return NULL;
    py_retarget_map* o = (py_retarget_map*)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->source = Py_NewRef(so);
    o->target = Py_NewRef(to);
    o->ik = ik != 0;
    o->joints = PyMem_Calloc(1, sizeof *o->joints);
    o->map = PyMem_Calloc(1, sizeof *o->map);
    uint8_t* masks = PyMem_Calloc(2, SW_SKELETON_MAX_JOINTS);
    bool ok = o->joints && o->map && masks;
    if (!ok) PyErr_NoMemory();
    ok = ok && py_skeleton_mask(s, sm, sc, masks) &&
         py_skeleton_mask(t, tm, tc, masks + SW_SKELETON_MAX_JOINTS);
    if (ok)
        sw_retarget_joint_map_auto_masked(s, masks, t, masks + SW_SKELETON_MAX_JOINTS, o->joints);
    PyMem_Free(masks);
    if (ok && text) {
        sw_error err = SW_ERROR_INIT;
        const sw_result r = sw_retarget_joint_map_parse(o->joints, text, (size_t)text_size, &err);
        ok = r == SW_RESULT_OK || py_raise(r, &err, "retarget map text") != NULL;
    }
    if (!ok || !py_retarget_prepare(o, root_scale)) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject*)o;
}

static PyObject* py_retarget_apply(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"pose", "ik_weight", "out", NULL};
    PyObject *po, *out = Py_None;
    float ik_weight = 1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|f$O:apply", kwlist, &po, &ik_weight, &out))
        return NULL;
    py_retarget_map* o = (py_retarget_map*)self;
    const sw_skeleton* s = py_skeleton_arg(o->source, "source");
    const sw_skeleton* t = py_skeleton_arg(o->target, "target");
    const size_t scratch_size = sw_retarget_scratch_size(o->map);
    void* scratch = sw_alloc(NULL, scratch_size, 16);
    PyArrayObject* in = scratch ? py_pose_in(po, s->packets_count, "pose") : NULL;
    PyArrayObject* res = in ? py_pose_out(out, t->packets_count) : NULL;
    if (!scratch) PyErr_NoMemory();
    if (res) {
        const sw_retarget_job job = {o->map,
                                     s,
                                     t,
                                     (const sw_xform4*)PyArray_DATA(in),
                                     (uint32_t)PyArray_DIM(in, 0),
                                     ik_weight,
                                     scratch,
                                     scratch_size,
                                     (sw_xform4*)PyArray_DATA(res),
                                     (uint32_t)PyArray_DIM(res, 0)};
        const sw_result r = sw_retarget_job_run(&job);
        if (r != SW_RESULT_OK) {
            Py_CLEAR(res);
            py_raise(r, NULL, "retarget");
        }
    }
    Py_XDECREF(in);
    sw_free(NULL, scratch, scratch_size);
    return (PyObject*)res;
}

static PyObject* py_retarget_fit_ground(PyObject* self, PyObject* co) {
    py_retarget_map* o = (py_retarget_map*)self;
    const sw_clip* c = py_clip_arg(co, "clip");
    if (!c) return NULL;
    float ground = 0.0f;
    const sw_result r = sw_retarget_fit_ground(o->map, py_skeleton_arg(o->source, "source"), c,
                                               py_skeleton_arg(o->target, "target"), &ground);
    return r == SW_RESULT_OK ? PyFloat_FromDouble((double)ground)
                             : py_raise(r, NULL, "retarget fit_ground");
}

static PyObject* py_retarget_bake(PyObject* self, PyObject* args, PyObject* kw) {
    static char* kwlist[] = {"clip",       "rate",        "ik_weight",  "foot_lock",
                             "lock_speed", "lock_height", "lock_blend", NULL};
    PyObject* co;
    sw_retarget_bake_options opt;
    memset(&opt, 0, sizeof opt);
    opt.ik_weight = 1.0f;
    int lock = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$ffpfff:bake", kwlist, &co, &opt.rate,
                                     &opt.ik_weight, &lock, &opt.lock_speed, &opt.lock_height,
                                     &opt.lock_blend))
        return NULL;
    opt.foot_lock = lock != 0;
    py_retarget_map* o = (py_retarget_map*)self;
    const sw_clip* c = py_clip_arg(co, "clip");
    if (!c) return NULL;
    const sw_clip* out = NULL;
    sw_error err = SW_ERROR_INIT;
    const sw_skeleton* s = py_skeleton_arg(o->source, "source");
    const sw_skeleton* t = py_skeleton_arg(o->target, "target");
    sw_result r;
    Py_BEGIN_ALLOW_THREADS;
    r = sw_retarget_bake(o->map, s, c, t, &opt, NULL, &out, &err);
    Py_END_ALLOW_THREADS;
    if (r != SW_RESULT_OK) {
        char what[300];
        snprintf(what, sizeof what, "retarget bake of clip \"%s\"", sw_clip_name(c));
        return py_raise(r, &err, what);
    }
    return py_clip_wrap(out, NULL);
}

static PyObject* py_retarget_get(PyObject* self, void* closure) {
    py_retarget_map* o = (py_retarget_map*)self;
    const sw_retarget_joint_map* jm = o->joints;
    switch ((int)(intptr_t)closure) {
    case 0: {
        PyObject* d = PyDict_New();
        for (uint32_t t = 0; d && t < jm->target->joints_count; ++t) {
            if (jm->source_of[t] < 0) continue;
            PyObject* v = PyUnicode_FromString(
                sw_skeleton_joint_name(jm->source, (uint32_t)jm->source_of[t]));
            if (!v || PyDict_SetItemString(d, sw_skeleton_joint_name(jm->target, t), v) < 0)
                Py_CLEAR(d);
            Py_XDECREF(v);
        }
        return d;
    }
    case 1: {
        char missing[512];
        py_missing_roles(jm, missing, sizeof missing);
        return PyUnicode_FromString(missing);
    }
    case 2:
        return PyFloat_FromDouble((double)o->map->root_scale);
    case 3:
        return PyFloat_FromDouble((double)o->map->source_ground);
    case 4:
        return PyLong_FromUnsignedLong(o->map->limbs_count);
    case 5:
        return Py_NewRef(o->source);
    default:
        return Py_NewRef(o->target);
    }
}

static int py_retarget_set_ground(PyObject* self, PyObject* v, void* closure) {
    (void)closure;
    const double d = v ? PyFloat_AsDouble(v) : 0.0;
    if (d == -1.0 && PyErr_Occurred()) return -1;
    ((py_retarget_map*)self)->map->source_ground = (float)d;
    return 0;
}

static PyMethodDef k_retarget_methods[] = {
    {"apply", (PyCFunction)(void (*)(void))py_retarget_apply, METH_VARARGS | METH_KEYWORDS,
     "apply(pose, ik_weight=1.0, *, out=None) -> pose: a source local pose carried onto the "
     "target skeleton (sw_retarget_job)."},
    {"fit_ground", py_retarget_fit_ground, METH_O,
     "fit_ground(clip) -> float: the source ground height for a clip "
     "(sw_retarget_fit_ground); store it in source_ground before bake."},
    {"bake", (PyCFunction)(void (*)(void))py_retarget_bake, METH_VARARGS | METH_KEYWORDS,
     "bake(clip, *, rate=0.0, ik_weight=1.0, foot_lock=True, lock_speed=0.0, "
     "lock_height=0.0, lock_blend=0.0) -> Clip: the source clip retargeted onto the target "
     "skeleton (sw_retarget_bake)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef k_retarget_getset[] = {
    {"pairs", py_retarget_get, NULL, "Mapped joints: {target joint name: source joint name}.",
     (void*)0},
    {"missing_roles", py_retarget_get, NULL,
     "Humanoid roles of the target left unmapped, comma-separated (\"\" when none).", (void*)1},
    {"root_scale", py_retarget_get, NULL, "Source-to-target scale (given or measured).", (void*)2},
    {"source_ground", py_retarget_get, py_retarget_set_ground,
     "The source's ground height (model y) used by apply and bake.", (void*)3},
    {"limbs_count", py_retarget_get, NULL, "Two-bone IK limbs of the map.", (void*)4},
    {"source", py_retarget_get, NULL, "The source skeleton.", (void*)5},
    {"target", py_retarget_get, NULL, "The target skeleton.", (void*)6},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject py_retarget_map_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sinew.RetargetMap",
    .tp_basicsize = sizeof(py_retarget_map),
    .tp_dealloc = py_retarget_map_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RetargetMap(source, target, *, map=None, ik=True, root_scale=0.0, "
              "source_meshes=(), source_clips=(), target_meshes=(), target_clips=())\n\n"
              "The automatic joint map of two skeletons (humanoid roles among each "
              "skeleton's own joints, told by its meshes and clips), edited by a map text "
              "(lines source=target as `sinew retarget --map` reads), and the runtime map "
              "built from it (leg IK with ik). docs/retargeting.md.",
    .tp_methods = k_retarget_methods,
    .tp_getset = k_retarget_getset,
    .tp_new = py_retarget_map_new,
};

static PyMethodDef k_retarget_functions[] = {
    {"mirror_bind_frames", py_mirror_bind_frames, METH_VARARGS,
     "mirror_bind_frames(skeleton, meshes) -> matrices: the rest pose's model matrices with "
     "each skinned joint's bind pose (sw_mirror_bind_frames), for Mirror(frames=...)."},
    {NULL, NULL, 0, NULL}};

int py_retarget_types_init(PyObject* m) {
    if (PyType_Ready(&py_mirror_type) < 0 || PyType_Ready(&py_retarget_map_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "Mirror", (PyObject*)&py_mirror_type) < 0 ||
        PyModule_AddObjectRef(m, "RetargetMap", (PyObject*)&py_retarget_map_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, k_retarget_functions);
}
